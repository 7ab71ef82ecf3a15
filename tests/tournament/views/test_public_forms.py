"""Public forms that hold (docs/security.md "Rate limits" and "Contact data",
docs/tournament.md "Anmeldung und Check-in"): the anonymous writes are rate limited per client
address (the registration) or per table link (the phones), the waiting list has a cap and moves up
whoever frees a place, the director strikes many registrations at once, and contact data is kept
only as long as needed, nowhere in the history."""

import datetime
import json
import threading

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connections
from django.test import Client
from django.urls import reverse

from seating.dealing import game_players
from tournament.log import changelog
from tournament.models import DataChange, Entry, Registration, Table, Tournament
from tournament.services import checkin, contacts
from tournament.web.database_cache import DatabaseCache

from ..factories import make_director, make_tournament, message_texts, seat_ids, seated_round

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


# ---- item 5: the waiting list: moving up, its cap, striking many at once -------------------------------

def status_names(tournament, status):
    return list(tournament.registrations.filter(status=status).values_list("name", flat=True))


@pytest.fixture
def full_tournament(director):
    """3 places taken by Anna, Bernd, Carla; Dieter and Emil wait."""
    tournament = make_tournament(players=0, director=director, slug="voll")
    checkin.set_registration(tournament=tournament, open=True, limit=3, waiting=10)
    for name in ("Anna", "Bernd", "Carla", "Dieter", "Emil"):
        checkin.register(tournament=tournament, name=name, contact=f"{name}@example.org")
    return tournament


def test_a_player_withdrawn_on_the_players_page_gives_the_place_to_the_waiting_list(full_tournament, director):
    """The director withdraws a registered player on the players page: Dieter, the first waiting,
    moves up in the same change; the next newcomer waits behind Emil instead of taking the place."""
    client = Client()
    client.force_login(director)
    bernd = Entry.objects.get(tournament=full_tournament, player__name="Bernd")
    before = DataChange.objects.filter(tournament=full_tournament).count()
    response = client.post(reverse("tournament:player_withdraw", args=[full_tournament.slug, bernd.pk]),
                           {"confirm": "yes"})
    assert response.status_code == 302 and "Dieter rückt von der Warteliste nach." in message_texts(response)
    assert DataChange.objects.filter(tournament=full_tournament).count() == before + 1
    dieter = full_tournament.registrations.get(name="Dieter")
    assert dieter.status == Registration.Status.REGISTERED and dieter.entry.withdrawn_from_round is None
    bernd_registration = full_tournament.registrations.get(name="Bernd")
    assert bernd_registration.status == Registration.Status.WITHDRAWN and bernd_registration.contact == ""
    assert "registration_moved_up" in [e.action for e in changelog.entries(full_tournament)]
    Client().post(register_url(full_tournament), {"name": "Neuling"})
    assert status_names(full_tournament, Registration.Status.WAITING) == ["Emil", "Neuling"]


def test_a_newcomer_never_takes_a_place_ahead_of_those_waiting(full_tournament):
    """A place freed outside the registration's services (an entry deleted in the admin or a shell)
    goes to the first waiting when the next newcomer registers, not to the newcomer."""
    Entry.objects.filter(tournament=full_tournament, player__name="Carla").delete()
    checkin.register(tournament=full_tournament, name="Neuling")
    assert sorted(full_tournament.entries.values_list("player__name", flat=True)) == ["Anna", "Bernd", "Dieter"]
    assert status_names(full_tournament, Registration.Status.WAITING) == ["Emil", "Neuling"]


def test_the_waiting_list_has_a_cap(director):
    """By default as many may wait as there are places (at least 10); once the waiting list is full
    too, a registration is refused with a sentence that says so, and nothing is saved."""
    tournament = make_tournament(players=0, director=director, slug="deckel")
    assert checkin.waiting_places(checkin.set_registration(tournament=tournament, open=True, limit=40)) == 40
    assert checkin.waiting_places(checkin.set_registration(tournament=tournament, open=True, limit=2)) == 10
    checkin.set_registration(tournament=tournament, open=True, limit=2, waiting=2)
    url = register_url(tournament)
    for name in ("Anna", "Bernd", "Carla", "Dieter"):
        assert Client().post(url, {"name": name}).status_code == 302
    response = Client().post(url, {"name": "Emil"})
    assert response.status_code == 400
    assert "alle 2 Plätze auf der Warteliste sind vergeben" in response.content.decode()
    assert tournament.registrations.count() == 4
    checkin.set_registration(tournament=tournament, open=True, limit=2, waiting=3)
    checkin.register(tournament=tournament, name="Emil")
    assert status_names(tournament, Registration.Status.WAITING) == ["Carla", "Dieter", "Emil"]
    tournament = checkin.set_registration(tournament=tournament, open=True, limit=0)  # no limit: nobody waits
    assert checkin.waiting_places(tournament) is None
    assert status_names(tournament, Registration.Status.WAITING) == []


