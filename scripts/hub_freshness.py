"""How fresh the association's Rangliste is for a Ranglistenturnier run on the hub itself (a figure, not a
test; docs/competitions.md, "The association's Rangliste", and docs/hub.md).

    .venv/bin/python scripts/hub_freshness.py [--clubs 20] [--tournaments 600] [--players 6000] [--repeat 3]

A generated association (`generate_association`) on SQLite in var/hubfresh/, the association's Rangliste
with every club a member, computed once; a `manage.py db_worker` started beside (the background task's
worker, as in production; stopped at the end). Then a member club's Ranglistenturnier of today with 40
players is run on the hub: its director's writes go through Django's test client (the round page's forms)
or the services the table forms call, and a visitor polls the player page of the association's Rangliste
(`/r/verband/spieler/?p=`) every 0.2 s through the test client until it shows what was written:

- "Ergebnisse bekanntgeben": round 1's totals entered at every table while its results were hidden, then
  the director announces them (the round page's form): until a player's page shows the round;
- a correction at one table of a round that is shown (the totals entered anew): until the page shows the
  new points;
- a round published ("Veröffentlichen") and its results entered at once, table after table, as phones do.

Prints each time, and the worker's refresh time.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 40


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clubs", type=int, default=20)
    parser.add_argument("--tournaments", type=int, default=600)
    parser.add_argument("--players", type=int, default=6000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    work = ROOT / "var" / "hubfresh"
    work.mkdir(parents=True, exist_ok=True)
    env = {
        "DATABASE_URL": f"sqlite:///{work / f'hub-{args.clubs}-{args.tournaments}-{args.players}.sqlite3'}",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "hubfresh-" + "x" * 50,
        "DJANGO_HTTPS": "0",
        "DJANGO_HUB": "1",
        "DJANGO_ALLOWED_HOSTS": "testserver",
        "DJANGO_LOG_TO_FILE": "0",
        "DJANGO_TASKS_BACKEND": "database",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    import logging

    logging.getLogger("django.request").setLevel(logging.ERROR)  # (the polls' 404 until the player is listed)
    logging.getLogger("tournament.web.warming").setLevel(logging.WARNING)
    from django.core.management import call_command

    from tournament.models import Organisation, Rangliste
    from tournament.services import rangliste as rangliste_services
    from tournament.services.association import generate_association
    from tournament.services.rangliste_refresh import refresh_rangliste

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    if not Organisation.objects.filter(slug="v-verein-1").exists():
        started = time.perf_counter()
        made = generate_association(clubs=args.clubs, tournaments=args.tournaments, players=args.players)
        print(
            f"generated {made.clubs} clubs, {made.people} people, {made.tournaments} tournaments, "
            f"{made.scores} round results in {time.perf_counter() - started:.1f} s"
        )
    rangliste = Rangliste.objects.filter(slug="verband").first()
    if rangliste is None:
        rangliste = rangliste_services.create_rangliste(
            settings=rangliste_services.Settings(
                name="Verbandsrangliste",
                slug="verband",
                source=Rangliste.Source.ASSOCIATION,
                members=tuple(Organisation.objects.filter(slug__startswith="v-verein-")),
                cut_lines=((38, "Deutsche Meisterschaft"),),
            )
        )
    started = time.perf_counter()
    lines = refresh_rangliste(rangliste=rangliste)
    print(f"the association's Rangliste computed and stored in {time.perf_counter() - started:.1f} s: {lines} players")
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "db_worker", "--interval", "0.2", "--no-startup-delay", "-v", "0"],
        cwd=ROOT,
        env={**os.environ, **env},
        start_new_session=True,
    )
    try:
        time.sleep(2)
        polls(rangliste)
        for attempt in range(args.repeat):
            run(rangliste, attempt)
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=30)


def polls(rangliste):
    """The Rangliste's first page for a visitor: its size, a render, the kept answer and a 304."""
    from django.core.cache import cache
    from django.test import Client

    from tournament.web import caching

    visitor, took, tag = Client(), {}, ""
    cache.clear()
    caching.forget_kept()
    for name in ("rendered", "kept", "304"):
        headers = {"HTTP_IF_NONE_MATCH": tag} if name == "304" else {}
        began = time.perf_counter()
        answer = visitor.get("/r/verband/", **headers)
        took[name] = (time.perf_counter() - began) * 1000
        if name == "rendered":
            first, tag = answer, answer["ETag"]
    assert answer.status_code == 304
    print(
        f"the Rangliste's page 1: {len(first.content) / 1000:.0f} KB; rendered {took['rendered']:.0f} ms, "
        f"kept {took['kept']:.1f} ms, an unchanged poll (304) {took['304']:.1f} ms"
    )


