"""Benchmarks (figures, not tests): what the pages and the heavy operations cost at championship size.

    .venv/bin/python scripts/bench.py [--players 1000] [--rounds 3] [--repeat 20] [--no-pdf]
    bash scripts/with-postgres.sh .venv/bin/python scripts/bench.py     (the same on PostgreSQL)

`make bench` runs both. One generated tournament (1,000 players, 3 rounds, every game played); every
request goes through Django's test client with the production settings (debug off, the shared cache
in the database), each timed from the request to the last byte of the answer. Beside each figure, a
bare Django view that returns the same number of bytes, measured in the same run, through the same
middleware: what the page costs above Django itself.

- standings, first render: the first request after a change (nothing cached for the new counter);
- poll unchanged: the self-update with the ETag it already has (304);
- poll after a change: the first phone after a change, and the other phones after it (each with its
  own row `me`);
- a player's page, first render: right after a change (nothing cached), and once the standings of
  the new counter are cached (what every other player's page finds), also after a change at the
  player's own table (their games read again: `selectors.player_record`);
- the round's seating (public), a table's sheet (director), saving a game through the game form
  (with the table's recomputation and the change log), recomputing the whole tournament, export
  (the backup download) and import (the restore page), the round's sheets as PDF: the background
  job cold (empty PDF cache), warm (after one game changed: one sheet laid out again, merged), and
  the download of the finished PDF.

Targets (the bounds of docs/performance.md): unchanged polls and the public seating within 25x the
bare view; the standings' first render after a change under 30 ms; a player's page after a change
under 15 ms with the standings cached, under 30 ms with nothing cached; saving a game under 50 ms;
recomputing everything under 2 s; importing under 5 s.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from machine_load import idle_percent  # scripts/machine_load.py

ROOT = Path(__file__).resolve().parent.parent
BARE_URL = "/__bench_bare__/"



def bare_urlconf(name: str) -> str:
    """A URLconf module `name`: the app's URLs and, at BARE_URL<size>/, a bare Django view returning that
    many bytes (what each page is measured beside). Returns its name, for ROOT_URLCONF. After django.setup()."""
    import types

    from django.http import HttpResponse
    from django.urls import include, path

    def bare(request, size):
        return HttpResponse(b"x" * size)

    urls = types.ModuleType(name)
    urls.urlpatterns = [path(BARE_URL.strip("/") + "/<int:size>/", bare),  # type: ignore[attr-defined]
                        path("", include("config.urls"))]
    sys.modules[name] = urls
    return name


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


class Report:
    def __init__(self):
        self.rows: list[tuple] = []

    def add(self, name, times, size=None, bare=None, target=None, queries=None):
        median, p95 = statistics.median(times) * 1000, percentile(times, 0.95) * 1000
        bare_median = statistics.median(bare) * 1000 if bare else None
        self.rows.append((name, median, p95, size, bare_median, target, queries))
        ratio = f"{median / bare_median:6.1f}x" if bare_median else "      "
        bare_text = f"{bare_median:7.2f} ms" if bare_median is not None else "         "
        size_text = f"{size / 1024:8.1f} KiB" if size is not None else "            "
        target_text = ""
        if target is not None:
            limit = target(bare_median) if callable(target) else target
            target_text = f"  target < {limit:.1f} ms: {'met' if median < limit else 'NOT met'}"
        query_text = f"  {queries} queries" if queries is not None else ""
        print(f"  {name:46s} median {median:8.1f} ms  p95 {p95:8.1f} ms {size_text}  bare {bare_text} {ratio}"
              f"{target_text}{query_text}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=20, help="requests per figure (default 20)")
    parser.add_argument("--no-pdf", action="store_true", help="skip the PDF figures (the cold one takes ~30 s)")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    work = Path(tempfile.mkdtemp(prefix="doko-bench-"))
    pristine = ROOT / "var" / "bench" / f"bench-{args.players}-{args.rounds}.sqlite3"
    sqlite = not os.environ.get("DATABASE_URL")
    if sqlite:
        os.environ["DATABASE_URL"] = f"sqlite:///{work / 'bench.sqlite3'}"
    os.environ.update(DJANGO_DEBUG="0", DJANGO_SECRET_KEY="bench-" + "x" * 50, DJANGO_HTTPS="0",
                      DJANGO_ALLOWED_HOSTS="testserver", DJANGO_LOG_TO_FILE="0", DJANGO_PDF_CACHE_DIR=str(work / "pdf"),
                      DJANGO_SETTINGS_MODULE="config.settings")
    if sqlite and pristine.exists():
        shutil.copy(pristine, work / "bench.sqlite3")
    import django

    django.setup()
    import logging

    logging.getLogger("django.request").setLevel(logging.ERROR)
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, override_settings

    from tournament import engine
    from tournament.models import Game, Table, Tournament
    from tournament.printing import jobs
    from tournament.services import exporting, penalties, results, scores
    from tournament.services.generate import generate_tournament

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    slug = f"bench-{args.players}"
    if not Tournament.objects.filter(slug=slug).exists():
        started = time.perf_counter()
        generate_tournament(players=args.players, rounds=args.rounds, seed="bench", slug=slug)
        print(f"generated {args.players} players, {args.rounds} rounds in {time.perf_counter() - started:.1f} s")
        if sqlite:
            pristine.parent.mkdir(parents=True, exist_ok=True)
            connection.close()
            shutil.copy(work / "bench.sqlite3", pristine)
    if not sqlite:
        # the tournament was just written in bulk: PostgreSQL's autovacuum analyses it within a minute
        # (at a venue long before a page is asked for); without its statistics the planner joins the
        # player's seats through whole tables (0.64 ms instead of 0.27). As `loadtest.py` does.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")

    urlconf = bare_urlconf("bench_urls")

    tournament = Tournament.objects.get(slug=slug)
    director = tournament.directors.first()
    if director is None:
        from django.contrib.auth import get_user_model

        director = get_user_model().objects.create_user("bench-leitung", password="bench-pw-1234")
        tournament.directors.add(director)
    last_round = tournament.rounds.order_by("-number").first()
    tables = list(Table.objects.filter(round=last_round).order_by("number"))
    entry_id = tables[-1].seats.order_by("position").first().entry_id
    report = Report()
    # the import below goes through the restore page, which only organisers may use (docs/security.md)
    from tournament.services.organisations import default_organisation

    default_organisation().organisers.add(director)
    public, boss = Client(), Client()
    boss.force_login(director)
    vendor = connection.vendor
    print(f"{args.players} players, {args.rounds} rounds, {len(tables)} tables a round; {vendor}; "
          f"{args.repeat} requests a figure; cache: {settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}; "
          f"CPUs idle before: {idle_percent()}")

    def timed(client, url, **extra):
        started = time.perf_counter()
        response = client.get(url, **extra)
        if response.streaming:
            body = b"".join(response.streaming_content)
        else:
            body = response.content
        return time.perf_counter() - started, response, len(body)

    def bare_times(size):
        client = Client()
        return [timed(client, f"{BARE_URL}{size}/")[0] for _ in range(args.repeat)]

    change_index = [0]

    def change(at: Table | None = None):
        """A change of the tournament, as a director saving a game does (not timed): the first game's
        Augen at the next table, or at table `at`. The edit is checked first (`preview_game`, outside a
        transaction): a save the checks refuse rolls back, and a rollback makes psycopg forget every
        statement the connection has prepared, so the next request measured would plan its queries again
        (docs/performance.md, "Prepared statements")."""
        change_index[0] += 1
        table = at or tables[change_index[0] % len(tables)]
        game = Game.objects.filter(table=table).order_by("number").first()
        step = change_index[0] % 50
        for augen in (121 + step if game.re_augen <= 120 else 100 - step, game.re_augen + 1, game.re_augen - 1):
            data = {**engine.data_of(game), "re_augen": augen}
            try:
                results.preview_game(table=table, data=data, number=game.number)
            except Exception:  # Augen the game's tricks do not allow: the next try
                continue
            results.save_game(table=table, number=game.number, data=data)
            return
        if at is not None:
            raise SystemExit(f"bench: no edit of Augen suits the first game at table {table.number}")
        change()  # no edit of Augen suits this game (a Schwarz game): the next table

    def measure(name, url, *, client=public, before=None, target=None, expect=200, **extra):
        times, size, queries = [], 0, 0
        for _ in range(args.repeat):
            if before:
                before()
            with CaptureQueriesContext(connection) as captured:
                seconds, response, size = timed(client, url, **extra)
            assert response.status_code == expect, (name, response.status_code)
            times.append(seconds)
            queries = len(captured)
        report.add(name, times, size, bare_times(size), target, queries)
        return response

    with override_settings(ROOT_URLCONF=urlconf):
        standings = f"/t/{slug}/standings/"
        print("\npublic pages (anonymous phone):")
        measure("standings, first render", standings, before=change, target=30)
        page = public.get(standings)
        poll = f"{standings}?partial=1"
        etag = public.get(poll)["ETag"]
        measure("standings, poll unchanged (304)", poll, HTTP_IF_NONE_MATCH=etag, expect=304,
                target=lambda bare: 25 * bare)
        measure("standings, poll after a change, first phone", f"{poll}&me={entry_id}", before=change,
                HTTP_IF_NONE_MATCH=etag, HTTP_ACCEPT_ENCODING="gzip")
        # after a change the first phone renders the table; every other phone finds it in the cache and
        # gets it with its own row added
        phones = iter(list(tournament.entries.values_list("id", flat=True)) * 3)
        change()
        public.get(f"{poll}&me={entry_id}")
        times, size = [], 0
        for _ in range(args.repeat):
            seconds, response, size = timed(public, f"{poll}&me={next(phones)}", HTTP_IF_NONE_MATCH=etag,
                                            HTTP_ACCEPT_ENCODING="gzip")
            assert response.status_code == 200
            times.append(seconds)
        report.add("standings, poll after a change, other phones", times, size, bare_times(size))
        measure("standings, all places (?all=1), first render", f"{standings}?all=1", before=change)
        print(f"  (the page: {len(page.content) / 1024:.1f} KiB; a poll compressed: "
              f"{len(public.get(poll + '&me=' + str(entry_id), HTTP_ACCEPT_ENCODING='gzip').content) / 1024:.1f} KiB)")

        player = f"/t/{slug}/players/{entry_id}/"
        measure("player page, first render (nothing cached)", player, before=change, target=30)

        def change_then_standings():
            change()
            public.get(standings)

        measure("player page, first render (standings cached)", player, before=change_then_standings, target=15)

        def own_change_then_standings():  # the player's own table: their games are read again
            change(tables[-1])
            public.get(standings)

        measure("player page, own table changed (standings cached)", player, before=own_change_then_standings,
                target=15)
        player_etag = public.get(f"{player}?partial=1")["ETag"]
        measure("player page, poll unchanged (304)", f"{player}?partial=1", HTTP_IF_NONE_MATCH=player_etag,
                expect=304, target=lambda bare: 25 * bare)
        measure("round's seating (public)", f"/t/{slug}/rounds/{last_round.number}/", target=lambda bare: 25 * bare)

        print("\ndirector:")
        measure("table sheet", f"/t/{slug}/rounds/{last_round.number}/tables/{tables[0].number}/", client=boss)
        # saving a game through the game form: the table is locked, checked, the game stored with its
        # change log, the table recomputed; the answer is a redirect to the next game's form
        table = tables[1]
        game = Game.objects.filter(table=table).order_by("number").first()
        seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
        from seating.dealing import game_players

        _dealer, _out, players = game_players(seats, game.number)
        url = f"/t/{slug}/rounds/{last_round.number}/tables/{table.number}/games/{game.number}/"
        times = []
        boss.get(url)
        for index in range(args.repeat):
            version = Game.objects.get(pk=game.pk).version
            re_seats = "".join(str(seats.index(player) + 1) for player in players[:2])  # as on the sheet: "13"
            data = {"type": "normal", "solo": "", "re": [players[0], players[1]], "re_seats": re_seats,
                    "announce_re": "", "announce_kontra": "", "re_augen": str(121 + index % 60), "re_tricks": "",
                    "action": "save", "version": str(version), "number": str(game.number)}
            started = time.perf_counter()
            response = boss.post(url, data)
            times.append(time.perf_counter() - started)
            assert response.status_code == 302, response.status_code
        report.add("saving a game (game form, with recomputation)", times, len(response.content),
                   bare_times(len(response.content)), 50)

        times = []
        for _ in range(max(3, args.repeat // 5)):
            started = time.perf_counter()
            scores.rebuild_scores(tournament=tournament)  # (recorded, so the change counter moves)
            times.append(time.perf_counter() - started)
        report.add("recomputing the whole tournament", times, target=2000)

        response = measure("export (backup download)", f"/t/{slug}/backup.json", client=boss)
        data = response.content
        times = []
        for index in range(max(3, args.repeat // 5)):
            upload = io.BytesIO(data)
            upload.name = "sicherung.json"
            started = time.perf_counter()
            response = boss.post("/restore/", {"file": upload, "slug": f"kopie-{index}"})
            times.append(time.perf_counter() - started)
            assert response.status_code == 302, (response.status_code, response.content[:2000])
        report.add("import (restore page, the backup above)", times, len(data), None, 5000)
        assert Tournament.objects.filter(slug="kopie-0").exists()
        assert exporting.export_tournament(Tournament.objects.get(slug="kopie-0"))["players"]

        if not args.no_pdf:
            print("\nthe round's sheets as PDF (background job; run here as the worker runs it):")
            sheets = f"/t/{slug}/rounds/{last_round.number}/sheets.pdf"

            def job_of(response):
                return response.content.decode().split("?job=")[1].split('"')[0].split("&")[0]

            def run_job(label, target=None):
                started = time.perf_counter()
                answer = boss.get(sheets)
                asked = time.perf_counter() - started
                assert answer.status_code == 202, answer.status_code
                job = job_of(answer)
                from django_tasks_db.models import DBTaskResult

                row = DBTaskResult.objects.filter(status="READY").order_by("-enqueued_at").first()
                started = time.perf_counter()
                jobs.build_pdf.call(job, row.args_kwargs["args"][1])
                built = time.perf_counter() - started
                row.delete()
                report.add(f"{label}: the request that starts it", [asked], len(answer.content),
                           bare_times(len(answer.content)))
                report.add(f"{label}: the job", [built], target=target)
                return job

            shutil.rmtree(work / "pdf", ignore_errors=True)
            job = run_job("cold (empty PDF cache)")
            measure("download of the finished PDF", f"{sheets}?job={job}", client=boss)
            for index in range(2):
                change_table = tables[index]
                penalties.add_penalty(table=change_table, offender_id=change_table.seats.first().entry_id,
                                    game_number=1, note="Bench")
                run_job(f"warm (one table changed, {index + 1})")
    print(f"\nCPUs idle after: {idle_percent()}; work folder {work} (removed)")
    connection.close()
    shutil.rmtree(work, ignore_errors=True)
    summary = {row[0]: {"median_ms": round(row[1], 2), "p95_ms": round(row[2], 2)} for row in report.rows}
    out = ROOT / "var" / "bench" / f"last-{vendor}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1, ensure_ascii=False))
    print(f"figures also in {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
