"""The projector page: the newest published round's seating by name, then the
standings, public data only (no draft round, no hidden results, no contact), in a fixed number of
queries; its paging is tests/e2e/test_projector.py."""

import pytest
from django.test import Client
from django.urls import reverse

from tournament.models import Seat
from tournament.services import checkin, round_clock, seating

from ..factories import make_tournament, play_round, seated_round

pytestmark = pytest.mark.django_db


def page(tournament, client=None):
    response = (client or Client()).get(reverse("tournament:projector", args=[tournament.slug]))
    return response.status_code, response.content.decode()


def test_shows_the_newest_published_round_by_name_and_the_standings(tournament):
    first = play_round(tournament)
    seated_round(tournament, seed="zwei", publish=False)  # a draft: not on the beamer
    status, text = page(tournament)
    assert status == 200
    assert "Runde 1: Wer sitzt wo" in text and "Runde 2" not in text
    seat = Seat.objects.filter(round=first).select_related("entry__player", "table").first()
    assert f"Tisch <b>{seat.table.number}</b> · Platz {seat.position}" in text
    names = [line.split("<small>")[0].split("<")[0] for line in text.split('<li><span class="who">')[1:9]]
    assert names == sorted(names)
    assert 'id="beamer-standings"' in text


def test_public_data_only(tournament, director):
    checkin.set_registration(tournament=tournament, open=True, limit=0)
    checkin.register(tournament=tournament, name="Zora Zeta", contact="zora@example.org")
    round = play_round(tournament)
    seating.hide_results(round=round)
    client = Client()
    client.force_login(director)
    status, text = page(tournament, client)  # the director sees what the room sees
    assert status == 200 and "zora@example.org" not in text and 'id="beamer-standings"' in text
    assert ">0<" in text or "0</span>" in text  # hidden results: everybody at 0 points
    tournament.public_standings = False
    tournament.save()
    assert 'id="beamer-standings"' not in page(tournament, client)[1]
    tournament.public_seating = False
    tournament.save()
    assert page(tournament)[0] == 404


def test_the_round_clock_shows(tournament):
    round = seated_round(tournament)
    round_clock.start_clock(round=round)
    assert "data-clock-end=" in page(tournament)[1]


@pytest.mark.parametrize("players", [8, 40])
def test_a_fixed_number_of_queries(director, players, django_assert_num_queries):
    tournament = make_tournament(players=players, director=director, slug=f"t{players}")
    play_round(tournament)
    page(tournament)  # the standings are computed once per change, then come from the cache
    # the change counter by the slug (the tournament and the standings are kept in the process while it
    # holds: caching.recent, histories.kept), the round, its seats
    with django_assert_num_queries(3):
        page(tournament)
