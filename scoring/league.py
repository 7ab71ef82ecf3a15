"""League match days, the league table over them, and a team cup group: pure Python, no Django.

The rules (docs/competitions.md, "League and team cup"):
- **A match day** (`match_day`): four teams meet; a team's **Spielpunkte** of the day are the sum of
  its players' game points. The day's placings by Spielpunkte give **Siegpunkte** 4/3/2/1
  (`SIEGPUNKTE`). Teams with equal Spielpunkte share their places and each gets the average of the
  places' Siegpunkte: two teams tied for first get (4 + 3) / 2 = 3½ each, three tied for second
  (3 + 2 + 1) / 3 = 2 each. So a day always gives out 10 Siegpunkte, and nothing but the Spielpunkte
  decides (the DDV sources name no tie-break for a day). A day of n teams other than four gives
  n, n − 1, …, 1 unless the association says otherwise (`scale`).
- **The league table** (`league_table`): the sum of Siegpunkte, then of Spielpunkte, then the number
  of days won (a shared first place counts as won); still equal, the teams share the place. The last
  criterion is ours: the sources stop at Spielpunkte.
- **A team cup group** (`cup_group`, as the DMM): teams (usually four) ranked by the sum of their
  players' points, then by their best single player; the best k advance. Teams still equal across
  the line are not decided here: they are named in `undecided`, and the director decides (a lot, a
  play-off), as the sources do not say. A member who has not played a round (points None) never
  counts, as in `scoring.teams`: not as 0 for the best player, or a member at home would put a team
  whose players all lost ahead of one whose best player lost less.

Siegpunkte are exact fractions (3½ is `Fraction(7, 2)`); rounding or "3,5" is for showing only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from .places import placed
from .tie_break import TieBreak, tie_break

SIEGPUNKTE = (4, 3, 2, 1)  # a match day of four teams, place 1 to 4


@dataclass(frozen=True, kw_only=True)
class DayTeam:
    """One team's result of a match day."""

    team: str
    place: int
    shared: int  # how many teams share the place (1: nobody else)
    spielpunkte: int  # the sum of its players' game points that day
    players: tuple[tuple[str, int], ...]  # (player, game points), most points first
    siegpunkte: Fraction  # the average of the values of the places shared (4 alone on place 1)

    @property
    def is_shared(self) -> bool:
        return self.shared > 1

    @property
    def places(self) -> range:
        """The places the tied teams share, e.g. range(1, 3) for places 1 and 2."""
        return range(self.place, self.place + self.shared)


@dataclass(frozen=True, kw_only=True)
class MatchDay:
    day: str  # its key ("3. Spieltag", an id): unique in a league
    scale: tuple[int, ...]  # the Siegpunkte of places 1, 2, …
    teams: tuple[DayTeam, ...]  # by place


def default_scale(teams: int) -> tuple[int, ...]:
    """4/3/2/1 for four teams; n, n − 1, …, 1 for another number (our choice, docs/competitions.md)."""
    return tuple(range(teams, 0, -1))


def match_day(*, day: str, teams: Mapping[str, Mapping[str, int]], scale: Sequence[int] | None = None) -> MatchDay:
    """A match day's placings and Siegpunkte from the players' game points (`teams`: team -> player ->
    game points that day). `scale`: the Siegpunkte of the places, one per team."""
    if len(teams) < 2:
        raise ValueError(f"a match day needs at least two teams, not {len(teams)}")
    _check_players(teams)
    values = tuple(scale) if scale is not None else default_scale(len(teams))
    if len(values) != len(teams):
        raise ValueError(f"{len(values)} Siegpunkte values for {len(teams)} teams")
    if list(values) != sorted(values, reverse=True):
        raise ValueError(f"Siegpunkte {values} go up with the place")
    totals = {team: sum(points.values()) for team, points in teams.items()}
    result = []
    for entry in placed(teams, key=lambda team: (totals[team],), name=str):
        share = values[entry.place - 1: entry.place - 1 + entry.shared]
        result.append(DayTeam(team=entry.item, place=entry.place, shared=entry.shared, spielpunkte=totals[entry.item],
                              players=_players(teams[entry.item]), siegpunkte=Fraction(sum(share), len(share))))
    return MatchDay(day=day, scale=values, teams=tuple(result))


class LeagueTie(StrEnum):
    """What separates two teams with equal Siegpunkte, in this order."""

    SPIELPUNKTE = "spielpunkte"
    WINS = "wins"  # match days won (a shared first place counts)


@dataclass(frozen=True, kw_only=True)
class DayResult:
    """A team's line of one match day in the league table."""

    day: str
    place: int
    shared: int
    siegpunkte: Fraction
    spielpunkte: int


@dataclass(frozen=True, kw_only=True)
class LeagueRow:
    team: str
    place: int
    shared: int
    siegpunkte: Fraction
    spielpunkte: int
    wins: int
    days: tuple[DayResult, ...]  # in the order of the league's days; a day without the team is absent
    tie: TieBreak[LeagueTie] | None  # set when the team above has the same Siegpunkte

    @property
    def is_shared(self) -> bool:
        return self.shared > 1

    def criterion_value(self, criterion: LeagueTie) -> int:
        return self.spielpunkte if criterion == LeagueTie.SPIELPUNKTE else self.wins


