"""`manage.py player_data ORGANISATION NAME [--club CLUB] [--erase]`: a person's data on request
(GDPR Art. 15: printed as JSON; Art. 17: erased, their results kept under a pseudonym).
docs/security.md, "Personal data"."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament.errors import UserError
from tournament.log.audit import Actor
from tournament.models import Player
from tournament.services import personal_data
from tournament.services.organisations import organisation_named


class Command(BaseCommand):
    help = "Gibt die gespeicherten Daten eines Spielers aus (DSGVO Art. 15) und löscht sie auf Wunsch (Art. 17)."

    def add_arguments(self, parser):
        parser.add_argument("organisation", help="Kurzname der Organisation, der der Spieler gehört")
        parser.add_argument("name", help="Name des Spielers, wie er gespeichert ist")
        parser.add_argument("--club", help="Verein (wenn mehrere Spieler so heißen)")
        parser.add_argument("--erase", action="store_true",
                            help="Name, Verein, Mitgliedsnummer und Kontaktdaten löschen; Ergebnisse bleiben "
                                 "unter einem Pseudonym")

    def handle(self, *args, organisation, name, club=None, erase=False, **options):
        try:
            owner = organisation_named(organisation)
        except UserError as error:
            raise CommandError(str(error.message), returncode=2) from None
        people = Player.objects.filter(organisation=owner, name=name)
        if club is not None:
            people = people.filter(club=club)
        found = list(people.order_by("id"))
        if not found:
            raise CommandError(_("%(name)s gibt es in %(organisation)s nicht.")
                               % {"name": name, "organisation": owner.name}, returncode=2)
        if len(found) > 1:
            clubs = ", ".join(sorted({p.club or "–" for p in found}))
            raise CommandError(_("%(n)s Spieler heißen %(name)s (Vereine: %(clubs)s); bitte --club angeben.")
                               % {"n": len(found), "name": name, "clubs": clubs}, returncode=2)
        player = found[0]
        self.stdout.write(json.dumps(personal_data.player_report(player), ensure_ascii=False, indent=1))
        if erase:
            player = personal_data.erase_player(player=player, by=Actor(label="Datenschutz"))
            self.stderr.write(_("Gelöscht: die Ergebnisse bleiben unter „%(alias)s“.") % {"alias": player.name})
