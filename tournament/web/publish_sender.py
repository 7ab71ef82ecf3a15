"""The venue's sender (`manage.py publish`, docs/publishing.md): delivers each published tournament's
outbox to its hub, in order, in batches of at most `MOST_ENTRIES` entries or `MOST_BYTES`, each with an
Idempotency-Key made of the tournament's id and the batch's first and last number (a batch sent again
after a lost answer is the same request to the hub). Only the hub's `applied_seq` acknowledges entries;
an `out_of_order` answer's `expected_seq` says where to go on. A hub that cannot be reached (or answers
with an error page) is tried again after an exponential back-off with jitter (1 s … 60 s). All state is
in the database, so the sender can be stopped and started at any moment.

Transport: urllib from the standard library (docs/dependencies.md); tests pass their own."""

from __future__ import annotations

import datetime
import json
import random
import urllib.error
import urllib.request
from collections.abc import Callable

from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from ..fileformat import FORMAT_VERSION  # the version the batches carry (the hub: `hub_apply.FORMAT_VERSIONS`)
from ..models import OutboxEntry, Publication

MOST_ENTRIES = 50
MOST_BYTES = 1_000_000
SHORTEST_WAIT, LONGEST_WAIT = 1.0, 60.0
PATH = "/api/publish/v1/batch"
# refusals that go away by themselves: tried again after the back-off without telling the director
PASSING = {"in_progress", "too_many"}

# (url, headers, body) -> (HTTP status, the answer's JSON or None); raises OSError when the hub is not reached
Transport = Callable[[str, dict[str, str], bytes], tuple[int, dict | None]]


def urllib_transport(url: str, headers: dict[str, str], body: bytes) -> tuple[int, dict | None]:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 (the director's https address)
            return response.status, _json(response.read())
    except urllib.error.HTTPError as error:
        return error.code, _json(error.read())


def _json(raw: bytes) -> dict | None:
    try:
        answer = json.loads(raw)
    except ValueError:
        return None
    return answer if isinstance(answer, dict) else None


def due(now: datetime.datetime | None = None) -> list[Publication]:
    """The active publications with entries not yet taken by the hub whose wait is over (one query)."""
    now = now or timezone.now()
    pending = OutboxEntry.objects.filter(publication=OuterRef("pk"), seq__gt=OuterRef("acked_seq"))
    return list(Publication.objects.select_related("tournament").filter(active=True).filter(Exists(pending))
                .exclude(next_try_at__gt=now).order_by("pk"))


def batch_of(publication: Publication) -> list[OutboxEntry]:
    """The next entries to send, in order: at most MOST_ENTRIES, and MOST_BYTES unless one alone is larger."""
    entries: list[OutboxEntry] = []
    size = 0
    for entry in OutboxEntry.objects.filter(publication=publication, seq__gt=publication.acked_seq)[:MOST_ENTRIES]:
        length = len(json.dumps(entry.payload))
        if entries and size + length > MOST_BYTES:
            break
        entries.append(entry)
        size += length
    return entries


def send(publication: Publication, transport: Transport = urllib_transport) -> str:
    """Sends one batch of the publication; returns what happened: "sent", "empty", "unreachable" or the
    hub's refusal reason."""
    entries = batch_of(publication)
    if not entries:
        return "empty"
    body = json.dumps({"format_version": FORMAT_VERSION, "venue_tournament": str(publication.venue_tournament),
                       "entries": [{"seq": e.seq, "at": e.at.isoformat(), "kind": e.kind, "payload": e.payload}
                                   for e in entries]}, ensure_ascii=False, separators=(",", ":")).encode()
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {publication.key}",
               "Idempotency-Key": f"{publication.venue_tournament}:{entries[0].seq}-{entries[-1].seq}"}
    OutboxEntry.objects.filter(pk__in=[e.pk for e in entries]).update(sent_at=timezone.now())
    try:
        status, answer = transport(publication.hub_url + PATH, headers, body)
    except OSError:
        return _failed(publication, "unreachable", _("Hub nicht erreichbar"))
    answer = answer or {}
    if status == 200 and isinstance(answer.get("applied_seq"), int):
        publication.acked_seq = answer["applied_seq"]
        publication.acked_at = timezone.now()
        publication.last_error, publication.last_message, publication.failures = "", "", 0
        publication.next_try_at = None
        publication.save(update_fields=["acked_seq", "acked_at", "last_error", "last_message", "failures",
                                        "next_try_at"])
        return "sent"
    reason = answer.get("reason")
    if reason == "out_of_order" and isinstance(answer.get("expected_seq"), int):
        publication.acked_seq = max(0, answer["expected_seq"] - 1)  # the hub has everything before it
        publication.save(update_fields=["acked_seq"])
        return reason
    if not isinstance(reason, str):  # an error page, a proxy's answer: the hub is not really there
        return _failed(publication, "unreachable", _("Hub antwortet mit Fehler %(status)s") % {"status": status})
    if reason in PASSING:
        return _failed(publication, "unreachable", str(answer.get("message", "")))
    return _failed(publication, reason, str(answer.get("message", "")))


def _failed(publication: Publication, reason: str, message: str) -> str:
    publication.failures += 1
    publication.last_error, publication.last_message = reason, message[:500]
    publication.next_try_at = timezone.now() + datetime.timedelta(seconds=wait(publication.failures))
    publication.save(update_fields=["failures", "last_error", "last_message", "next_try_at"])
    return reason


def wait(failures: int) -> float:
    """Seconds before the next try after `failures` failed ones: doubling from 1 s up to 60 s, with
    jitter (a random half to whole of it), so that venues do not all come back at the same moment."""
    longest = min(LONGEST_WAIT, SHORTEST_WAIT * 2 ** max(0, failures - 1))
    return max(SHORTEST_WAIT, random.uniform(longest / 2, longest))  # noqa: S311 (jitter, not a secret)


def send_due(transport: Transport = urllib_transport, report: Callable[[str], None] | None = None) -> int:
    """Sends what is due of every publication (each up to its end or its first failure); the batches sent.
    `report`: told a line for each batch the hub took and each failure (`manage.py publish` writes them
    to its log, var/log/publish.log under `make serve`)."""
    sent = 0
    for publication in due():
        for _batch in range(1000):  # (a hub that keeps answering out_of_order must not hold the loop)
            outcome = send(publication, transport)
            if report is not None and outcome != "empty":
                report(report_line(publication, outcome))
            if outcome not in ("sent", "out_of_order"):
                break
            sent += 1
    return sent


def report_line(publication: Publication, outcome: str) -> str:
    """One line of the sender's log: when, which tournament, what the hub did."""
    now = timezone.localtime().strftime("%Y-%m-%d %H:%M:%S")
    where = f"{now} {publication.tournament.slug} -> {publication.hub_url}"
    if outcome == "sent":
        return f"{where}: angenommen bis Änderung {publication.acked_seq}"
    if outcome == "out_of_order":
        return f"{where}: der Hub hat schon bis Änderung {publication.acked_seq}, weiter ab dort"
    return (f"{where}: nicht angenommen ({outcome}: {publication.last_message}); nächster Versuch "
            f"{timezone.localtime(publication.next_try_at).strftime('%H:%M:%S') if publication.next_try_at else '-'}")
