"""The projector shows everyone (static/js/projector.js): the seating of a round of 23 players with long
German names and long club names (wrapping to two or three lines) pages so that every name is shown
whole inside the screen on some page, and no row is shown cut off by the screen's edge, at a beamer's
1280×720 and at the other usual sizes (800×600: the header wraps, and grows once the round clock has
written its text). The page reads itself every 150 ms while a page stays 1 s (the least the projector takes)."""

from __future__ import annotations

import pytest

from tests.tournament.factories import make_director, make_tournament, seated_round
from tournament.services import round_clock, tournaments

from ..tournament.printing.test_seating_plan_pdf import CLUBS, NAMES

pytestmark = pytest.mark.browser_only

# every page as it is shown, sampled every 150 ms: the seating's rows wholly inside the window (in the
# page's last sample), and the rows shown cut off by the window's edge for 450 ms running, in samples
# of the same page (a row cut off for a moment may be a layout no one saw: the header just grew and the
# page is planned anew, which on a machine busy with other work took more than one sample's 150 ms; a
# page stays 1 s, so a row the plan cut off is seen cut for longer)
RECORD = """
window.shownPages = [];
(function () {
  var page = null, cutSince = {};
  setInterval(function () {
    var section = document.getElementById("beamer-seating");
    if (!document.body || !document.body.dataset.step || !section || section.hidden) { cutSince = {}; return; }
    var whole = [], cut = [];
    section.querySelectorAll("li").forEach(function (item) {
      var box = item.getBoundingClientRect();
      if (item.hidden || !box.height) { return; }
      var name = item.querySelector(".who").firstChild.textContent.trim();
      var inside = box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight + 0.5
        && box.right <= window.innerWidth + 0.5;
      (inside ? whole : cut).push(name);
    });
    var key = document.body.dataset.step + "|" + whole.concat(cut).join(",");
    if (!page || page.key !== key) {
      page = {key: key, label: document.getElementById("beamer-page").textContent, names: whole, cut: []};
      window.shownPages.push(page);
      cutSince = {};
    }
    page.names = whole;
    var now = performance.now(), still = {};
    cut.forEach(function (name) {
      still[name] = name in cutSince ? cutSince[name] : now;
      if (now - still[name] >= 450 && page.cut.indexOf(name) === -1) { page.cut.push(name); }
    });
    cutSince = still;
  }, 150);
})();
"""


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768), (1920, 1080), (800, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_seating_shows_every_name_on_some_page(live_server, browser, size):
    director = make_director("beamer")
    tournament = make_tournament(players=0, director=director, slug="beamer",
                                 name="Doppelkopf-Vereinsmeisterschaft Münster-Hiltrup")
    for number, name in enumerate(NAMES):
        tournaments.register_player(tournament=tournament, name=name, club=CLUBS[number % len(CLUBS)])
    round = seated_round(tournament)
    round_clock.start_clock(round=round)  # the clock in the header, as on the evening
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, locale="de-DE")
    page = context.new_page()
    page.add_init_script(RECORD)
    page.goto(f"{live_server.url}/t/beamer/beamer/?seconds=1")
    page.wait_for_function("document.getElementById('beamer-title').textContent === 'Tabelle'", timeout=30_000)
    pages = page.evaluate("window.shownPages")
    context.close()
    shown = {name for shown_page in pages for name in shown_page["names"]}
    assert sorted(set(NAMES) - shown) == [], pages
    assert [(p["label"], p["cut"]) for p in pages if p["cut"]] == [], pages  # no row cut off at the screen's edge
    assert len(pages) >= 2  # 23 players with their clubs do not fit one screen
