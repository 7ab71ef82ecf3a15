"""Team and club standings from the members' totals (scoring/teams.py)."""

import random

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from scoring.teams import (
    Measure,
    MemberTotal,
    Tie,
    Why,
    club_standings,
    team_standings,
)


def totals(**players):
    """totals(a=10, b=(4, 3)): game points, or (game points, table points); 3 rounds each; None: not played."""
    result = []
    for player, value in players.items():
        if value is None:
            result.append(MemberTotal(player=player, points=0, rounds=0))
        else:
            points, table_points = value if isinstance(value, tuple) else (value, 0)
            result.append(MemberTotal(player=player, points=points, table_points=table_points, rounds=3))
    return result


def by_team(standings):
    return {row.team: row for row in standings.rows}


def whys(row):
    return {m.player: (m.counts, m.why) for m in row.members}


def test_all_members_count_by_default():
    standings = team_standings(teams={"X": ["a", "b"], "Y": ["c", "d"]}, totals=totals(a=10, b=-4, c=3, d=2))
    assert [(r.team, r.place, r.value) for r in standings.rows] == [("X", 1, 6), ("Y", 2, 5)]
    assert whys(standings.rows[0]) == {"a": (True, Why.ALL), "b": (True, Why.ALL)}
    assert standings.criteria == (Tie.BEST_MEMBER,)


def test_the_best_k_count_and_the_others_say_why_not():
    standings = team_standings(teams={"X": ["a", "b", "c", "d", "e", "f"]},
                               totals=totals(a=10, b=-4, c=7, d=7, e=20, f=None), count=3)
    row = standings.rows[0]
    assert row.value == 37 and row.counted == 3 and row.all_members == 40 and row.best_member == 20
    assert [m.player for m in row.members] == ["e", "a", "c", "d", "b", "f"]
    assert whys(row) == {"e": (True, Why.BEST), "a": (True, Why.BEST), "c": (True, Why.BEST),
                         "d": (False, Why.EQUAL_NOT_BEST), "b": (False, Why.NOT_BEST),
                         "f": (False, Why.NOT_PLAYED)}


def test_a_member_who_did_not_play_never_counts_over_one_who_played_badly():
    standings = team_standings(teams={"X": ["a", "b", "c"]}, totals=totals(a=-30, b=-10, c=None), count=2)
    assert standings.rows[0].value == -40
    assert whys(standings.rows[0])["c"] == (False, Why.NOT_PLAYED)


def test_a_team_with_fewer_players_than_k_counts_those_who_played():
    standings = team_standings(teams={"X": ["a", "b", "c", "d"]}, totals=totals(a=5, b=4, c=None), count=4)
    row = standings.rows[0]
    assert (row.value, row.counted) == (9, 2) and whys(row)["d"] == (False, Why.NOT_PLAYED)


def test_table_points_rank_and_equal_members_at_the_edge_count_by_game_points():
    standings = team_standings(teams={"X": ["a", "b", "c"]}, totals=totals(a=(4, 3), b=(2, 1), c=(9, 1)),
                               count=2, measure=Measure.TABLE_POINTS)
    row = standings.rows[0]
    assert (row.value, row.points) == (4, 13)
    assert whys(row) == {"a": (True, Why.BEST), "c": (True, Why.BEST), "b": (False, Why.EQUAL_NOT_BEST)}
    assert standings.criteria == (Tie.POINTS, Tie.ALL_MEMBERS, Tie.BEST_MEMBER)


def test_a_tie_in_table_points_is_broken_by_the_game_points_and_says_so():
    standings = team_standings(teams={"X": ["a", "b"], "Y": ["c", "d"]},
                               totals=totals(a=(10, 3), b=(-2, -1), c=(20, 3), d=(-5, -1)),
                               measure=Measure.TABLE_POINTS)
    assert [(r.team, r.place, r.value, r.points) for r in standings.rows] == [("Y", 1, 2, 15), ("X", 2, 2, 8)]
    tie = standings.rows[1].tie
    assert (tie.above, tie.criterion, tie.ours, tie.theirs) == ("Y", Tie.POINTS, 8, 15)
    assert standings.rows[0].tie is None