def league_table(*, days: Sequence[MatchDay]) -> tuple[LeagueRow, ...]:
    """The league table over its match days (in the season's order): Siegpunkte, Spielpunkte, days won."""
    seen: set[str] = set()
    results: dict[str, list[DayResult]] = {}
    for day in days:
        if day.day in seen:
            raise ValueError(f"match day {day.day!r} is there twice")
        seen.add(day.day)
        for team in day.teams:
            results.setdefault(team.team, []).append(DayResult(
                day=day.day, place=team.place, shared=team.shared, siegpunkte=team.siegpunkte,
                spielpunkte=team.spielpunkte))
    rows = [LeagueRow(team=team, place=0, shared=1, tie=None, days=tuple(lines),
                      siegpunkte=sum((line.siegpunkte for line in lines), Fraction(0)),
                      spielpunkte=sum(line.spielpunkte for line in lines),
                      wins=sum(1 for line in lines if line.place == 1))
            for team, lines in results.items()]
    criteria = tuple(LeagueTie)
    ordered = placed(rows, key=lambda row: (row.siegpunkte, *(row.criterion_value(c) for c in criteria)),
                     name=lambda row: row.team)
    table = []
    for index, entry in enumerate(ordered):
        row, tie = entry.item, None
        above = ordered[index - 1].item if index else None
        if above is not None and above.siegpunkte == row.siegpunkte:
            tie = tie_break(above.team, [(c, row.criterion_value(c), above.criterion_value(c)) for c in criteria])
        table.append(LeagueRow(team=row.team, place=entry.place, shared=entry.shared, siegpunkte=row.siegpunkte,
                               spielpunkte=row.spielpunkte, wins=row.wins, days=row.days, tie=tie))
    return tuple(table)


class CupTie(StrEnum):
    BEST_PLAYER = "best_player"  # the best single player's game points


@dataclass(frozen=True, kw_only=True)
class CupTeam:
    team: str
    place: int
    shared: int
    points: int  # the sum of its players' game points
    players: tuple[tuple[str, int], ...]  # (player, game points) of those who played, most points first
    best_player: int | None  # None: nobody of the team played
    not_played: tuple[str, ...]  # members who have not played a round (never count), by key
    tie: TieBreak[CupTie] | None  # set when the team above has the same points
    advances: bool | None  # None: tied across the line, undecided

    @property
    def is_shared(self) -> bool:
        return self.shared > 1


@dataclass(frozen=True, kw_only=True)
class CupGroup:
    group: str
    advance: int  # how many teams go on
    teams: tuple[CupTeam, ...]  # by place
    undecided: tuple[str, ...]  # teams sharing a place across the line: the director decides


def cup_group(*, group: str, teams: Mapping[str, Mapping[str, int | None]], advance: int) -> CupGroup:
    """A cup group's order by the sum of each team's players' game points (`teams`: team -> player ->
    points; None: has not played a round, never counts), then its best player; the best `advance` go on."""
    if not 1 <= advance <= len(teams):
        raise ValueError(f"{advance} of {len(teams)} teams cannot advance")
    _check_players(teams)
    played = {team: {player: value for player, value in players.items() if value is not None}
              for team, players in teams.items()}
    points = {team: sum(players.values()) for team, players in played.items()}
    best = {team: max(players.values()) if players else None for team, players in played.items()}

    def key(team: str) -> tuple[int, int]:
        best_player = best[team]
        return points[team], best_player if best_player is not None else 0

    ordered = placed(teams, key=key, name=str)
    result = []
    for index, entry in enumerate(ordered):
        team = entry.item
        tie = None
        above = ordered[index - 1].item if index else None
        if above is not None and points[above] == points[team]:
            tie = tie_break(above, [(CupTie.BEST_PLAYER, key(team)[1], key(above)[1])])
        last_place = entry.place + entry.shared - 1
        advances = True if last_place <= advance else False if entry.place > advance else None
        result.append(CupTeam(team=team, place=entry.place, shared=entry.shared, points=points[team],
                              players=_players(played[team]), best_player=best[team],
                              not_played=tuple(sorted(p for p, value in teams[team].items() if value is None)),
                              tie=tie, advances=advances))
    return CupGroup(group=group, advance=advance, teams=tuple(result),
                    undecided=tuple(t.team for t in result if t.advances is None))


def _players(points: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(points.items(), key=lambda item: (-item[1], item[0])))


def _check_players(teams: Mapping[str, Mapping[str, int | None]]) -> None:
    team_of: dict[str, str] = {}
    for team, players in teams.items():
        for player in players:
            if player in team_of:
                raise ValueError(f"player {player!r} is in teams {team_of[player]!r} and {team!r}")
            team_of[player] = team
