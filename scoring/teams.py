"""Team and club standings from the members' results: pure Python, no Django.

The rules (docs/competitions.md, "Teams and clubs"):
- A **team** has 2–6 members (`MIN_MEMBERS`, `MAX_MEMBERS`); either all of them count or the best k
  (`count`). A team's value is the sum of its counted members' totals in the tournament's measure:
  game points (`Measure.POINTS`) or table points (`Measure.TABLE_POINTS`).
- A member who has **not played a round** never counts: a team with fewer players than k counts
  those who played (a missing player adds nothing), and a member who has not played is never chosen
  over one who played badly.
- Of members with equal totals at the edge of the best k, the one with more game points counts (in
  table points; it is what the team's tie-break looks at next), then the first by name; the team's
  value is the same whichever of them counts.
- **Ties** between teams, in this order (`tie_criteria`): with table points, the counted members' game
  points (as the individual standings do); with the best k, the sum of all members who played; then
  the best single member. Still equal: the teams share the place, listed by key.
- A **club** ranks as a team of its players in the tournament (`club_standings`): all of them or its
  best k. With the best k, a club with fewer than k players who played is listed apart, unranked (its
  sum is not comparable); players without a club are listed apart too.

Every number carries what explains it: each member's total and why it counts or not (`Why`), and for
a team level with the one above in value, which criterion put it behind or that they share
(`tie_break.TieBreak`).
The Django side words the codes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from .places import placed
from .tie_break import TieBreak, tie_break

MIN_MEMBERS = 2
MAX_MEMBERS = 6


class Measure(StrEnum):
    """What a team sums, as the tournament ranks its players (the values of `Tournament.ranking`)."""

    POINTS = "points"  # game points (Spielpunkte)
    TABLE_POINTS = "table_points"  # Tischpunkte by placement at the table (scoring/ranking.py)


class Why(StrEnum):
    """Why a member counts for the team, or not."""

    ALL = "all"  # all members count
    BEST = "best"  # among the best k
    NOT_BEST = "not_best"  # less than the k who count
    EQUAL_NOT_BEST = "equal_not_best"  # as much as the last who counts; the order among equals left it out
    NOT_PLAYED = "not_played"  # no round played: never counts


class Tie(StrEnum):
    """What separates two teams of equal value, in the order they are tried (`tie_criteria`)."""

    POINTS = "points"  # the counted members' game points (only when ranking by table points)
    ALL_MEMBERS = "all_members"  # the sum of all members who played (only with the best k)
    BEST_MEMBER = "best_member"  # the best single member's total


@dataclass(frozen=True, kw_only=True)
class MemberTotal:
    """A player's totals in the tournament: the input of every team ranking."""

    player: str  # a key unique in the tournament (the Django side: the entry's id as text)
    points: int  # game points
    rounds: int  # rounds played; 0: has not played (never counts)
    table_points: int = 0

    def value(self, measure: Measure) -> int:
        return self.table_points if measure == Measure.TABLE_POINTS else self.points


@dataclass(frozen=True, kw_only=True)
class MemberCount:
    """One member in a team's row: the total, and whether and why it counts."""

    player: str
    value: int  # the total in the measure
    points: int
    table_points: int
    rounds: int
    counts: bool
    why: Why


@dataclass(frozen=True, kw_only=True)
class TeamStanding:
    team: str
    place: int | None  # None: listed apart (a club with fewer than k players who played)
    shared: int  # how many teams hold this place (1: nobody else)
    value: int  # the sum of the counted members in the measure: what ranks
    points: int  # the counted members' game points
    all_members: int  # the sum of all members who played, in the measure
    best_member: int | None  # the best single member's total in the measure; None: nobody played
    counted: int  # how many members count
    members: tuple[MemberCount, ...]  # best first: the counted ones, then the others, then who did not play
    tie: TieBreak[Tie] | None  # set when the team above has the same value

    @property
    def is_shared(self) -> bool:
        return self.shared > 1

    def criterion_value(self, criterion: Tie) -> int:
        if criterion == Tie.POINTS:
            return self.points
        if criterion == Tie.ALL_MEMBERS:
            return self.all_members
        return self.best_member if self.best_member is not None else 0


@dataclass(frozen=True, kw_only=True)
class TeamStandings:
    measure: Measure
    count: int | None  # k of the best k; None: all members count
    criteria: tuple[Tie, ...]  # the tie-breaks tried, in order
    rows: tuple[TeamStanding, ...]
    apart: tuple[TeamStanding, ...] = ()  # clubs with fewer than k players who played: not ranked
    without_club: tuple[str, ...] = ()  # players left out of a club ranking (no club), by key


def tie_criteria(*, measure: Measure, count: int | None) -> tuple[Tie, ...]:
    """The tie-breaks that can separate two teams, in order (the others could never differ)."""
    criteria = []
    if measure == Measure.TABLE_POINTS:
        criteria.append(Tie.POINTS)
    if count is not None:
        criteria.append(Tie.ALL_MEMBERS)
    criteria.append(Tie.BEST_MEMBER)
    return tuple(criteria)


