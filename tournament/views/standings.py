"""Standings: overall or after a round, for the director and (when switched on) the public;
as a page that updates itself, as CSV for spreadsheets and as JSON.

Phones poll the standings every few seconds, so the page is built for that (`caching.py`):

- an unchanged poll is answered `304 Not Modified` from the change counter, before anything is read;
- the expensive part, the table with its chart, is rendered once per change of the tournament and
  kept in the shared cache; a request adds the reader's frame (name, CSRF token) and the time;
- the table shows the first `STANDINGS_TOP` places and, on a poll that names it (`me`), the
  reader's own row; all places on demand (`?all=1`, or when the reader searches a name);
- a poll's answer is compressed (it holds no secret).
"""

from __future__ import annotations

import copy
import functools
from urllib.parse import urlencode

import django_tables2 as tables
from django.conf import settings
from django.http import HttpResponse, JsonResponse, QueryDict
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy
from django_tables2.data import TableListData

from .. import ranking, selectors
from ..models import Tournament
from ..selectors import prizes as prize_selectors
from ..selectors.ratings import mu_text, ratings_of
from ..selectors.teams import has_teams
from ..web import cache_keys, caching, frames, front, histories
from ..web.charts import Series, progression_html
from . import query_string
from .access import public_or_director
from .seat_notice import seat_notice
from .spreadsheet import csv_response

Ranking = Tournament.Ranking

NUMBER = {"td": {"class": "num"}, "th": {"class": "num"}}
SECONDARY = {"td": {"class": "num secondary"}, "th": {"class": "num secondary"}}

# where a request's own parts go into a cached fragment
NOW_MARK = "<!--now-->"
ME_MARK = "<!--me-->"


class RowTexts:
    """The words of a standings row in the current language, looked up once per table; `mode`: the
    tournament's ranking (which columns a row has), `tables`: whether a placement names its table."""

    def __init__(self, player_url, mode: str = Ranking.POINTS, tables: bool = True,
                 ratings: dict[int, float] | None = None):
        self.mode = mode
        self.tables = tables
        self.ratings = ratings  # entry id -> the rating's mu (None: the column is not shown)
        self.rating_title = escape(_("Wertungszahl: Spielstärke aus allen Spielen (siehe Hilfe)"))
        self.same = escape(_("unverändert"))
        self.better = _("%(n)s Plätze besser")
        self.worse = _("%(n)s Plätze schlechter")
        self.me_title, self.me_text = escape(_("Das bin ich: markieren")), escape(_("Das bin ich"))
        self.player_url = player_url


def row_html(row: selectors.StandingRow, texts: RowTexts) -> str:
    """One row of the standings table (written in Python: 1,000 rows through the per-cell template
    machinery of django-tables2 take a second)."""
    if row.movement is None:  # nothing to compare with (the first round, or new in this one)
        movement = ""
    elif not row.movement:
        movement = f'<span class="same" title="{texts.same}">–</span>'
    elif row.movement > 0:
        title = escape(texts.better % {"n": row.movement})
        movement = f'<span class="up" title="{title}">▲{row.movement}</span>'
    else:
        title = escape(texts.worse % {"n": -row.movement})
        movement = f'<span class="down" title="{title}">▼{-row.movement}</span>'
    name = escape(row.name)
    link = texts.player_url(row.entry_id)
    shown = f'<a href="{link}">{name}</a>' if link else name
    if row.totals_only:
        shown += " *"
    club = f'<span class="club">{escape(row.club)}</span>' if row.club else ""
    withdrawn = ' class="withdrawn"' if row.withdrawn else ""
    return (f'<tr data-entry="{row.entry_id}" data-name="{name}"{withdrawn}>'
            f'<td class="num">{row.place_text}</td><td class="movement">{movement}</td>'
            f'<td class="who"><div class="who-line"><span class="who-names">{shown} {club}</span> '
            f'<button type="button" class="me-toggle" aria-pressed="false" aria-label="{texts.me_text}" '
            f'title="{texts.me_title}">'
            f'<span aria-hidden="true">☆</span></button></div></td>'
            f'{rating_cell(row, texts)}{mode_cells(row, texts)}<td class="num">{ranking.total_text(row.points)}</td>'
            f'<td class="num secondary">{row.games}</td>'
            f'<td class="num secondary">{row.won}</td><td class="num secondary">{row.solos}</td></tr>')


