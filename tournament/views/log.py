"""The change log of a tournament: every change, newest first, filtered by round and table. Directors and
helpers read it; directors restore earlier versions of games and penalties from here (`tables.restore`)."""

from __future__ import annotations

from django.shortcuts import render

from ..log import changelog
from . import query_string
from .access import entry_required

PAGE = 100


@entry_required
def log_page(request, tournament):
    round_number = query_string.integer(request, "round", most=32767)
    table_number = query_string.integer(request, "table", most=32767) if round_number is not None else None
    until = query_string.moment(request, "until")
    entries = changelog.entries(tournament, round_number=round_number, table_number=table_number, until=until,
                                limit=PAGE)
    return render(request, "tournament/log.html", {
        "tournament": tournament, "entries": entries, "round_number": round_number, "table_number": table_number,
        "rounds": list(tournament.rounds.order_by("number").values_list("number", flat=True)),
        "older": entries[-1].at.isoformat() if len(entries) == PAGE else None, "is_director": request.is_director,
    })
