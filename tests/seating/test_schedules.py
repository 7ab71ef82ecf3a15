"""Tests for seating.schedules: repeat-free constructions, the plan for all rounds, the lower
bound and the labelling (pure Python, no database).

Repeats are always recounted by `_recount`, which works from the rounds directly.
"""

import random
from collections import Counter
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seating import History, designs, draw_random, schedules, table_sizes

from .test_draw import _all_splits  # every partition into tables (small n)

SEATABLE = [n for n in range(4, 61) if n not in (6, 7, 11)]


def _recount(rows):
    """(repeats, repeated fives) of a schedule: pairs beyond their first meeting, seats at a table of
    5 beyond a player's first."""
    pairs = Counter(frozenset(pair) for row in rows for table in row for pair in combinations(table, 2))
    fives = Counter(p for row in rows for table in row if len(table) == 5 for p in table)
    return sum(k - 1 for k in pairs.values()), sum(k - 1 for k in fives.values())


def _assert_schedule(rows, n, rounds):
    assert len(rows) == rounds
    for row in rows:
        assert sorted(p for table in row for p in table) == list(range(n))
        assert [len(table) for table in row] == table_sizes(n)  # tables of 4 first


# ---- constructions -----------------------------------------------------------------------------


@pytest.mark.parametrize("n, rounds, construction", [
    (16, 5, "RTD(4, 4) + in each group: one round"),  # the affine plane of order 4
    (20, 3, "RTD(4, 5)"),
    (20, 5, "RTD(4, 5)"),
    (24, 6, "1-rotational over Z_7"),  # an earlier plan of 24 x 6 had 3 repeats
    (24, 7, "1-rotational over Z_7"),  # the social golfer problem 6-4-7
    (28, 7, "RTD(4, 7)"),
    (28, 9, "Hermitian unital of order 3"),
    (32, 8, "RTD(4, 8)"),
    (32, 9, "RTD(4, 8) + in each group: one round"),
    (32, 10, "doubled affine planes"),  # the social golfer problem, 8-4-10
    (36, 9, "RTD(4, 9)"),
    (44, 11, "RTD(4, 11)"),
    (64, 21, "RTD(4, 16) + in each group: RTD(4, 4) + in each group: one round"),
    (80, 25, "RTD(4, 20) + in each group: RTD(4, 5)"),
    (112, 37, "RTD(4, 28) + in each group: Hermitian unital of order 3"),
])
def test_constructions_seat_everybody_without_repeats(n, rounds, construction):
    plan = schedules.plan(n, rounds)
    _assert_schedule(plan.rows, n, rounds)
    assert _recount(plan.rows) == (0, 0)
    assert (plan.repeats, plan.lower_bound, plan.optimal) == (0, 0, True)
    assert plan.method == f"construction: {construction}"


@pytest.mark.parametrize("n, rounds", [(16, 5), (28, 9), (64, 21), (112, 37)])
def test_complete_constructions_let_every_pair_meet_exactly_once(n, rounds):
    rows = schedules.plan(n, rounds).rows
    met = Counter(frozenset(pair) for row in rows for table in row for pair in combinations(table, 2))
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}


def test_32_players_for_10_rounds_miss_exactly_one_other_player_each():
    rows = schedules.plan(32, 10).rows
    partners = {p: set() for p in range(32)}
    for row in rows:
        for table in row:
            for a, b in combinations(table, 2):
                partners[a].add(b)
                partners[b].add(a)
    assert {len(mates) for mates in partners.values()} == {30}


