"""A table's score sheet and everything entered on it: games, penalties, totals, sign-off.

Directors and helpers enter results (`entry_required`); only a director unlocks a signed sheet or
restores an earlier version from the log. Every form carries what it was loaded from (a version, or
a one-time key for a new penalty): when someone else changed the same thing first, nothing is
saved and the page shows their change next to the person's own input, with "save mine anyway".
"""

from __future__ import annotations

import contextlib

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import formats, timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import engine, ranking, selectors
from ..errors import Conflict, EntryProblems, UserError
from ..forms.common import new_key
from ..forms.games import GameForm, PenaltyForm, SignForm, TotalsForm
from ..log import changelog
from ..log.audit import Actor
from ..models import DraftGame, Game, Table
from ..services import editing, penalties, results, scores, sheet_state
from ..vocabulary import ANNOUNCEMENTS, PARTIES, SONDERPUNKT_KEY, SONDERPUNKTE
from .access import DIRECTOR, director_required, entry_required


def get_table(tournament, round_number: int, table_number: int, request=None) -> Table:
    """The table; a table of a draft round only for directors (its seating is not out yet)."""
    table = get_object_or_404(Table.objects.select_related("round", "signed_by"),
                              round__tournament=tournament, round__number=round_number, number=table_number)
    table.round.tournament = tournament
    if request is not None and table.round.is_draft and not request.is_director:
        raise PermissionDenied
    return table


def table_url(table: Table):
    return redirect("tournament:table", slug=table.round.tournament.slug, round_number=table.round.number,
                    table_number=table.number)


def names_by_key(entries) -> dict[str, str]:
    return {str(e.id): e.player.name for e in entries}


def posted_version(request) -> int | None:
    """The version a posted form was loaded from; None when it sent none (an old page)."""
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


def _posted_int(request, name: str, default: int) -> int:
    try:
        return max(0, min(int(request.POST.get(name, "")), 2**31 - 1))
    except ValueError:
        return default


@entry_required
def table_sheet(request, tournament, round_number, table_number):
    table = get_table(tournament, round_number, table_number, request)
    sheet = selectors.table_sheet(table)
    rules = tournament.scoring_rules()
    return render(request, "tournament/table.html", {
        "tournament": tournament, "round": table.round, "table": table, "sheet": sheet, "rules": rules,
        "penalty_form": PenaltyForm(players=sheet.entries, auto_id="penalty_%s", initial={"key": new_key()}),
        "penalty_offender": 3 * rules.penalty_points,
        "sign_form": SignForm(auto_id="sign_%s", initial={"version": table.version}),
        "next_number": editing.next_game_number(table),
        "games_expected": table.expected_games(tournament.games_at_table(len(sheet.entries))),
        "log": changelog.entries(tournament, round_number=table.round.number, table_number=table.number, limit=50),
        "drafts": list(table.drafts.filter(status__in=[DraftGame.Status.WAITING, DraftGame.Status.REJECTED])
                       .order_by("number", "created_at")),
        "is_director": request.is_director,
    })


@entry_required
def game_new(request, tournament, round_number, table_number):
    """The form for the next game. The form is for that one game number: it posts to the game's
    own address (`game_form`), so that a second person entering the same game meanwhile is noticed
    instead of the game being stored under the next number."""
    table = get_table(tournament, round_number, table_number, request)
    next_number = number = editing.next_game_number(table)
    if request.method == "POST":
        with contextlib.suppress(ValueError):
            number = int(request.POST.get("number", number))
    if number > tournament.games_at_table(table.seats.count()):
        messages.info(request, _("Alle Spiele dieses Tisches sind eingetragen."))
        return table_url(table)
    return _game_form(request, tournament, table, number, next_number=next_number)


@entry_required
def game_form(request, tournament, round_number, table_number, number):
    return _game_form(request, tournament, get_table(tournament, round_number, table_number, request), number)


