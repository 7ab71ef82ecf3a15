"""The prize list on a phone (docs/competitions.md, "Categories and the prize list"): at 360 px the page
fits the window, with every column of a category's table ("Platz gesamt" too) inside it, for the
names and clubs of a real evening."""

from __future__ import annotations

import pytest

from tournament.models import Tournament
from tournament.services import player_details

from .conftest import ARTIFACTS
from .evening import make_evening
from .test_readable import measure, phone

pytestmark = pytest.mark.browser_only


def test_the_prize_list_fits_360_px(live_server, browser):
    evening = make_evening()
    tournament = Tournament.objects.get(slug=evening.slug)
    for name, categories in {"Anna-Lena Becker-Schulze": ["Damen"], "Carla Hoffmann": ["Damen", "Senioren"],
                             "Hans-Joachim Petersen": ["Senioren"], "Maria Krüger": ["Damen"],
                             "Wolfgang Bergmann": ["Gast"], "Lothar Jäger": ["Jugend"]}.items():
        player_details.set_categories(entry=tournament.entries.get(player__name=name), categories=categories)
    context, page = phone(browser, 360)
    page.goto(f"{live_server.url}/t/{evening.slug}/preise/?je_kategorie=2")
    assert page.locator("th", has_text="Platz gesamt").count() >= 3
    width = page.evaluate("document.scrollingElement.scrollWidth")
    scroll, limit, wide = measure(page, "reflow")
    # every cell of the category tables inside the window, not cut off by a box that scrolls
    cut = page.evaluate("[...document.querySelectorAll('table.prizes th, table.prizes td')]"
                        ".filter(cell => cell.getBoundingClientRect().right > document.documentElement.clientWidth + 1)"
                        ".map(cell => cell.textContent.trim())")
    context.close()
    assert width <= 360, f"the prize list is {width} px wide at 360 px: {wide}"
    assert scroll <= limit and not cut, (scroll, limit, wide, cut)


def test_the_prize_list_with_what_each_place_wins_fits_360_px(live_server, browser):
    """The column "Gewinn" (issue "The evening as a club meets it", 6) with a director's texts: still every cell
    inside the window at 360 px."""
    evening = make_evening()
    tournament = Tournament.objects.get(slug=evening.slug)
    for name, categories in {"Anna-Lena Becker-Schulze": ["Damen"], "Maria Krüger": ["Damen"]}.items():
        player_details.set_categories(entry=tournament.entries.get(player__name=name), categories=categories)
    Tournament.objects.filter(pk=tournament.pk).update(prizes={
        "": ["50 € und ein Pokal", "30 €", "Gutschein Buchhandlung Müller"], "Damen": ["Präsentkorb mit Wein"]})
    context, page = phone(browser, 360)
    page.goto(f"{live_server.url}/t/{evening.slug}/preise/")
    assert page.locator("th", has_text="Gewinn").count() == 2
    assert page.locator("td", has_text="Gutschein Buchhandlung Müller").count() >= 1
    width = page.evaluate("document.scrollingElement.scrollWidth")
    cut = page.evaluate("[...document.querySelectorAll('table.prizes th, table.prizes td')]"
                        ".filter(cell => cell.getBoundingClientRect().right > document.documentElement.clientWidth + 1)"
                        ".map(cell => cell.textContent.trim())")
    page.screenshot(path=str(ARTIFACTS / "prize-list-with-prizes-360.png"), full_page=True)
    context.close()
    assert width <= 360 and not cut, (width, cut)
