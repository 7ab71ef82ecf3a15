"""Standings: overall or after a round, for the director and (when switched on) the public;
as a page that updates itself, as CSV for spreadsheets and as JSON."""

import csv
import io

import django_tables2 as tables
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from .. import selectors
from ..charts import Series, progression_svg
from .access import public_or_director

NUMBER = {"td": {"class": "num"}, "th": {"class": "num"}}
SECONDARY = {"td": {"class": "num secondary"}, "th": {"class": "num secondary"}}


class StandingsTable(tables.Table):
    """django-tables2 orders the rows and draws the sortable headers; the body is written in Python
    (`body_html`), because a 1,000-player list through the per-cell template machinery takes a
    second and the standings must come in well under that."""

    rank = tables.Column(verbose_name=gettext_lazy("Platz"), attrs=NUMBER)
    movement = tables.Column(verbose_name=gettext_lazy("±"), orderable=False,
                             attrs={"th": {"class": "movement", "title": gettext_lazy("seit der Runde davor")}})
    name = tables.Column(verbose_name=pgettext_lazy("one player", "Spieler"))
    points = tables.Column(verbose_name=gettext_lazy("Punkte"), attrs=NUMBER)
    games = tables.Column(verbose_name=gettext_lazy("Spiele"), attrs=SECONDARY)
    won = tables.Column(verbose_name=pgettext_lazy("games won, column", "gewonnen"), attrs=SECONDARY)
    solos = tables.Column(verbose_name=gettext_lazy("Soli"), attrs=SECONDARY)

    class Meta:
        attrs = {"class": "standings", "id": "standings-table"}
        template_name = "tournament/_standings_table.html"
        order_by = ("rank",)

    def __init__(self, *args, player_url, **kwargs):
        self.player_url = player_url
        super().__init__(*args, **kwargs)

    def body_html(self) -> str:
        same = escape(_("unverändert"))
        me_title, me_text = escape(_("Das bin ich: markieren")), escape(_("Das bin ich"))
        parts = []
        for bound in self.rows:
            row = bound.record
            if not row.movement:
                movement = f'<span class="same" title="{same}">–</span>'
            elif row.movement > 0:
                title = escape(_("%(n)s Plätze besser") % {"n": row.movement})
                movement = f'<span class="up" title="{title}">▲{row.movement}</span>'
            else:
                title = escape(_("%(n)s Plätze schlechter") % {"n": -row.movement})
                movement = f'<span class="down" title="{title}">▼{-row.movement}</span>'
            name = escape(row.name)
            link = self.player_url(row.entry_id)
            if link:
                name = f'<a href="{escape(link)}">{name}</a>'
            if row.totals_only:
                name += " *"
            club = f'<span class="club">{escape(row.club)}</span>' if row.club else ""
            withdrawn = ' class="withdrawn"' if row.withdrawn else ""
            parts.append(
                f'<tr data-entry="{row.entry_id}" data-name="{escape(row.name)}"{withdrawn}>'
                f'<td class="num">{row.rank}</td><td class="movement">{movement}</td>'
                f'<td>{name} <button type="button" class="me-toggle" aria-pressed="false" title="{me_title}">'
                f'<span aria-hidden="true">☆</span><span class="visually-hidden">{me_text}</span></button>{club}</td>'
                f'<td class="num">{row.points}</td><td class="num secondary">{row.games}</td>'
                f'<td class="num secondary">{row.won}</td><td class="num secondary">{row.solos}</td></tr>')
        return mark_safe("".join(parts))


def visible_history(request, tournament):
    return selectors.standings_history(tournament, include_hidden=request.is_director)


def chosen_round(request, history) -> int | None:
    try:
        number = int(request.GET.get("round", ""))
    except ValueError:
        return None
    return number if number in history.rounds else None


def rows_after(history, after_round):
    """The standings after a round (or all rounds) with each row's movement since the round before."""
    rounds = [n for n in history.rounds if after_round is None or n <= after_round]
    if not rounds:
        return history.before, rounds
    rows = history.after[rounds[-1]]
    previous = history.ranks(rounds[-2]) if len(rounds) > 1 else {}
    for row in rows:
        row.movement = previous[row.entry_id] - row.rank if row.entry_id in previous else None
    return rows, rounds


def top_chart(history, rounds, rows) -> str:
    if not rows or not rounds:
        return ""
    top = rows[:10]
    series = []
    for row in top:
        values = []
        for number in rounds:
            points = {r.entry_id: r.points for r in history.after[number]}
            values.append(points[row.entry_id])
        series.append(Series(label=f"{row.rank}. {row.name}", values=[0] + values))
    return progression_svg(series, [_("Start")] + [_("R%(n)s") % {"n": n} for n in rounds],
                           title=_("Punkteverlauf der ersten 10"))


@public_or_director("standings")
def standings_page(request, tournament):
    history = visible_history(request, tournament)
    after_round = chosen_round(request, history)
    rows, rounds = rows_after(history, after_round)
    public_players = tournament.public_players or request.is_director

    def player_url(entry_id):
        return reverse("tournament:player", args=[tournament.slug, entry_id]) if public_players else None

    table = StandingsTable(rows, player_url=player_url)
    tables.RequestConfig(request, paginate=False).configure(table)
    hidden = list(tournament.rounds.filter(results_hidden=True).values_list("number", flat=True))
    context = {
        "tournament": tournament, "rounds": history.rounds, "after_round": after_round, "table": table,
        "any_totals_only": any(r.totals_only for r in rows), "sum": sum(r.points for r in rows),
        "tie_breakers": [selectors.TIE_BREAKERS[k] for k in tournament.tie_breakers if k in selectors.TIE_BREAKERS],
        "hidden_rounds": hidden, "is_director": request.is_director, "updated": timezone.now(),
        "chart": top_chart(history, rounds, rows),
    }
    if request.GET.get("partial"):
        return render(request, "tournament/_standings_live.html", context)
    return render(request, "tournament/standings.html", context)


def export_rows(request, tournament):
    history = visible_history(request, tournament)
    rows, _rounds = rows_after(history, chosen_round(request, history))
    return rows


@public_or_director("standings")
def standings_csv(request, tournament):
    """Semicolon-separated with a UTF-8 BOM, as German spreadsheet programs expect."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow([_("Platz"), pgettext("one player", "Spieler"), _("Verein"), _("Punkte"), _("Spiele"),
                     pgettext("games won, column", "gewonnen"), _("Soli")])
    for row in export_rows(request, tournament):
        writer.writerow([row.rank, row.name, row.club, row.points, row.games, row.won, row.solos])
    response = HttpResponse("\ufeff" + buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-rangliste.csv"'
    return response


@public_or_director("standings")
def standings_json(request, tournament):
    data = [{"rank": r.rank, "player": r.name, "club": r.club, "points": r.points, "games": r.games, "won": r.won,
             "solos": r.solos} for r in export_rows(request, tournament)]
    return JsonResponse(data, safe=False, json_dumps_params={"ensure_ascii": False})
