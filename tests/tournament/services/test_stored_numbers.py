"""The numbers the pages read are stored (`Table.games_entered`, `Table.drafts_waiting`, one `Tally`
per table and player) and kept by the writes that change them: after every kind of write they are
what a fresh count of the games, drafts and scores says (docs/architecture.md, "Where a change goes")."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps as django_apps
from django.db.models import Count, Q, Sum

from tournament import selectors
from tournament.log import audit
from tournament.log.audit import SYSTEM
from tournament.models import DraftGame, Game, Penalty, Round, Score, Table, Tally, Tournament
from tournament.selectors.table_state import board
from tournament.services import (
    exporting,
    importing,
    penalties,
    results,
    scores,
    sheet_state,
    table_links,
    tournaments,
)

from ..factories import make_tournament, normal_game, play_round, seat_ids, seated_round

pytestmark = pytest.mark.django_db


def fresh(tournament: Tournament) -> dict:
    """The numbers counted anew: the games and waiting drafts of each table, and each player's scores
    at each table summed by Django's aggregation."""
    tables = Table.objects.filter(round__tournament=tournament)
    games = dict(
        Game.objects.filter(table__in=tables)
        .order_by()
        .values("table_id")
        .annotate(n=Count("id"))
        .values_list("table_id", "n")
    )
    waiting = dict(
        DraftGame.objects.filter(table__in=tables, status=DraftGame.Status.WAITING)
        .order_by()
        .values("table_id")
        .annotate(n=Count("id"))
        .values_list("table_id", "n")
    )
    sums = (
        Score.objects.filter(table__in=tables)
        .order_by()
        .values("table_id", "entry_id", "round_id")
        .annotate(
            total=Sum("points"),
            played=Sum("games"),
            wins=Count("id", filter=Q(won=True)),
            lone=Count("id", filter=Q(solo=True)),
            totals=Count("id", filter=Q(kind=Score.Kind.TOTAL)),
        )
    )
    return {
        "tables": sorted((t, games.get(t, 0), waiting.get(t, 0)) for t in tables.values_list("id", flat=True)),
        "tallies": sorted(
            (
                s["table_id"],
                s["entry_id"],
                s["round_id"],
                s["total"],
                s["played"],
                s["wins"],
                s["lone"],
                s["totals"] > 0,
            )
            for s in sums
        ),
    }


def stored(tournament: Tournament) -> dict:
    return {
        "tables": sorted(
            Table.objects.filter(round__tournament=tournament).values_list("id", "games_entered", "drafts_waiting")
        ),
        "tallies": sorted(
            Tally.objects.filter(table__round__tournament=tournament).values_list(
                "table_id", "entry_id", "round_id", "points", "games", "won", "solos", "totals_only"
            )
        ),
    }


def assert_kept(tournament: Tournament, what: str) -> None:
    """The stored numbers are the fresh ones, and so is what the pages read from them: the director's
    board (games entered, entries waiting) and the standings (summed from the stored tallies)."""
    counted = fresh(tournament)
    assert stored(tournament) == counted, what
    at_table = {table: (games, waiting) for table, games, waiting in counted["tables"]}
    for round in Round.objects.filter(tournament=tournament).exclude(status=Round.Status.DRAFT):
        on_board = {row.table.pk: (row.games, len(row.waiting)) for row in board(round)}
        assert on_board == {table: at_table[table] for table in on_board}, what
    sums = [
        (round_id, entry_id, points, games, won, solos, int(totals), table_id)
        for table_id, entry_id, round_id, points, games, won, solos, totals in counted["tallies"]
    ]
    recounted = selectors.standings_history(tournament, sums=sums)
    assert selectors.standings_history(tournament).after == recounted.after, what