def _kind(a, b):
    """The kind of a pair of the 24 players of `_cyclic_24` (the same kind: met in the same rounds)."""
    a, b = sorted((a, b))
    if a >= 21:
        return None  # two fixed players would meet in every round
    if b >= 21:
        return ("fixed", b, a // 7)
    (i, x), (j, y) = divmod(a, 7), divmod(b, 7)
    return ("class", i, min((y - x) % 7, (x - y) % 7)) if i == j else ("classes", i, j, (y - x) % 7)


def test_the_base_round_of_24_players_is_the_first_found_by_backtracking():
    """How `_BASE_24` was found: tables in the order of their lowest player, pairs of 36 different kinds."""
    kinds, tables = set(), []

    def seat(free):
        """Seats the players ``free`` (sorted), the lowest first; True when everybody sits."""
        return not free or extend([free[0]], free[1:], 0)

    def extend(table, rest, start):
        if len(table) == 4:
            tables.append(tuple(table))
            if seat([p for p in rest if p not in table]):
                return True
            tables.pop()
            return False
        for k in range(start, len(rest)):
            new = [_kind(a, rest[k]) for a in table]
            if None in new or len(set(new)) < len(new) or kinds & set(new):
                continue
            kinds.update(new)
            if extend([*table, rest[k]], rest, k + 1):
                return True
            kinds.difference_update(new)
        return False

    assert seat(list(range(24)))
    assert tuple(tables) == designs._BASE_24


@pytest.mark.parametrize("n, rounds", [(25, 6)])
def test_schedules_found_by_the_longer_search_are_repeat_free(n, rounds):
    """25 x 6 had a repeat; the checked-in schedule has none and, its rounds put in order, the fewest
    second seats at a table of 5 after every round. (31 x 6's checked-in schedule has no such order:
    the plan is drawn and searched instead.)"""
    plan = schedules.plan(n, rounds)
    _assert_schedule(plan.rows, n, rounds)
    assert _recount(plan.rows) == (0, schedules.min_repeated_five(n, rounds)) == (plan.repeats, plan.repeated_five)
    assert plan.method == "found by search (checked in)"
    assert schedules.fewest_second_fives(plan.rows, n)
    assert not schedules.fewest_second_fives(designs.found_schedule(31, 6), 31)


@pytest.mark.parametrize("n, most", [(4, 1), (8, 1), (12, 1), (16, 5), (20, 5), (24, 7), (28, 9), (32, 10),
                                     (36, 9), (40, 1), (64, 21), (128, 42), (13, 0), (30, 0)])
def test_constructible_rounds(n, most):
    assert schedules.constructible_rounds(n) == most


@pytest.mark.parametrize("m, expected", [(4, True), (5, True), (8, True), (9, True), (20, True), (2, False),
                                         (3, False), (6, False), (10, False), (12, False), (15, False)])
def test_transversal_designs_exist_for_products_of_prime_powers_from_4(m, expected):
    design = designs._transversal_design(m)
    assert (design is not None) == expected
    if design is not None:
        _assert_schedule(designs.as_rows(design), 4 * m, m)
        assert _recount(design) == (0, 0)
        # players of one group (i * m + x for fixed i) never meet
        assert all(len({p // m for p in table}) == 4 for row in design for table in row)


# ---- the plan ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n, rounds", [(8, 3), (9, 2), (13, 4), (16, 6), (17, 3), (21, 4), (37, 6), (150, 4)])
def test_plans_without_a_construction_are_valid_and_counted_right(n, rounds):
    plan = schedules.plan(n, rounds)
    _assert_schedule(plan.rows, n, rounds)
    assert _recount(plan.rows) == (plan.repeats, plan.repeated_five)
    assert plan.repeated_five == schedules.min_repeated_five(n, rounds)  # the fives first, always reached
    assert plan.lower_bound <= plan.repeats


def test_a_plan_is_no_worse_than_the_round_by_round_draw():
    for n, rounds in [(13, 4), (20, 6), (24, 6), (28, 8)]:
        greedy = schedules._extend_by_draws(n, rounds, [])
        assert _recount(schedules.plan(n, rounds).rows)[::-1] <= _recount(greedy)[::-1]


def test_the_search_improves_on_the_round_by_round_draw():
    plan = schedules.plan(22, 4)
    assert plan.method == "draw + search"
    assert plan.repeats < _recount(schedules._extend_by_draws(22, 4, []))[0]


@pytest.mark.parametrize("n, rounds", [(29, 6), (30, 6), (33, 7)])
def test_the_search_finds_repeat_free_plans_with_tables_of_5(n, rounds):
    """29 x 6 and 30 x 6 had one repeat; the fewest second seats at a table of 5 come first
    and stay at their minimum after every round."""
    plan = schedules.plan(n, rounds)
    _assert_schedule(plan.rows, n, rounds)
    assert _recount(plan.rows) == (0, schedules.min_repeated_five(n, rounds)) == (plan.repeats, plan.repeated_five)
    assert schedules.fewest_second_fives(plan.rows, n)


def _second_fives_after_each_round(rows):
    seen, seats, counts = set(), 0, []
    for row in rows:
        fives = [p for table in row if len(table) == 5 for p in table]
        seats += len(fives)
        seen.update(fives)
        counts.append(seats - len(seen))
    return counts


@pytest.mark.parametrize("n, rounds", [(9, 3), (13, 4), (14, 3), (18, 3), (19, 4), (22, 4), (23, 3), (23, 4),
                                       (21, 5), (26, 5), (31, 6)])
def test_plans_take_the_fewest_second_fives_after_every_round(n, rounds):
    """Issue "The evening as a club meets it": the plan for 23 x 3 seated 9 players at a table of 5 a
    second time in round 2, where 7 is the least (15 seats at tables of 5 in each round: 30 after two
    rounds for 23 players). After round r the fewest is max(0, 5 · tables of 5 · r − n): every player
    has one seat at a table of 5 before anybody takes a second. 22 x 4, 23 x 4, 21 x 5, 26 x 5 and 31 x 6
    had repeat-free plans only by breaking that in an early round; the rule comes first (23 x 3: the 8
    players at tables of 4 in round 1 all sit at the 3 tables of 5 in round 2, so 3 of them come from
    the same table of 4 at one table: a repeat is forced)."""
    plan = schedules.plan(n, rounds)
    fives = 5 * table_sizes(n).count(5)
    assert _second_fives_after_each_round(plan.rows) == [max(0, fives * r - n) for r in range(1, rounds + 1)]
    assert schedules.fewest_second_fives(plan.rows, n)


def test_plans_are_the_same_every_time():
    for n, rounds in [(13, 4), (24, 6), (32, 10)]:
        assert schedules.plan.__wrapped__(n, rounds) == schedules.plan(n, rounds)


def test_a_plan_needs_one_to_255_rounds():
    for rounds in (0, 256):
        with pytest.raises(ValueError):
            schedules.plan(16, rounds)


def test_sixteen_players_for_six_rounds_reach_the_bound():
    plan = schedules.plan(16, 6)  # all 120 pairs met in 5 rounds: round 6 repeats all its 24 pairs
    assert plan.repeats == plan.lower_bound == 24


# ---- lower bound -------------------------------------------------------------------------------


def test_lower_bound_examples():
    assert schedules.lower_bound(16, 5) == 0
    assert schedules.lower_bound(16, 6) == 24  # everybody needs 18 partners of 15
    assert schedules.lower_bound(8, 2) == 4  # two tables of 4 from two tables of 4: 2 pairs each
    assert schedules.lower_bound(12, 3) == 6  # a table of 4 from 3 tables: one pair; 3 tables, 2 rounds
    assert schedules.lower_bound(32, 10) == 0 and schedules.lower_bound(32, 11) > 0


@pytest.mark.parametrize("n, rounds", [(8, 2), (8, 3), (9, 2), (10, 2), (5, 3), (12, 2)])
def test_lower_bound_is_at_most_the_exhaustive_optimum(n, rounds):
    """Every schedule (round 1 fixed: relabelling changes nothing) is counted."""
    players = list(range(n))
    splits = list(_all_splits(players, table_sizes(n)))
    first = [players[sum(table_sizes(n)[:i]):sum(table_sizes(n)[:i + 1])] for i in range(len(table_sizes(n)))]
    best = min(_recount([first, *later])[0] for later in product(splits, repeat=rounds - 1))
    assert schedules.lower_bound(n, rounds) <= best
    if n in (8, 12):  # no tables of 5: the bound is reached
        assert schedules.lower_bound(n, rounds) == best


seatable_n = st.integers(min_value=4, max_value=80).filter(lambda n: n not in (6, 7, 11))


@settings(max_examples=80, deadline=None)
@given(n=seatable_n, rounds=st.integers(min_value=1, max_value=12), seed=st.integers())
def test_lower_bound_is_never_above_the_repeats_of_any_schedule(n, rounds, seed):
    rng = random.Random(seed)
    sizes = table_sizes(n)
    rows = []
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        rows.append([order[sum(sizes[:i]):sum(sizes[:i + 1])] for i in range(len(sizes))])
    assert schedules.lower_bound(n, rounds) <= _recount(rows)[0]


@settings(max_examples=25, deadline=None)
@given(n=st.sampled_from(SEATABLE), rounds=st.integers(min_value=1, max_value=8))
def test_lower_bound_is_never_above_the_repeats_of_the_plan(n, rounds):
    plan = schedules.plan(n, rounds)
    assert schedules.lower_bound(n, rounds) == plan.lower_bound <= plan.repeats == _recount(plan.rows)[0]


# ---- labelling ---------------------------------------------------------------------------------


def _label_tables(plan, label, r):
    return [[label[i] for i in table] for table in plan.rows[r]]


def test_labelling_without_constraints_is_a_seeded_shuffle():
    plan = schedules.plan(16, 5)
    first = schedules.labelling(plan, random.Random("a"))
    assert sorted(first) == list(range(16)) and first != list(range(16))
    assert schedules.labelling(plan, random.Random("a")) == first != schedules.labelling(plan, random.Random("b"))


def test_labelling_spreads_clubs_over_the_tables_of_round_one():
    plan = schedules.plan(16, 5)
    clubs = [p // 4 for p in range(16)]  # four clubs of four: one of each at every table
    label = schedules.labelling(plan, random.Random(1), clubs=clubs)
    assert sorted(label) == list(range(16))
    assert all(len({clubs[p] for p in table}) == 4 for table in _label_tables(plan, label, 0))


def test_labelling_keeps_pairs_apart_in_every_round_when_the_schedule_allows():
    plan = schedules.plan(32, 10)  # everybody misses one player: room for 16 pairs kept apart
    apart = [(0, 1), (2, 3), (4, 5), (6, 7)]
    label = schedules.labelling(plan, random.Random(2), apart=apart)
    for r in range(10):
        for table in _label_tables(plan, label, r):
            assert not any(set(pair) <= set(table) for pair in apart)


def test_labelling_pushes_unavoidable_apart_pairs_to_late_rounds():
    plan = schedules.plan(16, 5)  # every pair meets once: the pair must meet, best in round 5
    label = schedules.labelling(plan, random.Random(3), apart=[(0, 1)])
    meets = [r for r in range(5) for table in _label_tables(plan, label, r) if {0, 1} <= set(table)]
    assert meets == [4]


# ---- the draw that follows a plan ---------------------------------------------------------------


def test_plan_rows_come_from_the_round_by_round_draw_when_nothing_is_known():
    rows = schedules._extend_by_draws(13, 2, [])
    first = draw_random(list(range(13)), seed="plan 13x2/1")
    assert [sorted(t) for t in rows[0]] == [sorted(t) for t in first.tables]
    second = draw_random(list(range(13)), seed="plan 13x2/2", history=History.from_rounds([first.tables]))
    assert [sorted(t) for t in rows[1]] == [sorted(t) for t in second.tables]


# ---- the benchmark's cells ----------------------------------------------------------------------


def _bench_script():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[2] / "scripts" / "bench_seating.py"
    spec = importlib.util.spec_from_file_location("bench_seating", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_cells_show_the_repeats_against_the_lower_bound_and_the_best_known():
    bench = _bench_script()
    assert bench.cell(0, 0, 0) == "0" and bench.cell(24, 24, 24) == "24"  # at the bound: nothing to add
    assert bench.cell(18, 12, 18) == "18/12/18"  # reached / lower bound / best known
    assert bench.cell(32, 28, 28) == "32/28/28*"  # above the best known
    # best known: 0 where a repeat-free schedule is known, whatever the plan reaches
    assert [bench.known_repeat_free(n, r) for n, r in [(24, 7), (16, 5), (28, 9), (40, 13), (25, 6), (20, 6)]] \
        == [True, True, True, True, True, False]
    assert bench.best_known(24, 6, 3) == 0 and bench.best_known(21, 7, 32) == 28 and bench.best_known(13, 4, 17) == 17
    assert all(bench.best_known(n, r, 99) == 0 for (n, r), found in bench.FOUND.items() if found == 0)
