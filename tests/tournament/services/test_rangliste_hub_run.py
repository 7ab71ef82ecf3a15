"""A member club's Ranglistenturnier run on the hub itself (its director seats, enters and publishes the
rounds on the hosted site; nothing comes from a venue) reaches the association's stored Rangliste
through `rangliste_refresh.tournament_changed`, which every service's recording calls as it ends
(docs/competitions.md, "The association's Rangliste", "When"): a round's results, a correction, the
results hidden and shown; a club evening, a club that is no member and a round nobody sees yet queue
nothing."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tournament.models import Rangliste, Table
from tournament.selectors import association_rangliste as association
from tournament.services import rangliste as services
from tournament.services import rangliste_refresh, seating, sheet_state
from tournament.services import tournaments as tournament_services

from ..factories import make_director, make_organisation

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
PLAYERS = [
    ("Anna Kreuz", 30),
    ("Bernd Pik", 10),
    ("Carla Herz", -15),
    ("Dieter Brand", -25),
    ("Erik Karo", 20),
    ("Frida Dulle", 5),
    ("Gerd Schell", -5),
    ("Hanna Eichel", -20),
]


@pytest.fixture
def immediate(monkeypatch):
    """No worker: the refresh runs where it is enqueued (after the commit)."""
    monkeypatch.setattr(rangliste_refresh, "refresh_task", rangliste_refresh.refresh_task.using(backend="immediate"))


@pytest.fixture
def enqueued(monkeypatch):
    """The Ranglisten whose refresh is enqueued after a commit (none runs)."""
    calls: list[int] = []
    monkeypatch.setattr(rangliste_refresh, "enqueue_refresh", calls.extend)
    return calls


@pytest.fixture
def club():
    organisation = make_organisation("DK Nord", "dk-nord")
    return organisation, make_director("leitung-nord", organisation=organisation)


@pytest.fixture
def rangliste(club):
    organisation, director = club
    made = services.create_rangliste(
        settings=services.Settings(
            name="Verbandsrangliste",
            slug="verband",
            source=Rangliste.Source.ASSOCIATION,
            members=(organisation,),
            minimum_players=4,
            minimum_rounds=1,
            minimum_tournament_rounds=1,
        ),
        director=director,
    )
    rangliste_refresh.refresh_rangliste(rangliste=made)
    made.refresh_from_db()
    assert not made.stale and made.computed_at is not None
    return made


def seated(director, *, counts=True, slug="hubturnier"):
    """A tournament of the director's club run on the hub: its players registered, round 1 seated and
    published (nothing entered yet)."""
    tournament = tournament_services.create_tournament(
        name="Hubturnier", date=TODAY, director=director, slug=slug, rounds_planned=1, counts_for_rangliste=counts
    )
    entries = [
        tournament_services.register_player(tournament=tournament, name=name, club="") for name, _points in PLAYERS
    ]
    round = seating.create_round(tournament=tournament)
    seating.place_tables(round=round, tables=[[e.pk for e in entries[:4]], [e.pk for e in entries[4:]]])
    seating.publish_round(round=round)
    return tournament, round


def enter(table: Table, points: dict[str, int]) -> None:
    totals = {entry_id: points[name] for entry_id, name in table.seats.values_list("entry_id", "entry__player__name")}
    sheet_state.enter_totals(table=Table.objects.get(pk=table.pk), totals=totals)


def stored(rangliste):
    rangliste.refresh_from_db()
    return {
        line.name: (line.rounds, line.points) for line, _cuts in association.stored_view(rangliste, public=False).ranked
    }


def test_a_round_entered_and_corrected_on_the_hub_reaches_the_stored_rangliste(
    club, rangliste, immediate, django_capture_on_commit_callbacks
):
    _organisation, director = club
    points = dict(PLAYERS)
    with django_capture_on_commit_callbacks(execute=True):
        tournament, round = seated(director)
        for table in round.tables.order_by("number"):
            enter(table, points)
    rangliste.refresh_from_db()
    assert not rangliste.stale
    assert stored(rangliste) == {name: (1, value) for name, value in PLAYERS}
    # a correction at table 1 (Anna and Bernd swapped) moves the stored list
    with django_capture_on_commit_callbacks(execute=True):
        enter(round.tables.get(number=1), {**points, "Anna Kreuz": 10, "Bernd Pik": 30})
    assert stored(rangliste)["Anna Kreuz"] == (1, 10) and stored(rangliste)["Bernd Pik"] == (1, 30)


def test_results_hidden_queue_nothing_until_they_are_shown(
    club, rangliste, immediate, django_capture_on_commit_callbacks
):
    _organisation, director = club
    points = dict(PLAYERS)
    tournament, round = seated(director)
    first, second = round.tables.order_by("number")
    enter(first, points)
    seating.hide_results(round=round)
    round.refresh_from_db()
    rangliste_refresh.refresh_rangliste(rangliste=rangliste)  # the list as it is: the round hidden
    assert stored(rangliste) == {}
    with django_capture_on_commit_callbacks(execute=True) as queued:
        enter(second, points)  # a table of a round nobody sees yet
    assert queued == []
    rangliste.refresh_from_db()
    assert not rangliste.stale
    with django_capture_on_commit_callbacks(execute=True) as queued:
        seating.show_results(round=round)
    assert len(queued) == 1  # the refresh, enqueued once
    assert stored(rangliste) == {name: (1, value) for name, value in PLAYERS}


@pytest.mark.parametrize("case", ["club evening", "no member"])
def test_a_club_evening_or_a_club_that_is_no_member_queues_nothing(
    case, club, rangliste, enqueued, django_capture_on_commit_callbacks
):
    _organisation, director = club
    if case == "no member":
        director = make_director("leitung-sued", organisation=make_organisation("DK Süd", "dk-sued"))
    with django_capture_on_commit_callbacks(execute=True):
        tournament, round = seated(director, counts=case != "club evening")
        for table in round.tables.order_by("number"):
            enter(table, dict(PLAYERS))
        seating.close_round(round=round, backup=False)
        tournament_services.register_player(tournament=tournament, name="Ida Zwei", club="")
    assert enqueued == []
    rangliste.refresh_from_db()
    assert not rangliste.stale


def test_finding_the_ranglisten_of_a_change_is_one_query(club, rangliste, django_assert_num_queries):
    _organisation, director = club
    tournament, round = seated(director)
    table = round.tables.get(number=1)
    with django_assert_num_queries(1):
        assert rangliste_refresh.ranglisten_reading(tournament_id=tournament.pk, table_id=table.pk) == [rangliste.pk]
    with django_assert_num_queries(1):
        assert rangliste_refresh.ranglisten_reading(tournament_id=tournament.pk, table_id=None) == [rangliste.pk]




@pytest.mark.only_database("postgresql")
@pytest.mark.django_db(transaction=True)
def test_two_ranglistenturniere_save_at_once_when_the_rangliste_is_marked(club, rangliste, enqueued):
    """Every game saved at any member club's Ranglistenturnier comes to the mark: once the Rangliste is
    marked, a save does not write its row again, and so does not wait for another tournament's save whose
    transaction is still open (real threads with their own connections; on SQLite writers wait for each
    other anyway, and two tables of one tournament take the tournament's counter in turn)."""
    import threading

    from django.db import connections, transaction

    _organisation, director = club
    _first, round_1 = seated(director, slug="erstes")
    _second, round_2 = seated(director, slug="zweites")
    rangliste.refresh_from_db()
    assert rangliste.stale  # the publications marked it
    points = dict(PLAYERS)
    a_saved, a_may_commit, b_done = threading.Event(), threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def writer_a():
        try:
            with transaction.atomic():
                enter(round_1.tables.get(number=1), points)
                a_saved.set()
                a_may_commit.wait(30)
        except BaseException as error:  # noqa: BLE001 - reported by the test
            failures.append(error)
            a_saved.set()
        finally:
            connections.close_all()

    def writer_b():
        try:
            enter(round_2.tables.get(number=1), points)
        except BaseException as error:  # noqa: BLE001
            failures.append(error)
        finally:
            b_done.set()
            connections.close_all()

    a = threading.Thread(target=writer_a)
    a.start()
    assert a_saved.wait(30)
    b = threading.Thread(target=writer_b)
    b.start()
    finished_beside_a = b_done.wait(10)
    a_may_commit.set()
    a.join(30)
    b.join(30)
    assert not failures
    assert finished_beside_a, "the second tournament's save waited for the first's open transaction"
    assert rangliste.pk in enqueued
