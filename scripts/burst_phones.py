"""The announcement burst's phones (figures, not a test): a load generator whose own work is small and known.

    .venv/bin/python scripts/burst_phones.py --url http://127.0.0.1:8765 --plan var/loadtest/plan.json
                                             [--phones 200] [--window 0.1] [--run-time 45] [--poll 30]

Run by `scripts/loadtest.py --burst` (`make loadtest`) against an app that runs already. Each phone
arrives at its own random moment within WINDOW seconds (the director has just announced the round and
everyone scans the QR code), opens one keep-alive connection as a browser does, asks for the round's
seating, then for the page's static files (a browser that has not seen the site yet), then for its own
page (every other phone the standings, the others their player's page) and the static files it adds
(its scripts), polls it at once and then every
POLL seconds give or take a fifth with the ETag it holds (static/js/standings.js), until RUN_TIME.

Why not locust for this: locust is one Python process whose gevent loop spawns the 200 users in the same
second the requests should go out (up to 0.8 of a core on two cores), so its own clock runs late and the
server shares the cores with it. Here one asyncio loop writes plain HTTP/1.1 requests and reads the
answers (Content-Length or chunked); nothing is parsed beyond the status line, the headers and the
static files' addresses in the seating page. Its own CPU time during the burst is printed with the
figures ("the generator's own CPU"), so that what it costs is known, not assumed.

Bounded: loopback only, at most 2,000 phones, at most 900 seconds. Writes each request's time since the
start, kind, milliseconds and status to --out (JSON) for scripts/loadtest.py's report.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gzip
import json
import math
import random
import re
import resource
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

STATIC = re.compile(rb'(?:href|src)="(/static/[^"]+)"')
ETAG = re.compile(rb'data-etag="([^"]+)"')
HEADERS = {"Accept-Encoding": "gzip", "Accept-Language": "de", "User-Agent": "burst-phone"}
IDLE_BEFORE_NEW_CONNECTION = 4.0  # gunicorn keeps an idle connection 5 s (deploy/gunicorn.conf.py)


@functools.lru_cache(maxsize=64)
def unzipped(body: bytes) -> bytes:
    """The answer unzipped, once for each distinct answer: the 200 phones get the same seating page and the
    same static files (Django's and WhiteNoise's gzip is the same for the same content), so that the
    generator's own CPU stays small."""
    return gzip.decompress(body)


@functools.lru_cache(maxsize=64)
def static_paths(page: bytes) -> tuple[str, ...]:
    """The static files a page asks for, looked up once for each distinct page (a regular expression over
    the seating of 500 players takes 2 ms: 200 times that was most of the generator's own CPU)."""
    return tuple(path.decode() for path in dict.fromkeys(STATIC.findall(page)))


