"""Random tournaments for demos and benchmarks: German-looking players, drawn rounds and random games
that the scoring engine accepts, all reproducible from one seed.

`random_game` makes one game in the contract's form (../shared/scoring-contract.md); `play_table` and
`play_round` fill tables in bulk (one insert for the games, one recomputation per table);
`generate_tournament` does the whole evening (`manage.py generate_tournament`).
"""

from __future__ import annotations

import datetime
import random

from django.db import transaction

import scoring
from scoring.game import ABSAGEN
from scoring.validate import augen_range
from seating.dealing import game_players

from .. import engine
from ..models import Entry, Round, Table, Tournament
from . import results, seating, tournaments

FIRST_NAMES = [
    "Anna", "Bernd", "Carla", "Dieter", "Elke", "Frank", "Gisela", "Hans", "Ingrid", "Jürgen", "Karin", "Lothar",
    "Monika", "Norbert", "Olaf", "Petra", "Rainer", "Sabine", "Thomas", "Ursula", "Volker", "Waltraud", "Klaus",
    "Heike", "Uwe", "Birgit", "Günter", "Renate", "Helmut", "Brigitte", "Manfred", "Gabriele", "Wolfgang", "Susanne",
    "Jörg", "Martina", "Stefan", "Andrea", "Matthias", "Claudia", "Michael", "Kerstin", "Andreas", "Silke", "Markus",
    "Anke", "Dirk", "Britta", "Sven", "Nicole", "Torsten", "Katrin", "Holger", "Tanja", "Jens", "Sandra", "Lena",
    "Jonas", "Marie", "Lukas", "Sophie", "Felix", "Hannah", "Paul", "Emma", "Moritz", "Lea", "Niklas", "Johanna",
    "Tobias", "Friederike", "Ole", "Wiebke", "Henning", "Frauke", "Hauke", "Imke", "Knut", "Greta", "Malte",
]
LAST_NAMES = [
    "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann",
    "Schäfer", "Koch", "Bauer", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Schwarz", "Zimmermann",
    "Braun", "Krüger", "Hofmann", "Hartmann", "Lange", "Schmitt", "Werner", "Schmitz", "Krause", "Meier",
    "Lehmann", "Schmid", "Schulze", "Maier", "Köhler", "Herrmann", "König", "Walter", "Mayer", "Huber", "Kaiser",
    "Fuchs", "Peters", "Lang", "Scholz", "Möller", "Weiß", "Jung", "Hahn", "Schubert", "Vogel", "Friedrich",
    "Keller", "Günther", "Frank", "Berger", "Winkler", "Roth", "Beck", "Lorenz", "Baumann", "Franke", "Albrecht",
    "Schuster", "Simon", "Ludwig", "Böhm", "Winter", "Kraus", "Martin", "Schumacher", "Krämer", "Vogt", "Stein",
    "Jäger", "Otto", "Sommer", "Groß", "Seidel", "Heinrich", "Brandt", "Haas", "Schreiber", "Graf", "Dietrich",
]
CLUBS = ["DK Kreuzbube Köln", "Doko-Freunde Münster", "SV Herz-Dame Bremen", "Fuchsjagd Kiel", "Karlchen e.V. Kassel",
         "Doppelkopfclub Hameln", "Die Alten Detmold", ""]

# how often each kind of game comes up (per 100 games)
GAME_TYPES = {"normal": 72, "hochzeit": 8, "armut": 5, "stille_hochzeit": 3, "solo": 12}
PENALTY_CHANCE = 0.04  # per game: someone revoked or played out of turn


def german_names(n: int, rng: random.Random) -> list[str]:
    """`n` distinct names "Vorname Nachname" (a number added once the combinations run out)."""
    combos = [f"{first} {last}" for first in FIRST_NAMES for last in LAST_NAMES]
    rng.shuffle(combos)
    return [combos[i % len(combos)] + ("" if i < len(combos) else f" {i // len(combos) + 1}") for i in range(n)]


# ---- one game ------------------------------------------------------------------------------------

def _augen(rng: random.Random, strong: bool) -> int:
    """Re's Augen: mostly around 120, the stronger party more often ahead; now and then a landslide."""
    roll = rng.random()
    if roll < 0.02:
        return 240 if strong else 0
    if roll < 0.08:
        return rng.randint(200, 239) if strong else rng.randint(1, 40)
    return max(1, min(239, round(rng.gauss(138 if strong else 112, 32))))


def _tricks(rng: random.Random, re_augen: int, rules: scoring.Rules) -> int | None:
    """Re's tricks, consistent with its Augen (or None: left out, as on many paper sheets)."""
    if rng.random() < 0.4:
        return None
    possible = [tricks for tricks in range(rules.tricks + 1)
                if augen_range(tricks, rules)[0] <= re_augen <= augen_range(tricks, rules)[1]]
    return rng.randint(possible[0], possible[-1]) if possible else None  # (a run: the bounds grow with the tricks)


def _announcement(rng: random.Random, party: str, augen: int) -> str | None:
    """A party announces more readily the better its cards turn out to be (it knew its hand)."""
    chance = 0.08 + 0.5 * max(0, augen - 110) / 130
    if rng.random() >= chance:
        return None
    if augen >= 160 and rng.random() < 0.35:
        return rng.choice(ABSAGEN[:2]) if augen < 220 else rng.choice(ABSAGEN)
    return party


