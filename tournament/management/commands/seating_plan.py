"""`manage.py seating_plan --players N --rounds R [--json]`: a seating schedule without a tournament.

The schedule the draw would follow for N players and R planned rounds (`seating.schedules.plan`;
`python -m seating` prints the same in English), players as start numbers 1..N. Text: one line per
table, then the repeat meetings beside their lower bound. `--json`:
`{"rounds": [[[1, 5, 9, 13], …], …], "repeats": n}` (rounds -> tables -> start numbers, tables of 4
first; `repeats` summed over the rounds as the round pages count them).
Impossible counts (6, 7, 11, fewer than 4) and bad arguments end with exit code 2 and one line on
standard error.
"""

import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

import seating
from seating import schedules

MAX_ROUNDS = 30  # as many as a tournament can plan


class Command(BaseCommand):
    help = "Gibt einen Sitzplan für alle Runden aus, ohne Turnier (Startnummern 1..N)."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.print_usage = lambda file=None: None  # an argument error is one line, not the usage too
        return parser

    def add_arguments(self, parser):
        parser.add_argument("--players", required=True, help="Anzahl Spieler (ab 4, nicht 6, 7, 11)")
        parser.add_argument("--rounds", required=True, help=f"Anzahl Runden (1 bis {MAX_ROUNDS})")
        parser.add_argument("--json", action="store_true", help="als JSON ausgeben")

    def handle(self, *args, players, rounds, json=False, **options):
        n = self.number(players, "--players")
        count = self.number(rounds, "--rounds")
        if not 1 <= count <= MAX_ROUNDS:
            raise CommandError(_("--rounds muss zwischen 1 und %(max)s liegen.") % {"max": MAX_ROUNDS}, returncode=2)
        try:
            seating.table_sizes(n)
        except seating.SeatingImpossible as error:
            raise CommandError(error.message("de"), returncode=2) from None
        plan = schedules.plan(n, count)
        rows = [[[p + 1 for p in table] for table in row] for row in plan.rows]
        if json:
            self.stdout.write(dumps({"rounds": rows, "repeats": plan.repeats}))
            return
        for number, row in enumerate(rows, start=1):
            self.stdout.write(_("Runde %(round)s") % {"round": number})
            for table_number, table in enumerate(row, start=1):
                self.stdout.write(f"  {table_number:>3}: " + " ".join(f"{p:>3}" for p in table))
        self.stdout.write(_("Wiederbegegnungen: %(repeats)s (Untergrenze %(bound)s), wieder am 5er-Tisch: %(five)s")
                          % {"repeats": plan.repeats, "bound": plan.lower_bound, "five": plan.repeated_five})

    @staticmethod
    def number(text: str, option: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise CommandError(_("%(option)s braucht eine ganze Zahl, nicht „%(text)s“.")
                               % {"option": option, "text": text}, returncode=2) from None


def dumps(data) -> str:
    return json.dumps(data, separators=(", ", ": "))
