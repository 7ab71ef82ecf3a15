"""A solo of a DDV list entered by keyboard: the Pflicht- or Lustsolo choice appears for a solo only,
in Tab order, says what "von selbst" gives for the seat typed, and the sheet shows the mark."""

from __future__ import annotations

from tournament.models import Tournament

from ..tournament.factories import make_director, make_tournament, seat_ids, seated_round
from .keyboard import wait_for_cursor


def test_a_pflichtsolo_by_keyboard(live_server, page):
    director = make_director("leitung")
    tournament = make_tournament(players=4, director=director, slug="ddv", rules="ddv",
                                 pflichtsoli=Tournament.Pflichtsoli.SAME_DEALER, games_at_table_of_4=24)
    table = seated_round(tournament).tables.get()
    base = live_server.url
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", "leitung")
    page.fill("#id_password", "pw-leitung")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    page.goto(base + "/t/ddv/rounds/1/tables/1/games/new/")
    assert page.is_hidden("[name=pflichtsolo]")  # a normal game: no choice, not in the Tab order
    wait_for_cursor(page, "re_seats")
    page.keyboard.press("Shift+Tab")  # the game type
    page.keyboard.type("so")  # Solo
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "solo"
    page.keyboard.type("d")  # Damensolo
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "pflichtsolo"  # left as it is: "von selbst"
    page.keyboard.press("Tab")
    page.keyboard.type("3")
    assert page.inner_text("#pflicht-meaning") == "→ Pflichtsolo"  # seat 3 has not played theirs yet
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.type("140")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "Spiel 1 gespeichert:" in page.inner_text(".messages")
    game = table.games.get(number=1)
    assert (game.type, game.solo, game.re, game.pflichtsolo) == ("solo", "damen", [seat_ids(table)[2]], True)
    # game 2: the same dealer deals again, and the form says whose Pflichtsolo is open
    lead = page.inner_text("p.lead")
    assert f"Geber: {table.seats.get(position=1).entry.player.name}" in lead and "Pflichtsolo noch offen:" in lead
    page.goto(base + "/t/ddv/rounds/1/tables/1/")
    assert "Damensolo (Pflichtsolo)" in page.inner_text("table.sheet")
