"""The public pages ask for one script each (static/js/public.js): when the director announces a round,
200 phones that have not seen the site open the seating within 100 ms and then their own page; every
script file a page names is one more request in that wave (docs/performance.md, "The announcement
burst"). The browser side of the script is tests/e2e (the standings, the seat notice, the print button,
the clock)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from ..factories import seated_round

pytestmark = pytest.mark.django_db


def scripts_of(page: str) -> list[str]:
    return re.findall(r'<script\b[^>]*\bsrc="([^"]+)"', page)


def test_the_standings_a_players_page_and_the_overview_load_one_script(tournament):
    seated_round(tournament)
    entry = tournament.entries.order_by("start_number").first()
    client = Client()
    for url in (reverse("tournament:standings", args=[tournament.slug]),
                reverse("tournament:player", args=[tournament.slug, entry.id]),
                reverse("tournament:overview", args=[tournament.slug])):
        page = client.get(url)
        assert page.status_code == 200
        assert [src.rsplit("/", 1)[-1] for src in scripts_of(page.content.decode())] == ["public.js"], url
        assert "<script>" not in page.content.decode()  # no inline script (the Content-Security-Policy)
