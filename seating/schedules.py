"""Seating schedules: all planned rounds of a tournament at once (pure Python, no Django).

A schedule seats ``n`` players, numbered ``0 .. n-1``, for ``R`` rounds at the tables of
:func:`seating.draw.table_sizes` (tables of 4 first, then the tables of 5).  Its cost is
counted as the round-by-round draw counts it, summed over the rounds:

- ``repeated_five``: seats at a table of 5 taken by a player who had been at one before;
- ``repeats``: pairs at one table who had already met in an earlier round (a pair that meets
  ``k`` times counts ``k - 1``).

:func:`plan` returns the best schedule it finds for ``(n, R)``: first the fewest repeated fives
after every round (``max(0, 5 * fives * r - n)`` after round ``r``, always reached:
:func:`fewest_second_fives`), then the fewest repeats.  It is deterministic
(no randomness that is not seeded from ``n`` and ``R``, no time limits), so every process computes
the same plan; the draw maps it onto the players with a seeded random labelling
(:func:`seating.draw.draw_random` with ``rounds_planned``).

How a plan is made
    1. Known constructions give repeat-free schedules where they exist (``n`` a multiple of 4):

       - *resolvable transversal designs* RTD(4, m) from finite fields: ``n = 4m`` players in
         four groups of ``m``; round ``a`` seats player ``x`` of group ``i`` at table ``b`` when
         ``x = a * e_i + b`` (arithmetic in GF(q), or in a product of fields for ``m`` that is a
         product of prime powers ``q >= 4``).  ``m`` rounds, nobody meets twice, and players of
         the same group never meet; so when ``m`` is a multiple of 4, the groups can then play
         a repeat-free schedule of ``m`` players side by side (one round at least: tables of 4
         inside each group).  16 players: 4 + 1 = 5 rounds (the affine plane of order 4), 20:
         5, 28: 7, 32: 8 + 1, 36: 9, 64: 16 + 5 = 21 (every pair exactly once);
       - 32 players, 10 rounds (the original social golfer problem): :func:`_doubled_planes`;
       - 28 players, 9 rounds: :func:`_hermitian_unital`; 24 players, 7 rounds (the social golfer
         problem 6-4-7): :func:`_cyclic_24`, a base round developed over Z_7.

    2. Schedules the search found only with more time than a plan may take are checked in as
       data (``_FOUND``: 25 and 31 players, 6 rounds).

    3. Otherwise, and for the rounds beyond a construction, the round-by-round draw
       (:func:`seating.draw.draw_random`, seeded from ``n`` and ``R``) adds the rounds one
       after the other, each with the fewest repeats given the rounds before.

    4. If that leaves more repeats than :func:`lower_bound`, a tabu search over the whole
       schedule (:class:`_ScheduleSearch`: swaps of two players in one round; the repeated fives
       never get worse) tries to lower them, for at most ``_SEARCH_EVALUATIONS`` swap evaluations
       (a count, not a time: the plan is the same on every machine).

    When the repeats reach :func:`lower_bound` the plan is proven optimal; zero repeats is then
    proven by the schedule itself.

Lower bound (:func:`lower_bound`)
    The largest of two counting arguments, combined over the rounds:

    - *partners*: a player at a table of 4 meets 3 others per round, at a table of 5 four; over
      the rounds a player needs ``3R + k`` partners (``k`` = rounds at a table of 5, spread as
      evenly as possible, which is the most favourable) among ``n - 1``; every partner beyond
      ``n - 1`` is a repeat, and a repeat pair is counted by both players;
    - *pigeonhole*: every round after the first has at least ``b`` pairs that sat together in
      round 1 (a table of ``s`` players drawn from fewer than ``s`` tables of the round before
      must bring two of them together again; ``b`` is the fewest over all seatings).

    Rounds ``1..R'`` cost at least the partner bound for ``R'`` rounds, every later round at
    least ``b``; the bound is the best such sum.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, combinations, permutations
from typing import cast

from .bounds import fewest_pairs, lower_bound, min_repeated_five
from .designs import Rows, as_rows, constructible_rounds, found_schedule, repeat_free
from .history import History
from .round_draw import seat_round, seeded_rng
from .sizes import table_sizes

__all__ = [
    "Schedule", "constructible_rounds", "fewest_second_fives", "labelling", "lower_bound", "min_repeated_five", "plan",
    "schedule_costs",
]

# Steps of the whole-schedule search (about a second when a plan cannot reach its lower bound;
# most plans reach it without any search).
_SEARCH_EVALUATIONS = 1_500_000
_STALL = 50  # tabu iterations without a better schedule before a shake
_SHAKE = 10  # random swaps in a shake



@dataclass(frozen=True)
class Schedule:
    """``rows[r][t]``: the players (0..n-1) at table ``t`` of round ``r`` (tables of 4 first)."""

    n: int
    rows: Rows
    repeats: int
    repeated_five: int
    lower_bound: int
    method: str  # how it was made: "construction: …", "construction + draw", "draw", "draw + search"

    @property
    def optimal(self) -> bool:
        """The repeats equal the lower bound: no schedule can have fewer."""
        return self.repeats == self.lower_bound


# --------------------------------------------------------------------------
# Costs and bounds
# --------------------------------------------------------------------------


def schedule_costs(rows) -> tuple[int, int]:
    """``(repeats, repeated_five)`` of a schedule, counted as the draws of its rounds count them."""
    met: set[frozenset] = set()
    at_five: set = set()
    repeats = repeated_five = 0
    for row in rows:
        pairs = [frozenset(pair) for table in row for pair in combinations(table, 2)]
        repeats += sum(1 for pair in pairs if pair in met)
        met.update(pairs)
        fives = [p for table in row if len(table) == 5 for p in table]
        repeated_five += sum(1 for p in fives if p in at_five)
        at_five.update(fives)
    return repeats, repeated_five


def fewest_second_fives(rows, n: int) -> bool:
    """Whether after every round, not only after the last, the seats at a table of 5 taken a second
    time are the fewest possible (`min_repeated_five` of the rounds so far): nobody at a table of 5
    twice while somebody has not been at one. (23 players, 3 rounds: 7 after round 2, not 9.)"""
    seen: set[int] = set()
    seats = 0
    for row in rows:
        fives = [p for table in row if len(table) == 5 for p in table]
        seats += len(fives)
        seen.update(fives)
        if seats - len(seen) > max(0, seats - n):
            return False
    return True


def _order_for_fives(rows: list[list[list[int]]], n: int) -> list[list[list[int]]] | None:
    """``rows`` in the first order of its rounds that has `fewest_second_fives` (a schedule's repeats do
    not depend on the order of its rounds), or None (tried for up to 8 rounds)."""
    if len(rows) > 8:
        return rows if fewest_second_fives(rows, n) else None
    for order in permutations(range(len(rows))):
        reordered = [rows[i] for i in order]
        if fewest_second_fives(reordered, n):
            return reordered
    return None



# --------------------------------------------------------------------------
# The plan
# --------------------------------------------------------------------------


@lru_cache(maxsize=32)
def plan(n: int, rounds: int) -> Schedule:
    """The best schedule found for ``n`` players and ``rounds`` rounds (see the module doc)."""
    sizes = table_sizes(n)
    if not 1 <= rounds <= 255:
        raise ValueError(f"a schedule has 1 to 255 rounds, not {rounds}")
    bound = lower_bound(n, rounds)
    starts: list[tuple[list[list[list[int]]], str]] = []
    built = repeat_free(n, min(rounds, constructible_rounds(n))) if constructible_rounds(n) > 1 else None
    if built is not None:
        rows = _extend_by_draws(n, rounds, [[list(t) for t in row] for row in built[0]])
        starts.append((rows, f"construction: {built[1]}" + (" + draw" if len(built[0]) < rounds else "")))
    found = found_schedule(n, rounds)
    if found is not None:
        found = _order_for_fives(found, n)  # its rounds in an order with the fewest second fives in each
    if found is not None:
        starts.append((found, "found by search (checked in)"))
    elif built is None or len(built[0]) < rounds:
        starts.append((_extend_by_draws(n, rounds, []), "draw"))
    # the fives first: the fewest second seats at a 5 after every round (`fewest_second_fives`), then repeats
    rows, method = min(starts, key=lambda start: (not fewest_second_fives(start[0], n),
                                                  *schedule_costs(start[0])[::-1]))
    repeats, fives = schedule_costs(rows)
    if repeats > bound:
        found = _ScheduleSearch(n, rows, random.Random(f"plan {n}x{rounds}")).run(bound, _SEARCH_EVALUATIONS)
        if found is not None:
            rows, method = found, method + " + search"
            repeats, fives = schedule_costs(rows)
    assert [sorted(map(len, row)) for row in rows] == [sizes] * rounds
    return Schedule(n=n, rows=as_rows(rows), repeats=repeats, repeated_five=fives, lower_bound=bound, method=method)


def _extend_by_draws(n: int, rounds: int, rows: list[list[list[int]]]) -> list[list[list[int]]]:
    """``rows`` and then round-by-round draws (seeded from n and rounds) up to ``rounds`` rounds."""
    players = list(range(n))
    for r in range(len(rows), rounds):
        # exactly what `draw_random` without a plan does, so a plan is what it always was
        draw = seat_round(players, sizes=table_sizes(n), rng=seeded_rng(f"plan {n}x{rounds}/{r + 1}"),
                          history=History.from_rounds(rows), club_of=None, apart_pairs=[])
        rows.append([[cast(int, p) for p in table] for table in draw.tables])
    return rows


class _ScheduleSearch:
    """Tabu search over a whole schedule: a move swaps two players at different tables of one round.

    The cost is the number of repeats (``sum(max(0, c - 1))`` over the pair counts ``c``).  Swaps
    that would seat a player at a table of 5 a second time while another has not been at one, after
    any round, are never made (the start, made by the round-by-round draw, has `fewest_second_fives`),
    so every round keeps the fewest seats at a table of 5 taken a second time.

    Each iteration looks at every player who sits with somebody met more than once (in that
    round) and every swap of that player with a player at another table of the round, and makes
    the best one, even if it makes things worse (ties broken at random), unless the swap is
    *tabu*: the same swap (round and the two players) was made in the last few iterations (a
    random tenure of 4 to 20) and does not give a better schedule than the best seen.  After
    ``_STALL`` iterations without a better schedule, a few random swaps shake the current one
    (the *restart*).  The best schedule seen is kept.  This is the tabu search of Dotú and Van
    Hentenryck for the social golfer problem ("Scheduling social golfers locally", CPAIOR 2005),
    with the rule on tables of 5 added.

    Who met whom is kept as bit masks (``met1[p]``: players ``p`` met at least once, ``met2[p]``:
    at least twice; ``table_mask[r][t]``: the players at table ``t`` of round ``r``), so the
    change of the cost of one swap is a few ``int.bit_count`` calls.
    """

    def __init__(self, n: int, rows: list[list[list[int]]], rng: random.Random):
        self.n, self.rng = n, rng
        self.rows = [[list(t) for t in row] for row in rows]
        self.where = [[0] * n for _ in rows]
        self.table_mask = [[0] * len(row) for row in rows]
        for r, row in enumerate(self.rows):
            for j, table in enumerate(row):
                for p in table:
                    self.where[r][p] = j
                    self.table_mask[r][j] |= 1 << p
        self.count = [bytearray(n) for _ in range(n)]
        self.at_five = [[0] * len(rows) for _ in range(n)]  # at_five[p][r]: 1 if p is at a 5 in round r
        for r, row in enumerate(self.rows):
            for table in row:
                for a, b in combinations(table, 2):
                    self.count[a][b] += 1
                    self.count[b][a] += 1
                if len(table) == 5:
                    for p in table:
                        self.at_five[p][r] = 1
        seats = [sum(len(t) for t in row if len(t) == 5) for row in self.rows]
        totals = [sum(seats[:r + 1]) for r in range(len(rows))]
        # after round r each player has been at a table of 5 at least `low[r]` and at most `high[r]`
        # times: nobody twice while the seats so far leave room for everybody once, and nobody not at
        # all once they do not (`fewest_second_fives`)
        self.low = [int(s >= n) for s in totals]
        self.high = [1 if s <= n else len(rows) for s in totals]
        self.may_join = [0] * n  # bit r: p may take a seat at a 5 in round r (`low`, `high` kept after)
        self.may_leave = [0] * n  # bit r: p may give one up in round r
        for p in range(n):
            self._five_room(p)
        self.met1 = [sum(1 << q for q in range(n) if self.count[p][q] >= 1) for p in range(n)]
        self.met2 = [sum(1 << q for q in range(n) if self.count[p][q] >= 2) for p in range(n)]
        self.repeats = sum(max(0, c - 1) for a in range(n) for c in self.count[a][a + 1:])

    def _five_room(self, p: int) -> None:
        """`may_join` and `may_leave` of p, from p's rounds at a table of 5."""
        join = leave = 0
        times = list(accumulate(self.at_five[p]))
        join_ok = leave_ok = True
        for r in range(len(times) - 1, -1, -1):  # a change in round r counts after every round from r on
            join_ok = join_ok and times[r] + 1 <= self.high[r]
            leave_ok = leave_ok and times[r] - 1 >= self.low[r]
            join |= join_ok << r
            leave |= leave_ok << r
        self.may_join[p], self.may_leave[p] = join, leave

    def _pair(self, a: int, b: int, change: int) -> int:
        """Changes the count of pair a, b by ``change`` (±1); returns the change of the cost."""
        before = self.count[a][b]
        after = before + change
        self.count[a][b] = self.count[b][a] = after
        threshold = max(before, after)  # the count crosses 1 (threshold 1) or 2 (threshold 2)
        if threshold <= 2:
            met = self.met1 if threshold == 1 else self.met2
            met[a] ^= 1 << b
            met[b] ^= 1 << a
        return max(0, after - 1) - max(0, before - 1)

    def _swap(self, r: int, p: int, q: int) -> None:
        where = self.where[r]
        a, b = where[p], where[q]
        table_a, table_b = self.rows[r][a], self.rows[r][b]
        for x in table_a:
            if x != p:
                self.repeats += self._pair(p, x, -1) + self._pair(q, x, +1)
        for y in table_b:
            if y != q:
                self.repeats += self._pair(q, y, -1) + self._pair(p, y, +1)
        table_a[table_a.index(p)] = q
        table_b[table_b.index(q)] = p
        where[p], where[q] = b, a
        moved = (1 << p) | (1 << q)
        self.table_mask[r][a] ^= moved
        self.table_mask[r][b] ^= moved
        if len(table_a) != len(table_b):
            into_five, out_of_five = (q, p) if len(table_a) == 5 else (p, q)
            self.at_five[into_five][r] = 1
            self.at_five[out_of_five][r] = 0
            self._five_room(into_five)
            self._five_room(out_of_five)

    def _five_ok(self, r: int, p: int, q: int, size_p: int, size_q: int) -> bool:
        """Swapping p (at a table of size_p) and q in round r keeps the fewest second fives."""
        if size_p == size_q:
            return True
        into_five, out_of_five = (p, q) if size_q == 5 else (q, p)
        return bool(self.may_join[into_five] >> r & 1 and self.may_leave[out_of_five] >> r & 1)

    def run(self, bound: int, budget: int) -> list[list[list[int]]] | None:
        """Searches until the repeats reach ``bound`` or ``budget`` swaps have been evaluated;
        returns the best schedule seen if it has fewer repeats than the start, else None."""
        rng, n, rounds = self.rng, self.n, len(self.rows)
        met1, met2, may_join, may_leave = self.met1, self.met2, self.may_join, self.may_leave
        start = best = self.repeats
        best_rows = None
        tabu: dict[tuple[int, int, int], int] = {}  # (round, p, q), p < q -> last tabu iteration
        iteration = stall = used = 0
        while best > bound and used < budget:
            iteration += 1
            chosen: list[tuple[int, int, int]] = []
            limit = n * n  # above any change: no move chosen yet
            for r in range(rounds):
                # every swap in round r of a player p who sits with somebody met more than once
                masks, row, where = self.table_mask[r], self.rows[r], self.where[r]
                own: list[int] = []  # own[q]: pairs of q's table that q met more than once
                for a, table_a in enumerate(row):
                    mask_a, size_a = masks[a], len(table_a)
                    to_a: list[int] = []  # to_a[q]: players of table a that q has met
                    for p in table_a:
                        loss_p = (met2[p] & mask_a).bit_count()
                        if not loss_p:
                            continue
                        if not own:
                            own = [(met2[q] & masks[where[q]]).bit_count() for q in range(n)]
                        if not to_a:
                            to_a = [(met1[q] & mask_a).bit_count() for q in range(n)]
                        met_p = met1[p]
                        for b, table_b in enumerate(row):
                            if b == a:
                                continue
                            gain_p = (met_p & masks[b]).bit_count() - loss_p
                            size_b = len(table_b)
                            used += size_b
                            for q in table_b:
                                change = gain_p - 2 * (met_p >> q & 1) + to_a[q] - own[q]
                                if change > limit:
                                    continue
                                if size_a != size_b:  # the rule on tables of 5 (see _five_ok)
                                    into, out = (p, q) if size_b == 5 else (q, p)
                                    if not (may_join[into] >> r & 1 and may_leave[out] >> r & 1):
                                        continue
                                if (tabu.get((r, p, q) if p < q else (r, q, p), 0) >= iteration
                                        and self.repeats + change >= best):
                                    continue
                                if change < limit:
                                    limit, chosen = change, [(r, p, q)]
                                else:
                                    chosen.append((r, p, q))
            if not chosen:
                stall = _STALL  # every move is tabu: shake
            else:
                r, p, q = rng.choice(chosen)
                self._swap(r, p, q)
                tabu[(r, p, q) if p < q else (r, q, p)] = iteration + rng.randint(4, 20)
                if self.repeats < best:
                    best, best_rows, stall = self.repeats, [[list(t) for t in row] for row in self.rows], 0
                else:
                    stall += 1
            if stall >= _STALL:
                stall = 0
                for _ in range(_SHAKE):
                    r = rng.randrange(rounds)
                    p, q = rng.randrange(n), rng.randrange(n)
                    table_p, table_q = self.rows[r][self.where[r][p]], self.rows[r][self.where[r][q]]
                    if table_p is not table_q and self._five_ok(r, p, q, len(table_p), len(table_q)):
                        self._swap(r, p, q)
        return best_rows if best < start else None


