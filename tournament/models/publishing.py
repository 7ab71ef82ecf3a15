"""Publishing from a venue to a hub (docs/publishing.md). The same software is both: a venue (the hall's
laptop) keeps an outbox of its tournament's changes (`Publication`, `OutboxEntry`) and a sender delivers
it; a hub (the hosted site, `settings.DOKO_HUB`) issues publishing keys to its organisations
(`PublishingKey`), takes the batches (`PublishedTournament`, `IdempotencyRecord`) and keeps the history of
corrections made after results were public (`HubCorrection`)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .organisations import Organisation
from .tournaments import Tournament

# ---- the hub -------------------------------------------------------------------------------------


class PublishingKey(models.Model):
    """A key an organisation's organiser issues for one venue: shown once, kept only as its SHA-256
    (and a short prefix that tells the keys apart on the page); revoked, it writes nothing more."""

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="publishing_keys")
    label = models.CharField(_("Bezeichnung"), max_length=200)
    prefix = models.CharField(max_length=12)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.label} ({self.prefix}…)"


class PublishedTournament(models.Model):
    """A tournament a venue publishes here: made by the first batch of its key, written only by that
    key. `file`: the venue's tournament file as applied up to `applied_seq` (a table entry replaces one
    table of it; the next batch is compared with it to find corrections)."""

    key = models.ForeignKey(PublishingKey, on_delete=models.PROTECT, related_name="tournaments")
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="+")
    venue_tournament = models.UUIDField(unique=True)
    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="published_from")
    applied_seq = models.PositiveIntegerField(default=0)
    applied_at = models.DateTimeField(null=True, blank=True)  # the venue's time of the newest entry applied
    file = models.JSONField(default=dict)

    def __str__(self):
        return f"{self.venue_tournament} → {self.tournament_id}"


class HubCorrection(models.Model):
    """A game or penalty that was on the hub and was changed or deleted by a later entry, with the
    venue's time of the change: the public pages list them ("korrigiert 21:40: Tisch 4, Spiel 7")."""

    class Change(models.TextChoices):
        CHANGED = "changed", _("geändert")
        DELETED = "deleted", _("gelöscht")

    published = models.ForeignKey(PublishedTournament, on_delete=models.CASCADE, related_name="corrections")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    game = models.PositiveSmallIntegerField(null=True, blank=True)  # None: a penalty
    change = models.CharField(max_length=8, choices=Change.choices)
    at = models.DateTimeField()  # the venue's time of the change
    seq = models.PositiveIntegerField()

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["published", "at"], name="hubcorrection_published_at")]

    def __str__(self):
        return f"{self.round}/{self.table}/{self.game} {self.change}"


class IdempotencyRecord(models.Model):
    """A batch's Idempotency-Key (IETF draft "The Idempotency-Key HTTP Header Field"), per publishing
    key: the fingerprint of the body it came with and the answer given (status None: still being
    processed). The same key with the same body gets the stored answer again."""

    key = models.ForeignKey(PublishingKey, on_delete=models.CASCADE, related_name="+")
    idempotency_key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    answer = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "idempotency_key"], name="idempotency_once")]

    def __str__(self):
        return self.idempotency_key


# ---- the venue -----------------------------------------------------------------------------------


class Publication(models.Model):
    """A tournament published to a hub from here: the hub's address and the key as the director entered
    it (the sender needs it), the id the hub knows the tournament by, and how far the hub has taken it
    (`acked_seq`: the hub's `applied_seq`). `last_error`: "" when the last try went through, "unreachable",
    or the hub's refusal reason (docs/publishing.md)."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="publication")
    hub_url = models.URLField(_("Adresse des Hubs"), max_length=300)
    key = models.CharField(_("Veröffentlichungsschlüssel"), max_length=200)
    venue_tournament = models.UUIDField(default=uuid.uuid4)
    active = models.BooleanField(default=True, db_index=True)
    acked_seq = models.PositiveIntegerField(default=0)
    acked_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=32, blank=True)
    last_message = models.TextField(blank=True)
    failures = models.PositiveIntegerField(default=0)
    next_try_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.tournament_id} → {self.hub_url}"


class OutboxEntry(models.Model):
    """One change to send, written in the transaction of the change: `kind` "file" (the whole tournament
    file) or "table" (one table's piece of it); `seq` counts up per publication, `at` is the venue's time."""

    publication = models.ForeignKey(Publication, on_delete=models.CASCADE, related_name="outbox")
    seq = models.PositiveIntegerField()
    at = models.DateTimeField()
    kind = models.CharField(max_length=8)
    payload = models.JSONField()
    sent_at = models.DateTimeField(null=True, blank=True)  # last sent (acknowledged: seq <= acked_seq)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["publication", "seq"], name="outbox_seq_once")]

    def __str__(self):
        return f"{self.publication_id}#{self.seq}"
