"""Entering games and penalties, recomputation after edits, totals-only tables, sign-off."""

import pytest
from django.db import transaction

from tournament.errors import EntryProblems, UserError
from tournament.log import audit
from tournament.models import Score
from tournament.selectors import standings, table_sheet
from tournament.services import penalties, results, scores, seating, sheet_state

from ..factories import make_tournament, normal_game, seat_ids, seated_round

pytestmark = pytest.mark.django_db


def table_total(table):
    return sum(Score.objects.filter(table=table).values_list("points", flat=True))


def test_game_is_scored_and_stored_with_breakdown():
    tournament = make_tournament(players=8)
    table = seated_round(tournament).tables.get(number=1)
    game = results.save_game(table=table, data=normal_game(table, announcements={"re": "re", "kontra": None}))
    ids = seat_ids(table)
    assert game.number == 1 and game.dealer_id == ids[0] and game.sitting_out_id is None
    assert game.winner == "re" and game.value == 2
    assert game.breakdown == [["keine 120", 1, "keine120", {}], ["Re angesagt", "x2", "announced", {"party": "re"}]]
    points = dict(Score.objects.filter(game=game).values_list("entry_id", "points"))
    assert points == {ids[0]: 2, ids[1]: 2, ids[2]: -2, ids[3]: -2}


def test_table_of_five_dealer_sits_out():
    tournament = make_tournament(players=9)
    round = seated_round(tournament)
    table = next(t for t in round.tables.all() if t.seats.count() == 5)
    ids = seat_ids(table)
    for number in (1, 2):
        results.save_game(table=table, number=number, data=normal_game(table, number))
    game = results.save_game(table=table, number=3, data=normal_game(table, 3))
    assert game.dealer_id == ids[2] and game.sitting_out_id == ids[2]
    assert not Score.objects.filter(game=game, entry_id=ids[2]).exists()


def test_invalid_game_is_rejected_with_the_engines_messages_and_nothing_saved():
    tournament = make_tournament(players=8)
    table = seated_round(tournament).tables.get(number=1)
    with pytest.raises(EntryProblems) as error:
        results.save_game(table=table, data=normal_game(table, re_augen=250))
    assert error.value.by_field("de") == {"re_augen": ["Muss zwischen 0 und 240 liegen, nicht 250."]}
    assert not table.games.exists()


def test_editing_an_earlier_game_recomputes_the_nullspiel_doubling_after_it():
    tournament = make_tournament(players=8)
    table = seated_round(tournament).tables.get(number=1)
    results.save_game(table=table, data=normal_game(table, 1))
    second = results.save_game(table=table, data=normal_game(table, 2))
    assert second.multiplier == 1
    # game 1 becomes a Nullspiel: Re wins, Kontra's Sonderpunkte cancel the point
    results.save_game(table=table, number=1,
                      data=normal_game(table, 1, extras={"kontra": {"fuchs": 1}}))
    second.refresh_from_db()
    assert second.multiplier == 2 and second.value == 2
    assert table_total(table) == 0
    results.delete_game(table=table, number=1)
    second.refresh_from_db()
    assert second.multiplier == 1


def test_penalty_scores_and_keeps_zero_sum():
    tournament = make_tournament(players=8)
    table = seated_round(tournament).tables.get(number=1)
    ids = seat_ids(table)
    results.save_game(table=table, data=normal_game(table))
    penalties.add_penalty(table=table, offender_id=ids[3])
    sheet = table_sheet(table)
    assert sheet.totals == [1 + 2, 1 + 2, -1 + 2, -1 - 6]
    assert sheet.total_sum == 0


