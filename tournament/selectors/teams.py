"""Team and club standings (docs/competitions.md): the standings' rows (`selectors.standings`) fed to
the pure rules of `scoring.teams`, each number with who counted and why, and each tie explained.

Reads the tournament's teams in two queries (the teams, their members) on top of the standings;
the club ranking needs none of its own (the clubs are in the standings' rows)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from scoring import teams as rules
from scoring.tie_break import TieBreak
from seating.team_match import TABLE_SIZES as MATCH_SIZES

from .. import privacy
from ..models import TeamMember, Tournament
from ..ranking import total_text
from .league import CupTable, DayTable, cup_table, match_day_table, siegpunkte_number
from .standings import StandingRow


@dataclass(frozen=True)
class MemberLine:
    name: str
    start_number: int | None  # None: a club's hidden player
    value: int  # in the measure
    points: int  # game points
    rounds: int
    counts: bool
    why: str  # why the member counts or not, in words


@dataclass(frozen=True)
class TeamLine:
    name: str
    place: int | None  # None: listed apart
    shared: bool
    value: int
    points: int
    counted: int
    members: tuple[MemberLine, ...]
    tie: str  # what separated it from the team above with the same value, or that nothing did; "" otherwise

    @property
    def counted_names(self) -> str:
        return ", ".join(m.name for m in self.members if m.counts)


@dataclass(frozen=True)
class TeamTable:
    """One ranking: the tournament's teams, or its clubs as teams."""

    kind: str  # "teams" or "clubs"
    measure: str  # rules.Measure values
    count: int | None  # the best k; None: all count
    rule: str  # the ranking in a sentence
    rows: tuple[TeamLine, ...]
    apart: tuple[TeamLine, ...]  # clubs with fewer than k players who played
    without_club: tuple[str, ...]  # names


@dataclass(frozen=True)
class TeamStandings:
    teams: TeamTable | None  # None: the tournament has no teams
    clubs: TeamTable | None  # None: no club ranking
    match: DayTable | None = None  # a team match: the match day's Siegpunkte
    cup: CupTable | None = None  # a team cup: the group and who goes on

    @property
    def any(self) -> bool:
        return self.teams is not None or self.clubs is not None


def measure_of(tournament: Tournament) -> rules.Measure:
    """Teams sum what ranks the players: table points, else game points (an average too)."""
    if tournament.ranking == Tournament.Ranking.TABLE_POINTS:
        return rules.Measure.TABLE_POINTS
    return rules.Measure.POINTS


def has_teams(tournament: Tournament) -> bool:
    """Whether the standings link to a team page (one query, or none with a club ranking)."""
    return tournament.club_count is not None or tournament.teams.exists()


@dataclass(frozen=True)
class LastMatchDay:
    """The match day a new one can take its teams from (`services.match_days.take_teams`)."""

    tournament: Tournament
    teams: int
    players: int


def last_match_day(tournament: Tournament, user) -> LastMatchDay | None:
    """The latest tournament of the same series before this one (by date, then as created) that has
    teams and that `user` directs (a superuser: any), while this one has no team; None otherwise. At
    most two queries."""
    if tournament.series_id is None or not getattr(user, "is_authenticated", False):
        return None
    if tournament.teams.exists():
        return None
    earlier = (Tournament.objects.filter(series_id=tournament.series_id, teams__isnull=False)
               .filter(Q(date__lt=tournament.date) | Q(date=tournament.date, pk__lt=tournament.pk)))
    if not user.is_superuser:
        earlier = earlier.filter(directors=user)
    found = (earlier.annotate(team_count_=Count("teams", distinct=True), players_=Count("teams__members"))
             .order_by("-date", "-pk").first())
    if found is None:
        return None
    return LastMatchDay(tournament=found, teams=getattr(found, "team_count_"), players=getattr(found, "players_"))  # noqa: B009


def team_members(tournament: Tournament) -> dict[str, list[int]]:
    """Team name -> its members' entry ids, by start number. One query."""
    members: dict[str, list[int]] = {}
    for name, entry_id in (TeamMember.objects.filter(team__tournament=tournament)
                           .order_by("team__name", "entry__start_number").values_list("team__name", "entry_id")):
        members.setdefault(name, []).append(entry_id)
    return members


