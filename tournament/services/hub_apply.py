"""The hub's side of publishing (docs/publishing.md): taking a batch of a venue's outbox. In one
transaction, with the `PublishedTournament` row locked: the entries not yet applied, in their order,
each replacing the venue's file (a `file` entry) or one table of it (a `table` entry); then the hub's
tournament is written through the services: table by table where only tables changed
(`hub_tables.replace_table`), else the whole file (`importing.replace_contents`); and the games
and penalties an entry corrected are kept (`HubCorrection`). Anything not allowed is refused with a
machine-readable reason (`Refusal`) and nothing is written."""

from __future__ import annotations

import copy
import datetime
import uuid
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from ..fileformat import FORMAT_VERSION
from ..log import audit
from ..log.audit import Actor
from ..models import HubCorrection, PublishedTournament, PublishingKey
from . import hub_tables, importing, locking, tournaments
from .file_reading import ImportProblems
from .hub_corrections import corrections

# the exchange format's versions this hub reads in a batch (docs/tournament-file.md, "Versions")
FORMAT_VERSIONS = frozenset({FORMAT_VERSION})
KINDS = ("file", "table")


class Refusal(Exception):
    """A batch the hub does not take: `reason` for the venue's program, `message` for its director."""

    def __init__(self, reason: str, status: int, message: str, expected_seq: int | None = None):
        self.reason, self.status, self.message, self.expected_seq = reason, status, message, expected_seq
        super().__init__(message)

    def answer(self) -> dict:
        answer: dict = {"reason": self.reason, "message": self.message}
        if self.expected_seq is not None:
            answer["expected_seq"] = self.expected_seq
        return answer


def invalid(message: str) -> Refusal:
    return Refusal("invalid", 400, message)


@dataclass
class BatchEntry:
    seq: int
    at: datetime.datetime
    kind: str
    payload: dict


def checked_batch(body) -> tuple[str, list[BatchEntry]]:
    """The batch's venue tournament id and its entries in order; refuses what is not a batch."""
    if not isinstance(body, dict):
        raise invalid(_("Die Sendung ist kein JSON-Objekt."))
    if body.get("format_version") not in FORMAT_VERSIONS:
        raise Refusal("unknown_format_version", 422,
                      _("Diese Version des Dateiformats (%(version)s) kennt der Hub nicht; bitte die Software am "
                        "Turnierort oder auf dem Hub aktualisieren.") % {"version": body.get("format_version")})
    venue = body.get("venue_tournament")
    try:
        venue = str(uuid.UUID(str(venue)))
    except ValueError:
        raise invalid(_("Die Kennung des Turniers fehlt oder ist keine UUID.")) from None
    items = body.get("entries")
    if not isinstance(items, list) or not items:
        raise invalid(_("Die Sendung enthält keine Änderungen."))
    entries = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("seq"), int) or isinstance(item.get("seq"), bool) \
                or item["seq"] < 1 or item.get("kind") not in KINDS or not isinstance(item.get("payload"), dict):
            raise invalid(_("Eine Änderung der Sendung hat keine gültige Nummer, Art oder Inhalt."))
        at = parse_datetime(str(item.get("at", "")))
        if at is None:
            raise invalid(_("Eine Änderung der Sendung hat keine gültige Zeit."))
        entries.append(BatchEntry(item["seq"], at, item["kind"], item["payload"]))
    if [e.seq for e in entries] != list(range(entries[0].seq, entries[0].seq + len(entries))):
        raise invalid(_("Die Änderungen einer Sendung müssen lückenlos aufeinander folgen."))
    return venue, entries


def apply_batch(*, key: PublishingKey, body) -> dict:
    """Applies a batch sent with `key`; returns `{"applied_seq": n}` or raises Refusal."""
    venue, entries = checked_batch(body)
    try:
        return _apply(key, venue, entries)
    except IntegrityError:  # two first batches of one tournament at once: the other made it; go on from there
        return _apply(key, venue, entries)


