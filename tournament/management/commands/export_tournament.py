"""`manage.py export_tournament SLUG [--output FILE]`: the tournament as a file (docs/tournament-file.md)."""
import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament.models import Tournament
from tournament.services.backups import write_private
from tournament.services.exporting import export_tournament


class Command(BaseCommand):
    help = "Schreibt ein Turnier als Turnierdatei (JSON, UTF-8), auf die Standardausgabe oder in eine Datei."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="Kurzname des Turniers")
        parser.add_argument("--output", "-o", help="Datei statt der Standardausgabe")

    def handle(self, *args, slug, output=None, **options):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(_("Ein Turnier mit dem Kurznamen %(slug)s gibt es nicht.") % {"slug": slug})
        text = json.dumps(export_tournament(tournament), ensure_ascii=False, indent=2) + "\n"
        if output:  # it holds the entry links: readable by its owner only (docs/security.md)
            write_private(output, text)
        else:
            self.stdout.write(text, ending="")
