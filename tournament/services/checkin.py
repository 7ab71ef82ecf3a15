"""Registration and check-in (docs/tournament.md, "Anmeldung und Check-in"): a player registers on
the tournament's public page (an entry at once while there are places, else the waiting list), the
director edits and withdraws registrations (the first on the waiting list moves up), and on the
evening marks who is present and adds walk-ins. Once anyone is marked present, a draw seats only
those present (`seating.playing_entries`).

Every change locks the tournament (`locking.lock_tournament`) and records itself (`audit.recording`);
the players' entries are made and changed through `services.tournaments`, as on the players page.
"""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from .. import names, privacy
from ..errors import UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Entry, Registration, Tournament
from ..selectors.overview import is_finished
from . import privacy as privacy_services
from . import tournaments
from .locking import lock, lock_one, lock_tournament
from .waiting_list import enter, fill_free_places, places_taken, waiting_places, withdraw_player

LINK_TOKEN_BYTES = 18  # the private link's secret (services/registration_links.py)
CATEGORY_LENGTH = 60  # Registration.category
CONTACT_LENGTH = 200  # Registration.contact
MOST_PLACES = 5000


def finished_sentence() -> str:
    """Why a finished tournament takes no registration (the page says it, the service refuses with it)."""
    return _("Das Turnier ist beendet: eine Anmeldung ist nicht mehr möglich.")


def deadline_text(deadline: datetime.datetime) -> str:
    """The registration deadline as the page says it, in the site's time zone ("20.11.2026 18:00")."""
    return formats.date_format(timezone.localtime(deadline), "SHORT_DATETIME_FORMAT")


def deadline_passed(tournament: Tournament, *, now: datetime.datetime | None = None) -> bool:
    deadline = tournament.registration_deadline
    return deadline is not None and (now or timezone.now()) >= deadline


def deadline_sentence(tournament: Tournament) -> str:
    """Why a registration after the deadline is refused (the page says it, the service refuses with it)."""
    assert tournament.registration_deadline is not None
    return _("Die Anmeldung ist seit %(deadline)s Uhr geschlossen (Anmeldeschluss).") % {
        "deadline": deadline_text(tournament.registration_deadline)}


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


def _check_taken(tournament: Tournament, name: str, club: str, *, registration: Registration | None = None) -> None:
    """Refuses a registration of a person (`names.identity`) who is a player of the tournament, or
    registered or waiting already, in every state of the tournament: with places free, full, or with
    the waiting list full (else the same person could go onto the waiting list once the places were
    taken, and would never move up). `registration`: the one being corrected, not compared with itself."""
    identity = names.identity(name, club)
    entries = tournament.entries.all()
    others = tournament.registrations.exclude(status=Registration.Status.WITHDRAWN)
    if registration is not None:
        others = others.exclude(pk=registration.pk)
        if registration.entry_id is not None:
            entries = entries.exclude(pk=registration.entry_id)
    for entry_name, entry_club, withdrawn in entries.values_list("player__name", "player__club",
                                                                 "withdrawn_from_round"):
        if names.identity(entry_name, entry_club) == identity:
            person = names.person_text(entry_name, entry_club)
            if withdrawn is not None:
                raise UserError(_("%(name)s hat sich von diesem Turnier zurückgezogen; bitte bei der Turnierleitung "
                                  "melden.") % {"name": person}, field="name")
            raise UserError(_("%(name)s ist schon angemeldet.") % {"name": person}, field="name")
    for other_name, other_club, status in others.values_list("name", "club", "status"):
        if names.identity(other_name, other_club) == identity:
            person = names.person_text(other_name, other_club)
            if status == Registration.Status.WAITING:
                raise UserError(_("%(name)s steht schon auf der Warteliste.") % {"name": person}, field="name")
            raise UserError(_("%(name)s ist schon angemeldet.") % {"name": person}, field="name")