def rating_cell(row: selectors.StandingRow, texts: RowTexts) -> str:
    """The rating beside the player (docs/rating.md), where the tournament shows it; empty for a player
    not published (`row.hidden`: no public rating) and before the player's first game."""
    if texts.ratings is None:
        return ""
    mu = None if row.hidden else texts.ratings.get(row.entry_id)
    shown = "" if mu is None else mu_text(mu)  # formatted as the row is written (`shown_ratings`)
    return f'<td class="num rating secondary" title="{texts.rating_title}">{escape(shown)}</td>'


def shown_ratings(tournament, rows, *, director: bool) -> dict[int, float] | None:
    """The ratings' mu of the standings' rows, None where the tournament or its organisation has the
    rating off; a player not published has none, and the public's leave out rounds whose results are
    hidden. `rating_cell` formats the rows it writes: the table's first places and a reader's own row,
    not the 1,000 rows the fragment keeps (formatting them all was 5 ms of each first render after a
    change)."""
    if not tournament.rating_on:
        return None
    rated = ratings_of(tournament, include_hidden=director)
    return {row.entry_id: rated[row.entry_id].mu for row in rows if row.entry_id in rated and not row.hidden}


def mode_cells(row: selectors.StandingRow, texts: RowTexts) -> str:
    """The cells the ranking mode adds before the game points, each with where it comes from as its
    title: the placements at the tables, or the points and rounds an average is made of."""
    if texts.mode == Ranking.TABLE_POINTS:
        title = escape(ranking.placements_text(row, tables=texts.tables))
        return f'<td class="num ranking" title="{title}">{ranking.total_text(row.table_points)}</td>'
    if texts.mode == Ranking.AVERAGE:
        title = escape(ranking.average_explained(row.points, row.rounds_played))
        return (f'<td class="num ranking" title="{title}">{row.average_text}</td>'
                f'<td class="num secondary">{row.rounds_played}</td>')
    return ""


# the columns each ranking mode adds before the game points (StandingsTable)
MODE_COLUMNS: dict[str, tuple[str, ...]] = {Ranking.POINTS: (), Ranking.TABLE_POINTS: ("table_points",),
                Ranking.AVERAGE: ("average", "rounds_played")}


class RankedRows(TableListData):
    """The standings' rows for django-tables2, which arrive ranked (ties in the ranking's order): asked
    for that order, they stay as they are; any other order is django-tables2's own sort. Its sort
    compares through a Python object per row: 7 ms for 1,000 rows, for the order they already have."""

    def order_by(self, aliases):
        if tuple(aliases) != ("rank",):
            super().order_by(aliases)


