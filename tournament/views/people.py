"""Players across clubs on the hub (docs/hub.md, "Players across clubs"): a person's page over every
club's published tournaments with the correction form (`/spieler/<record>/`), the organisation's page
where its directors decide who of their guests is the same person (`/o/<organisation>/spieler/`), and
a tournament's correction requests for its directors (`/t/<slug>/korrekturen/`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from ..errors import UserError
from ..forms.people import AnswerForm, CorrectionForm
from ..log.audit import Actor
from ..models import CorrectionRequest, Organisation
from ..selectors import organisations_of, people
from ..services import corrections, identities
from ..templatetags.doko import total
from ..web import cache_keys, rate_limits
from ..web.charts import places_svg, rangliste_places_svg
from .access import director_required


def _options(choices: list[tuple[str, str]], chosen: str = "") -> str:
    """The correction form's tournaments as <option>s (Django's Select renders each through a template)."""
    selected = mark_safe(" selected")  # noqa: S308 (a constant)
    return format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        ((value, selected if value == chosen else "", label) for value, label in [("", "—"), *choices]),
    )


def _person(record: int) -> tuple[str, list[tuple[str, str]], dict[str, tuple[int, int]], str] | None:
    """The page without the frame and the form, the form's tournaments and what each choice names
    (tournament id, the record that played it); kept `HUB_TIMEOUT` seconds."""
    key = cache_keys.hub_person(record)
    kept = cache.get(key)
    if kept is None:
        page = people.person_page(record)
        if page is None:
            kept = ("", [], {}, "")
        else:
            chart = places_svg(
                [(row.date, row.place, row.players) for row in page.places],
                title=_("Plätze von %(name)s") % {"name": page.name},
            )
            ranglisten = [
                (places, rangliste_places_svg(places.days, rangliste=places.rangliste)) for places in page.ranglisten
            ]
            html = render_to_string(
                "tournament/hub/_person.html",
                {"page": page, "chart": chart, "rows": _rows_html(_cells(page)), "ranglisten": ranglisten},
            )
            choices = [(row.slug, f"{row.tournament} ({row.date:%d.%m.%Y})") for row in page.rows]
            kept = (
                html,
                choices,
                {row.slug: (row.tournament_id, row.player_id) for row in page.rows},
                _options(choices),
            )
        cache.set(key, kept, cache_keys.HUB_TIMEOUT)
    return kept if kept[0] else None


@dataclass(frozen=True)
class Cells:
    """A history row as the page writes it: every text made here once (300 `{% url %}` and number
    filters in the template cost more than the page's queries)."""

    href: str
    tournament: str
    iso_date: str
    date: str
    club: str
    note: str  # why a row has no place: its Tabelle is private, or it has no results
    place: str
    players: str
    rounds: str
    points: str
    average: str


def _cells(page: people.PersonPage) -> list[Cells]:
    placeholder = "slug-placeholder"
    overview = reverse("tournament:overview", args=[placeholder])
    player = reverse("tournament:player", args=[placeholder, 999_999_999]).replace("999999999", "{entry}")
    rows = []
    for row in page.rows:
        href = (
            player.replace(placeholder, row.slug).replace("{entry}", str(row.entry_id))
            if row.entry_id
            else overview.replace(placeholder, row.slug)
        )
        average = row.average
        rows.append(
            Cells(
                href=href,
                tournament=row.tournament,
                iso_date=row.date.isoformat(),
                date=formats.date_format(row.date, "SHORT_DATE_FORMAT"),
                club=row.club,
                note=_note(row),
                place=str(row.place) if row.place else "–",
                players=str(row.players) if row.place else "",
                rounds=str(row.rounds),
                points=total(row.points) if row.points is not None else "–",
                average=total(average) if average is not None else "–",
            )
        )
    return rows


def _note(row: people.HistoryRow) -> str:
    if row.place is not None:
        return ""
    if not row.standings_public:
        return " · " + _("Tabelle nicht öffentlich")
    return " · " + _("keine Ergebnisse veröffentlicht")


ROW = (
    '<tr><td><a href="{}">{}</a><span class="club"><time datetime="{}">{}</time> · {}{}</span></td>'
    '<td class="num">{}{}</td><td class="num secondary">{}</td><td class="num secondary">{}</td>'
    '<td class="num">{}</td></tr>\n'
)


def _rows_html(cells: list[Cells]) -> str:
    """The history's table rows, written here in one pass: 300 rows of ten fields through the template
    engine were a third of the page's first render (docs/performance.md, the hub)."""
    return format_html_join(
        "",
        ROW,
        (
            (
                row.href,
                row.tournament,
                row.iso_date,
                row.date,
                row.club,
                row.note,
                row.place,
                format_html('<span class="muted">/{}</span>', row.players) if row.players else "",
                row.rounds,
                row.points,
                row.average,
            )
            for row in cells
        ),
    )


def person_page(request, record: int):
    found = _person(record)
    if found is None:
        raise Http404
    html, choices, chosen, options = found
    form = CorrectionForm(request.POST if request.method == "POST" else None, tournaments=[("", "—"), *choices])
    limited = request.method == "POST" and rate_limits.correction_over(request)
    if request.method == "POST" and not limited and form.is_valid():
        tournament_id, player_id = chosen[form.cleaned_data["tournament"]]
        try:
            corrections.request_correction(
                tournament=tournament_id,
                player_id=player_id,
                text=form.cleaned_data["text"],
                contact=form.cleaned_data["contact"],
                by=Actor(label=_("Spielerseite")),
            )
        except UserError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("Danke! Ihre Anfrage ist bei der Turnierleitung eingegangen."))
            return redirect("tournament:person", record)
    if form.is_bound:
        options = _options(choices, str(form.data.get("tournament", "")))
    status = 429 if limited else 400 if form.is_bound and form.errors else 200
    response = render(
        request,
        "tournament/hub/person.html",
        {
            "listing": mark_safe(html),
            "options": options,
            "form": form,
            "record": record,  # noqa: S308 (our template's output)
            "limited": rate_limits.correction_message() if limited else "",
        },
        status=status,
    )
    if limited:
        response["Retry-After"] = str(limited)
    return response


