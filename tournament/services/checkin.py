"""Registration and check-in (docs/tournament.md, "Anmeldung und Check-in"): a player registers on
the tournament's public page (an entry at once while there are places, else the waiting list), the
director edits and withdraws registrations (the first on the waiting list moves up), and on the
evening marks who is present and adds walk-ins. Once anyone is marked present, a draw seats only
those present (`seating.playing_entries`).

Every change locks the tournament (`locking.lock_tournament`) and records itself (`audit.recording`);
the players' entries are made and changed through `services.tournaments`, as on the players page.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from .. import names, privacy
from ..errors import UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Entry, Registration, Tournament
from . import privacy as privacy_services
from . import tournaments
from .locking import lock_one, lock_tournament

CATEGORY_LENGTH = 60  # Registration.category
CONTACT_LENGTH = 200  # Registration.contact
MOST_PLACES = 5000


def places_taken(tournament: Tournament) -> int:
    """The players of the tournament who are not withdrawn: what the limit of places counts (those
    the director added on the players page and walk-ins too)."""
    return tournament.entries.filter(withdrawn_from_round=None).count()


def checkin_in_use(tournament: Tournament) -> bool:
    return tournament.entries.filter(present=True).exists()


def _clean_extra(category: str, contact: str) -> tuple[str, str]:
    category, contact = names.clean(category), names.clean(contact)
    if len(category) > CATEGORY_LENGTH:
        raise UserError(_("Die Kategorie ist zu lang: höchstens %(n)s Zeichen.") % {"n": CATEGORY_LENGTH},
                        field="category")
    if len(contact) > CONTACT_LENGTH:
        raise UserError(_("Der Kontakt ist zu lang: höchstens %(n)s Zeichen.") % {"n": CONTACT_LENGTH},
                        field="contact")
    return category, contact


def _check_waiting(tournament: Tournament, name: str, club: str, *, other_than: int | None = None) -> None:
    """Refuses a second registration of a person on the waiting list (the entries refuse theirs)."""
    identity = names.identity(name, club)
    waiting = tournament.registrations.filter(status=Registration.Status.WAITING)
    if other_than is not None:
        waiting = waiting.exclude(pk=other_than)
    for waiting_name, waiting_club in waiting.values_list("name", "club"):
        if names.identity(waiting_name, waiting_club) == identity:
            raise UserError(_("%(name)s steht schon auf der Warteliste.")
                            % {"name": names.person_text(waiting_name, waiting_club)}, field="name")


def register(*, tournament: Tournament, name: str, club: str = "", category: str = "", contact: str = "",
             publication: str = privacy.FULL, by: Actor = SYSTEM) -> Registration:
    """A registration from the public page: an entry at once while places are free (or there is no
    limit), else a place on the waiting list. `publication`: what the player chose to be shown as
    (docs/privacy.md); their record gets it (one that exists only where it shows less)."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        if not tournament.registration_open:
            raise UserError(_("Die Anmeldung zu diesem Turnier ist geschlossen."))
        name, club = tournaments.clean_name(name, club)
        category, contact = _clean_extra(category, contact)
        _check_waiting(tournament, name, club)
        full = bool(tournament.registration_limit) and places_taken(tournament) >= tournament.registration_limit
        with audit.recording("registration_received", by=by, tournament=tournament):
            registration = Registration(tournament=tournament, name=name, club=club, category=category,
                                        contact=contact, publication=privacy_services.checked_level(publication),
                                        status=Registration.Status.WAITING if full else
                                        Registration.Status.REGISTERED)
            if not full:
                registration.entry = tournaments.register_player(tournament=tournament, name=name, club=club,
                                                                 publication=publication, by=by)
            registration.save()
        return registration


def _locked(registration: Registration) -> tuple[Tournament, Registration]:
    tournament = lock_tournament(registration.tournament_id)
    return tournament, lock_one(Registration.objects.filter(pk=registration.pk, tournament=tournament))


def edit_registration(*, registration: Registration, name: str, club: str = "", category: str = "",
                      contact: str = "", publication: str | None = None, by: Actor = SYSTEM) -> Registration:
    """The director corrects a registration; the player's name and club change with it, and so does
    the publication level of the player's record (None: unchanged; docs/privacy.md)."""
    with transaction.atomic():
        tournament, registration = _locked(registration)
        name, club = tournaments.clean_name(name, club)
        category, contact = _clean_extra(category, contact)
        if registration.status == Registration.Status.WAITING:
            _check_waiting(tournament, name, club, other_than=registration.pk)
        with audit.recording("registration_changed", by=by, tournament=tournament):
            if registration.entry_id is not None and (name, club) != (registration.name, registration.club):
                entry = Entry.objects.get(pk=registration.entry_id)
                tournaments.edit_player(entry=entry, name=name, club=club, by=by)
            if publication is not None:
                registration.publication = privacy_services.checked_level(publication)
                if registration.entry_id is not None:
                    privacy_services.set_publication(entry=Entry.objects.get(pk=registration.entry_id),
                                                     level=publication, by=by)
            registration.name, registration.club = name, club
            registration.category, registration.contact = category, contact
            registration.save()
        return registration