def _game_form(request, tournament, table: Table, number: int, *, next_number: int | None = None):
    """Game `number`, new (version 0) or as stored: the first submit (Enter) shows the computed
    scores, "Speichern" saves. A form that comes too late shows the other change (`Conflict`)."""
    round_number, table_number = table.round.number, table.number
    entries = selectors.seated_entries(table)
    if not 1 <= number <= tournament.games_at_table(len(entries)):
        raise Http404
    try:
        editing.check_editable(table)
    except UserError as error:
        messages.error(request, error.message)
        return table_url(table)
    existing = table.games.filter(number=number).first()
    if next_number is None:
        next_number = editing.next_game_number(table)
    # a new game's form other than the next number: the rule saving applies (`editing.check_in_order`: a
    # waiting entry's number is in order too); the next number is in order by definition
    if request.method == "GET" and existing is None and number != next_number:
        try:
            editing.check_in_order(table, number, existing)
        except UserError as error:
            messages.error(request, error.message)
            return table_url(table)
    deal = engine.game_deal(table, [e.id for e in entries], number)
    dealer_id, out_id, player_ids = deal.as_tuple()
    players = [e for e in entries if e.id in player_ids]
    rules = tournament.scoring_rules()
    preview = conflict = None
    if request.method == "POST":
        form = GameForm(request.POST, players=players, seats=entries, rules=rules, deal=deal,
                        pflichtsoli=bool(tournament.pflichtsoli))
        if form.is_valid():
            data = form.game_data()
            action = request.POST.get("action")
            version = form.cleaned_data["version"] or 0
            try:
                if action in ("save", "save_next", "overwrite"):
                    if action == "save_next":  # "mine is another game": the next free number
                        number, version = editing.next_game_number(table), 0
                    elif action == "overwrite":  # "save mine anyway": over the version it was shown
                        version = _posted_int(request, "current_version", version)
                    game = results.save_game(table=table, number=number, data=data, version=version,
                                             by=Actor.of(request))
                    scores = ", ".join(f"{name} {ranking.signed(points)}"
                                       for name, points in selectors.game_points(game, entries))
                    messages.success(request, _("Spiel %(number)s gespeichert: %(scores)s.")
                                     % {"number": game.number, "scores": scores})
                    if existing is None and game.number < tournament.games_at_table(len(entries)):
                        return redirect("tournament:game_new", slug=tournament.slug, round_number=round_number,
                                        table_number=table_number)
                    return table_url(table)
                preview = results.preview_game(table=table, data=data, number=number)
            except Conflict as error:
                conflict = error
                preview = _preview_or_none(table, data, number)
            except EntryProblems as error:
                form.add_engine_problems(error.by_field())
            except UserError as error:
                form.add_error(error.field if error.field in form.fields else None, error.message)
    else:
        initial = GameForm.initial_from(existing, entries) if existing else GameForm.initial_from_deal(deal, entries)
        form = GameForm(initial=initial, players=players, seats=entries, rules=rules, deal=deal,
                        pflichtsoli=bool(tournament.pflichtsoli))
    # the cursor: on the first field in error, else (before the scores are shown) on the Re party: a
    # normal game is the usual one, so keyboard entry starts after the game type
    focus = form.first_error_field() if form.is_bound and form.errors else None
    if focus is None and preview is None:
        # a list's last games are the Pflichtsoli of the players vorgeführt: the form starts at the solo's kind
        focus = "solo" if existing is None and deal.vorgefuehrt is not None else "re_seats"
    if focus in form.fields:
        form.fields[focus].widget.attrs["autofocus"] = True
    names = names_by_key(entries)
    current = conflict.current if conflict is not None else None
    is_editing = existing is not None and (request.method != "POST" or bool(_posted_int(request, "version", 0)))
    return render(request, "tournament/game_form.html", {
        "tournament": tournament, "round": table.round, "table": table, "form": form, "number": number,
        "editing": is_editing, "players": players,
        "dealer": next(e for e in entries if e.id == dealer_id),
        "sitting_out": next((e for e in entries if e.id == out_id), None),
        "pflichtsolo_open": [e for e in entries if e.id in deal.open_pflichtsoli],
        "vorgefuehrt": next((e for e in entries if e.id == deal.vorgefuehrt), None),
        "preview": preview,
        "preview_scores": [(names[key], points) for key, points in preview.scores.items()] if preview else [],
        "extras_parties": list(zip(PARTIES.values(), ("r", "k"), strict=True)),
        "announce_buttons": [(key + level, f"{PARTIES[party]} {ANNOUNCEMENTS[code]}" if level else PARTIES[party])
                             for party, key in (("re", "r"), ("kontra", "k"))
                             for level, code in (("", party), ("9", "keine90"), ("6", "keine60"), ("3", "keine30"),
                                                 ("s", "schwarz"))],
        "extras_kinds": [(kind, SONDERPUNKT_KEY[kind], SONDERPUNKTE[kind]) for kind in form.sonderpunkt_kinds()],
        "conflict": conflict, "current": current,
        "current_re": [names.get(str(e), "?") for e in current.re] if isinstance(current, Game) else [],
        "next_number": next_number,
    }, status=409 if conflict else 200)


