"""A generated association for the hub's benchmarks and demos (`manage.py generate_association`,
docs/hub.md): clubs in every region, people who play at their club and some at others, and years of
tournaments of every kind, reproducible from one seed.

Realistic overlap: every person has a home club; one in four also plays at one to three other clubs,
and each club they play at has its own record of them (`Player`, with the person's member number), as
a hub has when every club publishes. Names repeat as they do in Germany (many a Thomas Müller), told
apart by the member number. Most people publish their full name, some their initials, a few nothing.

The tournaments' entries and rounds are written, not their games: the start page, the calendar and
the search read the tournaments, their rounds' states and the players; a tournament with its games is
`generate.generate_tournament`'s. The Ranglistenturniere (bigger: about 44 players, as an association's
rules want at least 32, seven in ten of them the club's 40 regulars, so that a Rangliste has players
with enough rounds) have their results for the association's Rangliste: each closed round seats
its players at tables of 4 and 5 and enters each table as final totals (zero-sum, about ±25 points a
player and round), as `Score` and `Tally` rows (docs/competitions.md, "The association's Rangliste").
Past tournaments have every planned round closed, today's are running (a round closed, the next
published), later ones wait for their registration. Written in bulk (`bulk.insert_dicts`: COPY on
PostgreSQL) inside one recording, in one transaction."""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from .. import privacy
from ..collation import search_key
from ..errors import UserError
from ..log import audit
from ..log.audit import SYSTEM
from ..models import Entry, Organisation, Player, Region, Round, Score, Seat, Table, Tally, Tournament
from . import bulk
from .generate import FIRST_NAMES, LAST_NAMES

MOST = {"clubs": 5000, "tournaments": 200_000, "players": 2_000_000}  # what the command takes at most

# a few more surnames, so that the search's folding has something to find both ways
MORE_LAST_NAMES = ["Oßenbrügge", "Ossenbruegge", "Kraemer", "Großmann", "Grossmann", "Çelik", "Yılmaz", "Nüßlein"]
CLUB_WORDS = ["Kreuzbube", "Herz-Dame", "Karlchen", "Fuchsjagd", "Pik-As", "Doppelkopf", "Schwarze Dame",
              "Dulle", "Sauspiel", "Armut", "Hochzeit", "Kontra"]
CITIES = ["Köln", "Münster", "Bremen", "Kiel", "Kassel", "Hameln", "Detmold", "Bielefeld", "Oldenburg", "Lübeck",
          "Göttingen", "Osnabrück", "Paderborn", "Düsseldorf", "Essen", "Dortmund", "Hannover", "Braunschweig",
          "Mönchengladbach", "Würzburg", "Gießen", "Lüneburg", "Emden", "Flensburg", "Siegen", "Hamm"]
# where Doppelkopf is played most: the North and the West
REGION_WEIGHTS = {Region.NW: 30, Region.NI: 25, Region.HB: 4, Region.HH: 5, Region.SH: 8, Region.HE: 8,
                  Region.RP: 3, Region.BY: 3, Region.BW: 3, Region.TH: 2, Region.SN: 2, Region.ST: 2,
                  Region.BB: 1, Region.BE: 2, Region.MV: 1, Region.SL: 1}
KINDS = {"abend": 60, "rangliste": 25, "liga": 10, "pokal": 5}
REGULARS = 40  # the records of a club that play most of its Ranglistenturniere (and so reach the minimum of rounds)
MONTHS = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
          "November", "Dezember"]


@dataclass(frozen=True)
class Generated:
    clubs: int
    people: int
    player_records: int
    tournaments: int
    entries: int
    rounds: int
    scores: int = 0  # players' round results of the Ranglistenturniere


