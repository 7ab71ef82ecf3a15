"""Cheap polling of the standings and a player's page (tournament/web/caching.py): an unchanged poll is
answered 304 from the change counter; a changed poll gets the new data; the shared cache of rendered
pages is invalidated by every write, also one made by another process; a poll sends the first places
plus the reader's own row, compressed; nothing personal is cached."""

import gzip
import os
import re
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.core.cache import cache, caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.models import DataChange, Round
from tournament.services import results, seating
from tournament.web import cache_keys, caching

from ..factories import make_director, make_tournament, normal_game, play_round, seat_ids, seated_round

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def tournament():
    tournament = make_tournament(players=9, director=make_director(), slug="live")
    play_round(tournament)
    return tournament


def standings(tournament, **query):
    url = reverse("tournament:standings", args=[tournament.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def player(tournament, entry_id, **query):
    url = reverse("tournament:player", args=[tournament.slug, entry_id])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def points_of(content: str) -> dict[int, int]:
    """entry id -> points, from the rows of a standings table (written with a real minus sign)."""
    return {int(entry): int(points.replace("−", "-")) for entry, points in re.findall(
        r'<tr data-entry="(\d+)".*?<td class="num">\d+</td><td class="movement">.*?</td><td class="who">.*?</td>'
        r'<td class="num">(−?\d+)</td>', content)}


def a_table(tournament, number=1):
    return tournament.rounds.get(number=number).tables.order_by("number").first()


# ---- 304 while nothing changed ---------------------------------------------------------------------

@pytest.mark.parametrize("page", ["standings", "player"])
def test_an_unchanged_poll_gets_304_from_one_query_and_no_rendering(client, tournament, page, monkeypatch):
    url = standings(tournament, partial=1) if page == "standings" else player(
        tournament, seat_ids(a_table(tournament))[0], partial=1)
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"].startswith('W/"')
    assert "no-cache" in first["Cache-Control"]

    def no_rendering(*args, **kwargs):
        raise AssertionError("rendered although nothing changed")

    monkeypatch.setattr("django.template.loader.render_to_string", no_rendering)
    monkeypatch.setattr("tournament.views.standings.render_to_string", no_rendering)
    monkeypatch.setattr("tournament.views.public.render_to_string", no_rendering)
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]
    # one query: the tournament's change counter, by the tournament's slug; nothing else
    assert len(queries) == 1, [q["sql"] for q in queries.captured_queries]
    assert "tournament_datachange" in queries.captured_queries[0]["sql"]


def test_a_visitors_changed_poll_reads_the_counter_once(client, tournament):
    """An ETag that no longer holds: the check before the view has read the counter by the slug, and
    the view goes on with it instead of reading it again."""
    url = standings(tournament, partial=1)
    first = client.get(url)
    DataChange.objects.create(tournament=tournament)  # a change: the phone's ETag no longer holds
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    by_slug = [q for q in queries.captured_queries if "WHERE t.slug" in q["sql"]]
    assert len(by_slug) == 1, [q["sql"] for q in queries.captured_queries]


def test_a_logged_in_readers_unchanged_poll_gets_304_after_the_role_check(client, tournament):
    client.force_login(tournament.directors.get())
    first = client.get(standings(tournament, partial=1))
    with CaptureQueriesContext(connection) as queries:
        again = client.get(standings(tournament, partial=1), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    # the session, the user, the counter by the slug (the tournament itself is kept in the process
    # while the counter holds: caching.tournament_by_slug), the role (a director: one query)
    assert len(queries) == 4, [q["sql"] for q in queries.captured_queries]


def test_a_page_switched_off_is_gone_also_for_a_phone_with_its_old_validator(client, tournament):
    first = client.get(standings(tournament, partial=1))
    tournament.public_standings = False
    tournament.save()  # (a write: the counter moves)
    assert client.get(standings(tournament, partial=1), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 404


def test_the_full_page_answers_304_too_and_hands_its_script_the_validator_of_the_first_poll(client, tournament):
    client.get(standings(tournament))  # the first visit sets the CSRF cookie, which the page's validator includes
    page = client.get(standings(tournament))
    assert page.status_code == 200
    assert client.get(standings(tournament), HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304
    poll_etag = re.search(r'data-etag="([^"]+)"', page.content.decode()).group(1).replace("&quot;", '"')
    assert client.get(standings(tournament, partial=1), HTTP_IF_NONE_MATCH=poll_etag).status_code == 304


def test_the_script_sends_the_validator_and_handles_304():
    script = (ROOT / "static" / "js" / "standings.js").read_text(encoding="utf-8")
    assert '"If-None-Match"' in script and "response.status === 304" in script
    assert 'cache: "no-store"' in script  # the browser's cache must not turn the 304 into a 200


# ---- a change is seen at once -------------------------------------------------------------------------

def test_a_changed_poll_gets_the_new_data_and_a_new_validator(client, tournament):
    first = client.get(standings(tournament, partial=1))
    before = points_of(first.content.decode())
    table = a_table(tournament)
    results.save_game(table=table, data=normal_game(table, 3, re_augen=150))  # through the service
    changed = client.get(standings(tournament, partial=1), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    after = points_of(changed.content.decode())
    assert after != before and sum(after.values()) == 0
    assert {entry for entry, points in after.items() if points != before[entry]} <= set(seat_ids(table))


def test_the_cached_page_is_replaced_by_any_write_through_the_services(client, tournament):
    entry_id = seat_ids(a_table(tournament))[0]
    page = client.get(player(tournament, entry_id)).content.decode()
    assert client.get(player(tournament, entry_id)).content.decode().count("keine 120") == page.count("keine 120")
    # the cache holds the page now; a new game at the player's table must show at once
    counter = caching.change_counter(tournament)
    table = a_table(tournament)
    results.save_game(table=table, data=normal_game(table, 3, re_augen=131))
    assert caching.change_counter(tournament) > counter
    again = client.get(player(tournament, entry_id)).content.decode()
    assert again.count("keine 120") == page.count("keine 120") + 1


def test_hiding_a_round_takes_its_results_off_a_cached_poll_at_once(client, tournament):
    round = tournament.rounds.get(number=1)
    shown = client.get(standings(tournament, partial=1))
    assert any(points_of(shown.content.decode()).values())
    seating.hide_results(round=Round.objects.get(pk=round.pk))
    hidden = client.get(standings(tournament, partial=1), HTTP_IF_NONE_MATCH=shown["ETag"])
    assert hidden.status_code == 200 and not any(points_of(hidden.content.decode()).values())
    entry_id = seat_ids(a_table(tournament))[0]
    assert "noch bekanntgegeben" in client.get(player(tournament, entry_id, partial=1)).content.decode()


def test_a_write_outside_the_services_counts_up_too(client, tournament):
    """The admin or a shell saving a model directly: the counter moves, no stale page is served."""
    shown = client.get(standings(tournament, partial=1))
    round = tournament.rounds.get(number=1)
    round.results_hidden = True
    round.save()
    hidden = client.get(standings(tournament, partial=1), HTTP_IF_NONE_MATCH=shown["ETag"])
    assert hidden.status_code == 200 and not any(points_of(hidden.content.decode()).values())


def test_deleting_a_tournament_outside_the_services_leaves_no_change_rows_behind():
    tournament = make_tournament(players=9, slug="weg")
    seated_round(tournament)  # rounds, tables and seats go with it (games would protect their players)
    tournament_id = tournament.pk
    assert DataChange.objects.filter(tournament_id=tournament_id).exists()
    tournament.delete()
    assert not DataChange.objects.filter(tournament_id=tournament_id).exists()


def test_what_the_reader_may_see_and_the_language_give_other_validators(client, tournament):
    public = client.get(standings(tournament, partial=1))
    english = client.get(standings(tournament, partial=1), HTTP_IF_NONE_MATCH=public["ETag"],
                         HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 200 and "As of" in english.content.decode()
    client.force_login(tournament.directors.get())
    director = client.get(standings(tournament, partial=1), HTTP_IF_NONE_MATCH=public["ETag"])
    assert director.status_code == 200 and director["ETag"] != public["ETag"]


# ---- what a phone gets ---------------------------------------------------------------------------------

def test_a_poll_sends_the_first_places_and_the_readers_own_row(client, tournament, settings):
    settings.STANDINGS_TOP = 3
    full = client.get(standings(tournament, all=1)).content.decode()
    order = [int(entry) for entry in re.findall(r'<tr data-entry="(\d+)"', full)]
    assert len(order) == 9
    last = order[-1]
    top = client.get(standings(tournament, partial=1)).content.decode()
    assert [int(e) for e in re.findall(r'<tr data-entry="(\d+)"', top)] == order[:3]
    assert "data-show-all" in top and "Alle 9 Spieler anzeigen" in top
    mine = client.get(standings(tournament, partial=1, me=last)).content.decode()
    assert [int(e) for e in re.findall(r'<tr data-entry="(\d+)"', mine)] == order[:3] + [last]
    assert '<tr class="gap"' in mine
    row = re.compile(rf'<tr data-entry="{last}".*?</tr>', re.S)  # kept as values in the cache, the same row
    assert row.search(mine).group(0) == row.search(full).group(0)
    # someone among the first places gets no extra row; an unknown entry none either
    assert re.findall(r'<tr data-entry="(\d+)"', client.get(standings(tournament, partial=1, me=order[0]))
                      .content.decode()) == [str(e) for e in order[:3]]
    assert client.get(standings(tournament, partial=1, me=999999)).status_code == 200
    # and everything on demand
    everyone = client.get(standings(tournament, partial=1, all=1)).content.decode()
    assert [int(e) for e in re.findall(r'<tr data-entry="(\d+)"', everyone)] == order
    assert "data-show-all" not in everyone


def test_the_readers_own_row_keeps_hidden_results_hidden(client, tournament, settings):
    settings.STANDINGS_TOP = 2
    round = tournament.rounds.get(number=1)
    seating.hide_results(round=Round.objects.get(pk=round.pk))
    for entry_id in seat_ids(a_table(tournament)):
        mine = client.get(standings(tournament, partial=1, me=entry_id)).content.decode()
        assert not any(points_of(mine).values())


def test_sort_links_of_a_polled_table_lead_to_the_page_not_the_fragment(client, tournament):
    fragment = client.get(standings(tournament, partial=1, me=1)).content.decode()
    links = re.findall(r'href="([^"]*)"', fragment)
    assert "?sort=points" in links and "?sort=-rank" in links
    assert not [link for link in links if "partial" in link or "me=" in link]


def test_a_poll_is_compressed_and_a_page_with_a_csrf_token_is_not(client, tournament):
    poll = client.get(standings(tournament, partial=1), HTTP_ACCEPT_ENCODING="gzip")
    assert poll["Content-Encoding"] == "gzip"
    assert b"standings-table" in gzip.decompress(poll.content)
    visitor = client.get(standings(tournament), HTTP_ACCEPT_ENCODING="gzip")  # no token: everybody's page
    assert visitor["Content-Encoding"] == "gzip" and b"csrfmiddlewaretoken" not in gzip.decompress(visitor.content)
    client.force_login(make_director("zuschauer"))  # logged in: the frame holds a token (to log out)
    page = client.get(standings(tournament), HTTP_ACCEPT_ENCODING="gzip")
    assert "csrfmiddlewaretoken" in page.content.decode() and not page.has_header("Content-Encoding")


def test_nothing_personal_is_shared_through_the_cache(tournament):
    from django.test import Client

    pages = []
    for name in ("anna", "bernd"):
        browser = Client()
        browser.force_login(make_director(name))  # logged in, no role in this tournament: the public view
        page = browser.get(standings(tournament)).content.decode()
        pages.append(page)
        assert f"Eingeloggt als {name}" in page
    tokens = [re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1) for page in pages]
    assert tokens[0] != tokens[1]
    assert "csrfmiddlewaretoken" not in Client().get(standings(tournament, partial=1)).content.decode()


def test_the_time_of_the_page_is_the_time_it_is_sent(client, tournament):
    first = client.get(standings(tournament, partial=1)).content.decode()
    assert re.search(r'<span class="now">\d\d:\d\d</span>', first)
    assert "<!--now-->" not in first and "<!--me-->" not in first


# ---- shared between processes ------------------------------------------------------------------------

def test_the_cache_is_shared_storage_not_process_memory():
    from django.core.cache.backends.db import DatabaseCache
    from django.core.cache.backends.redis import RedisCache

    assert isinstance(caches["default"], DatabaseCache | RedisCache), type(caches["default"])


def database_url() -> str:
    """The address of the test database, for another process."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    auth = quote(db["USER"] or "") + (":" + quote(db["PASSWORD"]) if db.get("PASSWORD") else "")
    host = quote(db["HOST"] or "", safe="")
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{db['NAME']}"


def other_process(code: str) -> str:
    env = {**os.environ, "DATABASE_URL": database_url(), "DJANGO_SETTINGS_MODULE": "config.settings"}
    script = "import django\ndjango.setup()\n" + textwrap.dedent(code)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.django_db(transaction=True)
def test_another_process_sees_the_cache_and_its_write_is_seen_here(client):
    cache.clear()
    tournament = make_tournament(players=9, director=make_director(), slug="prozesse")
    play_round(tournament)
    first = client.get(standings(tournament, partial=1))
    counter = caching.change_counter(tournament)
    key = cache_keys.standings_live(tournament.pk, counter, director=False, query={})
    assert cache.get(key) is not None
    # another process (another gunicorn worker, another machine) reads the same entry ...
    seen = other_process(f"""
        from django.core.cache import cache
        from django.utils import translation
        translation.activate("de")
        value = cache.get({key!r})
        print("found" if value and "standings-table" in value["html"] else "missing")
    """)
    assert seen.strip() == "found"
    # ... and a game it saves through the service is on this process's next poll at once
    table = a_table(tournament)
    other_process(f"""
        from tournament.models import Table
        from tournament.services import results
        from tests.tournament.factories import normal_game
        table = Table.objects.get(pk={table.pk})
        results.save_game(table=table, data=normal_game(table, 3, re_augen=150))
    """)
    changed = client.get(standings(tournament, partial=1), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert points_of(changed.content.decode()) != points_of(first.content.decode())


def test_the_release_of_the_code_is_part_of_every_key_and_validator(monkeypatch, tournament, rf):
    cache_keys.release.cache_clear()
    try:
        monkeypatch.setenv("DJANGO_RELEASE", "one")
        first = caching.etag(tournament, 7, "standings-poll")
        cache_keys.release.cache_clear()
        monkeypatch.setenv("DJANGO_RELEASE", "two")
        assert caching.etag(tournament, 7, "standings-poll") != first
    finally:
        cache_keys.release.cache_clear()
    assert settings.STANDINGS_TOP >= 10


# ---- the round's tables, rendered once per change -------------------------------------------------------

def test_the_rounds_cached_tables_follow_every_change_and_each_role(client, tournament):
    round = tournament.rounds.get(number=1)
    url = reverse("tournament:round", args=[tournament.slug, round.number])
    public = client.get(url).content.decode()
    assert "/zettel/" in public  # the public's links go to the read-only sheets
    assert " Spiele</span>" not in public  # a visitor's seating: who sits where, not how far the tables are
    client.force_login(tournament.directors.get())
    director = client.get(url).content.decode()
    assert "Spielzettel<span" in director and "/zettel/" not in director  # the director's own rendering
    assert "2 / 10 Spiele" in director or "2 / 8 Spiele" in director
    table = a_table(tournament)
    results.save_game(table=table, data=normal_game(table, 3, re_augen=131))
    assert "3 / " in client.get(url).content.decode()  # the count of games moved at once


class SharedCache:
    """Stands in for the shared cache in the single-flight tests: one dict that every thread reads and
    writes, so that what the first thread stored is what the others read."""

    def __init__(self):
        self.store = {}

    def get(self, key):
        return self.store.get(key)

    def set(self, key, value, timeout):
        self.store[key] = value


@pytest.fixture
def shared_cache(monkeypatch):
    shared = SharedCache()
    monkeypatch.setattr(caching, "cache", shared)
    return shared


def ask_while_the_first_computes(ask, started: threading.Event, others: int = 3) -> None:
    """Runs `ask` in one thread, waits until it has `started` computing, then runs it in `others`
    threads more at once (they arrive while the first still computes), and joins them all."""
    first = threading.Thread(target=ask)
    first.start()
    assert started.wait(5)
    more = [threading.Thread(target=ask) for _ in range(others)]
    for thread in more:
        thread.start()
    for thread in (first, *more):
        thread.join(10)


def test_threads_asking_for_the_same_missing_entry_compute_it_once(shared_cache):
    """When a change makes a key new, the polls right after it arrive together: the threads of a
    process wait for the one computing it and read what it stored."""
    calls, answers = [], []
    started = threading.Event()

    def compute():
        calls.append(1)
        started.set()
        time.sleep(0.3)
        return "Rangliste"

    def ask():
        answers.append(caching.cached("doko:test:1", compute))

    ask_while_the_first_computes(ask, started)
    assert answers == ["Rangliste"] * 4
    assert len(calls) == 1


def test_a_visitors_whole_page_is_built_once_while_the_first_phones_arrive(shared_cache, rf):
    """The round's seating when a round is published: every phone opens it in the same seconds; the
    threads of a process wait for the one building the page and send what it stored."""
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpResponse

    builds, answers = [], []
    started = threading.Event()

    def build():
        builds.append(1)
        started.set()
        time.sleep(0.3)
        return HttpResponse("<p>Tisch 1: Anna, Bernd, Carla, Dieter</p>")

    def ask():
        request = rf.get("/t/abend/rounds/3/")
        request.user = AnonymousUser()
        answers.append(caching.whole_page(request, "doko:test:seating", build).content)

    ask_while_the_first_computes(ask, started)
    assert answers == [b"<p>Tisch 1: Anna, Bernd, Carla, Dieter</p>"] * 4
    assert len(builds) == 1
