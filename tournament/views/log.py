"""The change log of a tournament: every change, newest first, filtered by round and table. Directors and
helpers read it; directors restore earlier versions of games and penalties from here (`tables.restore`)."""

from __future__ import annotations

import datetime

from django.shortcuts import render
from django.utils.dateparse import parse_datetime

from ..log import changelog
from .access import entry_required

PAGE = 100


def _number(request, name: str) -> int | None:
    try:
        value = int(request.GET.get(name, ""))
    except ValueError:
        return None
    return value if 1 <= value <= 32767 else None


@entry_required
def log_page(request, tournament):
    round_number = _number(request, "round")
    table_number = _number(request, "table") if round_number is not None else None
    until: datetime.datetime | None = None
    try:
        until = parse_datetime(request.GET.get("until", ""))
    except ValueError:
        until = None
    entries = changelog.entries(tournament, round_number=round_number, table_number=table_number, until=until,
                                limit=PAGE)
    return render(request, "tournament/log.html", {
        "tournament": tournament, "entries": entries, "round_number": round_number, "table_number": table_number,
        "rounds": list(tournament.rounds.order_by("number").values_list("number", flat=True)),
        "older": entries[-1].at.isoformat() if len(entries) == PAGE else None, "is_director": request.is_director,
    })
