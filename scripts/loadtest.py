"""Load test (figures, not a test): an evening's phones and directors against `make serve`.

    .venv/bin/python scripts/loadtest.py [--users 500] [--run-time 120] [--players 500] [--port 8765]
                                         [--rush | --burst [--save-at-once]] [--batched]
    bash scripts/with-postgres.sh .venv/bin/python scripts/loadtest.py      (on PostgreSQL)
    .venv/bin/python scripts/loadtest.py --url http://127.0.0.1:8080 --plan var/cluster/plan.json
                                                                            (an app that runs already)

`make loadtest` runs it on SQLite and on a throwaway PostgreSQL. It prepares a tournament (PLAYERS
players, two rounds played, the third published with empty tables), starts the production server
exactly as `make serve` does (scripts/serve.sh: gunicorn, the PDF worker; on 127.0.0.1 only), and
runs locust headless (scripts/locustfile.py): USERS phones polling the standings or their own page
every 15 s with jitter, plus 3 directors saving games, for RUN_TIME seconds. Then it prints requests
per second, the median, p95 and p99 of each kind of request, the errors (there must be none) and the
bytes the server sent, and stops everything. `--rush`: the round-start rush (`make loadtest` runs it
after the evening's load with 1,000 phones): the phones arrive within 60 s and each opens the new
round's seating first, then its own page, and polls on. The phones arrive one by one: locust starts
each second's users at the same instant, so each phone waits a random part of that second before its
first request; `--batched` leaves them in locust's batches (a harder load than a hall's phones make).
`--burst`: the announcement burst (`make loadtest` runs it with 200 phones): the director announces the
new round and every phone opens its seating within the same 100 ms, fetching the page's static files
as a browser that has not seen the site yet does, then its own page, then polls every 30 s give or take
a fifth (static/js/standings.js). The 3 directors beside them enter the new round's sheets, the first
one 5-10 s after the announcement (`--save-at-once`: in its first second, the worst case).

Bounded: loopback only (it refuses any other address), a fixed number of users, a fixed time.
"""

from __future__ import annotations

import argparse
import csv
import ipaddress
import json
import math
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from machine_load import idle_percent  # scripts/machine_load.py

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "var" / "loadtest"


def loopback_only(url: str) -> str:
    host = urlsplit(url).hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        sys.exit(f"loadtest: {url} is not on this machine's loopback; load tests run against 127.0.0.1 only")
    return url.rstrip("/")



