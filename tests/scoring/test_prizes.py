"""The prize list (scoring/prizes.py): overall places, the best of each category, one prize per player."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from scoring.prizes import prize_list

CATEGORIES = ("Damen", "Jugend", "Senioren")


def names(prizes):
    return [prize.player for prize in prizes]


def test_one_prize_per_player_passes_the_category_prize_on():
    standings = [("Anna", 1), ("Bernd", 2), ("Carla", 3), ("Dora", 4), ("Emil", 5)]
    categories = {"Anna": {"Damen"}, "Carla": {"Damen", "Senioren"}, "Dora": {"Damen"}, "Emil": {"Senioren"}}
    result = prize_list(standings=standings, categories=categories, order=CATEGORIES, overall=2)
    assert names(result.overall) == ["Anna", "Bernd"]
    assert [(c, names(p)) for c, p in result.categories] == [("Damen", ["Carla"]), ("Jugend", []),
                                                              ("Senioren", ["Emil"])]
    assert result.passed_over == (("Damen", "Anna"), ("Senioren", "Carla"))
    several = prize_list(standings=standings, categories=categories, order=CATEGORIES, overall=2, once=False)
    assert [(c, names(p)) for c, p in several.categories] == [("Damen", ["Anna"]), ("Jugend", []),
                                                               ("Senioren", ["Carla"])]


def test_a_place_shared_across_the_line_gives_everyone_sharing_it_a_prize():
    standings = [("Anna", 1), ("Bernd", 2), ("Carla", 2), ("Dora", 4)]
    result = prize_list(standings=standings, categories={"Dora": {"Damen"}}, order=["Damen"], overall=2)
    assert [(p.player, p.rank) for p in result.overall] == [("Anna", 1), ("Bernd", 2), ("Carla", 2)]
    assert names(result.categories[0][1]) == ["Dora"]


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        prize_list(standings=[("A", 2), ("B", 1)], categories={}, order=[])
    with pytest.raises(ValueError):
        prize_list(standings=[("A", 1)], categories={}, order=[], overall=-1)


@st.composite
def fields(draw):
    count = draw(st.integers(0, 12))
    players = [f"p{i}" for i in range(count)]
    places: list[int] = []
    for index in range(count):
        if index and draw(st.booleans()):
            places.append(places[-1])
        else:
            places.append(index + 1)
    categories = {p: set(draw(st.lists(st.sampled_from(CATEGORIES), max_size=2))) for p in players}
    return list(zip(players, places, strict=True)), categories


@given(field=fields(), overall=st.integers(0, 5), per_category=st.integers(0, 3), once=st.booleans())
@example(field=([("a", 1), ("b", 1), ("c", 3)], {"a": {"Damen"}, "b": {"Damen"}, "c": {"Damen"}}), overall=1,
         per_category=1, once=True)
@example(field=([("a", 1), ("b", 2)], {"a": {"Damen", "Jugend"}}), overall=0, per_category=1, once=True)
def test_properties(field, overall, per_category, once):
    standings, categories = field
    result = prize_list(standings=standings, categories=categories, order=CATEGORIES, overall=overall,
                        per_category=per_category, once=once)
    place = dict(standings)
    # overall: exactly the players placed up to the last prized place, at least `overall` of them if there are
    assert names(result.overall) == [p for p, q in standings if result.overall and q <= result.overall[-1].place]
    assert len(result.overall) >= min(overall, len(standings))
    awarded = names(result.overall) + [p for _c, prizes in result.categories for p in names(prizes)]
    if once:
        assert len(awarded) == len(set(awarded))
    for category, prizes in result.categories:
        assert all(category in categories.get(p.player, ()) for p in prizes)
        members = [p for p, _q in standings if category in categories.get(p, ())]
        if prizes:  # nobody of the category better than its last winner goes without a prize
            line = prizes[-1].place
            for member in members:
                if place[member] <= line:
                    assert member in awarded
