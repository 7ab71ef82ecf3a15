"""A player's tournament: every round, every game with its breakdown, and the places.

Reads only, in a fixed number of queries whatever the size."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

from scoring import ranking as scoring_ranking
from scoring.ranking import Placement

from .. import privacy, ranking
from ..models import Entry, Round, Score, Tally, Tournament
from . import written_sql as sql
from .standings import StandingsHistory, standings_history
from .written_sql import GAME_FIELDS as GAME_FIELDS


@dataclass(frozen=True)
class PlayerEntry:
    """Whose page it is. Plain values, like everything in a `PlayerRecord`: the record is kept in the
    shared cache, and model instances cost several times as much to store and to read back."""
    id: int
    start_number: int
    name: str
    club: str
    level: str = privacy.FULL  # the player's publication level (a player not published has no public rating)


@dataclass(frozen=True)
class GameFacts:
    """What a player's page shows of a game: the fields of `Game` that `vocabulary` reads."""
    number: int
    type: str
    solo: str
    pflichtsolo: bool | None
    re: list[int]
    sitting_out_id: int | None
    re_augen: int
    announce_re: str
    announce_kontra: str
    extras: dict
    multiplier: int
    breakdown: list


@dataclass(frozen=True)
class PenaltyFacts:
    game_number: int | None
    offender_id: int


# the kind of a `PlayerLine` for a game the player sat out at a table of five (0 points, no `Score`)
SAT_OUT = "sat_out"


class SheetLine(NamedTuple):
    """A line of a player's sheet as read, before the running total: a `Score` of theirs, or a game they
    sat out at a table of five (kind SAT_OUT, 0 points, no `Score`: score_id 0)."""
    round_id: int
    table_id: int
    kind: str  # Score.Kind, or SAT_OUT
    number: int | None  # game number (a penalty: the game it happened in)
    points: int
    won: bool
    score_id: int
    game: GameFacts | None = None
    penalty: PenaltyFacts | None = None


@dataclass
class PlayerLine:
    kind: str  # Score.Kind, or SAT_OUT
    number: int | None  # game number (a penalty: the game it happened in)
    game: GameFacts | None
    penalty: PenaltyFacts | None
    points: int
    running: int
    party: str = ""  # "Re" or "Kontra"
    partners: list[str] = field(default_factory=list)
    won: bool = False


@dataclass
class PlayerRound:
    number: int
    table_id: int
    table_number: int
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
    entry: PlayerEntry
    rounds: list[PlayerRound]
    total: int
    rank: int | None
    ranks: list[tuple[int, int]]  # (round number, rank after it)
    history: StandingsHistory | None  # None: without the ranks (`player_record(..., ranked=False)`)
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

    def with_ranks(self, history: StandingsHistory) -> PlayerRecord:
        """This record with the player's rank after each round of `history` (everyone is ranked)."""
        # a rank of 0: no place after that round (withdrew or never came, no result: `StandingRow.ranked`)
        ranks = [(number, history.ranks(number)[self.entry.id]) for number in history.rounds]
        rank = ranks[-1][1] if ranks and ranks[-1][1] else None
        return replace(self, rank=rank, ranks=[(n, r) for n, r in ranks if r], history=history)


