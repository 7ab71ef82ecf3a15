"""`make hub-check`: publishing from a venue to a hub, proven under faults, on loopback.

    bash scripts/hub-check.sh [--players 200] [--rounds 4] [--phones 100] [--port 8310]
    (it installs PostgreSQL, Redis and nginx from Debian when missing and runs this script inside
    scripts/with-postgres.sh: DATABASE_URL is the hub's PostgreSQL)

What runs (ports from --port, default 8310):

    directors (3) + phones ──► venue :8310   make serve's stack (scripts/serve.sh): gunicorn, the PDF
                                              worker, the sender (manage.py publish); SQLite in var/hubcheck/
    sender ──► fault proxy :8311 (scripts/fault_proxy.py, commands on :8315)
           ──► nginx :8312 ──► hub instances A :8313, B :8314 (gunicorn, DJANGO_HUB=1)
                               PostgreSQL (with-postgres.sh), Redis (unix socket), as `make cluster-check`

1. The hub: migrated, an organisation and a publishing key (`setup-hub`). The venue: a tournament of
   PLAYERS players (ROUNDS rounds planned), 3 director accounts, publication started with the key
   through the proxy (`setup-venue`: the services, as the "Online veröffentlichen" page calls them).
2. Each round: drawn and published (the services, `round start`), then 3 directors save every game
   through the venue's game form (GET the form, POST it, as scripts/locustfile.py's Director), as fast
   as the form answers; one table of round 2 is entered as totals only (the totals form); per round two
   penalties (the penalty form) and three corrections (a saved game saved again with other Augen, the
   form's version); then the round is closed (`round close`). Meanwhile PHONES phones poll the venue's
   standings or their player's page every 15 s with their ETag, as in the load test.
3. Faults, by the share of games saved: the proxy drops half the connections (early: reset; late: the
   hub applied the batch and its answer is lost), the hub's two instances are stopped (SIGTERM) and
   started, the proxy delays every chunk by 1.5 s, refuses connections, the instances are killed
   (SIGKILL: a crash in the middle of a batch) and started again.
4. A watcher (`watch`) reads the hub's games from its database every 0.25 s: when each game (and each
   correction's new Augen) first appears there. Delay = that moment − the moment the venue answered
   the director's save.
5. At the end (faults off) it waits until the director's page says "auf dem neuesten Stand", then
   compares (`dump` on each side): the tournament file of both (export_tournament(backup=False) less
   the venue-only parts and the short name), table by table the games, totals and penalties stored,
   that the hub has one tournament and nothing twice, and that every correction made is in the hub's
   correction history. Prints the counts and the delays (p50/p95 while the hub was up), exits 1 on
   any difference.

Bounded: loopback only, fixed counts, every wait with a deadline; everything it started is stopped at
the end (also on failure or Ctrl+C).
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import math
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "var" / "hubcheck"
PY = sys.executable
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
VERSION = re.compile(r'name="version" value="(\d+)"')
QUIET_TABLES, QUIET_PACE = 3, 1.5  # the last tables, a game every 1.5 s, once the hub is up to date
DEADLINE = time.monotonic() + 900  # nothing of the check runs longer than 15 minutes


# ---- the Django side: subcommands run with the venue's or the hub's DATABASE_URL -------------------------

def django_setup() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def setup_hub(out: Path) -> None:
    django_setup()
    from django.core.management import call_command

    from tournament.services import organisations, publishing_keys

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    organisation = organisations.create_organisation(name="Doppelkopfverband Hub-Check", slug="hubcheck")
    _key, secret = publishing_keys.issue_key(organisation=organisation, label="Vereinsheim Hub-Check")
    out.write_text(json.dumps({"key": secret}), encoding="utf-8")


def setup_venue(out: Path, players: int, rounds: int, hub_url: str, key: str) -> None:
    django_setup()
    import datetime

    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tournament.services import generate, outbox, tournaments

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    tournament = tournaments.create_tournament(name="Hub-Check", date=datetime.date.today(), slug="hub-check",
                                               rounds_planned=rounds)
    rng = random.Random("hubcheck")
    clubs = [rng.choice(generate.CLUBS) for _ in range(players)]
    generate.add_players(tournament, list(zip(generate.german_names(players, rng), clubs, strict=True)))
    accounts = []
    for index in range(1, 4):
        username, password = f"hubleitung{index}", f"hub-pw-{index}-doppelkopf"
        user = get_user_model().objects.create_user(username=username, password=password)
        tournament.directors.add(user)
        accounts.append({"username": username, "password": password})
    outbox.start_publication(tournament=tournament, hub_url=hub_url, key=key)
    entries = list(tournament.entries.values_list("id", flat=True))
    out.write_text(json.dumps({"slug": tournament.slug, "directors": accounts, "entries": entries}), encoding="utf-8")


def venue_round(action: str, number: int, out: Path | None) -> None:
    django_setup()
    from loadtest import table_plan  # scripts/loadtest.py

    from tournament.models import Round, Tournament
    from tournament.services import seating

    tournament = Tournament.objects.get(slug="hub-check")
    if action == "close":
        seating.close_round(round=tournament.rounds.get(number=number), backup=False)
        return
    round = seating.create_round(tournament=tournament)
    seating.seat_round(round=round, mode=Round.Mode.RANDOM, seed=f"hubcheck-{number}")
    seating.publish_round(round=round)
    tables = table_plan(tournament, round)
    assert out is not None
    out.write_text(json.dumps({"round": round.number, "tables": tables}), encoding="utf-8")


def hub_tournament():
    from tournament.models import PublishedTournament

    published = PublishedTournament.objects.select_related("tournament").first()
    return published.tournament if published else None


def watch(out: Path) -> None:
    """Until SIGTERM: every 0.25 s the hub's games; a line for each game new or changed (its Augen)."""
    django_setup()
    from django.db import connection

    from tournament.models import Game

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    seen: dict[tuple, int] = {}
    tournament_id = None
    with out.open("w", encoding="utf-8") as file:
        while not stop.is_set():
            try:
                if tournament_id is None:
                    tournament = hub_tournament()
                    if tournament is not None:
                        tournament_id = tournament.pk
                        file.write(json.dumps({"slug": tournament.slug}) + "\n")
                if tournament_id is not None:
                    now = time.time()
                    rows = Game.objects.filter(table__round__tournament_id=tournament_id).values_list(
                        "table__round__number", "table__number", "number", "re_augen")
                    for r, t, n, augen in rows:
                        if seen.get((r, t, n)) != augen:
                            seen[(r, t, n)] = augen
                            file.write(json.dumps({"at": now, "game": [r, t, n], "augen": augen}) + "\n")
                    file.flush()
            except Exception as error:  # noqa: BLE001 (the hub's database restarting: read again)
                file.write(json.dumps({"error": str(error)[:200]}) + "\n")
                connection.close()
            stop.wait(0.25)


