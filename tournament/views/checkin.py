"""Registration and check-in (docs/tournament.md, "Anmeldung und Check-in"): the public registration
page, the director's list of registrations, and the evening's check-in list."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from ..collation import matches
from ..errors import UserError
from ..forms.checkin import RegistrationForm, RegistrationSettingsForm, WalkInForm, WithdrawRegistrationsForm
from ..log.audit import Actor
from ..models import Entry, Registration, Tournament
from ..printing import posters
from ..printing import render as pdf_render
from ..selectors import checkin as checkin_selectors
from ..selectors.overview import is_finished
from ..services import checkin
from ..web import addresses, mail, rate_limits
from ..web.qrcodes import qr_svg
from .access import _set_role, director_required
from .printing import _file_response
from .registration_links import private_path, private_url, remember_link


def _form_error(form, error: UserError) -> None:
    form.add_error(error.field if error.field in form.fields else None, error.message)


def registration_page(request, slug):
    """The public registration (while the director has it open; a 404 otherwise, for everyone but the
    tournament's directors and helpers): a form and who registered, without any contact."""
    tournament = get_object_or_404(Tournament, slug=slug)
    _set_role(request, tournament)
    if not tournament.registration_open and not request.can_enter:
        raise Http404
    form = RegistrationForm(request.POST or None, categories=tournament.category_names())
    # anyone but the tournament's directors and helpers: a limit per client address (docs/security.md)
    limited = request.method == "POST" and not request.can_enter and rate_limits.registration_over(request)
    if request.method == "POST" and not limited and form.is_valid():
        try:
            registration = checkin.register(tournament=tournament, **form.cleaned_data, by=Actor.of(request))
        except UserError as error:
            _form_error(form, error)
        else:
            return _registered(request, registration)
    listed = checkin_selectors.public_registrations(tournament)
    finished = is_finished(tournament)
    deadline = tournament.registration_deadline
    closed_since = checkin.deadline_sentence(tournament) if checkin.deadline_passed(tournament) else ""
    response = render(request, "tournament/registration.html", {
        "tournament": tournament, "form": form, "finished": checkin.finished_sentence() if finished else "",
        "closed_since": closed_since,
        "deadline": checkin.deadline_text(deadline) if deadline is not None and not closed_since else "",
        "registered": [r for r in listed if not r.waiting],
        "waiting": [r for r in listed if r.waiting], "taken": checkin.places_taken(tournament),
        "limited": rate_limits.registration_message() if limited else "",
    }, status=429 if limited else 200 if form.is_bound is False or form.is_valid() else 400)
    if limited:
        response["Retry-After"] = str(limited)
    return response


def _registered(request, registration: Registration):
    """After a registration: to the player's private page (the confirmation), with the mail sent
    when the site sends mail and the player gave an e-mail address."""
    place = checkin_selectors.waiting_place(registration)
    if place is not None:
        messages.warning(request, _("Alle Plätze sind vergeben: %(name)s steht auf der Warteliste (Platz %(place)s) "
                                    "und rückt nach, sobald jemand absagt.") % {"name": registration.name,
                                                                                "place": place})
    else:
        messages.success(request, _("%(name)s ist angemeldet.") % {"name": registration.name})
    registration.tournament = Tournament.objects.get(pk=registration.tournament_id)
    mailed = mail.send_confirmation(registration=registration, link=private_url(request, registration),
                                    waiting_place=place)
    path = private_path(registration)
    response = redirect(path + "?mail=1" if mailed else path)
    remember_link(request, response, registration)  # the venue's check-in QR offers it on this phone
    return response


@director_required
def registrations_page(request, tournament):
    """The director's list: every registration with its contact and where it stands; the settings."""
    deadline = tournament.registration_deadline
    form = RegistrationSettingsForm(request.POST or None, initial={
        "open": tournament.registration_open, "limit": tournament.registration_limit,
        "waiting": tournament.registration_waiting_limit,
        "deadline": timezone.localtime(deadline) if deadline is not None else None,
        "self_checkin": tournament.self_checkin})
    if request.method == "POST" and form.is_valid():
        try:
            checkin.set_registration(tournament=tournament, open=form.cleaned_data["open"],
                                     limit=form.cleaned_data["limit"], waiting=form.cleaned_data["waiting"],
                                     deadline=form.cleaned_data["deadline"],
                                     self_checkin=form.cleaned_data["self_checkin"], by=Actor.of(request))
        except UserError as error:
            _form_error(form, error)
        else:
            messages.success(request, _("Gespeichert."))
            return redirect("tournament:registrations", slug=tournament.slug)
    public_url = addresses.phone_url(request, reverse("tournament:registration", args=[tournament.slug]))
    checkin_url = addresses.phone_url(request, reverse("tournament:self_checkin", args=[tournament.slug]))
    return render(request, "tournament/registrations.html", {
        "tournament": tournament, "form": form, "registrations": checkin_selectors.registrations(tournament),
        "taken": checkin.places_taken(tournament), "waiting_places": checkin.waiting_places(tournament),
        "public_url": public_url, "public_qr": qr_svg(public_url, scale=4),
        "checkin_url": checkin_url, "checkin_qr": qr_svg(checkin_url, scale=4) if tournament.self_checkin else "",
        "loopback": addresses.unreachable_from_phones(public_url),
    }, status=400 if form.is_bound and not form.is_valid() else 200)


def _registration(tournament, registration_id) -> Registration:
    return get_object_or_404(Registration, pk=registration_id, tournament=tournament)


@director_required
def registration_edit(request, tournament, registration_id):
    registration = _registration(tournament, registration_id)
    form = RegistrationForm(request.POST or None, initial={
        "name": registration.name, "club": registration.club, "category": registration.category,
        "contact": registration.contact, "publication": registration.publication})
    if request.method == "POST" and form.is_valid():
        try:
            data = {**form.cleaned_data, "publication": form.cleaned_data["publication"]
                    if request.POST.get("publication") else None}  # not sent: unchanged
            checkin.edit_registration(registration=registration, **data, by=Actor.of(request))
        except UserError as error:
            _form_error(form, error)
        else:
            messages.success(request, _("Gespeichert."))
            return redirect("tournament:registrations", slug=tournament.slug)
    return render(request, "tournament/registration_edit.html", {
        "tournament": tournament, "registration": registration, "form": form,
    }, status=400 if form.is_bound and not form.is_valid() else 200)


@require_POST
@director_required
def registration_withdraw(request, tournament, registration_id):
    registration = _registration(tournament, registration_id)
    _withdraw(request, tournament, [registration.pk])
    return redirect("tournament:registrations", slug=tournament.slug)


@require_POST
@director_required
def registrations_withdraw(request, tournament):
    """Strikes the registrations ticked on the director's list at once (a flood of spam, say)."""
    form = WithdrawRegistrationsForm(request.POST, tournament=tournament)
    if form.is_valid():
        _withdraw(request, tournament, [r.pk for r in form.cleaned_data["registrations"]])
    else:
        messages.error(request, _("Bitte die Anmeldungen ankreuzen, die gestrichen werden sollen."))
    return redirect("tournament:registrations", slug=tournament.slug)


def _withdraw(request, tournament, ids: list[int]) -> None:
    waiting_before = set(tournament.registrations.filter(status=Registration.Status.WAITING)
                         .values_list("id", flat=True))
    withdrawn = checkin.withdraw_registrations(tournament=tournament, ids=ids, by=Actor.of(request))
    if len(withdrawn) == 1:
        messages.success(request, _("%(name)s ist abgemeldet.") % {"name": withdrawn[0].name})
    elif withdrawn:
        messages.success(request, ngettext("%(n)s Anmeldung ist gestrichen.", "%(n)s Anmeldungen sind gestrichen.",
                                           len(withdrawn)) % {"n": len(withdrawn)})
    moved_up(request, tournament, waiting_before)


def moved_up(request, tournament, waiting_before: set[int]) -> None:
    """Says who moved up from the waiting list (those waiting before, registered now)."""
    for name in tournament.registrations.filter(pk__in=waiting_before, status=Registration.Status.REGISTERED
                                                ).values_list("name", flat=True):
        messages.success(request, _("%(name)s rückt von der Warteliste nach.") % {"name": name})


@director_required
def checkin_page(request, tournament):
    """The evening's list: tap a name to mark the player present, search, add a walk-in."""
    form = WalkInForm(request.POST or None, categories=tournament.category_names())
    if request.method == "POST" and form.is_valid():
        try:
            entry = checkin.add_walk_in(tournament=tournament, **form.cleaned_data, by=Actor.of(request))
        except UserError as error:
            _form_error(form, error)
        else:
            messages.success(request, _("%(name)s ist angemeldet und anwesend, Startnummer %(number)s.")
                             % {"name": entry.player.name, "number": entry.start_number})
            return redirect("tournament:checkin", slug=tournament.slug)
    rows = checkin_selectors.checkin_rows(tournament)
    query = request.GET.get("q", "").strip()
    for row in rows:  # without JavaScript the search is this form (`collation.matches`: "kraemer" finds Krämer)
        row.hidden = bool(query) and not (matches(query, row.name) or matches(query, row.club))
    return render(request, "tournament/checkin.html", {
        "tournament": tournament, "form": form, "rows": rows, "query": query,
        "present": sum(1 for row in rows if row.present), "active": sum(1 for row in rows if not row.withdrawn),
        "in_use": any(row.present for row in rows),
    }, status=400 if form.is_bound and not form.is_valid() else 200)


@require_POST
@director_required
def checkin_mark(request, tournament, entry_id):
    """Marks a player present (present=1) or not (present=0), from the check-in list."""
    entry = get_object_or_404(Entry, pk=entry_id, tournament=tournament)
    present = request.POST.get("present") == "1"
    try:
        checkin.set_present(entry=entry, present=present, by=Actor.of(request))
    except UserError as error:
        messages.error(request, error.message)
    return _back_to_list(request, tournament, entry)


def _back_to_list(request, tournament, entry):
    """The check-in list again, at the player's line, with the search that was typed."""
    query = request.POST.get("q", "").strip()
    url = reverse("tournament:checkin", args=[tournament.slug])
    return redirect(f"{url}?{urlencode({'q': query})}#e{entry.pk}" if query else f"{url}#e{entry.pk}")



@director_required
def registration_poster(request, tournament):
    """The poster for the door or the club's notice board (A4 PDF): name, date, places, the
    registration page's address as a QR code and in large type; with self check-in on, its QR too."""
    registration_url = addresses.phone_url(request, reverse("tournament:registration", args=[tournament.slug]))
    checkin_url = (addresses.phone_url(request, reverse("tournament:self_checkin", args=[tournament.slug]))
                   if tournament.self_checkin else "")
    html = posters.poster_html(tournament, registration_url=registration_url, checkin_url=checkin_url)
    return _file_response(pdf_render.pdf_file(html), f"{tournament.slug}-anmeldung.pdf")


@require_POST
@director_required
def checkin_withdraw(request, tournament, entry_id):
    """Withdraws a player who did not come, from the check-in list (confirmed there first)."""
    entry = get_object_or_404(Entry, pk=entry_id, tournament=tournament)
    if request.POST.get("confirm") != "1":
        messages.error(request, _("Bitte bestätigen, dass %(name)s zurückgezogen werden soll.")
                       % {"name": entry.player.name})
        return _back_to_list(request, tournament, entry)
    waiting_before = set(tournament.registrations.filter(status=Registration.Status.WAITING)
                         .values_list("id", flat=True))
    entry = checkin.withdraw_no_show(entry=entry, by=Actor.of(request))
    messages.success(request, _("%(name)s ist zurückgezogen und wird ab Runde %(round)s nicht mehr ausgelost.")
                     % {"name": entry.player.name, "round": entry.withdrawn_from_round})
    moved_up(request, tournament, waiting_before)
    return _back_to_list(request, tournament, entry)

