"""Team matches (seating/team_match.py): one player of each team at every table, and every pair of
players of different teams at most once over the rounds the seating promises."""

from collections import Counter
from itertools import combinations

import pytest

from seating import History, TeamMatchImpossible, team_match_round
from seating.team_match import repeat_free_rounds, team_match_plan, team_match_tables


def make_teams(k: int, n: int) -> list[list[str]]:
    return [[f"{'ABCDEF'[m]}{j}" for j in range(n)] for m in range(k)]


def team_of(player: str) -> str:
    return player[0]


def meetings(rounds) -> Counter:
    met: Counter = Counter()
    for tables in rounds:
        for table in tables:
            for a, b in combinations(table, 2):
                met[frozenset((a, b))] += 1
    return met


def play(k: int, n: int, rounds: int) -> list[list[list[str]]]:
    teams = make_teams(k, n)
    return [team_match_tables(teams, round_index=r) for r in range(rounds)]


@pytest.mark.parametrize(("k", "n"), [(4, n) for n in range(1, 13)] + [(5, n) for n in range(1, 13)])
def test_every_table_has_one_player_of_each_team_and_everybody_sits(k, n):
    teams = make_teams(k, n)
    for r in range(n + 2):
        tables = team_match_tables(teams, round_index=r)
        assert len(tables) == n
        assert all(sorted(map(team_of, table)) == sorted("ABCDE"[:k]) for table in tables)
        assert sorted(p for table in tables for p in table) == sorted(p for team in teams for p in team)


@pytest.mark.parametrize(("k", "n"), [(4, 4), (4, 5), (4, 7), (4, 8), (4, 9), (5, 5), (5, 7), (5, 8), (5, 9)])
def test_over_n_rounds_every_cross_team_pair_meets_exactly_once(k, n):
    met = meetings(play(k, n, n))
    cross = [frozenset((a, b)) for a, b in combinations([p for t in make_teams(k, n) for p in t], 2)
             if team_of(a) != team_of(b)]
    assert all(met[pair] == 1 for pair in cross)
    assert set(met) == set(cross)  # and members of one team never sit together
    assert repeat_free_rounds(teams=k, size=n) == n and team_match_plan(teams=k, size=n).field


def test_four_teams_of_four_meet_all_twelve_opponents_in_four_rounds():
    rounds = play(4, 4, 4)
    for player in ("A0", "B3", "D2"):
        opponents = [p for tables in rounds for table in tables if player in table for p in table if p != player]
        assert len(opponents) == len(set(opponents)) == 12


@pytest.mark.parametrize(("k", "n", "free"), [(4, 3, 1), (5, 4, 1), (4, 2, 1), (4, 6, 2), (4, 10, 5),
                                               (4, 12, 4), (5, 6, 2)])
def test_where_it_cannot_be_had_the_promise_says_so_and_holds(k, n, free):
    """More teams than players per team (repeats forced from round 2), or a size without a field."""
    assert repeat_free_rounds(teams=k, size=n) == free
    met = meetings(play(k, n, free))
    assert max(met.values()) == 1
    assert max(meetings(play(k, n, free + 1)).values()) == 2  # and not one round more
    if k > n:  # round 2 must bring two players of one round-1 table together again
        assert max(meetings(play(k, n, 2)).values()) == 2


def test_three_per_team_in_four_teams_repeats_no_more_than_forced():
    """Four teams of three: every round after the first has at least 3 repeat pairs (each of the 3
    tables of 4 takes its players from 3 tables of round 1); the seating has no more."""
    teams = make_teams(4, 3)
    done: list = []
    for r in range(3):
        draw = team_match_round(teams, round_index=r, history=History.from_rounds(done))
        if r:
            assert draw.lower_bound == 3 and draw.repeat_meetings == draw.lower_bound
        done.append(draw.tables)


def test_seats_rotate_and_the_seed_only_renumbers_the_tables():
    teams = make_teams(4, 4)
    first_seats = Counter(team_of(table[0]) for r in range(4) for table in team_match_tables(teams, round_index=r))
    assert first_seats == Counter({"A": 4, "B": 4, "C": 4, "D": 4})  # every team deals first equally often
    plain = team_match_round(teams, round_index=1)
    shuffled = team_match_round(teams, round_index=1, seed="abc")
    assert sorted(plain.tables) == sorted(shuffled.tables)
    assert shuffled == team_match_round(teams, round_index=1, seed="abc")  # reproducible


def test_a_draw_counts_its_repeats_against_the_history():
    teams = make_teams(4, 4)
    done = [team_match_tables(teams, round_index=r) for r in range(4)]
    fifth = team_match_round(teams, round_index=4, history=History.from_rounds(done))
    assert fifth.repeat_meetings == 4 * 6  # round 5 is round 1 again: every pair at every table met
    fresh = team_match_round(teams, round_index=3, history=History.from_rounds(done[:3]))
    assert fresh.repeat_meetings == 0


@pytest.mark.parametrize("teams", [make_teams(3, 4), make_teams(6, 4), [["a", "b"], ["c"], ["d", "e"], ["f", "g"]]])
def test_teams_that_do_not_fit_are_refused(teams):
    with pytest.raises(TeamMatchImpossible):
        team_match_tables(teams, round_index=0)


def test_a_player_twice_is_refused():
    with pytest.raises(ValueError, match="more than once"):
        team_match_tables([["a", "b"], ["c", "d"], ["e", "f"], ["g", "a"]], round_index=0)