def team_pairs(tournament: Tournament) -> list[tuple[int, int]]:
    """Every pair of members of one team (entry ids): what the draw keeps apart (`teams_apart`)."""
    return [(a, b) for ids in team_members(tournament).values() for i, a in enumerate(ids) for b in ids[i + 1:]]


@dataclass(frozen=True)
class MatchTeams:
    """Who plays a team match's round: the teams (name, entry ids by start number) of the players
    seated, or why they cannot (`problem`, a sentence; then `teams` is empty)."""

    teams: tuple[tuple[str, tuple[int, ...]], ...]
    problem: str = ""


def match_teams(tournament: Tournament, playing: Sequence[tuple[int, str]]) -> MatchTeams:
    """The teams of a team match from the players seated in a round (`playing`: entry id and name,
    by start number): 4 or 5 teams (the table size), each with the same number of players there,
    and nobody without a team (docs/competitions.md). One query."""
    members = team_members(tournament)
    names = dict(playing)
    team_of = {entry_id: team for team, ids in members.items() for entry_id in ids}
    without = [name for entry_id, name in playing if entry_id not in team_of]
    if without:
        return MatchTeams((), _("Im Mannschaftskampf spielt jeder in einem Team; ohne Team: %(names)s.")
                          % {"names": ", ".join(without)})
    present = {team: tuple(e for e in ids if e in names) for team, ids in members.items()}
    present = {team: ids for team, ids in present.items() if ids}
    if len(present) not in MATCH_SIZES:
        return MatchTeams((), ngettext(
            "Ein Mannschaftskampf braucht 4 oder 5 Teams (eines je Platz am Tisch); dabei ist %(n)s Team.",
            "Ein Mannschaftskampf braucht 4 oder 5 Teams (eines je Platz am Tisch); dabei sind %(n)s Teams.",
            len(present)) % {"n": len(present)})
    if len({len(ids) for ids in present.values()}) > 1:
        return MatchTeams((), _("Im Mannschaftskampf sitzt an jedem Tisch einer je Team, also braucht jedes Team "
                                "gleich viele Spieler; da sind: %(teams)s.")
                          % {"teams": ", ".join(f"{team} {len(ids)}" for team, ids in present.items())})
    return MatchTeams(tuple(present.items()))


def team_standings(tournament: Tournament, rows: Sequence[StandingRow]) -> TeamStandings:
    """The team and club rankings from the standings' `rows` (as a page shows them: after a round, or
    without hidden rounds). One query (the teams' members) besides the rows."""
    measure = measure_of(tournament)
    totals = [rules.MemberTotal(player=str(r.entry_id), points=r.points, rounds=r.rounds_played,
                                table_points=r.table_points) for r in rows]
    by_key = {str(r.entry_id): r for r in rows}
    members = team_members(tournament)
    teams = None
    sized = {name: [str(e) for e in ids if str(e) in by_key] for name, ids in members.items()}
    sized = {name: ids for name, ids in sized.items() if rules.MIN_MEMBERS <= len(ids) <= rules.MAX_MEMBERS}
    if sized:
        result = rules.team_standings(teams=sized, totals=totals, count=tournament.team_count, measure=measure)
        teams = _table("teams", result, by_key)
    clubs = None
    if tournament.club_count is not None:
        count = tournament.club_count or None
        result = rules.club_standings(clubs={str(r.entry_id): r.club_counted for r in rows}, totals=totals, count=count,
                                      measure=measure)
        clubs = _table("clubs", result, by_key)
    match = cup = None
    if tournament.team_match or tournament.cup_advance is not None:  # every member's game points
        points = {name: {str(e): by_key[str(e)].points for e in ids if str(e) in by_key}
                  for name, ids in members.items()}
        names = {key: row.name for key, row in by_key.items()}
        if tournament.team_match:
            match = match_day_table(tournament.slug, points, names)
        if tournament.cup_advance is not None:  # a member without a round never counts (None), not even as 0
            played = {name: {key: value if by_key[key].rounds_played else None for key, value in players.items()}
                      for name, players in points.items()}
            cup = cup_table(tournament.name, played, tournament.cup_advance, names)
    return TeamStandings(teams=teams, clubs=clubs, match=match, cup=cup)


