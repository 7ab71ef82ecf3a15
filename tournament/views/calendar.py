"""The hub's pages across every organisation's tournaments (docs/hub.md): the start page's lists
(`start_listing`, shown by `home` on a hub), the calendar by month (`/kalender/`) and the search
(`/suche/`). Everything but the site's frame is cached whole for `cache_keys.HUB_TIMEOUT` seconds under
the day, the language and the reader's parameters: the same for every reader, since only public
tournaments are read."""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.core.cache import cache
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe

from ..forms.calendar import CalendarFilters
from ..selectors import calendar, hub_search
from ..web import cache_keys

PARAMETERS = ("q", "region", "club", "month", "kind", "seite")


def _cached(page: str, variant: tuple, render_html: Callable[[], str]) -> str:
    key = cache_keys.hub_page(page, *variant)
    html = cache.get(key)
    if html is None:
        html = render_html()
        cache.set(key, html, cache_keys.HUB_TIMEOUT)
    return html


def _clubs() -> list[tuple[str, str]]:
    return _cached("clubs", (), calendar.clubs)  # type: ignore[arg-type, return-value]


def _asked(request) -> tuple:
    """The reader's parameters, as they came (the key of the cached page; long values cut)."""
    return tuple((name, request.GET.get(name, "")[:200]) for name in PARAMETERS)


def _form(request) -> tuple[CalendarFilters, calendar.Filters]:
    form = CalendarFilters(request.GET, clubs=_clubs())
    return form, form.filters()


def start_listing(request) -> str:
    """The hub's start page without the frame: the filters and the search, then what runs now, what
    comes next (with the way to the registration) and what finished last."""
    today = timezone.localdate()

    def render_html() -> str:
        form, filters = _form(request)
        return render_to_string("tournament/hub/_start.html", {
            "form": form, "filters": filters, "query": filters.query(), "today": today,
            "lists": calendar.start_page(filters, today=today)})

    return mark_safe(_cached("start", (today, _asked(request)), render_html))  # noqa: S308 (our template's output)


def calendar_page(request):
    """A month of every club's public tournaments (`?month=2027-03`, default this month), by day."""
    today = timezone.localdate()

    def render_html() -> str:
        form, filters = _form(request)
        month = filters.month or today.replace(day=1)
        try:
            page = int(request.GET.get("seite", "1"))
        except ValueError:
            page = 1
        found = calendar.month_page(filters, month=month, page=page, today=today)
        return render_to_string("tournament/hub/_month.html", {
            "form": form, "filters": filters, "found": found, "query": filters.query(), "today": today,
            "previous_query": _with_month(filters, found.previous), "next_query": _with_month(filters, found.next)})

    listing = _cached("month", (today, _asked(request)), render_html)
    return render(request, "tournament/hub/calendar.html", {"listing": mark_safe(listing)})  # noqa: S308


def _with_month(filters: calendar.Filters, month: datetime.date) -> dict[str, str]:
    return {**filters.query(), "month": f"{month:%Y-%m}"}


def search_page(request):
    """Tournaments, clubs and players found by `?q=` (folded the German way), at most 20 of each."""
    def render_html() -> str:
        form, filters = _form(request)
        return render_to_string("tournament/hub/_search.html", {
            "form": form, "results": hub_search.search(filters.q) if filters.q else None,
            "shortest": hub_search.SHORTEST_PLAYER_SEARCH, "most": hub_search.MOST})

    listing = _cached("search", (timezone.localdate(), _asked(request)), render_html)
    return render(request, "tournament/hub/search.html", {"listing": mark_safe(listing)})  # noqa: S308
