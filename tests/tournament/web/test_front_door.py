"""The front door (`tournament/web/front.py`): a visitor's kept whole answer is sent again without Django
while what it was made from stays, and never after a write that changes it; requests with a cookie,
conditional or partial requests and answers with a cookie are left to Django."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.urls import reverse

from tournament.services import privacy, results, seating, tournaments
from tournament.web import caching, front

from ..conftest import Counted, wsgi_get
from ..factories import make_tournament, normal_game, seated_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def door(front_door):
    caching.forget_kept()
    return front_door


get = wsgi_get


def text(answer) -> str:
    status, headers, body = answer
    assert status.startswith("200"), status
    assert "Content-Encoding" not in headers
    return body.decode()


@pytest.fixture
def evening():
    tournament = make_tournament(players=8, slug="abend")
    round = seated_round(tournament)
    return tournament, round


def test_a_visitors_seating_is_sent_again_without_django_in_one_query(door, evening, django_assert_num_queries):
    application, django = door
    tournament, round = evening
    path = reverse("tournament:round", kwargs={"slug": tournament.slug, "round_number": 1})
    first = text(get(application, path))
    with django_assert_num_queries(1):  # the counters, nothing else
        again = text(get(application, path))
    assert again == first and django.calls == 1
    assert "Anna" in again


def test_a_setup_write_moves_the_seating_and_a_game_does_not(door, evening):
    application, django = door
    tournament, round = evening
    path = reverse("tournament:round", kwargs={"slug": tournament.slug, "round_number": 1})
    text(get(application, path))
    table = round.tables.order_by("number").first()
    results.save_game(table=table, data=normal_game(table, 1))
    text(get(application, path))
    assert django.calls == 1  # a visitor's seating shows no results: the game leaves it as it was
    entry = tournament.entries.get(player__name="Anna")
    tournaments.edit_player(entry=entry, name="Annemarie", club="DK Nord")
    page = text(get(application, path))
    assert django.calls == 2 and "Annemarie" in page


def test_a_game_moves_the_standings_and_the_players_page(door, evening):
    application, django = door
    tournament, round = evening
    table = round.tables.order_by("number").first()
    first_player = table.seats.order_by("position").first().entry_id
    standings = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    player = reverse("tournament:player", kwargs={"slug": tournament.slug, "entry_id": first_player})
    before = text(get(application, standings)), text(get(application, player))
    assert (text(get(application, standings)), text(get(application, player))) == before
    assert django.calls == 2
    results.save_game(table=table, data=normal_game(table, 1, re_augen=150))
    after = text(get(application, standings)), text(get(application, player))
    assert django.calls == 4
    assert after[0] != before[0] and after[1] != before[1]


def test_hidden_results_and_a_hidden_name_are_never_sent_from_what_was_kept(door, evening):
    application, django = door
    tournament, round = evening
    table = round.tables.order_by("number").first()
    results.save_game(table=table, data=normal_game(table, 1, re_augen=150))
    standings = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    seating_page = reverse("tournament:round", kwargs={"slug": tournament.slug, "round_number": 1})
    assert "Anna" in text(get(application, seating_page))
    shown = text(get(application, standings))
    seating.hide_results(round=round)
    assert text(get(application, standings)) != shown
    entry = tournament.entries.get(player__name="Anna")
    privacy.set_publication(entry=entry, level="hidden")
    assert "Anna" not in text(get(application, seating_page))


def test_what_the_front_door_leaves_to_django(door, evening):
    application, django = door
    tournament, round = evening
    path = reverse("tournament:round", kwargs={"slug": tournament.slug, "round_number": 1})
    text(get(application, path))
    assert django.calls == 1
    for headers in ({"HTTP_COOKIE": "sessionid=x"}, {"HTTP_COOKIE": "django_language=en"}, {"method": "head"},
                    {"HTTP_RANGE": "bytes=0-10"}, {"HTTP_IF_MODIFIED_SINCE": "Sat, 28 Nov 2026 20:00:00 GMT"},
                    {"HTTP_IF_NONE_MATCH": 'W/"1-other"'}):
        calls = django.calls
        get(application, path, **headers)
        assert django.calls == calls + 1, headers
    calls = django.calls
    get(application, path, method="post")
    assert django.calls == calls + 1


def test_the_kept_answers_etag_is_answered_304(door, evening):
    application, django = door
    tournament, round = evening
    path = reverse("tournament:round", kwargs={"slug": tournament.slug, "round_number": 1})
    status, headers, body = get(application, path)
    status, headers_304, body = get(application, path, HTTP_IF_NONE_MATCH=headers["ETag"])
    assert status.startswith("304") and body == b"" and headers_304["ETag"] == headers["ETag"]
    assert django.calls == 1


def test_each_language_and_encoding_is_kept_apart(door, evening):
    application, django = door
    tournament, round = evening
    path = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    german = text(get(application, path, HTTP_ACCEPT_LANGUAGE="de"))
    english = text(get(application, path, HTTP_ACCEPT_LANGUAGE="en"))
    zipped = get(application, path, HTTP_ACCEPT_LANGUAGE="de", HTTP_ACCEPT_ENCODING="gzip")
    assert "Tabelle" in german and "Standings" in english
    assert zipped[1].get("Content-Encoding") == "gzip"
    assert text(get(application, path, HTTP_ACCEPT_LANGUAGE="de")) == german
    assert text(get(application, path, HTTP_ACCEPT_LANGUAGE="en")) == english
    assert django.calls == 3


def test_an_answer_showing_the_time_holds_for_its_minute(door, evening, monkeypatch):
    application, django = door
    tournament, round = evening
    path = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    monkeypatch.setattr(front, "_minute", lambda: 1000)
    text(get(application, path))
    text(get(application, path))
    assert django.calls == 1
    monkeypatch.setattr(front, "_minute", lambda: 1001)
    text(get(application, path))
    assert django.calls == 2


def marked(*, cookie=False, vary="Accept-Encoding", status=200):
    def view(environ, start_response):
        response = HttpResponse(b"<p>alle</p>", status=status)
        response["Vary"] = vary
        if cookie:
            response.set_cookie("csrftoken", "geheim")
        start_response(f"{status} X", list(response.items()) + [("Set-Cookie", c.output(header="").strip())
                                                                 for c in response.cookies.values()])
        return front.keep(response, "static", value=0)
    return view


@pytest.mark.parametrize("answer", [{"cookie": True}, {"vary": "Accept-Encoding, User-Agent"}, {"status": 404}])
def test_an_answer_with_a_cookie_an_unknown_vary_or_an_error_is_not_kept(answer):
    front.forget()
    django = Counted(marked(**answer))
    application = front.FrontDoor(django)
    get(application, "/egal/")
    get(application, "/egal/")
    assert django.calls == 2


def test_a_marked_answer_is_kept():
    front.forget()
    django = Counted(marked())
    application = front.FrontDoor(django)
    get(application, "/egal/")
    assert get(application, "/egal/")[2] == b"<p>alle</p>"
    assert django.calls == 1


def test_a_static_file_with_its_hash_in_the_name_is_kept_and_another_is_not():
    front.forget()

    def static(environ, start_response):
        immutable = ".abc123def456." in environ["PATH_INFO"]
        start_response("200 OK", [("Content-Type", "text/css"), (
            "Cache-Control", "max-age=315360000, public, immutable" if immutable else "max-age=60, public")])
        return [b"body{}"]

    django = Counted(static)
    application = front.FrontDoor(django)
    for _ in range(2):
        get(application, "/static/css/site.abc123def456.css")
        get(application, "/static/css/site.css")
    assert django.calls == 3