@require_POST
@entry_required
def game_preview(request, tournament, round_number, table_number, number):
    """The scores the game form's input would get, as the form's script shows them while one types
    (nothing is saved): the preview section of the page, or what is still missing."""
    table = get_table(tournament, round_number, table_number, request)
    entries = selectors.seated_entries(table)
    if not 1 <= number <= tournament.games_at_table(len(entries)):
        raise Http404
    deal = engine.game_deal(table, [e.id for e in entries], number)
    players = [e for e in entries if e.id in deal.players]
    form = GameForm(request.POST, players=players, seats=entries, rules=tournament.scoring_rules(), deal=deal,
                    pflichtsoli=bool(tournament.pflichtsoli))
    preview, problems = None, []
    if form.is_valid():
        try:
            preview = results.preview_game(table=table, data=form.game_data(), number=number)
        except EntryProblems as error:
            problems = error.lines()
        except UserError as error:
            problems = [str(error.message)]
    else:
        problems = [f"{form.fields[name].label}: {' '.join(errors)}" if name in form.fields else " ".join(errors)
                    for name, errors in form.errors.items()]
    names = names_by_key(entries)
    return render(request, "tournament/_game_preview.html", {
        "preview": preview, "preview_problems": problems,
        "preview_scores": [(names[key], points) for key, points in preview.scores.items()] if preview else [],
    })


def _with_version(post, version: int):
    data = post.copy()
    data["version"] = str(version)
    return data


def _preview_or_none(table: Table, data: dict, number: int):
    try:
        return results.preview_game(table=table, data=data, number=number)
    except UserError:
        return None


@require_POST
@entry_required
def game_delete(request, tournament, round_number, table_number, number):
    """Asks first (a page with the game and a confirm button), then deletes the game as it was shown."""
    table = get_table(tournament, round_number, table_number, request)
    game = table.games.filter(number=number).first()
    if game is None:
        messages.info(request, _("Spiel %(number)s gibt es an diesem Tisch nicht (mehr).") % {"number": number})
        return table_url(table)
    if request.POST.get("confirm") != "yes":
        entries = selectors.seated_entries(table)
        return render(request, "tournament/confirm_delete_game.html", {
            "tournament": tournament, "round": table.round, "table": table, "game": game,
            "re_names": [e.player.name for e in entries if e.id in game.re]})
    try:
        results.delete_game(table=table, number=number, version=posted_version(request), by=Actor.of(request))
        messages.success(request, _("Spiel %(number)s gelöscht; der Spielzettel ist neu berechnet. Im "
                                    "Änderungsprotokoll lässt es sich wiederherstellen.") % {"number": number})
    except UserError as error:
        messages.error(request, error.message)
    return table_url(table)


@require_POST
@entry_required
def penalty_add(request, tournament, round_number, table_number):
    table = get_table(tournament, round_number, table_number, request)
    entries = selectors.seated_entries(table)
    form = PenaltyForm(request.POST, players=entries)
    if not form.is_valid():
        for field, errors in form.errors.items():
            for error in errors:
                label = form.fields[field].label if field in form.fields and field != "__all__" else ""
                messages.error(request, f"{label}: {error}" if label else error)
        return table_url(table)
    try:
        penalties.add_penalty(table=table, offender_id=form.cleaned_data["offender"],
                            game_number=form.cleaned_data["game_number"], note=form.cleaned_data["note"],
                            by=Actor.of(request), key=form.cleaned_data["key"] or None)
        messages.success(request, _("Strafe eingetragen."))
    except UserError as error:
        messages.error(request, error.message)
    return table_url(table)


@require_POST
@entry_required
def penalty_delete(request, tournament, round_number, table_number, penalty_id):
    """Asks first, then deletes the penalty."""
    table = get_table(tournament, round_number, table_number, request)
    penalty = table.penalties.select_related("offender__player").filter(pk=penalty_id).first()
    if penalty is None:
        messages.info(request, _("Diese Strafe gibt es nicht (mehr); vielleicht hat sie schon jemand gelöscht."))
        return table_url(table)
    if request.POST.get("confirm") != "yes":
        return render(request, "tournament/confirm_delete_penalty.html", {
            "tournament": tournament, "round": table.round, "table": table, "penalty": penalty})
    try:
        penalties.delete_penalty(table=table, penalty_id=penalty_id, by=Actor.of(request))
        messages.success(request, _("Strafe gelöscht. Im Änderungsprotokoll lässt sie sich wiederherstellen."))
    except UserError as error:
        messages.error(request, error.message)
    return table_url(table)


