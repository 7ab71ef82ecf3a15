"""Places from a ranking key, shared where the keys are equal: pure Python, no Django.

Used by every ranking of `scoring` that is not a table's placement (teams, league, Rangliste): the
items are ordered by their key, highest first; items with equal keys share the best of their places
("1, 2, 2, 4") and are listed by their name, so that the order of the input never matters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Placed(Generic[T]):
    """One item and its place; `shared`: how many items hold this place (1: nobody else)."""

    place: int
    shared: int
    item: T

    @property
    def is_shared(self) -> bool:
        return self.shared > 1


def placed(items: Iterable[T], *, key: Callable[[T], tuple[Any, ...]], name: Callable[[T], str]) -> list[Placed[T]]:
    """`items` in order of `key` (higher is better), equal keys sharing a place; `name` orders the
    items of a shared place and makes the order independent of the input's."""
    ordered = sorted(items, key=name)
    ordered.sort(key=key, reverse=True)  # stable: equal keys stay in the order of their names
    result: list[Placed[T]] = []
    index = 0
    while index < len(ordered):
        group_key = key(ordered[index])
        end = index
        while end < len(ordered) and key(ordered[end]) == group_key:
            end += 1
        result.extend(Placed(place=index + 1, shared=end - index, item=item) for item in ordered[index:end])
        index = end
    return result
