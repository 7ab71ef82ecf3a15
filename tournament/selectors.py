"""Functions that read: what a page needs, in a fixed number of queries whatever the size."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from itertools import combinations

from django.db.models import Count, Exists, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring import ranking as scoring_ranking
from scoring.ranking import Placement
from seating import dealing

from . import names, ranking
from .collation import name_key
from .models import DraftGame, Entry, Game, Penalty, Round, Score, Seat, Series, SeriesMerge, Table, Tournament


def role_of(user, tournament: Tournament) -> str | None:
    """"director" (also every superuser), "helper" or None. At most two queries."""
    if not user.is_authenticated:
        return None
    if user.is_superuser or tournament.directors.filter(pk=user.pk).exists():
        return "director"
    if tournament.helpers.filter(pk=user.pk).exists():
        return "helper"
    return None


def is_director(user, tournament: Tournament) -> bool:
    return role_of(user, tournament) == "director"


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
    table_points: int = 0  # Tournament.Ranking.TABLE_POINTS: the sum of `placements`' table points
    # (round number, table number, placement at that table), in round order; only with table points
    placements: tuple[tuple[int, int, Placement], ...] = ()
    rounds_played: int = 0  # rounds with a result of the player's (what the average divides by)

    @property
    def sort_name(self) -> tuple[str, str]:
        """The name as it is sorted for display (`collation.name_key`: DIN 5007-1)."""
        return name_key(self.name)

    @property
    def average(self) -> Fraction | None:
        """Game points per round played (Tournament.Ranking.AVERAGE), exact; None before a round."""
        return scoring_ranking.average(self.points, self.rounds_played)

    @property
    def average_text(self) -> str:
        return ranking.average_text(self.average)


@dataclass
class StandingsHistory:
    """The standings after each round that has results, computed from one aggregate query."""

    rounds: list[int]  # round numbers with results, in order
    after: dict[int, list[StandingRow]]  # round number -> ranked standings after that round
    before: list[StandingRow]  # everyone with 0 points, before any result
    # what is still missing in the rounds being played (set by caching.standings_history, which
    # computes it once per change with the standings; None: not looked at)
    missing: MissingResults | None = None

    def final(self) -> list[StandingRow]:
        return self.after[self.rounds[-1]] if self.rounds else self.before

    def provisional_sentences(self) -> list[str]:
        """What the pages say is still missing ("vorläufig"); empty when the standings are final."""
        return self.missing.provisional_sentences() if self.missing is not None else []

    def ranks(self, round_number: int) -> dict[int, int]:
        return {row.entry_id: row.rank for row in self.after.get(round_number, [])}

    def per_round(self, rounds: list[int], mode: str) -> dict[int, list[int | None]]:
        """Each player's points in each of `rounds` (the first rounds of `self.rounds`), by entry: the
        round's table points when they rank (so that every total adds up on paper), else its game
        points; None for a round without a result of the player's. The columns R1, R2 … of the
        printed standings and of the CSV."""
        if not rounds:
            return {}
        field = "table_points" if mode == Tournament.Ranking.TABLE_POINTS else "points"
        totals = {n: {r.entry_id: (getattr(r, field), r.rounds_played) for r in self.after[n]} for n in rounds}
        columns: dict[int, list[int | None]] = {entry: [None] * len(rounds) for n in rounds for entry in totals[n]}
        for i, n in enumerate(rounds):
            for entry, (points, played) in totals[n].items():
                earlier, played_before = totals[rounds[i - 1]].get(entry, (0, 0)) if i else (0, 0)
                if played > played_before:  # else: no result of the player's in the round, nothing played
                    columns[entry][i] = points - earlier
        if field == "table_points":  # a placement also for the one who sat out every game entered at a table of 5
            where = {n: i for i, n in enumerate(rounds)}
            for row in self.after[rounds[-1]]:
                for n, _table, placement in row.placements:
                    if n in where:
                        columns[row.entry_id][where[n]] = placement.table_points
        return columns


def standings_history(tournament: Tournament, *, include_hidden: bool = True) -> StandingsHistory:
    """Standings after every round, best first, ranked as the tournament says (`Tournament.ranking`,
    `ranking.row_key`); ties share a rank. Rounds whose results are hidden count only with
    `include_hidden` (the director's view). Three queries whatever the size (the rounds, the scores
    summed per round, table and player, the players), and with table points one more (who sits at
    which table: a player who sat out every game entered so far has no score there yet)."""
    rounds = tournament.rounds.all() if include_hidden else tournament.rounds.filter(results_hidden=False)
    numbers = dict(rounds.values_list("id", "number"))
    # grouped by round id, entry and table (an entry sits at one table per round), without a join: the
    # database reads the (round, entry) index in order instead of joining the rounds and sorting
    # 25,000 scores (1,000 players, 3 rounds)
    per_round = (Score.objects.filter(round_id__in=list(numbers)).order_by()
                 .values("round_id", "entry_id", "table_id")
                 .annotate(points=Sum("points"), games=Sum("games"),
                           won=Count("id", filter=Q(won=True)), solos=Count("id", filter=Q(solo=True)),
                           totals=Count("id", filter=Q(kind=Score.Kind.TOTAL)))
                 .values_list("round_id", "entry_id", "points", "games", "won", "solos", "totals", "table_id"))
    by_round: dict[int, list[tuple]] = {}
    for aggregate in per_round:
        by_round.setdefault(numbers[aggregate[0]], []).append(aggregate)
    rows = {entry_id: StandingRow(entry_id=entry_id, start_number=start_number, name=name, club=club,
                                  withdrawn=withdrawn is not None)
            for entry_id, start_number, name, club, withdrawn in tournament.entries.order_by("start_number")
            .values_list("id", "start_number", "player__name", "player__club", "withdrawn_from_round")}
    mode, breakers = tournament.ranking, tournament.tie_breakers
    seated: dict[int, list[int]] = {}  # table id -> entry ids, with table points only
    table_numbers: dict[int, int] = {}
    if mode == Tournament.Ranking.TABLE_POINTS and by_round:
        for table_id, table_number, entry_id in (Seat.objects.filter(round_id__in=list(numbers)).order_by()
                                                 .values_list("table_id", "table__number", "entry_id")):
            seated.setdefault(table_id, []).append(entry_id)
            table_numbers[table_id] = table_number
    after: dict[int, list[StandingRow]] = {}
    before = rank_rows([_copy(row) for row in rows.values()], breakers, mode)
    for number in sorted(by_round):
        at_table: dict[int, dict[int, int]] = {}  # table id -> entry id -> points in this round
        for _round, entry_id, points, games, won, solos, totals, table_id in by_round[number]:
            row = rows[entry_id]
            points = points or 0
            row.points += points
            row.games += games or 0
            row.won += won
            row.solos += solos
            row.totals_only = row.totals_only or bool(totals)
            row.best_round = points if row.best_round is None else max(row.best_round, points)
            row.rounds_played += 1
            at_table.setdefault(table_id, {})[entry_id] = points
        for table_id, points_at_table in at_table.items():
            if table_id not in seated:
                continue  # only with table points
            everyone = {entry_id: points_at_table.get(entry_id, 0) for entry_id in seated[table_id]}
            for entry_id, placement in scoring_ranking.table_points(everyone).items():
                row = rows[entry_id]
                row.table_points += placement.table_points
                row.placements = (*row.placements, (number, table_numbers[table_id], placement))
        after[number] = rank_rows([_copy(row) for row in rows.values()], breakers, mode)
    return StandingsHistory(rounds=sorted(by_round), after=after, before=before)


def _copy(row: StandingRow) -> StandingRow:
    """A copy of a row (what `dataclasses.replace` does, a tenth of the time: 4,000 rows per call)."""
    copied = object.__new__(StandingRow)
    copied.__dict__.update(row.__dict__)
    return copied


def standings(tournament: Tournament, *, up_to_round: int | None = None, include_hidden: bool = True
              ) -> list[StandingRow]:
    """Everyone entered, ranked after round `up_to_round` (default: all rounds with results)."""
    history = standings_history(tournament, include_hidden=include_hidden)
    rounds = [n for n in history.rounds if up_to_round is None or n <= up_to_round]
    return history.after[rounds[-1]] if rounds else history.before


def rank_rows(rows: list[StandingRow], tie_breakers: list[str],
              mode: str = Tournament.Ranking.POINTS) -> list[StandingRow]:
    """Sorts the rows best first by what the ranking mode decides on (`ranking.row_key`), then by
    name; rows with the same key share a rank (1, 1, 3 …)."""
    names = [name for name in tie_breakers if name in ranking.TIE_BREAKERS]
    keys = {id(row): ranking.row_key(row, mode, names) for row in rows}
    rows.sort(key=lambda row: (tuple(-k for k in keys[id(row)]), name_key(row.name), row.start_number))
    previous_key, previous_rank = None, 0
    for index, row in enumerate(rows, start=1):
        this = keys[id(row)]
        row.rank = previous_rank if this == previous_key else index
        previous_key, previous_rank = this, row.rank
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


def game_points(game: Game, seated: list[Entry]) -> list[tuple[str, int]]:
    """(name, points) of the players of a saved game, in seat order (who sat out left out): one query."""
    points = dict(Score.objects.filter(game=game, kind=Score.Kind.GAME).values_list("entry_id", "points"))
    return [(entry.name, points.get(entry.id, 0)) for entry in seated if entry.id != game.sitting_out_id]


def round_tables(round: Round) -> list[SeatedTable]:
    """The round's tables with their players in seat order: two queries."""
    tables = {t.id: SeatedTable(t, []) for t in round.tables.order_by("number")}
    for seat in Seat.objects.filter(round=round).select_related("entry__player").order_by("table__number", "position"):
        tables[seat.table_id].entries.append(seat.entry)
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


