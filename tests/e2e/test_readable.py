"""The players' pages on a phone, measured in Chromium (docs/accessibility.md): every tap target at least
44×44 CSS px, every character a player reads at least 16 px, the borders of inputs, selects and
unselected buttons and the focus ring at 3:1 or more against the page; no sideways scrolling at
320 px, nor at 360 px with the text at 200 %."""

from __future__ import annotations

import pytest

from .evening import Evening, make_evening, open_entry_page, public_pages

TARGET = 44  # CSS px, WCAG 2.5.5 (AAA), Apple's and Google's guidance
SMALLEST_TEXT = 16  # px

# The measurements run in the page. Interactive elements: what a finger or the keyboard can reach
# and is on the screen. A link inside a sentence is exempt (WCAG 2.5.8's "inline" exception): its
# size is the text's, and the sentence around it keeps other targets away.
MEASURE_TARGETS = """() => {
  const seen = [];
  const selector = 'a[href], button, select, input:not([type=hidden]), summary, textarea, [tabindex]:not([tabindex="-1"])';
  for (const node of document.querySelectorAll(selector)) {
    if (node.closest('[hidden], .visually-hidden, [aria-hidden=true]')) continue;
    const box = node.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (node.tagName === 'A' && node.closest('p, li, dd, figcaption') && !node.closest('nav') &&
        node.parentElement.textContent.trim() !== node.textContent.trim()) continue;
    if (node.matches('[role=region]')) continue;  // a scroll box: as big as its table
    if (box.width < %(t)s - 0.5 || box.height < %(t)s - 0.5) {
      seen.push(`${node.tagName.toLowerCase()} "${(node.textContent || node.getAttribute('aria-label') || node.id).trim().slice(0, 30)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return seen;
}""" % {"t": TARGET}

MEASURE_TEXT = """() => {
  const small = {};
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.trim();
    const parent = walker.currentNode.parentElement;
    if (!text || !parent || parent.closest('script, style, svg, [hidden], .visually-hidden, template')) continue;
    if (!parent.getClientRects().length) continue;  // not rendered (display: none)
    const size = parseFloat(getComputedStyle(parent).fontSize);
    if (size < %(s)s - 0.01) {
      const key = `${parent.tagName.toLowerCase()}.${parent.className || ''} ${size}px`;
      small[key] = small[key] || text.slice(0, 30);
    }
  }
  return Object.entries(small).map(([key, text]) => `${key}: "${text}"`);
}""" % {"s": SMALLEST_TEXT}

CONTRAST = """
function lum(rgb) {
  const c = rgb.match(/[\\d.]+/g).slice(0, 3).map(Number).map(v => v / 255)
    .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}
function ratio(a, b) { const [x, y] = [lum(a), lum(b)].sort(); return (y + 0.05) / (x + 0.05); }
function background(node) {  // the first opaque background behind a node
  for (let n = node.parentElement; n; n = n.parentElement) {
    const colour = getComputedStyle(n).backgroundColor;
    if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour;
  }
  return 'rgb(255, 255, 255)';
}
"""

MEASURE_BORDERS = """() => {
  %(c)s
  const weak = [];
  for (const node of document.querySelectorAll('input:not([type=hidden]), select, textarea, button')) {
    if (node.closest('[hidden]') || !node.getClientRects().length) continue;
    const style = getComputedStyle(node);
    if (parseFloat(style.borderTopWidth) === 0) continue;  // no border: a link-like button
    const own = style.backgroundColor;
    const behind = background(node);
    // a filled button is told apart by its fill; an outlined control by its border
    if (own !== 'rgba(0, 0, 0, 0)' && ratio(own, behind) >= 3) continue;
    const r = ratio(style.borderTopColor, behind);
    if (r < 3) weak.push(`${node.tagName.toLowerCase()}#${node.id} "${node.textContent.trim().slice(0, 20)}" border ${r.toFixed(2)}:1`);
  }
  return weak;
}""" % {"c": CONTRAST}

MEASURE_FOCUS = """() => {
  %(c)s
  const node = document.activeElement;
  const style = getComputedStyle(node);
  if (style.outlineStyle === 'none' || parseFloat(style.outlineWidth) < 2) return `${node.tagName} has no outline`;
  const r = ratio(style.outlineColor, background(node));
  return r >= 3 ? '' : `${node.tagName.toLowerCase()} "${node.textContent.trim().slice(0, 20)}" focus ${r.toFixed(2)}:1`;
}""" % {"c": CONTRAST}

