"""A series of tournaments: its standings (page, CSV, PDF) and the director's pages to set it up,
add and remove evenings and merge players (docs/series.md)."""

from __future__ import annotations

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from .. import selectors
from ..collation import name_key
from ..errors import Conflict, UserError
from ..forms.common import add_organisation_field, chosen_organisation
from ..forms.series import AddTournamentForm, MergeForm, SeriesForm
from ..log.audit import Actor
from ..models import Series, Tournament
from ..printing import documents
from ..printing import render as pdf_render
from ..selectors import season
from ..selectors.league import league_standings, siegpunkte_number
from ..services import series as services
from ..web import cache_keys
from .access import organiser_required, series_director_required, series_public_or_director
from .spreadsheet import csv_response


def mode_text(series: Series) -> str:
    """How the series ranks, as a sentence."""
    if series.mode == Series.Mode.BEST:
        return _("Es zählen die besten %(k)s Abende jedes Spielers.") % {"k": series.best_of}
    if series.mode == Series.Mode.AVERAGE:
        return _("Es zählt der Durchschnitt der Punkte je gespieltem Abend.")
    if series.mode == Series.Mode.LEAGUE:
        return _("Liga der Teams: Siegpunkte, dann Spielpunkte; darunter die Einzelwertung (Summe der Punkte aller "
                 "Spieltage).")
    if series.mode == Series.Mode.CUP:
        return _("Pokal der Teams: je Pokalrunde eine Gruppe, die Besten kommen weiter; darunter die Einzelwertung "
                 "(Summe der Punkte aller Runden).")
    return _("Es zählt die Summe der Punkte aller Abende.")


def value_label(series: Series) -> str:
    """The heading of the column that ranks."""
    if series.mode == Series.Mode.BEST:
        return _("Beste")
    if series.mode == Series.Mode.AVERAGE:
        return _("Schnitt")
    return _("Punkte")


@organiser_required
def series_create(request):
    form = SeriesForm(request.POST or None)
    organisations = list(selectors.organisations_of(request.user))
    add_organisation_field(form, organisations)
    if request.method == "POST" and form.is_valid():
        try:
            series = services.create_series(director=request.user, by=Actor.of(request),
                                            organisation=chosen_organisation(form, organisations), **form.arguments())
        except UserError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("Serie „%(name)s“ angelegt. Als Nächstes: Turniere hinzufügen.")
                             % {"name": series.name})
            return redirect("tournament:series_manage", slug=series.slug)
    return render(request, "tournament/series_form.html", {"form": form})


def visibility_notes(standings) -> list[str]:
    """What this viewer does not see of the evenings, and what they see that the public does not."""
    evenings = standings.evenings
    pending = [e.name for e in evenings if not e.directed and e.public_standings and e.hidden]
    private = [e.name for e in evenings if not e.directed and not e.public_standings]
    counted = [e.name for e in evenings if e.directed and (e.hidden or not e.public_standings)]
    notes = []
    if counted:
        notes.append(_("Ergebnisse, die die Öffentlichkeit nicht sieht (%(names)s), sind hier mitgezählt.")
                     % {"names": ", ".join(counted)})
    if pending:
        notes.append(_("Noch nicht alle Ergebnisse sind bekanntgegeben (%(names)s); sie zählen hier, sobald sie es "
                       "sind.") % {"names": ", ".join(pending)})
    if private:
        notes.append(_("Die Tabelle von %(names)s ist nicht öffentlich; ihre Ergebnisse zählen hier nicht.")
                     % {"names": ", ".join(private)})
    return notes


def season_table(request, series):
    """The league table or the cup of a series (`league_standings`, `season.cup_standings`), for the public
    kept in the cache under the days' change counters (`cache_keys.season`): one query to know it is
    fresh (`season_version`), the three of the league or cup only when a day arrived or changed."""
    read = league_standings if series.mode == Series.Mode.LEAGUE else season.cup_standings
    if request.user.is_authenticated:  # what a director sees of their own days differs: read anew
        return read(series, user=request.user)
    key = cache_keys.season(series.pk, season.season_version(series), mode=series.mode)
    found = cache.get(key)
    if found is None:
        found = read(series)
        cache.set(key, found, cache_keys.TIMEOUT)
    return found


