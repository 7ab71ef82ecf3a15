"""What earlier rounds left behind, and what a draw is (pure Python, no Django).

`History` counts who met whom and who sat at a table of 5; `Draw` is a seating with its counts;
`repeat_lower_bound` says how few repeats any seating of these players can have, given the history.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from .bounds import pigeonhole_bound
from .sizes import table_sizes

__all__ = ["Draw", "History", "check_unique", "count_repeats", "make_draw", "repeat_lower_bound"]


@dataclass(frozen=True)
class History:
    """What happened in earlier rounds (treat the mappings as read-only).

    ``met``: ``frozenset({a, b})`` -> how often a and b shared a table.
    ``at_five``: player -> how often the player sat at a table of 5.
    ``rounds``: the earlier rounds themselves, in order (tables in table order, players in seat
    order), as :meth:`from_rounds` got them; empty when the history was built from the mappings
    alone.  The lower bound uses them, and a planned draw reads its schedule from them.
    Players that are no longer playing may appear; they are ignored.
    """

    met: Mapping[frozenset, int] = field(default_factory=dict)
    at_five: Mapping[Hashable, int] = field(default_factory=dict)
    rounds: tuple[tuple[tuple[Hashable, ...], ...], ...] = ()

    @classmethod
    def from_rounds(cls, rounds: Iterable[Iterable[Sequence[Hashable]]]) -> History:
        """Build the history from earlier rounds: rounds -> tables -> players."""
        met: dict[frozenset, int] = {}
        at_five: dict[Hashable, int] = {}
        kept = []
        for tables in rounds:
            kept.append(tuple(tuple(table) for table in tables))
            for table in kept[-1]:
                for a, b in combinations(table, 2):
                    pair = frozenset((a, b))
                    met[pair] = met.get(pair, 0) + 1
                if len(table) == 5:
                    for player in table:
                        at_five[player] = at_five.get(player, 0) + 1
        return cls(met=met, at_five=at_five, rounds=tuple(kept))


@dataclass(frozen=True)
class Draw:
    """A seating: ``tables[0]`` is table 1, each table in seat order.

    ``lower_bound``: no seating of these players has fewer repeat meetings, given the history
    (:func:`repeat_lower_bound`).  ``apart_together``: pairs to keep apart who sit at one table
    anyway (only when that cannot be avoided); ``club_pairs``: pairs of players of one club at one
    table (counted when the draw was asked to separate clubs).  ``planned``: the draw follows the
    schedule planned for all rounds (see the module doc).
    """

    tables: tuple[tuple[Hashable, ...], ...]
    repeat_meetings: int  # pairs at one table in this draw who met before
    repeated_five: int  # players at a table of 5 who had been at one before
    lower_bound: int = 0
    apart_together: int = 0
    club_pairs: int = 0
    planned: bool = False


def count_repeats(tables: Iterable[Sequence[Hashable]], history: History | None) -> tuple[int, int]:
    """``(repeat_meetings, repeated_five)`` of any seating, e.g. after manual swaps."""
    if history is None:
        return 0, 0
    repeat_meetings = repeated_five = 0
    for table in tables:
        repeat_meetings += sum(1 for a, b in combinations(table, 2) if history.met.get(frozenset((a, b)), 0) > 0)
        if len(table) == 5:
            repeated_five += sum(1 for player in table if history.at_five.get(player, 0) > 0)
    return repeat_meetings, repeated_five


def repeat_lower_bound(players: Sequence[Hashable], history: History | None) -> int:
    """No seating of ``players`` has fewer repeat meetings, given ``history``.

    The larger of two counts.  *Partners*: a player at a table of 4 needs 3 table mates, at a
    table of 5 four; a player who has not met only ``u`` of the others brings at least ``3 - u``
    (``4 - u``) players met before to the table, and a repeat pair is counted by both players (the
    seats at tables of 5 going to the players who lose least by them).  *Pigeonhole* against each
    earlier round (:func:`pigeonhole_bound`; needs ``history.rounds``).
    """
    players = list(players)
    sizes = table_sizes(len(players))
    if history is None:
        return 0
    n = len(players)
    present = set(players)
    met = dict.fromkeys(players, 0)
    for pair, times in history.met.items():
        if times > 0 and len(pair) == 2:
            a, b = pair
            if a in present and b in present:
                met[a] += 1
                met[b] += 1
    unmet = [n - 1 - met[p] for p in players]
    short = sum(max(0, 3 - u) for u in unmet)
    short += max(0, 5 * sizes.count(5) - sum(1 for u in unmet if u >= 4))
    bound = (short + 1) // 2
    for tables in history.rounds:
        earlier = [k for table in tables if (k := sum(1 for p in table if p in present))]
        earlier += [1] * (n - sum(earlier))  # players who did not play in that round
        bound = max(bound, pigeonhole_bound(sizes, earlier))
    return bound


def check_unique(players: Sequence[Hashable]) -> None:
    if len(set(players)) != len(players):
        raise ValueError("a player appears more than once")


def make_draw(tables: list[list[Hashable]], history: History | None, *, apart: Iterable[frozenset] = (),
               clubs: Mapping[Hashable, int] | None = None, planned: bool = False) -> Draw:
    """The draw of ``tables`` with its counts; ``clubs``: player -> club number (players without a
    club left out), when clubs were to be separated."""
    repeat_meetings, repeated_five = count_repeats(tables, history)
    players = [p for table in tables for p in table]
    apart_together = club_pairs = 0
    apart = set(apart)
    for table in tables:
        for a, b in combinations(table, 2):
            apart_together += frozenset((a, b)) in apart
            if clubs is not None and a in clubs and b in clubs:
                club_pairs += clubs[a] == clubs[b]
    return Draw(tuple(tuple(t) for t in tables), repeat_meetings, repeated_five,
                lower_bound=repeat_lower_bound(players, history), apart_together=apart_together,
                club_pairs=club_pairs, planned=planned)


