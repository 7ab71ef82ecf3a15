"""The projector page (a beamer in the hall): the newest published round's seating by name and the
standings, public data only. Two queries besides the standings (shared through the cache)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from .. import privacy
from ..collation import name_key
from ..models import Round, Seat, Tournament
from .standings import StandingRow


@dataclass
class SeatLine:
    name: str
    club: str
    table: int
    position: int


@dataclass
class ProjectorView:
    round: Round | None
    seats: list[SeatLine] = field(default_factory=list)  # alphabetically
    standings: list[StandingRow] = field(default_factory=list)
    clock_end: datetime.datetime | None = None


def newest_published_round(tournament: Tournament) -> Round | None:
    """The round whose seating the room needs: the newest one that is published or closed."""
    return tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()


def projector_view(tournament: Tournament, standings: list[StandingRow] | None) -> ProjectorView:
    """`standings`: the public standings' rows (None when they are not public)."""
    round = newest_published_round(tournament) if tournament.public_seating else None
    view = ProjectorView(round=round, standings=standings or [])
    if round is None:
        return view
    round.tournament = tournament
    view.clock_end = round.clock_end(tournament.round_minutes) if round.status == Round.Status.PUBLISHED else None
    lines = [SeatLine(privacy.shown_name(name, level, number), privacy.shown_club(club or "", level), table, position)
             for name, club, level, number, table, position in
             Seat.objects.filter(round=round).values_list("entry__player__name", "entry__player__club",
                                                          "entry__player__publication", "entry__start_number",
                                                          "table__number", "position")]
    view.seats = sorted(lines, key=lambda line: name_key(line.name))
    return view
