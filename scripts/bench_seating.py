"""Seating schedules: repeats reached against the lower bound and the best known, and the seconds.

    .venv/bin/python scripts/bench_seating.py [--players 8-200] [--rounds 3-8] [--jobs 1]
    .venv/bin/python scripts/bench_seating.py --long [--players 8-40] [--seeds 4]

For every seatable player count and number of rounds it computes the schedule the draw follows
(`seating.schedules.plan`, cold: every size in a fresh cache) and prints one line per player
count: for each number of rounds one cell, then the slowest plan of the line in seconds.  A
figure, not a test (machines differ).

Cells: `0` nobody meets twice; `12` twelve repeats and no schedule can have fewer (the lower bound,
`schedules.lower_bound`, is 12); `13/12/13` reached / lower bound / best known, when the plan is
above the bound.  A `*` after a cell marks a plan above the best known.  Every plan keeps the seats
at a table of 5 taken a second time at their minimum first (the priority of the draw); the bound
does not count that rule, so it can be out of reach.

Best known (`best_known`): 0 where a repeat-free schedule is known (our constructions; resolvable
2-(n, 4, 1) designs for every n = 4 (mod 12), Hanani, Ray-Chaudhuri and Wilson 1972; the sizes
where our search has found one, `FOUND`), else the fewest repeats any of our searches has reached
(`FOUND`, written down from `--long` runs; see docs/seating.md), else what the plan reaches now.

`--long` searches longer than the plan may (the same tabu search from the plan, with several seeds,
`--factor` times the plan's budget each) for every cell above its lower bound, and prints the best
of each: how `FOUND` was made.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from seating import (  # noqa: E402
    History,
    SeatingImpossible,
    draw_random,
    schedules,  # noqa: E402
    table_sizes,
)

# (players, rounds) -> the fewest repeats any of our searches reached (with the least repeated
# fives), where that is above the lower bound or where the plan did not always reach it: from
# `--long --players 8-40 --seeds 2 --factor 4` (2 seeds x 6 million swap evaluations from the plan,
# 2026-11-25) and the plans themselves; 25 x 6 and 31 x 6 are checked in (`seating.designs._FOUND`).  A 0 here is a
# repeat-free schedule found by search; the tests pin the ones the plan must keep.
FOUND: dict[tuple[int, int], int] = {
    (20, 6): 6, (21, 3): 6, (21, 4): 12, (21, 6): 6, (21, 7): 28, (22, 5): 2, (22, 6): 5, (22, 7): 37,
    (23, 5): 2, (23, 6): 5, (23, 7): 42, (25, 6): 0, (25, 7): 10, (26, 6): 2, (26, 8): 39, (27, 6): 2,
    (27, 7): 19, (27, 8): 45, (29, 7): 3, (29, 8): 14, (30, 8): 18, (31, 6): 0,
}


def span(text: str) -> range:
    low, _, high = text.partition("-")
    return range(int(low), int(high or low) + 1)


def known_repeat_free(n: int, rounds: int) -> bool:
    """A repeat-free schedule is known: a construction, a resolvable 2-(n, 4, 1) design, or found."""
    return (schedules.constructible_rounds(n) >= rounds or (n % 12 == 4 and rounds <= (n - 1) // 3)
            or FOUND.get((n, rounds)) == 0)


def best_known(n: int, rounds: int, reached: int) -> int:
    if known_repeat_free(n, rounds):
        return 0
    return min(FOUND.get((n, rounds), reached), reached)


def measure(case: tuple[int, int]) -> tuple[int, int, int, int, float, str]:
    n, rounds = case
    schedules.plan.cache_clear()
    started = time.perf_counter()
    plan = schedules.plan(n, rounds)
    seconds = time.perf_counter() - started
    return n, rounds, plan.repeats, plan.lower_bound, seconds, plan.method


def cell(repeats: int, bound: int, best: int) -> str:
    text = str(repeats) if repeats == bound else f"{repeats}/{bound}/{best}"
    return text + ("*" if repeats > best else "")


def draw_seconds(n: int, rounds: int) -> tuple[float, float, float]:
    """Seconds of the draws of a tournament of ``n`` players and ``rounds`` planned rounds, drawn one
    round after the other as the round page does: (round 1 with the plan computed cold, the slowest
    later round, the slowest round drawn round by round without a plan)."""
    players = [f"Spieler {i}" for i in range(n)]
    schedules.plan.cache_clear()
    seconds: dict[bool, list[float]] = {True: [], False: []}
    for planned in (True, False):
        done: list = []
        for r in range(rounds):
            started = time.perf_counter()
            draw = draw_random(players, seed=f"bench/{r}", history=History.from_rounds(done),
                               rounds_planned=rounds if planned else None)
            seconds[planned].append(time.perf_counter() - started)
            done.append(draw.tables)
    return seconds[True][0], max(seconds[True][1:], default=0.0), max(seconds[False])


def long_search(case: tuple[int, int], seeds: int, factor: int) -> tuple[int, int, int, int]:
    """The fewest repeats of the plan and of ``seeds`` longer searches from it."""
    n, rounds = case
    plan = schedules.plan(n, rounds)
    best = plan.repeats
    for seed in range(seeds):
        if best <= plan.lower_bound:
            break
        search = schedules._ScheduleSearch(n, [[list(t) for t in row] for row in plan.rows], random.Random(seed))
        found = search.run(plan.lower_bound, factor * schedules._SEARCH_EVALUATIONS)
        if found is not None:
            best = min(best, schedules.schedule_costs(found)[0])
    return n, rounds, plan.repeats, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=span, default=span("8-200"), help="e.g. 8-200")
    parser.add_argument("--rounds", type=span, default=span("3-8"), help="e.g. 3-8")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default: 1)")
    parser.add_argument("--long", action="store_true", help="search longer where the plan is above the bound")
    parser.add_argument("--seeds", type=int, default=4, help="seeds of the longer search (default: 4)")
    parser.add_argument("--factor", type=int, default=10, help="times the plan's budget per seed (default: 10)")
    args = parser.parse_args()
    counts = [n for n in args.players if n >= 4 and n not in (6, 7, 11)]
    cases = [(n, r) for n in counts for r in args.rounds]
    if args.long:
        cases = [(n, r) for n, r in cases if schedules.plan(n, r).repeats > schedules.lower_bound(n, r)]
        for n, rounds, reached, best in map(long_search, cases, [args.seeds] * len(cases), [args.factor] * len(cases)):
            print(f"({n}, {rounds}): {best},  # plan {reached}, lower bound {schedules.lower_bound(n, rounds)}",
                  flush=True)
        return
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = {(n, r): rest for n, r, *rest in pool.map(measure, cases, chunksize=4)}
    wall = time.perf_counter() - started

    header = f"{'players':>7}  {'tables':<10}" + "".join(f"{f'R={r}':>11}" for r in args.rounds) + f"{'max s':>8}"
    print(header)
    print("-" * len(header))
    for n in counts:
        sizes = table_sizes(n)
        tables = f"{sizes.count(4)}x4" + (f"+{sizes.count(5)}x5" if sizes.count(5) else "")
        cells = [cell(results[(n, r)][0], results[(n, r)][1], best_known(n, r, results[(n, r)][0]))
                 for r in args.rounds]
        slowest = max(results[(n, r)][2] for r in args.rounds)
        print(f"{n:>7}  {tables:<10}" + "".join(f"{c:>11}" for c in cells) + f"{slowest:>8.2f}")

    total = len(cases)
    zero = sum(1 for repeats, *_ in results.values() if repeats == 0)
    proven = sum(1 for repeats, bound, *_ in results.values() if repeats == bound)
    above_best = [(n, r) for (n, r), (repeats, *_) in results.items() if repeats > best_known(n, r, repeats)]
    missed = [(n, r) for (n, r), (repeats, *_) in results.items() if repeats and known_repeat_free(n, r)]
    times = sorted(seconds for _r, _b, seconds, _m in results.values())
    constructed = sum(1 for *_rest, method in results.values() if method.startswith("construction"))
    print()
    print(f"{total} sizes: {zero} without repeats, {proven} with the fewest possible repeats (= lower bound), "
          f"{total - proven} above the lower bound; {constructed} start from a construction")
    print(f"known repeat-free but with repeats here: {', '.join(f'{n}x{r}' for n, r in missed) or 'none'}")
    print(f"above the best known: {', '.join(f'{n}x{r}' for n, r in above_best) or 'none'}")
    print(f"seconds per plan: median {times[len(times) // 2]:.3f}, 90% {times[int(len(times) * 0.9)]:.3f}, "
          f"max {times[-1]:.2f}; all {wall:.0f} s wall clock with {args.jobs} processes")
    n, rounds = counts[-1], args.rounds[-1]
    first, later, unplanned = draw_seconds(n, rounds)
    print(f"the draw at {n} players, {rounds} rounds planned: round 1 {first:.2f} s (with the plan), "
          f"later rounds at most {later:.2f} s; drawn round by round at most {unplanned:.2f} s")


if __name__ == "__main__":
    try:
        main()
    except SeatingImpossible as error:  # pragma: no cover - counts are filtered above
        sys.exit(str(error))
