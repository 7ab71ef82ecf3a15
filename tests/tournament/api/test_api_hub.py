"""The open read API on the hub (docs/api.md): an association's Rangliste read as stored (its rows as its
page shows them, publication levels included, paged, its ETag from what moves it), the tournaments that do
not count and why, and a person across clubs as /spieler/<record>/ shows them; every answer against the
OpenAPI description the site serves, the rate limit on each."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client, override_settings
from django.urls import reverse

from tournament import privacy
from tournament.models import Player, Rangliste, Tournament
from tournament.selectors import association_rangliste as association
from tournament.selectors import rangliste as rangliste_selectors
from tournament.services import rangliste as rangliste_services
from tournament.services import rangliste_refresh

from ..factories import make_director, make_organisation
from ..services.test_rangliste_association import MARCH, association_rangliste, ranglistenturnier, refreshed, two_clubs
from .test_api import validator_for

pytestmark = pytest.mark.django_db

EIGHT = [(f"Spieler {n}", "", 10 if n % 2 else -10) for n in range(1, 9)]


def url(name: str, **kwargs) -> str:
    return reverse(f"api:{name}", kwargs=kwargs)


@pytest.fixture(scope="module")
def built_hub(django_db_setup, django_db_blocker):
    """The hub of `hub`, built once a module in a transaction rolled back at its end; each test runs in
    a savepoint of it (pytest-django's `db`)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_hub().pk
        transaction.set_rollback(True)


@pytest.fixture
def hub(built_hub, db):
    return Rangliste.objects.get(pk=built_hub)


def build_hub():
    """Two member clubs (DK Nord's January, DK Süd's March, Dieter Brand M-1 at both), a tournament too
    small to count, Frida Dulle by her initials and Erik Karo hidden; the association's Rangliste stored."""
    cache.clear()
    a = make_organisation("DK Nord", "dk-nord")
    b = make_organisation("DK Süd", "dk-sued")
    director_a, director_b = make_director("leitung-a", organisation=a), make_director("leitung-b", organisation=b)
    two_clubs((a, b, director_a, director_b))
    ranglistenturnier(director_b, "Kurzes Turnier", MARCH, EIGHT, slug="kurz", rounds_planned=2)
    Player.objects.filter(name="Frida Dulle").update(publication=privacy.INITIALS)
    Player.objects.filter(name="Erik Karo").update(publication=privacy.HIDDEN)
    rangliste = refreshed(association_rangliste(director_a, [a, b], minimum_players=4, minimum_rounds=2))
    return rangliste


def record_of(name: str, organisation: str) -> int:
    return Player.objects.get(name=name, organisation__slug=organisation).pk


def addresses() -> list[tuple[str, str]]:
    dieter = record_of("Dieter Brand", "dk-nord")
    return [(url("rangliste", slug="verband"), "/api/v1/ranglisten/{slug}"),
            (url("rangliste", slug="verband") + "?limit=2&offset=1", "/api/v1/ranglisten/{slug}"),
            (url("rangliste_refused", slug="verband"), "/api/v1/ranglisten/{slug}/refused"),
            (url("person", record=dieter), "/api/v1/people/{record}"),
            (url("person", record=dieter) + "?limit=1&offset=1", "/api/v1/people/{record}")]


def test_every_new_answer_matches_the_served_openapi_description(hub):
    client = Client()
    description = client.get(url("openapi-json")).json()
    for address, template in addresses():
        answer = client.get(address)
        assert answer.status_code == 200, address
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                  for e in validator_for(description, template, 200).iter_errors(answer.json())]
        assert errors == [], address
    for address, template, status in [
            (url("person", record=record_of("Erik Karo", "dk-sued")), "/api/v1/people/{record}", 404),
            (url("rangliste_refused", slug="gibt-es-nicht"), "/api/v1/ranglisten/{slug}/refused", 404),
            (url("person", record=1) + "?limit=0", "/api/v1/people/{record}", 400)]:
        answer = client.get(address)
        assert answer.status_code == status, address
        assert list(validator_for(description, template, status).iter_errors(answer.json())) == []