def player_record(tournament: Tournament, entry_id: int, *, include_hidden: bool,
                  history: StandingsHistory | None = None, ranked: bool = True, public: bool = False) -> PlayerRecord:
    """A player's tables, every game they played with points and breakdown (and those they sat out at a
    table of five, with 0), their total and their rank after each round. Four queries (five with table
    points), read as plain values. `history`: the
    tournament's standings (with the same `include_hidden`) when the caller has them already
    (`histories.standings_history`); `ranked=False`: without the ranks (no standings needed).
    `public`: every name (the player's, the table mates', the partners') and the club as the public
    sees them (`privacy.shown_name`, read in the same queries)."""
    found = sql.player_entry(tournament.pk, entry_id)
    if found is None:
        raise Entry.DoesNotExist
    own_id, own_number, own_name, own_club, own_level = found
    if public:
        own_name = privacy.shown_name(own_name, own_level, own_number)
        own_club = privacy.shown_club(own_club, own_level)
    entry = PlayerEntry(own_id, own_number, own_name, own_club, own_level)
    # everyone seated at the player's tables, the player too: who sat where, and the rounds
    seated = sql.player_seats(entry.id)
    names = {seat[7]: privacy.shown_name(seat[8], seat[9], seat[10]) if public else seat[8] for seat in seated}
    mates: dict[int, list[int]] = {}
    for seat in seated:
        mates.setdefault(seat[0], []).append(seat[7])
    rounds: dict[int, PlayerRound] = {}
    for table_id, table_number, round_id, number, status, results_hidden, position, seated_id, *_name in seated:
        if seated_id != entry.id or status == Round.Status.DRAFT:
            continue
        rounds[round_id] = PlayerRound(
            number=number, table_id=table_id, table_number=table_number, position=position,
            mates=[names[e] for e in mates[table_id] if e != entry.id], hidden=results_hidden and not include_hidden)
    lines: list[SheetLine] = []
    for (score_id, round_id, table_id, kind, points, won, game_id, penalty_id, *game_values, penalty_number,
         offender_id) in sql.player_scores(entry.id, include_hidden=include_hidden):
        if round_id not in rounds:
            continue
        game = GameFacts(*game_values) if game_id else None
        penalty = PenaltyFacts(penalty_number, offender_id) if penalty_id else None
        at_number = game.number if game else penalty.game_number if penalty else None
        lines.append(SheetLine(round_id, table_id, kind, at_number, points, won, score_id, game, penalty))
    shown = {played.table_id: round_id for round_id, played in rounds.items() if not played.hidden}
    for table_id, number in sql.games_sat_out(entry.id, shown):
        lines.append(SheetLine(shown[table_id], table_id, SAT_OUT, number, points=0, won=False, score_id=0))

    def sheet_order(line: SheetLine):  # as on the sheet: games by number, a penalty after the game it fell in
        return (rounds[line.round_id].number, line.number if line.number is not None else 10_000,
                line.kind not in (Score.Kind.GAME, SAT_OUT), line.score_id)

    total = 0
    for sheet_line in sorted(lines, key=sheet_order):
        record = rounds[sheet_line.round_id]
        total += sheet_line.points
        record.total += sheet_line.points
        game = sheet_line.game
        line = PlayerLine(kind=sheet_line.kind, number=sheet_line.number, game=game, penalty=sheet_line.penalty,
                          points=sheet_line.points, running=total, won=sheet_line.won)
        if game:
            on_re = entry.id in game.re
            side = set(game.re) if on_re else set(mates.get(sheet_line.table_id, [])) - set(game.re) - {
                game.sitting_out_id}
            line.party = "Re" if on_re else "Kontra"
            line.partners = [names[e] for e in side if e != entry.id and e in names]
        record.lines.append(line)
    table_points = 0
    if tournament.ranking == Tournament.Ranking.TABLE_POINTS:
        table_points = _place_at_tables(entry.id, rounds, mates)
    unranked = PlayerRecord(entry=entry, rounds=list(rounds.values()), total=total, rank=None, ranks=[],
                            history=None, ranking=tournament.ranking, table_points=table_points)
    if not ranked:
        return unranked
    return unranked.with_ranks(history if history is not None else
                               standings_history(tournament, include_hidden=include_hidden))


def _place_at_tables(entry_id: int, rounds: dict[int, PlayerRound], mates: dict[int, list[int]]) -> int:
    """Sets each round's placement at the player's table (rounds with a result the reader may see)
    from everyone's points at those tables, as stored (`Tally`): one query. Returns the sum of the
    table points."""
    shown = {played.table_id: played for played in rounds.values() if played.lines and not played.hidden}
    points: dict[int, dict[int, int]] = {}
    for table_id, seated, total in (Tally.objects.filter(table_id__in=list(shown)).order_by()
                                    .values_list("table_id", "entry_id", "points")):
        points.setdefault(table_id, {})[seated] = total
    table_points = 0
    for table_id, played in shown.items():
        at_table = points.get(table_id, {})
        everyone = {seated: at_table.get(seated, 0) for seated in mates.get(table_id, [])}
        played.placement = scoring_ranking.table_points(everyone)[entry_id]
        table_points += played.placement.table_points
    return table_points
