"""The load of an evening for locust (run by scripts/loadtest.py and scripts/cluster-check.sh, never
on its own against another machine): phones polling the standings or their own page, and directors
saving games through the game form; with LOADTEST_RANGLISTE, phones following an association's Rangliste
(its page and its API) beside them.

- A phone opens its page once (the standings, or its player's page; in the round-start rush the
  round's seating first), then polls every POLL seconds
  with jitter, like static/js/standings.js: `?partial=1` (with its own row `me` on the standings)
  and the ETag of what it shows (If-None-Match); a 304 keeps what it has.
- A director enters the games of the round's tables one after the other (each director its own
  tables), every 5 to 10 seconds, as fast as one types a sheet. The directors log in before the
  phones arrive (at a venue they have been at their laptops since the evening began); their logins
  are timed apart (`logins` in LOADTEST_BYTES).

The plan (tournament, players, tables and who plays which game) comes from LOADTEST_PLAN (JSON,
written by scripts/loadtest.py). What the server sent is counted from Content-Length (the bytes on
the wire, compressed where the server compressed) and written to LOADTEST_BYTES at the end, with
each request's time since the start, name and duration (scripts/loadtest.py reports the time while
the phones arrive and the time after apart).
"""

import itertools
import json
import os
import random
import re
import threading
import time
import urllib.request
from collections import Counter
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode

import gevent
from locust import FastHttpUser, between, events, task

PLAN = json.loads(Path(os.environ["LOADTEST_PLAN"]).read_text(encoding="utf-8"))
POLL = float(os.environ.get("LOADTEST_POLL", "15"))
# the round-start rush (loadtest.py --rush): every phone opens the new round's seating first, then its page
RUSH = os.environ.get("LOADTEST_RUSH") == "1"
# locust (2; 2.47 here) starts the users of each second at the same instant: with 50 phones a second, 50
# users begin every second on the dot (locust/dispatch.py: floor(spawn rate) users, then a wait).
# Phones do not arrive like that: each waits a random part of that interval before its first request
ARRIVAL_SPREAD = float(os.environ.get("LOADTEST_ARRIVAL_SPREAD", "0"))
# the announcement burst (loadtest.py --burst): a phone that opens its first page fetches the page's
# static files too (a browser that has not seen the site yet), as the hall's phones do when the director
# announces a round and everyone scans the QR code at once; later pages find them in the browser's cache
STATIC_FILES = os.environ.get("LOADTEST_STATIC") == "1"
# the burst (loadtest.py --burst): the round has just been announced, so its first sheet is minutes away;
# each director waits its interval before the first one, instead of saving a game in the burst's first
# second (docs/performance.md, "The announcement burst": what a game saved in that second costs)
WAIT_BEFORE_FIRST_SHEET = os.environ.get("LOADTEST_WAIT_BEFORE_FIRST_SHEET") == "1"
STATIC = re.compile(r'(?:href|src)="(/static/[^"]+)"')
sent = Counter()
statuses = Counter()
times = []  # (seconds since the start, name, milliseconds): each request, for the phases of the run
started = [0.0]
logged_in: list[CookieJar] = []  # the directors' sessions, logged in before the phones arrive
login_times: list[int] = []  # how long each of these logins took (ms)
lock = threading.Lock()
phones = itertools.count()
directors = itertools.count()


@events.request.add_listener
def count(request_type, name, response_length, response=None, exception=None, **kwargs):
    if response is None:
        return
    length = response.headers.get("Content-Length") if response.headers else None
    with lock:
        sent[name] += int(length) if length is not None else (response_length or 0)
        statuses[f"{name} {getattr(response, 'status_code', 0)}"] += 1
        times.append((round(time.monotonic() - started[0], 3), name, round(kwargs.get("response_time") or 0, 1)))


