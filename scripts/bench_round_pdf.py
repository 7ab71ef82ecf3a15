"""Benchmark (not a test): a round's score sheets as one PDF, cold and warm, blank and filled.

    .venv/bin/python scripts/bench_round_pdf.py [--players 1000] [--workers 2] [--repeat 3]

What the director waits for at a championship (the bound: at most 5 s cold for 250 tables;
docs/performance.md).
Uses its own SQLite database (var/bench/round-pdf-<players>.sqlite3, made once with the generator of
`manage.py generate_tournament`: 1,000 players = 250 tables, every game played) and prints, for the
blank sheets (`?blank=1`, with the QR codes) and the filled ones:

- cold: an empty PDF cache and a new worker pool, as after `make serve` starts (the documents read
  from the database, every sheet drawn, the round merged): what `render.merged_pdf_file` does for
  the view and the background job;
- warm: the merged PDF in the cache (read the round, build the documents, find the file);
- one table changed: one sheet drawn again, the round merged again.

Each figure is the median of `--repeat` runs (the cold ones each with a fresh cache and pool).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from machine_load import idle_percent  # scripts/machine_load.py

ROOT = Path(__file__).resolve().parent.parent


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000, help="players (4 per table; default 1000 = 250 tables)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (default 3)")
    parser.add_argument("--database", default=None, help="SQLite file (default var/bench/round-pdf-<players>.sqlite3)")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    database = Path(args.database or ROOT / "var" / "bench" / f"round-pdf-{args.players}.sqlite3")
    database.parent.mkdir(parents=True, exist_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{database.resolve()}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.utils import translation
    from pypdf import PdfReader

    from tournament.models import Tournament
    from tournament.printing import documents, render
    from tournament.services import penalties
    from tournament.services.generate import generate_tournament

    translation.activate("de")
    call_command("migrate", verbosity=0)
    slug = f"round-pdf-{args.players}"
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        started = time.perf_counter()
        tournament = generate_tournament(players=args.players, rounds=1, seed="round-pdf", slug=slug,
                                         name="Benchmark-Turnier Münster")
        print(f"generated {args.players} players, 1 round in {time.perf_counter() - started:.1f} s")
    round = tournament.rounds.get(number=1)
    round.tournament = tournament
    tables = round.tables.count()
    print(f"{tables} tables, {os.cpu_count()} CPUs ({idle_percent()} idle before the run), workers {args.workers}")
    scratch = Path(tempfile.mkdtemp(prefix="round-pdf-bench-"))
    link_base = "http://192.168.1.20:8000"

    def whole_round(blank: bool) -> Path:
        """What the sheets.pdf view and its background job do: read, build the documents, merge."""
        htmls = documents.round_sheet_documents(round, blank=blank, link_base=link_base)
        return render.merged_pdf_file(htmls, name=f"bench-{blank}", workers=args.workers, parallel_min=2)

    def median(action, fresh: bool) -> tuple[float, object]:
        times, result = [], None
        for index in range(args.repeat):
            if fresh:
                render._drop_pool()
                settings.PDF_CACHE_DIR = scratch / f"cold-{time.monotonic_ns()}-{index}"
            started = time.perf_counter()
            result = action()
            times.append(time.perf_counter() - started)
        return statistics.median(times), result

    try:
        print(f"{'':<8} {'cold':>8} {'warm':>8} {'1 changed':>10} {'pages':>6} {'size':>9}")
        for blank in (True, False):
            cold, path = median(lambda blank=blank: whole_round(blank), fresh=True)
            pages, size = len(PdfReader(path).pages), Path(path).stat().st_size
            print(f"{'blank' if blank else 'filled':<8} {cold:7.2f}s", end="", flush=True)
            warm, _ = median(lambda blank=blank: whole_round(blank), fresh=False)
            table = round.tables.order_by("number").first()
            changed_times = []
            for _index in range(args.repeat):
                penalty = None if blank else penalties.add_penalty(
                    table=table, offender_id=table.seats.order_by("position").first().entry_id, game_number=1,
                    note="Benchmark")
                if blank:  # a blank sheet changes with its players' names: rename one, and back
                    player = table.seats.order_by("position").first().entry.player
                    player.name, old_name = player.name + " B.", player.name
                    player.save(update_fields=["name"])
                started = time.perf_counter()
                whole_round(blank)
                changed_times.append(time.perf_counter() - started)
                if penalty is not None:
                    penalties.delete_penalty(table=table, penalty_id=penalty.id)
                if blank:
                    player.name = old_name
                    player.save(update_fields=["name"])
            changed = statistics.median(changed_times)
            print(f" {warm:7.2f}s {changed:9.2f}s {pages:>6} {size / 2**20:7.1f}MiB", flush=True)
    finally:
        render._drop_pool()
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"CPUs idle after: {idle_percent()}")


if __name__ == "__main__":
    main()
