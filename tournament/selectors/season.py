"""A season across clubs (docs/competitions.md, "A season across clubs"): the cup over its rounds, run
by different clubs and published to the hub, and what its league table's or cup's cached part depends on
(`season_version`). The league table itself is `league.league_standings`."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from django.db.models import OuterRef, Q, Subquery
from django.utils.translation import gettext as _

from ..models import DataChange, Series, Tournament
from .league import CupTable, LeagueDay, SeasonDays, cup_table, league_day, season_days


@dataclass(frozen=True)
class CupRound:
    day: LeagueDay
    table: CupTable


@dataclass(frozen=True)
class CupTeam:
    """A team of the cup (by name and club, as a league recognises it) and where it stands: its latest
    group's verdict."""

    name: str
    club: str
    rounds: int  # groups it played
    last: str  # the name of its latest round
    verdict: str  # "weiter", "ausgeschieden", "unentschieden: …"
    advances: bool | None


@dataclass(frozen=True)
class Cup:
    days: tuple[LeagueDay, ...]  # every tournament of the season, by date
    rounds: tuple[CupRound, ...]  # those that count, each its group
    teams: tuple[CupTeam, ...]  # still in first (weiter, then undecided), then those out; by name
    rule: str


def cup_rule() -> str:
    return _("Pokal: jede Pokalrunde ist eine Gruppe; es zählt die Summe der Spielpunkte aller Spieler eines Teams, "
             "bei Gleichstand das beste Einzelergebnis. Wie viele weiterkommen, sagt die Pokalrunde. Ein Team ist "
             "in jeder Runde dasselbe, wenn es gleich heißt und für denselben Verein spielt; es steht so, wie seine "
             "letzte Runde es sagt.")


def cup_standings(series: Series, *, user=None) -> Cup:
    """The cup of a series in mode Pokal: each of its cup rounds (`Tournament.cup_advance`; its own or
    joined by its short name from a club of the season) a group, and each team's latest verdict. The
    three queries of `season_days`."""
    read: SeasonDays = season_days(series, user=user)
    days, rounds = [], []
    latest: dict[str, tuple[int, str, bool | None, str]] = {}  # team -> (rounds, last day, advances, verdict)
    for t in read.found:
        day = league_day(series, t, read, cup=True)
        days.append(day)
        if not day.counts:
            continue
        group = read.members[t.pk]
        table = cup_table(t.name, {team: {str(e): read.points.get(e) for e in ids} for team, ids in group.items()},
                          t.cup_advance, {str(e): "" for ids in group.values() for e in ids})
        if table is None:
            continue
        names = {key: name for key, (name, _club) in read.team_names.items()}
        rows = tuple(replace(row, name=names.get(row.name, row.name), players=()) for row in table.rows)
        rounds.append(CupRound(day=day, table=CupTable(advance=table.advance, asked=table.asked, rows=rows,
                                                       undecided=tuple(names.get(u, u) for u in table.undecided),
                                                       rule=table.rule)))
        for row, original in zip(rows, table.rows, strict=True):
            played = latest.get(original.name, (0, "", None, ""))[0]
            latest[original.name] = (played + 1, t.name, row.advances, row.verdict)
    order = {True: 0, None: 1, False: 2}
    teams = sorted((CupTeam(name=read.team_names[key][0], club=read.team_names[key][1], rounds=played, last=last,
                            verdict=verdict, advances=advances)
                    for key, (played, last, advances, verdict) in latest.items()),
                   key=lambda team: (order[team.advances], team.name.casefold(), team.club.casefold()))
    return Cup(days=tuple(days), rounds=tuple(rounds), teams=tuple(teams), rule=cup_rule())


def season_version(series: Series) -> str:
    """What a season's league table or cup depends on, as a digest: the series' settings (its version,
    mode and clubs) and, for every tournament that belongs to it or names it, its id, organisation and
    change counter (its newest `DataChange`). A day that arrives, is corrected, changes its settings or
    leaves gives a new value. One query."""
    newest = DataChange.objects.filter(tournament_id=OuterRef("pk")).order_by("-id").values("id")[:1]
    days = list(Tournament.objects.filter(Q(series=series) | Q(season=series.slug)).order_by("pk")
                .annotate(counter=Subquery(newest)).values_list("pk", "organisation_id", "counter"))
    text = repr((series.pk, series.version, series.mode, series.slug, list(series.clubs), days))
    return hashlib.sha256(text.encode()).hexdigest()[:24]
