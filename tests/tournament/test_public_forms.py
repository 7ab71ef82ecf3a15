"""Public forms that hold (issue 31, items 4-6; docs/security.md "Rate limits" and "Contact data",
docs/tournament.md "Anmeldung und Check-in"): the anonymous writes are rate limited per client
address (the registration) or per table link (the phones), the waiting list has a cap and moves up
whoever frees a place, the director strikes many registrations at once, and contact data is kept
only as long as needed, nowhere in the history."""

import json
import threading

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client
from django.urls import reverse

from seating.dealing import game_players
from tournament.models import Table
from tournament.services import checkin
from tournament.web.database_cache import DatabaseCache

from .factories import make_tournament, seat_ids, seated_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_tournament(director):
    tournament = make_tournament(players=0, director=director, slug="offen")
    return checkin.set_registration(tournament=tournament, open=True, limit=0)


def register_url(tournament) -> str:
    return reverse("tournament:registration", args=[tournament.slug])


# ---- item 4: rate limits --------------------------------------------------------------------------

def test_the_registration_is_limited_per_address_with_a_sentence_and_429(open_tournament, director):
    """The default limit (30 POSTs in 10 minutes from one address) lets a club register its members
    from its clubhouse; the 31st POST is refused with a German sentence and 429, and nothing is saved.
    Another address, and the director, still register."""
    assert settings.RATE_LIMIT_REGISTRATION == "30/10m"
    club = Client(REMOTE_ADDR="203.0.113.7")
    url = register_url(open_tournament)
    for n in range(30):
        assert club.post(url, {"name": f"Mitglied {n}", "club": "DK Nord"}).status_code == 302
    response = club.post(url, {"name": "Mitglied 30", "club": "DK Nord"})
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    text = response.content.decode()
    assert "zu viele Anmeldungen" in text and 'id="rate-limited"' in text and "Mitglied 29" in text
    assert open_tournament.registrations.count() == 30
    assert Client(REMOTE_ADDR="203.0.113.8").post(url, {"name": "Nachbar"}).status_code == 302
    leitung = Client(REMOTE_ADDR="203.0.113.7")
    leitung.force_login(director)
    assert leitung.post(url, {"name": "Von der Leitung"}).status_code == 302
    assert open_tournament.registrations.count() == 32


def test_the_limit_is_said_in_english_too(open_tournament, settings):
    settings.RATE_LIMIT_REGISTRATION = "1/10m"
    client = Client(REMOTE_ADDR="203.0.113.9", HTTP_ACCEPT_LANGUAGE="en")
    client.post(register_url(open_tournament), {"name": "Anna"})
    response = client.post(register_url(open_tournament), {"name": "Bernd"})
    assert response.status_code == 429 and "Too many registrations" in response.content.decode()


def test_behind_the_proxy_the_address_nginx_saw_is_the_key(open_tournament, settings):
    """nginx appends the client's address to X-Forwarded-For (docs/deploy.md); what a client writes
    into the header itself does not give it a new count, and two clients behind the proxy (one
    REMOTE_ADDR) are counted apart."""
    settings.RATE_LIMIT_REGISTRATION = "2/10m"
    settings.PROXY_COUNT = 1
    url = register_url(open_tournament)
    proxy = Client(REMOTE_ADDR="10.0.0.2")
    answers = [proxy.post(url, {"name": f"Spam {n}"}, HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 198.51.100.1").status_code
               for n in range(4)]
    assert answers == [302, 302, 429, 429]
    assert proxy.post(url, {"name": "Anderer"}, HTTP_X_FORWARDED_FOR="198.51.100.2").status_code == 302


def phone_game(table, number):
    _dealer, _out, players = game_players(seat_ids(table), number)
    return {"type": "normal", "re": players[:2], "re_augen": 130 + number,
            "announcements": {"re": None, "kontra": None}, "extras": {}}


def phone_post(client, table, name, body):
    token = Table.objects.get(pk=table.pk).link_token
    return client.post(reverse(f"table_link_{name}", args=[token]), json.dumps(body), content_type="application/json")


def test_a_table_enters_ten_games_with_previews_and_retries_within_the_limit(director):
    """The phones' limit is per link and generous: a table of 5 enters its 10 games quickly, each
    with a few previews while typing and sent twice (an offline queue's retry), from one address."""
    assert settings.RATE_LIMIT_TABLE_LINK == "240/m"
    table = seated_round(make_tournament(players=5, director=director, slug="fuenf")).tables.get()
    phone = Client(REMOTE_ADDR="203.0.113.20")
    answers = []
    for number in range(1, 11):
        for _ in range(5):
            answers.append(phone_post(phone, table, "preview", {"number": number, "data": phone_game(table, number)}))
        for _ in range(2):
            answers.append(phone_post(phone, table, "enter", {"number": number, "data": phone_game(table, number),
                                                              "key": f"spiel-{number}"}))
    assert {answer.status_code for answer in answers} == {200}
    assert table.drafts.count() == 10


def test_a_table_link_over_its_limit_answers_429_the_phone_retries(director, settings):
    """Over the limit the phone gets 429 with Retry-After and our JSON (table_entry.js keeps the game
    and tries again later); another table's link goes on."""
    settings.RATE_LIMIT_TABLE_LINK = "3/m"
    tables = list(seated_round(make_tournament(players=8, director=director, slug="acht")).tables.all())
    phone = Client(REMOTE_ADDR="203.0.113.21")
    body = {"number": 1, "data": phone_game(tables[0], 1), "key": "k1"}
    assert [phone_post(phone, tables[0], "enter", body).status_code for _ in range(3)] == [200, 200, 200]
    response = phone_post(phone, tables[0], "enter", body)
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert response["Content-Type"] == "application/json" and "Zu viele Eingaben" in response.json()["message"]
    assert phone_post(phone, tables[0], "preview", body).status_code == 429
    other = {**body, "key": "k2", "data": phone_game(tables[1], 1)}
    assert phone_post(phone, tables[1], "enter", other).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_database_cache_counts_atomically():
    """django-ratelimit counts with `incr`; Django's database cache reads and writes the value back,
    so two requests at once could both count 5 -> 6. Ours locks the row: 6 threads x 15 counts are 90."""
    cache = DatabaseCache("doko_cache", {"KEY_PREFIX": "test-incr", "TIMEOUT": 60})
    cache.add("count", 0)
    barrier = threading.Barrier(6)

    def count():
        try:
            barrier.wait(timeout=30)
            for _ in range(15):
                cache.incr("count")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=count) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    try:
        assert cache.get("count") == 90
        with pytest.raises(ValueError):
            cache.incr("missing")
    finally:
        cache.clear()


def test_django_ratelimit_refuses_the_plain_database_cache():
    """Its system check is installed: Django's own database cache (no atomic incr) is an error."""
    from django_ratelimit.checks import check_caches

    plain = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "doko_cache"}}
    from django.test import override_settings

    with override_settings(CACHES=plain):
        assert [e.id for e in check_caches(None)] == ["django_ratelimit.E003", "django_ratelimit.W001"]
    assert [e.id for e in check_caches(None)] == ["django_ratelimit.W001"]  # ours: silenced in the settings
    assert "django_ratelimit.W001" in settings.SILENCED_SYSTEM_CHECKS

