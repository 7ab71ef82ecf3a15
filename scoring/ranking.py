"""Ranking a tournament other than by the sum of game points: pure Python, no Django.

- **Tischpunkte** (`table_points`): in each round, the players of a table are placed by their points
  at that table in that round. Place p of n players is worth n + 1 − 2p table points: +3/+1/−1/−3 at
  a table of 4, +4/+2/0/−2/−4 at a table of 5. Players with the same points share their places and
  get the average of the places' values. The values go down in steps of 2, so the average of k
  places in a row is the first value minus (k − 1): always a whole number, and a table's table
  points always sum to zero.
- **Schnitt** (`average`): the game points per round played, for fields where not everyone played
  every round. Kept exact (a fraction); rounding is for showing only.

Every number carries what explains it (`Placement`): the Django side words it
("Runde 2, Tisch 3: Platz 2 von 4 (geteilt) → +1").
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def place_value(place: int, size: int) -> int:
    """The table points of place `place` (1 = best) at a table of `size` players."""
    return size + 1 - 2 * place


@dataclass(frozen=True)
class Placement:
    """One player's placement at one table in one round, and the table points it is worth."""

    place: int  # 1 = most points; tied players all get the best of their places
    size: int  # players at the table
    shared: int  # how many players share this place (1: nobody else)
    points: int  # the player's game points at the table (what the placement is by)
    table_points: int

    @property
    def is_shared(self) -> bool:
        return self.shared > 1

    @property
    def places(self) -> range:
        """The places the tied players share, e.g. range(2, 4) for places 2 and 3."""
        return range(self.place, self.place + self.shared)


def table_points(points: Mapping[K, int], size: int | None = None) -> dict[K, Placement]:
    """Each player's placement at a table from their game points there (`points`: player -> points).
    `size`: the players at the table, when some of them are not in `points` (they count with 0)."""
    size = len(points) if size is None else size
    if size < len(points):
        raise ValueError(f"{len(points)} players at a table of {size}")
    ordered = sorted(points.values(), reverse=True) + [0] * (size - len(points))
    ordered.sort(reverse=True)
    placements: dict[int, tuple[int, int, int]] = {}  # points -> (place, shared, table points)
    index = 0
    while index < size:
        value = ordered[index]
        shared = ordered.count(value)
        total = sum(place_value(place, size) for place in range(index + 1, index + 1 + shared))
        # the places' values are an arithmetic progression with step 2: the average is whole
        assert total % shared == 0, (total, shared)
        placements[value] = (index + 1, shared, total // shared)
        index += shared
    return {player: Placement(place=placements[p][0], size=size, shared=placements[p][1], points=p,
                              table_points=placements[p][2])
            for player, p in points.items()}


def average(points: int, rounds: int) -> Fraction | None:
    """Game points per round played, exactly; None without a round played."""
    return Fraction(points, rounds) if rounds else None
