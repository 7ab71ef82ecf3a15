"""The registration's confirmation by e-mail (docs/tournament.md, "Anmeldung und Check-in").

Sent only when the site has mail set up (`mail_configured`): an SMTP server named by
DJANGO_EMAIL_HOST (config/settings.py), or a backend other than SMTP, console and dummy set in code
(the tests use Django's locmem). Django's default (SMTP to localhost) is not taken as set up: a
venue laptop has no mail server, and a registration must not wait for one. A mail that cannot be
sent is logged and otherwise ignored: the confirmation page shows the same link to save or print.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from ..models import Registration

log = logging.getLogger(__name__)

SMTP = "django.core.mail.backends.smtp.EmailBackend"
NOT_SENDING = {"django.core.mail.backends.console.EmailBackend", "django.core.mail.backends.dummy.EmailBackend"}


def mail_configured() -> bool:
    backend = settings.EMAIL_BACKEND
    if backend in NOT_SENDING:
        return False
    return backend != SMTP or bool(getattr(settings, "EMAIL_HOST", "") and settings.EMAIL_HOST != "localhost")


def address_of(registration: Registration) -> str:
    """The registration's contact when it is an e-mail address, else ""."""
    contact = registration.contact.strip()
    try:
        validate_email(contact)
    except ValidationError:
        return ""
    return contact


def send_confirmation(*, registration: Registration, link: str, waiting_place: int | None) -> bool:
    """The confirmation with the private link to the address the player gave; True when it went out."""
    address = address_of(registration)
    if not address or not mail_configured():
        return False
    context = {
        "registration": registration,
        "tournament": registration.tournament,
        "link": link,
        "waiting_place": waiting_place,
    }
    subject = (_("Warteliste: %(tournament)s") if waiting_place else _("Anmeldung: %(tournament)s")) % {
        "tournament": registration.tournament.name
    }
    try:
        send_mail(
            subject,
            render_to_string("tournament/registration_mail.txt", context),
            settings.DEFAULT_FROM_EMAIL,
            [address],
        )
    except Exception:  # a mail server down must not fail the registration; the page has the link
        log.exception("registration %s: confirmation not sent", registration.pk)
        return False
    return True
