"""The projector page (docs/tournament.md, "Beamer"): full screen for a beamer in the hall. What the
public may see only, also for a logged-in director: the seating of the newest published round by
name, then the standings (without hidden results), paging by itself (static/js/projector.js); the
round clock. The page reloads itself after each pass, so a new round shows up on its own."""

from __future__ import annotations

from django.shortcuts import render

from ..selectors.projector import projector_view
from ..web import caching, histories
from . import query_string
from .access import public_or_director

SECONDS_PER_PAGE = 12


@public_or_director("seating")
def projector_page(request, tournament):
    standings = None
    if tournament.public_standings:
        history = histories.standings_history(tournament, include_hidden=False,
                                            counter=caching.request_counter(request, tournament))
        standings = [row for row in history.final() if row.rank]  # the room needs no row without a place
    seconds = query_string.clamped(request, "seconds", default=SECONDS_PER_PAGE, least=1, most=120)
    view = projector_view(tournament, standings)
    return render(request, "tournament/projector.html", {
        "tournament": tournament, "view": view, "seconds": seconds, "ranking": tournament.ranking,
    })
