"""The table's entry link, /e/<token>/: the page the players' phones open from the QR code on the
score sheet, and the JSON it talks to. No account needed: the unguessable token is the permission,
and it stops working when the director revokes it, the round is closed or the sheet is signed.

The page works offline: its script keeps entries on the phone and sends them when the connection
returns (each with a one-time key, so a retry never makes a second game), and a service worker keeps
the page itself, so that a reload without Wi-Fi still shows it.

Who a device is, the server says: the first answer gives the phone a signed, HttpOnly cookie with a
random device id (`DEVICE_COOKIE`), which the change log records and which decides whose entry is
whose; an id in the phone's JSON is ignored. A confirmation or "stimmt" needs a device the server
knows already.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from django.http import JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from .. import selectors, vocabulary
from ..errors import Conflict, EntryProblems, UserError, language
from ..forms.phone import clean_game, clean_int, clean_penalty, clean_text
from ..models import DraftGame, Round, Table
from ..selectors import table_state
from ..services import results, table_links
from ..services.table_links import LinkClosed
from ..web import rate_limits

MOST_BODY = 20_000  # bytes: a game is a few hundred
MOST_PENDING = 30  # games of the phone's queue a preview takes into account
DEVICE_COOKIE = "doko_device"
DEVICE_SALT = "tournament.table_link.device"
DEVICE_AGE = 60 * 60 * 24 * 365  # a year: the same phone is the same device all season

# what the page's script says, in the reader's language (%(n)s, %(name)s … are filled in by the script)
TEXTS = {
    "enter": gettext_lazy("Spiel %(n)s eintragen"),
    "me": gettext_lazy("Du bist %(name)s."),
    "dealer": gettext_lazy("Geber: %(name)s"),
    "sitsOut": gettext_lazy("%(name)s sitzt aus"),
    "save": gettext_lazy("Spiel %(n)s speichern"),
    "kontraAugen": gettext_lazy("Kontra: %(n)s Augen"),
    "online": gettext_lazy("Verbunden."),
    "offline": gettext_lazy("Keine Verbindung: Eingaben bleiben auf diesem Gerät und werden gesendet, sobald "
                            "die Verbindung wieder da ist."),
    "waiting": gettext_lazy("%(n)s Eingabe(n) warten auf Verbindung."),
    "queued": gettext_lazy("Spiel %(n)s ist auf dem Gerät gespeichert und wird gesendet."),
    "sent": gettext_lazy("Spiel %(n)s ist angekommen."),
    "failed": gettext_lazy("Spiel %(n)s wurde nicht übernommen: %(message)s"),
    "allIn": gettext_lazy("Alle Spiele sind eingetragen."),
    "confirm": gettext_lazy("Bestätigen"),
    "reject": gettext_lazy("Ablehnen"),
    "ownEntry": gettext_lazy("Deine Eingabe: ein anderer Spieler bestätigt sie auf seinem Gerät."),
    "byDirector": gettext_lazy("Die Turnierleitung bestätigt die Eingaben."),
    "enteredBy": gettext_lazy("eingegeben von %(name)s"),
    "rejected": gettext_lazy("abgelehnt"),
    "conflict": gettext_lazy("passt nicht mehr zum Spielzettel: die Turnierleitung entscheidet"),
    "pending": gettext_lazy("wartet auf Verbindung"),
    "draftWaiting": gettext_lazy("wartet auf Bestätigung"),
    "approveText": gettext_lazy("Alle Spiele sind eingetragen. Jeder Spieler prüft den Spielzettel und tippt auf "
                                "seinem Gerät „Stimmt“; dann ist er unterschrieben."),
    "approveButton": gettext_lazy("Stimmt (%(name)s)"),
    "approved": gettext_lazy("„Stimmt“: %(names)s"),
    "chooseFirst": gettext_lazy("Bitte oben wählen, wer du bist."),
    "signed": gettext_lazy("Der Spielzettel ist unterschrieben."),
    "sum": gettext_lazy("Summe"),
    "game": gettext_lazy("Spiel"),
    "winsRe": gettext_lazy("Re gewinnt."),
    "winsKontra": gettext_lazy("Kontra gewinnt."),
    "winsNobody": gettext_lazy("Keine Partei gewinnt."),
    "value": gettext_lazy("Spielwert %(n)s."),
    "notOpen": gettext_lazy("Noch nicht eingetragen"),
    "rejectReason": gettext_lazy("Warum abgelehnt? (z. B. falsche Augen)"),
    "label": gettext_lazy("%(tournament)s, Runde %(round)s, Tisch %(table)s"),
    "storageFull": gettext_lazy("Das Gerät kann nichts mehr speichern: bitte die Eingaben der Turnierleitung "
                                "zeigen."),
    "reAugen": gettext_lazy("%(n)s Augen Re"),
    "noAnswer": gettext_lazy("Der Server antwortet gerade nicht; neuer Versuch in %(s)s s. Die Eingaben bleiben "
                             "auf dem Gerät."),
    "serverBusy": gettext_lazy("Der Server konnte die Eingabe gerade nicht annehmen (%(status)s); neuer Versuch in "
                               "%(s)s s. Die Eingaben bleiben auf dem Gerät."),
    "stopped": gettext_lazy("Spiel %(n)s wurde nicht übernommen: bitte oben korrigieren. %(m)s weitere Eingabe(n) "
                            "warten dahinter."),
    "closed": gettext_lazy("Dieser Eingabelink nimmt keine Spiele mehr an."),
    "clockUntil": gettext_lazy("Spielzeit bis %(end)s Uhr"),
    "clockLeft": gettext_lazy("noch %(m)s Min."),
    "clockOver": gettext_lazy("Zeit ist um (seit %(m)s Min.)"),
    "penalty": gettext_lazy("Strafe: %(name)s"),
    "keptHere": gettext_lazy("%(n)s Eingabe(n) sind nur auf diesem Gerät (siehe unten)."),
    "correct": gettext_lazy("Spiel %(n)s korrigieren"),
    "discardAsk": gettext_lazy("Die Eingabe für Spiel %(n)s wirklich verwerfen?"),
    "discarded": gettext_lazy("Die Eingabe für Spiel %(n)s ist verworfen."),
    "tryAgain": gettext_lazy("Das hat nicht geklappt (%(status)s); bitte gleich noch einmal tippen."),
    "refusedHere": gettext_lazy("nicht übernommen: bitte oben korrigieren"),
    "storedIs": gettext_lazy("Gespeichert ist: %(game)s"),
    "correctThis": gettext_lazy("Korrigieren"),
    "stepMore": gettext_lazy("%(what)s für %(party)s: einer mehr"),
    "stepLess": gettext_lazy("%(what)s für %(party)s: einer weniger"),
    "stepCount": gettext_lazy("%(what)s für %(party)s: %(n)s"),
}


def device_of(request) -> str:
    """The device id from the request's signed cookie ("" when it has none or a forged one)."""
    value = request.get_signed_cookie(DEVICE_COOKIE, default="", salt=DEVICE_SALT)
    return value if isinstance(value, str) and 16 <= len(value) <= 64 and value.isalnum() else ""