# ---- a table's sheet -----------------------------------------------------------------------------

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
    # with table points: the player's placement at the table in this round (None before a result)
    placement: Placement | None = None

    @property
    def placement_text(self) -> str:
        return ranking.place_text(self.placement) if self.placement is not None else ""


@dataclass
class PlayerRecord:
    entry: Entry
    rounds: list[PlayerRound]
    total: int
    rank: int | None
    ranks: list[tuple[int, int]]  # (round number, rank after it)
    history: StandingsHistory
    ranking: str = Tournament.Ranking.POINTS  # the tournament's
    table_points: int = 0  # with table points: the sum of the rounds' placements

    @property
    def rounds_played(self) -> int:
        """Rounds with a result of the player's that the reader may see (what the average divides by)."""
        return sum(1 for played in self.rounds if played.lines and not played.hidden)

    @property
    def average_text(self) -> str:
        return ranking.average_text(scoring_ranking.average(self.total, self.rounds_played))

    @property
    def average_explained(self) -> str:
        return ranking.average_explained(self.total, self.rounds_played)


def player_record(tournament: Tournament, entry_id: int, *, include_hidden: bool,
                  history: StandingsHistory | None = None) -> PlayerRecord:
    """A player's tables, every game they played with points and breakdown, their total and their rank
    after each round. A fixed number of queries. `history`: the tournament's standings (with the same
    `include_hidden`) when the caller has them already (`caching.standings_history`)."""
    entry = Entry.objects.select_related("player").get(tournament=tournament, pk=entry_id)
    seats = list(Seat.objects.filter(entry=entry).select_related("table", "round").order_by("round__number"))
    names: dict[int, str] = {}
    mates: dict[int, list[int]] = {}
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
    table_points = 0
    if tournament.ranking == Tournament.Ranking.TABLE_POINTS:
        table_points = _place_at_tables(entry.id, rounds, mates)
    if history is None:
        history = standings_history(tournament, include_hidden=include_hidden)
    ranks = [(number, history.ranks(number)[entry.id]) for number in history.rounds]  # everyone is ranked
    return PlayerRecord(entry=entry, rounds=list(rounds.values()), total=total,
                        rank=ranks[-1][1] if ranks else None, ranks=ranks, history=history,
                        ranking=tournament.ranking, table_points=table_points)