# --------------------------------------------------------------------------
# Labelling: who plays which part of the schedule
# --------------------------------------------------------------------------

_LABEL_EVALUATIONS = 300_000


def labelling(schedule: Schedule, rng: random.Random, *, clubs: Sequence[int] | None = None,
              apart: Sequence[tuple[int, int]] = ()) -> list[int]:
    """``label[i]``: the player (a position ``0..n-1`` in the list of players) who plays the
    schedule's player ``i``.  Any labelling keeps the repeats of the schedule.

    A seeded shuffle; then, if ``clubs`` (club number per player, -1 for none) or ``apart``
    (pairs of players) are given, improved by a local search that swaps the parts of two players:
    first the fewest pairs to keep apart at one table in any planned round (one in an earlier
    round weighs more), then the fewest pairs of one club at one table in round 1.  It stops when
    nothing is left to improve, after a long stretch without a better labelling or after
    ``_LABEL_EVALUATIONS`` evaluated swaps.
    """
    n = schedule.n
    label = list(range(n))
    rng.shuffle(label)
    club = list(clubs) if clubs is not None else [-1] * n
    if not apart and not any(club.count(c) > 1 for c in set(club) if c >= 0):
        return label
    rows = schedule.rows
    where = [[0] * n for _ in rows]  # where[r][i]: table of the schedule's player i in round r
    for r, row in enumerate(rows):
        for t, table in enumerate(row):
            for i in table:
                where[r][i] = t
    role = [0] * n  # role[p]: the schedule's player that player p plays
    for i, p in enumerate(label):
        role[p] = i
    partners: list[list[int]] = [[] for _ in range(n)]
    for a, b in apart:
        partners[a].append(b)
        partners[b].append(a)
    first_row = where[0]
    club_count: list[dict[int, int]] = [{} for _ in rows[0]]  # per table of round 1: club -> players
    for p in range(n):
        if club[p] >= 0:
            counts = club_count[first_row[role[p]]]
            counts[club[p]] = counts.get(club[p], 0) + 1

    # an apart pair at one table weighs more the earlier the round (the draw follows the plan
    # until the first round that seats such a pair)
    weights = list(range(len(rows), 0, -1))

    def together(i: int, j: int) -> int:
        return sum(weight for w, weight in zip(where, weights, strict=True) if w[i] == w[j])

    apart_weight = 1 + 10 * len(rows[0])  # > the club pairs of any round 1

    def conflicts(p: int) -> int:
        cost = apart_weight * sum(together(role[p], role[x]) for x in partners[p])
        if club[p] >= 0:
            cost += club_count[first_row[role[p]]][club[p]] - 1
        return cost

    def delta(p: int, q: int) -> int:
        i, j = role[p], role[q]
        change = apart_weight * (sum(together(j, role[x]) - together(i, role[x]) for x in partners[p] if x != q)
                                 + sum(together(i, role[x]) - together(j, role[x]) for x in partners[q] if x != p))
        ti, tj = first_row[i], first_row[j]
        if ti != tj and club[p] != club[q]:
            if club[p] >= 0:
                change += club_count[tj].get(club[p], 0) - (club_count[ti][club[p]] - 1)
            if club[q] >= 0:
                change += club_count[ti].get(club[q], 0) - (club_count[tj][club[q]] - 1)
        return change

    def swap(p: int, q: int) -> None:
        i, j = role[p], role[q]
        for player, old, new in ((p, i, j), (q, j, i)):
            if club[player] >= 0:
                club_count[first_row[old]][club[player]] -= 1
                club_count[first_row[new]][club[player]] = club_count[first_row[new]].get(club[player], 0) + 1
        role[p], role[q] = j, i

    cost = sum(conflicts(p) for p in range(n)) // 2
    sizes = [len(t) for t in rows[0]]
    members: dict[int, int] = {}
    for c in club:
        if c >= 0:
            members[c] = members.get(c, 0) + 1
    floor = sum(fewest_pairs(k, sizes) for k in members.values())
    best_cost, best_role = cost, list(role)
    used = stall = 0
    while best_cost > floor and used < _LABEL_EVALUATIONS and stall < 50 + 10 * n:
        bad = [p for p in range(n) if conflicts(p)]
        p = rng.choice(bad)
        if rng.random() < 0.1:
            q = rng.randrange(n - 1)
            q += q >= p
            change = delta(p, q)
            used += 1
        else:
            changes = [(delta(p, q), q) for q in range(n) if q != p]
            used += n
            change = min(changes)[0]
            q = rng.choice([q for d, q in changes if d == change])
        swap(p, q)
        cost += change
        if cost < best_cost:
            best_cost, best_role, stall = cost, list(role), 0
        else:
            stall += 1
    label = [0] * n
    for p, i in enumerate(best_role):
        label[i] = p
    return label
