"""The open read API (/api/v1/, docs/api.md): every answer against the OpenAPI description the site
serves, the publication levels, hidden results and draft rounds, the pages' switches,
ETags, paging, the rate limit, errors in the reader's language, and malformed queries never a 500
(another organisation's private tournaments and each endpoint's number of queries: test_api_sizes.py)."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client, override_settings
from django.urls import reverse
from hypothesis import example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tournament import privacy
from tournament.models import Rangliste, Tournament
from tournament.services import file_schema, results, seating, tournaments
from tournament.services import privacy as privacy_services
from tournament.services import rangliste as rangliste_services
from tournament.web import caching

from ..factories import make_director, make_tournament, normal_game, play_round

pytestmark = pytest.mark.django_db

HIDDEN, INITIALS = "Hildegard Verborgenmann", "Ingolf Kürzelberg"


def url(name: str, **kwargs) -> str:
    return reverse(f"api:{name}", kwargs=kwargs)


def build(players: int = 9, slug: str = "herbst") -> Tournament:
    """A tournament of the default organisation: a hidden and an initials player among `players`;
    round 1 played, round 2 played with its results hidden, round 3 a draft; counting for Ranglisten."""
    director = make_director(f"leitung-{slug}")
    tournament = make_tournament(players=players - 2, director=director, slug=slug, counts_for_rangliste=True)
    for name in (HIDDEN, INITIALS):
        entry = tournaments.register_player(tournament=tournament, name=name, club="SC Versteck")
        privacy_services.set_publication(entry=entry, level=privacy.HIDDEN if name == HIDDEN else privacy.INITIALS)
    play_round(tournament)
    second = play_round(tournament)
    seating.hide_results(round=second)
    third = seating.create_round(tournament=tournament)
    seating.seat_round(round=third, seed="drei")
    tournament.refresh_from_db()
    return tournament


def ranglisten() -> None:
    """A public Rangliste ("verband") and a private one ("intern") of every tournament that counts."""
    rangliste_services.create_rangliste(settings=rangliste_services.Settings(
        name="Verbandsrangliste", slug="verband", source=Rangliste.Source.FLAGGED, minimum_rounds=1))
    rangliste_services.create_rangliste(settings=rangliste_services.Settings(
        name="Intern", slug="intern", source=Rangliste.Source.FLAGGED, minimum_rounds=1, public=False))


@pytest.fixture(scope="module")
def built_herbst(django_db_setup, django_db_blocker):
    """Herbst and the two Ranglisten, built once a module in a transaction rolled back at its end; each
    test runs in a savepoint of it (pytest-django's `db`), so what a test changes is gone after it.
    The tests that need a site without Herbst are in test_api_sizes.py."""
    with django_db_blocker.unblock(), transaction.atomic():
        tournament = build()
        ranglisten()
        yield tournament.pk
        transaction.set_rollback(True)


@pytest.fixture
def herbst(built_herbst, db):
    return Tournament.objects.get(pk=built_herbst)


def entry_of(tournament, name):
    return tournament.entries.get(player__name=name)


def every_url(t: Tournament) -> list[tuple[str, str]]:
    """(url, the path template of the OpenAPI description) of every endpoint with data to show."""
    slug, first = t.slug, t.entries.order_by("start_number").first().pk
    return [(url("tournaments"), "/api/v1/tournaments"),
            (url("tournaments") + "?organisation=verein&since=2026-01-01&limit=1", "/api/v1/tournaments"),
            (url("tournament", slug=slug), "/api/v1/tournaments/{slug}"),
            *[(url("round", slug=slug, round_number=n), "/api/v1/tournaments/{slug}/rounds/{round_number}")
              for n in (1, 2)],
            *[(url("table_games", slug=slug, round_number=n, table_number=1),
               "/api/v1/tournaments/{slug}/rounds/{round_number}/tables/{table_number}/games") for n in (1, 2)],
            (url("standings", slug=slug), "/api/v1/tournaments/{slug}/standings"),
            (url("standings", slug=slug) + "?round=1&limit=3&offset=1", "/api/v1/tournaments/{slug}/standings"),
            *[(url("player", slug=slug, entry_id=entry_of(t, name).pk), "/api/v1/tournaments/{slug}/players/{entry_id}")
              for name in (HIDDEN, INITIALS)],
            (url("player", slug=slug, entry_id=first), "/api/v1/tournaments/{slug}/players/{entry_id}"),
            (url("file", slug=slug), "/api/v1/tournaments/{slug}/file"),
            (url("ranglisten"), "/api/v1/ranglisten"),
            (url("rangliste", slug="verband") + "?until=2026-12-31", "/api/v1/ranglisten/{slug}")]


def validator_for(description: dict, template: str, status: int) -> Draft202012Validator:
    schema = description["paths"][template]["get"]["responses"][str(status)]["content"]["application/json"]["schema"]
    return Draft202012Validator({**schema, "components": description["components"]})


def test_every_answer_matches_the_served_openapi_description(herbst):
    client = Client()
    description = client.get(url("openapi-json")).json()
    assert description["openapi"].startswith("3.")
    checked = 0
    for address, template in every_url(herbst):
        answer = client.get(address)
        assert answer.status_code == 200, address
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                  for e in validator_for(description, template, 200).iter_errors(answer.json())]
        assert errors == [], address
        checked += 1
    # the errors too
    for address, template, status in [
            (url("tournament", slug="gibt-es-nicht"), "/api/v1/tournaments/{slug}", 404),
            (url("tournaments") + "?limit=0", "/api/v1/tournaments", 400),
            (url("round", slug=herbst.slug, round_number=3), "/api/v1/tournaments/{slug}/rounds/{round_number}", 404)]:
        answer = client.get(address)
        assert answer.status_code == status
        assert list(validator_for(description, template, status).iter_errors(answer.json())) == []
    assert checked == len(every_url(herbst))
    assert client.get(url("openapi-view")).status_code == 200  # the page to read it


def test_the_file_is_a_valid_tournament_file_without_drafts_hidden_results_or_names(herbst):
    data = Client().get(url("file", slug=herbst.slug)).json()
    assert list(file_schema.validator().iter_errors(data)) == []
    assert [r["number"] for r in data["rounds"]] == [1, 2]  # round 3 is a draft
    assert data["rounds"][1]["results_hidden"] is True
    assert all(table["rows"] == [] for table in data["rounds"][1]["tables"])
    assert any(table["rows"] for table in data["rounds"][0]["tables"])
    text = json.dumps(data, ensure_ascii=False)
    assert "Hildegard" not in text and "Verborgenmann" not in text and "Kürzelberg" not in text
    hidden = entry_of(herbst, HIDDEN)
    assert f"Spieler/in Nr. {hidden.start_number}" in text and "I. K." in text
    assert "link" not in text and "log" not in data


def test_no_answer_names_a_hidden_player_or_an_initials_players_full_name(herbst):
    client = Client()
    for address, _template in every_url(herbst):
        text = client.get(address).content.decode()
        text += json.dumps(json.loads(text), ensure_ascii=True)
        for word in ("Hildegard", "Verborgenmann", "Ingolf", "Kürzelberg", "K\\u00fcrzelberg", "SC Versteck (H"):
            assert word not in text, (address, word)
    standings = client.get(url("standings", slug=herbst.slug)).json()["items"]
    hidden = entry_of(herbst, HIDDEN)
    row = next(r for r in standings if r["entry_id"] == hidden.pk)
    assert row["name"] == f"Spieler/in Nr. {hidden.start_number}" and row["club"] == ""
    assert any(r["name"] == "I. K." and r["club"] == "SC Versteck" for r in standings)


def test_hidden_results_and_drafts_stay_out(herbst):
    client = Client()
    hidden_round = client.get(url("table_games", slug=herbst.slug, round_number=2, table_number=1)).json()
    assert hidden_round["results_hidden"] is True and hidden_round["rows"] == []
    shown = client.get(url("table_games", slug=herbst.slug, round_number=1, table_number=1)).json()
    assert shown["rows"] and shown["rows"][0]["type"] == "normal"
    standings = client.get(url("standings", slug=herbst.slug)).json()
    assert standings["rounds"] == [1]  # round 2's results are not announced
    record = client.get(url("player", slug=herbst.slug, entry_id=entry_of(herbst, "Anna").pk)).json()
    second = next(r for r in record["rounds"] if r["number"] == 2)
    assert second["results_hidden"] is True and "lines" not in second and "total" not in second
    assert [r["number"] for r in record["rounds"]] == [1, 2]
    detail = client.get(url("tournament", slug=herbst.slug)).json()
    assert [r["number"] for r in detail["rounds"]] == [1, 2]
    for address in (url("round", slug=herbst.slug, round_number=3),
                    url("table_games", slug=herbst.slug, round_number=3, table_number=1)):
        assert client.get(address).status_code == 404


@pytest.mark.parametrize("switch, off", [
    ("public_overview", ["tournament", "file"]),
    ("public_standings", ["standings", "file"]),
    ("public_seating", ["round", "table_games", "file"]),
    ("public_players", ["player", "table_games", "file"]),
])
def test_a_switched_off_page_is_404_in_the_api_too(herbst, switch, off):
    Tournament.objects.filter(pk=herbst.pk).update(**{switch: False})
    caching.forget_kept()
    slug, entry = herbst.slug, herbst.entries.first().pk
    addresses = {"tournament": url("tournament", slug=slug), "file": url("file", slug=slug),
                 "standings": url("standings", slug=slug), "round": url("round", slug=slug, round_number=1),
                 "table_games": url("table_games", slug=slug, round_number=1, table_number=1),
                 "player": url("player", slug=slug, entry_id=entry)}
    client = Client()
    for name, address in addresses.items():
        answer = client.get(address)
        assert answer.status_code == (404 if name in off else 200), (name, answer.content[:200])
        if name in off:
            assert answer.json()["error"]["code"] == "not_found"
    listed = [t["slug"] for t in client.get(url("tournaments")).json()["items"]]
    assert (slug in listed) == (switch != "public_overview")


def test_a_director_logged_in_still_gets_the_visitors_view(herbst):
    client = Client()
    client.force_login(herbst.directors.get())
    text = client.get(url("standings", slug=herbst.slug)).content.decode()
    assert "Verborgenmann" not in text
    assert client.get(url("round", slug=herbst.slug, round_number=3)).status_code == 404


def test_dates_filter_the_list(herbst):
    client = Client()
    assert client.get(url("tournaments") + "?since=2026-11-22").json()["count"] == 0
    assert client.get(url("tournaments") + "?until=2026-11-21").json()["count"] == 1
    answer = client.get(url("tournaments") + "?since=gestern")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_date"


def test_private_ranglisten_are_not_listed_or_shown(herbst):
    client = Client()
    assert [r["slug"] for r in client.get(url("ranglisten")).json()["items"]] == ["verband"]
    assert client.get(url("rangliste", slug="intern")).status_code == 404
    rows = client.get(url("rangliste", slug="verband") + "?until=2026-12-31").json()
    assert rows["count"] == len(rows["items"]) > 0
    assert privacy.NO_NAME in [r["name"] for r in rows["items"]]  # the hidden player: no start number there


def test_etag_answers_304_until_the_tournament_changes(herbst):
    client = Client()
    address = url("standings", slug=herbst.slug)
    first = client.get(address)
    tag = first["ETag"]
    assert tag and client.get(address, HTTP_IF_NONE_MATCH=tag).status_code == 304
    table = herbst.rounds.get(number=1).tables.get(number=1)
    results.save_game(table=table, data=normal_game(table, 3, re_augen=140))
    again = client.get(address, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 200 and again["ETag"] != tag
    # the list and a Rangliste: by their content
    listed = client.get(url("tournaments"))
    assert client.get(url("tournaments"), HTTP_IF_NONE_MATCH=listed["ETag"]).status_code == 304
    rangliste = client.get(url("rangliste", slug="verband"))
    assert client.get(url("rangliste", slug="verband"), HTTP_IF_NONE_MATCH=rangliste["ETag"]).status_code == 304


@pytest.mark.parametrize("query", ["limit=0", "limit=201", "limit=abc", "offset=-1", "offset=x", "limit=1e3"])
def test_paging_bounds_are_refused_with_a_message(herbst, query):
    for address in (url("tournaments"), url("standings", slug=herbst.slug), url("ranglisten"),
                    url("rangliste", slug="verband")):
        answer = Client().get(f"{address}?{query}")
        assert answer.status_code == 400, (address, query)
        assert answer.json()["error"]["message"]


def test_paging_slices_the_standings_in_their_order(herbst):
    client = Client()
    whole = client.get(url("standings", slug=herbst.slug) + "?limit=200").json()
    part = client.get(url("standings", slug=herbst.slug) + "?limit=3&offset=2").json()
    assert part["count"] == whole["count"] == 9 and (part["limit"], part["offset"]) == (3, 2)
    assert part["items"] == whole["items"][2:5]
    assert client.get(url("standings", slug=herbst.slug) + "?offset=50").json()["items"] == []


def test_the_standings_are_the_tabelles(herbst):
    """The same rows in the same order as the page's JSON export, with the same numbers."""
    client = Client()
    api_rows = client.get(url("standings", slug=herbst.slug)).json()["items"]
    page_rows = client.get(reverse("tournament:standings_json", args=[herbst.slug])).json()
    assert [(r["rank"], r["name"], r["points"], r["games"], r["won"], r["solos"]) for r in api_rows] == [
        (r["rank"], r["player"], r["points"], r["games"], r["won"], r["solos"]) for r in page_rows]
    assert all(r["per_round"] == [r["points"]] for r in api_rows)  # one round counted: its points


@override_settings(RATE_LIMIT_API="3/m", RATE_LIMIT_API_KEY="5/m", API_KEYS={"geheimer-schluessel": "verband"})
def test_the_rate_limit_per_address_and_per_key(herbst):
    cache.clear()
    client = Client()
    address = url("tournaments")
    assert [client.get(address, REMOTE_ADDR="198.51.100.1").status_code for _ in range(3)] == [200] * 3
    over = client.get(address, REMOTE_ADDR="198.51.100.1")
    assert over.status_code == 429 and int(over["Retry-After"]) >= 1
    assert over.json()["error"]["code"] == "rate_limited"
    assert client.get(address, REMOTE_ADDR="198.51.100.2").status_code == 200  # another address
    # a made-up key counts as the address; a key the site gave out has its own, larger count
    assert client.get(address, REMOTE_ADDR="198.51.100.1", HTTP_X_API_KEY="erfunden").status_code == 429
    keyed = [client.get(address, REMOTE_ADDR="198.51.100.1", HTTP_X_API_KEY="geheimer-schluessel").status_code
             for _ in range(6)]
    assert keyed == [200] * 5 + [429]


def test_errors_speak_the_readers_language(herbst):
    client = Client()
    german = client.get(url("tournament", slug="gibt-es-nicht")).json()["error"]["message"]
    english = client.get(url("tournament", slug="gibt-es-nicht"), HTTP_ACCEPT_LANGUAGE="en").json()["error"]["message"]
    assert german.startswith("Das gibt es nicht") and english.startswith("That does not exist")
    answer = client.post(url("tournaments"))
    assert answer.status_code == 405 and answer.json()["error"]["code"] == "method_not_allowed"
    assert client.get("/api/v1/gibt-es-nicht").json()["error"]["code"] == "not_found"


@hypothesis_settings(max_examples=40)
@given(query=st.dictionaries(st.sampled_from(["limit", "offset", "round", "since", "until", "organisation"]),
                             st.text(max_size=12), max_size=3))
@example(query={"organisation": "\x00"})  # PostgreSQL refuses a NUL in a query: it was an error page
@example(query={"until": "", "organisation": "\x00"})
def test_any_query_is_json_and_never_a_500(query):
    client = Client()
    client.raise_request_exception = False
    for address in (url("tournaments"), url("standings", slug="herbst"), url("rangliste", slug="verband"),
                    url("ranglisten")):
        answer = client.get(address, query)
        assert answer.status_code < 500 and answer["Content-Type"].startswith("application/json")


def test_an_unchanged_answer_is_304_after_the_counter_and_the_rate_count(herbst, django_assert_num_queries):
    client = Client()
    address = url("standings", slug=herbst.slug)
    tag = client.get(address)["ETag"]
    caching.forget_kept()
    # the rate limit's count (10 statements in the database cache, its savepoints included; one in Redis),
    # then one query of ours: the change counter by the slug
    with django_assert_num_queries(11):
        assert client.get(address, HTTP_IF_NONE_MATCH=tag).status_code == 304