def prepare(players: int, plan_path: Path) -> dict:
    """The tournament of the evening, and the plan the locustfile reads."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from tournament.models import Tournament
    from tournament.services import seating
    from tournament.services.generate import generate_tournament
    from tournament.web import warming

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    slug = f"last-{players}"
    if not Tournament.objects.filter(slug=slug).exists():
        started = time.perf_counter()
        tournament = generate_tournament(players=players, rounds=2, seed="last", slug=slug, name="Lasttest")
        round = seating.create_round(tournament=tournament)
        seating.seat_round(round=round, mode=round.Mode.RANDOM, seed="last-3")
        seating.publish_round(round=round)
        warming.after_publish(round)  # as the director's button does: the worker renders the round's pages
        print(f"loadtest: {players} players, 2 rounds played, round 3 published empty "
              f"({time.perf_counter() - started:.1f} s)", flush=True)
    tournament = Tournament.objects.get(slug=slug)
    round = tournament.rounds.get(number=3)
    accounts = []
    for index in range(1, 4):
        username, password = f"lastleitung{index}", f"last-pw-{index}-doppelkopf"
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            user = get_user_model().objects.create_user(username=username, password=password)
        tournament.directors.add(user)
        accounts.append({"username": username, "password": password})
    tables = table_plan(tournament, round)
    plan = {"slug": slug, "round": round.number, "entries": list(tournament.entries.values_list("id", flat=True)),
            "directors": accounts, "tables": tables, "vendor": connection.vendor}
    plan_path.write_text(json.dumps(plan), encoding="utf-8")
    if connection.vendor == "postgresql":
        # the tournament was just written in bulk: PostgreSQL's autovacuum would analyse it during the
        # run (at a venue that happened long before 21:40); done now, it does not fall into the figures
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    connection.close()
    return plan


def table_plan(tournament, round) -> list[dict]:
    """The round's tables as the directors of a load test play them: each table's seats in order, its
    games, and the four who play each game (at a table of 5 the dealer sits out). After django.setup()."""
    from seating.dealing import game_players

    tables = []
    for table in round.tables.order_by("number").prefetch_related("seats"):
        seats = [seat.entry_id for seat in sorted(table.seats.all(), key=lambda s: s.position)]
        games = tournament.games_at_table(len(seats))
        tables.append({"number": table.number, "games": games, "seats": seats, "players_of_game": {
            str(n): list(game_players(seats, n)[2]) for n in range(1, games + 1)}})
    return tables


def verify(plan: dict, wire: dict) -> int:
    """After the run: every game a director saved (answered 302) is stored exactly once, and every
    table of the round sums to zero. Prints what it found; returns the number of problems."""
    from django.db import connection
    from django.db.models import Sum

    from tournament.models import Game, Score

    where = {"table__round__tournament__slug": plan["slug"], "table__round__number": plan["round"]}
    saved = wire["statuses"].get("save game 302", 0)
    stored = Game.objects.filter(**where).count()
    unbalanced = (Score.objects.filter(**where).values("table_id").annotate(total=Sum("points"))
                  .exclude(total=0).count())
    connection.close()
    problems = (stored != saved) + (unbalanced > 0)
    print(f"  games saved (302): {saved}, stored: {stored}; tables not summing to zero: {unbalanced}"
          f" ({'as it must be' if not problems else 'NOT as it must be'})")
    return problems


def wait_for_warming(seconds: float = 180) -> None:
    """Waits until the background worker has rendered the published round's pages (`web/warming.py`):
    at a venue the director publishes the round and then announces it; the phones come after that."""
    from django.db import connection
    from django_tasks_db.models import DBTaskResult

    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            job = DBTaskResult.objects.filter(task_path__endswith="warm_round").order_by("-enqueued_at").first()
            if job is None:
                print("loadtest: no warming of the round was queued", flush=True)
                return
            if job.finished_at is not None:
                took = (job.finished_at - job.started_at).total_seconds()
                print(f"loadtest: the worker rendered the round's pages before the announcement ({job.status}, "
                      f"{job.return_value} pages in {took:.1f} s)", flush=True)
                return
            time.sleep(0.5)
        print(f"loadtest: the warming of the round did not finish within {seconds:.0f} s", flush=True)
    finally:
        connection.close()


def wait_until_up(url: str, seconds: float = 240) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.5)
    sys.exit(f"loadtest: the server did not answer {url} within {seconds:.0f} s")


BURST_SECONDS = 0.1  # the announcement burst: every phone arrives within these seconds


def spawn_rate_of(users: int, rush: bool, burst: bool = False) -> float:
    """Phones arriving per second: in the burst all at once (each then waits a random part of
    BURST_SECONDS), in the rush all within 60 s, else within about 10 s."""
    if burst:
        return float(users)
    return users / 60 if rush else max(10, users // 10)


def dispatch_interval(spawn_rate: float) -> float:
    """The seconds between the moments locust starts a batch of users: it starts floor(spawn rate)
    users at once, then waits (locust 2; 2.47 here: locust/dispatch.py). The phones of a batch spread over
    this interval (LOADTEST_ARRIVAL_SPREAD in scripts/locustfile.py), so that they arrive one by one."""
    return max(1, math.floor(spawn_rate)) / spawn_rate


def arrival_seconds(args) -> float:
    return args.users / spawn_rate_of(args.users, args.rush, args.burst)


def settled_after(args) -> float:
    """The seconds after which every phone has arrived and polled twice: the arrival plus the longest
    wait between a phone's first poll (right after it opened its page) and its second
    (scripts/locustfile.py waits between 0.8 and 1.2 polls). Spread over locust's dispatch interval,
    the last phones arrive up to a second later; the window stays as it was, to compare runs."""
    if args.burst:
        return 3.0  # the burst itself: the seating, its static files and the pages opened right after
    return arrival_seconds(args) + args.poll * 1.2


def run_locust(url: str, plan_path: Path, users: int, run_time: int, name: str, poll: float,
               rush: bool = False, directors: int = 3, batched: bool = False, burst: bool = False,
               rangliste: str = "", rangliste_phones: int = 0) -> dict:
    """`rush`: the round-start rush: the phones arrive within 60 s, each opening the new round's
    seating first, then its own page, while the others poll and the directors save games."""
    prefix = OUT / name
    counts = OUT / f"{name}-bytes.json"
    env = {**os.environ, "LOADTEST_PLAN": str(plan_path), "LOADTEST_BYTES": str(counts),
           "LOADTEST_POLL": str(poll), "LOADTEST_RUSH": "1" if rush or burst else "0",
           "LOADTEST_STATIC": "1" if burst else "0", "LOADTEST_DIRECTORS": str(directors),
           "LOADTEST_RANGLISTE": rangliste, "LOADTEST_RANGLISTE_PHONES": str(rangliste_phones if rangliste else 0)}
    directors += rangliste_phones if rangliste else 0  # (locust starts the users of a fixed count first)
    spawn_rate = round(spawn_rate_of(users + (directors if burst else 0), rush, burst), 2)  # as locust is given it
    if burst:
        env["LOADTEST_ARRIVAL_SPREAD"] = str(BURST_SECONDS)
    else:
        env["LOADTEST_ARRIVAL_SPREAD"] = "0" if batched else f"{dispatch_interval(spawn_rate):.3f}"
    command = [sys.executable, "-m", "locust", "-f", str(ROOT / "scripts" / "locustfile.py"), "--headless",
               "--host", url, "--users", str(users + directors), "--spawn-rate", f"{spawn_rate:.2f}",
               "--run-time", f"{run_time}s", "--stop-timeout", "10", "--csv", str(prefix), "--only-summary",
               "--loglevel", "WARNING"]
    done = subprocess.run(command, env=env, cwd=ROOT, timeout=run_time + 180, capture_output=True, text=True)
    if done.returncode not in (0, 1) or not Path(f"{prefix}_stats.csv").exists():  # 1: some requests failed
        print(done.stdout[-4000:], done.stderr[-4000:])
        sys.exit(f"loadtest: locust ended with {done.returncode}")
    with open(f"{prefix}_stats.csv", encoding="utf-8") as file:
        stats = list(csv.DictReader(file))
    with open(f"{prefix}_failures.csv", encoding="utf-8") as file:
        failures = list(csv.DictReader(file))
    wire = json.loads(counts.read_text(encoding="utf-8")) if counts.exists() else {"bytes": {}, "statuses": {}}
    return {"stats": stats, "failures": failures, "wire": wire}


def run_burst(url: str, plan_path: Path, users: int, run_time: int, name: str, poll: float,
              directors: int = 3, save_at_once: bool = False) -> dict:
    """The announcement burst: the phones from scripts/burst_phones.py (one asyncio loop whose own CPU is
    small and printed), the directors from locust beside them. locust spawning 200 phones in the burst's
    second took up to 0.8 of a core of the two the server has, and its own clock ran late with it
    (docs/performance.md, "The announcement burst"). The phones start once the directors have logged in;
    each director waits its interval (5-10 s) before its first sheet, since the round was just announced,
    unless `save_at_once` (the worst case: a game saved in the burst's first second makes every page the
    worker warmed new)."""
    ready = OUT / f"{name}-ready"
    ready.unlink(missing_ok=True)
    env = {**os.environ, "LOADTEST_READY": str(ready), "LOADTEST_WAIT_BEFORE_FIRST_SHEET": "0" if save_at_once else "1"}
    directors_run = subprocess.Popen(
        [sys.executable, str(Path(__file__)), "--url", url, "--plan", str(plan_path), "--users", "0",
         "--directors", str(directors), "--run-time", str(run_time), "--name", f"{name}-directors"],
        env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 120
    while directors and not ready.exists() and directors_run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    phones_out = OUT / f"{name}-phones.json"
    phones = subprocess.run([sys.executable, str(ROOT / "scripts" / "burst_phones.py"), "--url", url, "--plan",
                             str(plan_path), "--phones", str(users), "--window", str(BURST_SECONDS), "--run-time",
                             str(run_time), "--poll", str(poll), "--out", str(phones_out)],
                            cwd=ROOT, timeout=run_time + 120)
    directors_output, _ = directors_run.communicate(timeout=run_time + 180)
    print(directors_output.rstrip())
    result = json.loads(phones_out.read_text(encoding="utf-8"))
    result["returncode"] = phones.returncode + (directors_run.returncode or 0)
    return result


def report(result: dict, run_time: int, label: str) -> int:
    stats, wire = result["stats"], result["wire"]
    print(f"\n{label}")
    print(f"  {'request':30s} {'count':>7s} {'req/s':>7s} {'p50':>7s} {'p95':>7s} {'p99':>7s} {'max':>7s} "
          f"{'errors':>6s} {'KiB sent':>10s}")
    errors = 0
    for row in stats:
        name = row["Name"]
        sent = sum(wire["bytes"].values()) if name == "Aggregated" else wire["bytes"].get(name, 0)
        print(f"  {name:30s} {int(row['Request Count']):7d} {float(row['Requests/s']):7.1f} "
              f"{row['50%']:>5s}ms {row['95%']:>5s}ms {row['99%']:>5s}ms {float(row['Max Response Time']):5.0f}ms "
              f"{int(row['Failure Count']):6d} {sent / 1024:10.1f}")
        if name == "Aggregated":
            errors = int(row["Failure Count"])
    not_modified = sum(n for key, n in wire["statuses"].items() if key.endswith(" 304"))
    polls = sum(n for key, n in wire["statuses"].items() if " poll " in key)
    if polls:
        print(f"  polls answered 304 Not Modified: {not_modified} of {polls}")
    for failure in result["failures"]:
        print(f"  ERROR {failure['Method']} {failure['Name']}: {failure['Error']} ({failure['Occurrences']}x)")
    if wire.get("logins"):
        logins = ", ".join(f"{ms:,} ms" for ms in wire["logins"])
        print(f"  the directors logged in before the phones arrived: {logins}")
    total = sum(wire["bytes"].values()) / 1048576
    print(f"  errors: {errors} ({'none' if not errors else 'NOT zero'}); sent {total:.1f} MiB in {run_time} s")
    return errors


def percentile(values: list[float], share: float) -> float:
    """The smallest value that `share` of the values do not exceed (as locust counts: nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def report_phases(result: dict, settled: float) -> None:
    """The same figures apart for the requests while the phones arrive (each opens its page and
    polls at once) and for those after `settled` seconds (every phone has arrived and polled once)."""
    times = result["wire"].get("times", [])
    for label, chosen in ((f"while the phones arrive (the first {settled:.0f} s)", lambda t: t < settled),
                          (f"after the phones arrived (from {settled:.0f} s on)", lambda t: t >= settled)):
        kinds: dict[str, list[float]] = {}
        for at, name, duration in times:
            if chosen(at):
                kinds.setdefault(name, []).append(duration)
                kinds.setdefault("Aggregated", []).append(duration)
        print(f"\n  {label}")
        for name in sorted(kinds, key=lambda n: (n == "Aggregated", n)):
            values = kinds[name]
            p50, p95, p99 = (percentile(values, share) for share in (.5, .95, .99))
            print(f"  {name:30s} {len(values):7d} {'':7s} {p50:5.0f}ms {p95:5.0f}ms {p99:5.0f}ms {max(values):5.0f}ms")


def arrivals_text(args, then: str) -> str:
    """How the phones arrive, for the report's heading."""
    if args.burst:
        return f"all within {BURST_SECONDS * 1000:.0f} ms, seating and its static files first{then}"
    return f"arriving within 60 s, seating first{then}" if args.rush else ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=500, help="phones (default 500); plus 3 directors")
    parser.add_argument("--run-time", type=int, default=120, help="seconds (default 120)")
    parser.add_argument("--players", type=int, default=500, help="players of the tournament (default 500)")
    parser.add_argument("--poll", type=float, default=15, help="seconds between a phone's polls (default 15)")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--url", help="an app that runs already (on 127.0.0.1), with --plan")
    parser.add_argument("--plan", help="the plan of that app's tournament (JSON, from --prepare-only)")
    parser.add_argument("--prepare-only", metavar="PLAN", help="prepare the tournament, write the plan, stop")
    parser.add_argument("--name", default="", help="name of the result files under var/loadtest/")
    parser.add_argument("--directors", type=int, default=3, help="directors saving games (default 3)")
    parser.add_argument("--rangliste", default="", help="with --url: an association's Rangliste (its short name) "
                                                        "that phones follow beside the tournament's")
    parser.add_argument("--rangliste-phones", type=int, default=0, help="phones following it (its page and API)")
    parser.add_argument("--rush", action="store_true",
                        help="the round-start rush: the phones arrive within 60 s and open the round's seating first")
    parser.add_argument("--burst", action="store_true",
                        help="the announcement burst: every phone opens the new round's seating (with its static "
                             "files) within the same 100 ms, then polls every 30 s (unless --poll)")
    parser.add_argument("--locust-phones", action="store_true",
                        help="with --burst: the phones from locust as well (before 2026-11-29; for comparison: "
                             "locust's own CPU falls into the burst)")
    parser.add_argument("--save-at-once", action="store_true",
                        help="with --burst: each director saves a game at the announcement instead of after its "
                             "5-10 s (the worst case: every page the worker warmed is new in the burst)")
    parser.add_argument("--batched", action="store_true",
                        help="start each second's phones at the same instant, as locust does on its own "
                             "(harder than phones arriving one by one; docs/performance.md)")
    args = parser.parse_args()
    if args.burst and args.poll == parser.get_default("poll"):
        args.poll = 30  # the standings page's interval (static/js/standings.js)
    if args.users < (0 if args.url else 1) or args.users > 2000 or args.run_time < 1 or args.run_time > 900:
        sys.exit("loadtest: 1 to 2,000 users for 1 to 900 seconds")
    OUT.mkdir(parents=True, exist_ok=True)

    if args.prepare_only:
        prepare(args.players, Path(args.prepare_only))
        return
    if args.url:
        url = loopback_only(args.url)
        plan_path = Path(args.plan)
        vendor = json.loads(plan_path.read_text())["vendor"]
        if args.burst and not args.locust_phones:
            result = run_burst(url, plan_path, args.users, args.run_time, args.name or "remote", args.poll,
                               directors=args.directors, save_at_once=args.save_at_once)
            sys.exit(1 if result["returncode"] else 0)
        result = run_locust(url, plan_path, args.users, args.run_time, args.name or "remote", args.poll,
                            rush=args.rush, directors=args.directors, batched=args.batched, burst=args.burst,
                            rangliste=args.rangliste, rangliste_phones=args.rangliste_phones)
        arriving = arrivals_text(args, "; ")
        arriving = ("each second's phones at once, " if args.batched else "") + arriving
        following = (f" + {args.rangliste_phones} phones following the Rangliste {args.rangliste} (its page and "
                     f"its API in turn)" if args.rangliste else "")
        errors = report(result, args.run_time, f"{args.users} phones ({arriving}every {args.poll:g} s){following} + "
                                               f"{args.directors} directors, {args.run_time} s, {url} ({vendor})")
        if args.users:  # (none: the burst's directors beside scripts/burst_phones.py)
            report_phases(result, settled_after(args))
        sys.exit(1 if errors else 0)

    if not os.environ.get("DATABASE_URL"):
        database = OUT / "loadtest.sqlite3"
        for path in OUT.glob("loadtest.sqlite3*"):
            path.unlink()
        os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    plan_path = OUT / "plan.json"
    plan = prepare(args.players, plan_path)
    vendor = plan["vendor"]
    url = loopback_only(f"http://127.0.0.1:{args.port}")
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(args.port), "SERVE_QUIET": "1",
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost", "GUNICORN_ACCESS_LOG": ""}
    log = (OUT / f"server-{vendor}.log").open("w", encoding="utf-8")  # noqa: SIM115 (open while the server runs)
    server = subprocess.Popen(["bash", str(ROOT / "scripts" / "serve.sh")], cwd=ROOT, env=env, stdout=log,
                              stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_until_up(f"{url}/t/{plan['slug']}/standings/")
        wait_for_warming()
        print(f"loadtest: make serve's server on {url} ({vendor}); CPUs idle before: {idle_percent()}; "
              f"{args.users} phones + 3 directors for {args.run_time} s ...", flush=True)
        name = args.name or (f"{vendor}-burst" if args.burst else f"{vendor}-rush" if args.rush else vendor)
        if args.burst and not args.locust_phones:
            burst = run_burst(url, plan_path, args.users, args.run_time, name, args.poll, directors=args.directors,
                              save_at_once=args.save_at_once)
            wire = json.loads((OUT / f"{name}-directors-bytes.json").read_text(encoding="utf-8"))
            result = None
        else:
            result = run_locust(url, plan_path, args.users, args.run_time, name, args.poll, rush=args.rush,
                                directors=args.directors, batched=args.batched, burst=args.burst)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.close()
    if result is None:  # the burst: the phones' and the directors' reports were printed by run_burst
        errors = burst["returncode"]
        errors += verify(plan, wire)
        sys.exit(1 if errors else 0)
    arriving = arrivals_text(args, ", then ")
    arriving = ("each second's phones at once, " if args.batched else "") + arriving
    errors = report(result, args.run_time, f"{args.users} phones ({arriving}every {args.poll:g} s, with jitter) "
                                           f"+ {args.directors} directors, {args.run_time} s, make serve on {vendor}")
    report_phases(result, settled_after(args))
    errors += verify(plan, result["wire"])
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