def _place_at_tables(entry_id: int, rounds: dict[int, PlayerRound], mates: dict[int, list[int]]) -> int:
    """Sets each round's placement at the player's table (rounds with a result the reader may see)
    from everyone's points at those tables: one query. Returns the sum of the table points."""
    shown = {played.table.id: played for played in rounds.values() if played.lines and not played.hidden}
    points: dict[int, dict[int, int]] = {}
    for table_id, seated, total in (Score.objects.filter(table_id__in=list(shown)).order_by()
                                    .values("table_id", "entry_id").annotate(total=Sum("points"))
                                    .values_list("table_id", "entry_id", "total")):
        points.setdefault(table_id, {})[seated] = total or 0
    table_points = 0
    for table_id, played in shown.items():
        at_table = points.get(table_id, {})
        everyone = {seated: at_table.get(seated, 0) for seated in mates.get(table_id, [])}
        played.placement = scoring_ranking.table_points(everyone)[entry_id]
        table_points += played.placement.table_points
    return table_points


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
    planned: int = 0  # the rounds the tournament plans

    @property
    def finished(self) -> bool:
        """"Turnier beendet": at least the planned rounds are played, every round is closed and no
        game is missing (a table that ended early counts as complete)."""
        return (len(self.rounds) >= max(self.planned, 1)
                and all(s.round.status == Round.Status.CLOSED and s.complete for s in self.rounds))

    @property
    def draft(self) -> Round | None:
        return next((s.round for s in self.rounds if s.round.is_draft), None)