def test_the_association_rangliste_is_read_as_stored_with_the_pages_lines(hub, monkeypatch):
    def computing(*args, **kwargs):
        raise AssertionError("computed anew")

    monkeypatch.setattr(rangliste_selectors, "read", computing)
    data = Client().get(url("rangliste", slug="verband")).json()
    view = association.stored_view(hub, public=True)
    shown = [line for line, _cuts in view.ranked] + view.below
    assert data["stored"] is True and data["behind"] is False and data["computed_on"] == hub.computed_on.isoformat()
    assert [(r["name"], r["club"], r["rounds"], r["points"], r["ranked"], r["tracker"]) for r in data["items"]] == [
        (line.name, line.club, line.rounds, line.points, line.ranked, line.tracker) for line in shown]
    # by hand: only Dieter Brand has 2 rounds (minimum 2); the other six are below the minimum
    assert [(r["place"], r["name"]) for r in data["items"][:1]] == [(1, "Dieter Brand")]
    assert data["count"] == 7 and data["below_minimum"] == 6 and data["tournaments"] == 2 and data["refused"] == 1
    below = {r["name"]: r for r in data["items"][1:]}
    assert all(r["place"] is None and r["ranked"] is False for r in below.values())
    assert below["F. D."]["tracker"].startswith("Mit diesem Schnitt wäre es Platz")
    assert privacy.NO_NAME in below and "Frida Dulle" not in str(data) and "Erik Karo" not in str(data)
    assert data["cut_lines"] == [{"place": 2, "label": "DEM"}, {"place": 4, "label": "Regionalmeisterschaft"}]


def test_a_day_of_its_own_is_still_computed_for_the_answer(hub):
    data = Client().get(url("rangliste", slug="verband") + f"?until={MARCH.isoformat()}").json()
    assert data["stored"] is False and "behind" not in data
    assert all(r["place"] is not None for r in data["items"])  # only the ranked, as before


def test_the_stored_rangliste_pages_its_rows(hub):
    client = Client()
    whole = client.get(url("rangliste", slug="verband") + "?limit=200").json()
    part = client.get(url("rangliste", slug="verband") + "?limit=3&offset=2").json()
    assert (part["count"], part["limit"], part["offset"]) == (7, 3, 2)
    assert part["items"] == whole["items"][2:5]
    assert client.get(url("rangliste", slug="verband") + "?offset=7").json()["items"] == []
    for address in (url("rangliste", slug="verband"), url("rangliste_refused", slug="verband"),
                    url("person", record=record_of("Dieter Brand", "dk-nord"))):
        for query in ("limit=0", "limit=201", "offset=-1"):
            answer = client.get(f"{address}?{query}")
            assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_paging", (address, query)


