"""What a server process would otherwise do on its first requests, done once in gunicorn's master
before it forks the workers (deploy/gunicorn.conf.py, `when_ready`; `preload_app` has loaded the
app there): the URL patterns with every view module they import, the templates compiled by
Django's cached loader, the translation catalogues. Every worker then starts warm, also one
restarted after `max_requests` in the middle of an evening: measured, about 0.7 s of one core per
worker that phones arriving in the first seconds no longer wait for (docs/performance.md, "Smaller layers").
Touches no database: the workers open their own connections."""

from __future__ import annotations

from django.conf import settings
from django.template.loader import get_template
from django.urls import get_resolver
from django.utils import translation


def warm_up() -> int:
    """Loads the URL patterns, compiles every template of the project and loads each language's
    catalogue; returns the number of templates."""
    resolver = get_resolver()  # the URLconf with every view module it imports, ready to reverse
    for _prefix, included in resolver.namespace_dict.values():
        included.reverse_dict  # noqa: B018 (builds it)
    folder = settings.BASE_DIR / "templates"
    names = sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*.html"))
    for name in names:
        get_template(name)
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            translation.gettext("Punkte")
    return len(names)
