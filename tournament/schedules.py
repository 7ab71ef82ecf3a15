"""Seating schedules: all planned rounds of a tournament at once (pure Python, no Django).

A schedule seats ``n`` players, numbered ``0 .. n-1``, for ``R`` rounds at the tables of
:func:`tournament.draw.table_sizes` (tables of 4 first, then the tables of 5).  Its cost is
counted as the round-by-round draw counts it, summed over the rounds:

- ``repeated_five``: seats at a table of 5 taken by a player who had been at one before;
- ``repeats``: pairs at one table who had already met in an earlier round (a pair that meets
  ``k`` times counts ``k - 1``).

:func:`plan` returns the best schedule it finds for ``(n, R)``: first the fewest repeated fives
(``max(0, 5 * fives * R - n)``, always reached), then the fewest repeats.  It is deterministic
(no randomness that is not seeded from ``n`` and ``R``, no time limits), so every process computes
the same plan; the draw maps it onto the players with a seeded random labelling
(:func:`tournament.draw.draw_random` with ``rounds_planned``).

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
       (:func:`tournament.draw.draw_random`, seeded from ``n`` and ``R``) adds the rounds one
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
from itertools import combinations
from typing import cast

from .draw import History, draw_random, fewest_pairs, pigeonhole_bound, table_sizes

__all__ = [
    "Schedule", "constructible_rounds", "labelling", "lower_bound", "min_repeated_five", "plan", "schedule_costs",
]

# Steps of the whole-schedule search (about a second when a plan cannot reach its lower bound;
# most plans reach it without any search).
_SEARCH_EVALUATIONS = 1_500_000
_STALL = 50  # tabu iterations without a better schedule before a shake
_SHAKE = 10  # random swaps in a shake
_MAX_FIELD = 256  # finite fields up to this order are built for the transversal designs


Rows = tuple[tuple[tuple[int, ...], ...], ...]


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


def min_repeated_five(n: int, rounds: int) -> int:
    """Fewest seats at a table of 5 taken a second time: everybody once before anybody twice."""
    return max(0, 5 * table_sizes(n).count(5) * rounds - n)


def _partner_bound(n: int, rounds: int) -> int:
    """Repeats forced by counting partners (see the module doc)."""
    sizes = table_sizes(n)
    seats_at_five = 5 * sizes.count(5) * rounds
    low, extra = divmod(seats_at_five, n)  # `extra` players sit at a table of 5 once more
    excess = (n - extra) * max(0, 3 * rounds + low - (n - 1)) + extra * max(0, 3 * rounds + low + 1 - (n - 1))
    return (excess + 1) // 2


def lower_bound(n: int, rounds: int) -> int:
    """No schedule of ``n`` players for ``rounds`` rounds has fewer repeats (see the module doc)."""
    sizes = table_sizes(n)
    if rounds <= 1:
        return 0
    per_round = pigeonhole_bound(sizes, sizes)
    return max(_partner_bound(n, first) + (rounds - first) * per_round for first in range(1, rounds + 1))


# --------------------------------------------------------------------------
# Constructions
# --------------------------------------------------------------------------


def _prime_powers(m: int) -> list[tuple[int, int]] | None:
    """``m`` as a product of prime powers ``(p, k)``, or None when ``m < 1``."""
    if m < 1:
        return None
    factors = []
    p = 2
    while p * p <= m:
        if m % p == 0:
            k = 0
            while m % p == 0:
                m //= p
                k += 1
            factors.append((p, k))
        p += 1
    if m > 1:
        factors.append((m, 1))
    return factors


def _poly_mod(a: list[int], f: list[int], p: int) -> list[int]:
    """``a mod f`` over GF(p); coefficients lowest first, ``f`` monic."""
    a = list(a)
    while len(a) >= len(f):
        lead = a[-1]
        if lead:
            shift = len(a) - len(f)
            for i, c in enumerate(f):
                a[shift + i] = (a[shift + i] - lead * c) % p
        a.pop()
    return a


def _irreducible(p: int, k: int) -> list[int]:
    """The first monic irreducible polynomial of degree ``k`` over GF(p) (lowest coefficient first)."""

    def monic(degree: int):
        for code in range(p**degree):
            coefficients = [(code // p**i) % p for i in range(degree)]
            yield [*coefficients, 1]

    for f in monic(k):
        if all(any(_poly_mod(f, g, p)) for d in range(1, k // 2 + 1) for g in monic(d)):
            return f
    raise AssertionError(f"no irreducible polynomial of degree {k} over GF({p})")  # pragma: no cover


class _Field:
    """GF(p^k) with elements ``0 .. q-1`` (base-p digits = polynomial coefficients, modulo the first
    irreducible polynomial of degree k): an addition table, multiplication by 0, 1, 2, 3 as tables
    (what the transversal designs need) and :meth:`multiply`."""

    def __init__(self, p: int, k: int):
        self.p, self.k, self.q = p, k, p**k
        self.digits = [[(x // p**i) % p for i in range(k)] for x in range(self.q)]
        self.modulus = _irreducible(p, k)
        self.add = [[self._encode([(a + b) % p for a, b in zip(self.digits[x], self.digits[y], strict=True)])
                     for y in range(self.q)] for x in range(self.q)]
        self.times = [[self.multiply(e, x) for x in range(self.q)] for e in range(4)]  # times[e][x] = e * x

    def _encode(self, coefficients: list[int]) -> int:
        return sum(c * self.p**i for i, c in enumerate(coefficients))

    def multiply(self, x: int, y: int) -> int:
        p, k = self.p, self.k
        product = [0] * (2 * k)
        for i, a in enumerate(self.digits[x]):
            for j, b in enumerate(self.digits[y]):
                product[i + j] = (product[i + j] + a * b) % p
        return self._encode((_poly_mod(product, self.modulus, p) + [0] * k)[:k])


@lru_cache(maxsize=16)
def _transversal_design(m: int) -> list[list[list[int]]] | None:
    """The ``m`` rounds of a resolvable TD(4, m) on ``4m`` players (player ``i*m + x``: element
    ``x`` of group ``i``), or None when ``m`` is not a product of prime powers from 4 to
    ``_MAX_FIELD``.  Elements of the product of fields are encoded in mixed radix."""
    factors = _prime_powers(m)
    if not factors or any(p**k < 4 or p**k > _MAX_FIELD for p, k in factors):
        return None
    fields = [_Field(p, k) for p, k in factors]

    def split(x: int) -> list[int]:
        parts = []
        for field in fields:
            x, r = divmod(x, field.q)
            parts.append(r)
        return parts

    def join(parts: list[int]) -> int:
        x = 0
        for field, part in zip(reversed(fields), reversed(parts), strict=True):
            x = x * field.q + part
        return x

    elements = [split(x) for x in range(m)]
    rounds = []
    for a in elements:
        # a * e_i for the four groups, then + b for every b: one table per b
        scaled = [[field.times[e][ai] for field, ai in zip(fields, a, strict=True)] for e in range(4)]
        tables = []
        for b in elements:
            tables.append([i * m + join([field.add[s][bj] for field, s, bj in zip(fields, scaled[i], b, strict=True)])
                           for i in range(4)])
        rounds.append(tables)
    return rounds


def _gf2_solve(equations: list[tuple[int, int]]) -> int | None:
    """Solves a linear system over GF(2): each equation is (bit mask of its variables, right-hand
    side).  Returns the variables as a bit mask (free variables 0), or None if there is no solution."""
    pivots: dict[int, tuple[int, int]] = {}  # pivot bit -> reduced equation
    for mask, rhs in equations:
        for bit, (pivot_mask, pivot_rhs) in pivots.items():
            if mask >> bit & 1:
                mask, rhs = mask ^ pivot_mask, rhs ^ pivot_rhs
        if not mask:
            if rhs:
                return None
            continue
        bit = mask.bit_length() - 1
        for other, (other_mask, other_rhs) in pivots.items():
            if other_mask >> bit & 1:
                pivots[other] = (other_mask ^ mask, other_rhs ^ rhs)
        pivots[bit] = (mask, rhs)
    return sum(1 << bit for bit, (_mask, rhs) in pivots.items() if rhs)


def _two_disjoint_spreads() -> tuple[list[frozenset[int]], list[frozenset[int]]]:
    """Two spreads of PG(3, 2) without a common line: each a set of 5 two-dimensional subspaces of
    GF(2)^4 (as their 3 non-zero vectors, 1..15) that share no vector.  Found by backtracking, the
    first in a fixed order (every spread has 30 spreads disjoint from it)."""
    lines = sorted({frozenset((a, b, a ^ b)) for a in range(1, 16) for b in range(a + 1, 16)}, key=sorted)

    def spread(allowed: list[frozenset[int]]) -> list[frozenset[int]]:
        chosen: list[frozenset[int]] = []

        def extend(covered: frozenset[int]) -> bool:
            if len(covered) == 15:
                return True
            point = min(set(range(1, 16)) - covered)
            for line in allowed:
                if point in line and not line & covered:
                    chosen.append(line)
                    if extend(covered | line):
                        return True
                    chosen.pop()
            return False

        extend(frozenset())
        return chosen

    first = spread(lines)
    return first, spread([line for line in lines if line not in first])


@lru_cache(maxsize=1)
def _doubled_planes() -> list[list[list[int]]] | None:
    """10 repeat-free rounds of 32 players (the original social golfer problem, 8-4-10).

    Sixteen "letters" are the vectors of GF(2)^4; each letter is played by two players, ``2x``
    and ``2x + 1``.  Two spreads of PG(3, 2) without a common line give 10 two-dimensional
    subspaces W; every non-zero vector lies in exactly two of them, so every pair of letters
    {x, y} lies in a coset of exactly two of them (the two containing x + y).  Round W: each coset
    B of W (4 letters) gives two tables, one player of every letter of B at each: player
    ``2x + s_x`` at the first, ``2x + 1 - s_x`` at the second, with a sign ``s_x`` per letter and
    coset.  Players of letters x and y then meet in the coset's round if their bits differ as
    ``s_x + s_y`` does; so all four pairs of players of x and y meet exactly once if the two cosets
    containing x and y have different ``s_x + s_y``: 120 linear equations over GF(2) in the 160
    signs, solved by elimination (solvable for every pair of disjoint spreads).  The two players
    of a letter never meet: everybody meets 30 of the other 31 exactly once.
    """
    cosets: list[list[list[int]]] = []  # cosets[round] = the 4 cosets (letters) of its subspace
    for spread in _two_disjoint_spreads():
        for line in spread:
            a, b = sorted(line)[:2]
            cosets.append([[x, x ^ a, x ^ b, x ^ a ^ b] for x in range(16) if x < min(x ^ a, x ^ b, x ^ a ^ b)])
    sign_bit: dict[tuple[int, int, int], int] = {}  # (round, coset, letter) -> variable
    holders: dict[tuple[int, int], list[tuple[int, int]]] = {}  # letter pair -> its (round, coset)s
    for r, row in enumerate(cosets):
        for c, letters in enumerate(row):
            for x in letters:
                sign_bit[(r, c, x)] = len(sign_bit)
            for x, y in combinations(sorted(letters), 2):
                holders.setdefault((x, y), []).append((r, c))
    equations = []
    for (x, y), places in holders.items():
        mask = 0
        for r, c in places:
            mask ^= (1 << sign_bit[(r, c, x)]) ^ (1 << sign_bit[(r, c, y)])
        equations.append((mask, 1))
    signs = _gf2_solve(equations)
    if signs is None:  # pragma: no cover - does not happen for any pair of disjoint spreads
        return None
    rounds = []
    for r, row in enumerate(cosets):
        tables = []
        for c, letters in enumerate(row):
            bits = [signs >> sign_bit[(r, c, x)] & 1 for x in letters]
            tables.append([2 * x + s for x, s in zip(letters, bits, strict=True)])
            tables.append([2 * x + 1 - s for x, s in zip(letters, bits, strict=True)])
        rounds.append(tables)
    return rounds


@lru_cache(maxsize=1)
def _hermitian_unital() -> list[list[list[int]]]:
    """9 repeat-free rounds of 28 players, in which every pair meets exactly once.

    The Hermitian unital of order 3: the 28 points of the curve x^4 + y^4 + z^4 = 0 in the
    projective plane over GF(9); every line meeting it in 4 points is a table (63 tables, every
    pair of points on exactly one of them).  Its tables fall into 9 rounds of 7 (a resolution);
    the rounds are found by backtracking over the 63 ways to seat all 28 at 7 of these tables
    (exact cover, the first in a fixed order; it takes milliseconds).
    """
    gf9 = _Field(3, 2)
    add, mul = gf9.add, gf9.multiply
    points = [(x, y, 1) for x in range(9) for y in range(9)] + [(x, 1, 0) for x in range(9)] + [(1, 0, 0)]

    def fourth_power(x: int) -> int:
        return mul(mul(x, x), mul(x, x))

    curve = [v for v in points if add[add[fourth_power(v[0])][fourth_power(v[1])]][fourth_power(v[2])] == 0]
    blocks = []
    for line in points:  # a line is given by the coefficients of its equation, a point of the dual plane
        on = [i for i, v in enumerate(curve)
              if add[add[mul(line[0], v[0])][mul(line[1], v[1])]][mul(line[2], v[2])] == 0]
        if len(on) == 4:
            blocks.append(on)
    masks = [sum(1 << i for i in block) for block in blocks]
    everybody = (1 << len(curve)) - 1

    def exact_covers(sets: list[int], full: int, first_only: bool) -> list[list[int]]:
        """The ways to cover the bits of ``full`` by disjoint ``sets`` (indices), by backtracking on the
        lowest uncovered bit."""
        found: list[list[int]] = []

        def extend(covered: int, chosen: list[int]) -> bool:
            if covered == full:
                found.append(list(chosen))
                return first_only
            bit = (~covered & full & -(~covered & full)).bit_length() - 1
            for j, mask in enumerate(sets):
                if mask >> bit & 1 and not mask & covered:
                    chosen.append(j)
                    if extend(covered | mask, chosen):
                        return True
                    chosen.pop()
            return False

        extend(0, [])
        return found

    rounds = exact_covers(masks, everybody, first_only=False)  # all the ways to seat everybody once
    resolution = exact_covers([sum(1 << j for j in r) for r in rounds], (1 << len(blocks)) - 1, first_only=True)[0]
    return [[blocks[j] for j in rounds[r]] for r in resolution]


# The base round of 24 players for :func:`_cyclic_24`: players 7i + x for x in Z_7, i = 0, 1, 2, and
# the fixed players 21, 22, 23.  Found once by an exact backtracking search (first solution in
# the order of the players, about a second) and checked by the tests.
_BASE_24 = ((0, 1, 3, 7), (2, 11, 14, 21), (4, 15, 19, 20), (5, 10, 18, 22), (6, 9, 16, 23), (8, 12, 13, 17))


@lru_cache(maxsize=1)
def _cyclic_24() -> list[list[list[int]]]:
    """7 repeat-free rounds of 24 players (the social golfer problem 6-4-7; 24 players cannot play
    8: each would need 24 partners among 23).

    A 1-rotational construction over Z_7: 21 players (x, i), x in Z_7, in three classes i (player
    ``7i + x``), and three fixed players.  Round t is the base round with every x shifted by t, the
    fixed players staying.  Two players meet in round t when the base round has a pair of the same
    *kind*: (x, i) and (x + d, i) for one i and ±d, (x, i) and (x + d, j) for i < j and d, or a fixed
    player and class i.  There are 3·3 + 3·7 + 3·3 = 39 kinds, each met in 7 rounds by 7 pairs, and
    the base round's 36 pairs are of 36 different kinds (the three fixed players at different
    tables): so no pair meets twice in the 7 rounds.
    """
    return [[[p if p >= 21 else p // 7 * 7 + (p + t) % 7 for p in table] for table in _BASE_24] for t in range(7)]


# Repeat-free schedules (with the fewest second seats at a table of 5) that the tabu search found
# only with more time than a plan may take: `scripts/bench_seating.py --long` (the search of the
# plan continued from it, 6 million swap evaluations, seeds 0 and 1), checked in as data.  Players
# are letters (a = 0, ..., z = 25, A = 26, ...), tables separated by spaces, one string per round.
_FOUND: dict[int, tuple[str, ...]] = {
    25: ("afpu blvx gikw hoqr jsty cdemn", "amqv binr ckoy efjw gltu dhpsx", "bduw cghj fqtx kmrs nopv aeily",
         "ajox bekp dgqy flns himu crtvw", "abcs diot egrx fhvy lmpw jknqu", "ahkt cipq djlr esuv nwxy bfgmo"),
    31: ("aqux bcjv fsDE gmpw deiyA hkrtB lnozC", "aoBE ckqy fgnu hixC bdlmD ejpst rvwzA",
         "acez bprE dgqt ilsv fhowy jmnxB kuACD", "atwD dsuz ijor mqvE bgyBC chnpA efklx",
         "dfpv eqrC ghjD mosA abikn cluwB txyzE", "aglA behu nrsy ovxD cfmtC djkwE ipqzB"),
}
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _found(n: int, rounds: int) -> list[list[list[int]]] | None:
    """The schedule of ``_FOUND`` for ``n`` players and ``rounds`` rounds, or None.  (Only for its own
    number of rounds: its first rounds can have more second seats at a table of 5 than needed.)"""
    if n not in _FOUND or rounds != len(_FOUND[n]):
        return None
    return [[[_LETTERS.index(c) for c in table] for table in row.split()] for row in _FOUND[n]]


# constructions for one player count: how to build, the name
_SPECIAL: dict[int, tuple] = {24: (_cyclic_24, "1-rotational over Z_7"),
                              28: (_hermitian_unital, "Hermitian unital of order 3"),
                              32: (_doubled_planes, "doubled affine planes")}


@lru_cache(maxsize=64)
def _repeat_free(n: int, rounds: int) -> tuple[Rows, str] | None:
    """A repeat-free schedule by construction, or None.  With the construction's name."""
    if rounds < 1 or n % 4 or n < 4:
        return None
    if rounds == 1:
        return (tuple(tuple(range(s, s + 4)) for s in range(0, n, 4)),), "one round"
    m = n // 4
    design = _transversal_design(m)
    name = f"RTD(4, {m})"
    if design is not None and rounds <= m:
        return _as_rows(design[:rounds]), name
    inner = _repeat_free(m, rounds - m) if design is not None else None
    if design is not None and inner is not None:
        # players of one group never met: each group plays the inner schedule, side by side
        extra = [[[i * m + x for x in table] for i in range(4) for table in row] for row in inner[0]]
        return _as_rows(design + extra), f"{name} + in each group: {inner[1]}"
    if n in _SPECIAL:
        build, special_name = _SPECIAL[n]
        built = build()
        if built is not None and rounds <= len(built):
            return _as_rows(built[:rounds]), special_name
    return None


