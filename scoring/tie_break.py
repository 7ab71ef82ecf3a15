"""Why a row of a ranking stands where it stands when it is level with the row above: pure Python, no
Django.

Every ranking of `scoring` other than a table's placement (teams and a club ranking, the league
table, a cup group, the Rangliste) places its rows by one value, then by its tie-breaks in a fixed
order (`places.placed` with the key (value, *tie-breaks)). A row level in that value with the row
above gets a `TieBreak`: the first criterion whose values differ decided, with the row's value
against the one above's; or none did, and the two share the place. The criteria are each ranking's
own codes (`teams.Tie`, `league.LeagueTie`, `league.CupTie`, `rangliste.RanglisteTie`); the Django
side words them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

C = TypeVar("C")


@dataclass(frozen=True, kw_only=True)
class TieBreak(Generic[C]):
    """Why a row level with the row above it (`above`) stands where it stands: `criterion` decided
    with `ours` against `theirs`; None: nothing did, they share the place."""

    above: str
    criterion: C | None
    ours: int
    theirs: int


def tie_break(above: str, values: Iterable[tuple[C, int, int]], *, level: tuple[int, int] | None = None
              ) -> TieBreak[C]:
    """The tie-break between a row and the row above it (`above`), level in what ranks them first.
    `values`: each criterion in the order they are tried, as (criterion, ours, theirs); the first
    whose values differ decides. When none does, `ours` and `theirs` are `level` (the values they
    are level in) or, without it, the first criterion's values."""
    first: tuple[int, int] | None = None
    for criterion, ours, theirs in values:
        if ours != theirs:
            return TieBreak(above=above, criterion=criterion, ours=ours, theirs=theirs)
        if first is None:
            first = (ours, theirs)
    shown = level if level is not None else first
    if shown is None:
        raise ValueError("a tie-break without criteria needs the values the rows are level in")
    return TieBreak(above=above, criterion=None, ours=shown[0], theirs=shown[1])