def _organisation(request, organisation_slug: str) -> Organisation:
    organisation = get_object_or_404(Organisation, slug=organisation_slug)
    if not request.user.is_superuser and organisation not in organisations_of(request.user):
        raise PermissionDenied
    return organisation


def _number(value) -> int | None:
    text = str(value or "").strip()
    return int(text) if text.isdigit() and len(text) < 18 else None


@login_required
def identities_page(request, organisation_slug):
    """The organisation's guests with the records elsewhere that may be them: confirm, reject, undo."""
    organisation = _organisation(request, organisation_slug)
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action in ("same", "different"):
                player, other = _number(request.POST.get("player")), _number(request.POST.get("other"))
                if player is None or other is None:
                    raise UserError(_("Diesen Spieler gibt es in Ihrer Organisation nicht (mehr)."))
                identities.decide_identity(
                    organisation=organisation,
                    player_id=player,
                    other_id=other,
                    same=action == "same",
                    by=Actor.of(request),
                )
                messages.success(
                    request,
                    _("Gespeichert: dieselbe Person.") if action == "same" else _("Gespeichert: eine andere Person."),
                )
            elif action == "undo":
                decision = _number(request.POST.get("decision"))
                if decision is None:
                    raise UserError(_("Diese Entscheidung gibt es nicht (mehr)."))
                identities.undo_identity(organisation=organisation, decision_id=decision, by=Actor.of(request))
                messages.success(request, _("Die Entscheidung ist zurückgenommen."))
            else:
                raise UserError(_("Bitte wählen Sie: dieselbe Person, eine andere Person oder zurücknehmen."))
        except UserError as error:
            messages.error(request, error.message)
        return redirect("tournament:identities", organisation.slug)
    return render(
        request,
        "tournament/hub/identities.html",
        {"organisation": organisation, "page": people.identity_page(organisation)},
    )


def _answer_form(item: people.Correction) -> AnswerForm:
    """The answer form of one request: its answer so far filled in (the director changes it)."""
    answered = item.status != CorrectionRequest.Status.OPEN
    return AnswerForm(
        initial={"status": item.status, "answer": item.answer} if answered else None, auto_id=f"id_%s_{item.id}"
    )


@director_required
def corrections_page(request, tournament):
    """The tournament's correction requests, open ones first, each answered with a sentence."""
    request_id = _number(request.POST.get("request")) if request.method == "POST" else None
    form = AnswerForm(request.POST if request.method == "POST" else None, auto_id=f"id_%s_{request_id}")
    if request.method == "POST":
        if form.is_valid() and request_id is not None:
            try:
                corrections.answer_correction(
                    tournament=tournament,
                    request_id=request_id,
                    status=form.cleaned_data["status"],
                    answer=form.cleaned_data["answer"],
                    by=Actor.of(request),
                )
            except UserError as error:
                messages.error(request, error.message)
            else:
                messages.success(request, _("Die Antwort ist gespeichert."))
                return redirect("tournament:corrections", tournament.slug)
        else:
            messages.error(
                request,
                " ".join(str(e) for errors in form.errors.values() for e in errors)
                or _("Diese Anfrage gibt es nicht (mehr)."),
            )
    return render(
        request,
        "tournament/corrections.html",
        {
            "tournament": tournament,
            "requests": [
                (item, form if item.id == request_id else _answer_form(item))
                for item in people.corrections(tournament.pk)
            ],
            "is_director": True,
        },
        status=400 if request.method == "POST" else 200,
    )
