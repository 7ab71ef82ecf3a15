"""A ranking list across tournaments (Rangliste): pure Python, no Django.

The rules (docs/competitions.md, "Rangliste"):
- The input is one record per player and round played (`RoundRecord`): who, on which date, in which
  tournament and round, with how many game points. The Django side recognises a player across
  tournaments (member number, else name and club) and gives the same `player` key.
- **The window** (`window`): the `months` months (24 by default) that end on `until`, both ends
  included. Its first day is the day after the same date `months` months earlier (the month's last day
  where that month is shorter): until 15 June 2025 the window is 16 June 2023 to 15 June 2025. A
  record counts when its date is in the window; rounds after `until` are not there yet.
- **The average** is the player's game points per round in the window, kept as an exact fraction;
  it is rounded only for showing (`rounded`, half up, two decimals by default).
- **Ranked** are players with at least `minimum_rounds` rounds in the window (36 by default), by
  their average, then by more rounds (the longer record, as the series do); still equal, they share
  the place and are listed by key. Players with fewer rounds are listed apart (`below_minimum`) with
  their count, most rounds first.
- **Cut lines** (`cut_lines`, (place, label) pairs such as (16, "Deutsche Meisterschaft")): places up
  to that place qualify for the label; a player qualifies for the label of the first line they are
  above. A place shared across a line qualifies everyone sharing it (the line moves down, and says so):
  the sources are silent, and leaving out one of two equal players would need a rule they don't give.
"""

from __future__ import annotations

import calendar
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from fractions import Fraction

from .places import placed
from .tie_break import TieBreak, tie_break

MONTHS = 24
MINIMUM_ROUNDS = 36


@dataclass(frozen=True, kw_only=True)
class RoundRecord:
    """One player's result of one round of one tournament."""

    player: str
    day: date
    tournament: str  # a key unique across the list's tournaments
    round: int
    points: int  # game points in the round (penalties included)


@dataclass(frozen=True, kw_only=True)
class Window:
    """The dates that count, both ends included."""

    start: date
    end: date
    months: int

    def __contains__(self, day: object) -> bool:
        return isinstance(day, date) and self.start <= day <= self.end