def tournament_overview(tournament: Tournament) -> Overview:
    """Rounds, tables, games and players of a tournament in four queries, whatever its size."""
    result = Overview(planned=tournament.rounds_planned)
    by_round = {r.id: RoundSummary(r) for r in tournament.rounds.order_by("number")}
    result.rounds = list(by_round.values())
    games = dict(Game.objects.filter(table__round__tournament=tournament).order_by().values("table_id")
                 .annotate(n=Count("id")).values_list("table_id", "n"))
    tables = (Table.objects.filter(round__tournament=tournament).order_by().annotate(size=Count("seats"))
              .values_list("id", "round_id", "size", "signed_at", "totals_only", "ended_after"))
    for table_id, round_id, size, signed_at, totals_only, ended_after in tables:
        summary = by_round[round_id]
        expected = Table.games_to_play(tournament.games_at_table(size), ended_after)
        summary.tables += 1
        summary.tables_of_5 += size == 5
        summary.games_expected += expected
        summary.games += expected if totals_only else games.get(table_id, 0)
        summary.signed += signed_at is not None
    counts = tournament.entries.aggregate(players=Count("id"), active=Count("id", filter=Q(withdrawn_from_round=None)))
    result.players, result.active = counts["players"], counts["active"]
    return result


# ---- what is still missing -----------------------------------------------------------------------

@dataclass
class TableResults:
    """How far one table's results are: games entered of those expected, entries from the table's
    phones that wait for confirmation, signed or not."""

    round_number: int
    table_number: int
    expected: int
    entered: int
    waiting: int
    signed: bool
    totals_only: bool

    @property
    def missing(self) -> int:
        return 0 if self.totals_only else max(self.expected - self.entered, 0)


@dataclass
class MissingResults:
    """What is still missing in the rounds looked at (the published ones, or the ones asked for)."""

    rounds: list[int]
    tables: list[TableResults]
    closed: set[int] = field(default_factory=set)  # of `rounds`, those closed

    @property
    def games(self) -> int:
        return sum(t.missing for t in self.tables)

    @property
    def waiting(self) -> int:
        return sum(t.waiting for t in self.tables)

    @property
    def unsigned(self) -> int:
        return sum(not t.signed for t in self.tables)

    @property
    def incomplete(self) -> list[TableResults]:
        """The tables with games missing or entries waiting, by round and number."""
        return [t for t in self.tables if t.missing or t.waiting]

    @property
    def provisional(self) -> bool:
        """Results are still to come: a round is not closed yet, or a table of a closed round has games
        missing or entries waiting (closing does not make a missing game final)."""
        return any(number not in self.closed for number in self.rounds) or bool(self.incomplete)

    def provisional_sentences(self) -> list[str]:
        """`sentences` while the standings are provisional (a round is not closed, or games are
        missing); empty when they are final."""
        return self.sentences() if self.provisional else []

    def sentences(self) -> list[str]:
        """What is missing, for people: "In Runde 2 fehlen noch 12 Spiele an 3 Tischen (2, 5, 7)." """
        lines = []
        for number in self.rounds:
            tables = [t for t in self.incomplete if t.round_number == number]
            games = sum(t.missing for t in tables)
            waiting = sum(t.waiting for t in tables)
            numbers = ", ".join(str(t.table_number) for t in tables if t.missing)
            if games:
                where = ngettext("Tisch %(tables)s", "Tische %(tables)s",
                                 sum(1 for t in tables if t.missing)) % {"tables": numbers}
                lines.append(ngettext("Runde %(round)s: es fehlt noch %(games)s Spiel (%(where)s).",
                                      "Runde %(round)s: es fehlen noch %(games)s Spiele (%(where)s).",
                                      games) % {"round": number, "games": games, "where": where})
            if waiting:
                lines.append(ngettext("Runde %(round)s: %(n)s Eingabe vom Tisch wartet auf Bestätigung.",
                                      "Runde %(round)s: %(n)s Eingaben vom Tisch warten auf Bestätigung.",
                                      waiting) % {"round": number, "n": waiting})
            if not games and not waiting and number not in self.closed:
                lines.append(_("Runde %(round)s: alle Spiele sind eingetragen, die Runde ist noch nicht abgeschlossen.")
                             % {"round": number})
        return lines


