"""The hub's publishing keys (docs/publishing.md): an organisation's organiser issues one per venue; the
secret is shown once and kept only as its SHA-256; a revoked key writes nothing more."""

from __future__ import annotations

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import UserError
from ..models import Organisation, PublishingKey

PREFIX = "doko_"


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def issue_key(*, organisation: Organisation, label: str, user=None) -> tuple[PublishingKey, str]:
    """A new key for a venue; returns it and its secret (shown once, never stored)."""
    label = " ".join(label.split())
    if not label:
        raise UserError(_("Bitte angeben, für welchen Turnierort der Schlüssel ist."), field="label")
    if len(label) > 200:
        raise UserError(_("Die Bezeichnung ist zu lang (höchstens 200 Zeichen)."), field="label")
    secret = PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        key = PublishingKey.objects.create(organisation=organisation, label=label, prefix=secret[:len(PREFIX) + 6],
                                           digest=digest(secret), created_by=user)
    return key, secret


def revoke_key(*, key: PublishingKey) -> PublishingKey:
    with transaction.atomic():
        if key.revoked_at is None:
            key.revoked_at = timezone.now()
            key.save(update_fields=["revoked_at"])
    return key


def find_key(secret: str) -> PublishingKey | None:
    if not secret:
        return None
    return PublishingKey.objects.filter(digest=digest(secret)).select_related("organisation").first()