def new_device() -> str:
    return secrets.token_hex(16)


def with_device(request, response, device: str):
    """Gives the phone its device cookie (again), HttpOnly and for the entry links only."""
    if device and device_of(request) != device:
        response.set_signed_cookie(DEVICE_COOKIE, device, salt=DEVICE_SALT, max_age=DEVICE_AGE, path="/e/",
                                   httponly=True, samesite="Lax", secure=request.is_secure())
    return response


def _unknown_device() -> UserError:
    return UserError(_("Dieses Gerät ist dem Server noch nicht bekannt: bitte die Seite neu laden und noch "
                       "einmal tippen."))


def _closed(request, error: LinkClosed, *, json_answer: bool, token: str = ""):
    """The answer of a link that takes no entries. The page of a table whose round is closed or whose
    sheet is signed (its link still names it) shows the table's final sheet, to read; that of a table
    whose round is not yet published (its link is made when it is drawn) shows nothing of its seating,
    which the director may still draw again."""
    if json_answer:
        return JsonResponse({"closed": True, "message": str(error.message)}, status=410)
    table = (Table.objects.select_related("round__tournament").filter(link_token=token).first()
             if token else None)
    not_yet = table is not None and table.round.status == Round.Status.DRAFT
    sheet = selectors.table_sheet(table) if table is not None and not not_yet else None
    return render(request, "tournament/link_closed.html", {"message": error.message, "sheet": sheet,
                                                           "table": table, "not_yet": not_yet}, status=410)


