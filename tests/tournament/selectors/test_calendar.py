"""The hub's start page, calendar and search (docs/hub.md): every organisation's public tournaments by
kind and stage, filters as GET parameters, the search folded the German way both ways, players found
only at the full name's level, private tournaments never listed, a fixed number of queries."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from tournament import privacy
from tournament.collation import matches, query_forms, search_key
from tournament.models import Organisation, Player, Round, Tournament
from tournament.selectors import calendar, hub_search
from tournament.services import checkin, seating, tournaments
from tournament.services import privacy as privacy_services
from tournament.services.personal_data import erase_player
from tournament.web import cache_keys

from ..factories import make_director, make_organisation, play_round

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
DAY = datetime.timedelta(days=1)


@pytest.fixture(autouse=True)
def hub(settings):
    settings.DOKO_HUB = True
    cache.clear()


def club(name, slug, region=""):
    organisation = make_organisation(name=name, slug=slug)
    organisation.region = region
    organisation.save()
    return organisation


def event(organisation, name, date, *, players=(), **flags):
    director = (get_user_model().objects.filter(username=f"leitung-{organisation.slug}").first()
                or make_director(f"leitung-{organisation.slug}", organisation=organisation))
    public = flags.pop("public", None)
    tournament = tournaments.create_tournament(name=name, date=date, director=director, organisation=organisation,
                                               public=public)
    for key, value in flags.items():
        setattr(tournament, key, value)
    if flags:
        tournament.save()
    for player in players:
        tournaments.register_player(tournament=tournament, name=player, club="")
    return tournament


FOUR = ["Anna Krämer", "Otto Ossenbruegge", "Bernd Brandt", "Carla Clausen"]


def build_world():
    koeln = club("DK Kreuzbube Köln", "kreuzbube", "NW")
    bremen = club("Doko Oßenbrügge", "ossenbruegge", "HB")
    upcoming = event(koeln, "Frühjahrsturnier", TODAY + 10 * DAY, counts_for_rangliste=True)
    checkin.set_registration(tournament=upcoming, open=True, limit=0)
    running = event(bremen, "Ligaspieltag 3", TODAY, players=FOUR)
    seating.create_round(tournament=running)
    round_1 = running.rounds.get()
    seating.seat_round(round=round_1, seed="x")
    seating.publish_round(round=round_1)
    running.team_match = True  # (set after the draw: a match day's draw wants teams)
    running.save()
    finished = event(koeln, "Vereinsabend Januar", TODAY - 20 * DAY, players=FOUR, rounds_planned=1)
    play_round(finished, games=1)
    seating.close_round(round=finished.rounds.get(), backup=False)
    cup = event(bremen, "Pokal Runde 1", TODAY - 40 * DAY, players=FOUR)
    play_round(cup, games=1)  # a round published, the day over: finished
    cup.cup_advance = 2
    cup.save()
    nothing = event(koeln, "Ausgefallen", TODAY - 5 * DAY)  # nothing published
    private = event(koeln, "Geheimturnier Krämer", TODAY + 3 * DAY, public={"public_overview": False})
    return {"koeln": koeln, "bremen": bremen, "upcoming": upcoming, "running": running, "finished": finished,
            "cup": cup, "nothing": nothing, "private": private}


@pytest.fixture(scope="module")
def shared_world(django_db_setup, django_db_blocker):
    """The world, built once for the module in a transaction rolled back at its end: (model, pk) of
    each piece. A test's own writes are rolled back with the test (a savepoint inside it)."""
    with override_settings(DOKO_HUB=True), django_db_blocker.unblock(), transaction.atomic():
        cache.clear()
        yield {key: (type(value), value.pk) for key, value in build_world().items()}
        transaction.set_rollback(True)


@pytest.fixture
def world(shared_world, db):
    """Each test reads the world afresh (the tests change their objects in memory)."""
    return {key: model.objects.get(pk=pk) for key, (model, pk) in shared_world.items()}


def names_in(html: str, world) -> set[str]:
    return {key for key, tournament in world.items() if isinstance(tournament, Tournament) and tournament.name in html}


# ---- kinds and stages -----------------------------------------------------------------------------

