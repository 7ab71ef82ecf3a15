"""A round's tables: who sits where, and the pairs who meet again.

Reads only, in a fixed number of queries whatever the size."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from itertools import combinations

from .. import privacy
from ..collation import name_key
from ..models import Entry, Game, Round, Score, Seat, Table
from ..models.rounds import clock_end


@dataclass
class SeatedTable:
    table: Table
    entries: list[Entry]  # in seat order

    @property
    def size(self) -> int:
        return len(self.entries)


def seated_entries(table: Table) -> list[Entry]:
    """A table's players in seat order, with their names: one query."""
    return [s.entry for s in table.seats.select_related("entry__player").order_by("position")]


def game_points(game: Game, seated: list[Entry]) -> list[tuple[str, int]]:
    """(name, points) of the players of a saved game, in seat order (who sat out left out): one query."""
    points = dict(Score.objects.filter(game=game, kind=Score.Kind.GAME).values_list("entry_id", "points"))
    return [(entry.name, points.get(entry.id, 0)) for entry in seated if entry.id != game.sitting_out_id]


def round_tables(round: Round, *, public: bool = False) -> list[SeatedTable]:
    """The round's tables with their players in seat order: two queries. `public`: with the names the
    public sees (`privacy.for_public`)."""
    tables = {t.id: SeatedTable(t, []) for t in round.tables.order_by("number")}
    for seat in Seat.objects.filter(round=round).select_related("entry__player").order_by("table__number", "position"):
        tables[seat.table_id].entries.append(privacy.for_public(seat.entry) if public else seat.entry)
    return list(tables.values())


@dataclass
class RepeatPair:
    """Two players at one table of this round who already shared a table in earlier rounds."""

    table_number: int
    names: tuple[str, str]
    earlier: list[int]  # the rounds they met in


def repeat_pairs(round: Round) -> list[RepeatPair]:
    """Who meets again in this round, by table and name (what `Round.repeat_meetings` counts). One
    query: the seats of this round and the rounds before."""
    seats = Seat.objects.filter(round__tournament_id=round.tournament_id, round__number__lte=round.number).values_list(
        "round__number", "table_id", "table__number", "entry_id", "entry__player__name")
    tables: dict[int, list[tuple[int, int, str]]] = {}  # table id -> (round, entry, name)
    number_of: dict[int, int] = {}
    for round_number, table_id, table_number, entry_id, name in seats:
        tables.setdefault(table_id, []).append((round_number, entry_id, name))
        number_of[table_id] = table_number
    met: dict[frozenset, list[int]] = {}
    for players in tables.values():
        if players[0][0] == round.number:
            continue
        for (number, a, _name), (_number, b, _other) in combinations(players, 2):
            met.setdefault(frozenset((a, b)), []).append(number)
    found = []
    for table_id, players in tables.items():
        if players[0][0] != round.number:
            continue
        for (_n, a, name_a), (_m, b, name_b) in combinations(sorted(players, key=lambda p: name_key(p[2])), 2):
            if frozenset((a, b)) in met:
                found.append(RepeatPair(number_of[table_id], (name_a, name_b), sorted(met[frozenset((a, b))])))
    return sorted(found, key=lambda pair: (pair.table_number, name_key(pair.names[0]), name_key(pair.names[1])))


@dataclass(frozen=True)
class CurrentSeat:
    """Where a player sits in the newest published round, and when that round's clock started."""
    round_number: int
    table_number: int
    position: int
    started_at: datetime.datetime | None

    def clock_end(self, minutes: int) -> datetime.datetime | None:
        return clock_end(self.started_at, minutes)


def current_seats(tournament_id: int) -> dict[int, CurrentSeat]:
    """Where every player sits in the newest published round where they sit (not closed, not a draft),
    by entry: one query for the whole tournament. Every poll that names its player (`me`) looks its
    player up here (`views/seat_notice.py` keeps it in the process under the change counter)."""
    rows = (Seat.objects.filter(round__tournament_id=tournament_id, round__status=Round.Status.PUBLISHED)
            .order_by("round__number").values_list("entry_id", "round__number", "table__number", "position",
                                                   "round__started_at"))
    # the newest round last: its seat stays
    return {entry_id: CurrentSeat(number, table, position, started)
            for entry_id, number, table, position, started in rows}