def test_penalty_at_a_table_of_five_needs_the_game():
    tournament = make_tournament(players=9)
    table = next(t for t in seated_round(tournament).tables.all() if t.seats.count() == 5)
    ids = seat_ids(table)
    with pytest.raises(UserError):
        penalties.add_penalty(table=table, offender_id=ids[1])
    with pytest.raises(UserError):  # seat 1 deals game 1 and sits out
        penalties.add_penalty(table=table, offender_id=ids[0], game_number=1)
    penalty = penalties.add_penalty(table=table, offender_id=ids[1], game_number=1)
    assert penalty.players == ids[1:]
    assert table_total(table) == 0


def test_no_entries_before_publishing_or_after_signing():
    tournament = make_tournament(players=8)
    round = seating.create_round(tournament=tournament)
    seating.seat_round(round=round, seed="x")
    table = round.tables.get(number=1)
    with pytest.raises(UserError, match="nicht veröffentlicht"):
        results.save_game(table=table, data=normal_game(table))
    seating.publish_round(round=round)
    table.refresh_from_db()
    sheet_state.sign_table(table=table)
    table.refresh_from_db()
    with pytest.raises(UserError, match="gesperrt"):
        results.save_game(table=table, data=normal_game(table))
    sheet_state.unlock_table(table=table)
    table.refresh_from_db()
    assert results.save_game(table=table, data=normal_game(table)).number == 1


def test_totals_only_must_sum_to_zero_and_are_marked_in_the_standings():
    tournament = make_tournament(players=8)
    table = seated_round(tournament).tables.get(number=1)
    ids = seat_ids(table)
    with pytest.raises(UserError, match="ergeben zusammen 1"):
        sheet_state.enter_totals(table=table, totals={ids[0]: 10, ids[1]: -5, ids[2]: -4, ids[3]: 0})
    sheet_state.enter_totals(table=table, totals={ids[0]: 10, ids[1]: -5, ids[2]: -5, ids[3]: 0})
    rows = {row.entry_id: row for row in standings(tournament)}
    assert rows[ids[0]].points == 10 and rows[ids[0]].totals_only and rows[ids[0]].games == 8
    with pytest.raises(UserError):
        results.save_game(table=table, data=normal_game(table))


def test_changing_the_rules_recomputes_every_table():
    tournament = make_tournament(players=8)
    table = seated_round(tournament).tables.get(number=1)
    game = results.save_game(table=table, data=normal_game(table, announcements={"re": "keine90", "kontra": None},
                                                           re_augen=130))
    assert game.value == 8  # turnier: (keine 120, keine 90 verloren, keine 90 angesagt, gegen die Alten) x2
    with transaction.atomic(), audit.recording("settings_changed", by=audit.SYSTEM, tournament=tournament):
        scores.change_rules(tournament=tournament, rules="ddv")
    game.refresh_from_db()
    assert game.value == 5 and tournament.rules == "ddv"


def test_rules_change_that_invalidates_a_game_rolls_back():
    tournament = make_tournament(players=8)
    table = seated_round(tournament).tables.get(number=1)
    results.save_game(table=table, data=normal_game(table, extras={"re": {"karlchen": 1}}))
    with (pytest.raises(EntryProblems) as error, transaction.atomic(),
          audit.recording("settings_changed", by=audit.SYSTEM, tournament=tournament)):
        scores.change_rules(tournament=tournament, rules={"preset": "turnier", "sonderpunkte": ["fuchs"]})
    assert error.value.lines("de")[0] == ("Runde 1, Tisch 1, Spiel 1: Re, Karlchen: „Karlchen“ ist in diesem Regelwerk "
                                         "kein Sonderpunkt; es hat: Fuchs gefangen.")
    tournament.refresh_from_db()
    assert tournament.rules == "turnier"


def test_standings_share_ranks_on_ties_and_sum_to_zero():
    tournament = make_tournament(players=8)
    round = seated_round(tournament)
    for table in round.tables.all():
        results.save_game(table=table, data=normal_game(table))
    rows = standings(tournament)
    assert sum(r.points for r in rows) == 0
    assert [r.rank for r in rows] == [1, 1, 1, 1, 5, 5, 5, 5]
    assert all(r.games == 1 for r in rows)
