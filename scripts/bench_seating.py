"""Seating schedules: repeats achieved against the best known, and the seconds taken.

    .venv/bin/python scripts/bench_seating.py [--players 8-200] [--rounds 3-8] [--jobs 2]

For every seatable player count and number of rounds it computes the schedule the draw follows
(`tournament.schedules.plan`, cold: every size in a fresh cache) and prints one line per player
count: for each number of rounds the repeats achieved and the best known, then the slowest plan
of the line in seconds.  A figure, not a test (machines differ).

Cells: `0` nobody meets twice; `12` twelve repeats and no schedule can have fewer (equal to the
lower bound); `12>9` twelve repeats, best known 9 (a lower bound or a published result; see
below).  A `*` marks a cell where a repeat-free schedule is known to exist but the plan has
repeats: resolvable 2-(n, 4, 1) designs exist for every n = 4 (mod 12) (Hanani, Ray-Chaudhuri and
Wilson 1972), so n players can play (n - 1) / 3 rounds repeat-free.  Elsewhere the best known is
our lower bound (`schedules.lower_bound`), which may not be reachable: for counts with tables of
5, the plan first keeps the seats at a table of 5 taken a second time at the minimum, which can
cost repeats that the bound does not count.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournament import schedules  # noqa: E402
from tournament.draw import SeatingImpossible, table_sizes  # noqa: E402


def span(text: str) -> range:
    low, _, high = text.partition("-")
    return range(int(low), int(high or low) + 1)


def known_repeat_free(n: int, rounds: int) -> bool:
    """A repeat-free schedule is known: by our constructions, or a resolvable 2-(n, 4, 1) design."""
    return schedules.constructible_rounds(n) >= rounds or (n % 12 == 4 and rounds <= (n - 1) // 3)


def measure(case: tuple[int, int]) -> tuple[int, int, int, int, float, str]:
    n, rounds = case
    schedules.plan.cache_clear()
    started = time.perf_counter()
    plan = schedules.plan(n, rounds)
    seconds = time.perf_counter() - started
    return n, rounds, plan.repeats, plan.lower_bound, seconds, plan.method


def cell(repeats: int, bound: int, n: int, rounds: int) -> str:
    if known_repeat_free(n, rounds):
        return "0" if repeats == 0 else f"{repeats}>0*"
    return str(repeats) if repeats == bound else f"{repeats}>{bound}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=span, default=span("8-200"), help="e.g. 8-200")
    parser.add_argument("--rounds", type=span, default=span("3-8"), help="e.g. 3-8")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)")
    args = parser.parse_args()
    counts = [n for n in args.players if n >= 4 and n not in (6, 7, 11)]
    cases = [(n, r) for n in counts for r in args.rounds]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = {(n, r): rest for n, r, *rest in pool.map(measure, cases, chunksize=4)}
    wall = time.perf_counter() - started

    header = f"{'players':>7}  {'tables':<10}" + "".join(f"{f'R={r}':>10}" for r in args.rounds) + f"{'max s':>8}"
    print(header)
    print("-" * len(header))
    for n in counts:
        sizes = table_sizes(n)
        tables = f"{sizes.count(4)}x4" + (f"+{sizes.count(5)}x5" if sizes.count(5) else "")
        cells = [cell(results[(n, r)][0], results[(n, r)][1], n, r) for r in args.rounds]
        slowest = max(results[(n, r)][2] for r in args.rounds)
        print(f"{n:>7}  {tables:<10}" + "".join(f"{c:>10}" for c in cells) + f"{slowest:>8.2f}")

    total = len(cases)
    zero = sum(1 for repeats, *_ in results.values() if repeats == 0)
    proven = sum(1 for repeats, bound, *_ in results.values() if repeats == bound)
    missed = [(n, r) for (n, r), (repeats, *_) in results.items() if repeats and known_repeat_free(n, r)]
    times = sorted(seconds for _r, _b, seconds, _m in results.values())
    constructed = sum(1 for *_rest, method in results.values() if method.startswith("construction"))
    print()
    print(f"{total} sizes: {zero} without repeats, {proven} with the fewest possible repeats (= lower bound), "
          f"{total - proven} above the lower bound; {constructed} start from a construction")
    print(f"known repeat-free but with repeats here: {', '.join(f'{n}x{r}' for n, r in missed) or 'none'}")
    print(f"seconds per plan: median {times[len(times) // 2]:.3f}, 90% {times[int(len(times) * 0.9)]:.3f}, "
          f"max {times[-1]:.2f}; all {wall:.0f} s wall clock with {args.jobs} processes")


if __name__ == "__main__":
    try:
        main()
    except SeatingImpossible as error:  # pragma: no cover - counts are filtered above
        sys.exit(str(error))
