"""`manage.py erase_contacts`: erases the contact data of registrations whose tournament is
`DOKO_CONTACT_RETENTION_DAYS` days (30) or more in the past (docs/security.md, "Contact data").
Safe to run as often as one likes: daily from cron or a systemd timer (docs/deploy.md), and at every
start of `make serve`."""

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from tournament.services.contacts import erase_contacts


class Command(BaseCommand):
    help = (
        "Löscht die Kontaktdaten der Anmeldungen und Korrekturanfragen von Turnieren, die länger als die "
        "Aufbewahrungsfrist her sind."
    )

    def handle(self, *args, **options):
        count = erase_contacts()
        if options["verbosity"] >= 1:
            erased = _("Kontaktdaten von %(count)s Anmeldungen und Korrekturanfragen gelöscht.")
            self.stdout.write(erased % {"count": count})
