"""Telling a player where they sit: a poll of the standings or a player's page that
names the reader (`me`, set by "Das bin ich") starts with their table and seat in the newest
published round and the round clock; the browser side is tests/e2e/test_checkin_projector.py."""

import pytest
from django.test import Client
from django.urls import reverse

from tournament import selectors
from tournament.models import Round, Seat
from tournament.services import round_clock, seating
from tournament.web import caching

from ..factories import make_tournament, play_round, seated_round

pytestmark = pytest.mark.django_db


def poll(tournament, me, name="standings", **extra):
    kwargs = {"slug": tournament.slug, **extra}
    url = reverse(f"tournament:{name}", kwargs=kwargs)
    return Client().get(url, {"partial": "1", "me": str(me)}).content.decode()


def test_the_poll_brings_the_seat_as_soon_as_the_round_is_published(tournament):
    entry = tournament.entries.get(start_number=3)
    round = seated_round(tournament, publish=False)
    assert "data-seat-notice" not in poll(tournament, entry.id)  # a draft is nobody's business yet
    seating.publish_round(round=round)
    seat = round.tables.get(seats__entry=entry).seats.get(entry=entry)
    text = poll(tournament, entry.id)
    assert text.startswith('<div class="seat-notice"')
    assert f"<strong>Tisch {seat.table.number}</strong>, Platz {seat.position}" in text
    assert "data-clock-end" not in text
    round_clock.start_clock(round=round)
    assert "data-clock-end" in poll(tournament, entry.id)
    player_page = poll(tournament, entry.id, "player", entry_id=tournament.entries.get(start_number=1).id)
    assert "data-seat-notice" in player_page  # on a player's page too: the marked player's seat


def test_no_notice_without_me_for_a_closed_round_or_without_public_seating(tournament):
    entry = tournament.entries.get(start_number=3)
    round = play_round(tournament)
    url = reverse("tournament:standings", args=[tournament.slug])
    assert "data-seat-notice" not in Client().get(url, {"partial": "1"}).content.decode()
    tournament.public_seating = False
    tournament.save()
    assert "data-seat-notice" not in poll(tournament, entry.id)
    tournament.public_seating = True
    tournament.save()
    seating.close_round(round=round)
    assert "data-seat-notice" not in poll(tournament, entry.id)


@pytest.mark.parametrize("players", [8, 40])
def test_the_poll_with_me_runs_a_fixed_number_of_queries(director, players, django_assert_num_queries):
    tournament = make_tournament(players=players, director=director, slug=f"t{players}")
    seated_round(tournament)
    entry = tournament.entries.get(start_number=2)
    poll(tournament, entry.id)  # the standings fragment is cached once per change
    # the tournament, the change counter, the cached fragment (as in another worker process), where
    # everyone sits
    caching.forget_kept()
    with django_assert_num_queries(4):
        text = poll(tournament, entry.id)
    # the same process again: the fragment, the tournament and the seats are kept in it (caching.recent),
    # also for another player's phone: the change counter alone
    with django_assert_num_queries(1):
        poll(tournament, entry.id)
    another = tournament.entries.get(start_number=1)
    with django_assert_num_queries(1):
        other = poll(tournament, another.id)
    assert "data-seat-notice" in text and "data-seat-notice" in other


def test_the_current_seat_is_the_one_django_finds(tournament):
    """`selectors.current_seats` (read as values, one query for everyone): the seat Django's own query
    finds, in the newest published round where the player sits (not a draft), with the same end of the
    round clock."""
    play_round(tournament)
    second = seated_round(tournament, seed="zwei")
    round_clock.start_clock(round=second)
    seated_round(tournament, seed="drei", publish=False)
    for entry in tournament.entries.all():
        expected = (Seat.objects.filter(entry=entry, round__tournament=tournament, round__status=Round.Status.PUBLISHED)
                    .select_related("table", "round").order_by("-round__number").first())
        found = selectors.current_seats(tournament.pk)[entry.id]
        assert found.round_number == 2
        assert (found.round_number, found.table_number, found.position) == (
            expected.round.number, expected.table.number, expected.position)
        assert found.clock_end(90) == expected.round.clock_end(90) is not None
    seating.close_round(round=second)
    assert selectors.current_seats(tournament.pk)[entry.id].round_number == 1


def test_the_overview_asks_for_the_notice_alone_and_gets_304_while_nothing_changed(tournament):
    """The overview's slot and its poll (issue "The evening as a club meets it", 8): `/t/<slug>/platz/?me=`
    answers the notice alone, 304 for the same ETag while nothing changed, the new seat once a round is
    published."""
    entry = tournament.entries.get(start_number=3)
    client = Client()
    overview = client.get(reverse("tournament:overview", args=[tournament.slug])).content.decode()
    url = reverse("tournament:seat_notice", args=[tournament.slug])
    assert 'id="seat-notice"' in overview and f'data-seat-url="{url}"' in overview and "seat_notice.js" in overview
    first = client.get(url, {"me": str(entry.id)})
    assert first.status_code == 200 and first.content == b""  # no round yet
    again = client.get(url, {"me": str(entry.id)}, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    round = seated_round(tournament)
    seat = Seat.objects.get(table__round=round, entry=entry)
    answer = client.get(url, {"me": str(entry.id)}, HTTP_IF_NONE_MATCH=first["ETag"])
    assert answer.status_code == 200
    assert f"<strong>Tisch {seat.table.number}</strong>, Platz {seat.position}" in answer.content.decode()
    tournament.public_seating = False
    tournament.save()
    assert client.get(url, {"me": str(entry.id)}).content == b""  # the seating is not public