def test_the_kind_is_derived_from_the_flags_in_one_place(world):
    assert {key: calendar.kind_of(t) for key, t in world.items() if isinstance(t, Tournament)} == {
        "upcoming": calendar.RANGLISTE, "running": calendar.LEAGUE, "finished": calendar.EVENING,
        "cup": calendar.CUP, "nothing": calendar.EVENING, "private": calendar.EVENING}
    both = event(world["koeln"], "Pokal der Liga", TODAY, team_match=True, cup_advance=1)
    assert calendar.kind_of(both) == calendar.CUP  # a cup round is played by teams: a cup round first
    for kind in calendar.KINDS:  # the database's filter says what kind_of says
        listed = set(calendar.public_tournaments(calendar.Filters(kind=kind)))
        assert listed == {t for t in Tournament.objects.filter(public_overview=True) if calendar.kind_of(t) == kind}


def test_the_stage_of_each_tournament(world):
    stages = dict(calendar.with_stage(Tournament.objects.all(), TODAY).values_list("name", "stage"))
    assert stages == {"Frühjahrsturnier": calendar.UPCOMING, "Ligaspieltag 3": calendar.RUNNING,
                      "Vereinsabend Januar": calendar.FINISHED, "Pokal Runde 1": calendar.FINISHED,
                      "Ausgefallen": calendar.NO_RESULTS, "Geheimturnier Krämer": calendar.UPCOMING}
    # the evening goes past midnight: still running the next day, finished the day after
    tomorrow = dict(calendar.with_stage(Tournament.objects.all(), TODAY + DAY).values_list("name", "stage"))
    later = dict(calendar.with_stage(Tournament.objects.all(), TODAY + 2 * DAY).values_list("name", "stage"))
    assert (tomorrow["Ligaspieltag 3"], later["Ligaspieltag 3"]) == (calendar.RUNNING, calendar.FINISHED)


# ---- the start page -------------------------------------------------------------------------------

def test_the_hubs_start_page_lists_running_upcoming_and_finished_tournaments(client, world):
    html = client.get("/").content.decode()
    running, upcoming, finished = (html.index(title) for title in ("Läuft gerade", "Demnächst", "Zuletzt beendet"))
    assert running < html.index("Ligaspieltag 3") < upcoming < html.index("Frühjahrsturnier") < finished
    assert finished < html.index("Vereinsabend Januar") < html.index("Pokal Runde 1")
    assert reverse("tournament:registration", args=[world["upcoming"].slug]) in html and "Zur Anmeldung" in html
    assert reverse("tournament:standings", args=[world["running"].slug]) in html and "Tabelle live" in html
    assert reverse("tournament:standings", args=[world["finished"].slug]) in html
    assert "Ausgefallen" not in html  # nothing to show: only in the calendar
    assert "Geheimturnier" not in html
    assert 'href="/api/v1/docs"' in html  # the open API is linked for those who write programs


def test_a_venue_keeps_its_own_start_page(client, world, settings):
    settings.DOKO_HUB = False
    html = client.get("/").content.decode()
    assert "Läuft gerade" not in html and "Ausgefallen" in html  # every public tournament, as before
    assert "Geheimturnier" not in html


def test_a_director_on_the_hub_sees_their_own_tournaments_above_the_calendar(client, world):
    client.force_login(world["private"].directors.get())
    html = client.get("/").content.decode()
    assert html.index("Meine Turniere") < html.index("Geheimturnier Krämer") < html.index("Läuft gerade")
    assert "Neues Turnier" in html
    listing = html[html.index("Läuft gerade"):]
    assert "Geheimturnier" not in listing  # the cached lists are everyone's: public tournaments only


# ---- the calendar and its filters -----------------------------------------------------------------

def calendar_html(client, **query) -> str:
    response = client.get(reverse("tournament:calendar"), query)
    assert response.status_code == 200
    return response.content.decode()


def month_of(tournament) -> str:
    return f"{tournament.date:%Y-%m}"


def test_the_calendar_shows_a_month_with_every_stage(client, world):
    html = calendar_html(client, month=month_of(world["nothing"]))
    assert "Ausgefallen" in html and "keine Ergebnisse veröffentlicht" in html
    html = calendar_html(client, month=month_of(world["running"]))
    assert "Ligaspieltag 3" in html


