"""Numbers, days and moments read from a page's query string (`?round=2`, `?me=17`, `?bis=2026-06-30`).

Anyone can type a query string, so each value is read one way here: a value that is missing, cannot be
read or lies outside what the page can use is `None` (the page then shows what it shows without it),
never an exception and never a number the database cannot hold (SQLite refuses integers beyond 64 bits
with an OverflowError, PostgreSQL a time zone offset beyond ±15:59): docs/security.md, "Query strings".
"""

from __future__ import annotations

import datetime

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from ..validators import ID_MOST

FIRST_DAY = datetime.date(1900, 1, 1)  # the earliest day a page is read on (a window of 120 months still fits)
LAST_DAY = datetime.date(9999, 12, 31)


def integer(request, name: str, *, least: int = 1, most: int = ID_MOST) -> int | None:
    """`?name=N` as an int from `least` to `most`; None when missing, unreadable or outside."""
    try:
        value = int(request.GET.get(name, ""))
    except ValueError:  # also a number of more than 4,300 digits
        return None
    return value if least <= value <= most else None


def clamped(request, name: str, *, default: int, least: int, most: int) -> int:
    """`?name=N` brought into `least`..`most`; `default` when missing or unreadable."""
    try:
        value = int(request.GET.get(name, default))
    except ValueError:
        return default
    return min(max(value, least), most)


def day(request, name: str) -> datetime.date | None:
    """`?name=YYYY-MM-DD` from 1900 to 9999; None when missing, unreadable or outside."""
    try:
        value = datetime.date.fromisoformat(request.GET.get(name, ""))
    except ValueError:
        return None
    return value if FIRST_DAY <= value <= LAST_DAY else None


def moment(request, name: str) -> datetime.datetime | None:
    """`?name=` an ISO date and time (the current time zone's when it names none), in UTC; None when
    missing, unreadable or outside what a database stores (an offset beyond ±15:59, a year 0 or 10000
    after the conversion)."""
    try:
        value = parse_datetime(request.GET.get(name, ""))
        if value is None:
            return None
        if timezone.is_naive(value):
            value = timezone.make_aware(value)
        offset = value.utcoffset()
        if offset is None or abs(offset) >= datetime.timedelta(hours=16):
            return None
        value = value.astimezone(datetime.UTC)
    except (ValueError, OverflowError):
        return None
    return value if FIRST_DAY <= value.date() <= LAST_DAY else None
