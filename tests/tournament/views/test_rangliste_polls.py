"""The association's stored Rangliste for the phones that poll it (docs/competitions.md, "The association's
Rangliste", "Pages"): the page and a player's page answer an unchanged poll with 304 before a line is read,
keep a visitor's whole answer in the cache (`cache_keys` "rangliste-page"), and give a new ETag after a
refresh."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tournament.models import RanglisteStanding
from tournament.selectors import association_rangliste as association
from tournament.services import rangliste_refresh

from ..services.test_rangliste_association import (  # noqa: F401
    MARCH,
    association_rangliste,
    clubs,
    ranglistenturnier,
    refreshed,
    two_clubs,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def pages(clubs):  # noqa: F811
    a, b, director_a, _director_b = clubs
    two_clubs(clubs)
    rangliste = refreshed(association_rangliste(director_a, [a, b]))
    link = RanglisteStanding.objects.filter(rangliste=rangliste).first().link
    return rangliste, [
        reverse("tournament:rangliste", args=["verband"]),
        reverse("tournament:rangliste_player", args=["verband"]) + f"?p={link}",
    ]


@pytest.fixture
def no_reading(monkeypatch):
    """Reading the stored list fails from now on: an answer that needs it shows up as an error."""

    def refuse():
        def read(*args, **kwargs):
            raise AssertionError("the stored list was read")

        monkeypatch.setattr(association, "stored_view", read)
        monkeypatch.setattr(association, "stored_player", read)

    return refuse


@pytest.mark.parametrize("which", [0, 1], ids=["list", "player"])
def test_an_unchanged_poll_is_304_without_reading_the_list(pages, which, no_reading, django_assert_num_queries):
    _rangliste, urls = pages
    first = Client().get(urls[which])
    assert first.status_code == 200 and first["ETag"].startswith('W/"')
    assert "no-cache" in first["Cache-Control"]
    no_reading()
    with django_assert_num_queries(1):  # the Rangliste
        again = Client().get(urls[which], HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    kept = Client().get(urls[which])  # a visitor without the tag: the whole answer as kept, not rendered anew
    assert kept.status_code == 200 and kept.content == first.content and kept["ETag"] == first["ETag"]


def test_a_refresh_gives_a_new_etag_and_the_new_list(pages, clubs):  # noqa: F811
    rangliste, urls = pages
    first = Client().get(urls[0])
    assert b"Spieler Neu" not in first.content
    eight = [(f"Spieler Neu {n}", "", 10 if n % 2 else -10) for n in range(1, 9)]
    ranglistenturnier(clubs[3], "Noch eins", MARCH, eight, slug="noch-eins")
    assert Client().get(urls[0], HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304  # not refreshed yet
    rangliste_refresh.refresh_rangliste(rangliste=rangliste)
    after = Client().get(urls[0], HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    assert b"Spieler Neu" in after.content


def test_a_director_gets_their_own_tag_and_names(pages, clubs):  # noqa: F811
    _rangliste, urls = pages
    visitor = Client().get(urls[0])
    director = Client()
    director.force_login(clubs[2])
    director.get(urls[0])  # (the first visit sets the CSRF cookie, which the tag of a page with the frame holds)
    seen = director.get(urls[0])
    assert seen.status_code == 200 and seen["ETag"] != visitor["ETag"]
    assert director.get(urls[0], HTTP_IF_NONE_MATCH=seen["ETag"]).status_code == 304
    assert Client().get(urls[0], HTTP_IF_NONE_MATCH=seen["ETag"]).status_code == 200