def _apply(key: PublishingKey, venue: str, entries: list[BatchEntry]) -> dict:
    by = Actor(label=_("Turnierort: %(label)s") % {"label": key.label})
    with transaction.atomic():
        found = locking.lock(PublishedTournament.objects.filter(venue_tournament=venue))
        published = found[0] if found else None
        if published is not None and published.key_id != key.pk:
            if published.key.revoked_at is not None and published.organisation_id == key.organisation_id:
                published.key = key  # the venue's new key after the old one was revoked takes the tournament over
                published.save(update_fields=["key"])
            else:
                raise Refusal("foreign_tournament", 403, _("Dieses Turnier wurde mit einem anderen Schlüssel "
                                                           "veröffentlicht; nur dieser darf es ändern."))
        applied = published.applied_seq if published else 0
        new = [entry for entry in entries if entry.seq > applied]
        if not new:
            return {"applied_seq": applied}
        if new[0].seq != applied + 1:
            raise Refusal("out_of_order", 409, _("Es fehlen Änderungen vor Nummer %(seq)s; der Hub erwartet "
                                                 "Nummer %(expected)s.") % {"seq": new[0].seq, "expected": applied + 1},
                          expected_seq=applied + 1)
        data: dict | None = copy.deepcopy(published.file) if published else None
        found_corrections = []
        tables: dict[tuple[int, int], None] = {}  # the tables the entries changed, in order
        for entry in new:
            data, before_after = _patched(data, entry)
            if before_after is not None:
                found_corrections += [(entry, c) for c in corrections(*before_after)]
                if entry.kind == "table" and before_after[0] != before_after[1]:
                    tables[(entry.payload["round"], entry.payload["table"]["number"])] = None
        assert data is not None  # (the first entry of a new tournament is a file: `_patched`)
        try:
            if published is None:
                tournament = importing.import_tournament(
                    _without_slug(data), slug=tournaments.unique_slug(str(data.get("name", ""))),
                    organisation=key.organisation, by=by)
                published = PublishedTournament.objects.create(key=key, organisation_id=key.organisation_id,
                                                               venue_tournament=venue, tournament=tournament)
            elif any(entry.kind == "file" for entry in new) or not all(
                    hub_tables.replace_table(tournament=published.tournament, data=data, round_number=round_number,
                                             table_number=table_number, by=by)
                    for round_number, table_number in tables):
                importing.replace_contents(tournament=published.tournament, data=data, by=by)
        except ImportProblems as problems:
            raise invalid(_("Die Turnierdatei ließ sich nicht übernehmen: %(problems)s")
                          % {"problems": " ".join(problems.lines[:5])}) from None
        with audit.recording("published_from_venue", by=by, tournament=published.tournament_id):
            HubCorrection.objects.bulk_create([
                HubCorrection(published=published, round=c.round, table=c.table, game=c.game, change=c.change,
                              at=entry.at, seq=entry.seq) for entry, c in found_corrections])
            # (this recording's end marks the association's Ranglisten stale: rangliste_refresh.tournament_changed)
        published.file = data
        published.applied_seq = new[-1].seq
        published.applied_at = new[-1].at
        published.save(update_fields=["file", "applied_seq", "applied_at"])
        return {"applied_seq": published.applied_seq}


def _without_slug(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "slug"}


def _patched(data: dict | None, entry: BatchEntry) -> tuple[dict, tuple[dict, dict] | None]:
    """The file after the entry (a table entry changes `data` in place), and what to compare for
    corrections: the files before and after (a table entry: its round with the table before and after)."""
    if entry.kind == "file":
        return entry.payload, ((data, entry.payload) if data is not None else None)
    if data is None:
        raise invalid(_("Die erste Änderung eines Turniers muss die ganze Turnierdatei sein."))
    piece = entry.payload.get("table")
    number = entry.payload.get("round")
    if not isinstance(piece, dict):
        raise invalid(_("Eine Tisch-Änderung enthält keinen Tisch."))
    for round_item in data.get("rounds", []):
        if round_item.get("number") == number:
            for index, table in enumerate(round_item.get("tables", [])):
                if table.get("number") == piece.get("number"):
                    round_item["tables"][index] = piece
                    own = {k: v for k, v in round_item.items() if k != "tables"}
                    return data, ({"rounds": [{**own, "tables": [table]}]}, {"rounds": [{**own, "tables": [piece]}]})
    raise invalid(_("Tisch %(table)s der Runde %(round)s gibt es in der Turnierdatei nicht.")
                  % {"table": piece.get("number"), "round": number})
