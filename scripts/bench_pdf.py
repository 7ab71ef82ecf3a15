"""Benchmark (not a test): how many score sheets per second a whole round's PDF gets.

    .venv/bin/python scripts/bench_pdf.py [--players 1000] [--workers 2] [--no-serial]

Uses its own SQLite database (var/bench/pdf-bench.sqlite3; made once with the same generator as
`manage.py generate_tournament`, 1,000 players = 250 tables) and a fresh PDF cache for each cold
run, then prints sheets per second for the round's sheets.pdf:

- cold, in-process (one core) and cold with the worker pool (includes starting the pool);
- warm: everything cached, as a request would do it (read the round, build the HTML, find the PDF);
- warm, merge only: the per-table PDFs cached, the merged round PDF not;
- after changing one table (a penalty added): one sheet laid out again, the round merged again;
- the seating plan (by table and A–Z: two documents, laid out in parallel) and the standings (one
  document) for the same tournament.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from machine_load import idle_percent  # scripts/machine_load.py

ROOT = Path(__file__).resolve().parent.parent



def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000, help="players (4 per table; default 1000 = 250 tables)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes for the parallel run (default 2)")
    parser.add_argument("--no-serial", action="store_true", help="skip the cold in-process run (the slow one)")
    parser.add_argument("--database", default=str(ROOT / "var" / "bench" / "pdf-bench.sqlite3"),
                        help="SQLite file for the generated tournament (default: %(default)s)")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    Path(args.database).parent.mkdir(parents=True, exist_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{Path(args.database).resolve()}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.utils import translation
    from pypdf import PdfReader

    from seating.dealing import game_players
    from tournament.models import Tournament
    from tournament.printing import documents, render
    from tournament.services import penalties
    from tournament.services.generate import generate_tournament

    translation.activate("de")
    call_command("migrate", verbosity=0)
    slug = f"pdf-bench-{args.players}"
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        started = time.perf_counter()
        tournament = generate_tournament(players=args.players, rounds=1, seed="pdf-bench", slug=slug,
                                         name="Benchmark-Turnier Münster")
        print(f"generated {args.players} players, 1 round in {time.perf_counter() - started:.1f} s")
    round = tournament.rounds.get(number=1)
    round.tournament = tournament
    tables = round.tables.count()
    print(f"tournament {slug}: {tables} tables, {os.cpu_count()} CPUs ({idle_percent()} idle before the run), "
          f"{render.RENDER_VERSION}")

    scratch = Path(tempfile.mkdtemp(prefix="pdf-bench-"))
    rows = []

    def fresh_cache(name):
        settings.PDF_CACHE_DIR = scratch / name
        return settings.PDF_CACHE_DIR

    def timed(label, action, sheets=tables):
        started = time.perf_counter()
        result = action()
        seconds = time.perf_counter() - started
        rows.append((label, seconds, sheets / seconds))
        print(f"{label:<48} {seconds:8.2f} s {sheets / seconds:9.1f} sheets/s", flush=True)
        return result

    def whole_round(workers):
        """What the sheets.pdf view does: read the round, build the HTML, get the merged PDF."""
        return render.merged_pdf_file(documents.round_sheet_documents(round), workers=workers)

    try:
        timed("HTML only (queries + templates)", lambda: documents.round_sheet_documents(round))
        if not args.no_serial:
            fresh_cache("serial")
            timed("cold, in-process (1 core)", lambda: whole_round(1))
        fresh_cache("pool")
        timed(f"cold, pool of {args.workers} (pool start included)", lambda: whole_round(args.workers))
        merged_path = timed("warm (merged PDF cached)", lambda: whole_round(args.workers))
        round_pages = len(PdfReader(merged_path).pages)
        for merged in settings.PDF_CACHE_DIR.glob("merged-*.pdf"):
            merged.unlink()
        timed("warm, sheets cached, merge again", lambda: whole_round(args.workers))

        table = round.tables.order_by("number").first()
        entries = [s.entry_id for s in table.seats.order_by("position")]
        _dealer, _out, players = game_players(entries, 1)
        penalty = penalties.add_penalty(table=table, offender_id=players[0], game_number=1, note="Benchmark")
        try:
            timed("one table changed (1 sheet + merge)", lambda: whole_round(args.workers))
        finally:
            penalties.delete_penalty(table=table, penalty_id=penalty.id)

        fresh_cache("other")
        pages = {}
        path = timed("seating plan, cold (2 documents on the pool)",
                     lambda: render.merged_pdf_file(documents.seating_htmls(round), name="bench-seating",
                                                    workers=args.workers, parallel_min=2), sheets=1)
        pages["seating"] = path
        path = timed("standings, cold (one document)", lambda: render.pdf_file(documents.standings_html(tournament)),
                     sheets=1)
        pages["standings"] = path
        print(f"pages: round sheets {round_pages}, "
              + ", ".join(f"{name} {len(PdfReader(p).pages)}" for name, p in pages.items()))
    finally:
        render._drop_pool()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