def months_before(day: date, months: int) -> date:
    """The same date `months` months earlier; the month's last day where that month has no such day."""
    month_index = day.year * 12 + day.month - 1 - months
    year, month = divmod(month_index, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def window(*, until: date, months: int = MONTHS) -> Window:
    """The `months` months ending on `until`, both ends included (docs/competitions.md)."""
    if months < 1:
        raise ValueError(f"a window of {months} months")
    return Window(start=months_before(until, months) + timedelta(days=1), end=until, months=months)


def rounded(value: Fraction, places: int = 2) -> Decimal:
    """An average for showing: `places` decimals, half up. Never compare or rank by this."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


class RanglisteTie(StrEnum):
    ROUNDS = "rounds"  # more rounds played in the window


@dataclass(frozen=True, kw_only=True)
class RanglisteRow:
    player: str
    place: int | None  # None: below the minimum of rounds, not ranked
    shared: int  # how many players hold this place (1: nobody else)
    rounds: int  # in the window
    points: int  # in the window
    average: Fraction  # points / rounds, exact
    tournaments: int  # tournaments with a round in the window
    qualifies: str | None  # the label of the first cut line the player is above
    tie: TieBreak[RanglisteTie] | None  # set when the player above has the same average

    @property
    def is_shared(self) -> bool:
        return self.shared > 1


@dataclass(frozen=True, kw_only=True)
class CutLine:
    place: int  # places up to this one qualify
    label: str
    rows_above: int  # ranked rows above the line: draw it after as many rows
    moved_by_tie: bool  # a place shared across the line: more than `place` rows are above it


@dataclass(frozen=True, kw_only=True)
class Rangliste:
    window: Window
    minimum_rounds: int
    rows: tuple[RanglisteRow, ...]  # ranked, by place
    below_minimum: tuple[RanglisteRow, ...]  # most rounds first, then the better average, then by key
    cut_lines: tuple[CutLine, ...]  # by place


def rangliste(*, records: Iterable[RoundRecord], until: date, months: int = MONTHS,
              minimum_rounds: int = MINIMUM_ROUNDS, cut_lines: Sequence[tuple[int, str]] = ()) -> Rangliste:
    """The ranking list on `until` from the players' round records (docs/competitions.md)."""
    if minimum_rounds < 0:
        raise ValueError(f"a minimum of {minimum_rounds} rounds")
    lines = sorted(cut_lines)
    places = [place for place, _ in lines]
    if any(place < 1 for place in places) or len(set(places)) != len(places):
        raise ValueError(f"cut lines {list(cut_lines)}: places from 1, each once")
    span = window(until=until, months=months)
    by_player: dict[str, list[RoundRecord]] = {}
    for record in _checked(records):
        if record.day in span:
            by_player.setdefault(record.player, []).append(record)
    rows = [_row(player, player_records) for player, player_records in by_player.items()]
    ranked = placed((row for row in rows if row.rounds >= minimum_rounds),
                    key=lambda row: (row.average, row.rounds), name=lambda row: row.player)
    result: list[RanglisteRow] = []
    for index, entry in enumerate(ranked):
        row, tie = entry.item, None
        above = ranked[index - 1].item if index else None
        if above is not None and above.average == row.average:
            tie = tie_break(above.player, [(RanglisteTie.ROUNDS, row.rounds, above.rounds)])
        qualifies = next((label for place, label in lines if entry.place <= place), None)
        result.append(RanglisteRow(player=row.player, place=entry.place, shared=entry.shared, rounds=row.rounds,
                                   points=row.points, average=row.average, tournaments=row.tournaments,
                                   qualifies=qualifies, tie=tie))
    below_rows = sorted((row for row in rows if row.rounds < minimum_rounds), key=lambda row: row.player)
    below_rows.sort(key=lambda row: (row.rounds, row.average), reverse=True)
    below = [RanglisteRow(player=row.player, place=None, shared=1, rounds=row.rounds, points=row.points,
                          average=row.average, tournaments=row.tournaments, qualifies=None, tie=None)
             for row in below_rows]
    cuts = []
    for place, label in lines:
        above_line = sum(1 for row in result if row.place is not None and row.place <= place)
        cuts.append(CutLine(place=place, label=label, rows_above=above_line, moved_by_tie=above_line > place))
    return Rangliste(window=span, minimum_rounds=minimum_rounds, rows=tuple(result), below_minimum=tuple(below),
                     cut_lines=tuple(cuts))


@dataclass(frozen=True, kw_only=True)
class TournamentLine:
    """One tournament in a player's history."""

    tournament: str
    day: date  # the player's first round in it
    rounds: int
    points: int
    average: Fraction
    counted_rounds: int  # of them in the window (a tournament can straddle its first day)
    counted_points: int


@dataclass(frozen=True, kw_only=True)
class History:
    player: str
    window: Window
    tournaments: tuple[TournamentLine, ...]  # every tournament up to `until`, by date, then key
    rounds: int  # in the window: the Rangliste's numbers
    points: int
    average: Fraction | None  # None: no round in the window


def history(*, records: Iterable[RoundRecord], player: str, until: date, months: int = MONTHS) -> History:
    """A player's tournaments up to `until`: rounds, points, average, and what of it the window counts."""
    span = window(until=until, months=months)
    by_tournament: dict[str, list[RoundRecord]] = {}
    for record in _checked(records):
        if record.player == player and record.day <= until:
            by_tournament.setdefault(record.tournament, []).append(record)
    lines = []
    for tournament, rounds in by_tournament.items():
        counted = [r for r in rounds if r.day in span]
        points = sum(r.points for r in rounds)
        lines.append(TournamentLine(tournament=tournament, day=min(r.day for r in rounds), rounds=len(rounds),
                                    points=points, average=Fraction(points, len(rounds)),
                                    counted_rounds=len(counted), counted_points=sum(r.points for r in counted)))
    lines.sort(key=lambda line: (line.day, line.tournament))
    rounds_counted = sum(line.counted_rounds for line in lines)
    points_counted = sum(line.counted_points for line in lines)
    return History(player=player, window=span, tournaments=tuple(lines), rounds=rounds_counted, points=points_counted,
                   average=Fraction(points_counted, rounds_counted) if rounds_counted else None)


@dataclass(frozen=True, kw_only=True)
class _Sum:
    player: str
    rounds: int
    points: int
    average: Fraction
    tournaments: int


def _row(player: str, records: Sequence[RoundRecord]) -> _Sum:
    points = sum(r.points for r in records)
    return _Sum(player=player, rounds=len(records), points=points, average=Fraction(points, len(records)),
                tournaments=len({r.tournament for r in records}))


def _checked(records: Iterable[RoundRecord]) -> list[RoundRecord]:
    """The records, refusing one round of one player twice (the export would be wrong)."""
    seen: set[tuple[str, str, int]] = set()
    result = []
    for record in records:
        key = (record.player, record.tournament, record.round)
        if key in seen:
            raise ValueError(f"round {record.round} of {record.tournament!r} twice for player {record.player!r}")
        seen.add(key)
        result.append(record)
    return result