def _extras(rng: random.Random, game: scoring.Game, rules: scoring.Rules) -> dict:
    """Sonderpunkte the engine accepts: only kinds of the preset (in a solo only those that count
    there), only for a party that took a trick, Doppelkopf only with 40 Augen per Doppelkopf."""
    kinds = rules.sonderpunkte & (rules.sonderpunkte_in_solo if game.is_solo(rules) else rules.sonderpunkte)
    with_trick = [party for party in ("re", "kontra") if not game.took_no_trick(party, rules)]
    extras: dict[str, dict[str, int]] = {"re": {}, "kontra": {}}
    if not with_trick:
        return {}

    def give(kind: str, party: str):
        extras[party][kind] = extras[party].get(kind, 0) + 1

    if "fuchs" in kinds:
        for _ in range(rng.choices((0, 1, 2), (60, 32, 8))[0]):
            give("fuchs", rng.choice(with_trick))
    if "doppelkopf" in kinds and rng.random() < 0.25:
        party = rng.choice(with_trick)
        if game.augen(party) >= 40:
            give("doppelkopf", party)
    if "karlchen" in kinds and rng.random() < 0.15:
        give("karlchen", rng.choice(with_trick))
    elif "karlchen_gefangen" in kinds and rng.random() < 0.05:
        give("karlchen_gefangen", rng.choice(with_trick))
    if "herzstich" in kinds and rng.random() < 0.1:
        give("herzstich", rng.choice(with_trick))
    return {party: counts for party, counts in extras.items() if counts}


def random_game(rng: random.Random, rules: scoring.Rules, players: list[str]) -> dict:
    """A random game of the 4 `players` in the contract's form, valid under `rules`."""
    game_type = rng.choices(list(GAME_TYPES), list(GAME_TYPES.values()))[0]
    data: dict = {"players": list(players), "type": game_type}
    if game_type == "solo":
        data["solo"] = rng.choice(sorted(rules.solo_kinds))
        re = [rng.choice(players)]
    elif game_type == "stille_hochzeit" or (game_type == "hochzeit" and rng.random() < 0.15):
        re = [rng.choice(players)]  # a Hochzeit that found no partner plays alone
    else:
        re = rng.sample(players, 2)
    data["re"] = [p for p in players if p in re]
    strong = rng.random() < (0.55 if len(re) == 2 else 0.6)
    re_augen = _augen(rng, strong)
    data["re_augen"] = re_augen
    tricks = _tricks(rng, re_augen, rules)
    if tricks is not None:
        data["re_tricks"] = tricks
    data["announcements"] = {"re": _announcement(rng, "re", re_augen),
                             "kontra": _announcement(rng, "kontra", 240 - re_augen)}
    data["extras"] = {}
    game = scoring.parse_game(data, rules)
    data["extras"] = _extras(rng, game, rules)
    return data


# ---- tables, rounds, tournaments -----------------------------------------------------------------

def play_table(table: Table, *, rng: random.Random, rules: scoring.Rules, games: int | None = None,
               penalty_chance: float = PENALTY_CHANCE) -> tuple[list[tuple[int, dict]], list[dict]]:
    """Random games 1..`games` (the table's full number when None) and now and then a penalty, in
    the form `results.enter_sheets` takes."""
    entries = engine.seat_entries(table)
    count = table.round.tournament.games_at_table(len(entries)) if games is None else games
    new_games, penalties = [], []
    for number in range(1, count + 1):
        _dealer, _sitting_out, players = game_players(entries, number)
        data = random_game(rng, rules, [str(e) for e in players])
        new_games.append((number, engine.from_engine(scoring.parse_game(data, rules))))
        if rng.random() < penalty_chance:
            penalties.append({"offender_id": rng.choice(players), "game_number": number, "players": list(players),
                              "note": "Farbe nicht bedient"})
    return new_games, penalties


def play_round(round: Round, *, rng: random.Random, games: dict[int, int] | None = None,
               penalty_chance: float = PENALTY_CHANCE) -> int:
    """Fills the tables of a published round with random games (`games`: table number -> how many,
    default every game of every table), through `results.enter_sheets`. Returns the number of games."""
    rules = round.tournament.scoring_rules()
    tables = list(round.tables.select_related("round__tournament").prefetch_related("seats").order_by("number"))
    sheets = []
    for table in tables:
        count = None if games is None else games.get(table.number, 0)
        if count == 0:
            continue
        sheets.append((table, *play_table(table, rng=rng, rules=rules, games=count, penalty_chance=penalty_chance)))
    return results.enter_sheets(sheets=sheets, rules=rules)


def add_players(tournament: Tournament, players: list[tuple[str, str]]) -> list[Entry]:
    """Enters (name, club) pairs (distinct names), start numbers after the last one."""
    return tournaments.register_players_checked(
        tournament=tournament, players=[tournaments.NewPlayer(name, club) for name, club in players])


@transaction.atomic
def generate_tournament(*, players: int, rounds: int, seed: str, rules="turnier", name: str = "", slug: str = "",
                        date: datetime.date | None = None, director=None, organisation=None) -> Tournament:
    """A tournament of `players` random players and `rounds` played rounds (random draw, published,
    every table with all its games); the same seed gives the same players, tables and games."""
    seed = str(seed)
    tournament = tournaments.create_tournament(
        name=name or f"Zufallsturnier {seed}", date=date or datetime.date.today(), director=director,
        organisation=organisation,
        slug=slug, rules=rules, rounds_planned=max(rounds, 1))
    rng = random.Random(f"names:{seed}")
    clubs = [rng.choice(CLUBS) for _ in range(players)]
    add_players(tournament, list(zip(german_names(players, rng), clubs, strict=True)))
    for number in range(1, rounds + 1):
        round = seating.create_round(tournament=tournament)
        seating.seat_round(round=round, mode=Round.Mode.RANDOM, seed=f"{seed}-{number}")
        seating.publish_round(round=round)
        play_round(round, rng=random.Random(f"games:{seed}:{number}"))
    return tournament
