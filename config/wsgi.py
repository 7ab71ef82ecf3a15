"""WSGI entry point (for gunicorn, mod_wsgi, ...): Django behind the front door, which sends a
visitor's kept whole answers again without running Django (tournament/web/front.py)."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_wsgi_application()

from tournament.web.front import FrontDoor  # noqa: E402 (after Django is set up)

application = FrontDoor(django_application)