def _body(request) -> dict:
    if len(request.body) > MOST_BODY:
        raise UserError(_("Die Eingabe ist zu groß."))
    try:
        data = json.loads(request.body.decode("utf-8") or "{}")
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise UserError(_("Die Eingabe kam unlesbar an; bitte noch einmal senden.")) from None
    if not isinstance(data, dict):
        raise UserError(_("Die Eingabe kam unlesbar an; bitte noch einmal senden."))
    return data


def _problems(error: UserError) -> dict[str, Any]:
    answer: dict[str, Any] = {"message": str(error.message)}
    if isinstance(error, EntryProblems):
        answer["problems"] = error.by_field()
    elif error.field:  # a problem of one field: shown at it on the phone
        answer["problems"] = {error.field: [str(error.message)]}
    return answer


@never_cache
@require_GET
def entry_page(request, token):
    try:
        table = table_links.table_of_link(token)
    except LinkClosed as error:
        return _closed(request, error, json_answer=False, token=token)
    device = device_of(request) or new_device()
    return with_device(request, render(request, "tournament/table_link.html", {
        "table": table, "round": table.round, "tournament": table.round.tournament,
        "state": table_state.phone_state(table, device=device), "spec": table_state.form_spec(table), "token": token,
        "queue_key": f"{table.round.tournament_id}-{table.round.number}-{table.number}",
        "lang": language(), "texts": {key: str(text) for key, text in TEXTS.items()},
    }), device)


@never_cache
@require_GET
def state(request, token):
    try:
        table = table_links.table_of_link(token)
    except LinkClosed as error:
        return _closed(request, error, json_answer=True)
    device = device_of(request) or new_device()
    return with_device(request, JsonResponse(table_state.phone_state(table, device=device)), device)


def _pending(raw) -> dict[int, dict]:
    """The games of the phone's queue a preview is sent with: [{"number", "data"}, …], shape-checked."""
    if not isinstance(raw, list):
        return {}
    pending: dict[int, dict] = {}
    for item in raw[:MOST_PENDING]:
        if isinstance(item, dict):
            try:
                pending[clean_int(item.get("number"), low=1, high=99)] = clean_game(item.get("data"))
            except UserError:
                continue
    return pending


@csrf_exempt
@require_POST
def preview(request, token):
    """The scores a game would get at this table (nothing is saved), or what is wrong with it. The
    games before it that wait (at the table, or in the phone's queue) count, as they will."""
    if seconds := rate_limits.table_link_over(request, token):
        return rate_limits.table_link_answer(seconds)
    try:
        table = table_links.table_of_link(token)
        body = _body(request)
        number = clean_int(body.get("number"), low=1, high=99)
        pending = table_links.pending_games(table, _pending(body.get("pending")))
        row = results.preview_game(table=table, data=clean_game(body.get("data")), number=number, pending=pending)
    except LinkClosed as error:
        return _closed(request, error, json_answer=True)
    except UserError as error:
        return JsonResponse(_problems(error), status=422)
    return JsonResponse({"number": number, "winner": row.result.winner, "value": row.result.value,
                         "multiplier": row.multiplier, "scores": {int(k): v for k, v in row.scores.items()},
                         "breakdown": [list(item) for item in vocabulary.breakdown(row.result.breakdown)]})


