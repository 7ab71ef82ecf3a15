"""A player asks for a correction of a tournament's result from their page on the hub, and the
tournament's directors answer (docs/hub.md, "Players across clubs"). Each request and each answer is
in the tournament's change log and moves its change counter; the contact a player leaves is read by
the tournament's directors only (not kept in the log's records, which helpers read too)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import CorrectionRequest, Entry, Tournament
from ..names import clean
from .locking import lock, lock_tournament

MOST_TEXT = 1000
MOST_CONTACT = 200
MOST_ANSWER = 500
MOST_OPEN = 20  # open requests of one player record in one tournament


def request_correction(
    *, tournament: Tournament | int, player_id: int, text: str, contact: str = "", by: Actor = SYSTEM
) -> CorrectionRequest:
    """A request about the player record's result in `tournament` (the record must have an entry there)."""
    text = clean(str(text))
    contact = clean(str(contact))
    if not text:
        raise UserError(_("Bitte schreiben Sie, was falsch ist."), field="text")
    if len(text) > MOST_TEXT or not text.isprintable():
        raise UserError(_("Bitte beschreiben Sie es in höchstens %(n)s Zeichen.") % {"n": MOST_TEXT}, field="text")
    if len(contact) > MOST_CONTACT or not contact.isprintable():
        raise UserError(_("Die Kontaktangabe hat höchstens %(n)s Zeichen.") % {"n": MOST_CONTACT}, field="contact")
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        if not Entry.objects.filter(tournament=tournament, player_id=player_id).exists():
            raise UserError(_("In diesem Turnier hat der Spieler nicht gespielt."), field="tournament")
        if (
            CorrectionRequest.objects.filter(
                tournament=tournament, player_id=player_id, status=CorrectionRequest.Status.OPEN
            ).count()
            >= MOST_OPEN
        ):
            raise UserError(_("Zu diesem Turnier sind schon viele Anfragen offen; bitte warten Sie auf die Antwort."))
        with audit.recording("correction_requested", by=by, tournament=tournament):
            return CorrectionRequest.objects.create(
                tournament=tournament, player_id=player_id, text=text, contact=contact
            )


def answer_correction(
    *, tournament: Tournament, request_id: int, status: str, answer: str, by: Actor = SYSTEM
) -> CorrectionRequest:
    """The tournament's director answers a request: "answered" (done or explained) or "declined", with a
    sentence. An answered request can be answered again (the newer answer counts)."""
    answer = clean(str(answer))
    if status not in (CorrectionRequest.Status.ANSWERED, CorrectionRequest.Status.DECLINED):
        raise UserError(_("Bitte wählen Sie: erledigt oder abgelehnt."), field="status")
    if not answer:
        raise UserError(_("Bitte schreiben Sie einen Satz als Antwort."), field="answer")
    if len(answer) > MOST_ANSWER or not answer.isprintable():
        raise UserError(_("Die Antwort hat höchstens %(n)s Zeichen.") % {"n": MOST_ANSWER}, field="answer")
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        found = lock(CorrectionRequest.objects.filter(pk=request_id, tournament=tournament))
        if not found:
            raise UserError(_("Diese Anfrage gibt es nicht (mehr)."))
        request = found[0]
        action = "correction_answered" if status == CorrectionRequest.Status.ANSWERED else "correction_declined"
        with audit.recording(action, by=by, tournament=tournament):
            request.status, request.answer, request.answered_at = status, answer, timezone.now()
            request.save()
        return request
