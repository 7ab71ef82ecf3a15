"""The players' pages on a phone, measured in Chromium (docs/accessibility.md): every tap target at least
44×44 CSS px, every character a player reads at least 16 px, the borders of inputs, selects and
unselected buttons and the focus ring at 3:1 or more against the page; no sideways scrolling at
320 px, nor at 360 px with the text at 200 %."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..tournament.factories import make_director
from .evening import Evening, login, make_evening, open_entry_page, public_pages

pytestmark = pytest.mark.browser_only

TARGET = 44  # CSS px, WCAG 2.5.5 (AAA), Apple's and Google's guidance
SMALLEST_TEXT = 16  # px

MEASURE = (Path(__file__).parent / "measure.js").read_text(encoding="utf-8")  # window.measure.*


def measure(page, what: str, *args):
    if not page.evaluate("typeof window.measure !== 'undefined'"):
        page.evaluate(MEASURE)
    return page.evaluate(f"(args) => window.measure.{what}(...args)", list(args))


def player_pages(evening: Evening) -> dict[str, str]:
    pages = public_pages(evening)
    return {name: pages[name] for name in ("standings", "player", "seating", "table sheet")}


def phone(browser, width=360):
    context = browser.new_context(viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True,
                                  locale="de-DE", timezone_id="Europe/Berlin")
    return context, context.new_page()


def each_page(page, base, evening):
    """Each player's page in turn (the entry page last, with an entry waiting), and its name."""
    for name, path in player_pages(evening).items():
        page.goto(base + path)
        yield name
    open_entry_page(page, base, evening)
    page.wait_for_selector("#drafts:not([hidden])")
    yield "entry page"


def test_tap_targets_text_and_borders_on_the_players_pages(live_server, browser):
    evening = make_evening()
    context, page = phone(browser)
    found = []
    for name in each_page(page, live_server.url, evening):
        found += [f"{name}: target {t}" for t in measure(page, "targets", TARGET)]
        found += [f"{name}: text {t}" for t in measure(page, "text", SMALLEST_TEXT)]
        found += [f"{name}: {t}" for t in measure(page, "borders")]
        page.keyboard.press("Tab")  # the first stop: the skip link
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")  # something in the page's header or navigation
        focus = measure(page, "focus")
        if focus:
            found.append(f"{name}: {focus}")
    context.close()
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("width", "text"), [(320, "100%"), (360, "200%")])
def test_no_sideways_scrolling(live_server, browser, width, text):
    """The page fits the window's width (a table may scroll in its own box), and the header stays small."""
    evening = make_evening()
    context, page = phone(browser, width)
    # the reader's text size from the page's first layout on, as a phone's text setting gives it (set
    # later, Chromium keeps some container queries answered for the old size until the next layout)
    page.add_init_script(f"new MutationObserver((changes, observer) => {{ if (document.documentElement) {{ "
                         f"document.documentElement.style.fontSize = '{text}'; observer.disconnect(); }} }})"
                         f".observe(document, {{childList: true}})")
    found = []
    for name in each_page(page, live_server.url, evening):
        scroll, limit, wide = measure(page, "reflow")
        if scroll > limit:
            found.append(f"{name}: {scroll} px wide in a {limit} px window: {wide}")
        if name == "standings":  # the points are seen without swiping the table
            inner, box = page.evaluate("[document.querySelector('.standings-wrap').scrollWidth, "
                                       "document.querySelector('.standings-wrap').clientWidth]")
            if inner > box:
                found.append(f"standings: the table is {inner} px wide in its {box} px box")
    # still on the entry page: every number of the phone's sheet whole, and the penalty's fields fit too
    cut = page.evaluate("[...document.querySelectorAll('#sheet td.num, #sheet tbody th, #sheet tfoot th')]"
                        ".filter(cell => cell.scrollWidth > cell.clientWidth).map(cell => cell.textContent)")
    if cut:
        found.append(f"entry page: the sheet cuts {cut}")
    page.click("#penalty-set summary")
    scroll, limit, wide = measure(page, "reflow")
    if scroll > limit:
        found.append(f"entry page with the penalty open: {scroll} px wide in a {limit} px window: {wide}")
    page.goto(live_server.url + "/hilfe/")
    scroll, limit, wide = measure(page, "reflow")
    if scroll > limit:
        found.append(f"help: {scroll} px wide in a {limit} px window: {wide}")
    header = page.locator(".site-header").bounding_box()
    if header["height"] > 0.22 * 740:  # a compact header: most of the first screen is the page
        found.append(f"the header is {header['height']:.0f} px high of 740")
    context.close()
    assert not found, "\n".join(found)


def test_a_file_field_fits_a_phone(live_server, browser):
    """The restore page at 360 px: Chromium makes a file field as wide as its button and its text
    ("No file chosen"), which pushed the page 18 px sideways."""
    make_director("leitung")
    context, page = phone(browser, 360)
    login(page, live_server.url)
    page.goto(live_server.url + "/restore/")
    scroll, limit, wide = measure(page, "reflow")
    context.close()
    assert scroll <= limit, f"the restore page: {scroll} px wide in a {limit} px window: {wide}"


@pytest.mark.parametrize("width", [360, 1280])
def test_the_chart_reads_on_a_phone_and_on_a_screen(live_server, browser, width):
    """Labels of 12 px or more and colours apart from the white (lines 3:1, labels 4.5:1); where the
    chart would be smaller, its numbers as a table in its place."""
    from tournament.services import editing, results

    from ..tournament.factories import normal_game

    evening = make_evening()
    from tournament.models import Tournament
    tournament = Tournament.objects.get(slug=evening.slug)
    for table in tournament.rounds.get(number=2).tables.all():  # round 2 with results: a chart of 3 points
        number = editing.next_game_number(table)
        results.save_game(table=table, number=number, data=normal_game(table, number), version=0)
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="de-DE")
    page = context.new_page()
    found = []
    for name in ("standings", "player"):
        page.goto(live_server.url + public_pages(evening)[name])
        problems, table_shown = measure(page, "chart")
        found += [f"{name}: {problem}" for problem in problems]
        if name == "standings" and table_shown is not (width < 640):
            found.append(f"standings: the table of the chart {'not ' if width < 640 else ''}shown at {width} px")
    context.close()
    assert not found, "\n".join(found)
