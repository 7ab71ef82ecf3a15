"""A Rangliste across tournaments: the public page, a player's history, the per-round export (CSV,
JSON) and the directors' pages to create and set it up (docs/competitions.md, "Rangliste in the app")."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from scoring import rating

from ..errors import Conflict, UserError
from ..forms.common import chosen_organisation
from ..forms.rangliste import RanglisteForm
from ..log.audit import Actor
from ..models import Rangliste
from ..selectors import association_rangliste as association
from ..selectors import organisations_of
from ..selectors import rangliste as selectors
from ..selectors.ratings import rating_text
from ..services import rangliste as services
from ..services import rangliste_refresh
from ..web import cache_keys, caching, rating_scopes
from ..web.charts import Series, progression_svg, rangliste_places_svg
from . import query_string
from .access import organiser_required
from .spreadsheet import csv_response


def is_director(user, rangliste: Rangliste) -> bool:
    return user.is_authenticated and (user.is_superuser or rangliste.directors.filter(pk=user.pk).exists())


def public_or_director(view):
    """The public sees a Rangliste while it is public; its directors always; everyone else 404."""

    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        rangliste = get_object_or_404(Rangliste.objects.select_related("organisation"), slug=slug)
        request.is_director = is_director(request.user, rangliste)
        if not request.is_director and not rangliste.public:
            raise Http404
        return view(request, rangliste, *args, **kwargs)

    return wrapper


def director_required(view):
    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        rangliste = get_object_or_404(Rangliste, slug=slug)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_director(request.user, rangliste):
            raise PermissionDenied
        return view(request, rangliste, *args, **kwargs)

    return wrapper


def until(request) -> datetime.date:
    """The day the Rangliste is read on: `?bis=YYYY-MM-DD` (1900 to 9999), else today."""
    return query_string.day(request, "bis") or timezone.localdate()


def say_until(request) -> None:
    """A page tells its reader when their `bis` was no day it could use (`until`)."""
    if request.GET.get("bis") and query_string.day(request, "bis") is None:
        messages.warning(request, _("„%(value)s“ ist kein Datum zwischen 1900 und 9999; die Rangliste zeigt "
                                    "den Stand von heute.") % {"value": request.GET["bis"][:40]})


def _settings(form: RanglisteForm) -> services.Settings:
    data = form.cleaned_data
    return services.Settings(name=data["name"], slug=data["slug"], source=data["source"],
                             series=form.series_object(), months=data["months"],
                             minimum_rounds=data["minimum_rounds"],
                             cut_lines=services.parse_cut_lines(data["cut_lines"]), public=data["public"],
                             members=form.member_objects(), minimum_players=_or(data.get("minimum_players"), 32),
                             minimum_tournament_rounds=_or(data.get("minimum_tournament_rounds"), 3))


def _or(value: int | None, default: int) -> int:
    """A number the form may leave empty (an older page sends none): the association's default."""
    return default if value is None else value


def _error(form: RanglisteForm, error: UserError) -> None:
    form.add_error(error.field if error.field in form.fields else None, error.message)


@organiser_required
def rangliste_create(request):
    organisations = list(organisations_of(request.user))
    form = RanglisteForm(request.POST or None, organisations=organisations)
    if request.method == "POST" and form.is_valid():
        try:
            rangliste = services.create_rangliste(settings=_settings(form), director=request.user,
                                                  organisation=chosen_organisation(form, organisations),
                                                  by=Actor.of(request))
        except UserError as error:
            _error(form, error)
        else:
            messages.success(request, _("Rangliste „%(name)s“ angelegt.") % {"name": rangliste.name})
            return redirect("tournament:rangliste", slug=rangliste.slug)
    return render(request, "tournament/rangliste_form.html", {"form": form, "rangliste": None})


@director_required
def rangliste_edit(request, rangliste):
    form = RanglisteForm(rangliste=rangliste)
    status = 200
    if request.method == "POST":
        form = RanglisteForm(request.POST, rangliste=rangliste)
        if form.is_valid():
            try:
                rangliste = services.update_rangliste(rangliste=rangliste, settings=_settings(form),
                                                      version=form.cleaned_data["version"], by=Actor.of(request))
            except Conflict:
                status = 409
                form.add_error(None, _("Die Rangliste wurde inzwischen von jemand anderem geändert. Bitte neu laden."))
            except UserError as error:
                _error(form, error)
            else:
                messages.success(request, _("Rangliste gespeichert."))
                return redirect("tournament:rangliste", slug=rangliste.slug)
    return render(request, "tournament/rangliste_form.html", {"form": form, "rangliste": rangliste}, status=status)


def stored(request, rangliste: Rangliste) -> bool:
    """An association's Rangliste on today is read as stored (asking for a refresh when it is behind);
    on another day (`?bis=`), and every other Rangliste, computed anew."""
    if rangliste.source != Rangliste.Source.ASSOCIATION or request.GET.get("bis"):
        return False
    if association.wants_refresh(rangliste):
        rangliste_refresh.enqueue_refresh([rangliste.pk])
    return True


