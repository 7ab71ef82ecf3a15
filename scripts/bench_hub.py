"""Benchmarks of the hub's start page, calendar, search, a player's page across clubs and the association's
Rangliste (figures, not tests; docs/hub.md, docs/competitions.md and docs/performance.md).

    .venv/bin/python scripts/bench_hub.py [--clubs 200] [--tournaments 10000] [--players 200000] [--repeat 20]
    bash scripts/with-postgres.sh .venv/bin/python scripts/bench_hub.py     (the same on PostgreSQL)

`make bench` runs both. A generated association (`manage.py generate_association`: by default 200
clubs, 10,000 tournaments over 3 years, 200,000 people with their records at every club they play at);
on a hub (DJANGO_HUB=1) with the production settings (debug off, the shared cache in the database),
each request through Django's test client as an anonymous visitor, timed to the last byte. Beside each
figure a bare Django view that returns the same number of bytes through the same middleware.

- first render: the shared cache emptied before every request (what the first visitor after the
  30 seconds a page is kept pays);
- cached: the same request again (every other visitor within those 30 seconds).

The association's Rangliste (every club a member, the generated Ranglistenturniere with their round
results) is computed and stored first, as the background task does after a batch (its time printed);
its pages read what is stored, with no page cache: their "cached" figure is the same request again.

The searches: Krämer and Kraemer, Oßenbrügge and Ossenbruegge (each finds the other), Müller (many
found), a word of a club's name, a tournament's name, and nothing found. The person's page across clubs
is the one with 300 tournaments at many clubs (`association.add_regular`).

Targets: first render under 100 ms, cached within 25x the bare view.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import BARE_URL, Report, bare_urlconf  # noqa: E402 (scripts/bench.py)
from machine_load import idle_percent  # noqa: E402 (scripts/machine_load.py)

ROOT = Path(__file__).resolve().parent.parent
REGULAR = 300  # tournaments of the person whose page across clubs is timed (association.add_regular)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clubs", type=int, default=200)
    parser.add_argument("--tournaments", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=20, help="requests per figure (default 20)")
    parser.add_argument("--rated", type=int, default=0,
                        help="Ranglistenturniere with games to add for the rating (the generated ones are totals only)")
    parser.add_argument("--generate-only", action="store_true",
                        help="make the association (and on SQLite keep its copy under var/bench), time nothing: "
                             "for generating niced and timing apart (docs/performance.md)")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    work = Path(tempfile.mkdtemp(prefix="doko-bench-hub-"))
    size = f"{args.clubs}-{args.tournaments}-{args.players}"
    pristine = ROOT / "var" / "bench" / f"hub-v3-{size}.sqlite3"  # v3: with the Ranglistenturniere's results
    sqlite = not os.environ.get("DATABASE_URL")
    if sqlite:
        os.environ["DATABASE_URL"] = f"sqlite:///{work / 'bench.sqlite3'}"
    os.environ.update(DJANGO_DEBUG="0", DJANGO_SECRET_KEY="bench-" + "x" * 50, DJANGO_HTTPS="0", DJANGO_HUB="1",
                      DJANGO_ALLOWED_HOSTS="testserver", DJANGO_LOG_TO_FILE="0",
                      DJANGO_SETTINGS_MODULE="config.settings")
    if sqlite and pristine.exists():
        shutil.copy(pristine, work / "bench.sqlite3")
    import django

    django.setup()
    import logging

    logging.getLogger("django.request").setLevel(logging.ERROR)
    from django.conf import settings
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, override_settings
    from django.utils import timezone

    from tournament.models import Organisation, Player, Tournament
    from tournament.services.association import add_regular, generate_association

    assert settings.DOKO_HUB
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    if not Organisation.objects.filter(slug="v-verein-1").exists():
        started = time.perf_counter()
        made = generate_association(clubs=args.clubs, tournaments=args.tournaments, players=args.players)
        print(f"generated {made.clubs} clubs, {made.people} people ({made.player_records} player records), "
              f"{made.tournaments} tournaments, {made.entries} entries, {made.rounds} rounds, {made.scores} round "
              f"results "
              f"in {time.perf_counter() - started:.1f} s")
        add_regular(tournaments=REGULAR)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        if sqlite:
            pristine.parent.mkdir(parents=True, exist_ok=True)
            connection.close()
            shutil.copy(work / "bench.sqlite3", pristine)

    if not Player.objects.filter(member_number="R0000300").exists():  # a copy made before the player page
        add_regular(tournaments=REGULAR)
    if args.generate_only:
        connection.close()
        shutil.rmtree(work, ignore_errors=True)
        return
    regular = (Player.objects.filter(member_number="R0000300").order_by("organisation_id")
               .values_list("id", flat=True)[0])

    from tournament.models import Rangliste, RanglisteStanding
    from tournament.services import rangliste as rangliste_services
    from tournament.services.rangliste_refresh import refresh_rangliste

    rangliste = Rangliste.objects.filter(slug="verband").first()
    if rangliste is None:
        rangliste = rangliste_services.create_rangliste(settings=rangliste_services.Settings(
            name="Verbandsrangliste", slug="verband", source=Rangliste.Source.ASSOCIATION,
            members=tuple(Organisation.objects.filter(slug__startswith="v-verein-")),
            cut_lines=((38, "Deutsche Meisterschaft"), (200, "Regionalmeisterschaft"))))
    if args.rated:
        with_games(args.rated)
    from tournament.services import rangliste_ratings

    computing, rating_took = rangliste_ratings.compute, []

    def timed_compute(**kwargs):
        begun = time.perf_counter()
        found = computing(**kwargs)
        rating_took.append(time.perf_counter() - begun)
        return found

    rangliste_ratings.compute = timed_compute
    started = time.perf_counter()
    lines = refresh_rangliste(rangliste=rangliste)
    rangliste_ratings.compute = computing
    rangliste.refresh_from_db()
    print(f"the association's Rangliste computed and stored in {time.perf_counter() - started:.1f} s: {lines} "
          f"players ({rangliste.computed['ranked']} ranked), {rangliste.computed['tournaments']} tournaments count, "
          f"{rangliste.computed['refused']} do not; of which the rating {rating_took[0]:.2f} s")
    rating_after_a_game(rangliste)
    someone = RanglisteStanding.objects.filter(rangliste=rangliste, position=30).values_list("link", flat=True)[0]

    urlconf = bare_urlconf("bench_hub_urls")
    report = Report()
    print(f"{Organisation.objects.count()} clubs, {Tournament.objects.count()} tournaments, "
          f"{Player.objects.count()} player records; {connection.vendor}; {args.repeat} requests a figure; "
          f"cache: {settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}; CPUs idle before: {idle_percent()}")
    public = Client()

    def timed(url):
        started = time.perf_counter()
        response = public.get(url)
        body = response.content
        return time.perf_counter() - started, response, len(body)

    def bare_times(size):
        return [timed(f"{BARE_URL}{size}/")[0] for _ in range(args.repeat)]

    def measure(name, url, *, first: bool, target):
        times, size, queries = [], 0, 0
        if not first:
            public.get(url)
        for _ in range(args.repeat):
            if first:
                cache.clear()
            with CaptureQueriesContext(connection) as captured:
                seconds, response, size = timed(url)
            assert response.status_code == 200, (name, response.status_code)
            times.append(seconds)
            queries = len(captured)
        report.add(name, times, size, bare_times(size), target, queries)

    month = f"{timezone.localdate():%Y-%m}"
    club = Organisation.objects.order_by("id").values_list("slug", flat=True)[5]
    # a club and a tournament looked for by name: one word of the club's name, a Ranglistenturnier's whole name
    club_word = Organisation.objects.filter(slug__startswith="v-verein-").order_by("id").values_list(
        "name", flat=True)[5].split()[1]
    tournament_name = (Tournament.objects.filter(public_overview=True, name__startswith="Ranglistenturnier ")
                       .order_by("id").values_list("name", flat=True)[47])
    pages = [
        ("start page", "/"),
        ("start page, region NW and kind Ranglistenturnier", "/?region=NW&kind=rangliste"),
        ("calendar, this month", f"/kalender/?month={month}"),
        ("calendar, this month, one club", f"/kalender/?month={month}&club={club}"),
        ("calendar, this month, page 3", f"/kalender/?month={month}&seite=3"),
        ("search: Krämer (finds Kraemer too)", "/suche/?q=Kr%C3%A4mer"),
        ("search: Kraemer (finds Krämer too)", "/suche/?q=Kraemer"),
        ("search: Oßenbrügge (finds Ossenbruegge)", "/suche/?q=O%C3%9Fenbr%C3%BCgge"),
        ("search: Ossenbruegge (finds Oßenbrügge)", "/suche/?q=Ossenbruegge"),
        ("search: Müller (many found)", "/suche/?q=M%C3%BCller"),
        (f"search: a club ({club_word})", f"/suche/?q={quote(club_word)}"),
        (f"search: a tournament ({tournament_name})", f"/suche/?q={quote(tournament_name)}"),
        ("search: nothing found", "/suche/?q=Zzyzxq"),
        # a person's page across clubs (docs/hub.md): 300 tournaments at many clubs, with places
        (f"player page across clubs, {REGULAR} tournaments", f"/spieler/{regular}/"),
        # the association's Rangliste, read as stored (no page cache: "cached" is the same request again)
        ("Rangliste, page 1", "/r/verband/"),
        ("Rangliste, page 40", "/r/verband/?seite=40"),
        ("Rangliste: a player's line and tournaments", f"/r/verband/spieler/?p={someone}"),
    ]
    with override_settings(ROOT_URLCONF=urlconf):
        print("\nfirst render (the shared cache emptied before each request):")
        for name, url in pages:
            measure(name, url, first=True, target=100)
        print("\ncached (the same request again, within the 30 seconds a page is kept):")
        for name, url in pages:
            measure(name, url, first=False, target=lambda bare: 25 * bare)
    print(f"\nCPUs idle after: {idle_percent()}; work folder {work} (removed)")
    connection.close()
    shutil.rmtree(work, ignore_errors=True)


def with_games(count: int) -> None:
    """`count` Ranglistenturniere with games (40 players, 4 rounds), of member clubs, in the last weeks, for the
    rating (docs/rating.md, "Across clubs on the hub"); once per database."""
    import datetime
    import random

    from tournament.models import Organisation, Tournament
    from tournament.services.generate import generate_tournament

    made = Tournament.objects.filter(slug__startswith="wz-bench-").count()
    clubs = list(Organisation.objects.filter(slug__startswith="v-verein-").order_by("id")[:50])
    rng = random.Random(0)
    started = time.perf_counter()
    for number in range(made, count):
        day = datetime.date.today() - datetime.timedelta(days=7 * (count - number))
        tournament = generate_tournament(players=40, rounds=4, seed=f"wz-{number}", slug=f"wz-bench-{number}",
                                         date=day, organisation=rng.choice(clubs))
        Tournament.objects.filter(pk=tournament.pk).update(counts_for_rangliste=True)
    if count > made:
        print(f"added {count - made} Ranglistenturniere with games in {time.perf_counter() - started:.1f} s")


def rating_after_a_game(rangliste) -> None:
    """What the refresh's rating costs: the games rated, and a refresh after a game saved in the newest
    tournament with games (only that tournament rated again)."""
    from tournament.models import Game, RanglisteRatedTournament, RanglisteRating
    from tournament.services import rangliste_ratings, results
    from tournament.services.rangliste_refresh import refresh_rangliste

    rated = RanglisteRatedTournament.objects.filter(rangliste=rangliste).count()
    games = Game.objects.filter(table__round__tournament__in=RanglisteRatedTournament.objects.filter(
        rangliste=rangliste).values("tournament")).count()
    print(f"the rating: {rated} tournaments rated, {games} games, "
          f"{RanglisteRating.objects.filter(rangliste=rangliste, latest=True).count()} players rated")
    newest = Game.objects.filter(table__round__tournament__in=RanglisteRatedTournament.objects.filter(
        rangliste=rangliste).values("tournament")).order_by("-table__round__tournament__date", "-id").first()
    if newest is None:
        print("the rating rated no games (the generated tournaments are totals only; --rated N adds some)")
        return
    timing = []
    original = rangliste_ratings.compute

    def timed(**kwargs):
        begun = time.perf_counter()
        found = original(**kwargs)
        timing.append((time.perf_counter() - begun, found.again))
        return found

    rangliste_ratings.compute = timed
    try:
        results.delete_game(table=newest.table, number=newest.number)
        started = time.perf_counter()
        refresh_rangliste(rangliste=rangliste)
        whole = time.perf_counter() - started
    finally:
        rangliste_ratings.compute = original
    print(f"after a game deleted in the newest tournament with games: the refresh {whole:.1f} s, of which the "
          f"rating {timing[0][0]:.2f} s ({timing[0][1]} tournament(s) rated again)")


if __name__ == "__main__":
    main()
