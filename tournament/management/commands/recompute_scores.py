"""`manage.py recompute_scores [SLUG]`: rebuilds the stored scores of one tournament or of all of them, and
rates their games anew (after a change of the rating's model, docs/rating.md)."""
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament.errors import EntryProblems
from tournament.models import Tournament
from tournament.services.ratings import rebuild_ratings
from tournament.services.scores import rebuild_scores


class Command(BaseCommand):
    help = "Berechnet die gespeicherten Ergebnisse neu: eines Turniers oder aller Turniere."

    def add_arguments(self, parser):
        parser.add_argument("slug", nargs="?", help="Kurzname des Turniers (sonst alle)")

    def handle(self, *args, slug=None, **options):
        tournaments = Tournament.objects.all()
        if slug:
            tournaments = tournaments.filter(slug=slug)
            if not tournaments.exists():
                raise CommandError(_("Ein Turnier mit dem Kurznamen %(slug)s gibt es nicht.") % {"slug": slug})
        count = 0
        for tournament in tournaments.order_by("id"):
            try:
                count += rebuild_scores(tournament=tournament)
                rebuild_ratings(tournament=tournament)
            except EntryProblems as error:
                raise CommandError(f"{tournament.slug}: " + "\n".join(error.lines())) from None
        self.stdout.write(_("%(count)s Tische neu berechnet.") % {"count": count})