class StandingsTable(tables.Table):
    """django-tables2 orders the rows and draws the sortable headers; the body is written in Python
    (`body_html`). With `limit`, only the first rows in the table's order are shown, and the body
    ends with a mark where a request can add the reader's own row."""

    rank = tables.Column(verbose_name=gettext_lazy("Platz"), attrs=NUMBER)
    movement = tables.Column(verbose_name=gettext_lazy("±"), orderable=False,
                             attrs={"th": {"class": "movement", "title": gettext_lazy("seit der Runde davor")}})
    name = tables.Column(verbose_name=pgettext_lazy("one player", "Spieler"), order_by=("sort_name",))
    rating = tables.Column(verbose_name=gettext_lazy("WZ"), orderable=False,
                           attrs={"th": {"class": "num rating secondary", "title": gettext_lazy("Wertungszahl")}})
    table_points = tables.Column(verbose_name=gettext_lazy("Tischpunkte"), attrs=NUMBER)
    average = tables.Column(verbose_name=gettext_lazy("Schnitt"), attrs=NUMBER)
    rounds_played = tables.Column(verbose_name=gettext_lazy("Runden"), attrs=SECONDARY)
    points = tables.Column(verbose_name=gettext_lazy("Punkte"), attrs=NUMBER)
    games = tables.Column(verbose_name=gettext_lazy("Spiele"), attrs=SECONDARY)
    won = tables.Column(verbose_name=pgettext_lazy("games won, column", "gewonnen"), attrs=SECONDARY)
    solos = tables.Column(verbose_name=gettext_lazy("Soli"), attrs=SECONDARY)

    class Meta:
        attrs = {"class": "standings", "id": "standings-table"}
        template_name = "tournament/_standings_table.html"
        order_by = ("rank",)

    def __init__(self, rows, *args, player_url, limit: int | None = None, mode: str = Ranking.POINTS,
                 tables_shown: bool = True, ratings: dict[int, float] | None = None, **kwargs):
        self.player_url = player_url
        self.limit = limit
        self.mode = mode
        self.tables_shown = tables_shown
        self.ratings = ratings
        unused = [name for columns in MODE_COLUMNS.values() for name in columns if name not in MODE_COLUMNS[mode]]
        if ratings is None:
            unused.append("rating")
        super().__init__(RankedRows(list(rows)), *args, exclude=unused, **kwargs)
        if mode == Ranking.TABLE_POINTS:
            self.columns["points"].column.verbose_name = gettext_lazy("Spielpunkte")

    @property
    def column_count(self) -> int:
        return 7 + len(MODE_COLUMNS[self.mode]) + (self.ratings is not None)

    @property
    def truncated(self) -> bool:
        return self.limit is not None and len(self.data) > self.limit

    def ordered_rows(self) -> list[selectors.StandingRow]:
        """The records in the table's order (django-tables2 sorts its data in place when the table is
        configured), without building a bound row for each of 1,000 players."""
        return list(self.data)

    def body_html(self) -> str:
        texts = RowTexts(self.player_url, self.mode, self.tables_shown, self.ratings)
        rows = self.ordered_rows()
        if self.truncated:
            return mark_safe("".join(row_html(row, texts) for row in rows[:self.limit]) + ME_MARK)
        return mark_safe("".join(row_html(row, texts) for row in rows))


def visible_history(request, tournament, counter: int | None = None):
    if counter is None:
        counter = caching.change_counter(tournament)
    return histories.standings_history(tournament, include_hidden=request.is_director, counter=counter)


def chosen_round(request, history) -> int | None:
    number = query_string.integer(request, "round")
    return number if number in history.rounds else None


def rows_after(history, after_round):
    """The standings after a round (or all rounds) with each row's movement since the round before."""
    rounds = [n for n in history.rounds if after_round is None or n <= after_round]
    if not rounds:
        return history.before, rounds
    rows = history.after[rounds[-1]]
    previous = history.ranks(rounds[-2]) if len(rounds) > 1 else {}
    for row in rows:
        before = previous.get(row.entry_id)  # 0 or None: no place to compare with
        row.movement = before - row.rank if before and row.rank else None
    return rows, rounds


def top_chart(history, rounds, rows, mode: str = Ranking.POINTS) -> str:
    """The first 10's cumulative points after each round: table points when they rank, else game
    points (an average is not cumulative: its chart shows the game points it is made of)."""
    if not rows or not rounds:
        return ""
    top = rows[:10]
    field = "table_points" if mode == Ranking.TABLE_POINTS else "points"
    points = {number: {r.entry_id: getattr(r, field) for r in history.after[number]} for number in rounds}
    series = [Series(label=f"{row.rank}. {row.name}" if row.rank else row.name,
                     values=[0] + [points[n][row.entry_id] for n in rounds]) for row in top]
    title = _("Tischpunkte der ersten 10") if field == "table_points" else _("Punkteverlauf der ersten 10")
    return progression_html(series, [_("Start")] + [_("R%(n)s") % {"n": n} for n in rounds], title=title)


