"""Benchmark (not a test): how long the public standings and a player's page take for a large
tournament, and how many queries they run.

    .venv/bin/python scripts/bench_standings.py [--players 1000] [--rounds 3] [--repeat 10]

Uses its own SQLite database (var/bench/standings-<players>.sqlite3, generated once with
`manage.py generate_tournament`), then requests the pages through Django's test client (the whole
request: URL routing, queries, django-tables2, template) and prints the median and worst time.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    database = ROOT / "var" / "bench" / f"standings-{args.players}-{args.rounds}.sqlite3"
    database.parent.mkdir(parents=True, exist_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tournament.models import Tournament

    call_command("migrate", verbosity=0)
    slug = f"bench-{args.players}"
    if not Tournament.objects.filter(slug=slug).exists():
        started = time.perf_counter()
        with open(os.devnull, "w") as quiet:
            call_command("generate_tournament", players=args.players, rounds=args.rounds, seed=1, slug=slug,
                         stdout=quiet, stderr=quiet)
        print(f"generated {args.players} players, {args.rounds} rounds in {time.perf_counter() - started:.1f} s")
    tournament = Tournament.objects.get(slug=slug)
    entry = tournament.entries.order_by("start_number").first()
    client = Client()
    pages = {
        "standings": f"/t/{slug}/standings/",
        "standings after round 1": f"/t/{slug}/standings/?round=1",
        "standings, table only (self-update)": f"/t/{slug}/standings/?partial=1",
        "standings.csv": f"/t/{slug}/standings.csv",
        "player page": f"/t/{slug}/players/{entry.id}/",
        "round 1 seating": f"/t/{slug}/rounds/1/",
    }
    print(f"{args.players} players, {args.rounds} rounds; {args.repeat} requests each")
    for name, url in pages.items():
        times = []
        for _ in range(args.repeat):
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                response = client.get(url)
                times.append(time.perf_counter() - started)
            assert response.status_code == 200, (url, response.status_code)
        print(f"  {name:40s} median {statistics.median(times) * 1000:7.1f} ms, worst {max(times) * 1000:7.1f} ms, "
              f"{len(queries)} queries, {len(response.content) // 1024} KiB")


if __name__ == "__main__":
    main()
