"""Contact data of registrations (docs/security.md, "Contact data"): the e-mail address or phone
number a player may leave on the public registration page.

Only the tournament's directors see it (the director's list of registrations and the form to edit
one). It is erased when a registration is withdrawn (`checkin.withdraw_registrations`, and with a
player withdrawn on the players page), and for every other registration of a tournament
`settings.DOKO_CONTACT_RETENTION_DAYS` days (30) after the tournament's date (`erase_contacts`: the
command `manage.py erase_contacts`, daily, and at every start of `make serve`). The registration's
history never holds a contact (`models.Registration.history` leaves it out), so no old value outlives
the erasure. The contact a player leaves with a correction request on the hub (`CorrectionRequest`,
whose history leaves it out too) is erased by the same rule, with the tournament's."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import CorrectionRequest, Registration
from .locking import lock, lock_tournament


def erase_before(today: datetime.date | None = None) -> datetime.date:
    """Tournaments dated on or before this day have their contacts erased."""
    return (today or timezone.localdate()) - datetime.timedelta(days=settings.DOKO_CONTACT_RETENTION_DAYS)


def erase_contacts(*, today: datetime.date | None = None, by: Actor = SYSTEM) -> int:
    """Erases the contacts of the registrations of every tournament dated `DOKO_CONTACT_RETENTION_DAYS`
    days or more before `today`: one change per tournament ("Kontaktdaten gelöscht" in its change log).
    The correction requests' contacts of those tournaments go the same way. Returns how many were erased;
    running it again erases nothing more (safe to run daily)."""
    erased = 0
    before = erase_before(today)
    due = {
        *Registration.objects.exclude(contact="").filter(tournament__date__lte=before).values_list(
            "tournament_id", flat=True),
        *CorrectionRequest.objects.exclude(contact="").filter(tournament__date__lte=before).values_list(
            "tournament_id", flat=True),
    }
    for tournament_id in sorted(due):
        with transaction.atomic():
            tournament = lock_tournament(tournament_id)
            registrations = lock(tournament.registrations.exclude(contact=""))
            corrections = lock(tournament.correction_requests.exclude(contact=""))
            if not registrations and not corrections:
                continue
            with audit.recording("contacts_erased", by=by, tournament=tournament):
                for registration in registrations:
                    registration.contact = ""
                Registration.objects.bulk_update(registrations, ["contact"])
                audit.record_bulk(registrations, history_type="~")
                for correction in corrections:
                    correction.contact = ""
                CorrectionRequest.objects.bulk_update(corrections, ["contact"])
            erased += len(registrations) + len(corrections)
    return erased