def withdraw_registration(*, registration: Registration, by: Actor = SYSTEM) -> Registration:
    """A registration withdrawn: an entry that has not been seated yet goes (the player never
    played), one that has is withdrawn like on the players page (its rounds stay); then the first
    on the waiting list moves up into the free place."""
    with transaction.atomic():
        tournament, registration = _locked(registration)
        if registration.status == Registration.Status.WITHDRAWN:
            return registration
        with audit.recording("registration_withdrawn", by=by, tournament=tournament):
            entry = (Entry.objects.filter(pk=registration.entry_id).first()
                     if registration.entry_id is not None else None)
            if entry is not None and entry.seats.exists():
                tournaments.withdraw_player(entry=entry, by=by)
            elif entry is not None:
                registration.entry = None
                registration.save(update_fields=["entry"])
                entry.delete()
            registration.status = Registration.Status.WITHDRAWN
            registration.save()
            _move_up(tournament, by=by)  # (one change with the withdrawal)
        return registration


def _move_up(tournament: Tournament, *, by: Actor) -> list[Registration]:
    """The waiting list in its order into the free places (all of it without a limit). One who
    cannot be entered (the director entered the same person meanwhile) stays waiting."""
    moved = []
    waiting = list(tournament.registrations.filter(status=Registration.Status.WAITING).order_by("created_at", "id"))
    free = (tournament.registration_limit - places_taken(tournament)) if tournament.registration_limit else len(waiting)
    for registration in waiting:
        if free <= 0:
            break
        try:
            with transaction.atomic(), audit.recording("registration_moved_up", by=by, tournament=tournament):
                registration.entry = tournaments.register_player(tournament=tournament, name=registration.name,
                                                                 club=registration.club,
                                                                 publication=registration.publication, by=by)
                registration.status = Registration.Status.REGISTERED
                registration.save()
        except UserError:
            continue
        moved.append(registration)
        free -= 1
    return moved


def set_registration(*, tournament: Tournament, open: bool, limit: int, by: Actor = SYSTEM) -> Tournament:
    """Opens or closes the public registration and sets the number of places (0: no limit); more
    places let the waiting list move up."""
    if not 0 <= limit <= MOST_PLACES:
        raise UserError(_("Plätze gehen von 0 (unbegrenzt) bis %(n)s.") % {"n": MOST_PLACES}, field="limit")
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        if (tournament.registration_open, tournament.registration_limit) == (open, limit):
            return tournament
        with audit.recording("registration_settings", by=by, tournament=tournament):
            tournament.registration_open, tournament.registration_limit = open, limit
            tournament.version += 1
            tournament.save(update_fields=["registration_open", "registration_limit", "version"])
            _move_up(tournament, by=by)
        return tournament


def set_present(*, entry: Entry, present: bool, by: Actor = SYSTEM) -> Entry:
    """Marks a player present at the door (or not). One who arrives after tables are published and
    has not played yet joins from the next round that is not ("late arrivals")."""
    with transaction.atomic():
        tournament = lock_tournament(entry.tournament_id)
        entry = tournament.entries.select_related("player").get(pk=entry.pk)
        if entry.present == present:
            return entry
        if present and entry.withdrawn_from_round is not None:
            raise UserError(_("%(name)s hat sich zurückgezogen; bitte erst auf der Spielerseite wieder aufnehmen.")
                            % {"name": entry.player.name})
        with audit.recording("checked_in" if present else "checked_out", by=by, tournament=tournament):
            entry.present = present
            if present and not entry.seats.exists():
                entry.joined_round = max(entry.joined_round, tournaments.first_open_round(tournament))
            entry.save(update_fields=["present", "joined_round"])
        return entry


def add_walk_in(*, tournament: Tournament, name: str, club: str = "", by: Actor = SYSTEM) -> Entry:
    """A player who comes to the door without registering: entered and present at once."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        with audit.recording("walk_in", by=by, tournament=tournament):
            entry = tournaments.register_player(tournament=tournament, name=name, club=club, by=by)
            entry.present = True
            entry.save(update_fields=["present"])
        return entry
