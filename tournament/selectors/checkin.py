"""Registration and check-in: the public list of who registered (no contact), the director's list
(with contact) and the evening's check-in list. One query each, whatever the size."""

from __future__ import annotations

from dataclasses import dataclass

from .. import privacy
from ..collation import name_key
from ..models import Registration, Tournament


@dataclass
class CheckinRow:
    entry_id: int
    start_number: int
    name: str
    club: str
    category: str
    present: bool
    withdrawn: bool


def checkin_rows(tournament: Tournament) -> list[CheckinRow]:
    """Every player of the tournament, alphabetically, with whether they are marked present."""
    rows = [CheckinRow(entry_id, number, name, club, category or "", present, withdrawn is not None)
            for entry_id, number, name, club, category, present, withdrawn in tournament.entries.values_list(
                "id", "start_number", "player__name", "player__club", "registration__category", "present",
                "withdrawn_from_round")]
    return sorted(rows, key=lambda row: name_key(row.name))


def registrations(tournament: Tournament) -> list[Registration]:
    """All registrations in the order they came, with the entry's start number (the director's list)."""
    return list(tournament.registrations.select_related("entry").order_by("created_at", "id"))


@dataclass
class PublicRegistration:
    name: str
    club: str
    category: str
    waiting: bool


def public_registrations(tournament: Tournament) -> list[PublicRegistration]:
    """Who registered and who waits, in order: names, clubs and categories only, as each chose to be
    published (`privacy`: the stricter of the registration's and its player record's level; a hidden
    one by start number, "—" on the waiting list)."""
    return [PublicRegistration(privacy.shown_name(name, level, number), privacy.shown_club(club, level),
                               category, status == Registration.Status.WAITING)
            for name, club, category, status, number, level in (
                (name, club, category, status, number, privacy.strictest([own, record or privacy.FULL]))
                for name, club, category, status, number, own, record in tournament.registrations.exclude(
                    status=Registration.Status.WITHDRAWN).order_by("created_at", "id").values_list(
                        "name", "club", "category", "status", "entry__start_number", "publication",
                        "entry__player__publication"))]
