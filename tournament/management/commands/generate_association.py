"""`manage.py generate_association [--clubs 200] [--tournaments 10000] [--players 200000] [--years 3]
[--seed S] [--prefix v]`

A generated association for the hub's benchmarks and demos (docs/hub.md): clubs in every region,
people with records at the clubs they play at, tournaments of every kind over the years with their
entries and rounds (no games). Prints what it made and the time taken.
"""

import time

from django.core.management.base import BaseCommand, CommandError

from tournament.errors import UserError
from tournament.services.association import generate_association


class Command(BaseCommand):
    help = "Legt einen zufälligen Verband an: Vereine, Spieler und Turniere über Jahre (Benchmarks des Hubs)."

    def add_arguments(self, parser):
        parser.add_argument("--clubs", type=int, default=200, help="Vereine (Vorgabe: %(default)s)")
        parser.add_argument("--tournaments", type=int, default=10_000, help="Turniere (Vorgabe: %(default)s)")
        parser.add_argument("--players", type=int, default=200_000, help="Personen (Vorgabe: %(default)s)")
        parser.add_argument("--years", type=int, default=3, help="über so viele Jahre (Vorgabe: %(default)s)")
        parser.add_argument("--seed", default="verband", help="Startwert; gleicher Startwert, gleicher Verband")
        parser.add_argument("--prefix", default="v", help="Anfang der Kurznamen (Vorgabe: %(default)s)")

    def handle(self, *args, clubs, tournaments, players, years, seed, prefix, **options):
        started = time.perf_counter()
        try:
            made = generate_association(clubs=clubs, tournaments=tournaments, players=players, years=years,
                                        seed=seed, prefix=prefix)
        except UserError as error:
            raise CommandError(str(error.message), returncode=2) from None
        self.stdout.write(
            f"{made.clubs} Vereine, {made.people} Personen ({made.player_records} Spielerdatensätze), "
            f"{made.tournaments} Turniere, {made.entries} Teilnahmen, {made.rounds} Runden, "
            f"{made.scores} Rundenergebnisse der Ranglistenturniere: "
            f"{time.perf_counter() - started:.1f} s")
