"""The standings of a tournament: rows with their totals, ranked by the tournament's tie-breakers,
and the history of places round by round (for the chart).

Reads only, in a fixed number of queries whatever the size."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from fractions import Fraction
from operator import attrgetter
from typing import cast

from scoring import ranking as scoring_ranking
from scoring.ranking import Placement

from .. import privacy, ranking
from ..collation import name_key
from ..models import Seat, Tally, Tournament
from .missing import MissingResults


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
    absent: bool = False  # not marked present while the check-in is in use (a no-show, unless he plays)
    rank: int = 0  # 0: not ranked (`ranked`), listed below the ranked rows without a place
    movement: int | None = None  # places gained since the round before (negative: lost)
    table_points: int = 0  # Tournament.Ranking.TABLE_POINTS: the sum of `placements`' table points
    # (round number, table number, placement at that table), in round order; only with table points
    placements: tuple[tuple[int, int, Placement], ...] = ()
    rounds_played: int = 0  # rounds with a result of the player's (what the average divides by)
    # the club the player counts for in the club ranking: `club`, or a hidden player's own club, which the
    # public's rows do not show (`privacy.shown_club`); an aggregate, never shown as the player's
    club_counted: str = ""
    hidden: bool = False  # the public's row of a player who is not published (`privacy.HIDDEN`)

    @property
    def sort_name(self) -> tuple[str, str]:
        """The name as it is sorted for display (`collation.name_key`: DIN 5007-1)."""
        return name_key(self.name)

    @property
    def ranked(self) -> bool:
        """Whether the row has a place: not for a player who withdrew or never came (`absent`) and has no
        result in any round counted (docs/tournament.md, "Wer keinen Platz bekommt"); a player with
        results keeps his place after withdrawing."""
        return self.rounds_played > 0 or bool(self.placements) or not (self.withdrawn or self.absent)

    @property
    def place_text(self) -> str:
        """The place as the pages show it: "3", or "–" for a row without a place."""
        return str(self.rank) if self.rank else "–"

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
    # what is still missing in the rounds being played (set by histories.standings_history, which
    # computes it once per change with the standings; None: not looked at)
    missing: MissingResults | None = None

    def final(self) -> list[StandingRow]:
        return self.after[self.rounds[-1]] if self.rounds else self.before

    def provisional_sentences(self) -> list[str]:
        """What the pages say is still missing ("vorläufig"); empty when the standings are final."""
        return self.missing.provisional_sentences() if self.missing is not None else []

    def brief_provisional_sentences(self) -> list[str]:
        """`provisional_sentences` for a player's page: which rounds are not final, not how much is
        missing (`MissingResults.brief_sentences`)."""
        return self.missing.brief_sentences() if self.missing is not None else []

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


# a row of `score_sums`: the scores of one player at one table of one round, summed (a stored `Tally`;
# the totals-only mark a bool, which counts as 1)
ScoreSum = tuple[int, int, int, int, int, int, int, int]
SCORE_SUM_TABLE = 7  # where its table id is


def score_sums(*, round_ids: Iterable[int] | None = None, table_ids: Iterable[int] | None = None
               ) -> list[ScoreSum]:
    """Each player's scores summed per round and table: (round id, entry id, points, games, won,
    solos, totals-only rows, table id), for the given rounds or tables. One query: the sums are stored,
    one `Tally` per table and player, written with the table's scores (`services.scores.write_scores`);
    `web/score_sums.py` keeps them across changes and reads only changed tables again."""
    tallies = Tally.objects.order_by()
    for name, ids in (("round_id__in", round_ids), ("table_id__in", table_ids)):
        if ids is not None:
            ids = list(ids)
            if not ids:
                return []
            tallies = tallies.filter(**{name: ids})
    return cast(list[ScoreSum], list(tallies.values_list(
        "round_id", "entry_id", "points", "games", "won", "solos", "totals_only", "table_id")))


def standings_history(tournament: Tournament, *, include_hidden: bool = True,
                      sums: Iterable[ScoreSum] | None = None, since: StandingsHistory | None = None,
                      from_round: int | None = None, entries: set[int] | None = None,
                      public: bool = False) -> StandingsHistory:
    """Standings after every round, best first, ranked as the tournament says (`Tournament.ranking`,
    `ranking.row_key`); ties share a rank. Rounds whose results are hidden count only with
    `include_hidden` (the director's view). Three queries whatever the size (the rounds, the scores
    summed per round, table and player, the players), and with table points one more (who sits at
    which table: a player who sat out every game entered so far has no score there yet). `sums`: the
    tournament's `score_sums` when the caller has them (then one query fewer).

    `since` and `from_round`: the history of an earlier change after which only results of round
    `from_round` and later changed (`histories.standings_history` knows which tables did). The rounds
    before it are taken from `since` as they are (its rows are not changed), and the rounds from it
    on are summed and ranked again starting from `since`'s rows after the round before: a game saved
    in the last round ranks 1,000 players once, not once per round, and reads no players.

    `entries`: the only players whose results in round `from_round` may have changed since `since`
    (those of the changed tables). When that round is the last one with results, only their rows are
    summed again and moved to their new places in `since`'s ranking of it (`_moved`); not with table
    points, where a placement depends on the whole table.

    `public`: the rows carry the names and clubs the public sees (`privacy.shown_name`, read with the
    players in the same query); else the full ones (the director's)."""
    rounds = tournament.rounds.all() if include_hidden else tournament.rounds.filter(results_hidden=False)
    numbers = dict(rounds.values_list("id", "number"))
    if sums is None:
        per_round: Iterable[ScoreSum] = score_sums(round_ids=numbers)
    else:
        per_round = (line for line in sums if line[0] in numbers)
    by_round: dict[int, list[tuple]] = {}
    for aggregate in per_round:
        by_round.setdefault(numbers[aggregate[0]], []).append(aggregate)
    mode, breakers = tournament.ranking, tournament.tie_breakers
    after: dict[int, list[StandingRow]] = {}
    kept = [n for n in sorted(by_round) if from_round is not None and n < from_round]
    if since is not None and from_round is not None and kept == [n for n in since.rounds if n < from_round]:
        after = {n: since.after[n] for n in kept}
        before = since.before
        base = after[kept[-1]] if kept else before
        if (entries is not None and mode != Tournament.Ranking.TABLE_POINTS and from_round in since.after
                and sorted(by_round) == [*kept, from_round]):
            moved = _moved(since.after[from_round], base, by_round[from_round], entries, breakers, mode)
            if moved is not None:
                return StandingsHistory(rounds=[*kept, from_round], after={**after, from_round: moved}, before=before)
        rows = {row.entry_id: _copy(row) for row in base}
    else:
        kept = []
        players = list(tournament.entries.order_by("start_number").values_list(
            "id", "start_number", "player__name", "player__club", "player__publication", "withdrawn_from_round",
            "present"))
        checkin = any(line[-1] for line in players)  # once anyone is marked present, the others are absent
        rows = {entry_id: StandingRow(entry_id=entry_id, start_number=start_number,
                                      name=privacy.shown_name(name, level, start_number) if public else name,
                                      club=privacy.shown_club(club, level) if public else club,
                                      withdrawn=withdrawn is not None, absent=checkin and not present,
                                      club_counted=club, hidden=public and level == privacy.HIDDEN)
                for entry_id, start_number, name, club, level, withdrawn, present in players}
        before = rank_rows([_copy(row) for row in rows.values()], breakers, mode)
    summed = [n for n in sorted(by_round) if n not in after]
    seated: dict[int, list[int]] = {}  # table id -> entry ids, with table points only
    table_numbers: dict[int, int] = {}
    if mode == Tournament.Ranking.TABLE_POINTS and summed:
        round_ids = [round_id for round_id, number in numbers.items() if number in summed]
        for table_id, table_number, entry_id in (Seat.objects.filter(round_id__in=round_ids).order_by()
                                                 .values_list("table_id", "table__number", "entry_id")):
            seated.setdefault(table_id, []).append(entry_id)
            table_numbers[table_id] = table_number
    for number in summed:
        at_table: dict[int, dict[int, int]] = {}  # table id -> entry id -> points in this round
        for line in by_round[number]:
            _add(rows[line[1]], line)
            at_table.setdefault(line[7], {})[line[1]] = line[2] or 0
        for table_id, points_at_table in at_table.items():
            if table_id not in seated:
                continue  # only with table points
            everyone = {entry_id: points_at_table.get(entry_id, 0) for entry_id in seated[table_id]}
            for entry_id, placement in scoring_ranking.table_points(everyone).items():
                row = rows[entry_id]
                row.table_points += placement.table_points
                row.placements = (*row.placements, (number, table_numbers[table_id], placement))
        # a snapshot of the rows (the next round adds to them); the last round's are the rows themselves
        snapshot = [_copy(row) for row in rows.values()] if number != summed[-1] else list(rows.values())
        after[number] = rank_rows(snapshot, breakers, mode)
    return StandingsHistory(rounds=sorted(by_round), after=after, before=before)


ROW_FIELDS = tuple(field.name for field in fields(StandingRow))
_row_values = attrgetter(*ROW_FIELDS)


def row_values(rows: Iterable[StandingRow]) -> list[tuple]:
    """The rows as tuples of their fields, for the cache: pickled and read back in a fifth of the time
    of the rows themselves (1,000 rows: 0.8 against 3.6 ms, read 0.7 against 4.6 ms). `rows_from`
    makes rows of them again."""
    return [_row_values(row) for row in rows]


def rows_from(values: Iterable[tuple]) -> list[StandingRow]:
    """The rows `row_values` made tuples of."""
    rows = []
    for line in values:
        row = object.__new__(StandingRow)
        row.__dict__.update(zip(ROW_FIELDS, line, strict=True))
        rows.append(row)
    return rows


def _add(row: StandingRow, line: ScoreSum) -> None:
    """Adds a line of `score_sums` (a player's results at a table in a round) to the player's row."""
    _round, _entry, points, games, won, solos, totals, _table = line
    points = points or 0
    row.points += points
    row.games += games or 0
    row.won += won
    row.solos += solos
    row.totals_only = row.totals_only or bool(totals)
    row.best_round = points if row.best_round is None else max(row.best_round, points)
    row.rounds_played += 1


def _moved(ranked: list[StandingRow], base: list[StandingRow], lines: list[ScoreSum], entries: set[int],
           tie_breakers: list[str], mode: str) -> list[StandingRow] | None:
    """`ranked`, a round's ranking, with the rows of `entries` summed again (their rows after the round
    before, `base`, plus their `lines` of this round) and put where `rank_rows` would put them, without
    sorting 1,000 rows again for the four players of a table:

    - the others keep their order, so each changed row is inserted by bisection;
    - a rank is 1 + the number of rows with a better key (`ranking.row_key`). A player's rank changes
      only where a changed row's key moved past or onto theirs: between its old and its new key. Only
      those rows are ranked again, from the first row of each such stretch (overlapping ones joined,
      so that no row is looked at twice).

    Rows whose rank stays are the same objects as in `ranked`, the others copies. None: a player of
    `entries` is not in `base`."""
    changed = {row.entry_id: _copy(row) for row in base if row.entry_id in entries}
    if len(changed) != len(entries):
        return None
    for line in lines:
        if line[1] in changed:
            _add(changed[line[1]], line)
    worse, order = _order(tie_breakers, mode)
    rows: list[StandingRow] = []
    stretches = []  # (best, worst) key between which ranks may change
    for row in ranked:
        if row.entry_id in changed:
            stretches.append(sorted((worse(row), worse(changed[row.entry_id]))))
        else:
            rows.append(row)
    for row in changed.values():
        rows.insert(bisect_left(rows, order(row), key=order), row)
    spans: list[list[int]] = []  # where the stretches are in `rows`, overlapping ones joined
    for start, end in sorted((bisect_left(rows, best, key=worse), bisect_right(rows, worst, key=worse))
                             for best, worst in stretches):
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    copies = {id(row) for row in changed.values()}
    for start, end in spans:
        # the row before a stretch has a better key than all of it: its first row's rank is its place
        previous_key, previous_rank = None, 0
        for index in range(start, end):
            row = rows[index]
            this = worse(row)
            rank = (previous_rank if this == previous_key else index + 1) if row.ranked else 0
            if row.rank != rank:
                if id(row) not in copies:
                    row = rows[index] = _copy(row)
                row.rank = rank
            previous_key, previous_rank = this, rank
    return rows


def _copy(row: StandingRow) -> StandingRow:
    """A copy of a row (what `dataclasses.replace` does, a tenth of the time: 4,000 rows per call)."""
    copied = object.__new__(StandingRow)
    copied.__dict__.update(row.__dict__)
    return copied


def standings(tournament: Tournament, *, up_to_round: int | None = None, include_hidden: bool = True,
              public: bool = False) -> list[StandingRow]:
    """Everyone entered, ranked after round `up_to_round` (default: all rounds with results)."""
    history = standings_history(tournament, include_hidden=include_hidden, public=public)
    rounds = [n for n in history.rounds if up_to_round is None or n <= up_to_round]
    return history.after[rounds[-1]] if rounds else history.before


def rank_rows(rows: list[StandingRow], tie_breakers: list[str],
              mode: str = Tournament.Ranking.POINTS) -> list[StandingRow]:
    """Sorts the rows best first by what the ranking mode decides on (`ranking.row_key`), then by
    name; rows with the same key share a rank (1, 1, 3 …). Rows without a place (`StandingRow.ranked`)
    come last, with rank 0."""
    _worse, order = _order(tie_breakers, mode)
    keys = {id(row): order(row) for row in rows}
    rows.sort(key=lambda row: keys[id(row)])
    previous_key, previous_rank = None, 0
    for index, row in enumerate(rows, start=1):
        this = keys[id(row)][0]
        row.rank = (previous_rank if this == previous_key else index) if row.ranked else 0
        previous_key, previous_rank = this, row.rank
    return rows


Key = Callable[[StandingRow], tuple]


def _order(tie_breakers: list[str], mode: str) -> tuple[Key, Key]:
    """The ranking's order, for `rank_rows` and `_moved` alike: `worse(row)`, what the ranking mode
    decides on (`ranking.row_key`, with the tournament's known tie-breakers) negated, so that it
    ascends along the ranking; `order(row)`, the order of the rows: `worse`, then the name
    (`collation.name_key`), then the start number."""
    names = [name for name in tie_breakers if name in ranking.TIE_BREAKERS]

    def worse(row: StandingRow) -> tuple:
        return tuple(-k for k in ranking.row_key(row, mode, names))

    def order(row: StandingRow) -> tuple:
        return worse(row), name_key(row.name), row.start_number

    return worse, order