class Connection:
    """One keep-alive HTTP/1.1 connection, opened again when the server has closed it."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()
        self.reader = self.writer = None

    async def get(self, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        """GET path; opens the connection first where it is closed or idle for long (a browser's time
        then includes the connect, and so does the figure)."""
        if self.writer is not None and time.monotonic() - self.used > IDLE_BEFORE_NEW_CONNECTION:
            await self.close()
        for attempt in (1, 2):
            fresh = self.writer is None
            if fresh:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            try:
                return await self._exchange(path, headers)
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.close()
                if fresh or attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _exchange(self, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        assert self.reader is not None and self.writer is not None
        lines = [f"GET {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Connection: keep-alive"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split(" ", 2)[1])
        answer = {}
        for line in header_lines:
            if ":" in line:
                name, value = line.split(":", 1)
                answer[name.strip().lower()] = value.strip()
        if "content-length" in answer:
            body = await self.reader.readexactly(int(answer["content-length"]))
        elif answer.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                parts.append(await self.reader.readexactly(size + 2))
                if size == 0:
                    break
            body = b"".join(part[:-2] for part in parts)
        elif status in (204, 304):
            body = b""
        else:
            body = await self.reader.read()
            answer["connection"] = "close"
        if answer.get("content-encoding", "").lower() == "gzip":
            body = unzipped(body)
        self.used = time.monotonic()
        if answer.get("connection", "").lower() == "close":
            await self.close()
        return status, answer, body


class Burst:
    def __init__(self, args, plan: dict):
        parts = urlsplit(args.url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.args, self.plan = args, plan
        self.records: list[tuple[float, str, float, int]] = []  # (seconds since the start, kind, ms, status)
        self.errors: list[str] = []
        self.started = 0.0

    async def timed(
        self, connection: Connection, kind: str, path: str, headers: dict[str, str], expect: tuple[int, ...] = (200,)
    ) -> tuple[int, dict[str, str], bytes] | None:
        began = time.monotonic()
        try:
            status, answer, body = await connection.get(path, {**HEADERS, **headers})
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            self.errors.append(f"{kind}: {type(error).__name__} {error}")
            self.records.append((round(began - self.started, 4), kind, (time.monotonic() - began) * 1000, 0))
            return None
        self.records.append((round(began - self.started, 4), kind, (time.monotonic() - began) * 1000, status))
        if status not in expect:
            self.errors.append(f"{kind}: status {status}")
            return None
        return status, answer, body

    async def fetch_static(self, connection: Connection, paths: tuple[str, ...], cached: set[str]) -> None:
        for path in paths:
            if path not in cached:
                cached.add(path)
                await self.timed(connection, "static file", path, {})

    async def phone(self, number: int, arrives: float, until: float) -> None:
        entries, slug = self.plan["entries"], self.plan["slug"]
        entry = entries[number % len(entries)]
        standings = number % 2 == 0
        page = f"/t/{slug}/standings/" if standings else f"/t/{slug}/players/{entry}/"
        poll_url = f"{page}?partial=1&me={entry}" if standings else f"{page}?partial=1"
        name = "standings" if standings else "player page"
        await asyncio.sleep(max(0.0, arrives - (time.monotonic() - self.started)))
        connection = Connection(self.host, self.port)
        try:
            seating = await self.timed(connection, "seating (open)", f"/t/{slug}/rounds/{self.plan['round']}/", {})
            cached: set[str] = set()  # the browser's cache: each static file once
            if seating is not None:
                await self.fetch_static(connection, static_paths(seating[2]), cached)
            opened = await self.timed(connection, f"{name} (open)", page, {})
            if opened is not None:  # the page's own scripts, those the seating did not ask for
                await self.fetch_static(connection, static_paths(opened[2]), cached)
            etag = None
            if opened is not None and not standings:
                found = ETAG.search(opened[2])
                etag = found.group(1).decode().replace("&quot;", '"') if found else None
            while time.monotonic() - self.started < until:
                answer = await self.timed(
                    connection, f"{name} poll", poll_url, {"If-None-Match": etag} if etag else {}, expect=(200, 304)
                )
                if answer is not None and answer[0] == 200:
                    etag = answer[1].get("etag", etag)
                wait = self.args.poll * random.uniform(0.8, 1.2)
                if time.monotonic() - self.started + wait >= until:
                    break
                await asyncio.sleep(wait)
        finally:
            await connection.close()

    async def run(self) -> dict:
        args = self.args
        arrivals = sorted(random.uniform(0, args.window) for _ in range(args.phones))
        cpu_before = resource.getrusage(resource.RUSAGE_SELF)
        self.started = time.monotonic()
        burst_cpu: list[float] = []

        async def mark_burst_cpu():
            await asyncio.sleep(args.settled)
            usage = resource.getrusage(resource.RUSAGE_SELF)
            burst_cpu.append(usage.ru_utime + usage.ru_stime - cpu_before.ru_utime - cpu_before.ru_stime)

        marker = asyncio.create_task(mark_burst_cpu())
        await asyncio.gather(*(self.phone(number, at, args.run_time) for number, at in enumerate(arrivals)))
        if not marker.done():
            marker.cancel()
        usage = resource.getrusage(resource.RUSAGE_SELF)
        total_cpu = usage.ru_utime + usage.ru_stime - cpu_before.ru_utime - cpu_before.ru_stime
        system = usage.ru_stime - cpu_before.ru_stime
        return {
            "cpu_system": system,
            "times": self.records,
            "errors": self.errors,
            "arrivals": [arrivals[0], arrivals[-1]],
            "cpu_burst": burst_cpu[0] if burst_cpu else total_cpu,
            "cpu_total": total_cpu,
            "settled": args.settled,
            "seconds": time.monotonic() - self.started,
        }


def percentile(values: list[float], share: float) -> float:
    """Nearest rank, as scripts/loadtest.py counts."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def print_report(result: dict) -> None:
    settled = result["settled"]
    for label, chosen in (
        (f"the burst (requests begun in the first {settled:g} s)", lambda t: t < settled),
        (f"afterwards (from {settled:g} s on)", lambda t: t >= settled),
    ):
        kinds: dict[str, list[float]] = {}
        for at, kind, ms, _status in result["times"]:
            if chosen(at):
                kinds.setdefault(kind, []).append(ms)
                kinds.setdefault("all", []).append(ms)
        print(f"\n  {label}")
        print(f"  {'request':24s} {'count':>6s} {'p50':>7s} {'p95':>7s} {'p99':>7s} {'max':>7s}")
        for kind in sorted(kinds, key=lambda k: (k == "all", k)):
            values = kinds[kind]
            p50, p95, p99 = (percentile(values, share) for share in (0.5, 0.95, 0.99))
            print(f"  {kind:24s} {len(values):6d} {p50:5.0f}ms {p95:5.0f}ms {p99:5.0f}ms {max(values):5.0f}ms")
    first, last = result["arrivals"]
    print(
        f"\n  phones arrived between {first * 1000:.0f} and {last * 1000:.0f} ms; the generator's own CPU: "
        f"{result['cpu_burst']:.2f} s in the first {settled:g} s, {result['cpu_total']:.2f} s in all "
        f"({result['cpu_system']:.2f} s of it in the kernel: the loopback's TCP)"
    )
    print(f"  errors: {len(result['errors'])}" + "".join(f"\n  ERROR {e}" for e in result["errors"][:20]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--plan", required=True, help="the tournament's plan (scripts/loadtest.py --prepare-only)")
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--window", type=float, default=0.1, help="seconds within which every phone arrives")
    parser.add_argument("--run-time", type=float, default=45)
    parser.add_argument("--poll", type=float, default=30, help="seconds between a phone's polls, give or take a fifth")
    parser.add_argument("--settled", type=float, default=3.0, help="the burst's own seconds, reported apart")
    parser.add_argument("--out", help="each request's time, kind, ms and status as JSON")
    parser.add_argument("--quiet", action="store_true", help="no report (the caller prints its own)")
    args = parser.parse_args()
    host = urlsplit(args.url).hostname or ""
    if host not in ("127.0.0.1", "localhost", "::1"):
        sys.exit(f"burst_phones: {args.url} is not on this machine's loopback")
    if not (1 <= args.phones <= 2000 and 0 < args.run_time <= 900):
        sys.exit("burst_phones: 1 to 2,000 phones for at most 900 seconds")
    plan = json.loads(Path(args.plan).read_text(encoding="utf-8"))
    result = asyncio.run(Burst(args, plan).run())
    if args.out:
        Path(args.out).write_text(json.dumps(result), encoding="utf-8")
    if not args.quiet:
        print(f"{args.phones} phones within {args.window * 1000:.0f} ms against {args.url}")
        print_report(result)
    sys.exit(1 if result["errors"] else 0)


if __name__ == "__main__":
    main()
