"""Demo data for trying the app locally: `python manage.py load_demo` (also run by `make run`).

Idempotent: running it again resets the demo director's password and changes nothing else.
"""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import reverse

DIRECTOR_USERNAME = "turnierleitung"
DIRECTOR_PASSWORD = "doppelkopf"


class Command(BaseCommand):
    help = "Legt Demodaten an: ein Konto für die Turnierleitung (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="Where the server runs, for the printed login URL (default: %(default)s).",
        )

    @transaction.atomic
    def handle(self, *args, base_url, **options):
        director = self.ensure_director()
        self.load_demo_tournament(director=director)

        login_url = base_url.rstrip("/") + reverse("login")
        self.stdout.write(self.style.SUCCESS("Demodaten bereit."))
        self.stdout.write(f"Anmelden:  {login_url}")
        self.stdout.write(f"Benutzer:  {DIRECTOR_USERNAME}")
        self.stdout.write(f"Passwort:  {DIRECTOR_PASSWORD}")

    def ensure_director(self):
        User = get_user_model()
        director, _created = User.objects.get_or_create(username=DIRECTOR_USERNAME)
        director.is_staff = True
        director.is_active = True
        director.set_password(DIRECTOR_PASSWORD)
        director.save()
        return director

    def load_demo_tournament(self, *, director):
        """Placeholder: the demo tournament (players, rounds, tables, games) goes here.

        It must stay idempotent, like ensure_director: look the demo tournament up by a fixed
        name and leave it alone (or rebuild it) when it exists.
        """