@events.test_start.add_listener
def log_in_and_start(environment, **kwargs):
    """The directors log in before the phones arrive (at a venue they have been at their laptops
    since the evening began): each login is timed here, apart from the figures of the run."""
    for account in PLAN["directors"][:int(os.environ.get("LOADTEST_DIRECTORS", "3"))]:
        began = time.monotonic()
        logged_in.append(log_in(environment.host, account))
        login_times.append(round((time.monotonic() - began) * 1000))
    started[0] = time.monotonic()
    if os.environ.get("LOADTEST_READY"):  # the burst's phones (scripts/burst_phones.py) start after the logins
        Path(os.environ["LOADTEST_READY"]).touch()


def log_in(host: str, account: dict) -> CookieJar:
    """A director's session (the cookies of a login through the login form)."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with opener.open(f"{host}/accounts/login/", timeout=30) as response:
        token = CSRF.search(response.read().decode()).group(1)
    body = urlencode({"username": account["username"], "password": account["password"],
                      "csrfmiddlewaretoken": token}).encode()
    login = f"{host}/accounts/login/"
    request = urllib.request.Request(login, data=body, headers={"Referer": login})
    with opener.open(request, timeout=30) as response:
        if "/accounts/login/" in response.geturl():
            raise RuntimeError(f"loadtest: {account['username']} could not log in")
    return jar


@events.test_stop.add_listener
def write_counts(environment, **kwargs):
    path = os.environ.get("LOADTEST_BYTES")
    if path:
        with open(path, "w", encoding="utf-8") as file:
            json.dump({"bytes": dict(sent), "statuses": dict(statuses), "times": times, "logins": login_times}, file)


ETAG = re.compile(r'data-etag="([^"]+)"')


class Phone(FastHttpUser):
    """A player's phone on the hall's Wi-Fi."""

    wait_time = between(POLL * 0.8, POLL * 1.2)
    headers = {"Accept-Encoding": "gzip", "Accept-Language": "de"}

    def on_start(self):
        gevent.sleep(random.uniform(0, ARRIVAL_SPREAD))
        number = next(phones)
        entries = PLAN["entries"]
        self.entry = entries[number % len(entries)]
        slug = PLAN["slug"]
        self.standings = number % 2 == 0
        if self.standings:
            self.page = f"/t/{slug}/standings/"
            self.poll_url = f"{self.page}?partial=1&me={self.entry}"
            self.name = "standings"
        else:
            self.page = f"/t/{slug}/players/{self.entry}/"
            self.poll_url = f"{self.page}?partial=1"
            self.name = "player page"
        if RUSH:
            seating = f"/t/{slug}/rounds/{PLAN['round']}/"
            with self.client.get(seating, headers=self.headers, name="seating (open)", catch_response=True) as response:
                if response.status_code != 200:
                    response.failure(f"status {response.status_code}")
                elif STATIC_FILES:
                    self.fetch_static(response.text)
        with self.client.get(self.page, headers=self.headers, name=f"{self.name} (open)",
                             catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
                self.etag = None
                return
            found = ETAG.search(response.text)
            # the page's own row may be missing from the standings' first places: the script then
            # polls without a validator first (static/js/standings.js)
            self.etag = found.group(1).replace("&quot;", '"') if found and not self.standings else None

    def fetch_static(self, html: str) -> None:
        """The page's stylesheets and scripts, once (then the browser keeps them)."""
        for path in dict.fromkeys(STATIC.findall(html)):
            with self.client.get(path, headers=self.headers, name="static file", catch_response=True) as response:
                if response.status_code != 200:
                    response.failure(f"status {response.status_code}")

    @task
    def poll(self):
        headers = dict(self.headers)
        if self.etag:
            headers["If-None-Match"] = self.etag
        with self.client.get(self.poll_url, headers=headers, name=f"{self.name} poll",
                             catch_response=True) as response:
            if response.status_code == 304:
                response.success()
            elif response.status_code == 200:
                self.etag = response.headers.get("ETag")
                response.success()
            else:
                response.failure(f"status {response.status_code}")


