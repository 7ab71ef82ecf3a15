"""The next match day of a league set up from the last one (docs/competitions.md, "The next match day"):
its teams with their members, the players entered where they are not yet, and the team options, in one
change. The last match day is `selectors.teams.last_match_day` (the series' latest earlier tournament
with teams that the director directs).

Each step is the service that does it alone (`tournaments.register_players_checked`,
`teams.create_team`, `teams.set_team_options`), so the change log records the players entered, every
team with its members and the options as if typed; the outer recording makes it one change of the
tournament (one DataChange), inside one transaction: all or nothing."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from .. import names
from ..errors import UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Team, TeamMember, Tournament
from . import teams as team_services
from .locking import lock_tournament
from .tournaments import NewPlayer, register_players_checked


def take_teams(*, tournament: Tournament, source: Tournament, by: Actor = SYSTEM) -> list[Team]:
    """The teams of `source` (an earlier tournament of the same series) with their members, in
    `tournament`, which has no team yet. A member not entered in `tournament` is entered (the same
    player record: name, club, member number and publication level as there); one entered already
    (the same record, or the same name and club) is taken as they are. The team options
    (how many count, club ranking, kept apart, team match, cup) come along."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        source = Tournament.objects.filter(pk=source.pk).first() or source  # as stored now
        if tournament.series_id is None or source.series_id != tournament.series_id or source.pk == tournament.pk:
            raise UserError(_("Teams lassen sich nur von einem anderen Spieltag derselben Serie übernehmen."))
        if tournament.teams.exists():
            raise UserError(_("Dieses Turnier hat schon Teams; die des letzten Spieltags lassen sich nur in ein "
                              "Turnier ohne Teams übernehmen (erst die Teams hier löschen)."))
        members = list(TeamMember.objects.filter(team__tournament=source).select_related("team", "entry__player")
                       .order_by("team__name", "entry__start_number"))
        if not members:
            raise UserError(_("„%(name)s“ hat keine Teams.") % {"name": source.name})
        with audit.recording("teams_taken_over", by=by, tournament=tournament):
            entered: dict[int | str, int] = {}  # player record id, or names.identity
            for entry in tournament.entries.select_related("player"):
                entered[entry.player_id] = entry.pk
                entered.setdefault(names.identity(entry.player.name, entry.player.club), entry.pk)

            def found(player) -> int | None:
                return entered.get(player.pk) or entered.get(names.identity(player.name, player.club))

            missing = list({m.entry.player_id: m.entry.player for m in members if found(m.entry.player) is None}
                           .values())
            new = register_players_checked(tournament=tournament, by=by, players=[
                NewPlayer(p.name, p.club, member_number=p.member_number, publication=p.publication,
                          where=_("%(name)s: ") % {"name": p.name}) for p in missing])
            for entry in new:
                entered[entry.player_id] = entry.pk
                entered.setdefault(names.identity(entry.player.name, entry.player.club), entry.pk)
            by_team: dict[str, list[int]] = {}
            for m in members:
                entry_id = found(m.entry.player)
                assert entry_id is not None  # entered above
                by_team.setdefault(m.team.name, []).append(entry_id)
            created = [team_services.create_team(tournament=tournament, name=name, members=ids, by=by)
                       for name, ids in by_team.items()]
            team_services.set_team_options(
                tournament=tournament, team_count=source.team_count, club_count=source.club_count,
                teams_apart=source.teams_apart, team_match=source.team_match, cup_advance=source.cup_advance, by=by)
        return created
