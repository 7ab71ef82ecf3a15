"""A ranking list across tournaments (scoring/rangliste.py)."""

import random
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from scoring.rangliste import (
    RanglisteTie,
    RoundRecord,
    history,
    months_before,
    rangliste,
    rounded,
    window,
)

UNTIL = date(2025, 6, 15)


def played(player, tournament, day, *points):
    """A player's rounds 1, 2, … of a tournament on one day."""
    return [RoundRecord(player=player, day=day, tournament=tournament, round=number, points=p)
            for number, p in enumerate(points, start=1)]


def summary(rows):
    return [(r.player, r.place, r.rounds, r.points, r.average) for r in rows]


@pytest.mark.parametrize(("until", "months", "start"), [
    (date(2025, 6, 15), 24, date(2023, 6, 16)),
    (date(2024, 2, 29), 24, date(2022, 3, 1)),  # no 29 February 2022: its month's last day is left out
    (date(2025, 3, 31), 1, date(2025, 3, 1)),
    (date(2025, 1, 10), 1, date(2024, 12, 11)),
    (date(2025, 12, 31), 12, date(2025, 1, 1)),
])
def test_the_window_is_the_months_ending_on_the_day_both_ends_included(until, months, start):
    span = window(until=until, months=months)
    assert (span.start, span.end, span.months) == (start, until, months)
    assert start in span and until in span
    assert start - timedelta(days=1) not in span and until + timedelta(days=1) not in span


def test_only_rounds_in_the_window_count():
    records = (played("anna", "old", date(2023, 6, 15), 100)  # one day too old
               + played("anna", "first", date(2023, 6, 16), 10, 20)
               + played("anna", "last", UNTIL, 3)
               + played("anna", "later", UNTIL + timedelta(days=1), 500))
    row = rangliste(records=records, until=UNTIL, minimum_rounds=0).rows[0]
    assert (row.rounds, row.points, row.average, row.tournaments) == (3, 33, 11, 2)


def test_ranked_by_the_average_with_a_minimum_of_rounds_and_the_others_listed_apart():
    records = (played("anna", "T1", date(2025, 1, 1), 10, 20, -3) + played("anna", "T2", date(2025, 2, 1), 0)
               + played("bert", "T1", date(2025, 1, 1), 30, 2, 2) + played("bert", "T2", date(2025, 2, 1), 5)
               + played("cleo", "T1", date(2025, 1, 1), 90, 90, 90)
               + played("dora", "T2", date(2025, 2, 1), 40, 40)
               + played("emil", "T2", date(2025, 2, 1), 1, 1, 1))
    result = rangliste(records=records, until=UNTIL, minimum_rounds=4)
    assert summary(result.rows) == [("bert", 1, 4, 39, Fraction(39, 4)), ("anna", 2, 4, 27, Fraction(27, 4))]
    assert summary(result.below_minimum) == [("cleo", None, 3, 270, 90), ("emil", None, 3, 3, 1),
                                             ("dora", None, 2, 80, 40)]
    assert result.minimum_rounds == 4 and result.window.start == date(2023, 6, 16)


def test_the_defaults_are_24_months_and_36_rounds():
    records = played("anna", "T1", date(2025, 1, 1), *([1] * 35)) + played("bert", "T1", date(2025, 1, 1),
                                                                           *([0] * 36))
    result = rangliste(records=records, until=UNTIL)
    assert [r.player for r in result.rows] == ["bert"] and [r.player for r in result.below_minimum] == ["anna"]
    assert result.window.start == date(2023, 6, 16)


def test_the_average_is_exact_and_rounded_only_for_showing():
    # 2/3 and 67/100 both show as 0,67; the exact averages rank them, without a shared place
    records = played("anna", "T", UNTIL, 1, 1, 0) + played("bert", "T", UNTIL, *([1] * 67 + [0] * 33))
    rows = rangliste(records=records, until=UNTIL, minimum_rounds=0).rows
    assert [(r.player, r.place, r.shared, r.average) for r in rows] == [
        ("bert", 1, 1, Fraction(67, 100)), ("anna", 2, 1, Fraction(2, 3))]
    assert rounded(rows[0].average) == rounded(rows[1].average) == Decimal("0.67")
    assert rounded(Fraction(1, 8)) == Decimal("0.13") and rounded(Fraction(-1, 8)) == Decimal("-0.13")
    assert rounded(Fraction(2, 3), 1) == Decimal("0.7")


