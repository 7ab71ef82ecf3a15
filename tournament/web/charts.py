"""Score-progression charts as server-rendered SVG: no JavaScript, no charting framework.

`progression_svg` draws one line per series over a shared x axis (rounds or games). The SVG scales
to the width of its container (viewBox). On a phone its labels would be too small to read, so
`progression_html` adds the same numbers as a table, which the page shows in the chart's place on
small screens (site.css, docs/accessibility.md).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from html import escape

from django.utils.translation import gettext as _

from ..ranking import total_text

# colours that stay apart for people with the common colour vision deficiencies (Okabe–Ito, darkened
# where needed): every one at least 4.5:1 against the white chart, as the end labels are text in it;
# series 6 to 10 are dashed as well, so that no line is told apart by its colour alone
PALETTE = ["#0072B2", "#B34A00", "#007A5A", "#A8507F", "#8A6100", "#000000", "#7f3c8d", "#6B6B00", "#C0392B",
           "#3969ac"]
DASHED_FROM = 5


@dataclass(frozen=True)
class Series:
    label: str
    values: list[int]  # one value per x position (cumulative points)
    highlight: bool = False


def _nice_step(span: int) -> int:
    """A round grid step (1, 2, 2.5 or 5 times a power of ten) that gives at most 6 grid lines,
    whatever the span: a chart never draws more than a handful of lines."""
    magnitude = 1
    while True:
        for factor in (1, 2, 5, 10, 20, 25, 50):
            step = factor * magnitude
            if span / step <= 6:
                return step
        magnitude *= 100


def progression_svg(series: list[Series], x_labels: list[str], *, title: str, width: int = 640,
                    height: int = 300, inverted: bool = False, css_class: str = "chart") -> str:
    """An SVG line chart of cumulative points; x_labels name the positions ("R1", "R2" or games).
    `inverted`: the smallest value at the top (places: the first place is the best)."""
    left, right, top, bottom = 44, 150 if len(series) > 1 else 16, 16, 32
    values = [v for s in series for v in s.values] + ([] if inverted else [0])
    low, high = min(values), max(values)
    if high == low:
        high, low = high + 1, low - 1
    step = _nice_step(high - low)
    low, high = (low // step) * step, -(-high // step) * step
    plot_w, plot_h = width - left - right, height - top - bottom
    count = max(len(x_labels), 1)

    def x(i: int) -> float:
        return left + (plot_w * i / (count - 1) if count > 1 else plot_w / 2)

    def y(v: int) -> float:
        return top + plot_h * ((v - low) if inverted else (high - v)) / (high - low)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
             f'class="{css_class}" aria-label="{escape(title)}"><title>{escape(title)}</title>']
    for v in range(low, high + 1, step):
        if inverted and v < 1:
            continue  # no place 0
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                     f'stroke="{"#888" if v == 0 else "#ddd"}" stroke-width="1"/>')
        parts.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end" font-size="11" fill="#444">'
                     f'{total_text(v)}</text>')
    for i, label in enumerate(x_labels):
        # a label that would run over the right edge ends at its point instead (about 6.2 px a character)
        anchor = "end" if x(i) + len(label) * 3.1 > width else "middle"
        parts.append(f'<text x="{x(i):.1f}" y="{height - 10}" text-anchor="{anchor}" font-size="11" '
                     f'fill="#444">{escape(label)}</text>')
    ends = []
    for index, s in enumerate(series):
        colour = PALETTE[index % len(PALETTE)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(s.values))
        stroke = 3.5 if s.highlight else 2
        dash = ' stroke-dasharray="7 4"' if index >= DASHED_FROM else ""
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="{stroke}"{dash} points="{points}">'
                     f'<title>{escape(s.label)}: {total_text(s.values[-1] if s.values else 0)}</title></polyline>')
        for i, v in enumerate(s.values):
            parts.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="{3 if s.highlight else 2.2}" fill="{colour}"/>')
        if s.values and len(series) > 1:
            ends.append((y(s.values[-1]), s.label, colour, s.highlight))
    # labels at the right end, pushed apart so they do not overlap
    ends.sort()
    last = -100.0
    for pos, label, colour, highlight in ends:
        pos = max(pos, last + 13)
        last = pos
        weight = ' font-weight="700"' if highlight else ""
        parts.append(f'<text x="{left + plot_w + 6}" y="{pos + 4:.1f}" font-size="11" fill="{colour}"{weight}>'
                     f'{escape(label[:22])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def progression_html(series: list[Series], x_labels: list[str], *, title: str) -> str:
    """The chart, and with more than one series the same numbers as a table (a row per series, a column
    per position after the start), for the small screens where the chart's labels are too small."""
    chart = progression_svg(series, x_labels, title=title)
    if len(series) < 2:
        return chart  # one player's page: its games table has the same running total beside every game
    head = "".join(f'<th scope="col" class="num">{escape(label)}</th>' for label in x_labels[1:])
    rows = "".join(f'<tr><th scope="row">{escape(s.label)}</th>'
                   + "".join(f'<td class="num">{total_text(v)}</td>' for v in s.values[1:]) + "</tr>" for s in series)
    return (f'{chart}<div class="scroll chart-table" tabindex="0" role="region" aria-label="{escape(title)}">'
            f'<table class="list"><thead><tr><td></td>{head}</tr></thead><tbody>{rows}</tbody></table></div>')


