"""Dates and times in the reader's language (issue "The evening as a club meets it", 4; docs/accessibility.md,
"Dates and times in English"): an English reader gets "28/11/2026" and "13:29", not the American
"11/28/2026" and "1:29 p.m."; German stays "28.11.2026" and "13:29"."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, translation

from ..factories import make_tournament

pytestmark = pytest.mark.django_db

AFTERNOON = datetime.datetime(2026, 11, 28, 13, 29)


@pytest.mark.parametrize(("language", "short", "time", "short_datetime"), [
    ("en", "28/11/2026", "13:29", "28/11/2026 13:29"),
    ("en-gb", "28/11/2026", "13:29", "28/11/2026 13:29"),
    ("de", "28.11.2026", "13:29", "28.11.2026 13:29"),
])
def test_dates_and_times_in_the_readers_language(language, short, time, short_datetime):
    with translation.override(language):
        assert formats.date_format(AFTERNOON.date(), "SHORT_DATE_FORMAT") == short
        assert formats.time_format(AFTERNOON.time()) == time
        assert formats.date_format(AFTERNOON, "SHORT_DATETIME_FORMAT") == short_datetime
        assert "p.m." not in formats.date_format(AFTERNOON, "DATETIME_FORMAT")


def test_an_english_browser_in_britain_reads_the_date_day_first():
    tournament = make_tournament(players=8, slug="herbst")  # 21 November 2026
    page = Client(HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").get(
        reverse("tournament:overview", args=[tournament.slug])).content.decode()
    assert '<html lang="en">' in page
    assert "21/11/2026" in page and "11/21/2026" not in page
    german = Client().get(reverse("tournament:overview", args=[tournament.slug])).content.decode()
    assert "21.11.2026" in german