def dump(side: str, out: Path) -> None:
    """The tournament as the other side must have it, and the raw counts (what could be doubled)."""
    django_setup()
    from django.db.models import Count

    from tournament.models import Game, HubCorrection, Penalty, PublishedTournament, Score, Table, Tournament
    from tournament.services import outbox

    tournament = Tournament.objects.get(slug="hub-check") if side == "venue" else hub_tournament()
    data = outbox.file_payload(tournament)
    tables = {}
    for table in Table.objects.filter(round__tournament=tournament).select_related("round"):
        starts = dict(tournament.entries.values_list("id", "start_number"))
        tables[f"{table.round.number}/{table.number}"] = {
            "games": sorted(Game.objects.filter(table=table).values_list("number", "re_augen", "value", "winner")),
            "scores": sorted((g or 0, starts[e], p) for g, e, p in
                             Score.objects.filter(table=table).values_list("game__number", "entry_id", "points")),
            "penalties": sorted((starts[o], n, note) for o, n, note in
                                Penalty.objects.filter(table=table).values_list("offender_id", "game_number", "note")),
            "totals_only": table.totals_only,
            "totals": {str(starts[int(e)]): p for e, p in (table.entered_totals or {}).items()},
        }
    doubled = list(Game.objects.filter(table__round__tournament=tournament).values("table_id", "number")
                   .annotate(n=Count("id")).filter(n__gt=1).values_list("table_id", "number", "n"))
    result = {"file": data, "tables": tables, "doubled_games": doubled,
              "tournaments": Tournament.objects.count()}
    if side == "hub":
        rows = list(HubCorrection.objects.values_list("round", "table", "game", "change", "seq"))
        result.update(corrections=rows, published=PublishedTournament.objects.count(),
                      corrections_twice=len(rows) - len(set(rows)))
    out.write_text(json.dumps(result, default=str), encoding="utf-8")


# ---- the orchestration --------------------------------------------------------------------------------------

def loopback(url: str) -> str:
    host = urllib.parse.urlsplit(url).hostname
    if host not in ("127.0.0.1", "localhost"):
        sys.exit(f"hub-check: {url} is not on loopback")
    return url.rstrip("/")


class Processes:
    """Everything this check starts, each in a session of its own, stopped at the end."""

    def __init__(self):
        self.running: dict[str, subprocess.Popen] = {}

    def start(self, name: str, command: list[str], env: dict, log: str | None = None) -> subprocess.Popen:
        out = (WORK / (log or f"{name}.log")).open("a", encoding="utf-8")  # noqa: SIM115 (open while it runs)
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        self.running[name] = process
        return process

    def stop(self, name: str, sig: int = signal.SIGTERM) -> None:
        process = self.running.pop(name, None)
        if process is None:
            return
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def stop_all(self) -> None:
        for name in reversed(list(self.running)):
            self.stop(name)


