"""A director's evening in the browser, from a seated tournament on: games entered with the
keyboard (preview, then save), a penalty, a Nullspiel doubling the next game, round 2 drawn
without repeat meetings, zero-sum standings; and the players' self-updating standings."""

import re

from playwright.sync_api import expect

from seating.dealing import game_players
from tests.tournament.factories import make_director, make_tournament, seat_ids, seated_round
from tournament.models import Entry, Game
from tournament.services import results


def login(page, live_server, username):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Benutzername").fill(username)
    page.get_by_label("Passwort").fill("pw-" + username)
    page.get_by_label("Passwort").press("Enter")
    expect(page.get_by_text(f"Eingeloggt als {username}")).to_be_visible()


def enter_game(page, names_re, augen, *, kontra_fuchs=0, announce_re=""):
    """Fills the game form with the mouse where one would click (the names of the Re party) and the
    keyboard elsewhere; the scores appear while typing, and Enter saves."""
    for name in names_re:
        page.locator(".seat-button", has_text=name).click()  # a click adds the player's seat number
    if announce_re:
        page.get_by_label("Ansagen", exact=True).fill("r")
    page.get_by_label("Augen Re").fill(str(augen))
    if kontra_fuchs:
        page.get_by_label("Sonderpunkte", exact=True).fill("k" + "f" * kontra_fuchs)
    expect(page.locator(".preview")).to_be_visible()  # the scores, computed while typing
    number = page.locator("h1").inner_text().split()[1]
    page.get_by_label("Augen Re").press("Enter")  # saves
    expect(page.get_by_text(f"Spiel {number} gespeichert:")).to_be_visible()


def test_director_enters_games_and_seats_round_two(live_server, page):
    director = make_director("abend")
    tournament = make_tournament(players=37, director=director, slug="abend")
    round = seated_round(tournament, seed="e2e")
    table = next(t for t in round.tables.all() if t.seats.count() == 5)
    ids = seat_ids(table)
    names = dict(Entry.objects.filter(id__in=ids).values_list("id", "player__name"))
    login(page, live_server, "abend")
    page.goto(f"{live_server.url}/t/abend/rounds/1/tables/{table.number}/")
    page.get_by_role("link", name="Spiel 1 eintragen").click()

    _d, out, players = game_players(ids, 1)
    # game 1: Re wins with 130, but Kontra caught a Fuchs: 1 - 1 = 0, a Nullspiel
    enter_game(page, [names[players[0]], names[players[1]]], 130, kontra_fuchs=1)
    expect(page).to_have_url(re.compile(r"/games/new/$"))
    _d, out, players = game_players(ids, 2)
    enter_game(page, [names[players[0]], names[players[2]]], 150, announce_re="re")
    assert Game.objects.get(table=table, number=2).multiplier == 2

    page.goto(f"{live_server.url}/t/abend/rounds/1/tables/{table.number}/")
    expect(page.locator("table.sheet")).to_contain_text("(×2)")
    page.get_by_label("Regelverstoß von").select_option(label=names[players[3]])
    page.get_by_label("in Spiel").fill("2")
    page.get_by_role("button", name="Strafe eintragen").click()
    expect(page.get_by_text("Strafe eingetragen.")).to_be_visible()
    expect(page.locator("table.sheet tfoot")).to_contain_text("Quersumme 0 ✓")

    # the other tables' results come in from paper
    for other in round.tables.exclude(pk=table.pk):
        for number in range(1, 3):
            _d, _o, p = game_players(seat_ids(other), number)
            results.save_game(table=other, number=number, data={
                "type": "normal", "re": [p[0], p[1]], "re_augen": 100 + number * 20,
                "announcements": {"re": None, "kontra": None}, "extras": {}})

    page.goto(f"{live_server.url}/t/abend/")
    page.get_by_role("button", name="Nächste Runde anlegen").click()
    page.get_by_role("button", name="Auslosen", exact=True).click()
    expect(page.locator("body")).to_contain_text("Wiederbegegnungen")
    assert tournament.rounds.get(number=2).repeat_meetings == 0
    page.get_by_role("button", name="Veröffentlichen").click()

    page.goto(f"{live_server.url}/t/abend/standings/")
    expect(page.locator("#standings-table tbody tr")).to_have_count(37)
    expect(page.get_by_text("Summe aller Punkte: 0")).to_be_visible()


def test_players_standings_update_themselves_and_remember_me(live_server, page):
    tournament = make_tournament(players=8, slug="live")
    round = seated_round(tournament, seed="live")
    table = round.tables.get(number=1)
    page.goto(f"{live_server.url}/t/live/standings/")
    expect(page.locator("#standings-table tbody tr")).to_have_count(8)
    first_name = page.locator("#standings-table tbody tr").first.get_attribute("data-name")

    _d, _o, players = game_players(seat_ids(table), 1)
    results.save_game(table=table, number=1, data={"type": "solo", "solo": "damen", "re": [players[0]],
                                                   "re_augen": 200, "announcements": {"re": None, "kontra": None},
                                                   "extras": {}})
    soloist = Entry.objects.get(pk=players[0]).player.name
    page.evaluate("window.dokoRefreshStandings()")
    top = page.locator("#standings-table tbody tr").first
    expect(top).to_have_attribute("data-name", soloist)
    expect(top.locator("td").nth(4)).to_have_text("9")  # (after WZ) keine 120, 90, 60 = 3, lone x3

    page.get_by_label("Name suchen").fill(first_name[:3])
    expect(page.locator("#standings-table tbody tr:visible")).not_to_have_count(8)
    page.get_by_label("Name suchen").fill("")
    top.locator(".me-toggle").click()
    page.reload()
    expect(page.locator("#standings-table tbody tr.me")).to_have_attribute("data-name", soloist)