def team_standings(*, teams: Mapping[str, Sequence[str]], totals: Iterable[MemberTotal],
                   count: int | None = None, measure: Measure = Measure.POINTS) -> TeamStandings:
    """The teams (`teams`: key -> its members' keys, 2–6 of them) ranked by their members' `totals`;
    `count`: the best k count (None: all). A member without a total has not played; totals of players
    in no team are ignored. A player in two teams, a team of the wrong size or a k outside 1–6 is a
    ValueError (the forms say it in words)."""
    if count is not None and not 1 <= count <= MAX_MEMBERS:
        raise ValueError(f"the best {count} cannot count: 1 to {MAX_MEMBERS}")
    team_of: dict[str, str] = {}
    for team, members in teams.items():
        if not MIN_MEMBERS <= len(members) <= MAX_MEMBERS:
            raise ValueError(f"team {team!r} has {len(members)} members: {MIN_MEMBERS} to {MAX_MEMBERS}")
        for player in members:
            if player in team_of:
                raise ValueError(f"player {player!r} is in teams {team_of[player]!r} and {team!r}")
            team_of[player] = team
    by_player = _by_player(totals)
    members_of = {team: [by_player.get(p) or MemberTotal(player=p, points=0, rounds=0) for p in members]
                  for team, members in teams.items()}
    rows = _ranked([_row(team, members, count=count, measure=measure) for team, members in members_of.items()],
                   measure=measure, count=count)
    return TeamStandings(measure=measure, count=count, criteria=tie_criteria(measure=measure, count=count),
                         rows=rows)


def club_standings(*, clubs: Mapping[str, str | None], totals: Iterable[MemberTotal], count: int | None = None,
                   measure: Measure = Measure.POINTS) -> TeamStandings:
    """Clubs ranked as teams of their players (`clubs`: player -> club, None or "" for none) by the
    players' `totals`: all of them or the best `count`. With the best k, a club with fewer than k
    players who played is listed apart (`apart`); players without a club are named in `without_club`.
    A player in `clubs` without a total has not played."""
    if count is not None and count < 1:
        raise ValueError(f"the best {count} cannot count")
    by_player = _by_player(totals)
    members_of: dict[str, list[MemberTotal]] = {}
    without_club = []
    for player, club in clubs.items():
        total = by_player.get(player) or MemberTotal(player=player, points=0, rounds=0)
        if club:
            members_of.setdefault(club, []).append(total)
        else:
            without_club.append(player)
    rows = [_row(club, members, count=count, measure=measure) for club, members in members_of.items()]
    ranked = [row for row in rows if count is None or row.counted >= count]
    apart = sorted((row for row in rows if count is not None and row.counted < count),
                   key=lambda row: (-row.counted, -row.value, row.team))
    return TeamStandings(measure=measure, count=count, criteria=tie_criteria(measure=measure, count=count),
                         rows=_ranked(ranked, measure=measure, count=count), apart=tuple(apart),
                         without_club=tuple(sorted(without_club)))


def _by_player(totals: Iterable[MemberTotal]) -> dict[str, MemberTotal]:
    by_player: dict[str, MemberTotal] = {}
    for total in totals:
        if total.player in by_player:
            raise ValueError(f"two totals for player {total.player!r}")
        by_player[total.player] = total
    return by_player


def _row(team: str, members: Sequence[MemberTotal], *, count: int | None, measure: Measure) -> TeamStanding:
    """A team's row before it is placed: who counts and why, and the sums."""
    other = Measure.POINTS if measure == Measure.TABLE_POINTS else Measure.TABLE_POINTS
    played = sorted((m for m in members if m.rounds > 0), key=lambda m: m.player)
    played.sort(key=lambda m: (m.value(measure), m.value(other) if measure == Measure.TABLE_POINTS else 0),
                reverse=True)
    counted = played if count is None else played[:count]
    last = counted[-1].value(measure) if counted else None
    rows = []
    for index, member in enumerate(played):
        if count is None:
            why = Why.ALL
        elif index < count:
            why = Why.BEST
        elif member.value(measure) == last:
            why = Why.EQUAL_NOT_BEST
        else:
            why = Why.NOT_BEST
        rows.append(_member(member, measure=measure, counts=index < len(counted), why=why))
    rows += [_member(m, measure=measure, counts=False, why=Why.NOT_PLAYED)
             for m in sorted(members, key=lambda m: m.player) if m.rounds <= 0]
    return TeamStanding(
        team=team, place=None, shared=1, tie=None, members=tuple(rows), counted=len(counted),
        value=sum(m.value(measure) for m in counted), points=sum(m.points for m in counted),
        all_members=sum(m.value(measure) for m in played),
        best_member=played[0].value(measure) if played else None)


def _member(total: MemberTotal, *, measure: Measure, counts: bool, why: Why) -> MemberCount:
    return MemberCount(player=total.player, value=total.value(measure), points=total.points,
                       table_points=total.table_points, rounds=total.rounds, counts=counts, why=why)


def _ranked(rows: Iterable[TeamStanding], *, measure: Measure, count: int | None) -> tuple[TeamStanding, ...]:
    """The rows placed by value, then the tie-breaks; each row level in value with the one above says
    what separated them, or that nothing did."""
    criteria = tie_criteria(measure=measure, count=count)
    ordered = placed(rows, key=lambda row: (row.value, *(row.criterion_value(c) for c in criteria)),
                     name=lambda row: row.team)
    result: list[TeamStanding] = []
    for index, entry in enumerate(ordered):
        row, tie = entry.item, None
        if index and ordered[index - 1].item.value == row.value:
            above = ordered[index - 1].item
            tie = tie_break(above.team, [(c, row.criterion_value(c), above.criterion_value(c)) for c in criteria],
                            level=(row.value, above.value))
        result.append(replace(row, place=entry.place, shared=entry.shared, tie=tie))
    return tuple(result)
