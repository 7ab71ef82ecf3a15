"""Lower bounds on repeat meetings (pure Python, no Django): no seating, and no schedule, can have
fewer.

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

from collections.abc import Sequence

from .sizes import table_sizes

__all__ = ["fewest_pairs", "lower_bound", "min_repeated_five", "pigeonhole_bound"]


def fewest_pairs(items: int, capacities: Sequence[int]) -> int:
    """Fewest pairs sharing a bin when ``items`` go into bins of these capacities (spread evenly)."""
    counts = [0] * len(capacities)
    for _ in range(items):
        open_bins = [j for j in range(len(capacities)) if counts[j] < capacities[j]]
        if not open_bins:
            raise ValueError("more items than room")
        counts[min(open_bins, key=lambda j: counts[j])] += 1
    return sum(c * (c - 1) // 2 for c in counts)


def pigeonhole_bound(sizes: Sequence[int], earlier: Sequence[int]) -> int:
    """Fewest pairs who sat together at one of the tables ``earlier`` (an earlier round's table
    sizes; players who did not play then count as tables of 1) and sit together again at the
    tables ``sizes``: a table of s players drawn from fewer than s earlier tables must bring two
    of them together again.  The larger of two relaxations (each new table on its own, each old
    table on its own), so a bound, not always reached."""
    if len(earlier) >= max(sizes) and len(sizes) >= max(earlier):
        return 0
    by_new = sum(fewest_pairs(s, earlier) for s in sizes)
    by_old = sum(fewest_pairs(g, sizes) for g in earlier)
    return max(by_new, by_old)


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


