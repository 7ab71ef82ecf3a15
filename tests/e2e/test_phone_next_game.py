"""The phone's next game starts empty: after "Spiel 1 speichern" the form for game 2
showed game 1's result ("Re gewinnt. Spielwert 2", the ±2 of each player) above "Spiel 2 speichern",
and the notes said "wird gesendet" beside "ist angekommen" for the same game. Now the preview goes
with the game it was for, and a game's note says one state at a time."""

from __future__ import annotations

import re

from tournament.models import DraftGame, Table

from ..tournament.factories import make_director, make_tournament, seated_round

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "locale": "de-DE",
         "timezone_id": "Europe/Berlin"}


def test_the_next_games_form_is_empty_and_a_game_says_one_state(live_server, browser):
    tournament = make_tournament(players=8, director=make_director("leitung"), slug="handy")
    table = seated_round(tournament).tables.get(number=1)
    context = browser.new_context(**PHONE)
    phone = context.new_page()
    phone.goto(f"{live_server.url}/e/{Table.objects.get(pk=table.pk).link_token}/")
    phone.get_by_role("button", name=re.compile(r"^1 ")).first.click()

    buttons = phone.locator("#re-buttons button")
    buttons.nth(0).click()
    buttons.nth(1).click()
    phone.fill("#re-augen", "131")
    phone.wait_for_selector("#preview:not([hidden])")  # "Re gewinnt. Spielwert …" with each player's points
    assert "gewinnt" in phone.inner_text("#preview")
    phone.click("#save")
    phone.wait_for_function("document.querySelector('#notes').textContent.indexOf('Spiel 1 ist angekommen') >= 0")
    assert DraftGame.objects.filter(number=1).count() == 1

    assert "Spiel 2 eintragen" in phone.inner_text("#entry-heading")
    assert "Spiel 2 speichern" in phone.inner_text("#save")
    phone.wait_for_timeout(1000)  # longer than the preview's pause: nothing of game 1 comes back
    assert phone.locator("#preview").is_hidden()
    assert phone.input_value("#re-augen") == ""
    assert phone.locator("#re-buttons button[aria-pressed=true]").count() == 0
    assert phone.inner_text("#kontra-augen") == ""
    notes = phone.locator("#notes li").all_inner_texts()
    about_game_1 = [text for text in notes if "Spiel 1 " in text]
    assert about_game_1 == ["Spiel 1 ist angekommen."], notes

    # the next game, typed and saved: its own preview, and again one note per game
    buttons.nth(0).click()
    buttons.nth(2).click()
    phone.fill("#re-augen", "100")
    phone.wait_for_selector("#preview:not([hidden])")
    assert "Kontra gewinnt" in phone.inner_text("#preview")
    phone.click("#save")
    phone.wait_for_function("document.querySelector('#notes').textContent.indexOf('Spiel 2 ist angekommen') >= 0")
    phone.wait_for_timeout(1000)
    assert phone.locator("#preview").is_hidden() and phone.input_value("#re-augen") == ""
    notes = phone.locator("#notes li").all_inner_texts()
    assert [t for t in notes if "Spiel 2 " in t] == ["Spiel 2 ist angekommen."], notes
    assert [t for t in notes if "Spiel 1 " in t] == ["Spiel 1 ist angekommen."], notes
    context.close()
