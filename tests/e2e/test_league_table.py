"""The league table on a phone and on a laptop (issue "The evening as a club meets it", 2; docs/competitions.md,
"The league table on a phone"): the explanation waits behind "Wie wird gewertet?", and at 360 px the match
days scroll in the table's box beside the team's column, which stays: nothing is cut off, every day can be
read next to its team's name. At 1280 px the whole table fits."""

from __future__ import annotations

import pytest

from tests.tournament.factories import make_director
from tests.tournament.services.test_league import league

from .test_readable import phone

pytestmark = pytest.mark.browser_only

DAYS = [{"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30},
        {"Team A": -30, "Team B": -10, "Team C": 10, "Team D": 30}]


def league_page(live_server) -> str:
    series = league(make_director(), DAYS)
    return f"{live_server.url}/s/{series.slug}/"


def each_day_beside_the_teams(page) -> dict:
    """Scrolls the league table's box to each match day in turn (its column just right of the team's) and
    measures whether the day's column and every team's name are inside the box then."""
    return page.evaluate("""() => {
        const box = document.querySelector('#liga .scroll');
        const frame = box.getBoundingClientRect();
        const names = () => [...box.querySelectorAll('tbody th.team')].map(c => c.getBoundingClientRect());
        const days = [...box.querySelectorAll('thead th.evening')];
        const found = {page: document.scrollingElement.scrollWidth, days: days.length, cut: []};
        for (const day of days) {
            const width = names()[0].width;
            box.scrollLeft = day.offsetLeft - width;
            const shown = names();
            const right = Math.max(...shown.map(r => r.right));
            const cell = day.getBoundingClientRect();
            if (!shown.every(r => r.left >= frame.left - 1 && r.right <= frame.right + 1)) found.cut.push('names');
            if (cell.left < right - 1 || cell.right > frame.right + 1) found.cut.push(day.textContent.trim());
        }
        return found;
    }""")


def test_the_league_table_on_a_phone_keeps_the_team_beside_every_match_day(live_server, browser):
    url = league_page(live_server)
    context, page = phone(browser, 360)
    page.goto(url)
    rule = page.locator("#liga .ranking-rule")
    assert not rule.is_visible(), "the explanation is open above the table"
    page.get_by_text("Wie wird gewertet?").click()
    assert rule.is_visible() and "4/3/2/1 Siegpunkte" in rule.inner_text()
    found = each_day_beside_the_teams(page)
    context.close()
    assert found["page"] <= 360, found
    assert found["days"] == 2 and not found["cut"], found


def test_the_league_table_fits_a_laptop(live_server, page):
    url = league_page(live_server)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(url)
    box = page.locator("#liga .scroll")
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth")
    assert not page.locator("#liga .ranking-rule").is_visible()
