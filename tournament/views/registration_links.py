"""A player's private registration link (services/registration_links.py): the confirmation page
they come to after registering (and keep, print or get by e-mail), cancelling with a confirmation,
checking themselves in, and the check-in page the venue's QR code opens. No account: the link's
secret is the proof. The pages with the link say so to the browser: not stored by shared caches, no
Referer to other sites (but the Origin header CSRF needs), not indexed."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..errors import UserError
from ..models import Registration, Tournament
from ..selectors import checkin as checkin_selectors
from ..services import registration_links
from ..web import addresses, rate_limits

# the phone that registered remembers its private links, so that the venue's check-in QR can offer
# them (`self_checkin_page`); signed, and each link is checked again when it is read
LINKS_COOKIE = "doko_anmeldungen"
LINKS_SALT = "registration-links"
LINKS_KEPT = 6
LINKS_MAX_AGE = 60 * 60 * 24 * 120


def private_path(registration: Registration) -> str:
    return reverse(
        "tournament:registration_own",
        kwargs={
            "slug": registration.tournament.slug,
            "registration_id": registration.pk,
            "token": registration.link_token,
        },
    )


def private_url(request, registration: Registration) -> str:
    """The address of the private link as a phone opens it (DJANGO_SITE_URL when set)."""
    return addresses.phone_url(request, private_path(registration))


def kept_links(request) -> list[tuple[int, str]]:
    """(registration id, secret) of the links this phone registered with, newest first."""
    text = request.get_signed_cookie(LINKS_COOKIE, default="", salt=LINKS_SALT, max_age=LINKS_MAX_AGE)
    kept = []
    for part in text.split(","):
        number, _sep, token = part.partition(":")
        if number.isascii() and number.isdigit() and len(number) < 12 and token:
            kept.append((int(number), token))
    return kept[:LINKS_KEPT]


def remember_link(request, response, registration: Registration) -> None:
    kept = [
        (registration.pk, registration.link_token),
        *[item for item in kept_links(request) if item[0] != registration.pk],
    ][:LINKS_KEPT]
    response.set_signed_cookie(
        LINKS_COOKIE,
        ",".join(f"{n}:{t}" for n, t in kept),
        salt=LINKS_SALT,
        max_age=LINKS_MAX_AGE,
        httponly=True,
        samesite="Lax",
    )


def private(response):
    """Headers of a page that shows the private link."""
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "same-origin"  # (no-referrer would send "Origin: null": CSRF refuses)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _own(slug: str, registration_id: int, token: str) -> Registration:
    registration = registration_links.registration_of_link(slug=slug, registration_id=registration_id, token=token)
    if registration is None:
        raise Http404
    return registration


def _limited(request, token: str):
    """A rate-limited POST: the message, and back to the page (nothing done)."""
    if rate_limits.registration_link_over(request, token):
        messages.error(request, rate_limits.registration_link_message())
        return True
    return False


def registration_own(request, slug, registration_id, token):
    """The player's own page (the confirmation after registering): where they stand, what they
    typed, the link to keep, cancelling and checking in."""
    registration = _own(slug, registration_id, token)
    tournament = registration.tournament
    refusal = registration_links.self_checkin_refusal(registration)
    entry = registration.entry
    response = render(
        request,
        "tournament/registration_own.html",
        {
            "tournament": tournament,
            "registration": registration,
            "waiting_place": checkin_selectors.waiting_place(registration),
            "start_number": entry.start_number if entry is not None else None,
            "present": entry is not None and entry.present,
            "link": private_url(request, registration),
            "started": registration_links.started(tournament),
            "started_sentence": registration_links.started_sentence(),
            "checkin_refusal": refusal if tournament.self_checkin else "",
            "can_check_in": not refusal and entry is not None and not entry.present,
            "withdrawn": registration.status == Registration.Status.WITHDRAWN,
            "mailed": request.GET.get("mail") == "1",
        },
    )
    remember_link(request, response, registration)
    return private(response)


def registration_cancel(request, slug, registration_id, token):
    """Cancelling: a GET asks first ("Wirklich absagen?"), a POST with confirm=yes cancels."""
    registration = _own(slug, registration_id, token)
    own = private_path(registration)
    if registration.status == Registration.Status.WITHDRAWN:
        messages.info(request, _("Diese Anmeldung ist schon abgesagt."))
        return redirect(own)
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        if _limited(request, token):
            return redirect(own)
        try:
            registration_links.cancel(registration=registration)
        except UserError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request,
                _(
                    "Ihre Anmeldung ist abgesagt. Danke für die Nachricht: der Platz geht an "
                    "den Nächsten auf der Warteliste."
                ),
            )
        return redirect(own)
    started = registration_links.started(registration.tournament)
    return private(
        render(
            request,
            "tournament/registration_cancel.html",
            {
                "tournament": registration.tournament,
                "registration": registration,
                "own": own,
                "started": registration_links.started_sentence() if started else "",
            },
        )
    )


@require_POST
def registration_checkin(request, slug, registration_id, token):
    """The player marks themselves present through their link (or the venue's check-in page)."""
    registration = _own(slug, registration_id, token)
    own = private_path(registration)
    if _limited(request, token):
        return redirect(own)
    try:
        registration = registration_links.check_in(registration=registration)
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("%(name)s ist eingecheckt: schön, dass Sie da sind! Die Tische werden gleich ausgelost.")
            % {"name": registration.name},
        )
    return redirect(own)


def self_checkin_page(request, slug):
    """What the venue's check-in QR opens: the registrations this phone made (their private links,
    remembered by the phone), each with a button to check in; otherwise how to check in."""
    tournament = get_object_or_404(Tournament, slug=slug)
    mine = []
    for registration_id, token in kept_links(request):
        registration = registration_links.registration_of_link(slug=slug, registration_id=registration_id, token=token)
        if registration is not None and registration.status != Registration.Status.WITHDRAWN:
            entry = registration.entry
            mine.append(
                {
                    "registration": registration,
                    "path": private_path(registration),
                    "checkin_path": reverse(
                        "tournament:registration_checkin",
                        kwargs={"slug": slug, "registration_id": registration.pk, "token": token},
                    ),
                    "present": entry is not None and entry.present,
                    "refusal": registration_links.self_checkin_refusal(registration),
                }
            )
    return private(
        render(
            request,
            "tournament/self_checkin.html",
            {
                "tournament": tournament,
                "mine": mine,
                "started": registration_links.started(tournament),
            },
        )
    )