def test_the_stored_rangliste_answers_304_from_one_query_until_it_moves(hub, django_assert_num_queries):
    client = Client()
    address = url("rangliste", slug="verband")
    tag = client.get(address)["ETag"]
    # the rate limit's count (10 statements in the database cache), then ours: the Rangliste
    with django_assert_num_queries(11):
        assert client.get(address, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert client.get(address + "?limit=3", HTTP_IF_NONE_MATCH=tag).status_code == 200  # another query
    # a new computation (a tournament arrived) moves it
    refreshed(hub)
    again = client.get(address, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 200 and again["ETag"] != tag
    # and so does a change of the rules (it makes the list stale: `behind` until computed anew)
    tag = again["ETag"]
    rangliste_services.update_rangliste(rangliste=hub, settings=rangliste_services.Settings(
        name="Verbandsrangliste", slug="verband", source=Rangliste.Source.ASSOCIATION, members=tuple(hub.members.all()),
        minimum_players=4, minimum_rounds=1, cut_lines=((2, "DEM"), (4, "Regionalmeisterschaft"))))
    moved = client.get(address, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved.json()["behind"] is True
    refused = client.get(url("rangliste_refused", slug="verband"))
    assert client.get(url("rangliste_refused", slug="verband"),
                      HTTP_IF_NONE_MATCH=refused["ETag"]).status_code == 304


def test_a_rangliste_that_is_behind_asks_for_a_new_computation_as_its_page_does(hub, monkeypatch):
    asked = []
    monkeypatch.setattr(rangliste_refresh, "enqueue_refresh", asked.append)
    Rangliste.objects.filter(pk=hub.pk).update(stale=True)
    data = Client().get(url("rangliste", slug="verband")).json()
    assert data["behind"] is True and asked == [[hub.pk]]
    assert data["count"] == 7  # the stored list meanwhile


def test_the_tournaments_that_do_not_count_with_their_reasons(hub):
    client = Client()
    data = client.get(url("rangliste_refused", slug="verband")).json()
    assert (data["minimum_players"], data["minimum_tournament_rounds"], data["count"]) == (4, 3, 1)
    assert data["items"] == [{"slug": "kurz", "name": "Kurzes Turnier", "date": MARCH.isoformat(),
                              "organisation": {"slug": "dk-sued", "name": "DK Süd"}, "reason": "rounds",
                              "players": 8, "rounds": 2, "sentence": "zählt nicht: 2 Runden, mindestens 3"}]
    english = client.get(url("rangliste_refused", slug="verband"), HTTP_ACCEPT_LANGUAGE="en").json()
    assert english["items"][0]["sentence"] == "does not count: 2 rounds, at least 3"
    assert client.get(url("rangliste_refused", slug="verband") + "?offset=1").json()["items"] == []
    # only an association's Rangliste checks tournaments; a private one is not there at all
    rangliste_services.create_rangliste(settings=rangliste_services.Settings(
        name="Vereinsrangliste", slug="verein", source=Rangliste.Source.FLAGGED))
    assert client.get(url("rangliste_refused", slug="verein")).json()["error"]["code"] == "not_found"
    Rangliste.objects.filter(pk=hub.pk).update(public=False)
    for address in (url("rangliste_refused", slug="verband"), url("rangliste", slug="verband")):
        assert client.get(address).status_code == 404


def test_a_person_across_clubs_as_their_page_shows_them(hub):
    client = Client()
    record = record_of("Dieter Brand", "dk-nord")
    data = client.get(url("person", record=record)).json()
    assert (data["record"], data["name"], data["clubs"]) == (record, "Dieter Brand", ["DK Nord", "DK Süd"])
    assert (data["rounds"], data["points"], data["average"], data["count"]) == (2, -10, -5.0, 2)
    assert [(r["tournament"]["slug"], r["organisation"], r["points"], r["average"]) for r in data["items"]] == [
        ("maerz", "DK Süd", 15, 15.0), ("januar", "DK Nord", -25, -25.0)]
    assert data["items"][0]["entry_id"] == Tournament.objects.get(slug="maerz").entries.get(
        player__name="Dieter Brand").pk
    # the same person by the other club's record; the page says the same
    other = client.get(url("person", record=record_of("Dieter Brand", "dk-sued"))).json()
    assert other["items"] == data["items"]
    page = client.get(reverse("tournament:person", args=[record])).content.decode()
    assert "Märzturnier" in page and "Januarturnier" in page
    part = client.get(url("person", record=record) + "?limit=1&offset=1").json()
    assert part["items"] == data["items"][1:] and part["count"] == 2


@pytest.mark.parametrize("name, organisation", [("Frida Dulle", "dk-sued"), ("Erik Karo", "dk-sued")])
def test_a_record_not_at_the_full_names_level_is_not_joined(hub, name, organisation):
    client = Client()
    record = record_of(name, organisation)
    answer = client.get(url("person", record=record))
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
    assert client.get(reverse("tournament:person", args=[record])).status_code == 404  # as the page
    assert client.get(url("person", record=999_999)).status_code == 404


def test_a_record_by_initials_is_left_out_of_the_persons_history(hub):
    """Dieter Brand's record at DK Süd by initials: his page (and answer) by the other record has DK Nord only."""
    Player.objects.filter(name="Dieter Brand", organisation__slug="dk-sued").update(publication=privacy.INITIALS)
    data = Client().get(url("person", record=record_of("Dieter Brand", "dk-nord"))).json()
    assert data["clubs"] == ["DK Nord"] and [r["tournament"]["slug"] for r in data["items"]] == ["januar"]


@override_settings(RATE_LIMIT_API="2/m")
def test_the_rate_limit_applies_to_the_new_endpoints(hub):
    client = Client()
    for address, _template in addresses()[::2]:
        cache.clear()
        assert [client.get(address, REMOTE_ADDR="198.51.100.7").status_code for _ in range(3)] == [200, 200, 429]


def test_the_stored_rangliste_reads_a_fixed_number_of_queries_whatever_the_size(hub, django_assert_num_queries):
    client = Client()
    cache.clear()
    # the rate limit's first count in the database cache (5 statements), the Rangliste, its lines
    with django_assert_num_queries(7):
        client.get(url("rangliste", slug="verband"))
    director = make_director("leitung-c", organisation=make_organisation("DK West", "dk-west"))
    ranglistenturnier(director, "Westturnier", MARCH, EIGHT, slug="west")
    hub.members.add(Tournament.objects.get(slug="west").organisation)
    refreshed(hub)
    cache.clear()
    with django_assert_num_queries(7):
        assert client.get(url("rangliste", slug="verband") + "?limit=200").json()["count"] == 15
