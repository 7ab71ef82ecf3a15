"""The waiting list of a tournament's public registration (docs/tournament.md, "Anmeldung und
Check-in"): how many may wait, and moving it up.

`fill_free_places` is the one function that moves the waiting list into free places. Every write
that frees a place calls it inside its own transaction and change, so the place never stays free for
the next newcomer while others wait: a registration withdrawn (`checkin.withdraw_registrations`, also
when it deletes the entry), a player withdrawn on the players page (`withdraw_player` here), more
places (`checkin.set_registration`); and a new registration calls it before it looks for a free place
(`checkin.register`), so that a place freed any other way (the admin, a shell) goes to the waiting
list first too.
"""

from __future__ import annotations

import re

from django.db import connection, transaction

from .. import names
from ..errors import UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Entry, Registration, Tournament
from ..models.tournaments import CATEGORIES
from . import tournaments
from .locking import TransactionRequired, lock_tournament

AUTOMATIC_WAITING = None  # Tournament.registration_waiting_limit: as many as the places, at least
LEAST_AUTOMATIC_WAITING = 10  # (an evening of one or two tables still has a waiting list worth the name)


def places_taken(tournament: Tournament) -> int:
    """The players of the tournament who are not withdrawn: what the limit of places counts (those
    the director added on the players page and walk-ins too)."""
    return tournament.entries.filter(withdrawn_from_round=None).count()


def waiting_places(tournament: Tournament) -> int | None:
    """How many may wait once the places are taken: the tournament's setting, or as many as there are
    places (at least 10); None without a limit of places (nobody waits then)."""
    if not tournament.registration_limit:
        return None
    if tournament.registration_waiting_limit is AUTOMATIC_WAITING:
        return max(tournament.registration_limit, LEAST_AUTOMATIC_WAITING)
    return tournament.registration_waiting_limit


def categories_named(tournament: Tournament, text: str) -> list[str]:
    """The tournament's categories a registration's category names, in the tournament's order: each
    part of the text (split at "," ";" "/") compared with a category's name and its label in the
    reader's language as names are compared ("damen" is "Damen"). A part that names none is left to
    the registration, where the director reads it."""
    wanted = {names.folded(part) for part in re.split(r"[,;/]", text) if part.strip()}
    return [name for name in tournament.category_names()
            if wanted & {names.folded(name), names.folded(str(CATEGORIES.get(name, name)))}]


def enter(*, tournament: Tournament, registration: Registration, by: Actor = SYSTEM) -> Entry:
    """The registration's entry: the player (as on the players page) with the categories its
    category names (`categories_named`) and the publication level the player chose (docs/privacy.md).
    The caller records the change."""
    return tournaments.register_players_checked(tournament=tournament, by=by, players=[tournaments.NewPlayer(
        registration.name, registration.club, publication=registration.publication,
        categories=categories_named(tournament, registration.category))])[0]


def fill_free_places(*, tournament: Tournament, by: Actor = SYSTEM) -> list[Registration]:
    """The waiting list, oldest first, into the free places (all of it without a limit): each gets its
    entry and is registered, recorded as "registration_moved_up" in the caller's change. One who
    cannot be entered (the director entered the same person meanwhile) stays waiting. The caller
    holds the tournament's lock, inside its transaction."""
    if not connection.in_atomic_block:
        raise TransactionRequired("fill_free_places() must run inside the transaction that freed the place")
    moved: list[Registration] = []
    waiting = list(tournament.registrations.filter(status=Registration.Status.WAITING).order_by("created_at", "id"))
    if not waiting:
        return moved
    free = (tournament.registration_limit - places_taken(tournament)) if tournament.registration_limit else len(waiting)
    for registration in waiting:
        if free <= 0:
            break
        try:
            with transaction.atomic(), audit.recording("registration_moved_up", by=by, tournament=tournament):
                registration.entry = enter(tournament=tournament, registration=registration, by=by)
                registration.status = Registration.Status.REGISTERED
                registration.save()
        except UserError:
            continue
        moved.append(registration)
        free -= 1
    return moved


def withdraw_player(*, entry: Entry, by: Actor = SYSTEM) -> Entry:
    """A player withdrawn on the players page (`tournaments.withdraw_player`: not seated from the next
    round whose tables are not published, results stay); a registration of theirs is withdrawn with
    them (its contact erased), and the waiting list moves up into the place, in the same change."""
    with transaction.atomic():
        tournament = lock_tournament(entry.tournament_id)
        if tournament.entries.filter(pk=entry.pk, withdrawn_from_round__isnull=False).exists():
            return tournament.entries.select_related("player").get(pk=entry.pk)
        with audit.recording("player_withdrawn", by=by, tournament=tournament):
            entry = tournaments.withdraw_player(entry=entry, by=by)
            registration = Registration.objects.filter(entry=entry, status=Registration.Status.REGISTERED).first()
            if registration is not None:
                registration.status = Registration.Status.WITHDRAWN
                registration.contact = ""
                registration.save()
            fill_free_places(tournament=tournament, by=by)
        return entry