@entry_required
def table_totals(request, tournament, round_number, table_number):
    """Final totals of a paper sheet summed at the table, instead of game by game."""
    table = get_table(tournament, round_number, table_number, request)
    entries = selectors.seated_entries(table)
    most = scores.most_total(tournament, len(entries))
    initial = {"version": table.version}
    if table.totals_only:
        initial.update({f"p{key}": points for key, points in (table.entered_totals or {}).items()})
    form = TotalsForm(request.POST or None, players=entries, most=most, initial=initial)
    conflict = None
    if request.method == "POST":
        try:
            if request.POST.get("action") == "clear":
                sheet_state.clear_totals(table=table, version=posted_version(request), by=Actor.of(request))
                messages.success(request, _("Endstände gelöscht."))
                return table_url(table)
            if form.is_valid():
                sheet_state.enter_totals(table=table, totals=form.totals(), version=form.cleaned_data["version"],
                                     by=Actor.of(request))
                messages.success(request, _("Endstände gespeichert."))
                return table_url(table)
        except Conflict as error:
            conflict = error
            form = TotalsForm(_with_version(request.POST, error.version), players=entries, most=most)
            form.is_valid()
        except UserError as error:
            form.add_error(None, error.message)
    return render(request, "tournament/totals.html", {
        "tournament": tournament, "round": table.round, "table": table, "form": form, "conflict": conflict,
        "sheet": selectors.table_sheet(table) if conflict else None}, status=409 if conflict else 200)


@require_POST
@entry_required
def table_sign(request, tournament, round_number, table_number):
    """Marks the sheet as signed (directors and helpers) or unlocks it (directors only), as it was
    shown: a sheet changed since asks to look again."""
    table = get_table(tournament, round_number, table_number, request)
    try:
        if request.POST.get("action") == "unlock":
            if request.role != DIRECTOR:
                messages.error(request, _("Nur die Turnierleitung kann einen unterschriebenen Spielzettel entsperren."))
                return table_url(table)
            sheet_state.unlock_table(table=table, version=posted_version(request), by=Actor.of(request))
            messages.success(request, _("Spielzettel entsperrt."))
        else:
            form = SignForm(request.POST)
            if not form.is_valid():
                for errors in form.errors.values():
                    for error in errors:
                        messages.error(request, error)
                return table_url(table)
            sheet_state.sign_table(table=table, version=form.cleaned_data["version"], note=form.cleaned_data["note"],
                               by=Actor.of(request))
            messages.success(request, _("Spielzettel als unterschrieben gesperrt."))
    except Conflict as error:
        who = _conflict_who(error)
        messages.error(request, f"{error.message} {who}".strip())
    except UserError as error:
        messages.error(request, error.message)
    return table_url(table)


@require_POST
@director_required
def table_end(request, tournament, round_number, table_number):
    """Ends a table early (a player had to leave: the games so far count) or lets it play on."""
    table = get_table(tournament, round_number, table_number, request)
    try:
        if request.POST.get("action") == "resume":
            sheet_state.resume_table(table=table, version=posted_version(request), by=Actor.of(request))
            messages.success(request, _("Der Tisch spielt weiter."))
        else:
            sheet_state.end_table(table=table, note=request.POST.get("note", ""), version=posted_version(request),
                              by=Actor.of(request))
            messages.success(request, _("Tisch nach Spiel %(last)s beendet; weitere Spiele werden nicht erwartet.")
                             % {"last": table.ended_after})
    except Conflict as error:
        messages.error(request, f"{error.message} {_conflict_who(error)}".strip())
    except UserError as error:
        messages.error(request, error.message)
    return table_url(table)


def _conflict_who(error: Conflict) -> str:
    change = error.change
    if change is None:
        return ""
    return _("Zuletzt: %(what)s (%(subject)s) von %(user)s um %(time)s.") % {
        "what": change.label, "subject": change.subject, "user": change.user,
        "time": formats.time_format(timezone.localtime(change.at), "H:i:s")}


@require_POST
@entry_required
def restore(request, tournament, round_number, table_number, kind, history_id):
    """Puts back a game or penalty as a change log record holds it (directors only)."""
    table = get_table(tournament, round_number, table_number, request)
    if request.role != DIRECTOR:
        messages.error(request, _("Nur die Turnierleitung kann frühere Fassungen wiederherstellen."))
        return table_url(table)
    record = changelog.record(tournament, kind, history_id)
    if record is None or record.log_round != table.round.number or record.log_table != table.number:
        raise Http404
    try:
        if kind == "game":
            game = results.restore_game(table=table, record=record, by=Actor.of(request))
            messages.success(request, _("Spiel %(number)s ist wiederhergestellt.") % {"number": game.number})
        elif kind == "penalty":
            if penalties.restore_penalty(table=table, record=record, by=Actor.of(request)):
                messages.success(request, _("Die Strafe ist wiederhergestellt."))
            else:
                messages.info(request, _("Die Strafe ist schon wiederhergestellt."))
        else:
            raise Http404
    except UserError as error:
        messages.error(request, error.message)
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                                require_https=request.is_secure()):
        return redirect(back)
    return table_url(table)
