"""Functions that read: what a page needs, in a fixed number of queries whatever the size."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.db.models import Count, Q, Sum
from django.utils.translation import gettext_lazy as _

from .models import Entry, Game, Penalty, Round, Score, Seat, Table, Tournament
from .dealing import dealer_position

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
    movement: int | None = None  # places gained since the round before (negative: lost)


@dataclass
class StandingsHistory:
    """The standings after each round that has results, computed from one aggregate query."""

    rounds: list[int]  # round numbers with results, in order
    after: dict[int, list[StandingRow]]  # round number -> ranked standings after that round
    before: list[StandingRow]  # everyone with 0 points, before any result

    def final(self) -> list[StandingRow]:
        return self.after[self.rounds[-1]] if self.rounds else self.before

    def ranks(self, round_number: int) -> dict[int, int]:
        return {row.entry_id: row.rank for row in self.after.get(round_number, [])}


def standings_history(tournament: Tournament, *, include_hidden: bool = True) -> StandingsHistory:
    """Standings after every round, best first; ties (same points and same tie-breakers) share a
    rank. Rounds whose results are hidden count only with `include_hidden` (the director's view).
    Two queries whatever the size."""
    scores = Score.objects.filter(round__tournament=tournament)
    if not include_hidden:
        scores = scores.filter(round__results_hidden=False)
    per_round = scores.values("entry_id", "round__number").annotate(
        points=Sum("points"), games=Sum("games"),
        won=Count("id", filter=Q(won=True)), solos=Count("id", filter=Q(solo=True)),
        totals=Count("id", filter=Q(kind=Score.Kind.TOTAL)))
    by_round: dict[int, dict[int, dict]] = {}
    for row in per_round:
        by_round.setdefault(row["round__number"], {})[row["entry_id"]] = row
    entries = list(tournament.entries.select_related("player").order_by("start_number"))
    rows = {e.id: StandingRow(entry_id=e.id, start_number=e.start_number, name=e.player.name, club=e.player.club,
                              withdrawn=e.withdrawn_from_round is not None) for e in entries}
    after = {}
    before = rank_rows([replace(row) for row in rows.values()], tournament.tie_breakers)
    for number in sorted(by_round):
        for entry_id, data in by_round[number].items():
            row = rows[entry_id]
            row.points += data["points"] or 0
            row.games += data["games"] or 0
            row.won += data["won"]
            row.solos += data["solos"]
            row.totals_only = row.totals_only or bool(data["totals"])
            row.best_round = max(row.best_round if row.best_round is not None else data["points"], data["points"])
        after[number] = rank_rows([replace(row) for row in rows.values()], tournament.tie_breakers)
    return StandingsHistory(rounds=sorted(by_round), after=after, before=before)


def standings(tournament: Tournament, *, up_to_round: int | None = None, include_hidden: bool = True
              ) -> list[StandingRow]:
    """Everyone entered, ranked after round `up_to_round` (default: all rounds with results)."""
    history = standings_history(tournament, include_hidden=include_hidden)
    rounds = [n for n in history.rounds if up_to_round is None or n <= up_to_round]
    return history.after[rounds[-1]] if rounds else history.before


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


def seated_entries(table: Table) -> list[Entry]:
    """A table's players in seat order, with their names: one query."""
    return [s.entry for s in table.seats.select_related("entry__player").order_by("position")]


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

    @property
    def total_sum(self) -> int:
        return sum(self.totals)

    @property
    def games_entered(self) -> int:
        return sum(1 for line in self.lines if line.game is not None)


def table_sheet(table: Table) -> TableSheet:
    """A table's sheet: one line per game of the round (entered or not), with per-seat points and
    running totals. Four queries."""
    return table_sheets([table], table.round.tournament)[table.id]


def table_sheets(tables: list[Table], tournament: Tournament) -> dict[int, TableSheet]:
    """The sheets of several tables (a whole round for printing), by table id: four queries
    whatever the number of tables."""
    ids = [t.id for t in tables]
    seats: dict[int, list[Entry]] = {i: [] for i in ids}
    for seat in Seat.objects.filter(table__in=ids).select_related("entry__player").order_by("position"):
        seats[seat.table_id].append(seat.entry)
    games: dict[int, dict[int, Game]] = {i: {} for i in ids}
    for game in Game.objects.filter(table__in=ids):
        games[game.table_id][game.number] = game
    penalties: dict[int, list[Penalty]] = {i: [] for i in ids}
    for penalty in Penalty.objects.filter(table__in=ids).select_related("offender__player").order_by("id"):
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
    count = max([tournament.games_at_table(len(ids))] + list(games))
    for number in range(1, count + 1):
        dealer = ids[dealer_position(len(ids), number) - 1]
        out = dealer if len(ids) == 5 else None
        game = games.get(number)
        line = SheetLine(number=number, dealer=by_id[dealer], sitting_out=by_id.get(out), game=game)
        if game is not None:
            line.re_names = [by_id[e].player.name for e in game.re if e in by_id]
            line.points = per_seat(scores.get(("game", game.id), {}), out)
            running = [r + (p or 0) for r, p in zip(running, line.points)]
        line.running = list(running)
        for penalty in penalties:
            if penalty.game_number == number:
                points = per_seat(scores.get(("penalty", penalty.id), {}))
                running = [r + p for r, p in zip(running, points)]
                line.penalties.append((penalty, points, list(running)))
        lines.append(line)
    loose = []
    for penalty in penalties:
        if penalty.game_number is None:
            points = per_seat(scores.get(("penalty", penalty.id), {}))
            running = [r + p for r, p in zip(running, points)]
            loose.append((penalty, points, list(running)))
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


# ---- a player's tournament -----------------------------------------------------------------------

@dataclass
class PlayerLine:
    kind: str  # Score.Kind
    number: int | None  # game number (a penalty: the game it happened in)
    game: Game | None
    penalty: Penalty | None
    points: int
    running: int
    party: str = ""  # "Re" or "Kontra"
    partners: list[str] = field(default_factory=list)
    won: bool = False


@dataclass
class PlayerRound:
    number: int
    table: Table
    position: int
    mates: list[str]
    hidden: bool  # results not announced yet
    lines: list[PlayerLine] = field(default_factory=list)
    total: int = 0


@dataclass
class PlayerRecord:
    entry: Entry
    rounds: list[PlayerRound]
    total: int
    rank: int | None
    ranks: list[tuple[int, int]]  # (round number, rank after it)
    history: StandingsHistory


def player_record(tournament: Tournament, entry_id: int, *, include_hidden: bool) -> PlayerRecord:
    """A player's tables, every game they played with points and breakdown, their total and their rank
    after each round. A fixed number of queries."""
    entry = Entry.objects.select_related("player").get(tournament=tournament, pk=entry_id)
    seats = list(Seat.objects.filter(entry=entry).select_related("table", "round").order_by("round__number"))
    names, mates = {}, {}
    for seat in (Seat.objects.filter(table__in=[s.table_id for s in seats]).select_related("entry__player")
                 .order_by("position")):
        names[seat.entry_id] = seat.entry.player.name
        mates.setdefault(seat.table_id, []).append(seat.entry_id)
    rounds = {}
    for seat in seats:
        if seat.round.status == Round.Status.DRAFT:
            continue
        rounds[seat.round_id] = PlayerRound(
            number=seat.round.number, table=seat.table, position=seat.position,
            mates=[names[e] for e in mates.get(seat.table_id, []) if e != entry.id],
            hidden=seat.round.results_hidden and not include_hidden)
    scores = Score.objects.filter(entry=entry).select_related("game", "penalty")
    if not include_hidden:
        scores = scores.filter(round__results_hidden=False)

    def sheet_order(score):  # as on the sheet: games by number, a penalty after the game it fell in
        number = score.game.number if score.game else score.penalty.game_number if score.penalty else None
        return (rounds[score.round_id].number if score.round_id in rounds else 0,
                number if number is not None else 10_000, score.kind != Score.Kind.GAME, score.id)

    total = 0
    for score in sorted((s for s in scores if s.round_id in rounds), key=sheet_order):
        record = rounds[score.round_id]
        total += score.points
        record.total += score.points
        line = PlayerLine(kind=score.kind, number=score.game.number if score.game else (
            score.penalty.game_number if score.penalty else None), game=score.game, penalty=score.penalty,
            points=score.points, running=total, won=score.won)
        if score.game:
            on_re = entry.id in score.game.re
            line.party = "Re" if on_re else "Kontra"
            side = set(score.game.re) if on_re else set(mates.get(score.table_id, [])) - set(score.game.re) - {
                score.game.sitting_out_id}
            line.partners = [names[e] for e in side if e != entry.id and e in names]
        record.lines.append(line)
    history = standings_history(tournament, include_hidden=include_hidden)
    ranks = [(number, history.ranks(number).get(entry.id)) for number in history.rounds]
    return PlayerRecord(entry=entry, rounds=list(rounds.values()), total=total,
                        rank=ranks[-1][1] if ranks else None, ranks=ranks, history=history)


# ---- a tournament at a glance --------------------------------------------------------------------

@dataclass
class RoundSummary:
    """One line of the overview: a round and how far its tables are."""

    round: Round
    tables: int = 0
    tables_of_5: int = 0
    games: int = 0  # entered (a table with totals only counts all its games)
    games_expected: int = 0
    signed: int = 0

    @property
    def complete(self) -> bool:
        return self.tables > 0 and self.games >= self.games_expected


@dataclass
class Overview:
    rounds: list[RoundSummary] = field(default_factory=list)
    players: int = 0
    active: int = 0

    @property
    def draft(self) -> Round | None:
        return next((s.round for s in self.rounds if s.round.is_draft), None)


def tournament_overview(tournament: Tournament) -> Overview:
    """Rounds, tables, games and players of a tournament in four queries, whatever its size."""
    result = Overview()
    by_round = {r.id: RoundSummary(r) for r in tournament.rounds.order_by("number")}
    result.rounds = list(by_round.values())
    games = dict(Game.objects.filter(table__round__tournament=tournament).order_by().values("table_id")
                 .annotate(n=Count("id")).values_list("table_id", "n"))
    tables = (Table.objects.filter(round__tournament=tournament).order_by().annotate(size=Count("seats"))
              .values_list("id", "round_id", "size", "signed_at", "totals_only"))
    for table_id, round_id, size, signed_at, totals_only in tables:
        summary = by_round[round_id]
        expected = tournament.games_at_table(size)
        summary.tables += 1
        summary.tables_of_5 += size == 5
        summary.games_expected += expected
        summary.games += expected if totals_only else games.get(table_id, 0)
        summary.signed += signed_at is not None
    counts = tournament.entries.aggregate(players=Count("id"), active=Count("id", filter=Q(withdrawn_from_round=None)))
    result.players, result.active = counts["players"], counts["active"]
    return result
