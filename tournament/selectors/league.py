"""A match day's Siegpunkte, a team cup group and a league over a series' match days
(docs/competitions.md, "In the app: match days, league, cup"): the pure rules of `scoring.league`
fed from the standings' rows and the teams, each number worded for the pages and exports.

`match_day_table` and `cup_table` read nothing (the team standings hand them the teams and rows);
`league_standings` reads a series' league in three queries whatever the size."""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.db.models import F, Q, Sum
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import league as rules
from scoring.tie_break import TieBreak

from ..models import Score, Series, TeamMember
from ..names import folded, identity
from ..ranking import total_text
from .series import series_tournaments


def siegpunkte_text(value: Fraction) -> str:
    """3½ as "3½", 3 as "3"; any other fraction with two decimals ("3,33"; not with the scales used)."""
    whole, rest = divmod(value, 1)
    if rest == 0:
        return str(whole)
    if rest == Fraction(1, 2):
        return f"{whole}½" if whole else "½"
    return f"{Decimal(value.numerator) / Decimal(value.denominator):.2f}".replace(".", ",")


def siegpunkte_number(value: Fraction) -> str:
    """For a spreadsheet: "3,5" (a decimal comma, as the CSV's other numbers in German)."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{Decimal(value.numerator) / Decimal(value.denominator):.2f}".rstrip("0").replace(".", ",")


def shared_text(place: int, shared: int, scale: Sequence[int], value: Fraction) -> str:
    """How a shared place's Siegpunkte come about: "Plätze 1–2 geteilt: (4 + 3) / 2 = 3½"."""
    values = scale[place - 1:place - 1 + shared]
    return _("Plätze %(first)s–%(last)s geteilt: (%(sum)s) / %(n)s = %(value)s") % {
        "first": place, "last": place + shared - 1, "sum": " + ".join(map(str, values)), "n": shared,
        "value": siegpunkte_text(value)}


@dataclass(frozen=True)
class DayLine:
    name: str
    place: int
    shared: bool
    spielpunkte: int
    siegpunkte: Fraction
    players: tuple[tuple[str, int], ...]  # (name, game points), most points first
    why: str  # a shared place: how its Siegpunkte come about; "" otherwise

    @property
    def siegpunkte_text(self) -> str:
        return siegpunkte_text(self.siegpunkte)


@dataclass(frozen=True)
class DayTable:
    """The match day of a team match tournament: Spielpunkte and Siegpunkte by place."""

    scale: tuple[int, ...]
    rows: tuple[DayLine, ...]
    rule: str


def match_day_table(day: str, teams: Mapping[str, Mapping[str, int]], names: Mapping[str, str]) -> DayTable | None:
    """The day's placings (`teams`: team -> player key -> game points; `names`: player key -> name),
    or None with fewer than two teams."""
    if len(teams) < 2:
        return None
    result = rules.match_day(day=day, teams=teams)
    scale = "/".join(map(str, result.scale))
    rule = _("Spielpunkte: die Summe der Spielpunkte aller Spieler eines Teams. Nach ihnen gibt es %(scale)s "
             "Siegpunkte; Teams mit gleichen Spielpunkten teilen sich die Plätze und bekommen den Durchschnitt "
             "ihrer Siegpunkte (zwei Erste je %(half)s).") % {
        "scale": scale, "half": siegpunkte_text(Fraction(result.scale[0] + result.scale[1], 2))}
    rows = tuple(DayLine(name=t.team, place=t.place, shared=t.is_shared, spielpunkte=t.spielpunkte,
                         siegpunkte=t.siegpunkte, players=tuple((names[p], points) for p, points in t.players),
                         why=shared_text(t.place, t.shared, result.scale, t.siegpunkte) if t.is_shared else "")
                 for t in result.teams)
    return DayTable(scale=result.scale, rows=rows, rule=rule)


@dataclass(frozen=True)
class CupLine:
    name: str
    place: int
    shared: bool
    points: int
    best_player: int | None
    advances: bool | None  # None: tied across the line, the director decides
    tie: str
    players: tuple[tuple[str, int], ...]  # (name, game points), most points first

    @property
    def verdict(self) -> str:
        if self.advances is None:
            return _("unentschieden: die Turnierleitung entscheidet")
        return _("weiter") if self.advances else _("ausgeschieden")


@dataclass(frozen=True)
class CupTable:
    advance: int
    asked: int  # the tournament's `cup_advance` (more than the group's teams: all go on)
    rows: tuple[CupLine, ...]
    undecided: tuple[str, ...]
    rule: str


