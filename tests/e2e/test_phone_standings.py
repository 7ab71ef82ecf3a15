"""The standings on a phone (issue "The evening as a club meets it", 7; docs/accessibility.md, "The standings on a
phone"): 24 players with a real evening's names and clubs at 360 px take one line each, the 44 px of a tap
target; the star is a star with an aria-label, no text beside it, and every name is there in full. Before,
the star and the club took lines of their own (78 px a row, 4,400 px for the page)."""

from __future__ import annotations

import pytest

from tournament.models import Player

from ..tournament.factories import make_director, make_tournament, play_round
from .evening import PEOPLE
from .test_readable import phone

pytestmark = pytest.mark.browser_only

ROW_MOST = 58  # px: a 44 px tap target and the cell's padding, one line


def test_every_row_of_the_phone_standings_is_one_line(live_server, browser):
    tournament = make_tournament(players=24, director=make_director("leitung"), slug="abend")
    for entry, (name, club) in zip(tournament.entries.order_by("start_number"), PEOPLE * 2, strict=False):
        Player.objects.filter(pk=entry.player_id).update(name=name, club=club)
    play_round(tournament, games=2)
    context, page = phone(browser, 360)
    page.goto(f"{live_server.url}/t/abend/standings/")
    found = page.evaluate("""() => {
        const rows = [...document.querySelectorAll('#standings-table tbody tr[data-entry]')];
        const body = document.querySelector('#standings-table tbody').getBoundingClientRect();
        return {
            rows: rows.length, per_row: body.height / rows.length,
            highest: Math.max(...rows.map(r => r.getBoundingClientRect().height)),
            width: document.scrollingElement.scrollWidth,
            stars: rows.map(r => { const b = r.querySelector('.me-toggle');
                                   return [b.getAttribute('aria-label'), b.textContent.trim()]; }),
            // every name whole: its link no narrower than its text
            cut: rows.map(r => r.querySelector('a')).filter(a => a.scrollWidth > a.clientWidth + 1)
                     .map(a => a.textContent),
        };
    }""")
    page.locator("tr", has_text="Anna-Lena Becker-Schulze").first.get_by_role("button", name="Das bin ich").click()
    marked = page.locator("#standings-table tr.me").get_attribute("data-name")
    context.close()
    assert found["rows"] == 24 and found["width"] <= 360, found
    assert found["per_row"] <= ROW_MOST and found["highest"] <= ROW_MOST, found
    assert set(map(tuple, found["stars"])) == {("Das bin ich", "☆")}, found["stars"][:3]
    assert not found["cut"], found["cut"]
    assert marked == "Anna-Lena Becker-Schulze"