def generate_association(*, clubs: int = 200, tournaments: int = 10_000, players: int = 200_000, years: int = 3,
                         seed: str = "verband", prefix: str = "v", today: datetime.date | None = None) -> Generated:
    """`clubs` organisations, `players` people (each with a record at every club they play at) and
    `tournaments` tournaments over `years` years up to a quarter of a year ahead. `prefix` starts every
    organisation's and tournament's short name; a prefix already used is refused (UserError)."""
    for name, count in (("clubs", clubs), ("tournaments", tournaments), ("players", players)):
        if not 1 <= count <= MOST[name]:
            raise UserError(f"--{name} nimmt 1 bis {MOST[name]}, nicht {count}.")
    if not 1 <= years <= 20:
        raise UserError(f"--years nimmt 1 bis 20, nicht {years}.")
    if Organisation.objects.filter(slug=f"{prefix}-verein-1").exists():
        raise UserError(f"Einen Verband mit dem Kurznamen-Anfang „{prefix}“ gibt es schon; bitte --prefix ändern.")
    rng = random.Random(f"association:{seed}")
    today = today or timezone.localdate()
    now = timezone.now()
    with transaction.atomic(), audit.recording("association_generated", by=SYSTEM, tournament=None):
        club_ids = _clubs(rng, clubs, prefix, now)
        members = _people(rng, players, club_ids)
        made = _tournaments(rng, tournaments, years, club_ids, members, prefix, today, now)
    return Generated(clubs=clubs, people=players, player_records=sum(len(m) for m in members.values()),
                     tournaments=tournaments, entries=made[0], rounds=made[1], scores=made[2])


def _clubs(rng: random.Random, count: int, prefix: str, now) -> list[int]:
    regions = list(REGION_WEIGHTS)
    rows = []
    for number in range(1, count + 1):
        name = f"DK {rng.choice(CLUB_WORDS)} {rng.choice(CITIES)} {number}"
        rows.append({"name": name, "slug": f"{prefix}-verein-{number}", "search_key": search_key(name),
                     "region": rng.choices(regions, list(REGION_WEIGHTS.values()))[0], "created_at": now})
    bulk.insert_dicts(Organisation, rows)
    return list(Organisation.objects.filter(slug__startswith=f"{prefix}-verein-").order_by("id")
                .values_list("id", flat=True))