def player_link(tournament, show: bool):
    """entry id -> the player's page (None when the players' pages are not public)."""
    if not show:
        return lambda entry_id: None
    prefix = reverse("tournament:player", args=[tournament.slug, 123456789]).replace("123456789", "\x00")
    before, after = prefix.split("\x00")
    return lambda entry_id: f"{before}{entry_id}{after}"


def shown_query(request) -> dict[str, str]:
    """The parts of the query that change what the table shows (not `partial` or `me`)."""
    return {name: request.GET[name] for name in ("round", "sort", "all", "kategorie") if request.GET.get(name)}


def live_fragment(request, tournament, counter: int, query: dict[str, str]) -> dict:
    """The part of the page that updates itself (table, sums, chart), rendered once per change of
    the tournament, per language and per view (director or public), and shared through the cache.
    Holds marks for the time and the reader's own row, and the rows that are not shown."""
    director = request.is_director
    key = cache_keys.standings_live(tournament.pk, counter, director=director, query=query)

    def compute():
        history = visible_history(request, tournament, counter)
        after_round = chosen_round(request, history)
        rows, rounds = rows_after(history, after_round)
        total = sum(r.points for r in rows)
        if query.get("kategorie"):  # the players of one category, with their places overall
            categories = prize_selectors.categories_of(tournament)
            rows = [row for row in rows if query["kategorie"] in (categories.get(row.entry_id) or ())]
        links = player_link(tournament, tournament.public_players or director)
        show_all = bool(query.get("all"))
        ratings = shown_ratings(tournament, rows, director=director)
        table = StandingsTable(rows, player_url=links, limit=None if show_all else settings.STANDINGS_TOP,
                               mode=tournament.ranking, tables_shown=tournament.public_seating or director,
                               ratings=ratings)
        # the table's header links keep the query of the page, without the poll's own parameters
        shown = copy.copy(request)
        shown.GET = QueryDict(urlencode(query))
        tables.RequestConfig(shown, paginate=False).configure(table)
        html = render_to_string("tournament/_standings_live.html", {
            "table": table, "any_totals_only": any(r.totals_only for r in rows), "sum": total,
            "chart": top_chart(history, rounds, rows, tournament.ranking), "count": len(rows),
            "table_points_chart": tournament.ranking == Ranking.TABLE_POINTS,
            "now": mark_safe(f'<span class="now">{NOW_MARK}</span>'),
            "all_url": "?" + urlencode({**query, "all": "1"}) if table.truncated else "",
            "provisional": history.provisional_sentences(),
        }, request=shown)
        rest = {}
        if table.truncated:
            not_shown = table.ordered_rows()[settings.STANDINGS_TOP:]
            rest = dict(zip((row.entry_id for row in not_shown), selectors.row_values(not_shown), strict=True))
        return {"html": html, "rest": rest, "links": tournament.public_players or director,
                "rounds": history.rounds, "after_round": after_round, "mode": tournament.ranking,
                "tables": tournament.public_seating or director, "columns": table.column_count,
                "ratings": ratings}

    return caching.cached(key, compute, keep=True)


def compose(fragment: dict, tournament, me: int | None, *, now: bool = True) -> str:
    """The cached fragment with this request's time (`now`; else its mark stays, for `whole_page`)
    and, when it is not among the places shown, the reader's own row."""
    html = fragment["html"]
    if now:
        html = html.replace(NOW_MARK, time_format(timezone.localtime(), "TIME_FORMAT"), 1)
    values = fragment["rest"].get(me) if me is not None else None
    if values is not None:
        own = selectors.rows_from([values])[0]
        texts = RowTexts(player_link(tournament, fragment["links"]), fragment["mode"], fragment["tables"],
                         fragment.get("ratings"))
        gap = (f'<tr class="gap" aria-hidden="true"><td colspan="{fragment["columns"]}">…</td></tr>'
               f'{row_html(own, texts)}')
        html = html.replace(ME_MARK, gap, 1)
    return html