def cup_table(group: str, teams: Mapping[str, Mapping[str, int | None]], advance: int,
              names: Mapping[str, str]) -> CupTable | None:
    """The cup group of the tournament's teams (as `match_day_table`; points None: a member who has not
    played a round, who never counts); None without a team."""
    if not teams:
        return None
    result = rules.cup_group(group=group, teams=teams, advance=min(advance, len(teams)))
    rows = []
    for t in result.teams:
        tie = ""
        if t.tie is not None:
            tie = (_("gleich viele Punkte wie %(above)s und gleich gutes bestes Einzelergebnis: geteilter Platz")
                   % {"above": t.tie.above} if t.tie.criterion is None else
                   _("gleich viele Punkte wie %(above)s; bestes Einzelergebnis: %(ours)s gegen %(theirs)s")
                   % {"above": t.tie.above, "ours": total_text(t.tie.ours), "theirs": total_text(t.tie.theirs)})
        rows.append(CupLine(name=t.team, place=t.place, shared=t.is_shared, points=t.points,
                            best_player=t.best_player, advances=t.advances, tie=tie,
                            players=tuple((names[p], points) for p, points in t.players)))
    rule = ngettext("Pokalgruppe: es zählt die Summe der Spielpunkte aller Spieler eines Teams, bei Gleichstand das "
                    "beste Einzelergebnis; das beste Team kommt weiter.",
                    "Pokalgruppe: es zählt die Summe der Spielpunkte aller Spieler eines Teams, bei Gleichstand das "
                    "beste Einzelergebnis; die besten %(k)s Teams kommen weiter.", result.advance) % {
        "k": result.advance}
    if result.undecided:
        rule += " " + _("Ein geteilter Platz über die Linie hinweg wird hier nicht entschieden (%(teams)s): die "
                        "Turnierleitung entscheidet, etwa durch Los oder ein Stechen.") % {
            "teams": ", ".join(result.undecided)}
    return CupTable(advance=result.advance, asked=advance, rows=tuple(rows), undecided=result.undecided, rule=rule)


# ---- a league: a series in mode "Liga" ------------------------------------------------------------------

def team_key(name: str, club: str = "") -> str:
    """A team is the same across match days when its name and its club are (case and spaces aside:
    `names.identity`; a tournament refuses a second team whose name folds to the same key): two clubs'
    "Kreuz-Asse" are two teams in a season across clubs."""
    return identity(name, club)


def team_club(clubs: Sequence[str]) -> str:
    """A team's club on a day: the club most of its members play for (of equal counts the first by
    folded name; "" when none has one)."""
    counted = Counter(club for club in clubs if club.strip())
    if not counted:
        return ""
    return min(counted, key=lambda club: (-counted[club], folded(club), club))


@dataclass(frozen=True)
class LeagueDay:
    tournament_id: int
    name: str
    slug: str
    date: datetime.date
    shown: bool  # its standings are visible to this viewer (a link)
    counts: bool  # a team match with at least two teams and a visible result
    note: str  # why it does not count; "" when it does
    club: str = ""  # the organisation that ran it (a season across clubs)


@dataclass(frozen=True)
class LeagueCell:
    place: int
    shared: bool
    siegpunkte: Fraction
    spielpunkte: int

    @property
    def siegpunkte_text(self) -> str:
        return siegpunkte_text(self.siegpunkte)


@dataclass(frozen=True)
class LeagueLine:
    name: str
    place: int
    shared: bool
    siegpunkte: Fraction
    spielpunkte: int
    wins: int
    cells: tuple[LeagueCell | None, ...]  # one per day that counts, None: the team was not there
    tie: str
    club: str = ""  # the team's club (`team_club`, on its latest day)

    @property
    def siegpunkte_text(self) -> str:
        return siegpunkte_text(self.siegpunkte)


@dataclass(frozen=True)
class League:
    days: tuple[LeagueDay, ...]  # every tournament of the series, by date
    rows: tuple[LeagueLine, ...]
    rule: str

    @property
    def counted(self) -> tuple[LeagueDay, ...]:
        return tuple(day for day in self.days if day.counts)


LEAGUE_TIE_WORDS = {
    rules.LeagueTie.SPIELPUNKTE: lambda: _("Spielpunkte"),
    rules.LeagueTie.WINS: lambda: _("gewonnene Spieltage"),
}


def league_rule() -> str:
    return _("Liga: jeder Spieltag gibt 4/3/2/1 Siegpunkte nach den Spielpunkten der Teams (gleiche Spielpunkte "
             "teilen sich die Plätze und ihre Siegpunkte). Die Tabelle ordnet nach der Summe der Siegpunkte, dann "
             "der Spielpunkte, dann der gewonnenen Spieltage (ein geteilter erster Platz zählt als gewonnen); sonst "
             "teilen sich die Teams den Platz. Ein Team ist auf jedem Spieltag dasselbe, wenn es gleich heißt und "
             "für denselben Verein spielt.")


@dataclass
class SeasonDays:
    """What `season_days` read: the tournaments (annotated), the viewer's, the teams' members and their
    points, and each team's name and club as written on its latest day."""

    found: list
    shown: list[int]
    members: dict[int, dict[str, list[int]]]  # tournament -> team key -> entry ids
    points: dict[int, int]  # entry -> game points (only those who played)
    team_names: dict[str, tuple[str, str]]  # team key -> (name, club)


