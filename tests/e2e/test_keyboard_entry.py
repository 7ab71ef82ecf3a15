"""A whole table of 8 games entered by keyboard at the speed of the paper sheet: the Re party as the
sheet writes it (seat numbers), announcements by their first letter, Augen, Sonderpunkte in the
short notation, Enter saves and opens the next game. A normal game with Re announced takes at most
10 keystrokes, a game with Sonderpunkte at most 14; this test counts them."""

from __future__ import annotations

from tournament.models import Game, Score

from ..tournament.factories import make_director, make_tournament, seat_ids, seated_round
from .keyboard import Keys, wait_for_cursor

# (Re seats, announcement key or "", Augen, Sonderpunkte) per game, as a sheet would read them
GAMES = [
    ("12", "r", "135", ""), ("34", "", "110", "kf"), ("13", "r", "150", "rd"), ("24", "", "121", ""),
    ("14", "r", "90", ""), ("23", "", "181", "rd kf"), ("12", "r", "125", "kk"), ("34", "", "119", ""),
]


def test_a_table_of_eight_games_by_keyboard(live_server, page):
    director = make_director("leitung")
    tournament = make_tournament(players=8, director=director, slug="tasten")
    table = seated_round(tournament).tables.get(number=1)
    base = live_server.url
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", "leitung")
    page.fill("#id_password", "pw-leitung")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    page.goto(base + "/t/tasten/rounds/1/tables/1/games/new/")
    counts = []
    for number, (seats, announce, augen, extras) in enumerate(GAMES, start=1):
        wait_for_cursor(page, "re_seats")  # the cursor is ready
        keys = Keys(page)
        keys.type(seats)
        assert page.inner_text("#re-names")  # the names appear as the seats are typed
        keys.press("Tab")  # announcements
        if announce:
            keys.type(announce)
        keys.press("Tab")  # Augen
        keys.type(augen)
        if extras:
            keys.press("Tab")  # Sonderpunkte
            keys.type(extras)
        with page.expect_navigation():
            keys.press("Enter")
        counts.append((number, keys.count, bool(extras)))
        assert f"Spiel {number} gespeichert:" in page.inner_text(".messages")
    for number, count, with_extras in counts:
        assert count <= (14 if with_extras else 10), (number, count)
    # seats 2, Tab, announcement 1, Tab, Augen 2 or 3, (Tab, Sonderpunkte), Enter
    assert [c for _n, c, _e in counts] == [9, 11, 12, 8, 8, 14, 12, 8]
    ids = seat_ids(table)
    games = list(Game.objects.filter(table=table).order_by("number"))
    assert [g.number for g in games] == list(range(1, 9))
    assert games[0].re == [ids[0], ids[1]] and games[0].announce_re == "re" and games[0].re_augen == 135
    assert games[1].extras == {"kontra": {"fuchs": 1}}
    assert games[5].extras == {"re": {"doppelkopf": 1}, "kontra": {"fuchs": 1}}
    assert sum(Score.objects.filter(table=table).values_list("points", flat=True)) == 0
    print("\nkeystrokes per game:", [c for _n, c, _e in counts])


def test_new_augen_empty_a_stale_stiche_field(live_server, page):
    """Stiche typed for 240 Augen, then the Augen corrected: the Stiche field is emptied, so the game is
    saved without a stale count (the server would refuse 130 Augen in 11 tricks anyway)."""
    director = make_director("leitung")
    tournament = make_tournament(players=8, director=director, slug="stiche")
    table = seated_round(tournament).tables.get(number=1)
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "leitung")
    page.fill("#id_password", "pw-leitung")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    page.goto(live_server.url + "/t/stiche/rounds/1/tables/1/games/new/")
    wait_for_cursor(page, "re_seats")
    keys = Keys(page)
    keys.type("12")
    keys.press("Tab")
    keys.press("Tab")
    keys.type("240")
    keys.press("Tab")  # 240 Augen: the Stiche field joins the Tab order
    assert page.evaluate("document.activeElement.name") == "re_tricks"
    keys.type("11")
    page.focus("[name=re_augen]")
    page.fill("[name=re_augen]", "")
    keys.type("130")
    assert page.input_value("[name=re_tricks]") == ""
    with page.expect_navigation():
        keys.press("Enter")
    game = Game.objects.get(table=table)
    assert (game.re_augen, game.re_tricks) == (130, None)


def log_in(page, base):
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", "leitung")
    page.fill("#id_password", "pw-leitung")
    with page.expect_navigation():
        page.click("main form button[type=submit]")


def test_a_solo_by_keyboard_as_the_help_says_and_a_refused_enter_keeps_the_seats(live_server, page):
    """A solo as the page's hint and /hilfe/ write it (issue "The evening as a club meets it", 9): the soloist's
    seat, Shift+Tab to the game type, "so", Tab, the solo's letter, Tab Tab Tab to the Augen, Enter. A refused
    Enter leaves the Re party as typed (seats, not names): one Backspace corrects it."""
    tournament = make_tournament(players=8, director=make_director("leitung"), slug="tasten")
    table = seated_round(tournament).tables.get(number=1)
    base = live_server.url
    log_in(page, base)
    page.goto(base + "/t/tasten/rounds/1/tables/1/games/new/")
    hint = page.inner_text(".keyboard-hint")
    assert "Umschalt+Tab zur Spielart, so (Solo), Tab, der Anfangsbuchstabe des Solos (d Damen" in hint
    wait_for_cursor(page, "re_seats")
    keys = Keys(page)
    keys.type("21")  # one seat too many: refused
    keys.press("Shift+Tab")
    keys.type("so")
    keys.press("Tab")
    keys.type("d")
    for _ in range(3):
        keys.press("Tab")
    keys.type("130")
    with page.expect_navigation():
        keys.press("Enter")
    assert "Solo: die Re-Partei hat 1 Spieler, nicht 2." in page.inner_text(".re-field")
    wait_for_cursor(page, "re_seats")  # the cursor at the mistake, everything else as typed
    assert page.input_value("#id_re_seats") == "21"
    assert page.input_value("#id_type") == "solo" and page.input_value("#id_solo") == "damen"
    assert page.input_value("#id_re_augen") == "130"
    page.keyboard.press("End")
    page.keyboard.press("Backspace")  # "2": the soloist
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "Spiel 1 gespeichert:" in page.inner_text(".messages")
    game = Game.objects.get(table=table, number=1)
    assert (game.type, game.solo, game.re, game.re_augen) == ("solo", "damen", [seat_ids(table)[1]], 130)
