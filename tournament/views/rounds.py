"""A round's seating: creating the round, the draw, swaps and moves, publishing and closing.

Every form of the round page carries the round's version (and the draw, swap and move forms a
one-time key): a form that comes after someone else's change of the round saves nothing and says so,
with a button to do it anyway. Closing a round asks first and says what is still missing.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from scoring.rating_forecast import win_shares

from .. import privacy
from ..collation import name_key
from ..errors import Conflict, UserError
from ..forms.common import clean_key, new_key
from ..forms.rounds import DrawForm, MoveForm, SwapForm
from ..log.audit import Actor
from ..models import Round, Tournament
from ..selectors import missing_results, repeat_pairs, round_progress, round_tables
from ..selectors.ratings import ratings_before
from ..services import seating
from ..web import cache_keys, caching, front, warming
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


def _version(request) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


def _conflict(request, round: Round, error: Conflict, action_url: str, what: str):
    """The round page again, with the other change and a button that repeats the person's action
    on the round as it is now."""
    fields = [(name, value) for name, value in request.POST.items()
              if name not in ("csrfmiddlewaretoken", "version", "key")]
    return round_page(request, round, conflict={
        "error": error, "url": action_url, "fields": fields, "version": error.version, "what": what,
        "key": new_key()})


@public_or_director("seating")
def round_detail(request, tournament, round_number):
    """The seating of a round. For a visitor it shows no results (only who sits where), so it changes
    only with the setup (`caching.setup_counter`): a game saved at any table leaves it as it is, and
    the whole page comes from the shared cache (the round-start rush: every player opens it at once)."""
    if not caching.for_everyone(request):
        return round_page(request, _round(tournament, round_number))
    # the expected result per table moves with every result of the earlier rounds: the change counter
    check = "change" if shows_forecast(tournament) else "setup"
    # (both read with the tournament by its slug: `caching.tournament_by_slug`)
    counter = (caching.request_counter(request, tournament) if check == "change"
               else caching.request_setup_counter(request, tournament))
    poll = caching.Poll(request, tournament, page="round", variant=(round_number,), personal=True, counter=counter)
    not_modified = poll.not_modified()
    if not_modified is not None:
        return not_modified
    key = cache_keys.round_page(tournament.pk, counter, round_number=round_number, path=request.get_full_path())
    response = caching.whole_page(request, key, lambda: round_page(request, _round(tournament, round_number)))
    return front.keep(poll.finish(response), check, tournament.pk, value=counter)


def shows_forecast(tournament) -> bool:
    """Each table's expected result is shown (docs/rating.md): switched on, with the rating on, and not
    for a tournament that counts for the Rangliste (the settings refuse that too)."""
    return tournament.rating_forecast and not tournament.counts_for_rangliste and tournament.rating_on


def forecast(round: Round, tables, *, public: bool, include_hidden: bool) -> dict[int, str]:
    """entry id -> the share of games the player is expected to win at his table ("55 %"), from the
    ratings before the round (without `include_hidden`: from the rounds whose results are not hidden);
    none for a player not published (on the public page) and none at all before anyone has a rating
    (everyone would be 50 %)."""
    before = ratings_before(round.tournament, round.number, include_hidden=include_hidden)
    if not before:
        return {}
    shown = {}
    for seated in tables:
        if seated.size not in (4, 5):
            continue
        keys = [str(entry.id) for entry in seated.entries]
        shares = win_shares({str(e): r for e, r in before.items()}, keys)
        for entry in seated.entries:
            if public and entry.player.publication == privacy.HIDDEN:
                continue
            shown[entry.id] = f"{round_half_up(shares[str(entry.id)] * 100)} %"
    return shown


def round_half_up(value: float) -> int:
    return int(value + 0.5)


def round_page(request, round: Round, *, conflict: dict | None = None):
    """The tables of a round in seat order. A draft is the director's only; they also get the draw,
    swap, move and publish forms. A published round can be read by everyone (while the seating
    page is switched on); directors and helpers get the link to each table's sheet."""
    tournament = round.tournament
    director = request.is_director
    if round.is_draft and not director:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied
    tables = round_tables(round, public=not request.can_enter)
    # how far each table is: for those who enter results (a visitor's seating changes only with the setup)
    progress = round_progress(round) if request.can_enter and not round.is_draft else {}
    shares = forecast(round, tables, public=not request.can_enter,
                      include_hidden=director) if shows_forecast(tournament) else {}
    rows = [{"seated": t, "progress": progress.get(t.table.id, {}),
             "players": [(entry, shares.get(entry.id, "")) for entry in t.entries],
             "games_expected": t.table.expected_games(tournament.games_at_table(t.size))} for t in tables]
    context = {
        "tournament": tournament, "round": round, "is_director": director, "can_enter": request.can_enter,
        "tables": rows, "conflict": conflict, "forecast": bool(shares),
        "tables_of_4": sum(1 for t in tables if t.size == 4), "tables_of_5": sum(1 for t in tables if t.size == 5),
        "players": sum(t.size for t in tables),
        "by_name": sorted(((entry.player.name, t.table.number, position) for t in tables
                           for position, entry in enumerate(t.entries, start=1)), key=lambda item: name_key(item[0])),
        "key": new_key(),
        "repeat_pairs": repeat_pairs(round) if director and round.repeat_meetings else [],
    }
    if director and round.is_draft:
        # drawing by standings and publishing go by the results as they are: say what is missing
        context["earlier_missing"] = missing_results(tournament, include_closed=False).sentences()  # the running rounds
        seated = {entry.id for t in tables for entry in t.entries}
        playing = {entry.id for entry in seating.playing_entries(tournament, round.number)}
        context.update({
            "draw_form": DrawForm(round=round),
            "swap_form": SwapForm(tables=tables),
            "move_form": MoveForm(tables=tables),
            "playing": len(playing),
            "out_of_date": bool(tables) and seated != playing,
        })
    return render(request, "tournament/round.html", context, status=409 if conflict else 200)