def test_a_tie_of_the_best_k_is_broken_by_all_members_then_by_the_best_member():
    standings = team_standings(
        teams={"X": ["a", "b", "c"], "Y": ["d", "e", "f"], "Z": ["g", "h", "i"]},
        totals=totals(a=10, b=10, c=-8, d=15, e=5, f=-3, g=12, h=8, i=-3), count=2)
    assert [(r.team, r.place, r.value, r.all_members) for r in standings.rows] == [
        ("Y", 1, 20, 17), ("Z", 2, 20, 17), ("X", 3, 20, 12)]
    z, x = standings.rows[1].tie, standings.rows[2].tie
    assert (z.criterion, z.ours, z.theirs) == (Tie.BEST_MEMBER, 12, 15)
    assert (x.criterion, x.above, x.ours, x.theirs) == (Tie.ALL_MEMBERS, "Z", 12, 17)


def test_teams_equal_in_everything_share_the_place_listed_by_key():
    standings = team_standings(teams={"Y": ["a", "b"], "X": ["c", "d"], "W": ["e", "f"]},
                               totals=totals(a=5, b=1, c=5, d=1, e=-9, f=0))
    assert [(r.team, r.place, r.shared) for r in standings.rows] == [("X", 1, 2), ("Y", 1, 2), ("W", 3, 1)]
    tie = standings.rows[1].tie
    assert (tie.above, tie.criterion, tie.ours, tie.theirs) == ("X", None, 6, 6)
    assert standings.rows[1].is_shared and standings.rows[2].tie is None


def test_before_anyone_played_every_team_shares_the_first_place():
    standings = team_standings(teams={"X": ["a", "b"], "Y": ["c", "d"]}, totals=[])
    assert [(r.place, r.value, r.best_member, r.counted) for r in standings.rows] == [(1, 0, None, 0)] * 2


@pytest.mark.parametrize(("teams", "count", "message"), [
    ({"X": ["a"]}, None, "1 members"),
    ({"X": list("abcdefg")}, None, "7 members"),
    ({"X": ["a", "b"], "Y": ["b", "c"]}, None, "player 'b' is in teams 'X' and 'Y'"),
    ({"X": ["a", "b"]}, 0, "best 0"),
    ({"X": ["a", "b"]}, 7, "best 7"),
])
def test_wrong_teams_are_refused(teams, count, message):
    with pytest.raises(ValueError, match=message):
        team_standings(teams=teams, totals=[], count=count)


def test_two_totals_for_one_player_are_refused():
    with pytest.raises(ValueError, match="two totals"):
        team_standings(teams={"X": ["a", "b"]}, totals=totals(a=1) + totals(a=2))


def test_a_club_ranking_counts_the_best_k_and_lists_small_clubs_and_players_without_a_club_apart():
    clubs = {"a": "Kreuz", "b": "Kreuz", "c": "Kreuz", "d": "Pik", "e": "Pik", "f": "Herz", "g": None, "h": "",
             "i": "Herz"}
    standings = club_standings(clubs=clubs, totals=totals(a=10, b=3, c=-20, d=8, e=4, f=40, g=50, h=1, i=None),
                               count=2)
    assert [(r.team, r.place, r.value) for r in standings.rows] == [("Kreuz", 1, 13), ("Pik", 2, 12)]
    assert [(r.team, r.place, r.counted, r.value) for r in standings.apart] == [("Herz", None, 1, 40)]
    assert standings.without_club == ("g", "h")
    assert whys(standings.rows[0])["c"] == (False, Why.NOT_BEST)


def test_a_club_ranking_of_all_players_ranks_every_club():
    standings = club_standings(clubs={"a": "Kreuz", "b": "Pik", "c": "Pik"}, totals=totals(a=10, b=3, c=4))
    assert [(r.team, r.value, r.counted) for r in standings.rows] == [("Kreuz", 10, 1), ("Pik", 7, 2)]
    assert standings.apart == ()


# ---- properties ---------------------------------------------------------------------------------------------

