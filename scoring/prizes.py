"""A prize list: places overall and the best of each category (Damen, Jugend, …); pure Python.

The rules (docs/competitions.md, "Categories and the prize list"):
- The input is the standings in order: each player's key and overall place (shared places allowed).
- **Overall prizes** go to every player placed up to `overall`; a place shared across that line gives
  a prize to everyone sharing it (as the Rangliste's cut lines do: the sources name no other rule).
- **Category prizes**, category by category in the given order: the best `per_category` players of the
  category, by their overall place. With `once` (the default: one prize per player), a player who has
  a prize already (overall, or an earlier category) is passed over and the next one of the category
  gets it. A place shared across a category's line likewise gives everyone sharing it a prize.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Prize:
    player: str
    place: int  # the overall place
    category: str | None  # None: an overall prize
    rank: int  # 1, 2, … within its list (overall or the category), shared places sharing it


@dataclass(frozen=True, kw_only=True)
class PrizeList:
    overall: tuple[Prize, ...]
    categories: tuple[tuple[str, tuple[Prize, ...]], ...]  # in the given order; an empty tuple: nobody left
    passed_over: tuple[tuple[str, str], ...]  # (category, player): best of it, but prized already


def prize_list(*, standings: Sequence[tuple[str, int]], categories: Mapping[str, frozenset[str] | set[str]],
               order: Sequence[str], overall: int = 3, per_category: int = 1, once: bool = True) -> PrizeList:
    """`standings`: (player, overall place) best first; `categories`: player -> their categories;
    `order`: the categories in the order their prizes are given."""
    if overall < 0 or per_category < 0:
        raise ValueError("prize counts are not negative")
    places = [place for _player, place in standings]
    if places != sorted(places) or len({player for player, _p in standings}) != len(standings):
        raise ValueError("standings best first, each player once")
    prized: set[str] = set()
    top = _best([(player, place) for player, place in standings], overall, category=None)
    prized.update(prize.player for prize in top)
    lists = []
    passed: list[tuple[str, str]] = []
    for category in order:
        members = [(player, place) for player, place in standings if category in categories.get(player, ())]
        candidates = [(player, place) for player, place in members if player not in prized] if once else members
        prizes = _best(candidates, per_category, category=category)
        if once and per_category:
            line = prizes[-1].place if prizes else None
            passed.extend((category, player) for player, place in members
                          if player in prized and (line is None or place <= line))
        if once:
            prized.update(prize.player for prize in prizes)
        lists.append((category, tuple(prizes)))
    return PrizeList(overall=tuple(top), categories=tuple(lists), passed_over=tuple(passed))


def _best(members: list[tuple[str, int]], count: int, *, category: str | None) -> list[Prize]:
    """The first `count` of `members` (in order), and everyone sharing the place of the last of them;
    ranks within the list shared where the overall places are equal."""
    if count == 0 or not members:
        return []
    chosen = members[:count]
    last = chosen[-1][1]
    chosen += [(player, place) for player, place in members[count:] if place == last]
    prizes: list[Prize] = []
    for index, (player, place) in enumerate(chosen):
        rank = prizes[-1].rank if prizes and prizes[-1].place == place else index + 1
        prizes.append(Prize(player=player, place=place, category=category, rank=rank))
    return prizes
