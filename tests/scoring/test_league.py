"""League match days, the league table and a team cup group (scoring/league.py)."""

import random
from fractions import Fraction

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from scoring.league import SIEGPUNKTE, CupTie, LeagueTie, cup_group, league_table, match_day


def day_of(name="1. Spieltag", **team_points):
    """A match day where each team's one player "<team>1" has the team's points (the sum is what counts)."""
    return match_day(day=name, teams={team: {f"{team}1": points} for team, points in team_points.items()})


def siegpunkte(day):
    return {t.team: t.siegpunkte for t in day.teams}


def test_a_match_day_gives_4_3_2_1_by_the_sum_of_the_players():
    day = match_day(day="1", teams={"A": {"a1": 10, "a2": -4, "a3": 3, "a4": 0}, "B": {"b1": 20, "b2": 1},
                                    "C": {"c1": -30}, "D": {"d1": 2, "d2": 2}})
    assert [(t.team, t.place, t.spielpunkte, t.siegpunkte) for t in day.teams] == [
        ("B", 1, 21, 4), ("A", 2, 9, 3), ("D", 3, 4, 2), ("C", 4, -30, 1)]
    assert day.teams[1].players == (("a1", 10), ("a3", 3), ("a4", 0), ("a2", -4))
    assert day.scale == SIEGPUNKTE == (4, 3, 2, 1)


@pytest.mark.parametrize(("points", "expected"), [
    ({"A": 5, "B": 5, "C": 0, "D": -1}, {"A": Fraction(7, 2), "B": Fraction(7, 2), "C": 2, "D": 1}),
    ({"A": 9, "B": 5, "C": 5, "D": 5}, {"A": 4, "B": 2, "C": 2, "D": 2}),
    ({"A": 9, "B": 5, "C": 0, "D": 0}, {"A": 4, "B": 3, "C": Fraction(3, 2), "D": Fraction(3, 2)}),
    ({"A": 9, "B": 9, "C": 0, "D": 0}, {"A": Fraction(7, 2), "B": Fraction(7, 2), "C": Fraction(3, 2),
                                        "D": Fraction(3, 2)}),
    ({"A": 0, "B": 0, "C": 0, "D": 0}, {"A": Fraction(5, 2), "B": Fraction(5, 2), "C": Fraction(5, 2),
                                        "D": Fraction(5, 2)}),
])
def test_teams_level_on_a_day_share_the_siegpunkte_of_their_places(points, expected):
    day = day_of(**points)
    assert siegpunkte(day) == expected
    first = day.teams[0]
    assert list(first.places) == list(range(1, 1 + first.shared))


def test_a_day_of_three_teams_gives_3_2_1_unless_told_otherwise():
    assert siegpunkte(day_of(A=3, B=2, C=1)) == {"A": 3, "B": 2, "C": 1}
    day = match_day(day="x", teams={"A": {"a": 3}, "B": {"b": 2}, "C": {"c": 1}}, scale=(4, 3, 2))
    assert siegpunkte(day) == {"A": 4, "B": 3, "C": 2}


@pytest.mark.parametrize(("teams", "scale", "message"), [
    ({"A": {"x": 1}, "B": {"x": 2}}, None, "player 'x' is in teams 'A' and 'B'"),
    ({"A": {"a": 1}, "B": {"b": 2}}, (4, 3, 2, 1), "4 Siegpunkte values for 2 teams"),
    ({"A": {"a": 1}, "B": {"b": 2}}, (1, 2), "go up"),
    ({"A": {"a": 1}}, None, "at least two teams"),
])
def test_a_wrong_match_day_is_refused(teams, scale, message):
    with pytest.raises(ValueError, match=message):
        match_day(day="1", teams=teams, scale=scale)


def test_the_league_table_ranks_by_siegpunkte_then_spielpunkte_then_days_won():
    days = [day_of("1", A=10, B=5, C=0, D=-5), day_of("2", A=-5, B=0, C=5, D=10),
            day_of("3", A=0, B=20, C=8, D=-9)]
    table = league_table(days=days)
    # A: 4+1+2=7, 5 Spielpunkte; B: 3+2+4=9; C: 2+3+3=8; D: 1+4+1=6
    assert [(r.team, r.place, r.siegpunkte, r.spielpunkte, r.wins) for r in table] == [
        ("B", 1, 9, 25, 1), ("C", 2, 8, 13, 0), ("A", 3, 7, 5, 1), ("D", 4, 6, -4, 1)]
    assert [(d.day, d.place, d.siegpunkte, d.spielpunkte) for d in table[0].days] == [
        ("1", 2, 3, 5), ("2", 3, 2, 0), ("3", 1, 4, 20)]
    assert all(row.tie is None for row in table)


