"""Teams of a tournament and its club ranking (docs/competitions.md, "In the app"): creating, changing
and deleting a team, setting its members, and the tournament's team options (how many of a team's
members count; the clubs ranked as teams with all or the best k; members of a team kept apart in
the draw).

Every change locks the tournament (`locking.lock_tournament`): teams are few and their members
move between them, so one lock for all of a tournament's teams keeps two directors from putting
one player into two teams. A team's form sends the version it was loaded from (`errors.Conflict`
when someone else changed the team meanwhile). Every change is one `audit.recording`: the team's
record holds its name and members by name (`log/audit.py`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..errors import Conflict, UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Entry, Team, TeamMember, Tournament
from ..models.teams import MAX_MEMBERS, MIN_MEMBERS
from ..names import folded
from ..validators import checked_name
from .locking import lock_tournament

MOST_CUP_ADVANCE = 99  # a cup group's teams that go on (more than it has: all of them)
SEASON_PATTERN = re.compile(r"[-a-zA-Z0-9_]{1,80}")


def checked_season(text: str) -> str:
    """The short name of a season across clubs (`Tournament.season`), as a series' short name is
    written: "" for none; raises UserError for anything else."""
    text = text.strip()
    if text and not SEASON_PATTERN.fullmatch(text):
        raise UserError(_("Der Kurzname der Saison besteht nur aus Buchstaben, Ziffern, - und _ und hat höchstens "
                          "80 Zeichen, wie er in der Adresse der Saison auf dem Hub steht (…/s/kurzname/)."),
                        field="season")
    return text


def _checked_members(tournament: Tournament, members: Sequence[int], team: Team | None) -> list[Entry]:
    """The entries of `members` (entry ids), checked: 2 to 6 different players of this tournament,
    none of them in another team."""
    ids = list(dict.fromkeys(members))
    if len(ids) != len(members):
        raise UserError(_("Ein Spieler steht zweimal in der Liste."), field="members")
    if not MIN_MEMBERS <= len(ids) <= MAX_MEMBERS:
        raise UserError(_("Ein Team hat %(min)s bis %(max)s Mitglieder, nicht %(n)s.")
                        % {"min": MIN_MEMBERS, "max": MAX_MEMBERS, "n": len(ids)}, field="members")
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament, pk__in=ids).select_related("player")}
    if len(entries) != len(ids):
        raise UserError(_("Nicht jeder dieser Spieler spielt in diesem Turnier mit."), field="members")
    elsewhere = (TeamMember.objects.filter(entry_id__in=ids).exclude(team=team) if team is not None
                 else TeamMember.objects.filter(entry_id__in=ids))
    taken = list(elsewhere.select_related("team", "entry__player").order_by("entry__start_number"))
    if taken:
        raise UserError(_("%(name)s ist schon im Team „%(team)s“.")
                        % {"name": taken[0].entry.player.name, "team": taken[0].team.name}, field="members")
    return [entries[pk] for pk in ids]


def _cleaned(team: Team) -> None:
    """The model's own checks (length, a name once per tournament, the count), in the user's words."""
    try:
        team.full_clean()
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        if field == "__all__" and team.name:
            raise UserError(_("Ein Team „%(name)s“ gibt es schon.") % {"name": team.name}, field="name") from None
        raise UserError(" ".join(messages), field=None if field == "__all__" else field) from None


def _name(name: str) -> str:
    name = checked_name(name)
    if not name:
        raise UserError(_("Der Name des Teams fehlt."), field="name")
    return name


def clash_sentence(name: str, other: str) -> str:
    """Why `name` is refused beside the team `other` whose name folds to the same key."""
    return _("Ein Team „%(other)s“ gibt es schon; „%(name)s“ unterscheidet sich davon nur in Groß- und "
             "Kleinschreibung oder Leerzeichen, und die Liga zählt beide als ein Team.") % {
        "name": name, "other": other}


def _unique_name(tournament: Tournament, name: str, team: Team | None) -> None:
    """A team's name once per tournament as the league compares names (`names.folded`: "KREUZ-ASSE" is
    "Kreuz-Asse"), read after the tournament's lock."""
    others = Team.objects.filter(tournament=tournament)
    if team is not None:
        others = others.exclude(pk=team.pk)
    key = folded(name)
    for other in others.values_list("name", flat=True):
        if folded(other) == key:
            if other == name:
                raise UserError(_("Ein Team „%(name)s“ gibt es schon.") % {"name": name}, field="name")
            raise UserError(clash_sentence(name, other), field="name")


def _locked_team(tournament: Tournament, team: Team | int, version: int | None) -> Team:
    """The team, read after the tournament's lock; its version as the form saw it."""
    pk = team.pk if isinstance(team, Team) else team
    found = Team.objects.filter(pk=pk, tournament=tournament).first()
    if found is None:
        raise UserError(_("Dieses Team gibt es nicht mehr."))
    if version is not None and version != found.version:
        raise Conflict(_("Das Team „%(name)s“ wurde inzwischen geändert.") % {"name": found.name},
                       current=found, version=found.version)
    return found