# ---- in words ------------------------------------------------------------------------------------------

def measure_word(measure: str) -> str:
    """The measure as a word inside a sentence (in English in lower case, unlike a column head)."""
    if measure == rules.Measure.TABLE_POINTS:
        return pgettext("inside a sentence", "Tischpunkte")
    return pgettext("inside a sentence", "Spielpunkte")


def rule_text(kind: str, measure: str, count: int | None) -> str:
    what = measure_word(measure)
    if count is None:
        text = (_("Ein Team zählt die %(what)s aller Mitglieder.") if kind == "teams"
                else _("Ein Verein zählt die %(what)s aller seiner Spieler.")) % {"what": what}
    else:
        text = (ngettext("Ein Team zählt die %(what)s seines besten Mitglieds.",
                         "Ein Team zählt die %(what)s seiner besten %(k)s Mitglieder.", count) if kind == "teams"
                else ngettext("Ein Verein zählt die %(what)s seines besten Spielers.",
                              "Ein Verein zählt die %(what)s seiner besten %(k)s Spieler.", count)
                ) % {"what": what, "k": count}
    text += " " + _("Wer keine Runde gespielt hat, zählt nie.")
    criteria = [TIE_WORDS[c]() for c in rules.tie_criteria(measure=rules.Measure(measure), count=count)]
    return text + " " + _("Bei Gleichstand entscheiden: %(criteria)s; dann teilen sie sich den Platz.") % {
        "criteria": ", ".join(criteria)}


TIE_WORDS = {
    rules.Tie.POINTS: lambda: _("die Spielpunkte der Gezählten"),
    rules.Tie.ALL_MEMBERS: lambda: _("die Summe aller, die gespielt haben"),
    rules.Tie.BEST_MEMBER: lambda: _("das beste einzelne Ergebnis"),
}

WHY_WORDS = {
    rules.Why.ALL: lambda: _("zählt (alle zählen)"),
    rules.Why.BEST: lambda: _("zählt (unter den Besten)"),
    rules.Why.NOT_BEST: lambda: _("zählt nicht (nicht unter den Besten)"),
    rules.Why.EQUAL_NOT_BEST: lambda: _("zählt nicht (gleich viel wie der Letzte, der zählt; an der Summe ändert "
                                        "das nichts)"),
    rules.Why.NOT_PLAYED: lambda: _("zählt nicht (keine Runde gespielt)"),
}


def tie_text(tie: TieBreak[rules.Tie] | None) -> str:
    if tie is None:
        return ""
    if tie.criterion is None:
        return _("gleich mit %(above)s in allem: geteilter Platz") % {"above": tie.above}
    return _("gleich viel wie %(above)s; %(criterion)s: %(ours)s gegen %(theirs)s") % {
        "above": tie.above, "criterion": TIE_WORDS[tie.criterion](), "ours": total_text(tie.ours),
        "theirs": total_text(tie.theirs)}


def _table(kind: str, result: rules.TeamStandings, by_key: dict[str, StandingRow]) -> TeamTable:
    def member(key: str) -> tuple[str, int | None]:
        """A club's hidden player counts for the club (a total is an aggregate) but is listed as "—",
        without the start number that would tie the number to the club (docs/privacy.md)."""
        row = by_key[key]
        return (privacy.NO_NAME, None) if kind == "clubs" and row.hidden else (row.name, row.start_number)

    def line(row: rules.TeamStanding) -> TeamLine:
        members = tuple(MemberLine(*member(m.player), value=m.value, points=m.points, rounds=m.rounds,
                                   counts=m.counts, why=WHY_WORDS[m.why]()) for m in row.members)
        return TeamLine(name=row.team, place=row.place, shared=row.is_shared, value=row.value, points=row.points,
                        counted=row.counted, members=members, tie=tie_text(row.tie))

    return TeamTable(kind=kind, measure=result.measure, count=result.count,
                     rule=rule_text(kind, result.measure, result.count),
                     rows=tuple(line(r) for r in result.rows), apart=tuple(line(r) for r in result.apart),
                     without_club=tuple(by_key[p].name for p in result.without_club))


