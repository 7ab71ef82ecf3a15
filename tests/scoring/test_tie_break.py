"""The one tie-break every ranking of `scoring` gives a row level with the row above
(scoring/tie_break.py): teams, the league table, a cup group and the Rangliste use it."""

import dataclasses
from datetime import date
from enum import StrEnum

import pytest

from scoring import league, rangliste, teams
from scoring.tie_break import TieBreak, tie_break


class Criterion(StrEnum):
    FIRST = "first"
    SECOND = "second"
    THIRD = "third"


def test_the_first_criterion_that_differs_decides():
    tie = tie_break("anna", [(Criterion.FIRST, 5, 5), (Criterion.SECOND, 2, 7), (Criterion.THIRD, 9, 1)])
    assert tie == TieBreak(above="anna", criterion=Criterion.SECOND, ours=2, theirs=7)


def test_nothing_decides_the_place_is_shared_with_the_first_criterions_values():
    tie = tie_break("anna", [(Criterion.FIRST, 5, 5), (Criterion.SECOND, 2, 2)])
    assert tie == TieBreak(above="anna", criterion=None, ours=5, theirs=5)


def test_nothing_decides_with_the_values_the_rows_are_level_in():
    tie = tie_break("anna", [(Criterion.FIRST, 5, 5)], level=(40, 40))
    assert (tie.criterion, tie.ours, tie.theirs) == (None, 40, 40)
    assert tie_break("anna", [], level=(40, 40)) == TieBreak(above="anna", criterion=None, ours=40, theirs=40)
    with pytest.raises(ValueError):
        tie_break("anna", [])


def test_the_criteria_are_read_only_up_to_the_one_that_decides():
    read = []

    def values():
        for criterion in Criterion:
            read.append(criterion)
            yield criterion, 1, 0 if criterion == Criterion.SECOND else 1

    assert tie_break("anna", values()).criterion == Criterion.SECOND
    assert read == [Criterion.FIRST, Criterion.SECOND]


def test_a_tie_break_is_a_value():
    tie = tie_break("anna", [(Criterion.FIRST, 1, 2)])
    with pytest.raises(dataclasses.FrozenInstanceError):
        tie.ours = 3  # type: ignore[misc]
    assert tie == tie_break("anna", [(Criterion.FIRST, 1, 2)]) and hash(tie) == hash(TieBreak(
        above="anna", criterion=Criterion.FIRST, ours=1, theirs=2))


def test_every_ranking_gives_the_one_tie_break():
    """Teams, the league table, a cup group and the Rangliste: a row level with the one above gets a
    `TieBreak` (what decided, or a shared place), as their own tests spell out."""
    standings = teams.team_standings(teams={"A": ["a1", "a2"], "B": ["b1", "b2"]}, totals=[
        teams.MemberTotal(player=player, points=points, rounds=3)
        for player, points in {"a1": 10, "a2": 0, "b1": 5, "b2": 5}.items()])
    table = league.league_table(days=[league.match_day(day="1", teams={"A": {"a": 10}, "B": {"b": 10}})])
    cup = league.cup_group(group="1", teams={"A": {"a1": 10, "a2": 0}, "B": {"b1": 5, "b2": 5}}, advance=1)
    day = date(2025, 1, 1)
    ranked = rangliste.rangliste(records=[rangliste.RoundRecord(player=player, day=day, tournament="t", round=1,
                                                                points=10) for player in ("anna", "bert")],
                                 until=day, minimum_rounds=1)
    ties = [standings.rows[1].tie, table[1].tie, cup.teams[1].tie, ranked.rows[1].tie]
    assert [(type(tie), tie.above, tie.criterion, tie.ours, tie.theirs) for tie in ties if tie is not None] == [
        (TieBreak, "A", teams.Tie.BEST_MEMBER, 5, 10), (TieBreak, "A", None, 10, 10),
        (TieBreak, "A", league.CupTie.BEST_PLAYER, 5, 10), (TieBreak, "anna", None, 1, 1)]
