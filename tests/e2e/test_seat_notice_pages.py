"""Where do I sit, on every page a player keeps open (issue "The evening as a club meets it", 8; README, step 4):
a phone that marked its player (☆ on the standings) sees the table and seat of a round published while the
page stood open, at the top of the overview, the standings and a player's page, within the page's poll
interval (30 s; the browser's clock is run forward, the server's rounds are real)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tournament.models import Seat

from ..tournament.factories import make_director, make_tournament, seated_round
from .test_readable import phone

INTERVAL_MS = 30_000
LONGEST_WAIT_MS = INTERVAL_MS * 6 // 5  # a poll waits the interval give or take a fifth (static/js/standings.js)


@pytest.mark.parametrize("which", ["overview", "standings", "player"])
def test_a_published_round_brings_the_seat_within_one_poll(live_server, browser, which):
    tournament = make_tournament(players=8, director=make_director("leitung"), slug="abend")
    me, other = tournament.entries.order_by("start_number")[:2]
    path = {"overview": "/t/abend/", "standings": "/t/abend/standings/",
            "player": f"/t/abend/players/{other.pk}/"}[which]
    context, page = phone(browser, 360)
    page.add_init_script("Math.random = () => 0.999;")  # this phone draws the longest wait (36 s less 12 ms)
    page.clock.install()
    page.goto(live_server.url + "/t/abend/")
    page.evaluate(f"localStorage.setItem('doko:abend:me', '{me.pk}')")  # as "Das bin ich" keeps it
    page.goto(live_server.url + path)
    page.clock.run_for(2_000)
    expect(page.locator("#seat-notice")).to_be_empty()  # no round yet
    round = seated_round(tournament)  # drawn and published while the page stands open
    seat = Seat.objects.get(table__round=round, entry=me)
    page.clock.run_for(LONGEST_WAIT_MS)  # the longest wait a page can draw: its next poll has gone out
    expect(page.locator("#seat-notice")).to_contain_text(f"Tisch {seat.table.number}, Platz {seat.position}",
                                                         timeout=5_000)
    context.close()


@pytest.mark.parametrize("which", ["overview", "standings"])
def test_a_phone_taken_out_of_the_pocket_asks_at_once(live_server, browser, which):
    """A page left open on a phone whose screen was off (hidden: no polls) asks as soon as it is shown again,
    not at its next tick: the seat is there within a second, not up to an interval later."""
    tournament = make_tournament(players=8, director=make_director("leitung"), slug="abend")
    me = tournament.entries.order_by("start_number").first()
    context, page = phone(browser, 360)
    page.clock.install()
    page.goto(live_server.url + "/t/abend/")
    page.evaluate(f"localStorage.setItem('doko:abend:me', '{me.pk}')")
    page.goto(live_server.url + {"overview": "/t/abend/", "standings": "/t/abend/standings/"}[which])
    page.clock.run_for(LONGEST_WAIT_MS + 5_000)  # one tick (however long it drew), then up to 5 s of the next
    # that tick's poll answered before the seat exists (on a busy machine it was still on its way when
    # the round was seated, and brought the seat with it)
    page.wait_for_load_state("networkidle")
    page.evaluate("""() => { Object.defineProperty(document, 'hidden', {value: true, configurable: true});
                             document.dispatchEvent(new Event('visibilitychange')); }""")
    seat = Seat.objects.get(table__round=seated_round(tournament), entry=me)
    page.clock.run_for(10_000)  # in the pocket: 15 s into the interval, no poll
    expect(page.locator("#seat-notice")).to_be_empty()
    page.evaluate("""() => { Object.defineProperty(document, 'hidden', {value: false, configurable: true});
                             document.dispatchEvent(new Event('visibilitychange')); }""")
    page.clock.run_for(500)
    expect(page.locator("#seat-notice")).to_contain_text(f"Tisch {seat.table.number}, Platz {seat.position}",
                                                         timeout=3_000)
    context.close()
