"""Telling a player where they sit (docs/tournament.md, "Where do I sit?"): a phone that marked its
player ("Das bin ich" on the standings, kept in the browser) sends the entry with each poll (`me`);
the answer starts with a notice of their table and seat in the newest published round and its
clock, which the page's script puts at the top (static/js/standings.js). Where everyone sits is read in
one query per change of the tournament and kept in the process (`current_seats`); nothing when the
seating is not public.

The overview has no poll of its own data: it asks `seat_notice_poll` (`/t/<slug>/platz/?me=`) for the
notice alone, at the same interval (static/js/seat_notice.js), answered 304 while nothing changed."""

from __future__ import annotations

from django.http import HttpResponse
from django.template.loader import render_to_string

from .. import selectors
from ..web import cache_keys, caching, front
from . import query_string
from .access import public_or_director

REFRESH = 30  # seconds between two polls of a page that shows the notice (standings, player, overview)


def seat_notice(request, tournament, entry_id: int | None) -> str:
    if entry_id is None or not (tournament.public_seating or getattr(request, "can_enter", False)):
        return ""
    seat = current_seats(tournament, caching.request_counter(request, tournament)).get(entry_id)
    if seat is None:
        return ""
    return render_to_string("tournament/_seat_notice.html", {
        "seat": seat, "end": seat.clock_end(tournament.round_minutes)})


def current_seats(tournament, counter: int) -> dict:
    """Where every player sits now (`selectors.current_seats`), read once per change of the tournament
    and kept in the process (`caching.recent`, key `cache_keys.current_seats`): when a round is announced
    the 200 phones' first polls each name another player, and each looks its seat up here instead of a
    query of its own."""
    key = cache_keys.current_seats(tournament.pk, counter)
    seats = caching.recent.get(key)
    if seats is None:
        seats = selectors.current_seats(tournament.pk)
        caching.recent.put(key, seats)
    return seats


def describe_seat_notice(request):
    """(page, variant, personal) of the overview's poll for the notice, for its ETag (the fast 304 of
    `caching.answers_unchanged_polls` and the view's `Poll` alike)."""
    return "seat-notice", (getattr(request, "role", None) or "", query_string.integer(request, "me")), False


@caching.answers_unchanged_polls(describe_seat_notice)
@public_or_director("overview")
def seat_notice_poll(request, tournament):
    """The notice alone (empty when there is none), for the overview's script."""
    page, variant, personal = describe_seat_notice(request)
    poll = caching.Poll(request, tournament, page=page, variant=variant, personal=personal)
    not_modified = poll.not_modified()
    if not_modified is not None:
        return not_modified
    response = caching.compressed(request, poll.finish(HttpResponse(
        seat_notice(request, tournament, query_string.integer(request, "me")))))
    if not caching.for_everyone(request):
        return response
    return front.keep(response, "change", tournament.pk, value=poll.counter)
