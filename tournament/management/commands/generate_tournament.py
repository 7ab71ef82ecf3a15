"""`manage.py generate_tournament --players N --rounds R [--seed S] [--rules PRESET] [--slug SLUG] [--name NAME]`

A tournament full of random valid games, for demos and benchmarks; the same seed gives the same
players, tables and games. Prints the slug; the seed and the time taken go to standard error.
"""
import secrets
import time

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

import scoring
from seating import SeatingImpossible, table_sizes
from tournament.errors import UserError
from tournament.services.generate import generate_tournament
from tournament.services.organisations import organisation_named


class Command(BaseCommand):
    help = "Legt ein Turnier mit zufälligen, gültigen Spielen an (Demo, Lasttest)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True, help="Anzahl Spieler (ab 4, nicht 6, 7, 11)")
        parser.add_argument("--rounds", type=int, required=True, help="gespielte Runden")
        parser.add_argument("--seed", help="Startwert; gleicher Startwert, gleiches Turnier (sonst zufällig)")
        parser.add_argument("--rules", default=scoring.DEFAULT_PRESET, choices=list(scoring.PRESETS),
                            help="Regelvorlage (Vorgabe: %(default)s)")
        parser.add_argument("--slug", default="", help="Kurzname (sonst aus dem Namen)")
        parser.add_argument("--name", default="", help="Name des Turniers")
        parser.add_argument("--organisation",
                            help="Kurzname der Organisation (sonst die des Vereins, docs/security.md)")

    def handle(self, *args, players, rounds, seed=None, rules, slug="", name="", organisation=None, **options):
        if rounds < 0:
            raise CommandError(_("--rounds darf nicht negativ sein."))
        try:
            table_sizes(players)
        except SeatingImpossible as error:
            raise CommandError(error.message("de")) from None
        seed = seed or secrets.token_hex(4)
        started = time.perf_counter()
        try:
            tournament = generate_tournament(players=players, rounds=rounds, seed=seed, rules=rules, slug=slug,
                                             name=name, organisation=organisation_named(organisation))
        except UserError as error:
            raise CommandError(str(error.message)) from None
        seconds = time.perf_counter() - started
        self.stdout.write(tournament.slug)
        self.stderr.write(_("%(players)s Spieler, %(rounds)s Runden, Startwert %(seed)s: %(seconds).1f s")
                          % {"players": players, "rounds": rounds, "seed": seed, "seconds": seconds})
