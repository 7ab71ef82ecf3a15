"""The two-instance check of scripts/cluster-check.sh: what one app instance writes, the other shows at
once, and a PDF built by the worker is handed out by any instance.

    python scripts/cluster_check.py PLAN URL_A URL_B URL_NGINX

1. A director logs in through instance A (the session is in the database: the same cookie works on
   B). A phone reads the standings and a player's page through B (B now has them in the shared
   cache and the phone has their ETags).
2. The director saves a game through A's game form.
3. At once, the phone polls B with its ETags: B must answer 200 with the new figures (not 304, not
   the page it had cached), and the player's page must list the new game.
4. The director asks for the round's sheets as PDF through A (a background job); the progress is
   read through B, and B hands out the finished PDF that the worker (a third process) built.

Loopback only; prints what it checked and exits 1 on the first failure.
"""

from __future__ import annotations

import http.cookiejar
import ipaddress
import json
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
# a standings row: entry, rank, points (written with a real minus sign below zero)
# (the player's cell, then the rating's where the tournament shows it: views/standings.py, `row_html`)
ROW = re.compile(r'<tr data-entry="(\d+)"[^>]*><td class="num">([^<]*)</td><td class="movement">.*?</td>'
                 r'<td class="who">.*?</td>(?:<td class="num rating[^>]*>[^<]*</td>)?<td class="num">([−-]?\d+)</td>')


def loopback(url: str) -> str:
    host = urllib.parse.urlsplit(url).hostname or ""
    if host != "localhost" and not ipaddress.ip_address(host).is_loopback:
        sys.exit(f"cluster check: {url} is not on loopback")
    return url.rstrip("/")


class Browser:
    def __init__(self):
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect())

    def get(self, url: str, headers: dict | None = None):
        request = urllib.request.Request(url, headers=headers or {})
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def post(self, url: str, data: dict, referer: str):
        body = urllib.parse.urlencode(data, doseq=True).encode()
        request = urllib.request.Request(url, data=body, headers={"Referer": referer})
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def check(condition: bool, what: str) -> None:
    print(f"  {'ok  ' if condition else 'FAIL'} {what}", flush=True)
    if not condition:
        sys.exit(1)


def points(html: bytes) -> dict[int, int]:
    return {int(entry): int(total.replace("−", "-")) for entry, _rank, total in ROW.findall(html.decode())}


def main() -> None:
    plan = json.loads(Path(sys.argv[1]).read_text())
    a, b, proxy = (loopback(url) for url in sys.argv[2:5])
    slug, round_number = plan["slug"], plan["round"]
    account = plan["directors"][0]
    # a table none of the load test's directors has reached: the last one
    table = plan["tables"][-1]
    print(f"two instances: A {a}, B {b}; nginx in front: {proxy}")

    director = Browser()
    status, _headers, page = director.get(f"{a}/accounts/login/")
    check(status == 200, "A: login page")
    status, headers, _body = director.post(f"{a}/accounts/login/", {
        "username": account["username"], "password": account["password"],
        "csrfmiddlewaretoken": CSRF.search(page.decode()).group(1)}, f"{a}/accounts/login/")
    check(status == 302, "A: the director is logged in")
    status, _headers, _body = director.get(f"{b}/t/{slug}/rounds/{round_number}/tables/{table['number']}/")
    check(status == 200, "B: the same session (in the database) is logged in there too")

    phone = Browser()
    entry = table["players_of_game"]["1"][0]
    standings_url = f"{b}/t/{slug}/standings/?partial=1&all=1"
    player_url = f"{b}/t/{slug}/players/{entry}/?partial=1"
    status, headers, before = phone.get(standings_url)
    check(status == 200 and "ETag" in headers, "B: a phone reads the standings (B caches them in Redis)")
    standings_etag = headers["ETag"]
    status, headers, player_before = phone.get(player_url)
    player_etag = headers["ETag"]
    status, _headers, _body = phone.get(standings_url, {"If-None-Match": standings_etag})
    check(status == 304, "B: its next poll, nothing changed: 304 Not Modified")

    game_url = f"{a}/t/{slug}/rounds/{round_number}/tables/{table['number']}/games/1/"
    status, _headers, form = director.get(game_url)
    check(status == 200, "A: the game form of game 1")
    players = table["players_of_game"]["1"]
    seats = "".join(str(table["seats"].index(p) + 1) for p in players[:2])
    started = time.perf_counter()
    status, _headers, _body = director.post(game_url, {
        "csrfmiddlewaretoken": CSRF.search(form.decode()).group(1), "type": "normal", "solo": "",
        "re_seats": seats, "re": [str(players[0]), str(players[1])], "announce_re": "", "announce_kontra": "",
        "re_augen": "151", "re_tricks": "", "action": "save", "version": "0", "number": "1"}, game_url)
    check(status == 302, f"A: the director saves game 1 of table {table['number']}")

    status, headers, after = phone.get(standings_url, {"If-None-Match": standings_etag})
    seconds = time.perf_counter() - started
    check(status == 200 and headers.get("ETag") != standings_etag,
          f"B: the phone's next poll gets the change at once (200, new ETag, {seconds * 1000:.0f} ms after saving)")
    changed = {e for e, p in points(after).items() if points(before).get(e) != p}
    check(bool(changed) and changed <= set(table["seats"]),
          f"B: the standings show the new points of the table's players ({len(changed)} changed)")
    status, _headers, player_after = phone.get(player_url, {"If-None-Match": player_etag})
    check(status == 200 and player_after != player_before and player_after.count(b"<details") ==
          player_before.count(b"<details") + 1, "B: the player's page lists the new game")

    pdf_url = f"/t/{slug}/rounds/{round_number}/sheets.pdf?blank=1"
    status, _headers, page = director.get(a + pdf_url)
    check(status == 202, "A: the round's blank sheets as PDF: a background job, the request answers at once")
    job = re.search(r"\?job=(\w+)", page.decode()).group(1)
    deadline = time.monotonic() + 600
    state: dict = {}
    while time.monotonic() < deadline:
        status, _headers, body = director.get(f"{b}{pdf_url}&job={job}&status=1")
        state = json.loads(body)
        if state.get("state") in ("done", "failed"):
            break
        time.sleep(2)
    check(state.get("state") == "done", f"B: the job's progress, read through B: {state.get('done')} of "
                                        f"{state.get('total')} sheets, {state.get('state')}")
    status, headers, pdf = director.get(f"{b}{pdf_url}&job={job}")
    check(status == 200 and headers.get("Content-Type") == "application/pdf" and pdf.startswith(b"%PDF"),
          f"B: hands out the PDF the worker built ({len(pdf) / 1048576:.1f} MiB)")
    status, headers, _body = phone.get(f"{proxy}/t/{slug}/standings/")
    check(status == 200, "nginx: the standings through the proxy")
    print("two-instance check: passed")


if __name__ == "__main__":
    main()
