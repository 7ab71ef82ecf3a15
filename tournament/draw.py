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

    With ``apart`` pairs, keeping them apart comes before 1 (a pair to keep
    apart at one table costs more than any second tables of 5 and repeats:
    the director asked for it); with ``clubs`` in
    the first round (no history), each pair of one club at one table costs
    the least of all.

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
    always found the exact optimum) and, beside them, ``lower_bound``
    (:func:`repeat_lower_bound`): no seating of these players has fewer.

Planned draw (``draw_random(..., rounds_planned=R)``)
    Drawing round by round cannot look ahead: 16 players can play 5 rounds
    in which nobody meets twice, but a random round 2 or 3 usually makes the
    fifth round impossible.  So when there is a repeat-free schedule for all
    ``R`` planned rounds (:func:`tournament.schedules.plan` for the number
    of players and ``R``: computed the same in every process, from
    constructions where they exist), the draw follows it:

    - first round (no history): the schedule's round 1, each of its seats
      given to a player by a labelling seeded from the seed
      (``"plan/str:abc"``); with ``clubs`` or ``apart`` the labelling is
      improved so that pairs to keep apart meet in no planned round (if
      that cannot be, in as late a round as possible) and clubs are spread
      over the tables of round 1 (:func:`tournament.schedules.labelling`).
      Tables and seats are in the schedule's order, and that order is what
      later rounds read the labelling from;
    - later rounds: the labelling is read back from round 1 in the history
      (its tables of 4 first, seat by seat; so the director may swap players
      in round 1), and the draw is the schedule's next round if every round
      played had exactly these players and every round after the first was
      the schedule's round.  Only the table order and the seats come from
      the round's own seed: a new seed gives the same groups of players.

    It falls back to the round-by-round draw above (exactly as without
    ``rounds_planned``) when the plan has repeats (then the rounds are
    minimised one by one, as before), players joined or withdrew, an earlier round
    left the plan (drawn otherwise, or players swapped in a round after the
    first), all
    planned rounds have been played, the history holds no rounds (only
    counts), or the schedule's round would seat a pair to keep apart at one
    table.  ``Draw.planned`` says which of the two drew the round.

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
from typing import Any

__all__ = [
    "Draw",
    "History",
    "SeatingImpossible",
    "count_repeats",
    "draw_by_standings",
    "draw_random",
    "fewest_pairs",
    "pigeonhole_bound",
    "repeat_lower_bound",
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


def _check_unique(players: Sequence[Hashable]) -> None:
    if len(set(players)) != len(players):
        raise ValueError("a player appears more than once")


def _make_draw(tables: list[list[Hashable]], history: History | None, *, apart: Iterable[frozenset] = (),
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


def draw_random(players: Sequence[Hashable], *, seed: int | str, history: History | None = None,
                rounds_planned: int | None = None, clubs: Mapping[Any, str | None] | None = None,
                apart: Iterable[Iterable[Hashable]] = ()) -> Draw:
    """Seeded random draw, avoiding repeats and second tables of 5 (see module doc).

    ``rounds_planned``: follow the schedule planned for that many rounds while the earlier rounds
    did.  ``clubs``: player -> club; players of one club are spread over the tables in the first
    round (no earlier rounds), as far as possible.  ``apart``: pairs of players who never sit at
    one table when it can be avoided.  See the module doc.
    """
    players = list(players)
    _check_unique(players)
    sizes = table_sizes(len(players))
    rng = _seeded_rng(seed)
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    apart_pairs = _apart_pairs(apart, index)
    first_round = history is None or not history.met
    club_of = _club_numbers(clubs, players) if clubs is not None and first_round else None

    if rounds_planned is not None:
        planned = _planned_draw(players, seed, history, rounds_planned, club_of, apart_pairs)
        if planned is not None:
            return planned

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
    return _make_draw(result, history, apart=_as_player_pairs(apart_pairs, players),
                      clubs=_as_player_clubs(club_of, players))


def _apart_pairs(apart: Iterable[Iterable[Hashable]], index: Mapping[Hashable, int]) -> list[tuple[int, int]]:
    """The pairs to keep apart as sorted index pairs; pairs with a player not playing are dropped."""
    pairs = set()
    for pair in apart:
        a, b = pair
        if a in index and b in index and a != b:
            pairs.add((min(index[a], index[b]), max(index[a], index[b])))
    return sorted(pairs)


def _club_numbers(clubs: Mapping[Any, str | None], players: Sequence[Hashable]) -> list[int]:
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


def _as_player_pairs(pairs: Iterable[tuple[int, int]], players: Sequence[Hashable]) -> set[frozenset]:
    return {frozenset((players[i], players[j])) for i, j in pairs}


def _as_player_clubs(club_of: Sequence[int] | None, players: Sequence[Hashable]) -> dict[Hashable, int] | None:
    if club_of is None:
        return None
    return {p: club for p, club in zip(players, club_of, strict=True) if club >= 0}


def _planned_draw(players: list[Hashable], seed: int | str, history: History | None, rounds_planned: int,
                  club_of: list[int] | None, apart_pairs: list[tuple[int, int]]) -> Draw | None:
    """This round of the schedule planned for ``rounds_planned`` rounds, or None when the draw
    cannot follow it (see the module doc)."""
    from . import schedules  # schedules builds on this module

    played = history.rounds if history is not None else ()
    if history is not None and not played and (history.met or history.at_five):
        return None  # earlier rounds known only as counts: nothing to follow
    if not len(played) < rounds_planned <= 255:
        return None
    plan = schedules.plan(len(players), rounds_planned)
    if plan.repeats:
        return None  # no repeat-free plan: minimise round by round, as without a plan
    if not played:
        rng = random.Random(f"plan/{type(seed).__name__}:{seed}")
        label = schedules.labelling(plan, rng, clubs=club_of, apart=apart_pairs)
        tables = [[players[label[i]] for i in table] for table in plan.rows[0]]
    else:
        player_of = _follows(plan.rows, played, set(players))
        if player_of is None:
            return None
        tables = [[player_of[i] for i in table] for table in plan.rows[len(played)]]
        rng = _seeded_rng(seed)
        rng.shuffle(tables)
        tables.sort(key=len)  # tables of 4 first; stable, so otherwise random order
        for table in tables:
            rng.shuffle(table)  # seat order
    apart = _as_player_pairs(apart_pairs, players)
    if any(frozenset(pair) in apart for table in tables for pair in combinations(table, 2)):
        return None  # the round-by-round draw keeps them apart
    return _make_draw(tables, history, apart=apart, clubs=_as_player_clubs(club_of, players), planned=True)


def _follows(rows: Sequence[Sequence[Sequence[int]]], played: Sequence[Sequence[Sequence[Hashable]]],
             players: set[Hashable]) -> dict[int, Hashable] | None:
    """Which player plays which player of the schedule ``rows``, read from the first round played
    (its tables of 4 first, else in table order; seat by seat), if every round played has exactly
    ``players`` and the rounds after the first are the schedule's rows; else None."""
    if any({p for table in tables for p in table} != players or sum(map(len, tables)) != len(players)
           for tables in played):
        return None
    first = sorted(played[0], key=len)
    if [len(t) for t in first] != [len(t) for t in rows[0]]:
        return None
    player_of = {i: p for plan_table, table in zip(rows[0], first, strict=True)
                 for i, p in zip(plan_table, table, strict=True)}
    for row, tables in zip(rows[1:], played[1:], strict=False):
        if {frozenset(t) for t in tables} != {frozenset(player_of[i] for i in t) for t in row}:
            return None
    return player_of


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