def _write_members(team: Team, entries: list[Entry]) -> None:
    audit.require("teams._write_members")  # (bulk_create: no signals)
    TeamMember.objects.filter(team=team).exclude(entry__in=entries).delete()
    have = set(TeamMember.objects.filter(team=team).values_list("entry_id", flat=True))
    TeamMember.objects.bulk_create([TeamMember(team=team, entry=e) for e in entries if e.pk not in have])


def create_team(*, tournament: Tournament, name: str, members: Sequence[int], by: Actor = SYSTEM) -> Team:
    """A new team of `members` (entry ids, 2 to 6)."""
    name = _name(name)
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        entries = _checked_members(tournament, members, None)
        _unique_name(tournament, name, None)
        team = Team(tournament=tournament, name=name)
        _cleaned(team)
        with audit.recording("team_created", by=by, tournament=tournament):
            team.skip_history_when_saving = True  # type: ignore[attr-defined]  # recorded once, with its members
            team.save()
            del team.skip_history_when_saving  # type: ignore[attr-defined]
            _write_members(team, entries)
            team.save()
    return team


def update_team(*, team: Team, name: str, members: Sequence[int], version: int | None = None,
                by: Actor = SYSTEM) -> Team:
    """Changes a team's name and members at once, as loaded (`version`)."""
    name = _name(name)
    with transaction.atomic():
        tournament = lock_tournament(team.tournament_id)
        team = _locked_team(tournament, team, version)
        entries = _checked_members(tournament, members, team)
        _unique_name(tournament, name, team)
        team.name = name
        _cleaned(team)
        with audit.recording("team_changed", by=by, tournament=tournament):
            _write_members(team, entries)
            team.version += 1
            team.save()
    return team


def set_members(*, team: Team, members: Sequence[int], version: int | None = None, by: Actor = SYSTEM) -> Team:
    """The team's members, replaced by `members` (entry ids, 2 to 6)."""
    return update_team(team=team, name=team.name, members=members, version=version, by=by)


def delete_team(*, team: Team, version: int | None = None, by: Actor = SYSTEM) -> None:
    """Deletes a team (its players stay in the tournament). A team already deleted: nothing to do."""
    with transaction.atomic():
        tournament = lock_tournament(team.tournament_id)
        if not Team.objects.filter(pk=team.pk).exists():
            return
        team = _locked_team(tournament, team, version)
        with audit.recording("team_deleted", by=by, tournament=tournament) as rec:
            rec.team_members(team.pk)  # read before the members go with the team
            team.delete()


def set_team_options(*, tournament: Tournament, team_count: int | None, club_count: int | None,
                     teams_apart: bool, team_match: bool = False, cup_advance: int | None = None,
                     season: str | None = None, version: int | None = None, by: Actor = SYSTEM) -> Tournament:
    """How many of a team's members count (`team_count`: None all, k the best k, 1 to 6), the clubs
    ranked as teams (`club_count`: None no club ranking, 0 all players count, k the best k),
    members of a team kept apart in the random draw, a team match (a league's match day: one player
    of each team at every table, Siegpunkte) and a team cup (`cup_advance`: None no cup, k the best k
    teams go on). `season`: the short name of a season across clubs on the hub that the tournament is a
    match day or cup round of ("" none; None keeps what it is)."""
    if team_count is not None and not 1 <= team_count <= MAX_MEMBERS:
        raise UserError(_("In einem Team zählen alle oder die besten 1 bis %(n)s.") % {"n": MAX_MEMBERS},
                        field="team_count")
    if club_count is not None and club_count < 0:
        raise UserError(_("Bei der Vereinswertung zählen alle oder die besten k (mindestens 1)."),
                        field="club_count")
    if cup_advance is not None and not 1 <= cup_advance <= MOST_CUP_ADVANCE:
        raise UserError(_("Im Pokal kommen 1 bis %(n)s Teams weiter.") % {"n": MOST_CUP_ADVANCE},
                        field="cup_advance")
    season = None if season is None else checked_season(season)
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        if version is not None and version != tournament.version:
            raise Conflict(_("Die Einstellungen wurden inzwischen von jemand anderem geändert."),
                           current=tournament, version=tournament.version)
        season = tournament.season if season is None else season
        wanted = (team_count, club_count, teams_apart, team_match, cup_advance, season)
        if (tournament.team_count, tournament.club_count, tournament.teams_apart, tournament.team_match,
                tournament.cup_advance, tournament.season) == wanted:
            return tournament
        with audit.recording("team_options_changed", by=by, tournament=tournament):
            tournament.team_count, tournament.club_count = team_count, club_count
            tournament.teams_apart, tournament.team_match = teams_apart, team_match
            tournament.cup_advance, tournament.season = cup_advance, season
            tournament.version += 1
            tournament.save()
    return tournament

