"""One way to write a number below zero (issue "The evening as a club meets it", 3): the team standings,
the league table, the standings PDF and the series page write "−39" with the real minus sign, never "-39"
beside it (the `total` filter, `ranking.total_text`). CSV files keep "-39": a spreadsheet reads it as a
number."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from tournament.models import Tournament
from tournament.printing import documents
from tournament.services import teams

from ..services.test_league import league, match_day, play

pytestmark = pytest.mark.django_db

HYPHEN_MINUS = re.compile(r"(?<![\w\-–])-\d")  # "-39", not "2026-11-21" nor "Team-2"


def shown_text(page: str) -> str:
    """What a reader sees of a page: the text without tags, scripts and styles."""
    page = re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_team_and_league_tables_write_the_minus_sign_one_way(director):
    series = league(director, [{"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30},
                               {"Team A": -30, "Team B": -10, "Team C": 10, "Team D": 30}])
    day = series.tournaments.order_by("id").last()
    teams.set_team_options(tournament=day, team_count=3, club_count=None, teams_apart=False, team_match=True)
    client = Client()
    client.force_login(director)
    for url in (reverse("tournament:series", args=[series.slug]),
                reverse("tournament:team_standings", args=[day.slug])):
        text = shown_text(client.get(url).content.decode())
        assert "−120" in text, url
        assert not HYPHEN_MINUS.findall(text), (url, HYPHEN_MINUS.findall(text)[:5])
    pdf_html = shown_text(documents.standings_html(day))
    assert "−120" in pdf_html and not HYPHEN_MINUS.findall(pdf_html)


def test_table_points_below_zero_have_the_minus_sign(director):
    tournament = match_day(director)
    Tournament.objects.filter(pk=tournament.pk).update(ranking=Tournament.Ranking.TABLE_POINTS)
    tournament.refresh_from_db()
    play(tournament, {"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30})
    text = shown_text(Client().get(reverse("tournament:standings", args=[tournament.slug])).content.decode())
    assert "−3" in text and not HYPHEN_MINUS.findall(text)
