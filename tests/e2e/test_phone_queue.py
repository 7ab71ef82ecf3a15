"""The phone's queue never drops a game: while the server answers 500 and 503 (pages
that are not its JSON), the games stay on the phone and are sent again; a refused game stops the queue
and comes back into the form, the games after it wait with their numbers; after a 410 (the link was
revoked) the games stay readable on the phone, and the table's new link sends them. Every game arrives
once, or is visible on the phone."""

from __future__ import annotations

import re

from tournament.models import DraftGame, Table
from tournament.services import table_links

from ..tournament.factories import make_director, make_tournament, seated_round
from .offline import go_offline, go_online

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "locale": "de-DE",
         "timezone_id": "Europe/Berlin"}


def type_game(phone, augen: str) -> None:
    buttons = phone.locator("#re-buttons button")
    buttons.nth(0).click()
    buttons.nth(1).click()
    phone.fill("#re-augen", augen)
    phone.click("#save")


def arrived() -> list[tuple[int, int]]:
    return sorted(DraftGame.objects.values_list("number", "data__re_augen"))


def test_no_game_is_lost_whatever_the_server_answers(live_server, browser, tmp_path):
    tournament = make_tournament(players=8, director=make_director("leitung"), slug="handy")
    round = seated_round(tournament)
    table = round.tables.get(number=1)
    context = browser.new_context(**PHONE)
    phone = context.new_page()
    phone.goto(f"{live_server.url}/e/{Table.objects.get(pk=table.pk).link_token}/")
    phone.get_by_role("button", name=re.compile(r"^1 ")).first.click()

    # three games typed without Wi-Fi; the second has impossible Augen
    go_offline(context, phone)
    for augen in ("131", "241", "150"):
        type_game(phone, augen)
    assert "3 Eingabe(n) warten auf Verbindung" in phone.inner_text("#queue")

    # the server answers 500, then 503, both as HTML pages; after that it works again
    failures = [(500, "<h1>Internal Server Error</h1>"), (503, "<html>Bad Gateway</html>")]

    def flaky(route):
        if failures:
            status, body = failures.pop(0)
            route.fulfill(status=status, body=body, content_type="text/html")
        else:
            route.continue_()

    phone.route("**/games.json", flaky)
    go_online(context, phone)
    phone.wait_for_function("document.querySelector('#queue').textContent.indexOf('neuer Versuch') >= 0")
    assert "3 Eingabe(n) warten" in phone.inner_text("#queue")  # nothing taken out of the queue by an error page
    phone.screenshot(path=str(tmp_path / "phone-retrying.png"), full_page=True)

    # after the retries: game 1 arrives, game 2 is refused and stops the queue, game 3 waits behind it
    phone.wait_for_function("document.querySelector('#entry-heading').textContent.indexOf('korrigieren') >= 0",
                            timeout=30_000)
    assert arrived() == [(1, 131)]
    assert "Spiel 2 korrigieren" in phone.inner_text("#entry-heading")
    assert phone.input_value("#re-augen") == "241"
    assert "240" in phone.inner_text("#entry")  # the engine's problem, at the field
    assert "1 weitere Eingabe(n) warten dahinter" in phone.inner_text("#queue")
    phone.screenshot(path=str(tmp_path / "phone-refused.png"), full_page=True)

    # corrected: game 2 goes in, then game 3, each once
    phone.fill("#re-augen", "121")
    phone.click("#save")
    phone.wait_for_selector("#queue", state="hidden")
    assert arrived() == [(1, 131), (2, 121), (3, 150)]
    phone.unroute("**/games.json", flaky)  # the server works again

    # the director revokes the link while game 4 waits on the phone: it stays there, readable
    go_offline(context, phone)
    type_game(phone, "100")
    table_links.revoke_links(round=round, tables=[1])
    go_online(context, phone)
    phone.wait_for_selector("#kept:not([hidden])")
    assert "Spiel 4" in phone.inner_text("#kept-list") and "100 Augen" in phone.inner_text("#kept-list")
    assert "QR-Code" in phone.inner_text("#closed")
    phone.screenshot(path=str(tmp_path / "phone-closed.png"), full_page=True)
    assert arrived() == [(1, 131), (2, 121), (3, 150)]

    # a reload shows the closed link's page, which still lists the game kept on the phone
    phone.reload()
    assert "Spiel 4" in phone.inner_text("#stored-list")

    # the table's new link takes the queue over and sends it
    table_links.renew_links(round=round, tables=[1])
    phone.goto(f"{live_server.url}/e/{Table.objects.get(pk=table.pk).link_token}/")
    phone.wait_for_selector("#queue", state="hidden")
    assert arrived() == [(1, 131), (2, 121), (3, 150), (4, 100)]
    context.close()
