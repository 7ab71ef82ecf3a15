"""Teams: the director's page (teams, members, the team options) and the public team standings (page,
CSV, JSON), from `selectors.teams` (docs/competitions.md, "In the app")."""

from __future__ import annotations

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from ..errors import Conflict, UserError
from ..forms.teams import TeamForm, TeamOptionsForm
from ..log.audit import Actor
from ..models import Team
from ..selectors import teams as selectors
from ..services import match_days
from ..services import teams as services
from .access import director_required, public_or_director
from .spreadsheet import csv_response
from .standings import chosen_round, rows_after, visible_history


def _version(request) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


def _members_text(team: Team) -> str:
    return ", ".join(str(m.entry.start_number) + " " + m.entry.player.name
                     for m in team.members.all())


def _page(request, tournament, *, new_form=None, failed: tuple[int, TeamForm] | None = None, options_form=None):
    teams = list(tournament.teams.prefetch_related("members__entry__player").order_by("name"))
    edit_forms = []
    for team in teams:
        if failed is not None and failed[0] == team.pk:
            form = failed[1]
        else:
            form = TeamForm(tournament=tournament, prefix=f"team{team.pk}", initial={
                "name": team.name, "members": ", ".join(m.entry.player.name for m in team.members.all()),
                "version": team.version})
        edit_forms.append((team, form))
    in_team = {m.entry_id for team in teams for m in team.members.all()}
    free = [e for e in tournament.entries.select_related("player").order_by("start_number") if e.pk not in in_team]
    bound = [f for f in (new_form, failed[1] if failed else None, options_form) if f is not None]
    return render(request, "tournament/teams.html", {
        "tournament": tournament, "edit_forms": edit_forms, "free": free,
        "last_day": selectors.last_match_day(tournament, request.user) if not teams else None,
        "form": bound[0] if bound else None,  # the form sent, with what was wrong
        "new_form": new_form or TeamForm(tournament=tournament, prefix="new"),
        "options_form": options_form or TeamOptionsForm(tournament=tournament),
    })


def _to_form(form, error: UserError) -> None:
    form.add_error(error.field if error.field in form.fields else None, error.message)


@director_required
def teams_page(request, tournament):
    """The director's page; a POST creates a team."""
    if request.method != "POST":
        return _page(request, tournament)
    form = TeamForm(request.POST, tournament=tournament, prefix="new")
    if form.is_valid():
        try:
            team = services.create_team(tournament=tournament, name=form.cleaned_data["name"],
                                        members=form.cleaned_data["members"], by=Actor.of(request))
        except UserError as error:
            _to_form(form, error)
        else:
            messages.success(request, _("Team „%(name)s“ angelegt.") % {"name": team.name})
            return redirect("tournament:teams", slug=tournament.slug)
    return _page(request, tournament, new_form=form)


@require_POST
@director_required
def team_edit(request, tournament, team_id):
    team = get_object_or_404(Team, pk=team_id, tournament=tournament)
    form = TeamForm(request.POST, tournament=tournament, prefix=f"team{team.pk}")
    if form.is_valid():
        try:
            services.update_team(team=team, name=form.cleaned_data["name"], members=form.cleaned_data["members"],
                                 version=form.cleaned_data["version"], by=Actor.of(request))
        except Conflict as error:
            messages.error(request, error.message + " " + _("Bitte noch einmal eintragen."))
            return redirect("tournament:teams", slug=tournament.slug)
        except UserError as error:
            _to_form(form, error)
        else:
            messages.success(request, _("Team „%(name)s“ gespeichert.") % {"name": form.cleaned_data["name"]})
            return redirect("tournament:teams", slug=tournament.slug)
    return _page(request, tournament, failed=(team.pk, form))


@require_POST
@director_required
def team_delete(request, tournament, team_id):
    team = Team.objects.filter(pk=team_id, tournament=tournament).first()
    if team is not None:
        try:
            services.delete_team(team=team, version=_version(request), by=Actor.of(request))
        except UserError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Team „%(name)s“ gelöscht.") % {"name": team.name})
    return redirect("tournament:teams", slug=tournament.slug)


@require_POST
@director_required
def teams_take(request, tournament):
    """Takes the teams of the league's last match day (`services.match_days.take_teams`); the day is the
    one the page offered, read again (`selectors.teams.last_match_day`)."""
    last = selectors.last_match_day(tournament, request.user)
    if last is None or str(last.tournament.pk) != request.POST.get("source", ""):
        messages.error(request, _("Es gibt keinen früheren Spieltag dieser Serie mit Teams, die sich übernehmen "
                                  "lassen, oder die Seite war veraltet. Bitte noch einmal ansehen."))
        return redirect("tournament:teams", slug=tournament.slug)
    try:
        created = match_days.take_teams(tournament=tournament, source=last.tournament, by=Actor.of(request))
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, ngettext(
            "%(n)s Team von „%(day)s“ übernommen, mit seinen Spielern.",
            "%(n)s Teams von „%(day)s“ übernommen, mit ihren Spielern.", len(created)) % {
            "n": len(created), "day": last.tournament.name})
    return redirect("tournament:teams", slug=tournament.slug)


@require_POST
@director_required
def team_options(request, tournament):
    form = TeamOptionsForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            services.set_team_options(tournament=tournament, team_count=form.cleaned_data["team_count"],
                                      club_count=form.club_count(), teams_apart=form.cleaned_data["teams_apart"],
                                      team_match=form.cleaned_data["team_match"],
                                      cup_advance=form.cleaned_data["cup_advance"],
                                      # a page sent without the field (an older one) keeps the season
                                      season=form.cleaned_data["season"] if "season" in request.POST else None,
                                      version=form.cleaned_data["version"], by=Actor.of(request))
        except UserError as error:
            _to_form(form, error)
        else:
            messages.success(request, _("Team- und Vereinswertung gespeichert."))
            return redirect("tournament:teams", slug=tournament.slug)
    return _page(request, tournament, options_form=form)


def _standings(request, tournament):
    history = visible_history(request, tournament)
    after_round = chosen_round(request, history)
    rows, _rounds = rows_after(history, after_round)
    return selectors.team_standings(tournament, rows), history.rounds, after_round


@public_or_director("standings")
def team_standings_page(request, tournament):
    standings, rounds, after_round = _standings(request, tournament)
    return render(request, "tournament/team_standings.html", {
        "tournament": tournament, "standings": standings, "rounds": rounds, "after_round": after_round,
        "tables": [t for t in (standings.teams, standings.clubs) if t is not None],
        "match": standings.match, "cup": standings.cup,
        "is_director": request.is_director})


@public_or_director("standings")
def team_standings_csv(request, tournament):
    """One line per team (then per club): the columns of `selectors.teams.csv_table`."""
    standings, _rounds, _after = _standings(request, tournament)
    header, lines = selectors.csv_table(standings)
    return csv_response(header, lines, f"{tournament.slug}-teams.csv")


@public_or_director("standings")
def team_standings_json(request, tournament):
    standings, _rounds, _after = _standings(request, tournament)
    return JsonResponse(selectors.json_data(standings), json_dumps_params={"ensure_ascii": False})
