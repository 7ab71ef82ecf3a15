"""The check-in list's search as one types (static/js/checkin.js), in Chromium: "kraemer" and "kramer"
find Krämer, "oss" Oßenbrügge, "yilmaz" Yılmaz (issue "The evening as a club meets it")."""

import pytest
from playwright.sync_api import expect

from tests.tournament.factories import make_director, make_tournament
from tournament.services import tournaments

from .test_evening import login

pytestmark = pytest.mark.browser_only


def test_the_search_folds_umlauts_as_one_types(live_server, page):
    director = make_director("leitung")
    tournament = make_tournament(players=0, director=director, slug="abend")
    for name in ("Jan Krämer", "Ulla Oßenbrügge", "Deniz Yılmaz", "Anna Zander"):
        tournaments.register_player(tournament=tournament, name=name, club="DK Nord")
    login(page, live_server, "leitung")
    page.goto(f"{live_server.url}/t/abend/checkin/")
    visible = page.locator("#checkin-list li:visible strong")
    everyone = ["Jan Krämer", "Ulla Oßenbrügge", "Deniz Yılmaz", "Anna Zander"]
    for typed, found in [("kraemer", ["Jan Krämer"]), ("kramer", ["Jan Krämer"]), ("oss", ["Ulla Oßenbrügge"]),
                         ("yilmaz", ["Deniz Yılmaz"]), ("KRÄMER", ["Jan Krämer"]), ("", everyone)]:
        page.get_by_label("Name suchen").fill(typed)
        expect(visible).to_have_text(found)