def register(*, tournament: Tournament, name: str, club: str = "", category: str = "", contact: str = "",
             publication: str = privacy.FULL, by: Actor = SYSTEM) -> Registration:
    """A registration from the public page: an entry at once while places are free (or there is no
    limit), else a place on the waiting list while it has room (`waiting_list.waiting_places`). The
    waiting list moves into any free place first: a newcomer never gets a place ahead of those waiting.
    `publication`: what the player chose to be shown as (docs/privacy.md); their record gets it (one
    that exists only where it shows less)."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        if not tournament.registration_open:
            raise UserError(_("Die Anmeldung zu diesem Turnier ist geschlossen."))
        if deadline_passed(tournament):
            raise UserError(deadline_sentence(tournament))
        if is_finished(tournament):  # open or not: nobody is told they "rückt nach" after the last round
            raise UserError(finished_sentence())
        name, club = tournaments.clean_name(name, club)
        category, contact = _clean_extra(category, contact)
        _check_taken(tournament, name, club)
        with audit.recording("registration_received", by=by, tournament=tournament):
            fill_free_places(tournament=tournament, by=by)
            full = bool(tournament.registration_limit) and places_taken(tournament) >= tournament.registration_limit
            room = waiting_places(tournament)
            if full and room is not None and tournament.registrations.filter(
                    status=Registration.Status.WAITING).count() >= room:
                raise UserError(_("Alle Plätze und alle %(n)s Plätze auf der Warteliste sind vergeben: eine "
                                  "Anmeldung ist nicht mehr möglich.") % {"n": room})
            registration = Registration(tournament=tournament, name=name, club=club, category=category,
                                        contact=contact, publication=privacy_services.checked_level(publication),
                                        link_token=secrets.token_urlsafe(LINK_TOKEN_BYTES),
                                        status=Registration.Status.WAITING if full else
                                        Registration.Status.REGISTERED)
            if not full:
                registration.entry = enter(tournament=tournament, registration=registration, by=by)
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
        if registration.status != Registration.Status.WITHDRAWN:
            _check_taken(tournament, name, club, registration=registration)
        if registration.status == Registration.Status.WITHDRAWN:
            contact = ""  # erased with the withdrawal, not typed in again
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
    """One registration withdrawn ("Anmeldung streichen"; `withdraw_registrations`)."""
    withdraw_registrations(tournament=registration.tournament, ids=[registration.pk], by=by)
    registration.refresh_from_db()
    return registration


def withdraw_registrations(*, tournament: Tournament, ids: list[int], by: Actor = SYSTEM) -> list[Registration]:
    """Registrations withdrawn at once (the director strikes a flood of them): an entry that has not
    been seated yet goes (the player never played), one that has is withdrawn like on the players page
    (its rounds stay); the contact is erased at once (docs/security.md, "Contact data"). Then the
    waiting list moves up into the free places, once, after all of them went: one change. Those of
    another tournament and those withdrawn already are left alone; returns the ones withdrawn."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        chosen = lock(tournament.registrations.filter(pk__in=ids).exclude(status=Registration.Status.WITHDRAWN))
        if not chosen:
            return []
        with audit.recording("registration_withdrawn", by=by, tournament=tournament):
            entries = {e.pk: e for e in Entry.objects.filter(pk__in=[r.entry_id for r in chosen if r.entry_id])}
            seated = set(Entry.objects.filter(pk__in=list(entries), seats__isnull=False).values_list("pk", flat=True))
            for registration in sorted(chosen, key=lambda r: (r.created_at, r.pk)):
                entry = entries.get(registration.entry_id) if registration.entry_id else None
                if entry is not None and entry.pk in seated:
                    tournaments.withdraw_player(entry=entry, by=by)
                elif entry is not None:
                    registration.entry = None
                    registration.save(update_fields=["entry"])
                    entry.delete()
                registration.status = Registration.Status.WITHDRAWN
                registration.contact = ""
                registration.save()
            fill_free_places(tournament=tournament, by=by)  # (one change with the withdrawals)
        return chosen