@st.composite
def fields(draw):
    """Teams of 2–6 members with totals from a small range (many ties), some members not played."""
    sizes = draw(st.lists(st.integers(2, 6), min_size=1, max_size=6))
    teams, all_totals, index = {}, [], 0
    for number, size in enumerate(sizes):
        members = [f"p{index + i}" for i in range(size)]
        index += size
        teams[f"T{number}"] = members
        for player in members:
            rounds = draw(st.sampled_from([0, 1, 3, 3]))
            all_totals.append(MemberTotal(player=player, rounds=rounds,
                                          points=draw(st.integers(-6, 6)) if rounds else 0,
                                          table_points=draw(st.integers(-3, 3)) if rounds else 0))
    return teams, all_totals


def shuffled(teams, all_totals, seed):
    rng = random.Random(seed)
    items = list(teams.items())
    rng.shuffle(items)
    shuffled_teams = {team: rng.sample(members, len(members)) for team, members in items}
    return shuffled_teams, rng.sample(all_totals, len(all_totals))


EVERYONE_EQUAL = ({"T0": ["a", "b"], "T1": ["c", "d"]},
                  [MemberTotal(player=p, points=1, rounds=1) for p in "abcd"])
NOBODY_PLAYED = ({"T0": ["a", "b", "c"], "T1": ["d", "e"]}, [])


@given(fields(), st.sampled_from([None, 1, 2, 4, 6]), st.sampled_from(list(Measure)), st.integers(0, 2**32))
@example(EVERYONE_EQUAL, 1, Measure.POINTS, 0)
@example(NOBODY_PLAYED, 2, Measure.TABLE_POINTS, 0)
def test_the_order_of_the_input_never_matters(field, count, measure, seed):
    teams, all_totals = field
    again_teams, again_totals = shuffled(teams, all_totals, seed)
    assert (team_standings(teams=teams, totals=all_totals, count=count, measure=measure)
            == team_standings(teams=again_teams, totals=again_totals, count=count, measure=measure))


@given(fields(), st.sampled_from([None, 1, 2, 3, 4, 6]), st.sampled_from(list(Measure)))
@example(EVERYONE_EQUAL, 1, Measure.POINTS)
@example(NOBODY_PLAYED, 2, Measure.POINTS)
def test_the_best_k_are_at_most_k_and_really_the_best(field, count, measure):
    teams, all_totals = field
    for row in team_standings(teams=teams, totals=all_totals, count=count, measure=measure).rows:
        counted = [m for m in row.members if m.counts]
        played = [m for m in row.members if m.rounds > 0]
        assert len(counted) == row.counted == (len(played) if count is None else min(count, len(played)))
        assert row.value == sum(m.value for m in counted)
        assert row.points == sum(m.points for m in counted)
        left_out = [m.value for m in played if not m.counts]
        assert all(m.value >= other for m in counted for other in left_out)
        assert all(m.why == Why.NOT_PLAYED for m in row.members if m.rounds == 0)


@given(fields(), st.sampled_from([None, 2, 4]), st.sampled_from(list(Measure)))
@example(EVERYONE_EQUAL, None, Measure.POINTS)
def test_places_follow_the_values_and_every_equal_value_is_explained(field, count, measure):
    teams, all_totals = field
    rows = team_standings(teams=teams, totals=all_totals, count=count, measure=measure).rows
    assert sorted(row.team for row in rows) == sorted(teams)
    for index, row in enumerate(rows):
        if index == 0:
            assert row.place == 1 and row.tie is None
            continue
        above = rows[index - 1]
        assert above.value >= row.value
        assert (row.tie is not None) == (above.value == row.value)
        if row.tie is not None and row.tie.criterion is None:
            assert row.place == above.place and row.shared == above.shared > 1
        else:
            assert row.place == index + 1
        if row.tie is not None and row.tie.criterion is not None:
            assert row.tie.ours < row.tie.theirs


@given(fields(), st.sampled_from(list(Measure)))
def test_when_all_count_the_teams_share_out_exactly_what_the_players_have(field, measure):
    # zero-sum: table points of a whole field sum to zero, and so do the teams' when everyone counts
    teams, all_totals = field
    rows = team_standings(teams=teams, totals=all_totals, measure=measure).rows
    assert sum(row.value for row in rows) == sum(t.value(measure) for t in all_totals if t.rounds > 0)
