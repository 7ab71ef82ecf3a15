"""Repeat-free schedules by construction (pure Python, no Django): finite fields, transversal
designs and the special constructions for 24, 28 and 32 players, and schedules found by search and
checked in as data.  `seating.schedules` explains where each is used.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

__all__ = ["Rows", "as_rows", "constructible_rounds", "found_schedule", "repeat_free"]

_MAX_FIELD = 256  # finite fields up to this order are built for the transversal designs

Rows = tuple[tuple[tuple[int, ...], ...], ...]



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


def found_schedule(n: int, rounds: int) -> list[list[list[int]]] | None:
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
def repeat_free(n: int, rounds: int) -> tuple[Rows, str] | None:
    """A repeat-free schedule by construction, or None.  With the construction's name."""
    if rounds < 1 or n % 4 or n < 4:
        return None
    if rounds == 1:
        return (tuple(tuple(range(s, s + 4)) for s in range(0, n, 4)),), "one round"
    m = n // 4
    design = _transversal_design(m)
    name = f"RTD(4, {m})"
    if design is not None and rounds <= m:
        return as_rows(design[:rounds]), name
    inner = repeat_free(m, rounds - m) if design is not None else None
    if design is not None and inner is not None:
        # players of one group never met: each group plays the inner schedule, side by side
        extra = [[[i * m + x for x in table] for i in range(4) for table in row] for row in inner[0]]
        return as_rows(design + extra), f"{name} + in each group: {inner[1]}"
    if n in _SPECIAL:
        build, special_name = _SPECIAL[n]
        built = build()
        if built is not None and rounds <= len(built):
            return as_rows(built[:rounds]), special_name
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


def as_rows(rounds) -> Rows:
    """Tables as tuples, in the order of ``table_sizes`` (size, then as given)."""
    return tuple(tuple(sorted((tuple(t) for t in row), key=len)) for row in rounds)


