"""Table points by placement at a table, and the average per round (scoring/ranking.py)."""

import itertools
from fractions import Fraction

import pytest

from scoring.ranking import average, place_value, table_points


def points_of(placements):
    return {player: p.table_points for player, p in placements.items()}


def test_place_values_at_tables_of_4_and_5():
    assert [place_value(p, 4) for p in range(1, 5)] == [3, 1, -1, -3]
    assert [place_value(p, 5) for p in range(1, 6)] == [4, 2, 0, -2, -4]


def test_a_table_of_4_without_ties():
    placed = table_points({"a": -7, "b": 20, "c": 3, "d": -16})
    assert points_of(placed) == {"b": 3, "c": 1, "a": -1, "d": -3}
    assert (placed["c"].place, placed["c"].size, placed["c"].shared, placed["c"].points) == (2, 4, 1, 3)


@pytest.mark.parametrize(("points", "expected"), [
    # two-way ties: at the top, in the middle, at the bottom
    ({"a": 5, "b": 5, "c": 0, "d": -10}, {"a": 2, "b": 2, "c": -1, "d": -3}),
    ({"a": 10, "b": 0, "c": 0, "d": -10}, {"a": 3, "b": 0, "c": 0, "d": -3}),
    ({"a": 10, "b": 0, "c": -5, "d": -5}, {"a": 3, "b": 1, "c": -2, "d": -2}),
    ({"a": 4, "b": 4, "c": -4, "d": -4}, {"a": 2, "b": 2, "c": -2, "d": -2}),
    # three-way ties
    ({"a": 3, "b": 3, "c": 3, "d": -9}, {"a": 1, "b": 1, "c": 1, "d": -3}),
    ({"a": 9, "b": -3, "c": -3, "d": -3}, {"a": 3, "b": -1, "c": -1, "d": -1}),
    # all tied (a table without a result yet would be the same)
    ({"a": 0, "b": 0, "c": 0, "d": 0}, {"a": 0, "b": 0, "c": 0, "d": 0}),
])
def test_ties_at_a_table_of_4_share_the_average_of_their_places(points, expected):
    assert points_of(table_points(points)) == expected


@pytest.mark.parametrize(("points", "expected"), [
    ({"a": 20, "b": 10, "c": 0, "d": -10, "e": -20}, {"a": 4, "b": 2, "c": 0, "d": -2, "e": -4}),
    ({"a": 10, "b": 10, "c": 0, "d": -10, "e": -10}, {"a": 3, "b": 3, "c": 0, "d": -3, "e": -3}),
    ({"a": 20, "b": 0, "c": 0, "d": -10, "e": -10}, {"a": 4, "b": 1, "c": 1, "d": -3, "e": -3}),
    ({"a": 20, "b": 20, "c": 20, "d": -20, "e": -40}, {"a": 2, "b": 2, "c": 2, "d": -2, "e": -4}),
    ({"a": 30, "b": 0, "c": -10, "d": -10, "e": -10}, {"a": 4, "b": 2, "c": -2, "d": -2, "e": -2}),
    ({"a": 8, "b": 8, "c": 8, "d": 8, "e": -32}, {"a": 1, "b": 1, "c": 1, "d": 1, "e": -4}),
    ({"a": 0, "b": 0, "c": 0, "d": 0, "e": 0}, {"a": 0, "b": 0, "c": 0, "d": 0, "e": 0}),
])
def test_ties_at_a_table_of_5_share_the_average_of_their_places(points, expected):
    placed = table_points(points)
    assert points_of(placed) == expected


def test_a_shared_place_says_which_places_it_shares():
    placed = table_points({"a": 10, "b": 0, "c": 0, "d": -10})
    assert placed["b"].place == placed["c"].place == 2 and placed["b"].shared == 2 and placed["b"].is_shared
    assert list(placed["b"].places) == [2, 3]
    assert not placed["a"].is_shared and placed["d"].place == 4


@pytest.mark.parametrize("size", [4, 5])
def test_every_pattern_of_ties_gives_whole_numbers_that_sum_to_zero(size):
    # every order of points with ties (values from a small range): the average is always whole
    for points in itertools.product(range(size), repeat=size):
        placed = table_points(dict(enumerate(points)))
        assert sum(p.table_points for p in placed.values()) == 0
        for player, p in placed.items():
            values = [place_value(place, size) for place in p.places]
            assert Fraction(sum(values), len(values)) == p.table_points
            assert p.shared == points.count(points[player])


def test_a_player_missing_from_the_points_counts_with_zero_at_the_table():
    # a table of 5 after one game: the one who sat out has no points there yet
    placed = table_points({"a": 2, "b": 2, "c": -2, "d": -2}, size=5)
    assert points_of(placed) == {"a": 3, "b": 3, "c": -3, "d": -3} and placed["a"].size == 5


def test_average_per_round_is_exact_and_none_without_a_round():
    assert average(37, 3) == Fraction(37, 3)
    assert average(-5, 2) == Fraction(-5, 2)
    assert average(0, 0) is None
