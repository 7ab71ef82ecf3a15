"""A table's score sheet and everything entered on it: games, penalties, totals, sign-off."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import selectors
from ..dealing import game_players
from ..errors import EntryProblems, UserError
from ..forms.games import GameForm, PenaltyForm, SignForm, TotalsForm
from ..models import Penalty, Table
from ..services import results
from .access import director_required


def get_table(tournament, round_number: int, table_number: int) -> Table:
    return get_object_or_404(Table.objects.select_related("round__tournament", "signed_by"),
                             round__tournament=tournament, round__number=round_number, number=table_number)


def table_url(table: Table):
    return redirect("tournament:table", slug=table.round.tournament.slug, round_number=table.round.number,
                    table_number=table.number)


def names_by_key(entries) -> dict[str, str]:
    return {str(e.id): e.player.name for e in entries}


@director_required
def table_sheet(request, tournament, round_number, table_number):
    table = get_table(tournament, round_number, table_number)
    sheet = selectors.table_sheet(table)
    return render(request, "tournament/table.html", {
        "tournament": tournament, "round": table.round, "table": table, "sheet": sheet,
        "rules": tournament.scoring_rules(),
        "penalty_form": PenaltyForm(players=sheet.entries, auto_id="penalty_%s"),
        "penalty_offender": 3 * tournament.scoring_rules().penalty_points,
        "sign_form": SignForm(auto_id="sign_%s"),
        "next_number": results.next_game_number(table),
        "games_expected": tournament.games_at_table(len(sheet.entries)),
    })


@director_required
def game_form(request, tournament, round_number, table_number, number=None):
    """New or edited game: the first submit (Enter) shows the computed scores, "Speichern" saves."""
    table = get_table(tournament, round_number, table_number)
    try:
        results.check_editable(table)
    except UserError as error:
        messages.error(request, error.message)
        return table_url(table)
    entries = selectors.seated_entries(table)
    game_number = number or results.next_game_number(table)
    dealer_id, out_id, player_ids = game_players([e.id for e in entries], game_number)
    players = [e for e in entries if e.id in player_ids]
    rules = tournament.scoring_rules()
    existing = table.games.filter(number=game_number).first()
    preview = None
    if request.method == "POST":
        form = GameForm(request.POST, players=players, rules=rules)
        if form.is_valid():
            data = form.game_data()
            try:
                if request.POST.get("action") == "save":
                    game = results.save_game(table=table, data=data, number=game_number)
                    messages.success(request, _("Spiel %(number)s gespeichert.") % {"number": game.number})
                    if number is None and results.next_game_number(table) <= tournament.games_at_table(len(entries)):
                        return redirect("tournament:game_new", slug=tournament.slug, round_number=round_number,
                                        table_number=table_number)
                    return table_url(table)
                preview = results.preview_game(table=table, data=data, number=game_number)
            except EntryProblems as error:
                form.add_engine_problems(error.by_field())
            except UserError as error:
                form.add_error(error.field if error.field in form.fields else None, error.message)
    else:
        initial = GameForm.initial_from(results.game_data(existing)) if existing else {}
        form = GameForm(initial=initial, players=players, rules=rules)
    if preview is None:
        form.fields["type"].widget.attrs["autofocus"] = True  # keyboard entry starts at the game type
    names = names_by_key(entries)
    return render(request, "tournament/game_form.html", {
        "tournament": tournament, "round": table.round, "table": table, "form": form, "number": game_number,
        "editing": existing is not None, "players": players,
        "dealer": next(e for e in entries if e.id == dealer_id),
        "sitting_out": next((e for e in entries if e.id == out_id), None),
        "preview": preview,
        "preview_scores": [(names[key], points) for key, points in preview.scores.items()] if preview else [],
    })


@require_POST
@director_required
def game_delete(request, tournament, round_number, table_number, number):
    table = get_table(tournament, round_number, table_number)
    try:
        results.delete_game(table=table, number=number)
        messages.success(request, _("Spiel %(number)s gelöscht; der Spielzettel ist neu berechnet.") % {"number": number})
    except UserError as error:
        messages.error(request, error.message)
    return table_url(table)


@require_POST
@director_required
def penalty_add(request, tournament, round_number, table_number):
    table = get_table(tournament, round_number, table_number)
    entries = selectors.seated_entries(table)
    form = PenaltyForm(request.POST, players=entries)
    if not form.is_valid():
        for field, errors in form.errors.items():
            for error in errors:
                messages.error(request, f"{form.fields[field].label if field in form.fields else ''}: {error}")
        return table_url(table)
    try:
        results.add_penalty(table=table, offender_id=form.cleaned_data["offender"],
                            game_number=form.cleaned_data["game_number"], note=form.cleaned_data["note"])
        messages.success(request, _("Strafe eingetragen."))
    except UserError as error:
        messages.error(request, error.message)
    return table_url(table)


@require_POST
@director_required
def penalty_delete(request, tournament, round_number, table_number, penalty_id):
    table = get_table(tournament, round_number, table_number)
    penalty = get_object_or_404(Penalty, pk=penalty_id, table=table)
    try:
        results.delete_penalty(penalty=penalty)
        messages.success(request, _("Strafe gelöscht."))
    except UserError as error:
        messages.error(request, error.message)
    return table_url(table)


@director_required
def table_totals(request, tournament, round_number, table_number):
    """Final totals of a paper sheet summed at the table, instead of game by game."""
    table = get_table(tournament, round_number, table_number)
    entries = selectors.seated_entries(table)
    form = TotalsForm(request.POST or None, players=entries)
    if request.method == "POST":
        try:
            if request.POST.get("action") == "clear":
                results.clear_totals(table=table)
                messages.success(request, _("Endstände gelöscht."))
                return table_url(table)
            if form.is_valid():
                results.enter_totals(table=table, totals=form.totals())
                messages.success(request, _("Endstände gespeichert."))
                return table_url(table)
        except UserError as error:
            form.add_error(None, error.message)
    return render(request, "tournament/totals.html", {
        "tournament": tournament, "round": table.round, "table": table, "form": form})


@require_POST
@director_required
def table_sign(request, tournament, round_number, table_number):
    table = get_table(tournament, round_number, table_number)
    try:
        if request.POST.get("action") == "unlock":
            results.unlock_table(table=table)
            messages.success(request, _("Spielzettel entsperrt."))
        else:
            form = SignForm(request.POST)
            note = form.cleaned_data["note"] if form.is_valid() else ""
            results.sign_table(table=table, user=request.user, note=note)
            messages.success(request, _("Spielzettel als unterschrieben gesperrt."))
    except UserError as error:
        messages.error(request, error.message)
    return table_url(table)
