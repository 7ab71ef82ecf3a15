"""A player's results on paper: the page's print button, and what the printed page shows."""

import pytest
from playwright.sync_api import expect

from tests.tournament.factories import make_tournament, normal_game, seat_ids, seated_round
from tournament.services import results

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser_only]


def test_a_players_page_prints_without_the_sites_frame(live_server, page):
    tournament = make_tournament(players=8, slug="druck", place="Kiel")
    table = seated_round(tournament).tables.get(number=1)
    for number in (1, 2):
        results.save_game(table=table, data=normal_game(table, number))
    entry_id = seat_ids(table)[0]
    page.goto(f"{live_server.url}/t/druck/players/{entry_id}/")
    button = page.get_by_role("button", name="Ergebnisse drucken")
    expect(button).to_be_visible()
    expect(page.locator(".print-only")).to_be_hidden()
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")  # what printing does first
    page.emulate_media(media="print")
    expect(button).to_be_hidden()
    expect(page.locator(".tournament-nav")).to_be_hidden()
    expect(page.locator(".print-only")).to_contain_text("Herbstturnier")
    expect(page.locator(".print-only")).to_contain_text("Kiel")
    expect(page.locator("details .breakdown").first).to_be_visible()  # every breakdown opened for paper
    assert page.pdf()[:4] == b"%PDF"