def season_days(series: Series, *, user=None) -> SeasonDays:
    """The tournaments of a league or cup (its evenings and those that join it by its short name, of
    every club: those of clubs outside it are listed as not counting), with what a viewer may see as in
    `series_standings` (hidden results count for a tournament's directors only). Three queries: the
    tournaments, the team members, the points."""
    found = list(series_tournaments(series, user=user, joined=True, members_only=False)
                 .annotate(club_slug=F("organisation__slug"), club_name=F("organisation__name"))
                 .only("id", "name", "slug", "date", "public_standings", "team_match", "cup_advance",
                       "organisation_id"))
    directed = {t.pk for t in found if getattr(t, "directed")}  # noqa: B009 (an annotation mypy does not see)
    shown = [t.pk for t in found if t.public_standings or t.pk in directed]
    full = list(directed)
    rows: dict[tuple[int, str], list[tuple[int, str]]] = {}
    for tournament_id, team, entry_id, club in (TeamMember.objects.filter(team__tournament_id__in=shown)
                                                .order_by("team__tournament__date", "team__tournament_id")
                                                .values_list("team__tournament_id", "team__name", "entry_id",
                                                             "entry__player__club")):
        rows.setdefault((tournament_id, team), []).append((entry_id, club))
    members: dict[int, dict[str, list[int]]] = {}
    team_names: dict[str, tuple[str, str]] = {}
    for (tournament_id, team), people in rows.items():  # in date order: the latest day's name wins
        club = team_club([club for _entry, club in people])
        key = team_key(team, club)
        members.setdefault(tournament_id, {}).setdefault(key, []).extend(entry for entry, _club in people)
        team_names[key] = (team, club)
    points = dict(Score.objects.filter(round__tournament_id__in=shown, entry__team_membership__isnull=False)
                  .filter(Q(round__results_hidden=False) | Q(round__tournament_id__in=full))
                  .order_by().values("entry_id").annotate(total=Sum("points")).values_list("entry_id", "total"))
    return SeasonDays(found=found, shown=shown, members=members, points=points, team_names=team_names)


def day_note(series: Series, tournament, days: SeasonDays, *, cup: bool) -> str:
    """Why a tournament of a league (`cup` False) or cup does not count, in words; "" when it does."""
    teams = days.members.get(tournament.pk, {})
    if tournament.organisation_id != series.organisation_id and tournament.club_slug not in series.clubs:
        return _("ausgerichtet von „%(club)s“, der nicht zu den Vereinen dieser Saison gehört") % {
            "club": tournament.club_name}
    if cup and tournament.cup_advance is None:
        return _("keine Pokalrunde")
    if not cup and not tournament.team_match:
        return _("kein Mannschaftskampf")
    if tournament.pk not in days.shown:
        return _("Ergebnisse nicht öffentlich")
    if len(teams) < 2:
        return _("weniger als zwei Teams")
    if not any(e in days.points for ids in teams.values() for e in ids):
        return _("noch keine Ergebnisse")
    return ""


def league_day(series: Series, tournament, days: SeasonDays, *, cup: bool = False) -> LeagueDay:
    note = day_note(series, tournament, days, cup=cup)
    return LeagueDay(tournament_id=tournament.pk, name=tournament.name, slug=tournament.slug, date=tournament.date,
                     shown=tournament.pk in days.shown, counts=not note, note=note, club=tournament.club_name)


def league_standings(series: Series, *, user=None) -> League:
    """The league of a series: each of its team match tournaments a match day (teams recognised by
    name and club), those of a season across clubs with them (`season_days`), what a viewer may see of
    it as in `series_standings`. Three queries: the tournaments, the team members, the points."""
    read = season_days(series, user=user)
    days, results = [], []
    for t in read.found:
        day = league_day(series, t, read)
        days.append(day)
        if day.counts:
            results.append(rules.match_day(day=str(t.pk), teams={
                team: {str(e): read.points.get(e, 0) for e in ids} for team, ids in read.members[t.pk].items()}))
    table = rules.league_table(days=results)
    order = [str(day.tournament_id) for day in days if day.counts]
    names = {key: name for key, (name, _club) in read.team_names.items()}
    rows = []
    for row in table:
        by_day = {line.day: line for line in row.days}
        cells = tuple(LeagueCell(place=line.place, shared=line.shared > 1, siegpunkte=line.siegpunkte,
                                 spielpunkte=line.spielpunkte) if (line := by_day.get(key)) else None
                      for key in order)
        name, club = read.team_names.get(row.team, (row.team, ""))
        rows.append(LeagueLine(name=name, place=row.place, shared=row.is_shared, siegpunkte=row.siegpunkte,
                               spielpunkte=row.spielpunkte, wins=row.wins, cells=cells,
                               tie=league_tie_text(row.tie, names), club=club))
    return League(days=tuple(days), rows=tuple(rows), rule=league_rule())


def league_tie_text(tie: TieBreak[rules.LeagueTie] | None, names: Mapping[str, str]) -> str:
    if tie is None:
        return ""
    above = names.get(tie.above, tie.above)
    if tie.criterion is None:
        return _("gleich mit %(above)s in allem: geteilter Platz") % {"above": above}
    return _("gleich viele Siegpunkte wie %(above)s; %(criterion)s: %(ours)s gegen %(theirs)s") % {
        "above": above, "criterion": LEAGUE_TIE_WORDS[tie.criterion](), "ours": total_text(tie.ours),
        "theirs": total_text(tie.theirs)}