@require_POST
@director_required
def round_create(request, tournament):
    """Creates the round the page offered (its number is sent along): pressed twice, or by two
    directors at once, it is created once."""
    try:
        number = int(request.POST.get("number", ""))
    except ValueError:
        number = None
    try:
        round = seating.create_round(tournament=tournament, number=number, by=Actor.of(request))
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
    separate_clubs = form.cleaned_data.get("separate_clubs", False)
    try:
        result = seating.seat_round(round=round, mode=form.cleaned_data["mode"], seed=seed, version=_version(request),
                                    by=Actor.of(request), key=clean_key(request.POST.get("key")),
                                    separate_clubs=separate_clubs, apart=form.cleaned_data["apart"])
    except Conflict as error:
        return _conflict(request, round, error, request.path, _("Auslosen"))
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, ngettext(
            "Runde %(round)s ausgelost: %(tables)s Tisch, %(meetings)s Wiederbegegnungen.",
            "Runde %(round)s ausgelost: %(tables)s Tische, %(meetings)s Wiederbegegnungen.",
            len(result.tables)) % {"round": round.number, "tables": len(result.tables),
                                   "meetings": result.repeat_meetings})
        if result.repeat_meetings:  # how close the draw came to the fewest possible
            messages.info(request, _("Untergrenze der Wiederbegegnungen: %(bound)s (weniger geht mit diesen Spielern "
                                     "nach den bisherigen Runden nicht).") % {"bound": result.lower_bound})
        if result.apart_together:
            messages.warning(request, ngettext(
                "%(n)s Paar, das getrennt sitzen sollte, sitzt doch an einem Tisch: die Auslosung fand keine "
                "Verteilung ohne.",
                "%(n)s Paare, die getrennt sitzen sollten, sitzen doch an einem Tisch: die Auslosung fand keine "
                "Verteilung ohne.",
                result.apart_together) % {"n": result.apart_together})
        if separate_clubs and result.club_pairs:
            messages.info(request, ngettext(
                "Spieler desselben Vereins am selben Tisch: %(n)s Paar.",
                "Spieler desselben Vereins am selben Tisch: %(n)s Paare.",
                result.club_pairs) % {"n": result.club_pairs})
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
        seating.swap_players(round=round, first_id=form.cleaned_data["first"], second_id=form.cleaned_data["second"],
                             version=_version(request), by=Actor.of(request), key=clean_key(request.POST.get("key")))
    except Conflict as error:
        return _conflict(request, round, error, request.path, _("Tauschen"))
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
        seating.move_player(round=round, entry_id=form.cleaned_data["entry"], table_number=form.cleaned_data["table"],
                            version=_version(request), by=Actor.of(request), key=clean_key(request.POST.get("key")))
    except Conflict as error:
        return _conflict(request, round, error, request.path, _("Verschieben"))
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Spieler an Tisch %(table)s gesetzt.") % {"table": form.cleaned_data["table"]})
    return _back(round)


STATUS_ACTIONS = {
    "publish": (seating.publish_round, gettext_lazy("Veröffentlichen"),
                gettext_lazy("Runde %(round)s ist veröffentlicht: die Tische stehen fest.")),
    "close": (seating.close_round, gettext_lazy("Abschließen"), gettext_lazy("Runde %(round)s ist abgeschlossen.")),
    "reopen": (seating.reopen_round, gettext_lazy("Wieder öffnen"),
               gettext_lazy("Runde %(round)s ist wieder offen. Jeder Tisch hat einen neuen Eingabelink: die neuen "
                            "QR-Codes drucken oder zeigen.")),
    "hide": (seating.hide_results, gettext_lazy("Ergebnisse verbergen"),
             gettext_lazy("Die Ergebnisse von Runde %(round)s sind öffentlich verborgen.")),
    "show": (seating.show_results, gettext_lazy("Ergebnisse bekanntgeben"),
             gettext_lazy("Die Ergebnisse von Runde %(round)s sind öffentlich sichtbar.")),
}


@require_POST
@director_required
def round_status(request, tournament, round_number):
    round = _round(tournament, round_number)
    name = request.POST.get("action", "")
    action = STATUS_ACTIONS.get(name)
    if action is None:
        messages.error(request, _("Diese Aktion gibt es nicht."))
        return _back(round)
    service, label, text = action
    if name == "close" and request.POST.get("confirm") != "yes" and round.status == Round.Status.PUBLISHED:
        return _confirm_close(request, round)
    try:
        service(round=round, version=_version(request), by=Actor.of(request))
    except Conflict as error:
        return _conflict(request, round, error, request.path, str(label))
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, text % {"round": round.number})
        if name == "publish":
            warming.after_publish(round)  # the phones' pages rendered before the announcement brings them
    return _back(round)


def _confirm_close(request, round: Round):
    """Closing asks first, and says which games are still missing, which entries from the tables
    wait for confirmation and how many sheets are unsigned (a table that ended early expects fewer)."""
    missing = missing_results(round.tournament, rounds=[round.number])
    return render(request, "tournament/confirm_close.html", {
        "tournament": round.tournament, "round": round, "missing": missing.games, "unsigned": missing.unsigned,
        "lines": [line for line in missing.sentences() if missing.games or missing.waiting],
        "tables": len(missing.tables), "version": _version(request) or round.version})