def run_django(command: list[str], env: dict, what: str) -> None:
    done = subprocess.run([PY, str(Path(__file__).resolve()), *command], cwd=ROOT, env=env, timeout=300,
                          capture_output=True, text=True)
    if done.returncode != 0:
        print(done.stdout[-3000:], done.stderr[-3000:])
        sys.exit(f"hub-check: {what} failed")


def wait_for(url: str, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 (loopback)
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.3)
    sys.exit(f"hub-check: {url} did not answer within {seconds:.0f} s")


def proxy_command(port: int, line: str) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(line.encode() + b"\n")
        return connection.makefile().readline().strip()


class Browser:
    """A director's browser: cookies, no redirects followed."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect())

    def request(self, path: str, data: dict | None = None) -> tuple[int, str]:
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body, headers={
            "Referer": self.base + path, "Accept-Language": "de"})
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def log_in(self, account: dict) -> None:
        _status, page = self.request("/accounts/login/")
        status, _page = self.request("/accounts/login/", {**account, "csrfmiddlewaretoken": CSRF.search(page)[1]})
        if status != 302:
            sys.exit(f"hub-check: {account['username']} could not log in ({status})")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Play:
    """The evening at the venue: the directors' saves and what they saved when."""

    def __init__(self, base: str, slug: str, accounts: list[dict], total_games: int):
        self.base, self.slug = base, slug
        self.directors = []
        for account in accounts:
            browser = Browser(base)
            browser.log_in(account)
            self.directors.append(browser)
        self.total_games = total_games
        self.saved: dict[tuple, tuple[float, int]] = {}  # (round, table, game) -> (time saved, Augen)
        self.corrected: list[tuple[tuple, float, int]] = []  # (game, time saved again, new Augen)
        self.penalties: list[tuple[int, int, int]] = []  # (round, table, offender)
        self.totals: list[tuple[int, int]] = []  # (round, table)
        self.failures: list[str] = []
        self.quiet: set[tuple] = set()  # the games saved at a hall's pace at the end
        self.quiet_seconds = 0.0
        self.lock = threading.Lock()

    def progress(self) -> float:
        return len(self.saved) / self.total_games

    def save_game(self, browser: Browser, round_number: int, table: dict, number: int, augen: int) -> bool:
        url = f"/t/{self.slug}/rounds/{round_number}/tables/{table['number']}/games/{number}/"
        for _attempt in range(3):
            status, form = browser.request(url)
            token, version = CSRF.search(form), VERSION.search(form)
            if status != 200 or token is None:
                continue
            players = table["players_of_game"][str(number)]
            seats = "".join(str(table["seats"].index(player) + 1) for player in players[:2])
            status, _page = browser.request(url, {
                "csrfmiddlewaretoken": token[1], "type": "normal", "solo": "", "re_seats": seats,
                "re": [str(players[0]), str(players[1])], "announce_re": "", "announce_kontra": "",
                "re_augen": str(augen), "re_tricks": "", "action": "save",
                "version": version[1] if version else "0", "number": str(number)})
            if status == 302:
                return True
        with self.lock:
            self.failures.append(f"round {round_number} table {table['number']} game {number}: not saved")
        return False

    def director(self, index: int, round_number: int, tables: list[dict], rng: random.Random) -> None:
        browser = self.directors[index]
        for table in tables:
            for number in range(1, table["games"] + 1):
                if time.monotonic() > DEADLINE:
                    return
                augen = rng.choice([90, 121, 131, 151, 181])
                if self.save_game(browser, round_number, table, number, augen):
                    with self.lock:
                        self.saved[(round_number, table["number"], number)] = (time.time(), augen)

    def extras(self, round_number: int, tables: list[dict], rng: random.Random) -> None:
        """Two penalties (the penalty form) and three corrections (a game saved again with other Augen)."""
        browser = self.directors[0]
        played = [t for t in tables if (round_number, t["number"], 1) in self.saved]
        for table in rng.sample(played, 2):
            offender = rng.choice(table["seats"])
            _status, page = browser.request(f"/t/{self.slug}/rounds/{round_number}/tables/{table['number']}/")
            status, _page = browser.request(
                f"/t/{self.slug}/rounds/{round_number}/tables/{table['number']}/penalties/",
                {"csrfmiddlewaretoken": CSRF.search(page)[1], "offender": str(offender), "game_number": "",
                 "note": "Hub-Check: falsch bedient", "key": f"hubcheck-{round_number}-{table['number']}"})
            if status == 302:
                self.penalties.append((round_number, table["number"], offender))
            else:
                self.failures.append(f"round {round_number} table {table['number']}: penalty not saved ({status})")
        for table in rng.sample(played, 3):
            number = rng.randint(1, table["games"])
            old = self.saved[(round_number, table["number"], number)][1]
            augen = rng.choice([a for a in (90, 121, 131, 151, 181) if a != old])
            if self.save_game(browser, round_number, table, number, augen):
                self.corrected.append(((round_number, table["number"], number), time.time(), augen))

    def enter_totals(self, round_number: int, table: dict) -> None:
        browser = self.directors[1]
        url = f"/t/{self.slug}/rounds/{round_number}/tables/{table['number']}/totals/"
        _status, page = browser.request(url)
        points = [24, 8, -12, -20]
        data = {"csrfmiddlewaretoken": CSRF.search(page)[1], "version": VERSION.search(page)[1]}
        data.update({f"p{entry}": str(p) for entry, p in zip(table["seats"], points, strict=True)})
        status, _page = browser.request(url, data)
        if status == 302:
            self.totals.append((round_number, table["number"]))
        else:
            self.failures.append(f"round {round_number} table {table['number']}: totals not saved ({status})")