@pytest.mark.parametrize(("query", "expected"), [
    ({"region": "NW"}, {"upcoming", "finished", "nothing"}),
    ({"region": "HB"}, {"running", "cup"}),
    ({"region": "BY"}, set()),
    ({"club": "ossenbruegge"}, {"running", "cup"}),
    ({"kind": "pokal"}, {"cup"}),
    ({"kind": "liga"}, {"running"}),
    ({"kind": "rangliste"}, {"upcoming"}),
    ({"kind": "abend"}, {"finished", "nothing"}),
    ({"q": "kraemer"}, set()),  # the private tournament's name: never
    ({"q": "ossenbrügge"}, {"running", "cup"}),  # by the club's name, folded
    ({"q": "FRÜHJAHR"}, {"upcoming"}),
])
def test_the_calendar_filters(client, world, query, expected):
    found = set()
    for tournament in world.values():
        if isinstance(tournament, Tournament):
            html = calendar_html(client, month=month_of(tournament), **query)
            found |= names_in(html, {key: t for key, t in world.items() if t == tournament})
    assert found == expected


def test_the_month_filter_on_the_start_page(client, world):
    html = client.get("/", {"month": month_of(world["cup"])}).content.decode()
    assert "Pokal Runde 1" in html
    if month_of(world["cup"]) != month_of(world["finished"]):
        assert "Vereinsabend Januar" not in html


@pytest.mark.parametrize("query", [{"month": "2027-13"}, {"month": "März"}, {"region": "XX"}, {"club": "gibt-es-nicht"},
                                   {"kind": "skat"}, {"q": "x" * 500}, {"seite": "zwei"}, {"seite": "-4"},
                                   {"month": "0001-01"}])
def test_a_value_that_does_not_fit_is_named_and_left_out(client, world, query):
    response = client.get(reverse("tournament:calendar"), query)
    assert response.status_code == 200
    html = response.content.decode()
    if "seite" not in query:
        assert "wird nicht berücksichtigt" in html or "höchstens 100 Zeichen" in html or "z. B. 2027-03" in html
    assert client.get("/", query).status_code == 200
    assert client.get(reverse("tournament:hub_search"), query).status_code == 200


def test_a_month_is_paged(client, world, monkeypatch):
    monkeypatch.setattr(calendar, "PAGE_SIZE", 1)
    for number in range(3):
        event(world["koeln"], f"Abend {number}", world["nothing"].date)
    found = calendar.month_page(calendar.Filters(), month=world["nothing"].date.replace(day=1), page=2, today=TODAY)
    assert (found.page, found.pages, found.count) >= (2, 4, 4)
    assert len([row for _day, rows in found.days for row in rows]) == 1
    last = calendar.month_page(calendar.Filters(), month=world["nothing"].date.replace(day=1), page=99, today=TODAY)
    assert last.page == last.pages


# ---- the search --------------------------------------------------------------------------------------

def found_players(query: str) -> set[str]:
    return {player.name for player in hub_search.search(query).players}


@pytest.mark.parametrize(("query", "name"), [
    ("Krämer", "Anna Krämer"), ("Kraemer", "Anna Krämer"), ("kramer", "Anna Krämer"), ("KRÄMER", "Anna Krämer"),
    ("Oßenbrügge", "Otto Ossenbruegge"), ("Ossenbruegge", "Otto Ossenbruegge"), ("ossenbrügge", "Otto Ossenbruegge"),
])
def test_the_search_folds_the_german_way_both_ways(world, query, name):
    assert name in found_players(query)


def test_a_spelled_out_name_is_found_by_its_umlauts(world):
    event(world["koeln"], "Sommerabend", TODAY - 2 * DAY, players=["Eva Oßenbrügge", "Kurt Kraemer", "X Y", "Z W"])
    play_round(Tournament.objects.get(name="Sommerabend"), games=1)
    assert {"Eva Oßenbrügge", "Otto Ossenbruegge"} <= found_players("Ossenbruegge")
    assert {"Kurt Kraemer", "Anna Krämer"} <= found_players("Krämer")
    clubs = {club.name for club in hub_search.search("Ossenbruegge").clubs}
    assert clubs == {"Doko Oßenbrügge"}


def test_a_club_found_names_its_region_as_a_reader_reads_it(world, client):
    html = client.get(reverse("tournament:hub_search"), {"q": "Ossenbruegge"}).content.decode()
    assert "(Bremen)" in html and "(HB)" not in html