def test_equal_siegpunkte_are_separated_by_spielpunkte_then_by_days_won_else_shared():
    days = [day_of("1", A=10, B=5, C=1, D=0), day_of("2", A=0, B=1, C=5, D=10),
            day_of("3", A=3, B=3, C=3, D=3)]
    table = league_table(days=days)
    # Siegpunkte: A 4+1+2.5, B 3+2+2.5, C 2+3+2.5, D 1+4+2.5: all 7.5; Spielpunkte A 13, B 9, C 9, D 13
    assert [(r.team, r.place, r.siegpunkte, r.spielpunkte) for r in table] == [
        ("A", 1, Fraction(15, 2), 13), ("D", 1, Fraction(15, 2), 13), ("B", 3, Fraction(15, 2), 9),
        ("C", 3, Fraction(15, 2), 9)]
    assert (table[1].tie.above, table[1].tie.criterion) == ("A", None)
    assert (table[2].tie.criterion, table[2].tie.ours, table[2].tie.theirs) == (LeagueTie.SPIELPUNKTE, 9, 13)



def test_days_won_decide_after_spielpunkte():
    days = [day_of("1", A=10, B=0, C=-1, D=-2), day_of("2", A=-10, B=0, C=5, D=6)]
    table = league_table(days=days)  # everyone 5 Siegpunkte
    assert [(r.team, r.place, r.siegpunkte, r.spielpunkte, r.wins) for r in table] == [
        ("D", 1, 5, 4, 1), ("C", 2, 5, 4, 0), ("A", 3, 5, 0, 1), ("B", 4, 5, 0, 0)]
    assert [(r.tie.above, r.tie.criterion, r.tie.ours, r.tie.theirs) for r in table[1:]] == [
        ("D", LeagueTie.WINS, 0, 1), ("C", LeagueTie.SPIELPUNKTE, 0, 4), ("A", LeagueTie.WINS, 0, 1)]


def test_a_match_day_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        league_table(days=[day_of("1", A=1, B=0), day_of("1", A=0, B=1)])


def test_a_cup_group_sends_the_best_k_on():
    group = cup_group(group="Gruppe A", advance=2, teams={
        "A": {"a1": 10, "a2": 5, "a3": -3, "a4": 0}, "B": {"b1": 30, "b2": -20, "b3": 2, "b4": 0},
        "C": {"c1": -10, "c2": 4, "c3": 4, "c4": 4}, "D": {"d1": 1, "d2": 1, "d3": 1, "d4": 1}})
    assert [(t.team, t.place, t.points, t.advances) for t in group.teams] == [
        ("B", 1, 12, True), ("A", 2, 12, True), ("D", 3, 4, False), ("C", 4, 2, False)]
    tie = group.teams[1].tie
    assert (tie.above, tie.criterion, tie.ours, tie.theirs) == ("B", CupTie.BEST_PLAYER, 10, 30)
    assert group.undecided == ()


def test_a_tie_across_the_line_is_left_to_the_director():
    group = cup_group(group="G", advance=2, teams={"A": {"a": 9}, "B": {"b": 5}, "C": {"c": 5}, "D": {"d": 0}})
    assert [(t.team, t.place, t.shared, t.advances) for t in group.teams] == [
        ("A", 1, 1, True), ("B", 2, 2, None), ("C", 2, 2, None), ("D", 4, 1, False)]
    assert group.undecided == ("B", "C")
    assert (group.teams[2].tie.above, group.teams[2].tie.criterion) == ("B", None)
    # a tie above the line sends both on
    group = cup_group(group="G", advance=2, teams={"A": {"a": 5}, "B": {"b": 5}, "C": {"c": 1}, "D": {"d": 0}})
    assert [t.advances for t in group.teams] == [True, True, False, False]


def test_a_member_who_has_not_played_is_not_the_best_player_of_a_cup_team():
    """docs/competitions.md: a member who has not played never counts. Teams B and C are level at
    -20; C's best who played has -5, B's -2: B goes on, whatever C's member at home (None) would be as 0."""
    group = cup_group(group="G", advance=2, teams={
        "A": {"a1": 20, "a2": 20, "a3": 20, "a4": 20}, "B": {"b1": -2, "b2": -6, "b3": -6, "b4": -6},
        "C": {"c1": -5, "c2": -5, "c3": -5, "c4": -5, "c5": None}, "D": {"d1": -13, "d2": -9, "d3": -9, "d4": -9}})
    assert [(t.team, t.place, t.points, t.best_player, t.advances) for t in group.teams] == [
        ("A", 1, 80, 20, True), ("B", 2, -20, -2, True), ("C", 3, -20, -5, False), ("D", 4, -40, -9, False)]
    tie = group.teams[2].tie
    assert (tie.above, tie.criterion, tie.ours, tie.theirs) == ("B", CupTie.BEST_PLAYER, -5, -2)
    assert group.teams[2].not_played == ("c5",) and [p for p, _ in group.teams[2].players] == ["c1", "c2", "c3", "c4"]
    # a team of which nobody played has no best player
    group = cup_group(group="G", advance=1, teams={"A": {"a": None}, "B": {"b": 0}})
    assert [(t.team, t.points, t.best_player, t.not_played) for t in group.teams] == [
        ("A", 0, None, ("a",)), ("B", 0, 0, ())]