def entry_param(request, name: str = "me") -> int | None:
    """The reader's own entry (`?me=`): None when it is no id a player could have."""
    return query_string.integer(request, name)


def describe_standings(request):
    """(page, variant, personal) of a standings request, for its ETag. An ETag is per address: `me`
    is part of the address, so it need not be part of the ETag, and the page can hand its script the
    ETag of its first poll (`poll_etag`)."""
    partial = bool(request.GET.get("partial"))
    variant = (bool(getattr(request, "is_director", False)), sorted(shown_query(request).items()))
    return ("standings-poll" if partial else "standings"), variant, not partial


@caching.answers_unchanged_polls(describe_standings)
@public_or_director("standings")
def standings_page(request, tournament):
    partial = bool(request.GET.get("partial"))
    query = shown_query(request)
    me = entry_param(request) if partial else None
    page, variant, personal = describe_standings(request)
    poll = caching.Poll(request, tournament, page=page, variant=variant, personal=personal)
    not_modified = poll.not_modified()
    if not_modified is not None:
        return not_modified
    everyone = caching.for_everyone(request)  # (its answer is kept by the front door)
    if partial:
        response = HttpResponse(seat_notice(request, tournament, me)
                                + compose(live_fragment(request, tournament, poll.counter, query), tournament, me))
        response = caching.compressed(request, poll.finish(response))
        return front.keep(response, "change", tournament.pk, value=poll.counter, timed=True) if everyone else response

    def build():
        fragment = live_fragment(request, tournament, poll.counter, query)
        hidden = [n for n in tournament.rounds.filter(results_hidden=True).values_list("number", flat=True)
                  ] if request.is_director else []
        context = {
            "tournament": tournament, "after_round": fragment["after_round"],
            "ranking_sentence": ranking.sentence(tournament),
            "hidden_rounds": hidden, "is_director": request.is_director,
            "has_teams": functools.partial(has_teams, tournament),  # (asked by the template: not for a kept frame)
            "category": prize_selectors.category_label(query["kategorie"]) if query.get("kategorie") else "",
            "category_code": query.get("kategorie", ""), "refresh": 30,
        }
        # what changes with the results (the frame, with the setup: web/frames.py)
        rounds_nav = render_to_string("tournament/_standings_rounds.html", {**context, "rounds": fragment["rounds"]})
        live = compose(fragment, tournament, me, now=False)  # (the time: whole_page)
        poll_etag = caching.etag(tournament, poll.counter, "standings-poll", variant)
        def frame_key() -> str:
            return cache_keys.standings_frame(tournament.pk, caching.request_setup_counter(request, tournament))

        return HttpResponse(frames.page(request, frame_key, "tournament/standings.html", context,
                                        path_part="standings", safe={"live": live, "rounds_nav": rounds_nav},
                                        text={"poll_etag": poll_etag}))

    key = cache_keys.standings_page(tournament.pk, poll.counter, variant=variant, path=request.get_full_path())
    response = poll.finish(caching.whole_page(request, key, build, now_mark=NOW_MARK))
    return front.keep(response, "change", tournament.pk, value=poll.counter, timed=True) if everyone else response


def export_rows(request, tournament, counter: int):
    """The rows of the standings the request asks for, the rounds they count and each player's points
    per round (`StandingsHistory.per_round`): what every export is made of."""
    history = visible_history(request, tournament, counter)
    rows, rounds = rows_after(history, chosen_round(request, history))
    return rows, rounds, history.per_round(rounds, tournament.ranking)


