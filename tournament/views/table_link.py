"""The table's entry link, /e/<token>/: the page the players' phones open from the QR code on the
score sheet, and the JSON it talks to. No account needed: the unguessable token is the permission,
and it stops working when the director revokes it, the round is closed or the sheet is signed.

The page works offline: its script keeps entries on the phone and sends them when the connection
returns (each with a one-time key, so a retry never makes a second game), and a service worker keeps
the page itself, so that a reload without Wi-Fi still shows it.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from .. import table_state, vocabulary
from ..errors import Conflict, EntryProblems, UserError, language
from ..forms.phone import clean_game, clean_int, clean_text
from ..services import results, table_links
from ..services.table_links import LinkClosed

MOST_BODY = 20_000  # bytes: a game is a few hundred

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
}


def _closed(request, error: LinkClosed, *, json_answer: bool):
    if json_answer:
        return JsonResponse({"closed": True, "message": str(error.message)}, status=410)
    return render(request, "tournament/link_closed.html", {"message": error.message}, status=410)


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
    return answer


@never_cache
@require_GET
def entry_page(request, token):
    try:
        table = table_links.table_of_link(token)
    except LinkClosed as error:
        return _closed(request, error, json_answer=False)
    return render(request, "tournament/table_link.html", {
        "table": table, "round": table.round, "tournament": table.round.tournament,
        "state": table_state.phone_state(table), "spec": table_state.form_spec(table), "token": token,
        "lang": language(), "texts": {key: str(text) for key, text in TEXTS.items()},
    })


@never_cache
@require_GET
def state(request, token):
    try:
        table = table_links.table_of_link(token)
    except LinkClosed as error:
        return _closed(request, error, json_answer=True)
    return JsonResponse(table_state.phone_state(table))


@csrf_exempt
@require_POST
def preview(request, token):
    """The scores a game would get at this table (nothing is saved), or what is wrong with it."""
    try:
        table = table_links.table_of_link(token)
        body = _body(request)
        number = clean_int(body.get("number"), low=1, high=99)
        row = results.preview_game(table=table, data=clean_game(body.get("data")), number=number)
    except LinkClosed as error:
        return _closed(request, error, json_answer=True)
    except UserError as error:
        return JsonResponse(_problems(error), status=422)
    return JsonResponse({"winner": row.result.winner, "value": row.result.value, "multiplier": row.multiplier,
                         "scores": {int(k): v for k, v in row.scores.items()},
                         "breakdown": [list(item) for item in vocabulary.breakdown(row.result.breakdown)]})


@csrf_exempt
@require_POST
def enter(request, token):
    """A game from a phone (a retry with the same key is answered like the first time)."""
    try:
        body = _body(request)
        draft = table_links.enter_game(
            token=token, number=clean_int(body.get("number"), low=1, high=99), data=clean_game(body.get("data")),
            key=clean_text(body.get("key"), 64), device=clean_text(body.get("device"), 64),
            player_id=clean_int(body.get("player"), low=1, high=2**62, required=False))
    except LinkClosed as error:
        return _closed(request, error, json_answer=True)
    except UserError as error:
        return JsonResponse(_problems(error), status=422)
    return JsonResponse({"draft": draft.pk, "status": draft.status, "number": draft.number,
                         "state": table_state.phone_state(draft.table)})


@csrf_exempt
@require_POST
def decide(request, token, draft_id):
    """A second player confirms or rejects a draft on their phone."""
    try:
        body = _body(request)
        draft = table_links.decide_on_link(
            token=token, draft_id=draft_id, confirm=bool(body.get("confirm")),
            device=clean_text(body.get("device"), 64),
            player_id=clean_int(body.get("player"), low=1, high=2**62, required=False),
            reason=clean_text(body.get("reason"), 200, required=False))
    except LinkClosed as error:
        return _closed(request, error, json_answer=True)
    except UserError as error:
        return JsonResponse(_problems(error), status=422)
    return JsonResponse({"draft": draft.pk, "status": draft.status, "state": table_state.phone_state(draft.table)})


@csrf_exempt
@require_POST
def approve(request, token):
    """A player taps "stimmt" for the sheet as shown."""
    try:
        body = _body(request)
        table = table_links.approve_sheet(
            token=token, device=clean_text(body.get("device"), 64),
            player_id=clean_int(body.get("player"), low=1, high=2**62, required=False),
            version=clean_int(body.get("version"), low=0, high=2**31))
    except LinkClosed as error:
        return _closed(request, error, json_answer=True)
    except Conflict as error:
        return JsonResponse({"message": str(error.message)}, status=409)
    except UserError as error:
        return JsonResponse(_problems(error), status=422)
    return JsonResponse({"signed": table.is_locked, "state": table_state.phone_state(table)})


@require_GET
def service_worker(request, token):
    """The service worker that keeps the entry page on the phone (scope: this link only)."""
    script = render(request, "tournament/table_link_sw.js", {
        "page": request.path.rsplit("/", 1)[0] + "/", "assets": [static("css/site.css"), static("js/table_entry.js")],
    }, content_type="text/javascript; charset=utf-8")
    script["Cache-Control"] = "no-cache"
    return script