UNCHANGED: Any = object()  # set_registration: a setting not given stays as it is


def set_registration(*, tournament: Tournament, open: bool, limit: int, waiting: int | None = None,
                     deadline: datetime.datetime | None = UNCHANGED, self_checkin: bool = UNCHANGED,
                     by: Actor = SYSTEM) -> Tournament:
    """Opens or closes the public registration and sets the number of places (0: no limit) and of
    places on the waiting list (None: as many as the places; 0: none); more places let the waiting
    list move up. Fewer places on the waiting list take nobody off it: only newcomers are refused.
    `deadline`: the moment after which the public page takes nobody (None: none); `self_checkin`:
    players check themselves in with their private link (services/registration_links.py); either
    left out stays as it is."""
    if not 0 <= limit <= MOST_PLACES:
        raise UserError(_("Plätze gehen von 0 (unbegrenzt) bis %(n)s.") % {"n": MOST_PLACES}, field="limit")
    if waiting is not None and not 0 <= waiting <= MOST_PLACES:
        raise UserError(_("Plätze auf der Warteliste gehen von 0 bis %(n)s.") % {"n": MOST_PLACES}, field="waiting")
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        if deadline is UNCHANGED:
            deadline = tournament.registration_deadline
        if self_checkin is UNCHANGED:
            self_checkin = tournament.self_checkin
        wanted = (open, limit, waiting, deadline, self_checkin)
        if (tournament.registration_open, tournament.registration_limit, tournament.registration_waiting_limit,
                tournament.registration_deadline, tournament.self_checkin) == wanted:
            return tournament
        with audit.recording("registration_settings", by=by, tournament=tournament):
            (tournament.registration_open, tournament.registration_limit, tournament.registration_waiting_limit,
             tournament.registration_deadline, tournament.self_checkin) = wanted
            tournament.version += 1
            tournament.save(update_fields=["registration_open", "registration_limit", "registration_waiting_limit",
                                           "registration_deadline", "self_checkin", "version"])
            fill_free_places(tournament=tournament, by=by)
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


def add_walk_in(*, tournament: Tournament, name: str, club: str = "", categories: list[str] | None = None,
                by: Actor = SYSTEM) -> Entry:
    """A player who comes to the door without registering: entered and present at once, with the
    tournament's `categories` chosen at the door (for the prize list)."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        offered = tournament.category_names()
        unknown = [category for category in categories or [] if category not in offered]
        if unknown:
            raise UserError(_("Die Kategorie „%(name)s“ gibt es in diesem Turnier nicht.") % {"name": unknown[0]},
                            field="category")
        with audit.recording("walk_in", by=by, tournament=tournament):
            name, club = tournaments.clean_name(name, club)
            entry = tournaments.register_players_checked(tournament=tournament, by=by, players=[tournaments.NewPlayer(
                name, club, categories=[category for category in offered if category in (categories or [])])])[0]
            entry.present = True
            entry.save(update_fields=["present"])
        return entry


def withdraw_no_show(*, entry: Entry, by: Actor = SYSTEM) -> Entry:
    """A player who did not come, withdrawn from the check-in list: not seated from the next round whose
    tables are not published (`waiting_list.withdraw_player`, as on the players page: a registration of
    theirs is withdrawn, the waiting list moves up), and no longer marked present. Without a result
    they get no place in the standings (docs/tournament.md, "Wer keinen Platz bekommt")."""
    with transaction.atomic():
        tournament = lock_tournament(entry.tournament_id)
        entry = tournament.entries.select_related("player").get(pk=entry.pk)
        if entry.withdrawn_from_round is not None:
            return entry
        with audit.recording("player_withdrawn", by=by, tournament=tournament):
            if entry.present:
                entry.present = False
                entry.save(update_fields=["present"])
            return withdraw_player(entry=entry, by=by)
