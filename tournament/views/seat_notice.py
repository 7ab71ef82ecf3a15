"""Telling a player where they sit (docs/tournament.md, "Where do I sit?"): a phone that marked its
player ("Das bin ich" on the standings, kept in the browser) sends the entry with each poll (`me`);
the answer starts with a notice of their table and seat in the newest published round and its
clock, which the page's script puts at the top (static/js/standings.js). One query; nothing when the
seating is not public."""

from __future__ import annotations

from django.template.loader import render_to_string

from .. import selectors


def seat_notice(request, tournament, entry_id: int | None) -> str:
    if entry_id is None or not (tournament.public_seating or getattr(request, "can_enter", False)):
        return ""
    seat = selectors.current_seat(tournament.pk, entry_id)
    if seat is None:
        return ""
    return render_to_string("tournament/_seat_notice.html", {
        "seat": seat, "end": seat.clock_end(tournament.round_minutes)})
