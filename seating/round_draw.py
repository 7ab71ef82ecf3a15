"""The round-by-round draw: a seeded local search for one round (pure Python, no Django).

See `seating.draw` for what it minimises and how; `seat_round` is the search, the rest turns clubs and
pairs to keep apart into the costs it works on.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from .bounds import fewest_pairs
from .history import Draw, History, make_draw

__all__ = ["apart_pairs_of", "as_player_clubs", "as_player_pairs", "club_numbers", "seat_round", "seeded_rng"]


# With probability _NOISE a step makes a random swap instead of the best one.
_NOISE = 0.1
# Upper bound on swap evaluations per draw (keeps the worst case, when repeats
# cannot be avoided at all, to a second or two for any n).
_MAX_EVALUATIONS = 1_500_000


def seeded_rng(seed: int | str) -> random.Random:
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise TypeError(f"seed must be an int or a str, not {type(seed).__name__}")
    # A str seed goes through SHA-512 inside random.Random: stable everywhere.
    return random.Random(f"{type(seed).__name__}:{seed}")



def seat_round(players: Sequence[Hashable], *, sizes: list[int], rng: random.Random, history: History | None,
               club_of: list[int] | None, apart_pairs: list[tuple[int, int]]) -> Draw:
    """The round with the lowest cost the search finds (see `seating.draw`)."""
    n = len(players)
    index = {p: i for i, p in enumerate(players)}

    # Penalties on player indices, weighted so that the search minimises the
    # priorities of the module doc lexicographically:
    #   pair weight  = pair_weight + times met   (for pairs that met before)
    #                + apart_weight              (for pairs to keep apart)
    #                + 1                         (same club, first round only)
    #   at-five      = five_weight               (for players already at a 5)
    # (apart_weight is above every five and pair cost together)
    neighbours: list[dict[int, int]] = [{} for _ in range(n)]
    max_met = 0
    if history is not None:
        for pair, times in history.met.items():
            if times <= 0 or len(pair) != 2:
                continue
            a, b = pair
            if a in index and b in index:
                neighbours[index[a]][index[b]] = times
                neighbours[index[b]][index[a]] = times
                max_met = max(max_met, times)
    pairs_in_draw = sum(s * (s - 1) // 2 for s in sizes)
    pair_weight = 1 + pairs_in_draw * max_met  # > any sum of "times met"
    for weights in neighbours:
        for q in weights:
            weights[q] += pair_weight
    top_pair = pair_weight + max_met  # the most one pair can cost so far
    club_bound = 0
    if club_of is not None:  # no history here: a club pair costs 1
        for i, j in combinations(range(n), 2):
            if club_of[i] >= 0 and club_of[i] == club_of[j]:
                neighbours[i][j] = neighbours[j][i] = neighbours[i].get(j, 0) + 1
        club_bound = _club_bound(club_of, sizes)
    five_weight = 1 + pairs_in_draw * top_pair  # > any sum of repeat and club costs
    five_penalty = [0] * n
    if history is not None:
        for p, times in history.at_five.items():
            if times > 0 and p in index:
                five_penalty[index[p]] = five_weight
    seats_at_five = 5 * sizes.count(5)
    if apart_pairs:  # the director asked for it: > any sum of five, repeat and club costs
        apart_weight = 1 + pairs_in_draw * top_pair + seats_at_five * five_weight
        for i, j in apart_pairs:
            neighbours[i][j] = neighbours[j][i] = neighbours[i].get(j, 0) + apart_weight

    never_at_five = sum(1 for pen in five_penalty if pen == 0)
    lower_bound = max(0, seats_at_five - never_at_five) * five_weight + club_bound

    search = _Search(sizes, neighbours, five_penalty, rng)
    best_tables: list[list[int]] = []
    best_cost: int | None = None
    restarts = max(1, min(10, 4000 // n))
    budget = _MAX_EVALUATIONS
    for _ in range(restarts):
        tables, cost, used = search.run(lower_bound, budget)
        budget -= used
        if best_cost is None or cost < best_cost:
            best_tables, best_cost = tables, cost
        if best_cost == lower_bound or budget <= 0:
            break

    best_tables.sort(key=len)  # tables of 4 first; stable, so otherwise random order
    result = []
    for table in best_tables:
        rng.shuffle(table)  # seat order
        result.append([players[i] for i in table])
    return make_draw(result, history, apart=as_player_pairs(apart_pairs, players),
                      clubs=as_player_clubs(club_of, players))



def apart_pairs_of(apart: Iterable[Iterable[Hashable]], index: Mapping[Hashable, int]) -> list[tuple[int, int]]:
    """The pairs to keep apart as sorted index pairs; pairs with a player not playing are dropped."""
    pairs = set()
    for pair in apart:
        a, b = pair
        if a in index and b in index and a != b:
            pairs.add((min(index[a], index[b]), max(index[a], index[b])))
    return sorted(pairs)


def club_numbers(clubs: Mapping[Any, str | None], players: Sequence[Hashable]) -> list[int]:
    """Each player's club as a number (in order of first appearance), -1 for none.  Club names are
    compared without case and surrounding spaces."""
    numbers: dict[str, int] = {}
    result = []
    for p in players:
        name = str(clubs.get(p) or "").strip().casefold()
        result.append(numbers.setdefault(name, len(numbers)) if name else -1)
    return result


def _club_bound(club_of: Sequence[int], sizes: Sequence[int]) -> int:
    """Fewest pairs of one club at one table: every club spread over the tables on its own."""
    members: dict[int, int] = {}
    for club in club_of:
        if club >= 0:
            members[club] = members.get(club, 0) + 1
    return sum(fewest_pairs(k, sizes) for k in members.values())


def as_player_pairs(pairs: Iterable[tuple[int, int]], players: Sequence[Hashable]) -> set[frozenset]:
    return {frozenset((players[i], players[j])) for i, j in pairs}


def as_player_clubs(club_of: Sequence[int] | None, players: Sequence[Hashable]) -> dict[Hashable, int] | None:
    if club_of is None:
        return None
    return {p: club for p, club in zip(players, club_of, strict=True) if club >= 0}



class _Search:
    """Min-conflicts local search over player indices (see module doc).

    State of a run: ``tables`` (lists of player indices), ``where[p]`` (p's
    table) and ``own[p]`` (pair weights between p and its table mates).  The
    cost of a seating is the sum of the pair weights of all pairs at one table
    plus the at-five penalty of every player at a table of 5.
    """

    def __init__(self, sizes: list[int], neighbours: list[dict[int, int]], five_penalty: list[int], rng: random.Random):
        self.sizes = sizes
        self.nb = neighbours
        self.five = five_penalty
        self.rng = rng
        self.n = len(neighbours)

    def _conflict(self, p: int, table: list[int]) -> int:
        """Pair weights between p and the other players of table."""
        weights = self.nb[p]
        if not weights:
            return 0
        return sum(weights.get(x, 0) for x in table if x != p)

    def _five_cost(self, p: int, t: int) -> int:
        return self.five[p] if len(self.tables[t]) == 5 else 0

    def _start(self) -> None:
        """Random seating; seats at tables of 5 go first to players never at a 5."""
        order = list(range(self.n))
        self.rng.shuffle(order)
        order.sort(key=lambda p: self.five[p] > 0)  # stable: still random within
        seats_at_five = 5 * self.sizes.count(5)
        at_five, at_four = order[:seats_at_five], order[seats_at_five:]
        self.rng.shuffle(at_four)
        self.tables = []
        for size in self.sizes:
            source = at_five if size == 5 else at_four
            self.tables.append(source[:size])
            del source[:size]
        self.where = [0] * self.n
        for t, table in enumerate(self.tables):
            for p in table:
                self.where[p] = t
        self.own = [self._conflict(p, self.tables[self.where[p]]) for p in range(self.n)]

    def run(self, lower_bound: int, budget: int) -> tuple[list[list[int]], int, int]:
        """One restart.  Returns (best tables, their cost, evaluations used)."""
        rng, n = self.rng, self.n
        self._start()
        tables, where, own = self.tables, self.where, self.own
        cost = sum(own) // 2 + sum(self._five_cost(p, where[p]) for p in range(n))
        best_tables, best_cost = [list(t) for t in tables], cost
        stall_limit = 50 + 10 * n
        stall = used = 0
        while len(tables) > 1 and best_cost > lower_bound and stall < stall_limit and used < budget:
            bad = [p for p in range(n) if own[p] or self._five_cost(p, where[p])]
            p = rng.choice(bad)
            if rng.random() < _NOISE:
                q = rng.randrange(n - 1)
                q += q >= p  # any player but p
                if where[q] == where[p]:
                    continue
                delta = self._delta(p, q)
                used += 1
            else:
                delta, q = self._best_swap(p)
                used += n
            self._swap(p, q)
            cost += delta
            if cost < best_cost:
                best_tables, best_cost = [list(t) for t in tables], cost
                stall = 0
            else:
                stall += 1
        return best_tables, best_cost, used

    def _swap(self, p: int, q: int) -> None:
        a, b = self.where[p], self.where[q]
        table_a, table_b = self.tables[a], self.tables[b]
        table_a[table_a.index(p)] = q
        table_b[table_b.index(q)] = p
        self.where[p], self.where[q] = b, a
        for x in table_a:
            self.own[x] = self._conflict(x, table_a)
        for x in table_b:
            self.own[x] = self._conflict(x, table_b)

    def _delta(self, p: int, q: int) -> int:
        """Cost change of swapping p and q (at different tables)."""
        a, b = self.where[p], self.where[q]
        w = self.nb[p].get(q, 0)
        return (
            self._conflict(p, self.tables[b]) - w - self.own[p]
            + self._conflict(q, self.tables[a]) - w - self.own[q]
            + self._five_cost(p, b) - self._five_cost(p, a)
            + self._five_cost(q, a) - self._five_cost(q, b)
        )  # fmt: skip

    def _best_swap(self, p: int) -> tuple[int, int]:
        """Best swap of p with a player at another table: (delta, partner).

        Same cost change as _delta, but computed for all partners at once:
        the pair weights of p with every table and of every player with p's
        table are summed from the (usually short) neighbour lists.
        """
        nb, five, where, own = self.nb, self.five, self.where, self.own
        nb_p = nb[p]
        a = where[p]
        table_a = self.tables[a]
        p_to = [0] * len(self.tables)  # pair weights of p with each table
        for q, w in nb_p.items():
            p_to[where[q]] += w
        to_a: dict[int, int] = {}  # pair weights of each player with table a (incl. p)
        for x in table_a:
            for q, w in nb[x].items():
                to_a[q] = to_a.get(q, 0) + w
        five_a = len(table_a) == 5
        base = -own[p] - self._five_cost(p, a)
        best_delta: int | None = None
        best: list[int] = []
        for b, table_b in enumerate(self.tables):
            if b == a:
                continue
            five_b = len(table_b) == 5
            p_part = base + p_to[b] + (five[p] if five_b else 0)
            for q in table_b:
                delta = p_part - 2 * nb_p.get(q, 0) - own[q] + to_a.get(q, 0)
                if five_a != five_b:
                    delta += five[q] if five_a else -five[q]
                if best_delta is None or delta < best_delta:
                    best_delta, best = delta, [q]
                elif delta == best_delta:
                    best.append(q)
        return (best_delta or 0), self.rng.choice(best)


