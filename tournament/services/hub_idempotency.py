"""The Idempotency-Key of a venue's batch on the hub (IETF draft "The Idempotency-Key HTTP Header
Field"): the first request with a key is processed and its answer stored; the same key with the same
body gets the stored answer; the same key with another body is refused (422); a key whose first
request is still being processed is refused (409), unless that request is older than `STALE` (it
died: the retry takes it over). STALE is a minute, longer than nginx waits for an instance (60 s,
deploy/nginx-cluster.conf): a hub killed in the middle of a batch (make hub-check does that) must not
hold the venue's outbox up for long; and a batch taken over while it still ran would not apply twice
either (`hub_apply` locks the tournament and skips what is applied)."""

from __future__ import annotations

import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import IdempotencyRecord, PublishingKey
from . import locking

STALE = datetime.timedelta(seconds=60)


def begin(*, key: PublishingKey, idempotency_key: str, fingerprint: str) -> tuple[int, dict] | None:
    """None: process the request (its key is now "being processed"); else the answer to give."""
    with transaction.atomic():
        try:
            with transaction.atomic():
                IdempotencyRecord.objects.create(key=key, idempotency_key=idempotency_key, fingerprint=fingerprint)
            return None
        except IntegrityError:
            pass
        record = locking.lock_one(IdempotencyRecord.objects.filter(key=key, idempotency_key=idempotency_key))
        if record.fingerprint != fingerprint:
            return 422, {"reason": "idempotency_key_reused",
                         "message": _("Dieser Idempotency-Key wurde schon für eine andere Sendung benutzt.")}
        if record.status is None:
            if record.created_at > timezone.now() - STALE:
                return 409, {"reason": "in_progress",
                             "message": _("Diese Sendung wird gerade verarbeitet; bitte gleich noch einmal senden.")}
            record.created_at = timezone.now()
            record.save(update_fields=["created_at"])
            return None
        return record.status, dict(record.answer or {})


def finish(*, key: PublishingKey, idempotency_key: str, status: int, answer: dict) -> None:
    with transaction.atomic():
        record = locking.lock_one(IdempotencyRecord.objects.filter(key=key, idempotency_key=idempotency_key))
        record.status, record.answer = status, answer
        record.save(update_fields=["status", "answer"])


def forget(*, key: PublishingKey, idempotency_key: str) -> None:
    """The request failed without an answer (a bug, the database gone): a retry is processed anew."""
    IdempotencyRecord.objects.filter(key=key, idempotency_key=idempotency_key, status__isnull=True).delete()