@pytest.mark.parametrize("advance", [0, 5])
def test_a_cup_group_cannot_send_on_none_or_more_than_it_has(advance):
    with pytest.raises(ValueError, match="cannot advance"):
        cup_group(group="G", advance=advance, teams={"A": {"a": 1}, "B": {"b": 1}, "C": {"c": 1}, "D": {"d": 1}})


# ---- properties ---------------------------------------------------------------------------------------------

team_points = st.lists(st.integers(-3, 3), min_size=1, max_size=4)  # few values: many ties


@st.composite
def four_teams(draw):
    return {team: {f"{team}{i}": p for i, p in enumerate(draw(team_points))} for team in "ABCD"}


def shuffled(teams, seed):
    rng = random.Random(seed)
    items = list(teams.items())
    rng.shuffle(items)
    return {team: dict(rng.sample(list(players.items()), len(players))) for team, players in items}


ALL_LEVEL = {team: {f"{team}1": 0} for team in "ABCD"}
TWO_ON_TOP = {"A": {"a": 5}, "B": {"b": 5}, "C": {"c": 0}, "D": {"d": -1}}


@given(four_teams())
@example(ALL_LEVEL)
@example(TWO_ON_TOP)
def test_a_day_of_four_teams_always_gives_out_10_siegpunkte_and_more_points_never_get_fewer(teams):
    day = match_day(day="1", teams=teams)
    assert sum(t.siegpunkte for t in day.teams) == 10
    for one in day.teams:
        for other in day.teams:
            if one.spielpunkte > other.spielpunkte:
                assert one.siegpunkte > other.siegpunkte
            if one.spielpunkte == other.spielpunkte:
                assert one.siegpunkte == other.siegpunkte
        assert one.spielpunkte == sum(points for _, points in one.players)


@given(four_teams(), st.integers(0, 2**32))
@example(ALL_LEVEL, 0)
def test_the_order_of_a_days_teams_and_players_never_matters(teams, seed):
    assert match_day(day="1", teams=teams) == match_day(day="1", teams=shuffled(teams, seed))


@given(st.lists(four_teams(), min_size=1, max_size=5), st.integers(0, 2**32))
@example([ALL_LEVEL, ALL_LEVEL], 0)
def test_a_league_table_shares_out_10_siegpunkte_a_day_whatever_the_order_of_its_days(seasons, seed):
    days = [match_day(day=str(number), teams=teams) for number, teams in enumerate(seasons)]
    table = league_table(days=days)
    assert sum(row.siegpunkte for row in table) == 10 * len(days)
    assert sum(row.wins for row in table) >= len(days)
    again = league_table(days=random.Random(seed).sample(days, len(days)))
    assert [(r.team, r.place, r.shared, r.siegpunkte, r.spielpunkte, r.tie) for r in table] == [
        (r.team, r.place, r.shared, r.siegpunkte, r.spielpunkte, r.tie) for r in again]
    for index, row in enumerate(table[1:], start=1):
        above = table[index - 1]
        key = (row.siegpunkte, row.spielpunkte, row.wins)
        assert key <= (above.siegpunkte, above.spielpunkte, above.wins)
        assert (row.place == above.place) == (key == (above.siegpunkte, above.spielpunkte, above.wins))


@given(four_teams(), st.integers(1, 4), st.integers(0, 2**32))
@example(ALL_LEVEL, 2, 0)
@example(TWO_ON_TOP, 1, 0)
def test_a_cup_group_sends_on_at_most_k_and_leaves_only_ties_at_the_line_open(teams, advance, seed):
    group = cup_group(group="G", teams=teams, advance=advance)
    going = [t for t in group.teams if t.advances]
    open_ = [t for t in group.teams if t.advances is None]
    assert len(going) <= advance <= len(going) + len(open_)
    assert all(t.shared > 1 and t.place <= advance < t.place + t.shared - 1 for t in open_)
    assert group == cup_group(group="G", teams=shuffled(teams, seed), advance=advance)
