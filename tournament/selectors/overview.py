"""A tournament at a glance: its overview page.

Reads only, in a fixed number of queries whatever the size."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q

from ..models import Game, Round, Table, Tournament


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


def is_finished(tournament: Tournament) -> bool:
    """`Overview.finished` ("Turnier beendet": the planned rounds played and closed, no game missing),
    without reading the tables while a round is open or to come: one query on the evening, the
    overview's four once every planned round is closed."""
    statuses = list(tournament.rounds.values_list("status", flat=True))
    if len(statuses) < max(tournament.rounds_planned, 1) or any(s != Round.Status.CLOSED for s in statuses):
        return False
    return tournament_overview(tournament).finished
