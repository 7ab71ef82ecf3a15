"""A button that only a script makes work is shown only once the script has bound it: a tap before
would do nothing, and the player would not know (stop 26's CI failed on it: in the game form the
first of two names clicked was lost while game_form.js was still loading). Each test holds the
script back, expects the buttons hidden, lets it through and expects them to work."""

import pytest
from playwright.sync_api import expect

from ..tournament.factories import make_director, make_tournament, play_round, seated_round

pytestmark = pytest.mark.browser_only


def login(page, base):
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", "leitung")
    page.fill("#id_password", "pw-leitung")
    with page.expect_navigation():
        page.click("main form button[type=submit]")


def test_the_game_forms_name_buttons_appear_once_they_work(live_server, page):
    tournament = make_tournament(players=8, director=make_director("leitung"), slug="namen")
    seated_round(tournament)
    login(page, live_server.url)
    page.route("**/game_form*.js", lambda route: route.abort())
    page.goto(live_server.url + "/t/namen/rounds/1/tables/1/games/new/")
    assert page.locator(".seat-button").count() == 4
    assert not page.locator(".seat-buttons").is_visible()
    assert not page.locator(".announce-buttons").is_visible()
    assert not page.locator(".extras-buttons").is_visible()
    page.unroute("**/game_form*.js")
    page.reload()
    page.locator(".seat-button").nth(0).click()
    page.locator(".seat-button").nth(2).click()
    assert page.input_value("#id_re_seats") == "13"
    assert page.locator(".extras-buttons").is_visible()
    page.locator(".announce-buttons button").first.click()
    assert page.input_value("#id_announcements") == "r"


def test_the_standings_mark_of_ones_own_row_appears_once_it_works(live_server, page):
    tournament = make_tournament(players=8, director=make_director("leitung"), slug="stern")
    play_round(tournament)
    page.route("**/standings*.js", lambda route: route.abort())
    page.goto(live_server.url + "/t/stern/standings/")
    row = page.locator("#standings-table tbody tr").first
    assert row.locator(".me-toggle").count() == 1
    assert not row.locator(".me-toggle").is_visible()
    page.unroute("**/standings*.js")
    page.reload()
    row.locator(".me-toggle").click()
    expect(row).to_have_class("me")
