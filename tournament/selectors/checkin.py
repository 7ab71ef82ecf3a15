"""Registration and check-in: the public list of who registered (no contact), the director's list
(with contact) and the evening's check-in list. One query each, whatever the size."""

from __future__ import annotations

from dataclasses import dataclass

from .. import names
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
    """All registrations in the order they came, with the entry's start number (the director's list).
    A waiting one of a person registered already (taken before issue 32.2 refused it) carries
    `registered_already`: it never moves up, and the list says why."""
    listed = list(tournament.registrations.select_related("entry").order_by("created_at", "id"))
    registered = {names.identity(r.name, r.club) for r in listed if r.status == Registration.Status.REGISTERED}
    for registration in listed:
        registration.registered_already = (registration.status == Registration.Status.WAITING
                                           and names.identity(registration.name, registration.club) in registered)
    return listed


@dataclass
class PublicRegistration:
    name: str
    club: str
    category: str
    waiting: bool


def public_registrations(tournament: Tournament) -> list[PublicRegistration]:
    """Who registered and who waits, in order: names, clubs and categories only."""
    # a player withdrawn (on the players page, or before issue 31.5 left the registration as it was) is
    # not listed as registered (issue 32.4)
    listed = list(tournament.registrations.exclude(status=Registration.Status.WITHDRAWN).filter(
        entry__withdrawn_from_round=None).order_by("created_at", "id").values_list("name", "club", "category",
                                                                                   "status"))
    registered = {names.identity(name, club) for name, club, _c, status in listed
                  if status == Registration.Status.REGISTERED}
    # a person registered is not shown waiting too (a second registration taken before issue 32.2)
    return [PublicRegistration(name, club, category, status == Registration.Status.WAITING)
            for name, club, category, status in listed
            if status != Registration.Status.WAITING or names.identity(name, club) not in registered]
