"""Creating a tournament, its overview (the director's dashboard), its settings and who directs it."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import selectors
from ..errors import Conflict, EntryProblems, UserError
from ..forms.common import add_organisation_field, chosen_organisation
from ..forms.tournaments import HelperAccountForm, RoleForm, SettingsForm, TournamentForm
from ..log.audit import Actor
from ..selectors import people
from ..selectors.publishing import corrections_of
from ..services import tournaments
from ..web import caching, histories
from . import seat_notice
from .access import director_required, organiser_required, public_or_director


@organiser_required
def tournament_create(request):
    form = TournamentForm(request.POST or None)
    organisations = list(selectors.organisations_of(request.user))
    add_organisation_field(form, organisations)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournaments.create_tournament(director=request.user, by=Actor.of(request),
                                                       organisation=chosen_organisation(form, organisations),
                                                       **form.create_arguments())
        except UserError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("Turnier „%(name)s“ angelegt. Als Nächstes: Spieler anmelden.")
                             % {"name": tournament.name})
            return redirect("tournament:players", slug=tournament.slug)
    return render(request, "tournament/tournament_form.html", {"form": form})


@public_or_director("overview")
def tournament_overview(request, tournament):
    """The director's dashboard; a read-only overview for everyone else (when switched on). Once the
    tournament is over ("Turnier beendet") it names the winners: the first three places of the final
    standings (hidden results only for the director)."""
    overview = selectors.tournament_overview(tournament)
    winners = []
    if overview.finished:
        history = histories.standings_history(tournament, include_hidden=request.is_director,
                                            counter=caching.request_counter(request, tournament))
        winners = [row for row in history.final() if 0 < row.rank <= 3 and not row.withdrawn]
    return render(request, "tournament/overview.html", {
        "tournament": tournament, "is_director": request.is_director, "can_enter": request.can_enter,
        "overview": overview, "winners": winners, "ranking": tournament.ranking,
        "rules": tournament.scoring_rules(), "refresh": seat_notice.REFRESH,
        "corrections": corrections_of(tournament),  # on a hub: what the venue corrected (docs/publishing.md)
        # on a hub: the players' correction requests waiting for the directors (docs/hub.md, "Corrections")
        "open_corrections": people.open_corrections(tournament.pk) if request.is_director and settings.DOKO_HUB else 0,
    })


@director_required
def tournament_settings(request, tournament):
    form = SettingsForm(request.POST or None, tournament=tournament)
    conflict = None
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournaments.update_tournament(tournament=tournament, fields=form.plain_fields(),
                                                       rules=form.rules(), version=form.cleaned_data["version"],
                                                       by=Actor.of(request))
        except Conflict as error:
            conflict = error
            tournament.refresh_from_db()
            data = request.POST.copy()
            data["version"] = str(error.version)  # saving again saves this input over the other change
            form = SettingsForm(data, tournament=tournament)
            form.is_valid()
        except EntryProblems as error:
            tournament.refresh_from_db()  # the transaction rolled back; the page shows what is stored
            for line in error.lines():
                form.add_error("rule_changes", line)
        except UserError as error:
            tournament.refresh_from_db()
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("Einstellungen gespeichert."))
            return redirect("tournament:settings", slug=tournament.slug)
    return render(request, "tournament/settings.html", {
        "tournament": tournament, "form": form, "is_director": True, "conflict": conflict,
        "conflict_text": _describe(conflict) if conflict else "",
        "directors": tournament.directors.order_by("username"), "helpers": tournament.helpers.order_by("username"),
        "role_form": RoleForm(), "helper_form": HelperAccountForm(),
    }, status=409 if conflict else 200)


def _describe(conflict: Conflict) -> str:
    change = conflict.change
    if change is None:
        return ""
    return _("%(what)s von %(user)s um %(time)s: %(after)s") % {
        "what": change.label, "user": change.user, "after": change.after_text,
        "time": formats.time_format(timezone.localtime(change.at), "H:i:s")}


@require_POST
@director_required
def tournament_roles(request, tournament):
    """Adds or removes a co-director or helper (an existing account), or creates a helper account."""
    by = Actor.of(request)
    try:
        if request.POST.get("action") == "create_helper":
            form = HelperAccountForm(request.POST)
            if form.is_valid():
                tournaments.create_helper_account(tournament=tournament, username=form.cleaned_data["username"],
                                                  password=form.cleaned_data["password"], by=by)
                messages.success(request, _("Das Konto %(name)s ist angelegt und hilft bei diesem Turnier.")
                                 % {"name": form.cleaned_data["username"]})
            else:
                for errors in form.errors.values():
                    for error in errors:
                        messages.error(request, error)
        else:
            form = RoleForm(request.POST)
            if form.is_valid():
                add = form.cleaned_data["change"] == "add"
                tournaments.set_role(tournament=tournament, username=form.cleaned_data["username"],
                                     role=form.cleaned_data["role"], add=add, by=by)
                messages.success(request, _("Gespeichert: %(name)s.") % {"name": form.cleaned_data["username"]})
            else:
                for errors in form.errors.values():
                    for error in errors:
                        messages.error(request, error)
    except UserError as error:
        messages.error(request, error.message)
    return redirect("tournament:settings", slug=tournament.slug)
