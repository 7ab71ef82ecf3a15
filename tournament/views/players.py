"""The player list: registering one or many players, withdrawing and returning."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

import seating

from ..errors import Conflict, UserError, language
from ..forms.players import PlayerEditForm, PlayerForm, PlayerListForm
from ..log.audit import Actor
from ..models import Entry, Registration
from ..selectors.teams import last_match_day
from ..services import player_details, tournaments, waiting_list
from .access import director_required
from .checkin import moved_up


def seating_text(n_players: int) -> tuple[bool, str]:
    """(seatable, what the draw would make of n players): "37 Spieler: 8 Vierertische, 1 Fünfertisch"."""
    if not n_players:
        return False, _("Noch keine Spieler: tragen Sie sie unten ein.")
    try:
        sizes = seating.table_sizes(n_players)
    except seating.SeatingImpossible as error:
        return False, error.message(language())
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
                    registered = tournaments.register_players(
                        tournament=tournament, lines=list_form.cleaned_data["lines"], by=Actor.of(request))
                    n = len(registered.entries)
                    messages.success(request, ngettext("%(n)s Spieler angemeldet.", "%(n)s Spieler angemeldet.",
                                                       n) % {"n": n})
                    if registered.skipped:
                        messages.warning(request, ngettext(
                            "Nicht angemeldet: %(lines)s", "Nicht angemeldet (%(n)s): %(lines)s",
                            len(registered.skipped)) % {"n": len(registered.skipped),
                                                         "lines": " ".join(registered.skipped)})
                    return redirect("tournament:players", slug=tournament.slug)
            else:
                player_form = PlayerForm(request.POST, prefix="one")
                if player_form.is_valid():
                    entry = tournaments.register_player(tournament=tournament, **player_form.cleaned_data,
                                                        by=Actor.of(request))
                    messages.success(request, _("%(name)s ist angemeldet, Startnummer %(number)s.")
                                     % {"name": entry.player.name, "number": entry.start_number})
                    return redirect("tournament:players", slug=tournament.slug)
        except UserError as error:
            form = list_form if "many-lines" in request.POST else player_form
            form.add_error(error.field if error.field in form.fields else
                           ("lines" if form is list_form else None), error.message)

    entries = list(tournament.entries.select_related("player").order_by("start_number"))
    next_round = tournaments.first_open_round(tournament)
    checkin = any(entry.present for entry in entries)
    playing = sum(1 for entry in entries if entry.plays_in(next_round) and (entry.present or not checkin))
    seatable, seating = seating_text(playing)
    return render(request, "tournament/players.html", {
        "tournament": tournament, "is_director": True, "entries": entries, "next_round": next_round,
        "playing": playing, "seatable": seatable, "seating": seating,
        "player_form": player_form, "list_form": list_form,
        # a new match day of a league: its players and teams from the last one (two queries, while empty)
        "last_day": None if entries else last_match_day(tournament, request.user),
    })


def _entry(tournament, entry_id) -> Entry:
    return get_object_or_404(Entry.objects.select_related("player", "tournament"), pk=entry_id, tournament=tournament)


@require_POST
@director_required
def player_withdraw(request, tournament, entry_id):
    """Asks first; then the player is not seated from the next unpublished round on."""
    entry = _entry(tournament, entry_id)
    if request.POST.get("confirm") != "yes":
        return render(request, "tournament/confirm_withdraw.html", {
            "tournament": tournament, "entry": entry, "from_round": tournaments.first_open_round(tournament)})
    waiting_before = set(tournament.registrations.filter(status=Registration.Status.WAITING)
                         .values_list("id", flat=True))
    try:
        entry = waiting_list.withdraw_player(entry=entry, by=Actor.of(request))
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(name)s hat sich zurückgezogen und wird ab Runde %(round)s nicht mehr "
                                    "gesetzt; die Ergebnisse bleiben.")
                         % {"name": entry.player.name, "round": entry.withdrawn_from_round})
        moved_up(request, tournament, waiting_before)
    return redirect("tournament:players", slug=tournament.slug)


@director_required
def player_edit(request, tournament, entry_id):
    """Corrects a player's name or club (this tournament only; docs/tournament.md, Players)."""
    entry = _entry(tournament, entry_id)
    categories = category_choices(tournament)
    shown = {"name": entry.player.name, "club": entry.player.club, "member_number": entry.player.member_number,
             "categories": entry.categories, "publication": entry.player.publication,
             "loaded_name": entry.player.name, "loaded_club": entry.player.club}
    form = PlayerEditForm(initial=shown, categories=categories)
    conflict = None
    if request.method == "POST":
        form = PlayerEditForm(request.POST, categories=categories)
        if form.is_valid():
            data = form.cleaned_data
            try:
                entry = player_details.edit_player(entry=entry, name=data["name"], club=data["club"],
                                                   member_number=data["member_number"],
                                                   categories=data["categories"],
                                                   publication=data["publication"] or None,
                                                   loaded=(data["loaded_name"], data["loaded_club"]),
                                                   by=Actor.of(request))
            except Conflict as error:
                conflict = error
                entry = _entry(tournament, entry_id)
                posted = request.POST.copy()  # saving again saves this input over the other change
                posted["loaded_name"], posted["loaded_club"] = entry.player.name, entry.player.club
                form = PlayerEditForm(posted, categories=categories)
            except UserError as error:
                form.add_error(error.field if error.field in form.fields else None, error.message)
            else:
                messages.success(request, _("Gespeichert: %(name)s (Startnummer %(number)s).")
                                 % {"name": entry.player.name, "number": entry.start_number})
                return redirect("tournament:players", slug=tournament.slug)
    return render(request, "tournament/player_edit.html", {
        "tournament": tournament, "is_director": True, "entry": entry, "form": form, "conflict": conflict},
        status=409 if conflict else 200)


@director_required
def player_categories(request, tournament):
    """Every player's categories in one table of boxes, saved at once (on the players' edit pages, 18
    players took 54 clicks). The form lists the entries it showed; a box left empty takes the
    category away."""
    entries = list(tournament.entries.select_related("player").order_by("start_number"))
    categories = category_choices(tournament)
    if request.method == "POST":
        try:
            shown = [int(value) for value in request.POST.getlist("entries")]
        except ValueError:
            shown = []
        try:
            if not shown or not all(0 < pk < 2**31 for pk in shown):
                raise UserError(_("Bitte die Seite neu laden: es kam keine Liste der Spieler an."))
            changed = player_details.set_many_categories(
                tournament=tournament, chosen={pk: request.POST.getlist(f"c{pk}") for pk in shown},
                by=Actor.of(request))
        except UserError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, ngettext("Kategorien von %(n)s Spieler gespeichert.",
                                               "Kategorien von %(n)s Spielern gespeichert.", changed) % {"n": changed})
            return redirect("tournament:player_categories", slug=tournament.slug)
    rows = [(entry, [(name, label, name in entry.categories) for name, label in categories.items()])
            for entry in entries]
    return render(request, "tournament/player_categories.html", {
        "tournament": tournament, "is_director": True, "rows": rows, "categories": categories})


def category_choices(tournament) -> dict[str, str]:
    """The tournament's categories, each stored name with what the reader sees."""
    return {name: str(Entry.CATEGORIES.get(name, name)) for name in tournament.category_names()}


@require_POST
@director_required
def player_return(request, tournament, entry_id):
    entry = _entry(tournament, entry_id)
    try:
        tournaments.return_player(entry=entry, by=Actor.of(request))
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(name)s spielt wieder mit, ab der nächsten Auslosung.")
                         % {"name": entry.player.name})
    return redirect("tournament:players", slug=tournament.slug)
