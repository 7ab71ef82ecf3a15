"""axe-core (bundled by axe-playwright-python: nothing is downloaded at test time) finds no violation of
WCAG 2.1 A and AA or of its best practices on the pages a player and a director use, at 360 and 1280 px,
including the states an evening reaches: an entry waiting on the phone, a problem shown in the phone's
form and in the director's game form, a conflict on the board (docs/accessibility.md)."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from .evening import DESK_WIDTH, PHONE_WIDTH, director_pages, login, make_evening, open_entry_page, public_pages

pytestmark = pytest.mark.browser_only

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
OPTIONS = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
AXE = Axe()


def violations(page) -> list[str]:
    page.wait_for_load_state("load")
    found = AXE.run(page, options=OPTIONS).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at " +
            "; ".join(" ".join(node["target"]) for node in v["nodes"][:4]) for v in found]


def context_for(browser, width: int):
    phone = width <= 480
    return browser.new_context(viewport={"width": width, "height": 740 if phone else 900}, is_mobile=phone,
                               has_touch=phone, locale="de-DE", timezone_id="Europe/Berlin")


@pytest.mark.parametrize("width", [PHONE_WIDTH, DESK_WIDTH])
def test_no_axe_violations_on_the_players_and_the_directors_pages(live_server, browser, width):
    evening = make_evening()
    base = live_server.url
    found: dict[str, list[str]] = {}

    players = context_for(browser, width)
    page = players.new_page()
    for name, path in public_pages(evening).items():
        page.goto(base + path)
        found[name] = violations(page)

    open_entry_page(page, base, evening)
    page.wait_for_selector("#drafts:not([hidden])")  # the other player's entry waits for this one
    found["entry page, an entry waiting"] = violations(page)
    page.locator("#re-augen").fill("131")  # no Re party chosen: the preview names the problem
    page.wait_for_selector(".field-error[data-for=re]:not(:empty)")
    found["entry page, a problem shown"] = violations(page)
    players.close()

    desk = context_for(browser, width)
    page = desk.new_page()
    login(page, base)
    for name, path in director_pages(evening).items():
        page.goto(base + path)
        found[name] = violations(page)
        if name == "board":
            assert "passt nicht mehr zum Spielzettel" in page.inner_text("#board")  # the conflict is shown
    page.goto(base + director_pages(evening)["game form"])
    page.locator("form.game-form button[value=save]").click()
    page.wait_for_selector(".errorlist")
    found["game form with problems"] = violations(page)
    desk.close()

    report = "\n".join(f"{name}: {problem}" for name, problems in found.items() for problem in problems)
    assert not report, "axe finds:\n" + report


def test_the_entry_page_keeps_the_focus_and_says_what_changed(live_server, browser):
    """From the keyboard: a button keeps the focus after it is pressed, so "+" can be pressed twice;
    +/− are named in words; a screen reader hears a short sentence (#say), not the whole form."""
    evening = make_evening()
    context = context_for(browser, PHONE_WIDTH)
    page = context.new_page()
    open_entry_page(page, live_server.url, evening)

    first = page.locator("#re-buttons button").first
    first.focus()
    page.keyboard.press("Space")
    assert first.get_attribute("aria-pressed") == "true"
    assert page.evaluate("document.activeElement === document.querySelector('#re-buttons button')")
    page.keyboard.press("Space")
    assert first.get_attribute("aria-pressed") == "false"

    more = page.get_by_role("button", name="Fuchs gefangen für Re: einer mehr")
    more.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Fuchs gefangen für Re: einer mehr"
    assert page.locator(".count[data-party=re]").first.inner_text() == "2"
    page.wait_for_function("document.getElementById('say').textContent === 'Fuchs gefangen für Re: 2'")
    assert page.get_by_role("button", name="Fuchs gefangen für Kontra: einer weniger").count() == 1
    context.close()


def test_a_skip_link_and_a_short_sentence_when_the_standings_change(live_server, browser):
    from tournament.models import Table
    from tournament.services import results

    from ..tournament.factories import normal_game

    evening = make_evening()
    context = context_for(browser, PHONE_WIDTH)
    page = context.new_page()
    page.goto(live_server.url + public_pages(evening)["standings"])
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Zum Inhalt"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"

    assert page.locator("#standings-live").get_attribute("aria-live") is None  # not the whole table again
    table = Table.objects.get(round__tournament__slug=evening.slug, round__number=2, number=2)
    results.save_game(table=table, number=2, data=normal_game(table, 2, re_augen=200), version=0)
    page.evaluate("window.dokoRefreshStandings()")
    page.wait_for_function("document.getElementById('live-news').textContent === 'Neue Ergebnisse sind da.'")
    context.close()