def test_equal_averages_rank_more_rounds_first_else_share_the_place():
    records = (played("anna", "T", UNTIL, 4, 2) + played("bert", "T", UNTIL, 3, 3, 3)
               + played("cleo", "T", UNTIL, 6, 3, 0) + played("dora", "T", UNTIL, 1))
    rows = rangliste(records=records, until=UNTIL, minimum_rounds=0).rows
    assert summary(rows) == [("bert", 1, 3, 9, 3), ("cleo", 1, 3, 9, 3), ("anna", 3, 2, 6, 3), ("dora", 4, 1, 1, 1)]
    assert (rows[1].tie.above, rows[1].tie.criterion) == ("bert", None) and rows[1].is_shared
    assert (rows[2].tie.above, rows[2].tie.criterion, rows[2].tie.ours, rows[2].tie.theirs) == (
        "cleo", RanglisteTie.ROUNDS, 2, 3)
    assert rows[0].tie is None and rows[3].tie is None


def test_cut_lines_mark_the_qualifying_places_and_a_shared_place_moves_the_line():
    records = [record for number, points in enumerate([9, 8, 7, 7, 5, 4])
               for record in played(f"p{number}", "T", UNTIL, points)]
    result = rangliste(records=records, until=UNTIL, minimum_rounds=0,
                       cut_lines=[(5, "Regionalmeisterschaft"), (3, "Deutsche Meisterschaft")])
    assert [(r.player, r.place, r.qualifies) for r in result.rows] == [
        ("p0", 1, "Deutsche Meisterschaft"), ("p1", 2, "Deutsche Meisterschaft"),
        ("p2", 3, "Deutsche Meisterschaft"), ("p3", 3, "Deutsche Meisterschaft"),
        ("p4", 5, "Regionalmeisterschaft"), ("p5", 6, None)]
    assert [(c.place, c.label, c.rows_above, c.moved_by_tie) for c in result.cut_lines] == [
        (3, "Deutsche Meisterschaft", 4, True), (5, "Regionalmeisterschaft", 5, False)]


def test_a_cut_line_below_the_last_ranked_player_is_kept():
    result = rangliste(records=played("anna", "T", UNTIL, 1), until=UNTIL, minimum_rounds=0,
                       cut_lines=[(16, "DM")])
    assert [(c.rows_above, c.moved_by_tie) for c in result.cut_lines] == [(1, False)]


@pytest.mark.parametrize("cut_lines", [[(0, "x")], [(3, "x"), (3, "y")]])
def test_wrong_cut_lines_are_refused(cut_lines):
    with pytest.raises(ValueError, match="cut lines"):
        rangliste(records=[], until=UNTIL, cut_lines=cut_lines)


def test_one_round_twice_is_refused():
    with pytest.raises(ValueError, match="round 1 of 'T' twice for player 'anna'"):
        rangliste(records=played("anna", "T", UNTIL, 1) * 2, until=UNTIL)


