"""A round's seating: creating the round, the draw, swaps and moves, publishing and closing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _, gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from ..errors import UserError
from ..forms.rounds import DrawForm, MoveForm, SwapForm
from ..models import Round, Tournament
from ..selectors import round_progress, round_tables
from ..services import seating
from .access import director_required, public_or_director


def _round(tournament: Tournament, number: int) -> Round:
    round = get_object_or_404(Round, tournament=tournament, number=number)
    round.tournament = tournament  # spares the services a query
    return round


def _back(round: Round):
    return redirect("tournament:round", slug=round.tournament.slug, round_number=round.number)


def _form_errors(request, form) -> None:
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, error)


@public_or_director("seating")
def round_detail(request, tournament, round_number):
    """The tables of a round in seat order. A draft is the director's only; they also get the draw,
    swap, move and publish forms. A published round can be read by everyone (while the seating
    page is switched on)."""
    director = request.is_director
    round = _round(tournament, round_number)
    if round.is_draft and not director:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied
    tables = round_tables(round)
    progress = {} if round.is_draft else round_progress(round)  # nothing to count before publishing
    rows = [{"seated": t, "progress": progress.get(t.table.id, {}),
             "games_expected": tournament.games_at_table(t.size)} for t in tables]
    context = {
        "tournament": tournament, "round": round, "is_director": director, "tables": rows,
        "tables_of_4": sum(1 for t in tables if t.size == 4), "tables_of_5": sum(1 for t in tables if t.size == 5),
        "players": sum(t.size for t in tables),
        "by_name": sorted(((entry.player.name, t.table.number, position) for t in tables
                           for position, entry in enumerate(t.entries, start=1)), key=lambda item: item[0].casefold()),
    }
    if director and round.is_draft:
        seated = {entry.id for t in tables for entry in t.entries}
        playing = {entry.id for entry in seating.playing_entries(tournament, round.number)}
        context.update({
            "draw_form": DrawForm(round=round),
            "swap_form": SwapForm(tables=tables),
            "move_form": MoveForm(tables=tables),
            "playing": len(playing),
            "out_of_date": bool(tables) and seated != playing,
        })
    return render(request, "tournament/round.html", context)


@require_POST
@director_required
def round_create(request, tournament):
    try:
        round = seating.create_round(tournament=tournament)
    except UserError as error:
        messages.error(request, error.message)
        return redirect("tournament:overview", slug=tournament.slug)
    messages.success(request, _("Runde %(round)s angelegt. Jetzt die Tische auslosen.") % {"round": round.number})
    return redirect("tournament:round", slug=tournament.slug, round_number=round.number)


@require_POST
@director_required
def round_draw(request, tournament, round_number):
    round = _round(tournament, round_number)
    form = DrawForm(request.POST, round=round)
    if not form.is_valid():
        _form_errors(request, form)
        return _back(round)
    seed = "" if request.POST.get("new_seed") else form.cleaned_data["seed"]
    try:
        result = seating.seat_round(round=round, mode=form.cleaned_data["mode"], seed=seed)
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, ngettext(
            "Runde %(round)s ausgelost: %(tables)s Tisch, %(meetings)s Wiederbegegnungen.",
            "Runde %(round)s ausgelost: %(tables)s Tische, %(meetings)s Wiederbegegnungen.",
            len(result.tables)) % {"round": round.number, "tables": len(result.tables),
                                   "meetings": result.repeat_meetings})
    return _back(round)


@require_POST
@director_required
def round_swap(request, tournament, round_number):
    round = _round(tournament, round_number)
    form = SwapForm(request.POST, tables=round_tables(round))
    if not form.is_valid():
        _form_errors(request, form)
        return _back(round)
    try:
        seating.swap_players(round=round, first_id=form.cleaned_data["first"], second_id=form.cleaned_data["second"])
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Plätze getauscht."))
    return _back(round)


@require_POST
@director_required
def round_move(request, tournament, round_number):
    round = _round(tournament, round_number)
    form = MoveForm(request.POST, tables=round_tables(round))
    if not form.is_valid():
        _form_errors(request, form)
        return _back(round)
    try:
        seating.move_player(round=round, entry_id=form.cleaned_data["entry"], table_number=form.cleaned_data["table"])
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Spieler an Tisch %(table)s gesetzt.") % {"table": form.cleaned_data["table"]})
    return _back(round)


STATUS_ACTIONS = {
    "publish": (seating.publish_round, gettext_lazy("Runde %(round)s ist veröffentlicht: die Tische stehen fest.")),
    "close": (seating.close_round, gettext_lazy("Runde %(round)s ist abgeschlossen.")),
    "reopen": (seating.reopen_round, gettext_lazy("Runde %(round)s ist wieder offen.")),
    "hide": (seating.hide_results, gettext_lazy("Die Ergebnisse von Runde %(round)s sind öffentlich verborgen.")),
    "show": (seating.show_results, gettext_lazy("Die Ergebnisse von Runde %(round)s sind öffentlich sichtbar.")),
}


@require_POST
@director_required
def round_status(request, tournament, round_number):
    round = _round(tournament, round_number)
    action = STATUS_ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        messages.error(request, _("Unbekannte Aktion."))
        return _back(round)
    service, text = action
    try:
        service(round=round)
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, text % {"round": round.number})
    return _back(round)