class Phones:
    """The hall's phones, as in the load test: each opens the standings or its player's page, then polls
    every POLL seconds (with jitter) with the ETag of what it shows."""

    def __init__(self, base: str, slug: str, entries: list[int], count: int, poll: float):
        self.base, self.slug, self.entries, self.count, self.poll = base, slug, entries, count, poll
        self.stop = threading.Event()
        self.statuses: dict[int, int] = {}
        self.lock = threading.Lock()

    def phone(self, number: int) -> None:
        rng = random.Random(number)
        entry = self.entries[number % len(self.entries)]
        url = (f"{self.base}/t/{self.slug}/standings/?partial=1&me={entry}" if number % 2 == 0
               else f"{self.base}/t/{self.slug}/players/{entry}/?partial=1")
        etag = None
        self.stop.wait(rng.uniform(0, self.poll))
        while not self.stop.is_set() and time.monotonic() < DEADLINE:
            headers = {"Accept-Language": "de", "Accept-Encoding": "gzip"}
            if etag:
                headers["If-None-Match"] = etag
            try:
                with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as response:  # noqa: S310
                    status, etag = response.status, response.headers.get("ETag")
                    response.read()
            except urllib.error.HTTPError as error:
                status = error.code
            except OSError:
                status = 0
            with self.lock:
                self.statuses[status] = self.statuses.get(status, 0) + 1
            self.stop.wait(rng.uniform(self.poll * 0.8, self.poll * 1.2))

    def start(self) -> None:
        for number in range(self.count):
            threading.Thread(target=self.phone, args=(number,), daemon=True).start()