def test_a_players_history_lists_each_tournament_and_what_the_window_counts():
    records = (played("anna", "Herbst", date(2023, 6, 10), 12, -4)
               + [RoundRecord(player="anna", day=date(2023, 6, 16), tournament="Herbst", round=3, points=5)]
               + played("anna", "Winter", date(2024, 12, 1), 7, 8, 9)
               + played("anna", "Sommer", date(2025, 7, 1), 100)
               + played("bert", "Winter", date(2024, 12, 1), 50))
    story = history(records=records, player="anna", until=UNTIL)
    assert [(t.tournament, t.day, t.rounds, t.points, t.average, t.counted_rounds, t.counted_points)
            for t in story.tournaments] == [
        ("Herbst", date(2023, 6, 10), 3, 13, Fraction(13, 3), 1, 5),
        ("Winter", date(2024, 12, 1), 3, 24, 8, 3, 24)]
    assert (story.rounds, story.points, story.average) == (4, 29, Fraction(29, 4))
    row = rangliste(records=records, until=UNTIL, minimum_rounds=0).rows
    anna = next(r for r in row if r.player == "anna")
    assert (anna.rounds, anna.points, anna.average) == (story.rounds, story.points, story.average)
    assert history(records=records, player="nobody", until=UNTIL).average is None


# ---- properties ---------------------------------------------------------------------------------------------

days = st.dates(min_value=date(2019, 1, 1), max_value=date(2026, 12, 31))


@given(days, st.integers(1, 60))
@example(date(2024, 2, 29), 24)
@example(date(2024, 2, 29), 12)
@example(date(2025, 3, 31), 1)
@example(date(2025, 12, 31), 24)
@example(date(2026, 1, 1), 24)
def test_the_window_holds_both_ends_and_nothing_beyond(until, months):
    span = window(until=until, months=months)
    assert span.end == until and span.start <= until
    assert span.start - timedelta(days=1) == months_before(until, months)
    records = [RoundRecord(player=name, day=day, tournament=name, round=1, points=1)
               for name, day in [("first", span.start), ("last", until), ("too old", span.start - timedelta(days=1)),
                                 ("too new", until + timedelta(days=1))]]
    result = rangliste(records=records, until=until, months=months, minimum_rounds=0)
    assert sorted(r.player for r in result.rows) == ["first", "last"]
    # the window is never longer than `months` months nor shorter than `months` months minus 3 days
    assert months * 28 - 3 <= (span.end - span.start).days + 1 <= months * 31 + 1


@st.composite
def record_sets(draw):
    players = [f"p{i}" for i in range(draw(st.integers(1, 6)))]
    tournaments = {f"T{i}": draw(days) for i in range(draw(st.integers(1, 4)))}
    records = []
    for tournament, day in tournaments.items():
        for player in players:
            for number in range(1, draw(st.integers(0, 3)) + 1):
                records.append(RoundRecord(player=player, day=day, tournament=tournament, round=number,
                                           points=draw(st.integers(-3, 3))))
    return records


@given(record_sets(), st.integers(0, 5), st.integers(0, 2**32))
@example([], 0, 0)
@example([RoundRecord(player="a", day=date(2025, 1, 1), tournament="T", round=1, points=0),
          RoundRecord(player="b", day=date(2025, 1, 1), tournament="T", round=1, points=0)], 1, 0)
def test_the_list_holds_every_player_once_and_does_not_depend_on_the_order_of_the_records(records, minimum, seed):
    until = date(2026, 6, 30)
    result = rangliste(records=records, until=until, minimum_rounds=minimum, cut_lines=[(2, "A"), (4, "B")])
    again = rangliste(records=random.Random(seed).sample(records, len(records)), until=until,
                      minimum_rounds=minimum, cut_lines=[(4, "B"), (2, "A")])
    assert result == again
    in_window = [r for r in records if r.day in result.window]
    everyone = result.rows + result.below_minimum
    assert sorted(r.player for r in everyone) == sorted({r.player for r in in_window})
    assert sum(r.rounds for r in everyone) == len(in_window)
    assert all(r.rounds >= minimum for r in result.rows) and all(r.rounds < minimum for r in result.below_minimum)
    for index, row in enumerate(result.rows):
        assert row.average == Fraction(row.points, row.rounds)
        if index:
            above = result.rows[index - 1]
            assert (row.average, row.rounds) <= (above.average, above.rounds)
            assert (row.place == above.place) == ((row.average, row.rounds) == (above.average, above.rounds))
        story = history(records=records, player=row.player, until=until)
        assert (story.rounds, story.points) == (row.rounds, row.points)