def test_the_director_strikes_many_registrations_at_once(director):
    """Spam took every place and most of the waiting list: the director ticks it and strikes it in
    one go; then, once, the waiting list moves up: Zora, who waited behind the spam, gets a place."""
    tournament = make_tournament(players=0, director=director, slug="spam")
    checkin.set_registration(tournament=tournament, open=True, limit=3, waiting=10)
    for n in range(1, 6):
        checkin.register(tournament=tournament, name=f"Spam {n}", contact="spam@example.org")
    checkin.register(tournament=tournament, name="Zora")
    checkin.register(tournament=tournament, name="Spam 6")
    spam = list(tournament.registrations.filter(name__startswith="Spam").values_list("pk", flat=True))
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournament:registrations", args=[tournament.slug])).content.decode()
    assert page.count('name="registrations"') == 7 and 'id="strike"' in page
    before = DataChange.objects.filter(tournament=tournament).count()
    response = client.post(reverse("tournament:registrations_withdraw", args=[tournament.slug]),
                           {"registrations": spam})
    assert response.status_code == 302
    assert message_texts(response) == ["6 Anmeldungen sind gestrichen.", "Zora rückt von der Warteliste nach."]
    assert DataChange.objects.filter(tournament=tournament).count() == before + 1
    assert status_names(tournament, Registration.Status.REGISTERED) == ["Zora"]
    assert list(tournament.entries.values_list("player__name", flat=True)) == ["Zora"]
    assert not tournament.registrations.exclude(contact="").exists()
    nothing = client.post(reverse("tournament:registrations_withdraw", args=[tournament.slug]), {})
    assert nothing.status_code == 302 and "ankreuzen" in message_texts(nothing)[-1]


# ---- item 6: contact data ---------------------------------------------------------------------------------

def stored_values(model) -> str:
    """Every value of every row of a table, as one text."""
    return repr(list(model.objects.values_list()))


def test_no_contact_is_kept_in_the_history_and_a_withdrawal_erases_it(full_tournament, director):
    """Registered, corrected and withdrawn: the contact, old or new, is in no historical record, and
    the withdrawn registration holds none either. The helper's change log shows none."""
    anna = full_tournament.registrations.get(name="Anna")
    checkin.edit_registration(registration=anna, name="Anna", contact="neu@example.org")
    history = stored_values(Registration.history.model)
    assert "Anna@example.org" not in history and "neu@example.org" not in history and "Anna" in history
    checkin.withdraw_registration(registration=anna)
    anna.refresh_from_db()
    assert anna.contact == "" and "example.org" not in stored_values(Registration.history.model)
    checkin.edit_registration(registration=anna, name="Anna", contact="wieder@example.org")
    anna.refresh_from_db()
    assert anna.contact == ""  # not typed in again after the withdrawal
    helper = make_director("helfer", organiser=False)
    full_tournament.helpers.add(helper)
    client = Client()
    client.force_login(helper)
    assert client.get(reverse("tournament:registrations", args=[full_tournament.slug])).status_code == 403
    log = client.get(reverse("tournament:log", args=[full_tournament.slug]))
    assert log.status_code == 200 and "example.org" not in log.content.decode()


def test_contacts_are_erased_some_time_after_the_tournament(full_tournament, settings):
    """30 days after the tournament's date by default (DOKO_CONTACT_RETENTION_DAYS): on the 29th day
    they are kept, on the 30th erased, as one change in the tournament's change log."""
    assert settings.DOKO_CONTACT_RETENTION_DAYS == 30
    date = full_tournament.date
    assert contacts.erase_contacts(today=date + datetime.timedelta(days=29)) == 0
    assert full_tournament.registrations.exclude(contact="").count() == 5
    before = DataChange.objects.filter(tournament=full_tournament).count()
    assert contacts.erase_contacts(today=date + datetime.timedelta(days=30)) == 5
    assert not full_tournament.registrations.exclude(contact="").exists()
    assert DataChange.objects.filter(tournament=full_tournament).count() == before + 1
    assert "contacts_erased" in [e.action for e in changelog.entries(full_tournament)]
    assert contacts.erase_contacts(today=date + datetime.timedelta(days=31)) == 0  # safe to run daily


def test_a_correction_requests_contact_is_erased_with_the_tournaments_contacts(full_tournament):
    """The contact a player leaves with a correction request on the hub (docs/hub.md) goes by the same
    rule as the registrations': kept on the 29th day, erased on the 30th; the request itself stays."""
    from tournament.services import corrections

    entry = full_tournament.entries.first()
    request = corrections.request_correction(tournament=full_tournament, player_id=entry.player_id,
                                             text="Spiel 2 fehlt", contact="0171 4711")
    date = full_tournament.date
    contacts.erase_contacts(today=date + datetime.timedelta(days=29))
    request.refresh_from_db()
    assert request.contact == "0171 4711"
    contacts.erase_contacts(today=date + datetime.timedelta(days=30))
    request.refresh_from_db()
    assert request.contact == "" and request.text == "Spiel 2 fehlt"

def test_the_command_erases_what_is_due_and_keeps_the_rest(full_tournament, director, capsys):
    upcoming = make_tournament(players=0, director=director, slug="bald")
    Tournament.objects.filter(pk=upcoming.pk).update(date=datetime.date.today() + datetime.timedelta(days=7))
    checkin.set_registration(tournament=upcoming, open=True, limit=0)
    checkin.register(tournament=upcoming, name="Zora", contact="zora@example.org")
    Tournament.objects.filter(pk=full_tournament.pk).update(date=datetime.date.today() - datetime.timedelta(days=40))
    call_command("erase_contacts")
    assert "5 Anmeldungen" in capsys.readouterr().out
    assert not full_tournament.registrations.exclude(contact="").exists()
    assert upcoming.registrations.get().contact == "zora@example.org"


def test_striking_with_an_id_no_database_holds_is_a_message_not_a_500(client, director, tournament):
    """Found by the fuzz test: a ticked id beyond 64 bits made SQLite raise (OverflowError) on the
    director's bulk strike."""
    client.force_login(director)
    client.raise_request_exception = False
    url = reverse("tournament:registrations_withdraw", kwargs={"slug": tournament.slug})
    for value in ("9223372036854775808", "-1", "0", "١٢"):
        response = client.post(url, {"registrations": value})
        assert response.status_code == 302, value