def _people(rng: random.Random, count: int, club_ids: list[int]) -> dict[int, list[int]]:
    """Each person's records, one per club they play at; returns club id -> its players' record ids."""
    surnames = LAST_NAMES + MORE_LAST_NAMES
    sizes = [rng.paretovariate(1.5) for _ in club_ids]  # a few big clubs, many small ones
    rows = []
    for person in range(count):
        name = f"{rng.choice(FIRST_NAMES)} {rng.choice(surnames)}"
        level = rng.choices(privacy.LEVELS, (90, 7, 3))[0]
        home = rng.choices(club_ids, sizes)[0]
        clubs = {home}
        if rng.random() < 0.25:
            clubs |= set(rng.sample(club_ids, min(len(club_ids), rng.randint(1, 3))))
        for club in sorted(clubs):
            rows.append({"organisation_id": club, "name": name, "club": "", "member_number": f"M{person + 1:07d}",
                         "publication": level, "search_key": search_key(name)})
    first = (Player.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
    bulk.insert_dicts(Player, rows)
    members: dict[int, list[int]] = {club: [] for club in club_ids}
    ids = Player.objects.filter(id__gte=first).order_by("id").values_list("id", "organisation_id")
    for player_id, club in ids.iterator(chunk_size=10_000):
        members[club].append(player_id)
    return members


def _tournaments(rng: random.Random, count: int, years: int, club_ids: list[int], members: dict[int, list[int]],
                 prefix: str, today: datetime.date, now) -> tuple[int, int, int]:
    start = today - datetime.timedelta(days=365 * years - 91)
    span = 365 * years
    weights = [max(1, len(members[club])) for club in club_ids]
    rows, planned = [], []
    for number in range(1, count + 1):
        club = rng.choices(club_ids, weights)[0]
        date = start + datetime.timedelta(days=rng.randrange(span))
        kind = rng.choices(list(KINDS), list(KINDS.values()))[0]
        name = {"abend": f"Vereinsabend {MONTHS[date.month - 1]}", "rangliste": f"Ranglistenturnier {number}",
                "liga": f"Ligaspieltag {rng.randint(1, 10)}", "pokal": f"Pokal Runde {rng.randint(1, 4)}"}[kind]
        place = rng.choice(CITIES)
        # a Ranglistenturnier plays 3 or 4 rounds (Serien) mostly; one in ten only 2, which does not count
        rounds_planned = rng.choice((2, 3, 3, 3, 4, 4, 4, 4, 4, 4) if kind == "rangliste" else (2, 3, 3, 4))
        rows.append({"organisation_id": club, "name": name, "slug": f"{prefix}-{number}", "date": date,
                     "place": place, "search_key": search_key(name, place), "rounds_planned": rounds_planned,
                     "counts_for_rangliste": kind == "rangliste", "team_match": kind == "liga",
                     "cup_advance": 2 if kind == "pokal" else None, "public_overview": rng.random() < 0.95,
                     "registration_open": date > today and rng.random() < 0.5, "created_at": now})
        planned.append((club, date, rounds_planned, kind))
    first = (Tournament.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
    bulk.insert_dicts(Tournament, rows)
    ids = list(Tournament.objects.filter(id__gte=first).order_by("id").values_list("id", flat=True))
    entries, rounds = [], []
    ranglistenturniere = []
    for tournament_id, (club, date, rounds_planned, kind) in zip(ids, planned, strict=True):
        pool = members[club]
        size = min(len(pool), max(4, int(rng.gauss(44, 14) if kind == "rangliste" else rng.gauss(26, 10))))
        if kind == "rangliste" and date <= today:
            ranglistenturniere.append(tournament_id)
        if kind == "rangliste":  # most of a Ranglistenturnier's players are the club's regulars
            regulars = pool[:REGULARS]
            chosen = rng.sample(regulars, min(len(regulars), size * 7 // 10))
            taken = set(chosen)
            chosen += rng.sample([p for p in pool if p not in taken], min(size - len(chosen), len(pool) - len(taken)))
        else:
            chosen = rng.sample(pool, size)
        for start_number, player_id in enumerate(chosen, start=1):
            entries.append({"tournament_id": tournament_id, "player_id": player_id, "start_number": start_number,
                            "categories": []})
        if date < today:
            done = rounds_planned
        elif date == today:
            done = 1
        else:
            continue
        for round_number in range(1, min(rounds_planned, done + 1) + 1):
            status = Round.Status.CLOSED if round_number <= done else Round.Status.PUBLISHED
            rounds.append({"tournament_id": tournament_id, "number": round_number, "status": status,
                           "seed": f"{tournament_id}-{round_number}"})
    bulk.insert_dicts(Entry, entries)
    bulk.insert_dicts(Round, rounds)
    return len(entries), len(rounds), _results(rng, ranglistenturniere)


def add_regular(*, tournaments: int = 300, name: str = "Rita Regelmann", member_number: str = "R0000300",
                seed: str = "stammgast", today: datetime.date | None = None) -> int:
    """A person who played `tournaments` finished public tournaments of the generated association, at
    every club that ran one (a record there with the same member number), and the points of everyone
    in those tournaments round by round (one table a round, its tallies): the hub's player page with
    300 tournaments (docs/hub.md, scripts/bench_hub.py). Returns the record id of the first club's."""
    rng = random.Random(f"regular:{seed}")
    today = today or timezone.localdate()
    with transaction.atomic(), audit.recording("association_generated", by=SYSTEM, tournament=None):
        # not the Ranglistenturniere, whose rounds `generate_association` has played already
        finished = list(Tournament.objects.filter(date__lt=today, public_overview=True, public_standings=True)
                        .exclude(rounds__tables__isnull=False).distinct()
                        .order_by("id").values_list("id", "organisation_id"))
        if len(finished) < tournaments:
            raise UserError(f"Nur {len(finished)} beendete öffentliche Turniere, nicht {tournaments}.")
        chosen = dict(rng.sample(finished, tournaments))
        first = (Player.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
        bulk.insert_dicts(Player, [{"organisation_id": club, "name": name, "club": "", "member_number": member_number,
                                    "publication": privacy.FULL, "search_key": search_key(name)}
                                   for club in sorted(set(chosen.values()))])
        records = dict(Player.objects.filter(id__gte=first, member_number=member_number)
                       .values_list("organisation_id", "id"))
        numbers: dict[int, int] = {}
        for tournament_id, start_number in Entry.objects.filter(tournament_id__in=chosen).values_list(
                "tournament_id", "start_number"):
            numbers[tournament_id] = max(numbers.get(tournament_id, 0), start_number)
        bulk.insert_dicts(Entry, [{"tournament_id": t, "player_id": records[club],
                                   "start_number": numbers.get(t, 0) + 1, "categories": []}
                                  for t, club in chosen.items()])
        rounds = list(Round.objects.filter(tournament_id__in=chosen).values_list("id", "tournament_id"))
        bulk.insert_dicts(Table, [{"round_id": round_id, "number": 1} for round_id, _t in rounds])
        tables = dict(Table.objects.filter(round_id__in=[r for r, _t in rounds]).values_list("round_id", "id"))
        players: dict[int, list[int]] = {}
        for entry_id, tournament_id in (Entry.objects.filter(tournament_id__in=chosen)
                                        .values_list("id", "tournament_id")):
            players.setdefault(tournament_id, []).append(entry_id)
        bulk.insert_dicts(Tally, [{"table_id": tables[round_id], "round_id": round_id, "entry_id": entry_id,
                                   "points": rng.randint(-60, 80), "games": 24}
                                  for round_id, tournament_id in rounds for entry_id in players[tournament_id]])
    return records[min(records)]


def _results(rng: random.Random, tournament_ids: list[int]) -> int:
    """Every closed round of these tournaments played: its players at tables of 4 and 5 (as many of 5
    as a count not divisible by 4 needs), each table entered as final totals that sum to zero. Returns
    the players' round results written."""
    players: dict[int, list[int]] = {}
    for entry_id, tournament_id in (Entry.objects.filter(tournament_id__in=tournament_ids).order_by("id")
                                    .values_list("id", "tournament_id").iterator(chunk_size=10_000)):
        players.setdefault(tournament_id, []).append(entry_id)
    closed = list(Round.objects.filter(tournament_id__in=tournament_ids, status=Round.Status.CLOSED)
                  .order_by("id").values_list("id", "tournament_id"))
    plans: list[tuple[int, int, list[int], list[int]]] = []  # round, table number, its entries, their points
    for round_id, tournament_id in closed:
        present = list(players.get(tournament_id, []))
        rng.shuffle(present)
        fives = len(present) % 4 if len(present) >= 5 * (len(present) % 4) else 0
        sizes = [5] * fives + [4] * ((len(present) - 5 * fives) // 4)
        start = 0
        for number, size in enumerate(sizes, start=1):
            points = [round(rng.gauss(0, 25)) for _ in range(size)]
            points[-1] -= sum(points)  # a table's totals sum to zero
            plans.append((round_id, number, present[start:start + size], points))
            start += size
    first = (Table.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
    bulk.insert_dicts(Table, [{"round_id": round_id, "number": number, "totals_only": True,
                               "entered_totals": {str(e): p for e, p in zip(seated, points, strict=True)}}
                              for round_id, number, seated, points in plans])
    table_ids = list(Table.objects.filter(id__gte=first).order_by("id").values_list("id", flat=True))
    seats, scores, tallies = [], [], []
    for table_id, (round_id, _number, seated, points) in zip(table_ids, plans, strict=True):
        games = 8 if len(seated) == 4 else 10
        for position, (entry, value) in enumerate(zip(seated, points, strict=True), start=1):
            seats.append({"table_id": table_id, "round_id": round_id, "position": position, "entry_id": entry})
            scores.append({"table_id": table_id, "round_id": round_id, "entry_id": entry, "kind": Score.Kind.TOTAL,
                           "points": value, "games": games})
            tallies.append({"table_id": table_id, "round_id": round_id, "entry_id": entry, "points": value,
                            "games": games, "totals_only": True})
    bulk.insert_dicts(Seat, seats)
    bulk.insert_dicts(Score, scores)
    bulk.insert_dicts(Tally, tallies)
    return len(scores)
