"""The hub's endpoint for the venues' batches: `POST /api/publish/v1/batch` (docs/publishing.md). JSON
in and out, a publishing key as `Authorization: Bearer …`, an `Idempotency-Key` per batch; every refusal
is `{"reason": …, "message": …}` with its status. Only on a hub (`settings.DOKO_HUB`)."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from ..services import hub_apply, hub_idempotency
from ..services.publishing_keys import find_key
from ..web import rate_limits

MOST_BYTES = 8 * 1024 * 1024  # a batch is at most 1 MB of entries, or one tournament file


def refusal(reason: str, status: int, message: str) -> JsonResponse:
    return JsonResponse({"reason": reason, "message": message}, status=status)


@csrf_exempt
@require_POST
def publish_batch(request):
    if not settings.DOKO_HUB:
        return refusal("not_a_hub", 404, _("Diese Installation nimmt keine Veröffentlichungen an."))
    auth = request.headers.get("Authorization", "")
    key = find_key(auth[len("Bearer "):].strip()) if auth.startswith("Bearer ") else None
    if key is None:
        return refusal("wrong_key", 401, _("Diesen Veröffentlichungsschlüssel kennt der Hub nicht."))
    if key.revoked_at is not None:
        return refusal("revoked_key", 403, _("Der Schlüssel wurde auf dem Hub widerrufen."))
    seconds = rate_limits.publish_over(request, key.pk)
    if seconds is not None:
        response = refusal("too_many", 429, _("Zu viele Sendungen in kurzer Zeit; gleich noch einmal."))
        response["Retry-After"] = str(seconds)
        return response
    idempotency_key = request.headers.get("Idempotency-Key", "").strip()
    if not idempotency_key or len(idempotency_key) > 200:
        return refusal("invalid", 400, _("Der Kopf Idempotency-Key fehlt oder ist zu lang."))
    if len(request.body) > MOST_BYTES:
        return refusal("invalid", 413, _("Die Sendung ist zu groß."))
    fingerprint = hashlib.sha256(request.body).hexdigest()
    stored = hub_idempotency.begin(key=key, idempotency_key=idempotency_key, fingerprint=fingerprint)
    if stored is not None:
        status, answer = stored
        return JsonResponse(answer, status=status)
    try:
        try:
            body = json.loads(request.body)
        except (ValueError, UnicodeDecodeError):
            raise hub_apply.invalid(_("Die Sendung ist kein gültiges JSON.")) from None
        status, answer = 200, hub_apply.apply_batch(key=key, body=body)
    except hub_apply.Refusal as refused:
        status, answer = refused.status, refused.answer()
    except BaseException:
        hub_idempotency.forget(key=key, idempotency_key=idempotency_key)
        raise
    hub_idempotency.finish(key=key, idempotency_key=idempotency_key, status=status, answer=answer)
    return JsonResponse(answer, status=status)