def _count_of(model, link: str, **where) -> Subquery:
    """COUNT(*) of `model`'s rows whose `link` is the outer row's id, and that match `where` (a
    correlated subquery: no joins that multiply each other's rows)."""
    rows = model.objects.filter(**{link: OuterRef("pk")}, **where).order_by()
    return Subquery(rows.values(link).annotate(n=Count("*")).values("n")[:1])


def missing_results(tournament: Tournament, *, rounds: list[int] | None = None,
                    include_closed: bool = True) -> MissingResults:
    """The results still missing in the published and closed rounds (or in `rounds`, whatever their
    status; `include_closed=False`: the published ones only): closing a round does not make a missing game
    final. One query (the counts as
    subqueries, the rows as values: 250 tables in a few milliseconds)."""
    tables = Table.objects.filter(round__tournament=tournament).annotate(
        size=Coalesce(_count_of(Seat, "table_id"), 0), entered=Coalesce(_count_of(Game, "table_id"), 0),
        waiting=Coalesce(_count_of(DraftGame, "table_id", status=DraftGame.Status.WAITING), 0),
    ).order_by("round__number", "number")
    if rounds is None:
        tables = tables.filter(round__status__in=[Round.Status.PUBLISHED, Round.Status.CLOSED] if include_closed
                               else [Round.Status.PUBLISHED])
    else:
        tables = tables.filter(round__number__in=rounds)
    rows = list(tables.values_list("round__number", "round__status", "number", "size", "entered", "waiting",
                                   "signed_at", "totals_only", "ended_after"))
    found = []
    for round_number, _status, number, size, entered, waiting, signed_at, totals_only, ended_after in rows:
        per_table = tournament.games_at_table(size)
        found.append(TableResults(
            round_number=round_number, table_number=number,
            expected=Table.games_to_play(per_table, ended_after),
            entered=entered, waiting=waiting, signed=signed_at is not None, totals_only=totals_only))
    numbers = sorted({t.round_number for t in found})
    closed = {row[0] for row in rows if row[1] == Round.Status.CLOSED}
    return MissingResults(rounds=numbers, tables=found, closed=closed)




# ---- a series of tournaments ---------------------------------------------------------------------

# who a player is within a series, as within a tournament: the same name and club (names.identity)
identity_key = names.identity
person_text = names.person_text


