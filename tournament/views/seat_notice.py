"""Telling a player where they sit (docs/tournament.md, "Where do I sit?"): a phone that marked its
player ("Das bin ich" on the standings, kept in the browser) sends the entry with each poll (`me`);
the answer starts with a notice of their table and seat in the newest published round and its
clock, which the page's script puts at the top (static/js/standings.js). One query; nothing when the
seating is not public.

The overview has no poll of its own data: it asks `seat_notice_poll` (`/t/<slug>/platz/?me=`) for the
notice alone, at the same interval (static/js/seat_notice.js), answered 304 while nothing changed."""

from __future__ import annotations

from django.http import HttpResponse
from django.template.loader import render_to_string

from .. import selectors
from ..web import caching, front
from . import query_string
from .access import public_or_director

REFRESH = 30  # seconds between two polls of a page that shows the notice (standings, player, overview)


def seat_notice(request, tournament, entry_id: int | None) -> str:
    if entry_id is None or not (tournament.public_seating or getattr(request, "can_enter", False)):
        return ""
    seat = selectors.current_seat(tournament.pk, entry_id)
    if seat is None:
        return ""
    return render_to_string("tournament/_seat_notice.html", {
        "seat": seat, "end": seat.clock_end(tournament.round_minutes)})


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