REFLOW = """() => {
  const wide = [];
  const limit = document.documentElement.clientWidth;
  for (const node of document.querySelectorAll('body *')) {
    if (node.closest('[role=region]')) continue;  // a table in its scroll box may scroll inside it
    const box = node.getBoundingClientRect();
    if (box.width && box.right > limit + 1) wide.push(`${node.tagName.toLowerCase()}.${node.className} ends at ${Math.round(box.right)}`);
  }
  return [document.documentElement.scrollWidth, limit, wide.slice(0, 5)];
}"""


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
        found += [f"{name}: target {t}" for t in page.evaluate(MEASURE_TARGETS)]
        found += [f"{name}: text {t}" for t in page.evaluate(MEASURE_TEXT)]
        found += [f"{name}: {t}" for t in page.evaluate(MEASURE_BORDERS)]
        page.keyboard.press("Tab")  # the first stop: the skip link
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")  # something in the page's header or navigation
        focus = page.evaluate(MEASURE_FOCUS)
        if focus:
            found.append(f"{name}: {focus}")
    context.close()
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("width", "text"), [(320, "100%"), (360, "200%")])
def test_no_sideways_scrolling(live_server, browser, width, text):
    evening = make_evening()
    context, page = phone(browser, width)
    page.add_init_script(f"document.addEventListener('DOMContentLoaded', () => "
                         f"document.documentElement.style.fontSize = '{text}')")
    found = []
    for name in each_page(page, live_server.url, evening):
        scroll, limit, wide = page.evaluate(REFLOW)
        if scroll > limit:
            found.append(f"{name}: {scroll} px wide in a {limit} px window: {wide}")
    page.goto(live_server.url + "/hilfe/")
    scroll, limit, wide = page.evaluate(REFLOW)
    if scroll > limit:
        found.append(f"help: {scroll} px wide in a {limit} px window: {wide}")
    context.close()
    assert not found, "\n".join(found)


CHART = """() => {
  %(c)s
  const found = [];
  for (const svg of document.querySelectorAll('svg.chart')) {
    if (!svg.getClientRects().length) continue;  // not shown here: a table is in its place
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    for (const text of svg.querySelectorAll('text')) {
      const size = parseFloat(text.getAttribute('font-size')) * scale;
      if (size < 12) found.push(`"${text.textContent}" ${size.toFixed(1)} px`);
      const r = ratio(getComputedStyle(text).fill, 'rgb(255, 255, 255)');
      if (r < 4.5) found.push(`"${text.textContent}" ${r.toFixed(2)}:1`);
    }
    for (const line of svg.querySelectorAll('polyline')) {
      const r = ratio(getComputedStyle(line).stroke, 'rgb(255, 255, 255)');
      if (r < 3) found.push(`a line ${line.getAttribute('stroke')} ${r.toFixed(2)}:1`);
    }
  }
  const table = document.querySelector('.chart-table');
  return [found, table ? table.getClientRects().length > 0 : null];
}""" % {"c": CONTRAST}


@pytest.mark.parametrize("width", [360, 1280])
def test_the_chart_reads_on_a_phone_and_on_a_screen(live_server, browser, width):
    """Labels of 12 px or more and colours apart from the white (lines 3:1, labels 4.5:1); where the
    chart would be smaller, its numbers as a table in its place."""
    from tournament.services import results

    from ..tournament.factories import normal_game

    evening = make_evening()
    from tournament.models import Tournament
    tournament = Tournament.objects.get(slug=evening.slug)
    for table in tournament.rounds.get(number=2).tables.all():  # round 2 with results: a chart of 3 points
        number = results.next_game_number(table)
        results.save_game(table=table, number=number, data=normal_game(table, number), version=0)
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="de-DE")
    page = context.new_page()
    found = []
    for name in ("standings", "player"):
        page.goto(live_server.url + public_pages(evening)[name])
        problems, table_shown = page.evaluate(CHART)
        found += [f"{name}: {problem}" for problem in problems]
        if name == "standings" and table_shown is not (width < 640):
            found.append(f"standings: the table of the chart {'not ' if width < 640 else ''}shown at {width} px")
    context.close()
    assert not found, "\n".join(found)
