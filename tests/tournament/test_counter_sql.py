"""The two reads written out as SQL (tournament/web/counter_sql.py: every poll runs one of them) read
what the ORM reads: the change counter, the setup counter and the newest change at the player's own
tables, for a tournament with and without changes, a player without a seat and an unknown address."""

from __future__ import annotations

import pytest
from django.db.models import Max

from tournament.models import DataChange, Seat, Tournament
from tournament.services import results, tournaments
from tournament.web import caching, counter_sql

from .factories import make_tournament, normal_game, seated_round

pytestmark = pytest.mark.django_db


def by_the_orm(tournament: Tournament, entry_id: int) -> tuple[int, int, int]:
    tables = Seat.objects.filter(entry_id=entry_id).values("table_id")
    own = DataChange.objects.filter(table_id__in=tables).aggregate(newest=Max("id"))["newest"] or 0
    return caching.change_counter(tournament), caching.setup_counter(tournament), own


def assert_same(tournament: Tournament) -> None:
    assert counter_sql.counter_by_slug(tournament.slug) == (tournament.pk, caching.change_counter(tournament))
    for entry_id in tournament.entries.values_list("id", flat=True):
        assert counter_sql.player_counters(tournament.pk, entry_id) == by_the_orm(tournament, entry_id)


def test_the_counters_written_as_sql_read_what_the_orm_reads():
    tournament = make_tournament(players=9, slug="zaehler")
    other = make_tournament(players=4, slug="anderes")
    assert_same(tournament)  # players, no seats yet: no own tables
    assert {
        counter_sql.player_counters(tournament.pk, entry)[2]
        for entry in tournament.entries.values_list("id", flat=True)
    } == {0}
    round = seated_round(tournament)
    seated_round(other)
    one, two = round.tables.order_by("number")
    results.save_game(table=one, number=1, data=normal_game(one, 1))
    assert_same(tournament)
    results.save_game(table=two, number=1, data=normal_game(two, 1))
    results.save_game(table=one, number=2, data=normal_game(one, 2))
    assert_same(tournament)
    tournaments.edit_player(entry=tournament.entries.order_by("start_number").first(), name="Neu", club="")
    assert_same(tournament)
    assert_same(other)
    assert counter_sql.counter_by_slug("gibt-es-nicht") is None
    DataChange.objects.filter(tournament=other).delete()  # a tournament before its first change
    assert counter_sql.counter_by_slug(other.slug) == (other.pk, 0)
    entry = other.entries.first()
    assert counter_sql.player_counters(other.pk, entry.pk) == (0, 0, 0) == by_the_orm(other, entry.pk)
