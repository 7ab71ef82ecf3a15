"""A table's expected result from the ratings (scoring/rating_forecast.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rating import Rating
from scoring.rating_forecast import win_shares

ratings_st = st.builds(Rating, mu=st.floats(0, 50), sigma=st.floats(0.5, 9), games=st.integers(0, 100))


def test_equal_players_win_half_their_games():
    for players in ("abcd", "abcde"):
        assert all(share == pytest.approx(0.5) for share in win_shares({}, list(players)).values())


def test_the_stronger_player_is_expected_to_win_more():
    shares = win_shares({"a": Rating(mu=35, sigma=3), "d": Rating(mu=15, sigma=3)}, list("abcd"))
    assert shares["a"] > shares["b"] > shares["d"] and shares["b"] == pytest.approx(shares["c"])


@given(st.lists(ratings_st, min_size=4, max_size=5))
def test_the_shares_of_a_table_average_one_half(values):
    """Every game has one winning and one losing party of two: over the table, half the games are won."""
    players = [str(i) for i in range(len(values))]
    shares = win_shares(dict(zip(players, values, strict=True)), players)
    assert sum(shares.values()) / len(players) == pytest.approx(0.5, abs=1e-9)
    assert all(0 <= share <= 1 for share in shares.values())


def test_a_table_needs_four_or_five_players():
    with pytest.raises(ValueError):
        win_shares({}, list("abc"))
