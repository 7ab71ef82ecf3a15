"""The player list: registering one or many players, withdrawing and returning."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, gettext as _, ngettext
from django.views.decorators.http import require_POST

from .. import draw
from ..errors import UserError
from ..forms.players import PlayerForm, PlayerListForm
from ..models import Entry
from ..services import tournaments
from .access import director_required


def seating_text(n_players: int) -> tuple[bool, str]:
    """(seatable, what the draw would make of n players): "37 Spieler: 8 Vierertische, 1 Fünfertisch"."""
    try:
        sizes = draw.table_sizes(n_players)
    except draw.SeatingImpossible as error:
        return False, error.message("en" if (get_language() or "de").startswith("en") else "de")
    fours, fives = sizes.count(4), sizes.count(5)
    parts = []
    if fours:
        parts.append(ngettext("%(n)s Vierertisch", "%(n)s Vierertische", fours) % {"n": fours})
    if fives:
        parts.append(ngettext("%(n)s Fünfertisch", "%(n)s Fünfertische", fives) % {"n": fives})
    return True, ngettext("%(n)s Spieler: %(tables)s", "%(n)s Spieler: %(tables)s", n_players) % {
        "n": n_players, "tables": ", ".join(parts)}


@director_required
def player_list(request, tournament):
    player_form, list_form = PlayerForm(prefix="one"), PlayerListForm(prefix="many")
    if request.method == "POST":
        try:
            if "many-lines" in request.POST:
                list_form = PlayerListForm(request.POST, prefix="many")
                if list_form.is_valid():
                    entries = tournaments.register_players(tournament=tournament,
                                                           lines=list_form.cleaned_data["lines"])
                    messages.success(request, ngettext("%(n)s Spieler angemeldet.", "%(n)s Spieler angemeldet.",
                                                       len(entries)) % {"n": len(entries)})
                    return redirect("tournament:players", slug=tournament.slug)
            else:
                player_form = PlayerForm(request.POST, prefix="one")
                if player_form.is_valid():
                    entry = tournaments.register_player(tournament=tournament, **player_form.cleaned_data)
                    messages.success(request, _("%(name)s ist angemeldet, Startnummer %(number)s.")
                                     % {"name": entry.player.name, "number": entry.start_number})
                    return redirect("tournament:players", slug=tournament.slug)
        except UserError as error:
            form = list_form if "many-lines" in request.POST else player_form
            form.add_error(error.field if error.field in form.fields else
                           ("lines" if form is list_form else None), error.message)

    entries = list(tournament.entries.select_related("player").order_by("start_number"))
    next_round = tournaments.first_open_round(tournament)
    playing = sum(1 for entry in entries if entry.plays_in(next_round))
    seatable, seating = seating_text(playing)
    return render(request, "tournament/players.html", {
        "tournament": tournament, "is_director": True, "entries": entries, "next_round": next_round,
        "playing": playing, "seatable": seatable, "seating": seating,
        "player_form": player_form, "list_form": list_form,
    })


def _entry(tournament, entry_id) -> Entry:
    return get_object_or_404(Entry.objects.select_related("player", "tournament"), pk=entry_id, tournament=tournament)


@require_POST
@director_required
def player_withdraw(request, tournament, entry_id):
    entry = _entry(tournament, entry_id)
    try:
        tournaments.withdraw_player(entry=entry)
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(name)s hat sich zurückgezogen und wird ab Runde %(round)s nicht mehr "
                                    "gesetzt; die Ergebnisse bleiben.")
                         % {"name": entry.player.name, "round": entry.withdrawn_from_round})
    return redirect("tournament:players", slug=tournament.slug)


@require_POST
@director_required
def player_return(request, tournament, entry_id):
    entry = _entry(tournament, entry_id)
    try:
        tournaments.return_player(entry=entry)
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(name)s spielt wieder mit, ab der nächsten Auslosung.")
                         % {"name": entry.player.name})
    return redirect("tournament:players", slug=tournament.slug)
