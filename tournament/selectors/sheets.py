"""A table's sheet: its games in order with their scores and breakdowns, and a round's progress.

Reads only, in a fixed number of queries whatever the size."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count

from seating import dealing

from .. import privacy
from ..models import Entry, Game, Penalty, Round, Score, Seat, Table, Tournament


@dataclass
class SheetLine:
    number: int
    dealer: Entry
    sitting_out: Entry | None
    game: Game | None  # None: not entered yet
    # a list with Pflichtsoli: False when an earlier game is not entered yet, so the dealer may change
    dealer_known: bool = True
    vorgefuehrt: Entry | None = None  # a list's last games: whose Pflichtsolo this game is
    points: list[int | None] = field(default_factory=list)  # per seat, None for the one sitting out
    running: list[int] = field(default_factory=list)  # running totals per seat after this line
    penalties: list = field(default_factory=list)  # (Penalty, points per seat, running totals after it)
    re_names: list[str] = field(default_factory=list)


@dataclass
class TableSheet:
    table: Table
    entries: list[Entry]
    lines: list[SheetLine]
    loose_penalties: list  # penalties without a game number: (Penalty, points per seat, running totals)
    totals: list[int]  # per seat
    entered_totals: bool
    # a list with Pflichtsoli (dealing.py): whose Pflichtsolo is still open after the games entered,
    # and who played theirs in which game; both empty without a list
    pflichtsoli: bool = False
    pflichtsolo_open: list[Entry] = field(default_factory=list)
    pflichtsolo_played: list[tuple[Entry, int]] = field(default_factory=list)

    @property
    def total_sum(self) -> int:
        return sum(self.totals)

    @property
    def games_entered(self) -> int:
        return sum(1 for line in self.lines if line.game is not None)

    @property
    def vorfuehrungen(self) -> list[tuple[int, Entry]]:
        """A list's last games not entered yet whose player is vorgeführt: (game number, player)."""
        return [(line.number, line.vorgefuehrt) for line in self.lines
                if line.game is None and line.vorgefuehrt is not None and line.dealer_known]


def table_sheet(table: Table, *, public: bool = False) -> TableSheet:
    """A table's sheet: one line per game of the round (entered or not), with per-seat points and
    running totals. Four queries. `public`: with the names the public sees (`privacy.for_public`)."""
    return table_sheets([table], table.round.tournament, public=public)[table.id]


def table_sheets(tables: list[Table], tournament: Tournament, *, public: bool = False) -> dict[int, TableSheet]:
    """The sheets of several tables (a whole round for printing), by table id: four queries
    whatever the number of tables."""
    ids = [t.id for t in tables]
    shown = privacy.for_public if public else (lambda entry: entry)
    seats: dict[int, list[Entry]] = {i: [] for i in ids}
    for seat in Seat.objects.filter(table__in=ids).select_related("entry__player").order_by("position"):
        seats[seat.table_id].append(shown(seat.entry))
    games: dict[int, dict[int, Game]] = {i: {} for i in ids}
    for game in Game.objects.filter(table__in=ids):
        games[game.table_id][game.number] = game
    penalties: dict[int, list[Penalty]] = {i: [] for i in ids}
    for penalty in Penalty.objects.filter(table__in=ids).select_related("offender__player").order_by("id"):
        shown(penalty.offender)
        penalties[penalty.table_id].append(penalty)
    scores: dict[int, dict[tuple, dict[int, int]]] = {i: {} for i in ids}
    for score in Score.objects.filter(table__in=ids).values("table_id", "game_id", "penalty_id", "entry_id",
                                                            "points"):
        key = ("game", score["game_id"]) if score["game_id"] else ("penalty", score["penalty_id"]) \
            if score["penalty_id"] else ("total", None)
        scores[score["table_id"]].setdefault(key, {})[score["entry_id"]] = score["points"]
    return {t.id: _sheet(t, tournament, seats[t.id], games[t.id], penalties[t.id], scores[t.id]) for t in tables}


def _sheet(table: Table, tournament: Tournament, entries: list[Entry], games: dict[int, Game],
           penalties: list[Penalty], scores: dict[tuple, dict[int, int]]) -> TableSheet:
    ids = [e.id for e in entries]
    by_id = {e.id: e for e in entries}

    def per_seat(points: dict[int, int], sitting_out: int | None = None) -> list[int | None]:
        return [None if e == sitting_out else points.get(e, 0) for e in ids]

    running = [0] * len(ids)
    lines = []
    count = max([table.expected_games(tournament.games_at_table(len(ids)))] + list(games))
    rule = tournament.list_rule(len(ids))
    entered = {n: dealing.entered(g.type, g.re, g.pflichtsolo) for n, g in games.items()} if rule else {}
    # one deal more than lines: the list as it stands after the games entered
    *line_deals, after = dealing.deals(ids, count + 1, rule=rule, games=entered)
    for deal in line_deals:
        number, out = deal.number, deal.sitting_out
        game = games.get(number)
        line = SheetLine(number=number, dealer=by_id[deal.dealer], sitting_out=by_id[out] if out else None, game=game,
                         dealer_known=deal.known, vorgefuehrt=by_id[deal.vorgefuehrt] if deal.vorgefuehrt else None)
        if game is not None:
            line.re_names = [by_id[e].player.name for e in game.re if e in by_id]
            line.points = per_seat(scores.get(("game", game.id), {}), out)
            running = [r + (p or 0) for r, p in zip(running, line.points, strict=True)]
        line.running = list(running)
        for penalty in penalties:
            if penalty.game_number == number:
                points = per_seat(scores.get(("penalty", penalty.id), {}))
                running = [r + (p or 0) for r, p in zip(running, points, strict=True)]
                line.penalties.append((penalty, points, list(running)))
        lines.append(line)
    loose = []
    for penalty in penalties:
        if penalty.game_number is None:
            points = per_seat(scores.get(("penalty", penalty.id), {}))
            running = [r + (p or 0) for r, p in zip(running, points, strict=True)]
            loose.append((penalty, points, list(running)))
    if table.totals_only:
        running = [p or 0 for p in per_seat(scores.get(("total", None), {}))]
    return TableSheet(table=table, entries=entries, lines=lines, loose_penalties=loose, totals=running,
                      entered_totals=table.totals_only, pflichtsoli=rule is not None,
                      pflichtsolo_open=[by_id[e] for e in after.open_pflichtsoli],
                      pflichtsolo_played=[(by_id[e], n) for e, n in after.played_pflichtsoli])


def round_progress(round: Round) -> dict[int, dict]:
    """Per table id: games entered, signed, totals only. Two queries."""
    counts = dict(Game.objects.filter(table__round=round).values("table_id").annotate(n=Count("id"))
                  .values_list("table_id", "n"))
    return {t.id: {"games": counts.get(t.id, 0), "signed": t.is_locked, "totals_only": t.totals_only}
            for t in round.tables.all()}
