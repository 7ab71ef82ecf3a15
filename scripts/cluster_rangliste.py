"""The association's Rangliste in the cluster check (scripts/cluster-check.sh; docs/deploy.md):
phones polling the Rangliste's page and its API beside the live tournament's phones, and how long after a
new Ranglistenturnier arrives on the hub its page shows it (the issue's bound: 60 s).

    python scripts/cluster_rangliste.py prepare PLAN [--clubs 8] [--tournaments 400] [--players 6000]
    python scripts/cluster_rangliste.py arrive PLAN URL [--wait 30] [--bound 60]

`prepare` (in the hub's database, with the app's settings, before the instances start): a generated
association (`generate_association`: clubs, people, tournaments over two years, the Ranglistenturniere
with their results), the association's Rangliste over every club, computed and stored once (as the
background task does), a publishing key of one member club, and a venue's Ranglistenturnier of 40
players and 3 played rounds whose tournament file is the batch that arrives later; all in PLAN (JSON).

`arrive` (while the load runs, through nginx): reads the Rangliste's page and API, sends the batch to
the hub's publishing endpoint as a venue's sender does (`POST /api/publish/v1/batch`), then polls the
page (and the API) every half second until the page counts one Ranglistenturnier more. Prints the
seconds from the batch's answer to the page showing it and to the API showing it; exits 1 over the
bound or on an error. Loopback only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SLUG = "cluster-verband"
# the page's lead: "… aus 123 Ranglistenturnieren der Mitgliedsvereine …" (a dot groups thousands)
COUNTED = re.compile(r"aus ([\d.]+) Ranglistenturnier")


def prepare(plan_path: Path, clubs: int, tournaments: int, players: int) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.utils import timezone

    from tournament.models import Organisation, Rangliste, Tournament
    from tournament.services import rangliste as rangliste_services
    from tournament.services.association import generate_association
    from tournament.services.generate import generate_tournament
    from tournament.services.organisations import create_organisation
    from tournament.services.outbox import file_payload
    from tournament.services.publishing_keys import issue_key
    from tournament.services.rangliste_refresh import refresh_rangliste

    started = time.perf_counter()
    made = generate_association(clubs=clubs, tournaments=tournaments, players=players, years=2, seed="cluster",
                                prefix="cl")
    members = tuple(Organisation.objects.filter(slug__startswith="cl-verein-").order_by("id"))
    print(f"cluster-rangliste: {made.clubs} clubs, {made.people} people, {made.tournaments} tournaments "
          f"({made.scores} round results of Ranglistenturniere): {time.perf_counter() - started:.1f} s", flush=True)
    rangliste = rangliste_services.create_rangliste(settings=rangliste_services.Settings(
        name="Verbandsrangliste (Cluster-Check)", slug=SLUG, source=Rangliste.Source.ASSOCIATION, members=members,
        minimum_rounds=12, cut_lines=((38, "DEM"), (100, "Regionalmeisterschaft"))), organisation=members[0])
    started = time.perf_counter()
    lines = refresh_rangliste(rangliste=rangliste)
    rangliste.refresh_from_db()
    print(f"cluster-rangliste: the Rangliste computed and stored: {lines} lines, "
          f"{rangliste.computed['tournaments']} tournaments counting, {rangliste.computed['refused']} refused "
          f"({time.perf_counter() - started:.1f} s)", flush=True)
    _key, secret = issue_key(organisation=members[0], label="Cluster-Check")
    venue_organisation = create_organisation(name="Spielort des Cluster-Checks", slug="cl-spielort")
    venue = generate_tournament(players=40, rounds=3, seed="cluster-venue", slug="cl-venue",
                                name="Ranglistenturnier aus dem Cluster-Check", date=timezone.localdate(),
                                organisation=venue_organisation)
    payload = file_payload(Tournament.objects.get(pk=venue.pk))
    settings = payload.get("tournament", payload)
    settings["counts_for_rangliste"] = True  # a Ranglistenturnier (the venue's own flag, as its director sets it)
    body = {"format_version": 1, "venue_tournament": str(uuid.uuid4()),
            "entries": [{"seq": 1, "at": timezone.now().isoformat(), "kind": "file", "payload": payload}]}
    plan_path.write_text(json.dumps({"slug": SLUG, "key": secret, "body": body,
                                     "counted": rangliste.computed["tournaments"]}), encoding="utf-8")
    from django.db import connection

    if connection.vendor == "postgresql":  # written in bulk: analysed now, not by autovacuum during the run
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    connection.close()


def loopback(url: str) -> str:
    host = urllib.parse.urlsplit(url).hostname or ""
    if host not in ("127.0.0.1", "localhost", "::1"):
        sys.exit(f"cluster-rangliste: {url} is not on loopback")
    return url.rstrip("/")


def get(url: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers={"Accept-Language": "de", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 (loopback only)
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def page_count(html: bytes) -> int | None:
    found = COUNTED.search(html.decode())
    return int(found.group(1).replace(".", "")) if found else None


def arrive(plan_path: Path, url: str, wait: float, bound: float) -> None:
    plan = json.loads(plan_path.read_text(encoding="utf-8"))
    url = loopback(url)
    page, api = f"{url}/r/{plan['slug']}/", f"{url}/api/v1/ranglisten/{plan['slug']}?limit=10"
    time.sleep(wait)  # the load is under way
    status, _headers, html = get(page)
    before = page_count(html)
    status_api, headers, body = get(api)
    if status != 200 or status_api != 200 or before is None:
        sys.exit(f"cluster-rangliste: the Rangliste's page ({status}) or API ({status_api}) did not answer")
    etag = headers.get("ETag", "")
    print(f"  ok   the Rangliste's page counts {before} Ranglistenturniere; its API says "
          f"{json.loads(body)['tournaments']} (ETag {etag})", flush=True)
    data = json.dumps(plan["body"]).encode()
    request = urllib.request.Request(f"{url}/api/publish/v1/batch", data=data, method="POST", headers={
        "Authorization": f"Bearer {plan['key']}", "Idempotency-Key": str(uuid.uuid4()),
        "Content-Type": "application/json"})
    sent = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310 (loopback only)
            answer = json.loads(response.read())
    except urllib.error.HTTPError as error:
        sys.exit(f"cluster-rangliste: the batch was refused: {error.code} {error.read()[:300]!r}")
    applied = time.perf_counter()
    print(f"  ok   a member club's Ranglistenturnier (40 players, 3 rounds) arrives: {answer} "
          f"({(applied - sent) * 1000:.0f} ms)", flush=True)
    on_page = on_api = None
    polls = 0
    while time.perf_counter() - applied < bound + 30 and (on_page is None or on_api is None):
        time.sleep(0.5)
        polls += 1
        if on_page is None:
            _status, _headers, html = get(page)
            if (page_count(html) or 0) > before:
                on_page = time.perf_counter() - applied
        if on_api is None:
            status_api, headers, body = get(api, {"If-None-Match": etag})
            if status_api == 200 and json.loads(body)["tournaments"] > before and not json.loads(body)["behind"]:
                on_api = time.perf_counter() - applied
    if on_page is None:
        sys.exit(f"cluster-rangliste: FAIL the page did not show the new tournament within {bound + 30:.0f} s")
    print(f"  {'ok  ' if on_page <= bound else 'FAIL'} the Rangliste's page counts it {on_page:.1f} s after the "
          f"batch was applied (bound {bound:.0f} s; the API {on_api:.1f} s; polled every 0.5 s)"
          if on_api is not None else f"  the page after {on_page:.1f} s; the API did not show it", flush=True)
    if on_page > bound or on_api is None:
        sys.exit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    made = sub.add_parser("prepare")
    made.add_argument("plan")
    made.add_argument("--clubs", type=int, default=8)
    made.add_argument("--tournaments", type=int, default=400)
    made.add_argument("--players", type=int, default=6000)
    run = sub.add_parser("arrive")
    run.add_argument("plan")
    run.add_argument("url")
    run.add_argument("--wait", type=float, default=30, help="seconds of load before the batch (default 30)")
    run.add_argument("--bound", type=float, default=60, help="seconds the page may take (default 60)")
    args = parser.parse_args()
    if args.command == "prepare":
        prepare(Path(args.plan), args.clubs, args.tournaments, args.players)
    else:
        arrive(Path(args.plan), args.url, args.wait, args.bound)


if __name__ == "__main__":
    main()