def run(rangliste, attempt: int):
    from django.test import Client
    from django.urls import reverse
    from django.utils import timezone

    from tournament.models import Organisation, RanglisteStanding, Table
    from tournament.selectors.rangliste import player_key, public_key
    from tournament.services import seating, sheet_state
    from tournament.services import tournaments as tournament_services
    from tournament.services.organisations import add_organiser

    club = Organisation.objects.get(slug="v-verein-1")
    from django.contrib.auth import get_user_model

    director, _made = get_user_model().objects.get_or_create(username="hubfresh-leitung")
    add_organiser(user=director, organisation=club)
    slug = f"hubfresh-{int(time.time())}-{attempt}"
    tournament = tournament_services.create_tournament(
        name=f"Messturnier {attempt + 1}",
        date=timezone.localdate(),
        director=director,
        slug=slug,
        rounds_planned=3,
        counts_for_rangliste=True,
        organisation=club,
    )
    names = [f"Messung {slug[-6:]} {n:02d}" for n in range(1, PLAYERS + 1)]
    entries = [tournament_services.register_player(tournament=tournament, name=name, club="") for name in names]
    boss = Client()
    boss.force_login(director)
    visitor = Client()
    first = names[0]
    link = public_key(player_key(name=first, club=club.name, member_number=""))
    page = reverse("tournament:rangliste_player", args=[rangliste.slug]) + f"?p={link}"

    def seated(number: int):
        round = seating.create_round(tournament=tournament)
        seating.place_tables(round=round, tables=[[e.pk for e in entries[i : i + 4]] for i in range(0, PLAYERS, 4)])
        assert round.number == number
        return round

    def enter_all(round, base: int):
        for table in Table.objects.filter(round=round).order_by("number"):
            seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
            sheet_state.enter_totals(table=table, totals=dict(zip(seats, [base, 10, -10, -base], strict=True)))

    def status(round, action: str):
        round.refresh_from_db()
        answer = boss.post(
            reverse("tournament:round_status", args=[slug, round.number]), {"action": action, "version": round.version}
        )
        assert answer.status_code == 302, answer.status_code

    def until_shown(points: int, rounds: int, since: float) -> float:
        while time.perf_counter() - since < 180:
            answer = visitor.get(page)
            if answer.status_code == 200:
                line = (
                    RanglisteStanding.objects.filter(rangliste=rangliste, link=link)
                    .values_list("rounds", "points")
                    .first()
                )
                if line == (rounds, points):
                    return time.perf_counter() - since
            time.sleep(0.2)
        raise SystemExit("not shown within 180 s")

    # round 1: entered while hidden, then announced
    round = seated(1)
    status(round, "publish")
    enter_all(round, 30)
    status(round, "hide")
    time.sleep(20)  # the refreshes the entries and the hiding asked for are done
    since = time.perf_counter()
    status(round, "show")
    announced = until_shown(30, 1, since)
    # a correction at table 1 of round 1
    table = Table.objects.get(round=round, number=1)
    seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    since = time.perf_counter()
    sheet_state.enter_totals(table=table, totals=dict(zip(seats, [50, 10, -10, -50], strict=True)))
    corrected = until_shown(50, 1, since)
    # round 2: published, its results entered at once (as the tables' phones would, one table after another)
    round = seated(2)
    since = time.perf_counter()
    status(round, "publish")
    enter_all(round, 20)
    entered = time.perf_counter() - since
    published = until_shown(70, 2, since)
    print(
        f"run {attempt + 1}: results announced -> shown {announced:.1f} s; a correction -> shown {corrected:.1f} s; "
        f"round published and its 10 tables entered ({entered:.1f} s) -> shown {published:.1f} s"
    )


if __name__ == "__main__":
    main()