def test_the_stored_key_folds_as_matches_does():
    for name in ("Anna Krämer", "Otto Oßenbrügge", "Yılmaz Çelik", "Ævar Ørsted"):
        for query in ("kraemer", "krämer", "kramer", "ossenbruegge", "oßenbrügge", "yilmaz", "celik", "orsted"):
            assert any(form in search_key(name) for form in query_forms(query)) == matches(query, name), (name, query)


def test_a_hidden_or_initials_player_is_never_found_by_name(client, world):
    for tournament in (world["finished"], world["running"]):  # her record at each club (its own level)
        entries = {e.player.name: e for e in tournament.entries.select_related("player")}
        privacy_services.set_publication(entry=entries["Anna Krämer"], level=privacy.HIDDEN)
        privacy_services.set_publication(entry=entries["Otto Ossenbruegge"], level=privacy.INITIALS)
    assert not found_players("Krämer") and not found_players("Ossenbruegge")
    for query in ("Krämer", "Kraemer", "Anna", "Ossenbruegge", "Otto"):
        html = client.get(reverse("tournament:hub_search"), {"q": query}).content.decode()
        assert "Anna Krämer" not in html and "Otto Ossenbruegge" not in html


def test_a_player_only_in_private_tournaments_or_hidden_pages_is_not_found(world):
    secret = event(world["koeln"], "Privatrunde", TODAY - 3 * DAY, players=["Paula Privat", "A B", "C D", "E F"],
                   public={"public_overview": False})
    closed_pages = event(world["koeln"], "Ohne Spielerseiten", TODAY - 3 * DAY,
                         players=["Gerd Geschlossen", "G H", "I J", "K L"], public={"public_players": False})
    assert secret.entries.count() == closed_pages.entries.count() == 4
    assert not found_players("Paula Privat") and not found_players("Gerd Geschlossen")


def test_the_search_lists_tournaments_clubs_and_players_with_links(client, world):
    html = client.get(reverse("tournament:hub_search"), {"q": "Kraemer"}).content.decode()
    assert "Anna Krämer" in html
    entry = world["running"].entries.get(player__name="Anna Krämer")  # the newest tournament she played
    assert reverse("tournament:player", args=[world["running"].slug, entry.pk]) in html
    assert "Geheimturnier" not in html
    html = client.get(reverse("tournament:hub_search"), {"q": "Kreuzbube"}).content.decode()
    assert "DK Kreuzbube Köln" in html and "?club=kreuzbube" in html


def test_a_short_search_finds_no_players(world):
    results = hub_search.search("an")
    assert not results.players and not results.players_searched


def test_an_erased_player_is_found_by_the_alias_only(world):
    player = Player.objects.get(name="Anna Krämer", organisation=world["koeln"])
    erase_player(player=player)
    found = {(p.name, p.organisation) for p in hub_search.search("Krämer").players}
    assert found == {("Anna Krämer", "Doko Oßenbrügge")}  # her record at the other club is not erased
    alias = Player.objects.get(pk=player.pk).name
    assert {(p.name, p.organisation) for p in hub_search.search(alias).players} == {(alias, "DK Kreuzbube Köln")}


# ---- a fixed number of queries, cached whole ----------------------------------------------------------

def test_the_selectors_read_in_a_fixed_number_of_queries(world, django_assert_num_queries):
    for number in range(5):
        event(world["bremen"], f"Noch ein Abend {number}", TODAY - number * DAY, players=FOUR)
    with django_assert_num_queries(3):
        calendar.start_page(calendar.Filters(q="abend", region="HB"), today=TODAY)
    with django_assert_num_queries(2):
        calendar.month_page(calendar.Filters(kind="abend"), month=TODAY.replace(day=1), today=TODAY)
    with django_assert_num_queries(4):
        hub_search.search("Krämer")
    with django_assert_num_queries(1):
        calendar.clubs()


def test_the_pages_are_cached_whole_for_a_short_time(client, world, django_assert_num_queries, monkeypatch):
    timeouts = []
    real_set = cache.set

    def spy(key, value, timeout=None, **kwargs):
        if key.startswith("doko:hub-page:"):
            timeouts.append(timeout)
        return real_set(key, value, timeout, **kwargs)

    monkeypatch.setattr(cache, "set", spy)
    url = reverse("tournament:calendar") + f"?month={month_of(world['running'])}"
    first = client.get(url).content.decode()
    assert timeouts and set(timeouts) == {cache_keys.HUB_TIMEOUT}
    world["running"].name = "Umbenannt"
    world["running"].save()
    with django_assert_num_queries(1):  # the whole page from the cache (the shared cache: one read)
        assert client.get(url).content.decode() == first
    for path in ("/", reverse("tournament:hub_search") + "?q=Kraemer"):
        client.get(path)
        with django_assert_num_queries(1):
            client.get(path)
    cache.clear()  # (the timeout passed)
    assert "Umbenannt" in client.get(url).content.decode()