def is_series_director(user, series: Series) -> bool:
    """A director of the series (also every superuser). At most one query."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or series.directors.filter(pk=user.pk).exists()


def tournaments_to_add(user) -> list[Tournament]:
    """The tournaments `user` directs (a superuser: all) that belong to no series yet, newest first.
    One query."""
    tournaments = Tournament.objects.filter(series=None).order_by("-date", "name")
    if not user.is_superuser:
        tournaments = tournaments.filter(directors=user)
    return list(tournaments.only("id", "name", "date"))


@dataclass
class SeriesEvening:
    """One tournament of a series, a column of its standings."""

    tournament_id: int
    name: str
    slug: str
    date: datetime.date
    public_standings: bool
    directed: bool  # the viewer directs it: its hidden results count for them
    hidden: bool = False  # some of its rounds' results are hidden from the public


@dataclass
class SeriesCell:
    points: int | None  # None: not played (or nothing of it is visible)
    counts: bool = False  # part of the total (best k: one of the best evenings)


@dataclass
class SeriesRow:
    key: str  # the identity (`identity_key`) the row stands for
    name: str
    club: str
    cells: list[SeriesCell]  # one per evening, in the evenings' order
    played: int = 0
    points: int = 0  # the sum of the evenings that count
    value: Fraction = Fraction(0)  # what ranks: the sum, the best k's sum, or the average
    rank: int | None = None  # None: no evening played yet
    merged: list[str] = field(default_factory=list)  # "Name (Verein)" of the identities merged into this one
    evenings: set[int] = field(default_factory=set)  # tournament ids with an entry (for merging)

    @property
    def shown_value(self) -> int | Decimal:
        """What the table shows as the result: a whole number, an average to one decimal."""
        if self.value.denominator == 1:
            return int(self.value)
        return (Decimal(self.value.numerator) / Decimal(self.value.denominator)).quantize(
            Decimal("0.1"), rounding=ROUND_HALF_UP)


@dataclass
class SeriesStandings:
    series: Series
    evenings: list[SeriesEvening]
    rows: list[SeriesRow]  # ranked first, then those who have not played yet, by name
    merges: list[tuple[SeriesMerge, str, str]]  # each merge with the shown names of both sides
    # merges that do not count, by id: the two played one evening (an evening added after the merge),
    # with that evening's name
    blocked: dict[int, str] = field(default_factory=dict)


def resolve(merges: dict[str, str], key: str) -> str:
    """The identity `key` counts as, following merges (a merge into a merged identity goes on)."""
    seen = {key}
    while key in merges and merges[key] not in seen:
        key = merges[key]
        seen.add(key)
    return key


def series_standings(series: Series, *, user=None) -> SeriesStandings:
    """The standings of a series: each player's total game points per evening, ranked by the
    series' mode. Results hidden from the public (a hidden round, a tournament whose standings are
    not public) count only for a director of that tournament (`user`). Four queries whatever the
    size: the evenings, their entries, one aggregate of the scores of all evenings, the merges."""
    superuser = bool(user is not None and user.is_authenticated and user.is_superuser)
    tournaments = Tournament.objects.filter(series=series).order_by("date", "name", "id")
    if user is not None and user.is_authenticated and not superuser:
        tournaments = tournaments.annotate(directed=Exists(
            Tournament.directors.through.objects.filter(tournament_id=OuterRef("pk"), user_id=user.pk)))
    else:
        tournaments = tournaments.annotate(directed=Value(superuser))
    tournaments = tournaments.annotate(hidden=Exists(Round.objects.filter(tournament_id=OuterRef("pk"),
                                                                          results_hidden=True)))
    evenings = [SeriesEvening(tournament_id=t.pk, name=t.name, slug=t.slug, date=t.date,
                              public_standings=t.public_standings, directed=t.directed, hidden=t.hidden)
                for t in tournaments.only("id", "name", "slug", "date", "public_standings")]
    column = {evening.tournament_id: index for index, evening in enumerate(evenings)}
    shown = [e.tournament_id for e in evenings if e.public_standings or e.directed]
    full = [e.tournament_id for e in evenings if e.directed]
    entries = list(Entry.objects.filter(tournament_id__in=list(column)).order_by()
                   .values_list("id", "tournament_id", "player__name", "player__club"))
    points: dict[int, tuple[int, int]] = {
        entry_id: (total or 0, count) for entry_id, total, count in
        Score.objects.filter(round__tournament_id__in=shown).filter(
            Q(round__results_hidden=False) | Q(round__tournament_id__in=full))
        .order_by().values("entry_id").annotate(total=Sum("points"), count=Count("id"))
        .values_list("entry_id", "total", "count")}
    merge_rows = list(series.merges.all())

    # who each entry is; two entries of one evening are never one person (two of one identity there,
    # entered before names were checked, each keep a row of their own)
    keys: dict[int, str] = {}
    played: dict[str, set[int]] = {}  # identity -> its evenings
    for entry_id, tournament_id, name, club in sorted(entries, key=lambda e: (e[1], e[0])):
        key = identity_key(name, club)
        if tournament_id in played.get(key, ()):
            key = f"{key}\n#{entry_id}"
        keys[entry_id] = key
        played.setdefault(key, set()).add(tournament_id)
    merges, blocked = _merges(merge_rows, played, {e.tournament_id: e.name for e in evenings})

    # each identity's name and club as written at its latest evening
    latest: dict[str, tuple[int, str, str]] = {}
    rows: dict[str, SeriesRow] = {}
    members: dict[str, set[str]] = {}
    for entry_id, tournament_id, name, club in entries:
        key = keys[entry_id]
        where = column[tournament_id]
        if key not in latest or latest[key][0] <= where:
            latest[key] = (where, name, club)
        root = resolve(merges, key)
        members.setdefault(root, set()).add(key)
        row = rows.get(root)
        if row is None:
            row = rows[root] = SeriesRow(key=root, name="", club="", cells=[SeriesCell(None) for _e in evenings])
        row.evenings.add(tournament_id)
        if entry_id in points:
            total, _count = points[entry_id]
            cell = row.cells[where]
            cell.points = (cell.points or 0) + total
    for root, row in rows.items():
        own = latest.get(root) or max(latest[k] for k in members[root])
        row.name, row.club = own[1], own[2]
        row.merged = sorted((person_text(latest[k][1], latest[k][2]) for k in members[root] if k != root),
                            key=name_key)
        _score(row, series)
    ranked = rank_series_rows([row for row in rows.values() if row.played])
    waiting = sorted((row for row in rows.values() if not row.played),
                     key=lambda row: (name_key(row.name), name_key(row.club)))
    shown_merges = [(m, person_text(*latest[m.alias][1:]) if m.alias in latest else m.alias.replace("\n", " · "),
                     person_text(*latest[m.same_as][1:]) if m.same_as in latest else m.same_as.replace("\n", " · "))
                    for m in merge_rows]
    return SeriesStandings(series=series, evenings=evenings, rows=ranked + waiting, merges=shown_merges,
                           blocked=blocked)


def _merges(merge_rows: list[SeriesMerge], played: dict[str, set[int]],
            evening_names: dict[int, str]) -> tuple[dict[str, str], dict[int, str]]:
    """The merges that count (alias -> same as), oldest first, and those that do not: a merge that
    would make one person of two who played one evening (by id, with that evening's name)."""
    merges: dict[str, str] = {}
    blocked: dict[int, str] = {}
    evenings = {key: set(ids) for key, ids in played.items()}
    for merge in merge_rows:
        alias, same_as = resolve(merges, merge.alias), resolve(merges, merge.same_as)
        if alias == same_as:
            continue
        both = evenings.get(alias, set()) & evenings.get(same_as, set())
        if both:
            blocked[merge.pk] = next(name for tid, name in evening_names.items() if tid in both)
            continue
        merges[alias] = same_as
        evenings.setdefault(same_as, set()).update(evenings.pop(alias, set()))
    return merges, blocked


def _score(row: SeriesRow, series: Series) -> None:
    """A row's evenings that count, its points and the value it is ranked by."""
    played = [(index, cell) for index, cell in enumerate(row.cells) if cell.points is not None]
    row.played = len(played)
    if series.mode == Series.Mode.BEST:
        # the best k; of equal results the earlier evening counts
        counting = sorted(played, key=lambda item: (-(item[1].points or 0), item[0]))[:max(series.best_of, 1)]
    else:
        counting = played
    for _index, cell in counting:
        cell.counts = True
    row.points = sum(cell.points or 0 for _index, cell in counting)
    if series.mode == Series.Mode.AVERAGE:
        row.value = Fraction(row.points, row.played) if row.played else Fraction(0)
    else:
        row.value = Fraction(row.points)


def rank_series_rows(rows: list[SeriesRow]) -> list[SeriesRow]:
    """Best value first; of equal values, more evenings played first; still equal, they share the
    place and are listed by name."""
    rows.sort(key=lambda row: (-row.value, -row.played, name_key(row.name), name_key(row.club)))
    previous_key, previous_rank = None, 0
    for index, row in enumerate(rows, start=1):
        this = (row.value, row.played)
        row.rank = previous_rank if this == previous_key else index
        previous_key, previous_rank = this, row.rank
    return rows