def test_the_stored_numbers_follow_every_kind_of_write():
    tournament = make_tournament(players=9, slug="gespeichert")
    Tournament.objects.filter(pk=tournament.pk).update(confirmation=Tournament.Confirmation.SECOND_PLAYER)
    round1 = play_round(tournament, games=2)
    assert_kept(tournament, "games saved")
    four, five = sorted(round1.tables.all(), key=lambda t: len(seat_ids(t)))
    assert {len(seat_ids(four)), len(seat_ids(five))} == {4, 5}
    results.save_game(table=four, number=1, data=normal_game(four, 1, re_augen=40))
    assert_kept(tournament, "a game edited")
    results.save_game(
        table=five,
        number=3,
        data={
            "type": "solo",
            "solo": "damen",
            "re": [seat_ids(five)[1]],
            "re_augen": 200,
            "announcements": {"re": None, "kontra": None},
            "extras": {},
        },
    )
    assert_kept(tournament, "a solo")
    penalties.add_penalty(table=four, offender_id=seat_ids(four)[0], game_number=2, note="Falsch bedient")
    assert_kept(tournament, "a penalty")
    penalties.delete_penalty(table=four, penalty_id=four.penalties.get().pk)
    assert_kept(tournament, "a penalty removed")
    results.delete_game(table=five, number=3)
    assert_kept(tournament, "a game deleted")
    for number in (2, 1):
        results.delete_game(table=four, number=number)
    assert_kept(tournament, "every game of a table deleted")
    sheet_state.end_table(table=five, note="Zug fährt")
    assert Table.objects.get(pk=five.pk).ended_after == Game.objects.filter(table=five).count() == 2
    sheet_state.resume_table(table=five)
    assert_kept(tournament, "a table ended and resumed")
    sheet_state.enter_totals(table=four, totals=dict(zip(seat_ids(four), [12, -4, -8, 0], strict=True)))
    assert_kept(tournament, "totals only")
    sheet_state.clear_totals(table=four)
    assert_kept(tournament, "totals cleared")

    round2 = seated_round(tournament, seed="zwei")
    table_links.renew_links(round=round2)
    table = round2.tables.order_by("number").first()
    token = Table.objects.get(pk=table.pk).link_token
    first = table_links.enter_game(
        token=token, number=1, data=normal_game(table, 1), key="k1", device="a" * 16, player_id=seat_ids(table)[0]
    )
    second = table_links.enter_game(
        token=token, number=2, data=normal_game(table, 2), key="k2", device="a" * 16, player_id=seat_ids(table)[0]
    )
    assert Table.objects.get(pk=table.pk).drafts_waiting == 2
    assert_kept(tournament, "two drafts entered")
    table_links.decide_on_link(
        token=token, draft_id=first.pk, confirm=True, device="b" * 16, player_id=seat_ids(table)[1]
    )
    assert_kept(tournament, "a draft confirmed on a phone")
    table_links.decide_as_director(table=table, draft_id=second.pk, confirm=False, by=SYSTEM)
    assert_kept(tournament, "a draft rejected")
    third = table_links.enter_game(
        token=token,
        number=2,
        data=normal_game(table, 2, re_augen=100),
        key="k3",
        device="a" * 16,
        player_id=seat_ids(table)[0],
    )
    table_links.decide_as_director(table=table, draft_id=third.pk, confirm=True, by=SYSTEM)
    assert Table.objects.get(pk=table.pk).drafts_waiting == 0
    assert Table.objects.get(pk=table.pk).games_entered == 2
    assert_kept(tournament, "a draft confirmed by the director")
    table_links.enter_game(token=token, number=3, data=normal_game(table, 3), key="k4", device="a" * 16)
    assert_kept(tournament, "a draft waiting")

    tournaments.update_tournament(tournament=Tournament.objects.get(pk=tournament.pk), fields={}, rules="ddv")
    assert_kept(tournament, "the rules changed")
    assert scores.rebuild_scores(tournament=tournament)
    assert_kept(tournament, "recomputed")

    counts = sorted(Table.objects.filter(round__tournament=tournament).values_list("games_entered", "drafts_waiting"))
    points = sorted(
        Tally.objects.filter(table__round__tournament=tournament).values_list(
            "points", "games", "won", "solos", "totals_only"
        )
    )
    backup = exporting.export_tournament(tournament, backup=False)
    for model in (DraftGame, Game, Penalty, Tournament):  # an empty database (these keep their players)
        model.objects.all().delete()
    copy = importing.import_tournament(backup)
    assert_kept(copy, "imported")
    assert sorted(Table.objects.filter(round__tournament=copy).values_list("games_entered", "drafts_waiting")) == counts
    assert (
        sorted(
            Tally.objects.filter(table__round__tournament=copy).values_list(
                "points", "games", "won", "solos", "totals_only"
            )
        )
        == points
    )


def test_recomputing_writes_wrong_stored_numbers_again():
    """`manage.py recompute_scores` (`scores.rebuild_scores`) puts right what a write outside the
    services left wrong, also where the scores themselves are as they were."""
    tournament = make_tournament(players=8, slug="repariert")
    round = play_round(tournament, games=3)
    table = round.tables.order_by("number").first()
    table_links.renew_links(round=round)
    table_links.enter_game(
        token=Table.objects.get(pk=table.pk).link_token, number=4, data=normal_game(table, 4), key="k1", device="a" * 16
    )
    right = stored(tournament)
    with audit.recording("test", by=SYSTEM, tournament=tournament):  # a shell's mistakes
        Table.objects.filter(pk=table.pk).update(games_entered=0, drafts_waiting=7)
        Tally.objects.filter(table=table).first().delete()
        Tally.objects.filter(table__round__tournament=tournament).exclude(table=table).update(points=99)
    assert stored(tournament) != right
    scores.rebuild_scores(tournament=tournament)
    assert stored(tournament) == right == fresh(tournament)


def test_the_migration_fills_the_stored_numbers_from_the_scores():
    """0027: the numbers of a tournament played before they were stored are filled from its games,
    drafts and scores. Its `fill` runs here on the test database with the numbers taken away, as they
    were before it (the models as they are now: migrating the database back to 0026 and forward again
    costs ten seconds; an empty database goes through 0027 in tests/test_migrations.py)."""
    tournament = make_tournament(players=9, slug="vorher")
    play_round(tournament, games=3)
    round = Table.objects.filter(round__tournament=tournament).first().round
    table = round.tables.order_by("number").last()
    penalties.add_penalty(
        table=table, offender_id=Game.objects.get(table=table, number=1).re[0], game_number=1, note="Karten gezeigt"
    )
    table_links.renew_links(round=round)
    table_links.enter_game(
        token=Table.objects.get(pk=table.pk).link_token, number=4, data=normal_game(table, 4), key="k1", device="a" * 16
    )
    expected = stored(tournament)
    assert expected == fresh(tournament) and expected["tallies"] and any(waiting for *_, waiting in expected["tables"])
    with audit.recording("test", by=SYSTEM, tournament=tournament):  # the numbers as before 0027: none
        Tally.objects.all().delete()
        Table.objects.update(games_entered=0, drafts_waiting=0)
    assert not stored(tournament)["tallies"]
    importlib.import_module("tournament.migrations.0027_stored_tallies").fill(django_apps, None)
    assert stored(tournament) == expected
