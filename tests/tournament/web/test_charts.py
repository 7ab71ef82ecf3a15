"""The server-rendered charts (web/charts.py): the places over time in an association's Rangliste are
drawn with the first place at the top."""

from __future__ import annotations

import datetime
import re

from tournament.web.charts import Series, progression_svg, rangliste_places_svg

DAYS = [datetime.date(2026, 11, day) for day in range(1, 11)]


def points(svg: str) -> list[float]:
    return [float(y) for y in re.findall(r'<circle cx="[\d.]+" cy="([\d.]+)"', svg)]


def test_the_places_chart_has_the_first_place_on_top():
    svg = rangliste_places_svg([(DAYS[0], 12), (DAYS[1], 4), (DAYS[2], 1)], rangliste="Verbandsrangliste")
    wide, narrow = svg.split("</svg>")[:2]
    assert 'class="chart places-wide"' in wide and 'class="chart places-narrow"' in narrow  # phones: narrower
    for drawn in (wide, narrow):
        first, second, third = points(drawn)
        assert first > second > third  # a smaller place is higher up (a smaller y)
    assert "Platz 1 ist oben" in svg  # and the title says so
    assert ">0</text>" not in svg  # no place 0 on the axis
    # points as before: the most at the top
    low, high = points(progression_svg([Series("a", [1, 5])], ["R1", "R2"], title="t"))
    assert low > high


def test_the_places_chart_writes_at_most_six_dates_and_needs_two_days():
    svg = rangliste_places_svg([(day, 3) for day in DAYS], rangliste="V")
    assert len(re.findall(r">\d\d\.11\.26</text>", svg)) == 6 + 3  # the wide chart, the narrow one
    assert rangliste_places_svg([(DAYS[0], 3)], rangliste="V") == ""