def constructible_rounds(n: int) -> int:
    """Most rounds for which a construction gives ``n`` players a repeat-free schedule (0: none)."""
    if n % 4 or n < 4:
        return 0
    m = n // 4
    best = m + constructible_rounds(m) if _transversal_design(m) is not None else 1
    if n in _SPECIAL:
        best = max(best, len(_SPECIAL[n][0]()))
    return best


def _as_rows(rounds) -> Rows:
    """Tables as tuples, in the order of ``table_sizes`` (size, then as given)."""
    return tuple(tuple(sorted((tuple(t) for t in row), key=len)) for row in rounds)


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
    built = _repeat_free(n, min(rounds, constructible_rounds(n))) if constructible_rounds(n) > 1 else None
    if built is not None:
        rows = _extend_by_draws(n, rounds, [[list(t) for t in row] for row in built[0]])
        starts.append((rows, f"construction: {built[1]}" + (" + draw" if len(built[0]) < rounds else "")))
    found = _found(n, rounds)
    if found is not None:
        starts.append((found, "found by search (checked in)"))
    elif built is None or len(built[0]) < rounds:
        starts.append((_extend_by_draws(n, rounds, []), "draw"))
    rows, method = min(starts, key=lambda start: schedule_costs(start[0])[::-1])  # fives first
    repeats, fives = schedule_costs(rows)
    if repeats > bound:
        found = _ScheduleSearch(n, rows, random.Random(f"plan {n}x{rounds}")).run(bound, _SEARCH_EVALUATIONS)
        if found is not None:
            rows, method = found, method + " + search"
            repeats, fives = schedule_costs(rows)
    assert [sorted(map(len, row)) for row in rows] == [sizes] * rounds
    return Schedule(n=n, rows=_as_rows(rows), repeats=repeats, repeated_five=fives, lower_bound=bound, method=method)


