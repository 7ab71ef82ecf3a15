"""The open read API (/api/v1/, docs/api.md) on a site without test_api.py's Herbst (which that module
builds once for all its tests): every organisation's public tournaments and nothing private, and each
endpoint reading a fixed number of queries whatever the size."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tournament.models import Tournament
from tournament.web import caching

from ..factories import make_director, make_organisation, make_tournament
from .test_api import build, every_url, ranglisten, url

pytestmark = pytest.mark.django_db


def test_every_organisations_public_tournaments_and_nothing_private():
    club_b = make_organisation(name="Club B", slug="club-b")
    mine = make_tournament(players=4, slug="offen", director=make_director("a"))
    theirs = make_tournament(players=4, slug="b-offen", organisation=club_b, name="B offen")
    private = make_tournament(players=4, slug="b-privat", organisation=club_b, name="B privat")
    Tournament.objects.filter(pk=private.pk).update(public_overview=False, public_standings=False,
                                                   public_seating=False, public_players=False)
    caching.forget_kept()
    client = Client()
    listed = client.get(url("tournaments")).json()
    assert sorted(t["slug"] for t in listed["items"]) == ["b-offen", "offen"] and listed["count"] == 2
    only_b = client.get(url("tournaments") + "?organisation=club-b").json()["items"]
    assert [t["slug"] for t in only_b] == ["b-offen"] and only_b[0]["organisation"]["name"] == "Club B"
    for address in (url("tournament", slug="b-privat"), url("standings", slug="b-privat"),
                    url("file", slug="b-privat"), url("round", slug="b-privat", round_number=1),
                    url("player", slug="b-privat", entry_id=private.entries.first().pk),
                    url("player", slug="offen", entry_id=theirs.entries.first().pk)):  # another's player
        assert client.get(address).status_code == 404, address
    assert mine.pk and client.get(url("tournament", slug="b-offen")).status_code == 200


PINNED = {"/api/v1/tournaments": 7, "/api/v1/tournaments/{slug}": 10,
          "/api/v1/tournaments/{slug}/rounds/{round_number}": 10,
          "/api/v1/tournaments/{slug}/rounds/{round_number}/tables/{table_number}/games": 13,
          "/api/v1/tournaments/{slug}/standings": 20, "/api/v1/tournaments/{slug}/players/{entry_id}": 28,
          "/api/v1/tournaments/{slug}/file": 16, "/api/v1/ranglisten": 7, "/api/v1/ranglisten/{slug}": 10}


def counts(client: Client, t: Tournament) -> list[tuple[str, int]]:
    """Queries of each endpoint's first answer after a change (nothing kept from before: the shared
    cache's reads and writes and the rate limit's count are among them)."""
    found = []
    for address, template in every_url(t):
        cache.clear()
        caching.forget_kept()
        with CaptureQueriesContext(connection) as queries:
            assert client.get(address).status_code == 200
        found.append((template, len(queries)))
    return found


def test_each_endpoint_reads_a_fixed_number_of_queries_whatever_the_size():
    ranglisten()
    small = build(players=9, slug="klein")
    client = Client()
    few = counts(client, small)
    Tournament.objects.filter(pk=small.pk).update(public_overview=False)  # (out of the list)
    large = build(players=25, slug="gross")
    many = counts(client, large)
    assert few == many
    # the numbers themselves (with the database cache of the tests: its reads, writes and the rate
    # limit's count are 4 to 14 of them), so that a change that adds queries is seen
    assert dict(few) == PINNED