def page_number(request) -> int:
    try:
        return max(1, int(request.GET.get("seite", "1")))
    except ValueError:
        return 1


def carried(request, rangliste: Rangliste, read) -> rating_scopes.Carried | None:
    """The rating carried across the Rangliste's tournaments as this reader may see it (docs/rating.md);
    None where the organisation has the rating off."""
    if not rangliste.organisation.rating_enabled:
        return None
    found = rating_scopes.carried(read, scope=f"rangliste-{rangliste.pk}")
    return rating_scopes.shown(read, found, public=not request.is_director)


@dataclass(frozen=True)
class RatingCell:
    """The rating in a Rangliste's row: the value, and whether it is still uncertain (fewer games than
    `scoring.rating.MINIMUM_GAMES`)."""

    text: str
    value: rating.Rating

    @property
    def title(self) -> str:
        if self.value.settled:
            return _("Wertungszahl aus %(games)s Spielen") % {"games": self.value.games}
        return _("Noch unsicher: erst %(games)s Spiele gewertet") % {"games": self.value.games}


def cell(ratings: rating_scopes.Carried | None, key: str) -> RatingCell | None:
    value = ratings.now.get(key) if ratings is not None else None
    return RatingCell(rating_text(value), value) if value is not None else None


def stored_answer(request, rangliste: Rangliste, page: str, build) -> HttpResponse:
    """A page read from an association's stored Rangliste (the list, a player's), for the phones that poll
    it: its ETag is made of what moves the stored list (`cache_keys.stored_rangliste`, as the API's), the
    page, its address and whether the reader sees names, and for a reader with the site's frame their own
    parts; an If-None-Match that still matches is answered 304 before a line is read. A visitor's whole
    answer is kept in the shared cache under the same (`cache_keys.rangliste_page`), so that a change
    renders it once for all visitors, not once per poll."""
    version = cache_keys.stored_rangliste(rangliste)
    everyone = caching.for_everyone(request)
    variant = (page, request.get_full_path(), request.is_director)
    mine = () if everyone else caching.personal_parts(request)
    tag = f'W/"{cache_keys.digest(cache_keys.release(), get_language(), version, *variant, *mine)}"'
    check = caching.Validator(request, tag, personal=not everyone)
    answer = check.not_modified()
    if answer is not None:
        return answer
    response = caching.whole_page(request, cache_keys.rangliste_page(rangliste.pk, version, *variant), build)
    return check.finish(response) if response.status_code == 200 else response


@public_or_director
def rangliste_page(request, rangliste):
    if stored(request, rangliste):
        return stored_answer(request, rangliste, "list", lambda: stored_list(request, rangliste))
    view = selectors.rangliste_view(rangliste, until=until(request), public=not request.is_director)
    say_until(request)
    ratings = carried(request, rangliste, view.read)
    rows = [(entry, view.cut_after.get(index, []), cell(ratings, entry.person.key))
            for index, entry in enumerate(view.rows)]
    below = [(entry, cell(ratings, entry.person.key)) for entry in view.below]
    return render(request, "tournament/rangliste.html", {"view": view, "rows": rows, "below": below,
                                                         "rangliste": rangliste, "rated": ratings is not None,
                                                         "minimum_games": rating.MINIMUM_GAMES,
                                                         "is_director": request.is_director})


def stored_list(request, rangliste: Rangliste) -> HttpResponse:
    view = association.stored_view(rangliste, public=not request.is_director, page=page_number(request))
    return render(request, "tournament/rangliste_association.html", {
        "view": view, "rangliste": rangliste, "is_director": request.is_director,
        "behind": association.behind(rangliste), "minimum_games": rating.MINIMUM_GAMES,
        "ranked": [(line, cuts, cell_of(line.rating)) for line, cuts in view.ranked],
        "below": [(line, cell_of(line.rating)) for line in view.below]})


def stored_player(request, rangliste: Rangliste) -> HttpResponse:
    found = association.stored_player(rangliste, link=request.GET.get("p", ""), public=not request.is_director)
    if found is None:
        raise Http404
    chart = rangliste_places_svg(found.places.days, rangliste=rangliste.name) if found.places else ""
    return render(request, "tournament/rangliste_association_player.html", {
        "player": found, "rangliste": rangliste, "places_chart": chart, "rating": cell_of(found.line.rating),
        "rating_sigma": number_format(found.line.rating.sigma, 1) if found.line.rating else "",
        "tournaments": [(item, cell_of(item.rating)) for item in found.tournaments],
        "rating_chart": rating_chart(found.line.name, list(found.course)), "minimum_games": rating.MINIMUM_GAMES})


