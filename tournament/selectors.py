"""Functions that read: what a page needs, in a fixed number of queries whatever the size."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q, Sum
from django.utils.translation import gettext_lazy as _

from .models import Entry, Game, Penalty, Round, Score, Seat, Table, Tournament
from .services.results import dealer_position

# Secondary orderings of the standings a director can choose, in order (Tournament.tie_breakers).
TIE_BREAKERS = {
    "won": _("mehr gewonnene Spiele"),
    "best_round": _("bestes Rundenergebnis"),
}


def is_director(user, tournament: Tournament) -> bool:
    if not user.is_authenticated:
        return False
    return user.is_superuser or tournament.directors.filter(pk=user.pk).exists()


# ---- standings -----------------------------------------------------------------------------------

@dataclass
class StandingRow:
    entry_id: int
    start_number: int
    name: str
    club: str
    points: int = 0
    games: int = 0
    won: int = 0
    solos: int = 0
    best_round: int | None = None
    totals_only: bool = False  # some of the points were entered as table totals only
    withdrawn: bool = False
    rank: int = 0


def standings(tournament: Tournament, *, up_to_round: int | None = None, only_round: int | None = None
              ) -> list[StandingRow]:
    """Everyone entered, best first. Ties (same points and same tie-breakers) share a rank.
    Three queries whatever the size."""
    scores = Score.objects.filter(round__tournament=tournament)
    if up_to_round is not None:
        scores = scores.filter(round__number__lte=up_to_round)
    if only_round is not None:
        scores = scores.filter(round__number=only_round)
    totals = scores.values("entry_id").annotate(
        points=Sum("points"), games=Sum("games"),
        won=Count("id", filter=Q(won=True)), solos=Count("id", filter=Q(solo=True)),
        totals=Count("id", filter=Q(kind=Score.Kind.TOTAL)))
    by_entry = {row["entry_id"]: row for row in totals}
    best: dict[int, int] = {}
    if "best_round" in tournament.tie_breakers:
        for row in scores.values("entry_id", "round_id").annotate(points=Sum("points")):
            best[row["entry_id"]] = max(best.get(row["entry_id"], row["points"]), row["points"])
    rows = []
    for entry in tournament.entries.select_related("player").order_by("start_number"):
        data = by_entry.get(entry.id, {})
        rows.append(StandingRow(
            entry_id=entry.id, start_number=entry.start_number, name=entry.player.name, club=entry.player.club,
            points=data.get("points") or 0, games=data.get("games") or 0, won=data.get("won", 0),
            solos=data.get("solos", 0), best_round=best.get(entry.id), totals_only=bool(data.get("totals")),
            withdrawn=entry.withdrawn_from_round is not None))
    return rank_rows(rows, tournament.tie_breakers)


def rank_rows(rows: list[StandingRow], tie_breakers: list[str]) -> list[StandingRow]:
    def key(row):
        return (row.points,) + tuple(getattr(row, name) or 0 for name in tie_breakers if name in TIE_BREAKERS)

    rows.sort(key=lambda row: (tuple(-k for k in key(row)), row.name.casefold(), row.start_number))
    previous = None
    for index, row in enumerate(rows, start=1):
        row.rank = previous.rank if previous is not None and key(previous) == key(row) else index
        previous = row
    return rows


# ---- a round's tables ----------------------------------------------------------------------------

@dataclass
class SeatedTable:
    table: Table
    entries: list[Entry]  # in seat order

    @property
    def size(self) -> int:
        return len(self.entries)


def round_tables(round: Round) -> list[SeatedTable]:
    """The round's tables with their players in seat order: two queries."""
    tables = {t.id: SeatedTable(t, []) for t in round.tables.order_by("number")}
    for seat in Seat.objects.filter(round=round).select_related("entry__player").order_by("table__number", "position"):
        tables[seat.table_id].entries.append(seat.entry)
    return list(tables.values())


# ---- a table's sheet -----------------------------------------------------------------------------

@dataclass
class SheetLine:
    number: int
    dealer: Entry
    sitting_out: Entry | None
    game: Game | None  # None: not entered yet
    points: list[int | None] = field(default_factory=list)  # per seat, None for the one sitting out
    running: list[int] = field(default_factory=list)  # running totals per seat after this line
    penalties: list = field(default_factory=list)  # (Penalty, points per seat) after this game


@dataclass
class TableSheet:
    table: Table
    entries: list[Entry]
    lines: list[SheetLine]
    loose_penalties: list  # penalties without a game number, (Penalty, points per seat)
    totals: list[int]  # per seat
    entered_totals: bool

    @property
    def total_sum(self) -> int:
        return sum(self.totals)

    @property
    def games_entered(self) -> int:
        return sum(1 for line in self.lines if line.game is not None)


def table_sheet(table: Table) -> TableSheet:
    """A table's sheet: one line per game of the round (entered or not), with per-seat points and
    running totals. A fixed number of queries."""
    tournament = table.round.tournament
    entries = [s.entry for s in table.seats.select_related("entry__player").order_by("position")]
    ids = [e.id for e in entries]
    by_id = {e.id: e for e in entries}
    games = {g.number: g for g in table.games.all()}
    penalties = list(table.penalties.select_related("offender__player").order_by("id"))
    scores: dict[tuple, dict[int, int]] = {}
    for score in Score.objects.filter(table=table).values("game_id", "penalty_id", "entry_id", "points", "kind"):
        key = ("game", score["game_id"]) if score["game_id"] else ("penalty", score["penalty_id"]) \
            if score["penalty_id"] else ("total", None)
        scores.setdefault(key, {})[score["entry_id"]] = score["points"]

    def per_seat(points: dict[int, int], sitting_out: int | None = None) -> list[int | None]:
        return [None if e == sitting_out else points.get(e, 0) for e in ids]

    running = [0] * len(ids)
    lines = []
    count = max([tournament.games_at_table(len(ids))] + list(games))
    for number in range(1, count + 1):
        dealer = ids[dealer_position(len(ids), number) - 1]
        out = dealer if len(ids) == 5 else None
        game = games.get(number)
        line = SheetLine(number=number, dealer=by_id[dealer], sitting_out=by_id.get(out), game=game)
        if game is not None:
            line.points = per_seat(scores.get(("game", game.id), {}), out)
            running = [r + (p or 0) for r, p in zip(running, line.points)]
        for penalty in penalties:
            if penalty.game_number == number:
                points = per_seat(scores.get(("penalty", penalty.id), {}))
                line.penalties.append((penalty, points))
                running = [r + p for r, p in zip(running, points)]
        line.running = list(running)
        lines.append(line)
    loose = []
    for penalty in penalties:
        if penalty.game_number is None:
            points = per_seat(scores.get(("penalty", penalty.id), {}))
            loose.append((penalty, points))
            running = [r + p for r, p in zip(running, points)]
    if table.totals_only:
        running = per_seat(scores.get(("total", None), {}))
    return TableSheet(table=table, entries=entries, lines=lines, loose_penalties=loose, totals=running,
                      entered_totals=table.totals_only)


def round_progress(round: Round) -> dict[int, dict]:
    """Per table id: games entered, signed, totals only. Two queries."""
    counts = dict(Game.objects.filter(table__round=round).values("table_id").annotate(n=Count("id"))
                  .values_list("table_id", "n"))
    return {t.id: {"games": counts.get(t.id, 0), "signed": t.is_locked, "totals_only": t.totals_only}
            for t in round.tables.all()}