class Faults:
    """The faults, each begun once the given share of games is saved; their windows in wall time."""

    def __init__(self, play: Play, processes: Processes, control: int, start_hub):
        self.play, self.processes, self.control, self.start_hub = play, processes, control, start_hub
        self.windows: list[tuple[str, float, float]] = []  # (what, from, to)
        self.hub_down: list[tuple[float, float]] = []
        self.done = threading.Event()
        self.finished = threading.Event()
        self.schedule = [
            (0.06, "proxy drops every connection (alternately early and late) until 4 are dropped", 60, self.drop),
            (0.18, "hub stopped (both instances, SIGTERM) and started", 20, self.stop_hub_term),
            (0.38, "proxy delays every chunk by 1.5 s", 15, self.delay),
            (0.52, "proxy refuses connections (the hub's address down)", 10, self.refuse),
            (0.66, "hub killed (both instances, SIGKILL) and started", 20, self.stop_hub_kill),
            (0.80, "proxy drops every connection and delays by 0.3 s until 2 more are dropped", 60,
             self.drop_and_delay),
        ]

    def dropped(self) -> int:
        counts = dict(item.split("=") for item in proxy_command(self.control, "stats").split())
        return int(counts["dropped_early"]) + int(counts["dropped_late"])

    def drop(self) -> None:
        proxy_command(self.control, "drop 1")

    def delay(self) -> None:
        proxy_command(self.control, "delay 1500")

    def refuse(self) -> None:
        proxy_command(self.control, "refuse")

    def drop_and_delay(self) -> None:
        proxy_command(self.control, "drop 1")
        proxy_command(self.control, "delay 300")

    def stop_hub_term(self) -> None:
        self.processes.stop("hub-a")
        self.processes.stop("hub-b")

    def stop_hub_kill(self) -> None:
        self.processes.stop("hub-a", signal.SIGKILL)
        self.processes.stop("hub-b", signal.SIGKILL)

    def run(self) -> None:
        for share, what, seconds, begin in self.schedule:
            while self.play.progress() < share and not self.done.is_set():
                time.sleep(0.2)
            if self.done.is_set() or self.play.progress() >= 1:
                break
            began = time.time()
            dropped = self.dropped()
            begin()
            print(f"  fault at {self.play.progress():4.0%} of the games: {what}, {seconds} s", flush=True)
            if begin in (self.drop, self.drop_and_delay):  # (the sender's back-off: 1, 2, 4 … s apart)
                enough = dropped + (4 if begin == self.drop else 2)
                until = time.monotonic() + seconds
                while self.dropped() < enough and time.monotonic() < until and not self.done.wait(0.2):
                    pass
            else:
                self.done.wait(seconds)
            if begin in (self.stop_hub_term, self.stop_hub_kill):
                self.start_hub()
                self.hub_down.append((began, time.time()))
            else:
                proxy_command(self.control, "pass")
            self.windows.append((what, began, time.time()))
        self.finished.set()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def compare(a, b, path: str = "") -> list[str]:
    """The places where two JSON values differ (at most a few per list)."""
    if isinstance(a, dict) and isinstance(b, dict):
        found = []
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                found.append(f"{path}/{key}: only on the {'hub' if key in b else 'venue'}")
            else:
                found += compare(a[key], b[key], f"{path}/{key}")
        return found
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items at the venue, {len(b)} on the hub"]
        return [d for x, y, i in zip(a, b, range(len(a)), strict=True) for d in compare(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: venue {json.dumps(a)[:80]}, hub {json.dumps(b)[:80]}"]


def until_synced(director_page: Browser, slug: str, seconds: float) -> float | None:
    """Seconds until the director's page "Online veröffentlichen" says the hub has everything (None: not in time)."""
    began = time.monotonic()
    while time.monotonic() < began + seconds:
        _status, page = director_page.request(f"/t/{slug}/online/")
        if "auf dem neuesten Stand" in page:
            return time.monotonic() - began
        time.sleep(1)
    return None


def main_run(args) -> int:
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("hub-check: run it through scripts/hub-check.sh (the hub's PostgreSQL: scripts/with-postgres.sh)")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop what it started (the `finally` below)
    started = time.monotonic()
    if WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True)
    port = args.port
    venue_port, proxy_port, nginx_port, a_port, b_port, control_port = (port + i for i in range(6))
    venue, hub = loopback(f"http://127.0.0.1:{venue_port}"), loopback(f"http://127.0.0.1:{nginx_port}")
    processes = Processes()

    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "GUNICORN_"))}
    base.update(DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost", DJANGO_HTTPS="0")
    secret = subprocess.run([PY, "-c", "import secrets; print(secrets.token_urlsafe(50))"], capture_output=True,
                            text=True, check=True).stdout.strip()
    hub_env = {**base, "DJANGO_HUB": "1", "DJANGO_DEBUG": "0", "DJANGO_STATIC_MANIFEST": "1",
               "DJANGO_CONN_MAX_AGE": "60", "DJANGO_PROXY_COUNT": "1", "DJANGO_SECRET_KEY": secret,
               "DJANGO_REDIS_URL": f"unix://{WORK}/redis.sock", "DJANGO_LOG_DIR": str(WORK / "hub-log")}
    venue_env = {**base, "DATABASE_URL": f"sqlite:///{WORK}/venue.sqlite3"}
    try:
        print(f"hub-check: {args.players} players, {args.rounds} rounds; venue {venue} (SQLite), proxy :{proxy_port}, "
              f"hub {hub} (nginx -> :{a_port}, :{b_port}; PostgreSQL, Redis)", flush=True)
        processes.start("redis", ["redis-server", "--port", "0", "--unixsocket", str(WORK / "redis.sock"),
                                  "--unixsocketperm", "700", "--save", "", "--appendonly", "no", "--dir", str(WORK)],
                        base)
        run_django(["setup-hub", str(WORK / "hub.json")], hub_env, "the hub's setup")
        key = json.loads((WORK / "hub.json").read_text())["key"]
        subprocess.run([PY, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=hub_env, check=True)

        def start_hub() -> None:
            for name, instance_port in (("hub-a", a_port), ("hub-b", b_port)):
                command = [PY, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "config.wsgi:application"]
                processes.start(name, command, {
                    **hub_env, "GUNICORN_BIND": f"127.0.0.1:{instance_port}", "GUNICORN_WORKERS": "2",
                    "GUNICORN_THREADS": "4", "DJANGO_PDF_CACHE_DIR": str(WORK / f"pdf-{name}")})

        start_hub()
        nginx_dir = WORK / "nginx"
        (nginx_dir / "tmp").mkdir(parents=True)
        if os.getuid() == 0:
            shutil.chown(nginx_dir / "tmp", "nobody")
        template = (ROOT / "deploy" / "nginx-cluster.conf").read_text()
        upstreams = f"server 127.0.0.1:{a_port}; server 127.0.0.1:{b_port};"
        (nginx_dir / "nginx.conf").write_text(template.replace("@LISTEN@", f"127.0.0.1:{nginx_port}").replace(
            "@UPSTREAMS@", upstreams).replace("@PREFIX@", str(nginx_dir)))
        processes.start("nginx", ["nginx", "-p", str(nginx_dir), "-c", str(nginx_dir / "nginx.conf"), "-g",
                                  "daemon off;"], base)
        processes.start("proxy", [PY, "scripts/fault_proxy.py", str(proxy_port), str(nginx_port), str(control_port)],
                        base)
        processes.start("watch", [PY, str(Path(__file__).resolve()), "watch", str(WORK / "watch.jsonl")], hub_env)
        for url in (f"http://127.0.0.1:{a_port}/", f"http://127.0.0.1:{b_port}/", f"{hub}/"):
            wait_for(url)

        run_django(["setup-venue", str(WORK / "venue.json"), "--players", str(args.players), "--rounds",
                    str(args.rounds), "--hub-url", f"http://127.0.0.1:{proxy_port}", "--key", key], venue_env,
                   "the venue's setup")
        setup = json.loads((WORK / "venue.json").read_text())
        slug = setup["slug"]
        processes.start("venue", ["bash", "scripts/serve.sh"],
                        {**venue_env, "HOST": "127.0.0.1", "PORT": str(venue_port), "SERVE_QUIET": "1",
                         "GUNICORN_ACCESS_LOG": ""})
        wait_for(f"{venue}/t/{slug}/standings/")
        print(f"hub-check: everything runs ({time.monotonic() - started:.0f} s); the venue publishes to the hub "
              f"through the proxy", flush=True)

        tables_per_round = args.players // 4
        games_at_table = 8
        # one table of round 2 is entered as totals only
        total = (args.rounds * tables_per_round - QUIET_TABLES - (1 if args.rounds >= 2 else 0)) * games_at_table
        play = Play(venue, slug, setup["directors"], total)
        phones = Phones(venue, slug, setup["entries"], args.phones, 15)
        phones.start()
        faults = Faults(play, processes, control_port, start_hub)
        fault_thread = threading.Thread(target=faults.run, daemon=True)
        fault_thread.start()
        director_page = Browser(venue)
        director_page.log_in(setup["directors"][2])
        seen_states: list[str] = []
        play_started = time.monotonic()
        rng = random.Random("hubcheck-play")
        quiet: list[dict] = []
        for number in range(1, args.rounds + 1):
            run_django(["round", "start", str(number), "--out", str(WORK / "round.json")], venue_env,
                       f"round {number}'s draw")
            tables = json.loads((WORK / "round.json").read_text())["tables"]
            totals_table = tables[-1] if number == 2 else None
            if number == args.rounds:  # played at the end, at a hall's pace, with the hub up to date
                quiet = [t for t in tables if t is not totals_table][-QUIET_TABLES:]  # (not the totals' table)
            games_tables = [t for t in tables if t is not totals_table and t not in quiet]
            threads = [threading.Thread(target=play.director, args=(i, number, games_tables[i::3],
                                                                    random.Random(f"{number}-{i}")))
                       for i in range(3)]
            for thread in threads:
                thread.start()
            while any(thread.is_alive() for thread in threads):
                time.sleep(2)
                _status, page = director_page.request(f"/t/{slug}/online/")
                state = re.search(r"<p>((?:\d+ Änderung|Online: )[^<]*)</p>", page)
                if state and state[1] not in seen_states[-1:]:
                    seen_states.append(state[1])
            if totals_table is not None:
                play.enter_totals(number, totals_table)
            play.extras(number, games_tables, rng)
            if number < args.rounds:
                run_django(["round", "close", str(number)], venue_env, f"closing round {number}")
            print(f"  round {number}: {len(play.saved)} games saved so far, {len(play.corrected)} corrections, "
                  f"{len(play.penalties)} penalties ({time.monotonic() - play_started:.0f} s)", flush=True)
        played = time.monotonic() - play_started
        faults.done.set()
        faults.finished.wait(60)
        proxy_command(control_port, "pass")
        if "hub-a" not in processes.running:
            start_hub()

        # ---- until the director's page says everything is on the hub; then the quiet tables ----
        synced_at = until_synced(director_page, slug, args.sync_seconds)
        print(f"  the hub up to date {synced_at if synced_at is None else round(synced_at)} s after the play; "
              f"now {len(quiet)} tables of round {args.rounds} at a hall's pace (a game every "
              f"{QUIET_PACE:g} s)", flush=True)
        quiet_from = time.time()
        for table in quiet:
            for number in range(1, table["games"] + 1):
                augen = rng.choice([90, 121, 131, 151, 181])
                if play.save_game(play.directors[0], args.rounds, table, number, augen):
                    play.saved[(args.rounds, table["number"], number)] = (time.time(), augen)
                    play.quiet.add((args.rounds, table["number"], number))
                time.sleep(QUIET_PACE)
        run_django(["round", "close", str(args.rounds)], venue_env, f"closing round {args.rounds}")
        quiet_synced = until_synced(director_page, slug, args.sync_seconds)
        play.quiet_seconds = time.time() - quiet_from
        phones.stop.set()
        time.sleep(1.5)  # the watcher's last look
        processes.stop("watch")
        run_django(["dump", "venue", str(WORK / "venue-dump.json")], venue_env, "reading the venue")
        run_django(["dump", "hub", str(WORK / "hub-dump.json")], hub_env, "reading the hub")
        proxy_stats = proxy_command(control_port, "stats")
        return report(args, play, phones, faults, seen_states, played, (synced_at, quiet_synced), proxy_stats,
                      started, nginx_dir)
    finally:
        processes.stop_all()


def report(args, play: Play, phones: Phones, faults: Faults, seen_states, played, synced_at, proxy_stats,
           started, nginx_dir: Path) -> int:
    problems = list(play.failures)
    venue = json.loads((WORK / "venue-dump.json").read_text())
    hub = json.loads((WORK / "hub-dump.json").read_text())
    print(f"\nhub-check: played in {played:.0f} s: {len(play.saved)} games saved through the game form by 3 directors, "
          f"{len(play.corrected)} corrections, {len(play.penalties)} penalties (the penalty form), "
          f"{len(play.totals)} table as totals only (the totals form)")
    print(f"  phones at the venue: {sum(phones.statuses.values())} requests, "
          f"statuses {dict(sorted(phones.statuses.items()))}")
    if any(status not in (200, 304) for status in phones.statuses):
        problems.append(f"phones at the venue got errors: {phones.statuses}")
    print("  faults:")
    for what, began, ended in faults.windows:
        print(f"    {what}: {ended - began:.0f} s")
    print(f"  proxy: {proxy_stats}")
    unreachable = [state for state in seen_states if "nicht erreichbar" in state]
    print(f"  the director's page 'Online veröffentlichen', looked at every 2 s, said {len(seen_states)} different "
          f"things, e.g.: " + " | ".join(seen_states[:4] + unreachable[:3]))
    for when, seconds in zip(("the play", "the quiet tables"), synced_at, strict=True):
        if seconds is None:
            problems.append(f"the venue's outbox was not all on the hub {args.sync_seconds} s after {when}")
        else:
            print(f"  the director's page said 'auf dem neuesten Stand' {seconds:.0f} s after {when}")
    batches: dict[str, int] = {}
    upstream = nginx_dir / "upstream.log"
    for line in upstream.read_text().splitlines() if upstream.exists() else []:
        found = re.search(r' (\d{3}) [\d.]+ "POST /api/publish/v1/batch', line)
        if found:
            batches[found[1]] = batches.get(found[1], 0) + 1
    print(f"  batches the hub's nginx saw, by status: {dict(sorted(batches.items()))}")

    # ---- the same tournament on both sides ----
    venue_file = {k: v for k, v in venue["file"].items() if k != "slug"}
    hub_file = {k: v for k, v in hub["file"].items() if k != "slug"}
    differences = compare(venue_file, hub_file)
    print(f"  the tournament file (export_tournament(backup=False) less the venue's parts and the short name): "
          f"{'equal' if not differences else f'{len(differences)} differences'}")
    for line in differences[:15]:
        print(f"    {line}")
    problems += [f"file {line}" for line in differences]
    tables_differ = [place for place in sorted(set(venue["tables"]) | set(hub["tables"]))
                     if venue["tables"].get(place) != hub["tables"].get(place)]
    counts = {side: (sum(len(t["games"]) for t in d["tables"].values()),
                     sum(len(t["penalties"]) for t in d["tables"].values()),
                     sum(1 for t in d["tables"].values() if t["totals_only"]),
                     sum(len(t["scores"]) for t in d["tables"].values()))
              for side, d in (("venue", venue), ("hub", hub))}
    for side, (games, penalties, totals, scores) in counts.items():
        print(f"  {side:5s}: {games} games, {scores} scores, {penalties} penalties, {totals} totals-only tables")
    print(f"  table by table (games, scores, penalties, totals): {len(tables_differ)} tables differ")
    for place in tables_differ[:10]:
        print(f"    table {place}: venue {json.dumps(venue['tables'].get(place))[:150]}")
        print(f"    {'':{len(place) + 7}s} hub   {json.dumps(hub['tables'].get(place))[:150]}")
    problems += [f"table {place} differs" for place in tables_differ]
    if counts["venue"][0] != len(play.saved) + 0 or counts["venue"][1] != len(play.penalties):
        problems.append(f"the venue stored {counts['venue'][:2]}, the directors saved {len(play.saved)} games and "
                        f"{len(play.penalties)} penalties")
    doubled = {"tournaments on the hub": hub["tournaments"], "published tournaments": hub["published"],
               "games twice": len(hub["doubled_games"]), "corrections listed twice": hub["corrections_twice"]}
    print(f"  nothing twice: {doubled}")
    if hub["tournaments"] != 1 or hub["published"] != 1 or hub["doubled_games"] or hub["corrections_twice"]:
        problems.append(f"something is there twice: {doubled}")

    # ---- the correction history ----
    listed = {(r, t, g) for r, t, g, change, _seq in hub["corrections"] if g is not None}
    made = {game for game, _at, _augen in play.corrected}
    missing = made - listed
    extra = listed - made
    print(f"  corrections: {len(made)} made at the venue, {len(hub['corrections'])} in the hub's history "
          f"({len(listed)} games); missing {sorted(missing)}; listed but not made {sorted(extra)[:10]}")
    if missing:
        problems.append(f"corrections missing from the hub's history: {sorted(missing)}")
    if extra:
        problems.append(f"the hub lists corrections nobody made: {sorted(extra)[:10]}")

    # ---- the delays ----
    first_seen: dict[tuple, float] = {}
    changes: dict[tuple, list[tuple[float, int]]] = {}
    for line in (WORK / "watch.jsonl").read_text().splitlines():
        item = json.loads(line)
        if "game" in item:
            game = tuple(item["game"])
            first_seen.setdefault(game, item["at"])
            changes.setdefault(game, []).append((item["at"], item["augen"]))
    windows = [(b, e) for _what, b, e in faults.windows]

    def overlaps(spans, begin, end) -> bool:
        return any(b < end and begin < e for b, e in spans)

    up, calm, everything, quiet = [], [], [], []
    for game, (at, _augen) in play.saved.items():
        if game not in first_seen:
            continue
        delay = max(0.0, first_seen[game] - at)
        if game in play.quiet:
            quiet.append(delay)
            continue
        everything.append(delay)
        if not overlaps(faults.hub_down, at, first_seen[game]):
            up.append(delay)
        if not overlaps(windows, at, first_seen[game]):
            calm.append(delay)
    corrected_delays = []
    for game, at, augen in play.corrected:
        seen = [t for t, a in changes.get(game, []) if a == augen and t >= at - 0.3]
        if seen:
            corrected_delays.append(max(0.0, seen[0] - at))
    never = [game for game in play.saved if game not in first_seen]
    print("  delay from a game's save at the venue to its appearance in the hub's database (watched every 0.25 s):")
    for label, values in (("the evening: while the hub was up", up),
                          ("the evening: no fault at all in between", calm),
                          ("the evening: every game, outages included", everything),
                          ("corrections (the new Augen)", corrected_delays),
                          ("at a hall's pace, the hub up to date", quiet)):
        if values:
            print(f"    {label:44s} {len(values):5d} games  p50 {percentile(values, .5):6.2f} s  "
                  f"p95 {percentile(values, .95):6.2f} s  max {max(values):6.2f} s")
    if never:
        problems.append(f"{len(never)} games never appeared on the hub while watched, e.g. {never[:5]}")
    print(f"hub-check: {time.monotonic() - started:.0f} s in all")
    if problems:
        print(f"hub-check: FAILED, {len(problems)} problems:")
        for line in problems[:30]:
            print(f"  - {line}")
        return 1
    print("hub-check: passed (the hub's tournament equals the venue's, nothing twice, every correction listed)")
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command")
    run = commands.add_parser("run", help="the whole check (the default)")
    for sub in (parser, run):
        sub.add_argument("--players", type=int, default=200, help="players (a multiple of 4; default 200)")
        sub.add_argument("--rounds", type=int, default=4, help="rounds (default 4)")
        sub.add_argument("--phones", type=int, default=100, help="phones polling the venue (default 100)")
        sub.add_argument("--port", type=int, default=8310, help="the first of six loopback ports (default 8310)")
        sub.add_argument("--sync-seconds", type=int, default=240,
                         help="how long the venue may take to bring the hub up to date after the play (default 240)")
    sub = commands.add_parser("setup-hub")
    sub.add_argument("out", type=Path)
    sub = commands.add_parser("setup-venue")
    sub.add_argument("out", type=Path)
    sub.add_argument("--players", type=int)
    sub.add_argument("--rounds", type=int)
    sub.add_argument("--hub-url")
    sub.add_argument("--key")
    sub = commands.add_parser("round")
    sub.add_argument("action", choices=["start", "close"])
    sub.add_argument("number", type=int)
    sub.add_argument("--out", type=Path)
    sub = commands.add_parser("watch")
    sub.add_argument("out", type=Path)
    sub = commands.add_parser("dump")
    sub.add_argument("side", choices=["venue", "hub"])
    sub.add_argument("out", type=Path)
    args = parser.parse_args()
    if args.command == "setup-hub":
        setup_hub(args.out)
    elif args.command == "setup-venue":
        setup_venue(args.out, args.players, args.rounds, args.hub_url, args.key)
    elif args.command == "round":
        venue_round(args.action, args.number, args.out)
    elif args.command == "watch":
        watch(args.out)
    elif args.command == "dump":
        dump(args.side, args.out)
    else:
        if args.players % 4 or not 24 <= args.players <= 400 or not 1 <= args.rounds <= 6 \
                or not 0 <= args.phones <= 300:
            sys.exit("hub-check: 24 to 400 players (a multiple of 4), 1 to 6 rounds, at most 300 phones")
        sys.exit(main_run(args))


if __name__ == "__main__":
    main()
