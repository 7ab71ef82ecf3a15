"""The venue's side of publishing (docs/publishing.md): starting and stopping a tournament's
publication to a hub, and the outbox. Every change of a published tournament is queued here in the
transaction of the change (`queue_change`, called by `DataChange.objects.append` when the tournament's
`CounterTurn` says it is published): a change of one table's sheet as that table's piece of the
tournament file, anything wider as the whole file (without the tables' entry links, `backup=False`).
The sender (`web/publish_sender.py`) delivers the entries in order."""

from __future__ import annotations

import uuid

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import names
from ..errors import UserError
from ..fileformat import table_item
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import CounterTurn, Entry, OutboxEntry, Publication, Seat, Table, Tournament
from ..models.changes import PUBLISHED_CHANGE
from . import locking
from .exporting import export_tournament

# what only the hall's phones need: the entries waiting and who tapped "stimmt" (the links: `backup=False`)
VENUE_ONLY = ("drafts", "approved")


def file_payload(tournament: Tournament) -> dict:
    """The whole tournament file as the hub takes it: nothing of the tables' phones (`VENUE_ONLY`, links)."""
    data = export_tournament(tournament, backup=False)
    for round_item in data.get("rounds", []):
        for table in round_item.get("tables", []):
            for key in VENUE_ONLY:
                table.pop(key, None)
    return data


def table_payload(table: Table) -> dict:
    """One table's piece of the file, with its round's number: `{"round": n, "table": {...}}`."""
    tournament = table.round.tournament
    refs = names.references(Entry.objects.filter(tournament=tournament)
                            .values_list("id", "player__name", "player__club"))
    seated = list(Seat.objects.filter(table=table).order_by("position").values_list("entry_id", flat=True))
    piece = table_item(table, seated, list(table.games.order_by("number")), list(table.penalties.order_by("id")),
                       refs.__getitem__, (), link=False, rule=tournament.list_rule(len(seated)))
    piece.pop("approved", None)
    return {"round": table.round.number, "table": piece}


def queue_change(tournament_id: int, table_id: int | None) -> OutboxEntry | None:
    """Queues the change just made to a published tournament (inside its transaction)."""
    publication = Publication.objects.filter(tournament_id=tournament_id, active=True).first()
    if publication is None:
        return None
    table = (Table.objects.filter(pk=table_id, round__tournament_id=tournament_id)
             .select_related("round__tournament").first() if table_id is not None else None)
    if table is not None:
        kind, payload = "table", table_payload(table)
    else:
        kind, payload = "file", file_payload(Tournament.objects.get(pk=tournament_id))
    last = OutboxEntry.objects.filter(publication=publication).aggregate(last=Max("seq"))["last"]
    seq = max(last or 0, publication.acked_seq) + 1
    return OutboxEntry.objects.create(publication=publication, seq=seq, at=timezone.now(), kind=kind, payload=payload)


PUBLISHED_CHANGE.append(queue_change)


def start_publication(*, tournament: Tournament, hub_url: str, key: str, by: Actor = SYSTEM) -> Publication:
    """Publishes the tournament to the hub at `hub_url` with the publishing key `key` from now on: the
    first entry queued is the whole file. Publishing again to the same hub goes on where it stopped; to
    another hub it starts anew (a new id for the tournament there)."""
    hub_url = hub_url.strip().rstrip("/")
    key = key.strip()
    if not hub_url.startswith(("http://", "https://")):
        raise UserError(_("Die Adresse des Hubs beginnt mit https:// (oder http://)."), field="hub_url")
    if not key:
        raise UserError(_("Bitte den Veröffentlichungsschlüssel des Hubs eingeben."), field="key")
    with transaction.atomic():
        tournament = locking.lock_tournament(tournament)
        publication = Publication.objects.filter(tournament=tournament).first()
        if publication is None:
            publication = Publication(tournament=tournament)
        elif publication.hub_url != hub_url:  # another hub: it knows nothing of this tournament
            publication.outbox.all().delete()
            publication.venue_tournament = uuid.uuid4()
            publication.acked_seq = 0
            publication.acked_at = None
        publication.hub_url, publication.key, publication.active = hub_url, key, True
        publication.last_error, publication.last_message, publication.failures = "", "", 0
        publication.next_try_at = None
        publication.save()
        with audit.recording("publication_started", by=by, tournament=tournament):
            _set_turn(tournament.pk, True)
            audit.record_bulk([tournament], "~")
        # (the recording's change is queued as the whole file: the hub's first batch carries it)
        return publication


def stop_publication(*, tournament: Tournament, by: Actor = SYSTEM) -> None:
    """No more changes are queued; what is queued and not yet sent stays unsent."""
    with transaction.atomic():
        tournament = locking.lock_tournament(tournament)
        publication = Publication.objects.filter(tournament=tournament, active=True).first()
        if publication is None:
            return
        with audit.recording("publication_stopped", by=by, tournament=tournament):
            _set_turn(tournament.pk, False)
            publication.active = False
            publication.save(update_fields=["active"])
            audit.record_bulk([tournament], "~")


def _set_turn(tournament_id: int, publishing: bool) -> None:
    audit.require("outbox._set_turn")
    CounterTurn.objects.bulk_create([CounterTurn(pk=tournament_id)], ignore_conflicts=True)
    CounterTurn.objects.filter(pk=tournament_id).update(publishing=publishing)
