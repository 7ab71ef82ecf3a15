"""Creating a tournament, its overview (the director's dashboard) and its settings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from ..errors import EntryProblems, UserError
from ..forms.tournaments import SettingsForm, TournamentForm
from .. import selectors
from ..services import tournaments
from .access import director_required, public_or_director


@login_required
def tournament_create(request):
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournaments.create_tournament(director=request.user, **form.create_arguments())
        except UserError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("Turnier „%(name)s“ angelegt. Als Nächstes: Spieler anmelden.")
                             % {"name": tournament.name})
            return redirect("tournament:players", slug=tournament.slug)
    return render(request, "tournament/tournament_form.html", {"form": form})


@public_or_director("overview")
def tournament_overview(request, tournament):
    """The director's dashboard; a read-only overview for everyone else (when switched on)."""
    return render(request, "tournament/overview.html", {
        "tournament": tournament, "is_director": request.is_director,
        "overview": selectors.tournament_overview(tournament),
        "rules": tournament.scoring_rules(),
    })


@director_required
def tournament_settings(request, tournament):
    form = SettingsForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            tournaments.update_tournament(tournament=tournament, fields=form.plain_fields(), rules=form.rules())
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
    return render(request, "tournament/settings.html", {"tournament": tournament, "form": form,
                                                        "is_director": True})
