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
    ``R`` planned rounds (:func:`seating.schedules.plan` for the number
    of players and ``R``: computed the same in every process, from
    constructions where they exist), the draw follows it:

    - first round (no history): the schedule's round 1, each of its seats
      given to a player by a labelling seeded from the seed
      (``"plan/str:abc"``); with ``clubs`` or ``apart`` the labelling is
      improved so that pairs to keep apart meet in no planned round (if
      that cannot be, in as late a round as possible) and clubs are spread
      over the tables of round 1 (:func:`seating.schedules.labelling`).
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
from itertools import combinations
from typing import Any

from . import schedules
from .history import Draw, History, check_unique, make_draw
from .round_draw import apart_pairs_of, as_player_clubs, as_player_pairs, club_numbers, seat_round, seeded_rng
from .sizes import table_sizes

__all__ = ["draw_by_standings", "draw_random"]


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
    check_unique(players)
    sizes = table_sizes(len(players))
    rng = seeded_rng(seed)
    index = {p: i for i, p in enumerate(players)}
    apart_pairs = apart_pairs_of(apart, index)
    first_round = history is None or not history.met
    club_of = club_numbers(clubs, players) if clubs is not None and first_round else None

    if rounds_planned is not None:
        planned = _planned_draw(players, seed, history, rounds_planned, club_of, apart_pairs)
        if planned is not None:
            return planned
    return seat_round(players, sizes=sizes, rng=rng, history=history, club_of=club_of, apart_pairs=apart_pairs)


def _planned_draw(players: list[Hashable], seed: int | str, history: History | None, rounds_planned: int,
                  club_of: list[int] | None, apart_pairs: list[tuple[int, int]]) -> Draw | None:
    """This round of the schedule planned for ``rounds_planned`` rounds, or None when the draw
    cannot follow it (see the module doc)."""
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
        rng = seeded_rng(seed)
        rng.shuffle(tables)
        tables.sort(key=len)  # tables of 4 first; stable, so otherwise random order
        for table in tables:
            rng.shuffle(table)  # seat order
    apart = as_player_pairs(apart_pairs, players)
    if any(frozenset(pair) in apart for table in tables for pair in combinations(table, 2)):
        return None  # the round-by-round draw keeps them apart
    return make_draw(tables, history, apart=apart, clubs=as_player_clubs(club_of, players), planned=True)


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
# --------------------------------------------------------------------------
# Standings draw
# --------------------------------------------------------------------------


def draw_by_standings(players_in_rank_order: Sequence[Hashable], *, history: History | None = None) -> Draw:
    """Places 1-4 at table 1, 5-8 at table 2, ...; tables of 5 placed as in the module doc."""
    players = list(players_in_rank_order)
    check_unique(players)
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
    return make_draw(tables, history)