@csrf_exempt
@require_POST
def enter(request, token):
    """A game from a phone (a retry with the same key is answered like the first time). Every answer
    names the game it is about (`key`), so that the phone takes a game out of its queue only on an
    answer about that game; a 429 (too many through this link, `rate_limits`) keeps it in the queue."""
    if seconds := rate_limits.table_link_over(request, token):
        return rate_limits.table_link_answer(seconds)
    device = device_of(request) or new_device()
    key = ""
    try:
        body = _body(request)
        key = clean_text(body.get("key"), 64, required=False)
        table_links.table_of_link(token)  # a closed link says so first, whatever the game
        raw = body.get("data")
        draft = table_links.enter_game(
            token=token, number=clean_int(body.get("number"), low=1, high=99), data=clean_game(raw),
            penalty=clean_penalty(raw.get("penalty") if isinstance(raw, dict) else None),
            key=key, device=device, version=clean_int(body.get("version"), low=0, high=2**31, required=False) or 0,
            player_id=clean_int(body.get("player"), low=1, high=2**62, required=False))
    except LinkClosed as error:
        return with_device(request, JsonResponse({"closed": True, "key": key, "message": str(error.message)},
                                                 status=410), device)
    except UserError as error:
        return with_device(request, JsonResponse({**_problems(error), "key": key}, status=422), device)
    answer: dict[str, Any] = {"key": draft.key, "draft": draft.pk, "status": draft.status, "number": draft.number,
                              "state": table_state.phone_state(draft.table, device=device)}
    if draft.status == DraftGame.Status.WAITING and table_state.draft_conflicts(draft, table_state.stored_games(draft)):
        answer["conflict"] = True
        answer["message"] = str(_("Spiel %(number)s war inzwischen schon anders eingetragen. Deine Eingabe wartet: "
                                  "die Turnierleitung entscheidet, welche Fassung gilt.") % {"number": draft.number})
    return with_device(request, JsonResponse(answer), device)


@csrf_exempt
@require_POST
def decide(request, token, draft_id):
    """A second player confirms or rejects a draft on their phone (a device the server knows)."""
    if seconds := rate_limits.table_link_over(request, token):
        return rate_limits.table_link_answer(seconds)
    device = device_of(request)
    try:
        body = _body(request)
        if not device:
            raise _unknown_device()
        draft = table_links.decide_on_link(
            token=token, draft_id=draft_id, confirm=bool(body.get("confirm")), device=device,
            player_id=clean_int(body.get("player"), low=1, high=2**62, required=False),
            reason=clean_text(body.get("reason"), 200, required=False))
    except LinkClosed as error:
        return _closed(request, error, json_answer=True)
    except UserError as error:
        return with_device(request, JsonResponse(_problems(error), status=422), device or new_device())
    return JsonResponse({"draft": draft.pk, "status": draft.status,
                         "state": table_state.phone_state(draft.table, device=device)})


@csrf_exempt
@require_POST
def approve(request, token):
    """A player taps "stimmt" for the sheet as shown (on a device the server knows)."""
    if seconds := rate_limits.table_link_over(request, token):
        return rate_limits.table_link_answer(seconds)
    device = device_of(request)
    try:
        body = _body(request)
        if not device:
            raise _unknown_device()
        table = table_links.approve_sheet(
            token=token, device=device,
            player_id=clean_int(body.get("player"), low=1, high=2**62, required=False),
            version=clean_int(body.get("version"), low=0, high=2**31))
    except LinkClosed as error:
        return _closed(request, error, json_answer=True)
    except Conflict as error:
        return JsonResponse({"message": str(error.message)}, status=409)
    except UserError as error:
        return with_device(request, JsonResponse(_problems(error), status=422), device or new_device())
    return JsonResponse({"signed": table.is_locked, "state": table_state.phone_state(table, device=device)})


@require_GET
def service_worker(request, token):
    """The service worker that keeps the entry page on the phone (scope: this link only)."""
    script = render(request, "tournament/table_link_sw.js", {
        "page": request.path.rsplit("/", 1)[0] + "/", "assets": [static("css/site.css"), static("js/table_entry.js")],
    }, content_type="text/javascript; charset=utf-8")
    script["Cache-Control"] = "no-cache"
    return script
