"""Team matches (a league's match day): one player of each team at every table (pure Python, no Django).

``k`` teams of ``n`` players each meet at ``n`` tables of ``k`` (``k`` is the table size, 4 or 5).
Player ``j`` of team ``m`` (``j`` = 0..n-1, in the order given, kept the same in every round) sits in
round ``r`` (0, 1, 2, …) at table

    table(m, j, r) = j + r · m        (arithmetic in a field of n elements)

so every table has exactly one player of each team, and two players of teams ``m`` ≠ ``m'`` sit at
one table in round ``r`` exactly when ``j − j' = r · (m' − m)``. When ``n`` is a prime or a prime
power (2, 3, 4, 5, 7, 8, 9, …; GF(4), GF(8), GF(9) by polynomial arithmetic) and there are at most
``n`` teams, ``m' − m`` is invertible, so over ``n`` rounds **every pair of players of different
teams meets exactly once** (for four teams of four: four rounds, each player meets all twelve
opponents once; ``repeat_free_rounds``). Round ``r`` ≥ ``n`` starts over at ``r mod n``: everybody
has met everybody then.

Where this cannot be had:

- **More teams than players per team** (``k`` > ``n``, e.g. four teams of three): from round 2 on a
  table of ``k`` players drawn from ``n`` < ``k`` tables of round 1 must bring two of them together
  again, whatever the seating (pigeonhole), so repeats are unavoidable; the rule above is used with
  the team numbers taken modulo the field (``repeat_free_rounds`` = 1).
- **``n`` not a prime power** (6, 10, 12, …): no field; the rule is used in the integers modulo ``n``
  (the cyclic rule). Two teams whose numbers differ by ``d`` meet again after ``n / gcd(d, n)``
  rounds, so e.g. four teams of six are repeat-free for 2 rounds only (``repeat_free_rounds`` says
  how many). Four teams of six cannot meet everyone once in six rounds by any seating (that would
  need three mutually orthogonal Latin squares of order 6, which do not exist); a better partial
  seating for such sizes is not attempted here.

Seats: at table ``t`` of round ``r`` the players sit in team order starting with team
``(t + r) mod k``, so every team takes its turn at seat 1 (seat 1 deals first). Tables come in the
order of ``t``; ``seed`` shuffles their numbering (reproducibly, like `seating.draw`), never who
meets whom.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from math import gcd

from .bounds import pigeonhole_bound
from .history import Draw, History, check_unique, count_repeats

__all__ = ["TeamMatchImpossible", "TeamMatchPlan", "repeat_free_rounds", "team_match_plan", "team_match_round"]

TABLE_SIZES = (4, 5)  # how many teams meet: one player of each at a table

# irreducible polynomials for the fields of prime-power order up to 27 (coefficients, lowest first,
# without the leading 1): GF(p^e) = polynomials over GF(p) modulo these
_IRREDUCIBLE = {4: (2, (1, 1)), 8: (2, (1, 1, 0)), 9: (3, (1, 0)), 16: (2, (1, 1, 0, 0)), 25: (5, (2, 0)),
                27: (3, (1, 2, 0))}


class TeamMatchImpossible(ValueError):
    """The teams cannot play a team match: not 4 or 5 teams, or teams of different sizes."""


@dataclass(frozen=True)
class TeamMatchPlan:
    """How ``teams`` teams of ``size`` players are seated, and what that promises."""

    teams: int
    size: int
    field: bool  # arithmetic in a field (``size`` a prime power); else the integers modulo ``size``
    repeat_free_rounds: int  # rounds 1..this are free of repeat meetings (``size`` at best)


def _is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n ** 0.5) + 1))


class _Arithmetic:
    """Addition and multiplication on 0..q-1: a field of prime or prime-power order, else Z_q."""

    def __init__(self, q: int):
        self.q = q
        if q in _IRREDUCIBLE:
            self.p, self.poly = _IRREDUCIBLE[q]
            self.e = len(self.poly)
        else:
            self.p, self.poly, self.e = q, (), 1
        self.field = _is_prime(q) or q in _IRREDUCIBLE

    def _digits(self, x: int) -> list[int]:
        return [(x // self.p ** i) % self.p for i in range(self.e)]

    def _number(self, digits: Sequence[int]) -> int:
        return sum(d * self.p ** i for i, d in enumerate(digits))

    def add(self, a: int, b: int) -> int:
        if self.e == 1:
            return (a + b) % self.q
        return self._number([(x + y) % self.p for x, y in zip(self._digits(a), self._digits(b), strict=True)])

    def mul(self, a: int, b: int) -> int:
        if self.e == 1:
            return (a * b) % self.q
        p, e = self.p, self.e
        product = [0] * (2 * e - 1)
        for i, x in enumerate(self._digits(a)):
            for j, y in enumerate(self._digits(b)):
                product[i + j] = (product[i + j] + x * y) % p
        for degree in range(2 * e - 2, e - 1, -1):  # x^e = -(poly): reduce from the top
            top, product[degree] = product[degree], 0
            for i, c in enumerate(self.poly):
                product[degree - e + i] = (product[degree - e + i] - top * c) % p
        return self._number(product[:e])


def repeat_free_rounds(*, teams: int, size: int) -> int:
    """How many rounds the seating keeps free of repeat meetings (see the module doc)."""
    if size < 1:
        raise ValueError(f"a team of {size} players")
    if teams > size:
        return 1
    arithmetic = _Arithmetic(size)
    if arithmetic.field:
        return size
    # the cyclic rule: teams m and m' meet the same opponents again after size / gcd(m' - m, size) rounds
    return min(size // gcd(d, size) for d in range(1, teams))


def team_match_plan(*, teams: int, size: int) -> TeamMatchPlan:
    return TeamMatchPlan(teams=teams, size=size, field=_Arithmetic(size).field,
                         repeat_free_rounds=repeat_free_rounds(teams=teams, size=size))


def _check(teams: Sequence[Sequence[Hashable]]) -> int:
    if len(teams) not in TABLE_SIZES:
        raise TeamMatchImpossible(f"a team match needs 4 or 5 teams, not {len(teams)}")
    sizes = sorted({len(team) for team in teams})
    if len(sizes) != 1:
        raise TeamMatchImpossible(f"the teams have different numbers of players: {sizes}")
    if sizes[0] < 1:
        raise TeamMatchImpossible("a team without players")
    check_unique([p for team in teams for p in team])
    return sizes[0]


def team_match_tables(teams: Sequence[Sequence[Hashable]], *, round_index: int) -> list[list[Hashable]]:
    """Round ``round_index`` (0 for the first) of ``teams`` (each a list of players, in an order kept
    for all rounds): table ``t`` in seat order (see the module doc)."""
    if round_index < 0:
        raise ValueError(f"round {round_index}")
    k, n = len(teams), _check(teams)
    arithmetic = _Arithmetic(n)
    r = round_index % n
    tables: list[list[Hashable | None]] = [[None] * k for _ in range(n)]
    for m, team in enumerate(teams):
        multiplier = m % n
        shift = arithmetic.mul(r, multiplier)
        for j, player in enumerate(team):
            tables[arithmetic.add(j, shift)][m] = player
    seated = []
    for t, table in enumerate(tables):
        start = (t + r) % k
        seated.append(table[start:] + table[:start])
    return seated  # every seat is filled: j -> j + shift is one-to-one


def team_match_round(teams: Sequence[Sequence[Hashable]], *, round_index: int, history: History | None = None,
                     seed: int | str | None = None) -> Draw:
    """One round of a team match as a `Draw` (its repeats counted against ``history``; the lower bound
    is the pigeonhole bound for tables of this size). ``seed``: the table numbering shuffled."""
    tables = team_match_tables(teams, round_index=round_index)
    if seed is not None:
        random.Random(f"team/{type(seed).__name__}:{seed}").shuffle(tables)
    repeat_meetings, repeated_five = count_repeats(tables, history)
    bound = 0
    if history is not None:
        present = {p for table in tables for p in table}
        sizes = [len(table) for table in tables]
        for earlier in history.rounds:
            groups = [c for table in earlier if (c := sum(1 for p in table if p in present))]
            groups += [1] * (len(present) - sum(groups))
            bound = max(bound, pigeonhole_bound(sizes, groups))
    return Draw(tuple(tuple(t) for t in tables), repeat_meetings, repeated_five, lower_bound=bound)
