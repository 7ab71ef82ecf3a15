"""The standings poll spread out (docs/performance.md, "The announcement burst"): when a round is
announced, hundreds of phones open the standings in the same second; each waits the page's interval
give or take a fifth, drawn anew, so they do not all poll again together every 30 s."""

from __future__ import annotations

import pytest

from .evening import make_evening

pytestmark = pytest.mark.browser_only


def test_a_phone_that_draws_the_shortest_wait_polls_after_24_s_not_30(live_server, page):
    evening = make_evening()
    polls: list[str] = []
    page.on("request", lambda request: polls.append(request.url) if "partial=1" in request.url else None)
    page.add_init_script("Math.random = () => 0;")  # this phone draws the shortest wait
    page.clock.install()
    page.goto(f"{live_server.url}/t/{evening.slug}/standings/")
    page.clock.run_for(23_000)
    page.wait_for_timeout(300)
    assert polls == []
    page.clock.run_for(2_000)  # 25 s after opening: polled once, five seconds before a fixed 30 s
    page.wait_for_timeout(300)
    assert len(polls) == 1, polls