@series_public_or_director
def series_page(request, series):
    standings = selectors.series_standings(series, user=request.user, public=not request.is_director)
    league = season_table(request, series) if series.mode == Series.Mode.LEAGUE else None
    cup = season_table(request, series) if series.mode == Series.Mode.CUP else None
    return render(request, "tournament/series.html", {
        "cup": cup, "clubs_shown": bool(series.clubs),
        "series": series, "standings": standings, "is_director": request.is_director,
        "mode_text": mode_text(series), "value_label": value_label(series),
        "best": series.mode == Series.Mode.BEST, "notes": visibility_notes(standings), "league": league,
    })


@series_public_or_director
def series_csv(request, series):
    """Semicolon-separated with a UTF-8 BOM like the tournaments' standings; an evening that does not
    count (best k) is written in parentheses."""
    standings = selectors.series_standings(series, user=request.user, public=not request.is_director)
    header = ([_("Platz"), pgettext("one player", "Spieler"), _("Verein")]
              + [f"{e.name} ({date_format(e.date, 'SHORT_DATE_FORMAT')})" for e in standings.evenings]
              + [_("Abende"), value_label(series), _("zusammengeführt mit")])
    lines = []
    for row in standings.rows:
        cells = [("" if c.points is None else c.points if c.counts else f"({c.points})") for c in row.cells]
        lines.append([row.rank or "", row.name, row.club, *cells, row.played,
                      row.shown_value if row.rank else "", ", ".join(row.merged)])
    return csv_response(header, lines, f"{series.slug}-serienwertung.csv")


@series_public_or_director
def league_csv(request, series):
    """The league table of a series in mode Liga (`selectors.league.league_standings`, what this viewer
    may see): place, team, Siegpunkte ("3,5"), Spielpunkte, days won, then per match day its
    Siegpunkte, place and Spielpunkte, and what separated a team level on Siegpunkte."""
    if series.mode != Series.Mode.LEAGUE:
        raise Http404
    league = league_standings(series, user=request.user)
    days = [f"{d.name} ({date_format(d.date, 'SHORT_DATE_FORMAT')})" for d in league.counted]
    header = ([_("Platz"), _("Team"), _("Siegpunkte"), _("Spielpunkte"), _("Siege")]
              + [f"{day}: {word}" for day in days
                 for word in (_("Siegpunkte"), _("Platz"), _("Spielpunkte"))] + [_("Gleichstand")])
    lines = []
    for row in league.rows:
        cells = []
        for cell in row.cells:
            cells += (["", "", ""] if cell is None
                      else [siegpunkte_number(cell.siegpunkte), cell.place, cell.spielpunkte])
        lines.append([row.place, row.name, siegpunkte_number(row.siegpunkte), row.spielpunkte,
                      row.wins, *cells, row.tie])
    return csv_response(header, lines, f"{series.slug}-ligatabelle.csv")


