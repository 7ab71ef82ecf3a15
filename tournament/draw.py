"""Seating draw for a Doppelkopf tournament (pure Python, no Django).

The Django services read player ids and the earlier rounds from the database
and call this module; everything here works on plain hashable ids.

Table sizes
    ``n`` players are split into tables of 4 and 5 with as many tables of 4
    as possible: ``n % 4`` tables of 5 and the rest tables of 4.  This works
    for every ``n >= 4`` except 6, 7 and 11; for those (and ``n < 4``)
    :class:`SeatingImpossible` is raised, naming the nearest seatable counts.

Table order and seats
    Tables are numbered 1..k in the order of ``Draw.tables``.  In a random
    draw the tables of 4 come first, then the tables of 5.  Each table is an
    ordered tuple: seat 1 first; seat 1 deals the first game.

Random draw (:func:`draw_random`)
    Reproducible: everything random comes from one ``random.Random`` seeded
    with a string built from the seed (``"int:42"`` / ``"str:abc"``, so 42
    and "42" are different seeds).  A string seed is turned into the
    generator state by SHA-512, never by the per-process salted ``hash()``;
    the search works on player positions in the input list (never iterates
    over a set or dict of ids where the order would matter) and stops after a
    fixed number of steps (never after a time limit).  So the same players in
    the same order, the same history and the same seed give exactly the same
    draw on any machine and in any process.  The caller must therefore pass
    the players in a stable order (e.g. by start number).  Across Python
    versions the seeding is guaranteed stable by Python; ``shuffle`` and
    ``choice`` have been unchanged since 3.2 but are not guaranteed.

    Round 1 (no history) is a seeded shuffle cut into tables.  In later rounds
    the draw minimises, in this order of priority:

    1. ``repeated_five``: players at a table of 5 who had already been at a
       table of 5 (so only the unavoidable ones remain);
    2. ``repeat_meetings``: pairs at the same table who already shared a table
       in an earlier round, each pair counted once;
    3. as a tie-break, how often those repeat pairs have met (a pair that met
       twice weighs more than a pair that met once).

    This is one integer cost with weights chosen so that a lower priority can
    never outweigh a higher one.  The search is a seeded local search
    ("min-conflicts" with swaps):

    - start from a random seating in which the seats at tables of 5 go to
      players who have not been at a table of 5 yet, as far as possible;
    - repeatedly pick a random player who is in conflict (has met someone at
      the table, or sits at a table of 5 a second time) and make the best
      swap of that player with any player at another table, even if it is no
      improvement (ties are broken at random); with probability 0.1 a random
      swap is made instead, to leave local minima.  The best seating seen is
      kept;
    - a run stops when no repeat pair is left and only unavoidable second
      tables of 5 remain (a proven optimum), or after 50 + 10 * n steps
      without improvement; then the search restarts from a new random seating
      (up to 10 runs, fewer above 400 players) and the best result wins.  All
      runs together evaluate at most 1.5 million swaps, which bounds the
      worst case (repeats unavoidable) to a second or two even for 1,000
      players; typical draws take milliseconds.

    Finally the tables are put in order (tables of 4 first, otherwise in the
    random order of the search) and the seats at each table are shuffled.
    The search cannot prove that a draw with repeats is the best possible; it
    reports the repeats of the draw it found (in tests on 8-13 players it
    always found the exact optimum).

Standings draw (:func:`draw_by_standings`)
    Players are given best first.  Places are cut into consecutive groups:
    places 1-4 at table 1, 5-8 at table 2, and so on, seats in place order
    (the better-placed player in seat 1).  Where the ``n % 4`` tables of 5 go
    is chosen by dynamic programming over the table positions: the positions
    that seat the fewest players at a table of 5 who had already been at
    one; among equally good choices the tables of 5 go as far down the
    standings as possible (so without history they are the last tables).
    Then, at each boundary between a table of 5 and a neighbouring table of
    4, the two boundary players (neighbouring places) are exchanged if the
    one at the table of 5 has already been at a table of 5 and the other has
    not.  A player thus moves by at most one place.  Repeat meetings are not
    avoided in this mode, only reported.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

__all__ = [
    "Draw",
    "History",
    "SeatingImpossible",
    "count_repeats",
    "draw_by_standings",
    "draw_random",
    "table_sizes",
]


def _seatable(n: int) -> bool:
    """True if n players can sit at tables of 4 and 5."""
    return n >= 4 and n not in (6, 7, 11)


class SeatingImpossible(Exception):
    """``n`` players cannot be split into tables of 4 and 5.

    ``add``: players to add to reach the next seatable count.
    ``remove``: players to remove to reach the previous seatable count, or
    ``None`` if there is none (fewer than 4 players).
    """

    def __init__(self, n: int):
        if n < 0:
            raise ValueError(f"negative number of players: {n}")
        self.n = n
        self.add = next(k for k in range(1, 5) if _seatable(n + k))
        self.remove = next((k for k in range(1, n + 1) if _seatable(n - k)), None)
        super().__init__(self.message("de"))

    def message(self, lang: str = "de") -> str:
        n, add, remove = self.n, self.add, self.remove
        if lang == "de":
            verb = "lässt" if n == 1 else "lassen"
            text = f"{n} Spieler {verb} sich nicht an Tische zu 4 und 5 setzen: {add} Spieler mehr ({n + add})"
            if remove is not None:
                text += f" oder {remove} weniger ({n - remove})"
            return text + "."
        if lang == "en":
            text = (
                f"{n} {'player' if n == 1 else 'players'} cannot be seated at tables of 4 and 5: "
                f"add {add} {'player' if add == 1 else 'players'} ({n + add})"
            )
            if remove is not None:
                text += f" or remove {remove} ({n - remove})"
            return text + "."
        raise ValueError(f"unknown language {lang!r}")


def table_sizes(n_players: int) -> list[int]:
    """Table sizes for ``n_players``: as many 4s as possible, 4s first.

    >>> table_sizes(9)
    [4, 5]
    """
    if not _seatable(n_players):
        raise SeatingImpossible(n_players)
    fives = n_players % 4
    return [4] * ((n_players - 5 * fives) // 4) + [5] * fives


@dataclass(frozen=True)
class History:
    """What happened in earlier rounds (treat the mappings as read-only).

    ``met``: ``frozenset({a, b})`` -> how often a and b shared a table.
    ``at_five``: player -> how often the player sat at a table of 5.
    Players that are no longer playing may appear; they are ignored.
    """

    met: Mapping[frozenset, int] = field(default_factory=dict)
    at_five: Mapping[Hashable, int] = field(default_factory=dict)

    @classmethod
    def from_rounds(cls, rounds: Iterable[Iterable[Sequence[Hashable]]]) -> History:
        """Build the history from earlier rounds: rounds -> tables -> players."""
        met: dict[frozenset, int] = {}
        at_five: dict[Hashable, int] = {}
        for tables in rounds:
            for table in tables:
                for a, b in combinations(table, 2):
                    pair = frozenset((a, b))
                    met[pair] = met.get(pair, 0) + 1
                if len(table) == 5:
                    for player in table:
                        at_five[player] = at_five.get(player, 0) + 1
        return cls(met=met, at_five=at_five)


@dataclass(frozen=True)
class Draw:
    """A seating: ``tables[0]`` is table 1, each table in seat order."""

    tables: tuple[tuple[Hashable, ...], ...]
    repeat_meetings: int  # pairs at one table in this draw who met before
    repeated_five: int  # players at a table of 5 who had been at one before


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


def _check_unique(players: Sequence[Hashable]) -> None:
    if len(set(players)) != len(players):
        raise ValueError("a player appears more than once")


def _make_draw(tables: list[list[Hashable]], history: History | None) -> Draw:
    repeat_meetings, repeated_five = count_repeats(tables, history)
    return Draw(tuple(tuple(t) for t in tables), repeat_meetings, repeated_five)


# --------------------------------------------------------------------------
# Random draw
# --------------------------------------------------------------------------

# With probability _NOISE a step makes a random swap instead of the best one.
_NOISE = 0.1
# Upper bound on swap evaluations per draw (keeps the worst case, when repeats
# cannot be avoided at all, to a second or two for any n).
_MAX_EVALUATIONS = 1_500_000


def _seeded_rng(seed: int | str) -> random.Random:
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise TypeError(f"seed must be an int or a str, not {type(seed).__name__}")
    # A str seed goes through SHA-512 inside random.Random: stable everywhere.
    return random.Random(f"{type(seed).__name__}:{seed}")


def draw_random(players: Sequence[Hashable], *, seed: int | str, history: History | None = None) -> Draw:
    """Seeded random draw, avoiding repeats and second tables of 5 (see module doc)."""
    players = list(players)
    _check_unique(players)
    sizes = table_sizes(len(players))
    rng = _seeded_rng(seed)
    index = {p: i for i, p in enumerate(players)}
    n = len(players)

    # Penalties on player indices, weighted so that the search minimises the
    # priorities of the module doc lexicographically:
    #   pair weight  = pair_weight + times met   (for pairs that met before)
    #   at-five      = five_weight               (for players already at a 5)
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
    five_weight = 1 + pairs_in_draw * (pair_weight + max_met)  # > any pair cost
    for weights in neighbours:
        for q in weights:
            weights[q] += pair_weight
    five_penalty = [0] * n
    if history is not None:
        for p, times in history.at_five.items():
            if times > 0 and p in index:
                five_penalty[index[p]] = five_weight

    seats_at_five = 5 * sizes.count(5)
    never_at_five = sum(1 for pen in five_penalty if pen == 0)
    lower_bound = max(0, seats_at_five - never_at_five) * five_weight

    search = _Search(sizes, neighbours, five_penalty, rng)
    best_tables, best_cost = None, None
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
    return _make_draw(result, history)


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
        best_delta, best = None, []
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
        return best_delta, self.rng.choice(best)


# --------------------------------------------------------------------------
# Standings draw
# --------------------------------------------------------------------------


def draw_by_standings(players_in_rank_order: Sequence[Hashable], *, history: History | None = None) -> Draw:
    """Places 1-4 at table 1, 5-8 at table 2, ...; tables of 5 placed as in the module doc."""
    players = list(players_in_rank_order)
    _check_unique(players)
    sizes = table_sizes(len(players))
    fives = sizes.count(5)
    k = len(sizes)
    been = [history is not None and history.at_five.get(p, 0) > 0 for p in players]

    def five_cost(start: int) -> int:
        return sum(been[start : start + 5])

    # best[i][j]: fewest repeated fives for tables i..k-1 when j of the tables
    # 0..i-1 are tables of 5 (table i then starts at place 4*i + j).
    impossible = len(players) + 1
    best = [[impossible] * (fives + 1) for _ in range(k + 1)]
    best[k][fives] = 0
    for i in range(k - 1, -1, -1):
        for j in range(fives + 1):
            as_four = best[i + 1][j]
            as_five = five_cost(4 * i + j) + best[i + 1][j + 1] if j < fives else impossible
            best[i][j] = min(as_four, as_five)
    # Walk forward; on a tie take a table of 4 (pushes the 5s down the standings).
    sizes, j = [], 0
    for i in range(k):
        if best[i + 1][j] == best[i][j]:
            sizes.append(4)
        else:
            sizes.append(5)
            j += 1

    starts = [sum(sizes[:i]) for i in range(k)]
    order = list(range(len(players)))  # order[place] = index of the player there
    for i in range(k - 1):
        if sizes[i] == sizes[i + 1]:
            continue
        last, first = starts[i + 1] - 1, starts[i + 1]  # neighbouring places
        at_five, at_four = (last, first) if sizes[i] == 5 else (first, last)
        if been[order[at_five]] and not been[order[at_four]]:
            order[last], order[first] = order[first], order[last]

    tables = []
    for start, size in zip(starts, sizes, strict=True):
        seats = sorted(order[start : start + size])  # better place in seat 1
        tables.append([players[i] for i in seats])
    return _make_draw(tables, history)