def test_the_key_holds_the_day_the_language_and_the_parameters():
    keys = {cache_keys.hub_page("start", TODAY, (("q", "a"),)),
            cache_keys.hub_page("start", TODAY + DAY, (("q", "a"),)),
            cache_keys.hub_page("start", TODAY, (("q", "b"),)), cache_keys.hub_page("month", TODAY, (("q", "a"),))}
    assert len(keys) == 4
    from django.utils import translation

    with translation.override("en"):
        assert cache_keys.hub_page("start", TODAY, (("q", "a"),)) not in keys


def test_organisation_regions_are_the_german_states():
    assert len(Organisation._meta.get_field("region").choices) == 16
    assert Round.Status.CLOSED  # (the finished stage reads the closed rounds)


def test_the_hubs_pages_in_english(client, world):
    from ..views.test_english_pages import WORDS, interface_text

    for tournament in world.values():  # (names are data: none of the interface's German words in them)
        if isinstance(tournament, Tournament):
            tournament.refresh_from_db()
            tournament.name = f"Event {tournament.pk}"
            tournament.save()
    cache.clear()
    for url in ("/", f"/kalender/?month={month_of(world['running'])}", "/kalender/?month=2027-13",
                "/suche/?q=Kraemer", "/suche/?q=an", "/suche/?q=Zzyzx"):
        page = client.get(url, headers={"accept-language": "en"}).content.decode()
        assert '<html lang="en">' in page
        assert not WORDS.findall(interface_text(page)), (url, WORDS.findall(interface_text(page)))
    page = client.get("/", headers={"accept-language": "en"}).content.decode()
    assert "Running now" in page and "Register here" in page and "Standings live" in page


# ---- walk 35: what the boxes promise, and saying when a list is cut off --------------------------------

@pytest.mark.parametrize("page", ["tournament:home", "tournament:calendar"])
def test_the_start_pages_and_the_calendars_box_leads_to_the_players_found(client, world, page):
    """Walk 35, problem 3: the box says "Turnier, Verein oder Spieler"; the lists show tournaments only,
    so the page says so and links the same query to the search, which finds the players."""
    html = client.get(reverse(page), {"q": "Krämer"}).content.decode()
    assert "Hier stehen nur die Turniere zu „Krämer“." in html
    assert reverse("tournament:hub_search") + "?q=Kr%C3%A4mer" in html
    assert "Anna Krämer" in client.get(reverse("tournament:hub_search"), {"q": "Krämer"}).content.decode()
    assert "Hier stehen nur" not in client.get(reverse(page)).content.decode()


def test_a_search_cut_off_says_so_and_how_to_narrow_it(client, world):
    """Walk 35, problem 6: at most MOST of each kind are shown; one more found says that there are more."""
    most = hub_search.MOST
    for number in range(most):
        event(world["koeln"], f"Zettabend {number}", TODAY - number * DAY,
              players=[f"Zora Zettler {number}"] if number else [f"Zora Zettler {n}" for n in range(most)])
    results = hub_search.search("Zett")
    assert len(results.tournaments) == most and len(results.players) == most
    assert not (results.more_tournaments or results.more_players or results.more_clubs)
    assert "Mehr als" not in client.get(reverse("tournament:hub_search"), {"q": "Zett"}).content.decode()
    event(world["bremen"], "Zettabend extra", TODAY - 30 * DAY, players=["Zora Zettler extra"])
    cache.clear()
    results = hub_search.search("Zett")
    assert len(results.tournaments) == most and len(results.players) == most
    assert results.more_tournaments and results.more_players and not results.more_clubs
    html = client.get(reverse("tournament:hub_search"), {"q": "Zett"}).content.decode()
    assert f"Mehr als {most} Turniere gefunden; hier stehen die neuesten {most}." in html
    assert reverse("tournament:calendar") + "?q=Zett" in html
    assert f"Mehr als {most} Spieler gefunden; hier stehen die ersten nach dem Alphabet." in html