@public_or_director
def rangliste_player(request, rangliste):
    if stored(request, rangliste):
        return stored_answer(request, rangliste, "player", lambda: stored_player(request, rangliste))
    history = selectors.player_history(rangliste, link=request.GET.get("p", ""), until=until(request),
                                       public=not request.is_director)
    if history is None:
        raise Http404
    say_until(request)
    ratings = carried(request, rangliste, history.read)
    course = ratings.course.get(history.person.key, []) if ratings is not None else []
    after = dict(course)  # tournament id -> the rating after it
    slug_id = {t.slug: t.pk for t in history.read.tournaments}
    tournaments = [(line, history.names[line.tournament][0], history.tournament_average(line),
                    cell_of(after.get(slug_id.get(line.tournament))))
                   for line in history.history.tournaments]
    now = cell(ratings, history.person.key)
    chart = rating_chart(history.person.name, list(zip(course_days(history.read, course),
                                                       [value for _id, value in course], strict=True)))
    return render(request, "tournament/rangliste_player.html", {
        "history": history, "rangliste": rangliste, "tournaments": tournaments, "rating": now,
        "rating_sigma": number_format(now.value.sigma, 1) if now else "", "rating_chart": chart,
        "rated": bool(course), "minimum_games": rating.MINIMUM_GAMES})


def rating_chart(name: str, course: list[tuple[datetime.date, rating.Rating]]) -> str:
    """The chart of the carried rating after each tournament (none before a second one)."""
    return progression_svg(
        [Series(_("Wertungszahl"), [round(value.mu) for _day, value in course], highlight=True)],
        [date_format(day, "SHORT_DATE_FORMAT") for day, _value in course],
        title=_("Wertungszahl von %(name)s nach jedem Turnier") % {"name": name}, height=200,
    ) if len(course) > 1 else ""


def cell_of(value: rating.Rating | None) -> RatingCell | None:
    return RatingCell(rating_text(value), value) if value is not None else None


def course_days(read, course) -> list[datetime.date]:
    days = {t.pk: t.date for t in read.tournaments}
    return [days[tournament_id] for tournament_id, _value in course]


EXPORT_FIELDS = ["player", "member_number", "club", "tournament", "tournament_slug", "date", "round", "table",
                 "games", "points", "penalties", "pflichtsolo"]
RATING_FIELDS = ["rating", "rating_sigma", "rating_games"]  # the carried rating after the line's tournament


def export_rows(view, ratings: rating_scopes.Carried | None = None) -> list[dict]:
    """One dict per player and round in the window (docs/competitions.md, the export); with `ratings`,
    the player's carried rating after that round's tournament (mu and sigma rounded to 0.1, the games
    rated so far; None where the player is not rated or not published)."""
    after = {}
    if ratings is not None:
        slugs = {t.pk: t.slug for t in view.read.tournaments}
        after = {(key, slugs[t]): value for key, course in ratings.course.items() for t, value in course}

    def rated(line) -> dict:
        if ratings is None:
            return {}
        value = after.get((line.key, line.tournament_slug))
        if value is None:
            return dict.fromkeys(RATING_FIELDS)
        return {"rating": round(value.mu, 1), "rating_sigma": round(value.sigma, 1), "rating_games": value.games}

    return [{"player": line.name, "member_number": line.member_number, "club": line.club,
             "tournament": line.tournament, "tournament_slug": line.tournament_slug,
             "date": line.date.isoformat(), "round": line.round, "table": line.table, "games": line.games,
             "points": line.points, "penalties": line.penalties, "pflichtsolo": line.pflichtsolo, **rated(line)}
            for line in view.lines]


@public_or_director
def rangliste_csv(request, rangliste):
    view = selectors.rangliste_view(rangliste, until=until(request), public=not request.is_director)
    ratings = carried(request, rangliste, view.read)
    fields = EXPORT_FIELDS + (RATING_FIELDS if ratings is not None else [])
    header = [pgettext("one player", "Spieler"), _("Mitgliedsnummer"), _("Verein"), _("Turnier"), _("Kurzname"),
              _("Datum"), _("Runde"), _("Tisch"), _("Spiele"), _("Punkte"), _("Strafen"), _("Pflichtsolo gespielt"),
              *((_("Wertungszahl nach dem Turnier"), _("Unsicherheit"), _("Spiele gewertet"))
                if ratings is not None else ())]
    flags = {True: _("ja"), False: _("nein"), None: ""}

    def text(row, field):
        if field == "pflichtsolo":
            return flags[row[field]]
        if field in ("rating", "rating_sigma"):
            return "" if row[field] is None else f"{row[field]:.1f}".replace(".", ",")
        return "" if row[field] is None and field == "rating_games" else row[field]

    lines = [[text(row, field) for field in fields] for row in export_rows(view, ratings)]
    return csv_response(header, lines, f"{rangliste.slug}-runden.csv")


@public_or_director
def rangliste_json(request, rangliste):
    view = selectors.rangliste_view(rangliste, until=until(request), public=not request.is_director)
    ratings = carried(request, rangliste, view.read)
    window = view.result.window
    return JsonResponse({"format": "doko-rangliste-runden", "version": 1, "rangliste": rangliste.name,
                         "window": {"from": window.start.isoformat(), "until": window.end.isoformat()},
                         "fields": EXPORT_FIELDS + (RATING_FIELDS if ratings is not None else []),
                         "rounds": export_rows(view, ratings)},
                        json_dumps_params={"ensure_ascii": False, "indent": 1})
