"""A player's private link to their registration (docs/tournament.md, "Anmeldung und Check-in"):
`/t/<slug>/anmeldung/<id>/<secret>/`, given once on the confirmation page (and by e-mail when the
site sends mail). With it, and nothing else (no account), the player sees their registration, cancels
it, and checks themselves in on the evening.

The secret is `Registration.link_token`, made by `checkin.register` like a table's entry link (24
characters from `secrets`). The registration is found by its id within the tournament, and the secret
compared in constant time (`secrets.compare_digest`): a wrong secret and a registration that does not
exist answer alike. The link is never shown on a public page, nor kept in the change log.

Self check-in proves who the player is by this link: whoever holds it is the one who registered. The
check-in QR at the venue (`/t/<slug>/checkin/selbst/`) leads a phone to the links it registered with
(a cookie of the phone that registered), or tells the player to open the link from their confirmation.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import UserError
from ..log.audit import Actor
from ..models import Registration, Seat, Tournament
from . import checkin
from .locking import lock_one, lock_tournament


def registration_of_link(*, slug: str, registration_id: int, token: str) -> Registration | None:
    """The registration a private link names, or None (no such registration, a registration of
    another tournament, one without a link, or the wrong secret: all alike)."""
    registration = (
        Registration.objects.select_related("tournament", "entry")
        .filter(pk=registration_id, tournament__slug=slug)
        .first()
    )
    known = registration.link_token if registration is not None else ""
    # compared in constant time even when there is nothing to compare with
    matches = secrets.compare_digest((known or "-" * 24).encode(), str(token).encode())
    if registration is None or not known or not matches:
        return None
    return registration


def started(tournament: Tournament) -> bool:
    """Round 1 is drawn (anyone has a seat): from then on the tables are being set up around the
    players, and a player cancels or checks in only through the director."""
    return Seat.objects.filter(round__tournament=tournament).exists()


def started_sentence() -> str:
    return _(
        "Das Turnier hat begonnen (Runde 1 ist ausgelost): eine Abmeldung über diesen Link ist nicht mehr "
        "möglich. Bitte sagen Sie der Turnierleitung Bescheid."
    )


def player_actor(registration: Registration) -> Actor:
    """How the change log names a change made through the private link."""
    return Actor(label=_("%(name)s (persönlicher Anmeldelink)") % {"name": registration.name})


def cancel(*, registration: Registration) -> Registration:
    """The player cancels their own registration: withdrawn as by the director's "Anmeldung
    streichen" (the entry goes, the contact is erased, the waiting list moves up into the place, one
    change), recorded as made by the player. Refused once round 1 is drawn."""
    if registration.status == Registration.Status.WITHDRAWN:
        raise UserError(_("Diese Anmeldung ist schon abgesagt."))
    with transaction.atomic():
        tournament = lock_tournament(registration.tournament_id)
        if started(tournament):
            raise UserError(started_sentence())
        withdrawn = checkin.withdraw_registrations(
            tournament=tournament, ids=[registration.pk], by=player_actor(registration)
        )
        if not withdrawn:
            raise UserError(_("Diese Anmeldung ist schon abgesagt."))
    registration.refresh_from_db()
    return registration


def self_checkin_refusal(registration: Registration, *, today=None) -> str:
    """Why the player cannot check in themselves now ("" when they can): self check-in must be on,
    it is the tournament's day, round 1 is not drawn, and the player has a place (not waiting)."""
    tournament = registration.tournament
    if not tournament.self_checkin:
        return _(
            "Die Turnierleitung hat den Check-in per Handy nicht eingeschaltet: bitte an der Turnierleitung melden."
        )
    if registration.status == Registration.Status.WITHDRAWN:
        return _("Diese Anmeldung ist abgesagt.")
    if registration.status == Registration.Status.WAITING or registration.entry_id is None:
        return _(
            "Sie stehen noch auf der Warteliste: einchecken kann nur, wer einen Platz hat. Bitte an der "
            "Turnierleitung melden."
        )
    if (today or timezone.localdate()) != tournament.date:
        return _("Einchecken per Handy geht nur am Turniertag (%(date)s).") % {
            "date": tournament.date.strftime("%d.%m.%Y")
        }
    if started(tournament):
        return _("Runde 1 ist schon ausgelost: bitte an der Turnierleitung melden.")
    return ""


def check_in(*, registration: Registration) -> Registration:
    """The player marks themselves present through their private link (`checkin.set_present`, one
    change, recorded as made by the player). Refused with the sentence of `self_checkin_refusal`."""
    with transaction.atomic():
        tournament = lock_tournament(registration.tournament_id)
        registration = lock_one(Registration.objects.filter(pk=registration.pk, tournament=tournament))
        registration.tournament = tournament
        refusal = self_checkin_refusal(registration)
        if refusal or registration.entry is None:  # (no entry: waiting, refused above)
            raise UserError(refusal)
        checkin.set_present(entry=registration.entry, present=True, by=player_actor(registration))
    return Registration.objects.select_related("tournament", "entry").get(pk=registration.pk)