RANGLISTE = os.environ.get("LOADTEST_RANGLISTE", "")
RANGLISTE_PHONES = int(os.environ.get("LOADTEST_RANGLISTE_PHONES", "0")) if RANGLISTE else 0


class RanglistePhone(FastHttpUser):
    """A phone at home following the association's Rangliste (the hub; the cluster check):
    opens its page, then every POLL seconds reloads the page or asks the API (`/api/v1/ranglisten/`,
    with its ETag), one after the other."""

    fixed_count = RANGLISTE_PHONES
    abstract = RANGLISTE_PHONES == 0
    wait_time = between(POLL * 0.8, POLL * 1.2)
    headers = {"Accept-Encoding": "gzip", "Accept-Language": "de"}

    def on_start(self):
        gevent.sleep(random.uniform(0, ARRIVAL_SPREAD))
        self.page = f"/r/{RANGLISTE}/"
        self.api = f"/api/v1/ranglisten/{RANGLISTE}?limit=100"
        self.etag = None
        self.turn = 0
        self.get(self.page, "rangliste page (open)")

    def get(self, url: str, name: str, headers: dict | None = None):
        with self.client.get(url, headers={**self.headers, **(headers or {})}, name=name,
                             catch_response=True) as response:
            if response.status_code in (200, 304):
                response.success()
                if response.status_code == 200 and url == self.api:
                    self.etag = response.headers.get("ETag")
            else:
                response.failure(f"status {response.status_code}")

    @task
    def poll(self):
        self.turn += 1
        if self.turn % 2:
            self.get(self.api, "rangliste API poll", {"If-None-Match": self.etag} if self.etag else None)
        else:
            self.get(self.page, "rangliste page poll")


CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class Director(FastHttpUser):
    """A director (or helper) entering the round's score sheets at a laptop."""

    fixed_count = int(os.environ.get("LOADTEST_DIRECTORS", "3"))
    abstract = fixed_count == 0  # no directors (the rush through the cluster): locust leaves the class out
    wait_time = between(5, 10)

    def on_start(self):
        number = next(directors)
        self.tables = [t for i, t in enumerate(PLAN["tables"]) if i % len(PLAN["directors"]) == number]
        self.current = 0
        self.game = {}
        for cookie in logged_in[number % len(logged_in)]:  # the session of the login before the phones came
            self.client.cookiejar.set_cookie(cookie)
        if WAIT_BEFORE_FIRST_SHEET:
            gevent.sleep(self.wait_time())

    @task
    def save_game(self):
        if self.current >= len(self.tables):
            return  # every table of this director is full
        table = self.tables[self.current]
        number = self.game.get(table["number"], 1)
        if number > table["games"]:
            self.current += 1
            return
        players = table["players_of_game"][str(number)]
        url = f"/t/{PLAN['slug']}/rounds/{PLAN['round']}/tables/{table['number']}/games/{number}/"
        form = self.client.get(url, name="game form")
        found = CSRF.search(form.text)
        if found is None:
            return
        # the Re party as the form asks for it: by seat ("13", as written on the sheet) or by player
        seats = "".join(str(table["seats"].index(player) + 1) for player in players[:2])
        data = {"csrfmiddlewaretoken": found.group(1), "type": "normal", "solo": "", "re_seats": seats,
                "re": [str(players[0]), str(players[1])], "announce_re": "", "announce_kontra": "",
                "re_augen": str(random.choice([90, 121, 131, 151, 181])), "re_tricks": "", "action": "save",
                "version": "0", "number": str(number)}
        body = urlencode(data, doseq=True)  # the Re party: one field, two values
        with self.client.post(url, data=body, name="save game", allow_redirects=False, catch_response=True,
                              headers={"Content-Type": "application/x-www-form-urlencoded"}) as response:
            if response.status_code == 302:
                self.game[table["number"]] = number + 1
                response.success()
            else:
                response.failure(f"save: status {response.status_code}")
