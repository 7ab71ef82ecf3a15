"""A Rangliste across tournaments: the public page, a player's history, the per-round export (CSV,
JSON) and the directors' pages to create and set it up (docs/competitions.md, "Rangliste in the app")."""

from __future__ import annotations

import datetime
from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ..errors import Conflict, UserError
from ..forms.common import chosen_organisation
from ..forms.rangliste import RanglisteForm
from ..log.audit import Actor
from ..models import Rangliste
from ..selectors import association_rangliste as association
from ..selectors import organisations_of
from ..selectors import rangliste as selectors
from ..services import rangliste as services
from ..services import rangliste_refresh
from . import query_string
from .access import organiser_required
from .spreadsheet import csv_response


def is_director(user, rangliste: Rangliste) -> bool:
    return user.is_authenticated and (user.is_superuser or rangliste.directors.filter(pk=user.pk).exists())


def public_or_director(view):
    """The public sees a Rangliste while it is public; its directors always; everyone else 404."""

    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        rangliste = get_object_or_404(Rangliste, slug=slug)
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


@public_or_director
def rangliste_page(request, rangliste):
    if stored(request, rangliste):
        view = association.stored_view(rangliste, public=not request.is_director, page=page_number(request))
        return render(request, "tournament/rangliste_association.html", {
            "view": view, "rangliste": rangliste, "is_director": request.is_director,
            "behind": association.wants_refresh(rangliste)})
    view = selectors.rangliste_view(rangliste, until=until(request), public=not request.is_director)
    say_until(request)
    rows = [(entry, view.cut_after.get(index, [])) for index, entry in enumerate(view.rows)]
    return render(request, "tournament/rangliste.html", {"view": view, "rows": rows, "rangliste": rangliste,
                                                         "is_director": request.is_director})


@public_or_director
def rangliste_player(request, rangliste):
    if stored(request, rangliste):
        found = association.stored_player(rangliste, link=request.GET.get("p", ""), public=not request.is_director)
        if found is None:
            raise Http404
        return render(request, "tournament/rangliste_association_player.html",
                      {"player": found, "rangliste": rangliste})
    history = selectors.player_history(rangliste, link=request.GET.get("p", ""), until=until(request),
                                       public=not request.is_director)
    if history is None:
        raise Http404
    say_until(request)
    tournaments = [(line, history.names[line.tournament][0], history.tournament_average(line))
                   for line in history.history.tournaments]
    return render(request, "tournament/rangliste_player.html", {"history": history, "rangliste": rangliste,
                                                                "tournaments": tournaments})


EXPORT_FIELDS = ["player", "member_number", "club", "tournament", "tournament_slug", "date", "round", "table",
                 "games", "points", "penalties", "pflichtsolo"]


def export_rows(view) -> list[dict]:
    """One dict per player and round in the window (docs/competitions.md, the export)."""
    return [{"player": line.name, "member_number": line.member_number, "club": line.club,
             "tournament": line.tournament, "tournament_slug": line.tournament_slug,
             "date": line.date.isoformat(), "round": line.round, "table": line.table, "games": line.games,
             "points": line.points, "penalties": line.penalties, "pflichtsolo": line.pflichtsolo}
            for line in view.lines]


@public_or_director
def rangliste_csv(request, rangliste):
    view = selectors.rangliste_view(rangliste, until=until(request), public=not request.is_director)
    header = [pgettext("one player", "Spieler"), _("Mitgliedsnummer"), _("Verein"), _("Turnier"), _("Kurzname"),
              _("Datum"), _("Runde"), _("Tisch"), _("Spiele"), _("Punkte"), _("Strafen"), _("Pflichtsolo gespielt")]
    flags = {True: _("ja"), False: _("nein"), None: ""}
    lines = [[row[field] if field != "pflichtsolo" else flags[row[field]]
              for field in EXPORT_FIELDS] for row in export_rows(view)]
    return csv_response(header, lines, f"{rangliste.slug}-runden.csv")


@public_or_director
def rangliste_json(request, rangliste):
    view = selectors.rangliste_view(rangliste, until=until(request), public=not request.is_director)
    window = view.result.window
    return JsonResponse({"format": "doko-rangliste-runden", "version": 1, "rangliste": rangliste.name,
                         "window": {"from": window.start.isoformat(), "until": window.end.isoformat()},
                         "fields": EXPORT_FIELDS, "rounds": export_rows(view)},
                        json_dumps_params={"ensure_ascii": False, "indent": 1})