def _export(request, tournament, page: str, build):
    """An export with the standings' validator: 304 while nothing changed, compressed otherwise."""
    poll = caching.Poll(request, tournament, page=page,
                        variant=(request.is_director, request.GET.get("round", "")))
    not_modified = poll.not_modified()
    if not_modified is not None:
        return not_modified
    rows, rounds, per_round = export_rows(request, tournament, poll.counter)
    response = build(rows, tournament.ranking, rounds, per_round)
    return caching.compressed(request, poll.finish(response))


def rating_cells(value) -> tuple:
    """The rating's CSV cells: mu and sigma with one decimal (a comma, as German spreadsheets read it)
    and the games rated; empty before the player's first game."""
    if value is None:
        return "", "", 0
    return f"{value.mu:.1f}".replace(".", ","), f"{value.sigma:.1f}".replace(".", ","), value.games


def row_rating(rated: dict, row):
    """A row's rating in an export: none for a player not published (docs/privacy.md)."""
    return None if row.hidden else rated.get(row.entry_id)


def rating_json(value) -> dict | None:
    """The rating in the JSON export: mu, sigma, the conservative value it ranks by, the games rated and
    whether that is enough to be ranked (docs/rating.md); null before the player's first game."""
    if value is None:
        return None
    return {"mu": round(value.mu, 3), "sigma": round(value.sigma, 3), "conservative": round(value.conservative, 3),
            "games": value.games, "settled": value.settled}


@public_or_director("standings")
def standings_csv(request, tournament):
    """Semicolon-separated with a UTF-8 BOM, as German spreadsheet programs expect. After the columns
    of the page: "nur Endstand" ("*" where some points were entered as a table's final totals only,
    as the page marks the name) and each round's points, R1, R2 … (the round's table points when they
    rank, as the printed standings; empty for a round the player did not play), then, when the rating is
    shown, the rating now, its uncertainty and the games rated (docs/rating.md). The new columns come
    last, so that a spreadsheet that reads the others by position keeps working."""
    rated = ratings_of(tournament, include_hidden=request.is_director) if tournament.rating_on else None

    def build(rows, mode, rounds, per_round):
        header = [_("Platz"), pgettext("one player", "Spieler"), _("Verein"), *ranking.export_labels(mode).values(),
                  _("Punkte"), _("Spiele"), pgettext("games won, column", "gewonnen"), _("Soli"), _("nur Endstand"),
                  *(_("R%(n)s") % {"n": n} for n in rounds),
                  *((_("Wertungszahl"), _("Unsicherheit"), _("Spiele gewertet")) if rated is not None else ())]
        empty = [None] * len(rounds)
        lines = ([row.rank or "", row.name, row.club,
                  *ranking.export_values(row, mode, as_text=True).values(), row.points, row.games, row.won, row.solos,
                  "*" if row.totals_only else "", *("" if p is None else p for p in per_round.get(row.entry_id, empty)),
                  *(rating_cells(row_rating(rated, row)) if rated is not None else ())]
                 for row in rows)
        return csv_response(header, lines, f"{tournament.slug}-tabelle.csv")

    return _export(request, tournament, "standings-csv", build)


@public_or_director("standings")
def standings_json(request, tournament):
    tables = tournament.public_seating or request.is_director
    rated = ratings_of(tournament, include_hidden=request.is_director) if tournament.rating_on else None

    def build(rows, mode, _rounds, _per_round):
        data = [{"rank": r.rank or None, "player": r.name, "club": r.club,
                 **ranking.export_values(r, mode, as_text=False, tables=tables), "points": r.points,
                 "games": r.games, "won": r.won, "solos": r.solos,
                 **({"rating": rating_json(row_rating(rated, r))} if rated is not None else {})} for r in rows]
        return JsonResponse(data, safe=False, json_dumps_params={"ensure_ascii": False})

    return _export(request, tournament, "standings-json", build)
