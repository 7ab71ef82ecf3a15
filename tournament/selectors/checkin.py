"""Registration and check-in: the public list of who registered (no contact), the director's list
(with contact) and the evening's check-in list. One query each, whatever the size."""

from __future__ import annotations

from dataclasses import dataclass

from .. import names, privacy
from ..collation import search_forms, surname_key
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
    hidden: bool = False  # not found by the search typed (the page without JavaScript)

    @property
    def search_text(self) -> str:
        """What the search looks in (name and club): each in the forms a search finds it by
        (`collation.search_forms`: "kraemer" and "kramer" for Krämer), for the page's script."""
        return " | ".join(form for text in (self.name, self.club) if text for form in search_forms(text))


def checkin_rows(tournament: Tournament) -> list[CheckinRow]:
    """Every player of the tournament by surname, as the printed seating list (`collation.surname_key`:
    "Anna Alt" under A, "Friedrich von der Heide" under H), with whether they are marked present."""
    rows = [CheckinRow(entry_id, number, name, club, category or "", present, withdrawn is not None)
            for entry_id, number, name, club, category, present, withdrawn in tournament.entries.values_list(
                "id", "start_number", "player__name", "player__club", "registration__category", "present",
                "withdrawn_from_round")]
    return sorted(rows, key=lambda row: surname_key(row.name))


def registrations(tournament: Tournament) -> list[Registration]:
    """All registrations in the order they came, with the entry's start number (the director's list).
    A waiting one of a person registered already (taken before such a registration was refused) carries
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
    """Who registered and who waits, in order: names, clubs and categories only, as the public may see
    them (`privacy`): a registered player at their record's level (by start number when hidden), one on
    the waiting list at the level they chose ("—" when hidden: no start number yet). A player withdrawn
    is not listed, nor is a person registered listed as waiting too (a second registration taken
    before duplicates were refused in every state)."""
    listed = list(tournament.registrations.exclude(status=Registration.Status.WITHDRAWN).filter(
        entry__withdrawn_from_round=None).order_by("created_at", "id").values_list(
            "name", "club", "category", "status", "entry__start_number", "publication",
            "entry__player__publication"))
    registered = {names.identity(name, club) for name, club, _c, status, *_rest in listed
                  if status == Registration.Status.REGISTERED}
    shown = []
    for name, club, category, status, number, chosen, record in listed:
        if status == Registration.Status.WAITING and names.identity(name, club) in registered:
            continue
        level = record or chosen
        shown.append(PublicRegistration(privacy.shown_name(name, level, number), privacy.shown_club(club, level),
                                        category, status == Registration.Status.WAITING))
    return shown


def waiting_place(registration: Registration) -> int | None:
    """The place on the waiting list of a waiting registration (1: the next to move up), None for
    any other. One query."""
    if registration.status != Registration.Status.WAITING:
        return None
    return Registration.objects.filter(tournament_id=registration.tournament_id, status=Registration.Status.WAITING,
                                       created_at__lte=registration.created_at).exclude(
        created_at=registration.created_at, id__gt=registration.id).count()