# ---- the exports (CSV, JSON, `manage.py standings --teams`) ---------------------------------------------

def csv_table(standings: TeamStandings) -> tuple[list[str], list[list]]:
    """(header, lines): one line per team, then per club (ranked, then those listed apart), then the
    match day's and the cup group's lines: the ranking, place, name, value, the counted members'
    game points, how many counted, every member with their total (✓: counts), what separated it from
    the team above, a match day's Siegpunkte ("3,5") and a cup's verdict."""
    header = [_("Wertung"), _("Platz"), _("Team"), _("Wert"), _("Spielpunkte der Gezählten"), _("gezählt"),
              _("Mitglieder (✓ zählt)"), _("Gleichstand"), _("Siegpunkte"), _("Pokal")]
    kinds = {"teams": _("Teams"), "clubs": _("Vereine")}
    lines = []
    for table in (standings.teams, standings.clubs):
        if table is None:
            continue
        for line in (*table.rows, *table.apart):
            members = ", ".join(f"{m.name} {m.value}{' ✓' if m.counts else ''}" for m in line.members)
            lines.append([kinds[table.kind], "" if line.place is None else line.place, line.name, line.value,
                          line.points, line.counted, members, line.tie, "", ""])
    if standings.match is not None:
        for day in standings.match.rows:
            lines.append([_("Spieltag"), day.place, day.name, day.spielpunkte, day.spielpunkte, len(day.players),
                          ", ".join(f"{name} {points} ✓" for name, points in day.players), day.why,
                          siegpunkte_number(day.siegpunkte), ""])
    if standings.cup is not None:
        for cup in standings.cup.rows:
            lines.append([_("Pokal"), cup.place, cup.name, cup.points, cup.points, len(cup.players),
                          ", ".join(f"{name} {points} ✓" for name, points in cup.players), cup.tie, "",
                          cup.verdict])
    return header, lines


def json_data(standings: TeamStandings) -> dict:
    """{"teams": …, "clubs": …}, each None or the ranking with its rule and every member's total and
    why it counts."""
    def line(row: TeamLine) -> dict:
        return {"place": row.place, "name": row.name, "shared": row.shared, "value": row.value,
                "points": row.points, "counted": row.counted, "tie": row.tie,
                "members": [{"name": m.name, "start_number": m.start_number, "value": m.value, "points": m.points,
                             "rounds": m.rounds, "counts": m.counts, "why": m.why} for m in row.members]}

    def table(found: TeamTable | None) -> dict | None:
        if found is None:
            return None
        return {"measure": found.measure, "count": found.count, "rule": found.rule,
                "rows": [line(r) for r in found.rows], "apart": [line(r) for r in found.apart],
                "without_club": list(found.without_club)}

    match = None if standings.match is None else {
        "scale": list(standings.match.scale), "rule": standings.match.rule,
        "rows": [{"place": d.place, "name": d.name, "shared": d.shared, "spielpunkte": d.spielpunkte,
                  "siegpunkte": float(d.siegpunkte), "siegpunkte_text": d.siegpunkte_text, "why": d.why,
                  "players": [{"name": name, "points": points} for name, points in d.players]}
                 for d in standings.match.rows]}
    cup = None if standings.cup is None else {
        "advance": standings.cup.advance, "rule": standings.cup.rule, "undecided": list(standings.cup.undecided),
        "rows": [{"place": c.place, "name": c.name, "shared": c.shared, "points": c.points,
                  "best_player": c.best_player, "advances": c.advances, "tie": c.tie,
                  "players": [{"name": name, "points": points} for name, points in c.players]}
                 for c in standings.cup.rows]}
    return {"teams": table(standings.teams), "clubs": table(standings.clubs), "match": match, "cup": cup}
