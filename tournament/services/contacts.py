"""Contact data of registrations (docs/security.md, "Contact data"): the e-mail address or phone
number a player may leave on the public registration page.

Only the tournament's directors see it (the director's list of registrations and the form to edit
one). It is erased when a registration is withdrawn (`checkin.withdraw_registrations`, and with a
player withdrawn on the players page), and for every other registration of a tournament
`settings.DOKO_CONTACT_RETENTION_DAYS` days (30) after the tournament's date (`erase_contacts`: the
command `manage.py erase_contacts`, daily, and at every start of `make serve`). The registration's
history never holds a contact (`models.Registration.history` leaves it out), so no old value outlives
the erasure."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Registration
from .locking import lock, lock_tournament


def erase_before(today: datetime.date | None = None) -> datetime.date:
    """Tournaments dated on or before this day have their contacts erased."""
    return (today or timezone.localdate()) - datetime.timedelta(days=settings.DOKO_CONTACT_RETENTION_DAYS)


def erase_contacts(*, today: datetime.date | None = None, by: Actor = SYSTEM) -> int:
    """Erases the contacts of the registrations of every tournament dated `DOKO_CONTACT_RETENTION_DAYS`
    days or more before `today`: one change per tournament ("Kontaktdaten gelöscht" in its change log).
    Returns how many were erased; running it again erases nothing more (safe to run daily)."""
    erased = 0
    due = (Registration.objects.exclude(contact="").filter(tournament__date__lte=erase_before(today))
           .values_list("tournament_id", flat=True).distinct().order_by("tournament_id"))
    for tournament_id in list(due):
        with transaction.atomic():
            tournament = lock_tournament(tournament_id)
            registrations = lock(tournament.registrations.exclude(contact=""))
            if not registrations:
                continue
            with audit.recording("contacts_erased", by=by, tournament=tournament):
                for registration in registrations:
                    registration.contact = ""
                Registration.objects.bulk_update(registrations, ["contact"])
                audit.record_bulk(registrations, history_type="~")
            erased += len(registrations)
    return erased
