"""python -m seating --players N --rounds R [--json]

The schedule a draw follows for N players and R planned rounds (`seating.schedules.plan`), players
as start numbers 1..N: one line per table, then the repeat meetings beside their lower bound.
`--json`: {"rounds": [[[1, 5, 9, 13], ...], ...], "repeats": n, "lower_bound": b, "repeated_five": f,
"method": "..."}.  Impossible counts and bad arguments: exit status 2 and one line on standard error.
(`manage.py seating_plan` gives the same schedule in the app's language.)
"""

from __future__ import annotations

import argparse
import json
import sys

from . import schedules
from .sizes import SeatingImpossible, table_sizes

MAX_ROUNDS = 30  # as many as a tournament can plan


def plan_rows(n: int, rounds: int) -> tuple[schedules.Schedule, list[list[list[int]]]]:
    """The plan and its rounds with start numbers 1..n."""
    plan = schedules.plan(n, rounds)
    return plan, [[[p + 1 for p in table] for table in row] for row in plan.rows]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m seating", description=__doc__.splitlines()[2])
    parser.add_argument("--players", type=int, required=True, help="players (4 or more, not 6, 7, 11)")
    parser.add_argument("--rounds", type=int, required=True, help=f"rounds (1 to {MAX_ROUNDS})")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if not 1 <= args.rounds <= MAX_ROUNDS:
        print(f"--rounds must be between 1 and {MAX_ROUNDS}.", file=sys.stderr)
        return 2
    try:
        table_sizes(args.players)
    except SeatingImpossible as error:
        print(error.message("en"), file=sys.stderr)
        return 2
    plan, rows = plan_rows(args.players, args.rounds)
    if args.json:
        print(json.dumps({"rounds": rows, "repeats": plan.repeats, "lower_bound": plan.lower_bound,
                          "repeated_five": plan.repeated_five, "method": plan.method}))
        return 0
    for number, row in enumerate(rows, start=1):
        print(f"Round {number}")
        for table_number, table in enumerate(row, start=1):
            print(f"  {table_number:>3}: " + " ".join(f"{p:>3}" for p in table))
    print(f"Repeat meetings: {plan.repeats} (lower bound {plan.lower_bound}), "
          f"again at a table of 5: {plan.repeated_five}; made by {plan.method}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
