"""A player's tournament: every round, every game with its breakdown, and the places.

Reads only, in a fixed number of queries whatever the size."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Sum

from scoring import ranking as scoring_ranking
from scoring.ranking import Placement

from .. import ranking
from ..models import Entry, Game, Penalty, Round, Score, Seat, Table, Tournament
from .standings import StandingsHistory, standings_history


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
    history: StandingsHistory | None  # None: kept without the ranks (views/public.py: own_record)
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