def rangliste_places_svg(days: list[tuple[datetime.date, int]], *, rangliste: str) -> str:
    """A player's places in an association's Rangliste over time (docs/competitions.md, "Places over
    time"): `progression_svg` with the axis inverted, so that the first place is at the top (the title
    says so), one point a day. Twice: 640 wide with six dates written under it, and 340 wide with three
    for phones (site.css shows one of them), where the wide one's labels would be too small to read.
    Empty without two days."""
    if len(days) < 2:
        return ""
    title = _("Platz in der Verbandsrangliste „%(rangliste)s“ über die Zeit (Platz 1 ist oben)") % {
        "rangliste": rangliste
    }
    charts = []
    for width, dates, css_class in ((640, 6, "chart places-wide"), (340, 3, "chart places-narrow")):
        shown = {round(i * (len(days) - 1) / (dates - 1)) for i in range(dates)}
        labels = [f"{day:%d.%m.%y}" if index in shown else "" for index, (day, _place) in enumerate(days)]
        charts.append(progression_svg([Series(title, [place for _day, place in days], highlight=True)], labels,
                                      title=title, width=width, height=200, inverted=True, css_class=css_class))
    return "".join(charts)


def places_svg(places: list[tuple[object, int | None, int]], *, title: str, width: int = 640, height: int = 180) -> str:
    """A small chart of a player's places over time (docs/hub.md, "Players across clubs"): one point per
    tournament, oldest left, as the share of the field behind them (the first place at the top, the last
    at the bottom, whatever the field's size), the place and the field in each point's tooltip. Empty
    without two places."""
    shown = [(day, place, field) for day, place, field in places if place is not None and field]
    if len(shown) < 2:
        return ""
    left, right, top, bottom = 44, 12, 12, 24
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(i: int) -> float:
        return left + plot_w * i / (len(shown) - 1)

    def y(place: int, field: int) -> float:
        return top + plot_h * ((place - 1) / (field - 1) if field > 1 else 0)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
             f'class="chart" aria-label="{escape(title)}"><title>{escape(title)}</title>']
    for share, label in ((0, "1."), (0.5, "½"), (1, "↓")):
        pos = top + plot_h * share
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{pos:.1f}" y2="{pos:.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{pos + 4:.1f}" text-anchor="end" font-size="11" fill="#444">'
                     f'{label}</text>')
    for i in (0, len(shown) - 1):
        parts.append(f'<text x="{x(i):.1f}" y="{height - 6}" text-anchor="{"start" if i == 0 else "end"}" '
                     f'font-size="11" fill="#444">{escape(f"{shown[i][0]:%m/%Y}")}</text>')
    points = " ".join(f"{x(i):.1f},{y(place, field):.1f}" for i, (_day, place, field) in enumerate(shown))
    parts.append(f'<polyline fill="none" stroke="{PALETTE[0]}" stroke-width="1.5" points="{points}"/>')
    for i, (day, place, field) in enumerate(shown):
        parts.append(f'<circle cx="{x(i):.1f}" cy="{y(place, field):.1f}" r="2.5" fill="{PALETTE[0]}">'
                     f'<title>{escape(f"{day:%d.%m.%Y}")}: {place}/{field}</title></circle>')
    parts.append("</svg>")
    return "".join(parts)