def _extend_by_draws(n: int, rounds: int, rows: list[list[list[int]]]) -> list[list[list[int]]]:
    """``rows`` and then round-by-round draws (seeded from n and rounds) up to ``rounds`` rounds."""
    players = list(range(n))
    for r in range(len(rows), rounds):
        draw = draw_random(players, seed=f"plan {n}x{rounds}/{r + 1}", history=History.from_rounds(rows))
        rows.append([[cast(int, p) for p in table] for table in draw.tables])
    return rows


class _ScheduleSearch:
    """Tabu search over a whole schedule: a move swaps two players at different tables of one round.

    The cost is the number of repeats (``sum(max(0, c - 1))`` over the pair counts ``c``).  Swaps
    that would seat a player at a table of 5 a second time while the other has not been at one
    are never made (the start, made by the round-by-round draw, already has the fewest repeated
    fives), so the repeated fives never grow.

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
        self.five = [0] * n
        for row in self.rows:
            for table in row:
                for a, b in combinations(table, 2):
                    self.count[a][b] += 1
                    self.count[b][a] += 1
                if len(table) == 5:
                    for p in table:
                        self.five[p] += 1
        self.met1 = [sum(1 << q for q in range(n) if self.count[p][q] >= 1) for p in range(n)]
        self.met2 = [sum(1 << q for q in range(n) if self.count[p][q] >= 2) for p in range(n)]
        self.repeats = sum(max(0, c - 1) for a in range(n) for c in self.count[a][a + 1:])

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
            self.five[into_five] += 1
            self.five[out_of_five] -= 1

    def _five_ok(self, p: int, q: int, size_p: int, size_q: int) -> bool:
        """Swapping p (at a table of size_p) and q keeps the repeated fives from growing."""
        if size_p == size_q:
            return True
        into_five, out_of_five = (p, q) if size_q == 5 else (q, p)
        return (self.five[into_five] >= 1) <= (self.five[out_of_five] >= 2)

    def run(self, bound: int, budget: int) -> list[list[list[int]]] | None:
        """Searches until the repeats reach ``bound`` or ``budget`` swaps have been evaluated;
        returns the best schedule seen if it has fewer repeats than the start, else None."""
        rng, n, rounds = self.rng, self.n, len(self.rows)
        met1, met2, five = self.met1, self.met2, self.five
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
                        met_p, five_p = met1[p], five[p]
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
                                    into, out = (five_p, five[q]) if size_b == 5 else (five[q], five_p)
                                    if into >= 1 and out < 2:
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
                    if table_p is not table_q and self._five_ok(p, q, len(table_p), len(table_q)):
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