@series_public_or_director
def league_pdf(request, series):
    """The league table as a PDF (`documents.league_html`), linked under the table on the series page."""
    if series.mode != Series.Mode.LEAGUE:
        raise Http404
    html = documents.league_html(series, league_standings(series, user=request.user))
    response = HttpResponse(pdf_render.pdf_bytes(html), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{series.slug}-ligatabelle.pdf"'
    return response


@series_public_or_director
def series_pdf(request, series):
    standings = selectors.series_standings(series, user=request.user, public=not request.is_director)
    html = documents.series_html(standings, mode_text=mode_text(series), value_label=value_label(series),
                                 notes=visibility_notes(standings))
    response = HttpResponse(pdf_render.pdf_bytes(html), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{series.slug}-serienwertung.pdf"'
    return response


def _people(standings) -> list[tuple[str, str]]:
    """Each player of the series for the merge form, by name, with the evenings they played at."""
    names = {e.tournament_id: e.name for e in standings.evenings}
    return [(row.key, f"{selectors.person_text(row.name, row.club)} – "
                      + ", ".join(names[t] for t in names if t in row.evenings))
            for row in sorted(standings.rows, key=lambda row: (name_key(row.name), name_key(row.club)))]


@series_director_required
def series_manage(request, series):
    """Settings, evenings and merges of a series, for its directors."""
    form = SeriesForm(series=series)
    conflict = False
    if request.method == "POST":
        form = SeriesForm(request.POST)
        if form.is_valid():
            try:
                arguments = form.arguments()
                if "clubs" not in request.POST:  # a page sent without the field (an older one) keeps them
                    arguments["clubs"] = None
                series = services.update_series(series=series, version=form.cleaned_data["version"],
                                                by=Actor.of(request), **arguments)
            except Conflict:
                conflict = True
                series.refresh_from_db()
                data = request.POST.copy()
                data["version"] = str(series.version)
                form = SeriesForm(data)
                form.is_valid()
                form.add_error(None, _("Die Serie wurde inzwischen von jemand anderem geändert. Hier stehen Ihre "
                                       "Eingaben; Speichern speichert sie über die andere Änderung."))
            except UserError as error:
                series.refresh_from_db()
                form.add_error(error.field if error.field in form.fields else None, error.message)
            else:
                messages.success(request, _("Serie gespeichert."))
                return redirect("tournament:series_manage", slug=series.slug)
    standings = selectors.series_standings(series, user=request.user, public=not request.is_director)
    return render(request, "tournament/series_manage.html", {
        "series": series, "form": form, "standings": standings, "is_director": True,
        "add_form": AddTournamentForm(tournaments=selectors.tournaments_to_add(request.user, series)),
        "merge_form": MergeForm(people=_people(standings)),
    }, status=409 if conflict else 200)


@require_POST
@series_director_required
def series_tournament_add(request, series):
    form = AddTournamentForm(request.POST, tournaments=selectors.tournaments_to_add(request.user, series))
    if form.is_valid():
        tournament = Tournament.objects.get(pk=form.cleaned_data["tournament"])
        try:
            services.add_tournament(series=series, tournament=tournament, user=request.user, by=Actor.of(request))
        except UserError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("„%(name)s“ gehört jetzt zur Serie.") % {"name": tournament.name})
    else:
        messages.error(request, _("Bitte ein Turnier wählen, das Sie leiten und das noch zu keiner Serie gehört."))
    return redirect("tournament:series_manage", slug=series.slug)


@require_POST
@series_director_required
def series_tournament_remove(request, series, tournament_id):
    tournament = get_object_or_404(Tournament, pk=tournament_id, series=series)
    services.remove_tournament(series=series, tournament=tournament, by=Actor.of(request))
    messages.success(request, _("„%(name)s“ gehört nicht mehr zur Serie.") % {"name": tournament.name})
    return redirect("tournament:series_manage", slug=series.slug)


@require_POST
@series_director_required
def series_merge(request, series):
    standings = selectors.series_standings(series, user=request.user, public=not request.is_director)
    form = MergeForm(request.POST, people=_people(standings))
    if form.is_valid() and form.cleaned_data["alias"] and form.cleaned_data["same_as"]:
        try:
            services.merge_players(series=series, alias=form.cleaned_data["alias"],
                                   same_as=form.cleaned_data["same_as"], by=Actor.of(request))
        except UserError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Die beiden Spieler zählen jetzt als eine Person."))
    else:
        messages.error(request, _("Bitte zwei Spieler der Serie wählen."))
    return redirect("tournament:series_manage", slug=series.slug)


@require_POST
@series_director_required
def series_unmerge(request, series, merge_id):
    services.unmerge_players(series=series, merge_id=merge_id, by=Actor.of(request))
    messages.success(request, _("Die Zusammenführung ist aufgehoben; es sind wieder zwei Spieler."))
    return redirect("tournament:series_manage", slug=series.slug)
