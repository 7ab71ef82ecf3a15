"""Several people entering at once: stale forms, double submissions, and real concurrent writers
(threads with their own database connections) on SQLite and on PostgreSQL.

Nothing may be lost, nothing silently overwritten, nobody gets an error page."""

from __future__ import annotations

import threading

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from tournament.errors import Conflict, UserError
from tournament.log.audit import Actor
from tournament.models import DataChange, Entry, Game, Penalty, RequestKey, Round, Score, Seat, Table
from tournament.services import editing, penalties, results, seating, sheet_state, tournaments

from ..factories import make_director, make_tournament, normal_game, re_seats, seat_ids, seated_round


def url(name, table, *extra):
    return reverse(f"tournament:{name}", args=[table.round.tournament.slug, table.round.number, table.number, *extra])


def form_data(table, number, *, version, re_augen=130, **extra):
    data = {"type": "normal", "solo": "", "re_seats": re_seats(table, number), "announcements": "",
            "re_augen": str(re_augen), "re_tricks": "", "extras": "", "action": "save",
            "version": str(version), "number": str(number)}
    data.update(extra)
    return data


# ---- stale forms, one request after another ------------------------------------------------------

@pytest.mark.django_db
class TestStaleForms:
    @pytest.fixture
    def table(self, director):
        tournament = make_tournament(players=8, director=director, slug="herbst")
        table = seated_round(tournament).tables.get(number=1)
        results.save_game(table=table, number=1, data=normal_game(table, 1))
        return table

    def test_two_tabs_on_the_new_game_form_store_one_game_and_show_the_other(self, client, director, table):
        client.force_login(director)
        first = client.get(url("game_new", table)).content.decode()
        second = client.get(url("game_new", table)).content.decode()
        assert "Spiel 2 –" in first and "Spiel 2 –" in second
        assert client.post(url("game_edit", table, 2), form_data(table, 2, version=0, re_augen=140)).status_code == 302
        response = client.post(url("game_edit", table, 2), form_data(table, 2, version=0, re_augen=100))
        page = response.content.decode()
        assert response.status_code == 409
        assert "Spiel 2 wurde inzwischen schon eingetragen." in page
        assert "140 Augen" in page  # the stored game, next to the form with one's own input
        assert sorted(table.games.values_list("number", "re_augen")) == [(1, 130), (2, 140)]
        assert 'name="current_version" value="1"' in page
        # Enter (or "Speichern") on the same form still refuses: only the explicit button overwrites
        response = client.post(url("game_edit", table, 2), form_data(table, 2, version=0, re_augen=100))
        assert response.status_code == 409 and table.games.get(number=2).re_augen == 140
        response = client.post(url("game_edit", table, 2), form_data(table, 2, version=0, re_augen=100,
                                                                  action="overwrite", current_version=1))
        assert response.status_code == 302
        assert table.games.get(number=2).re_augen == 100

    def test_my_game_can_go_in_as_the_next_one(self, client, director, table):
        client.force_login(director)
        client.post(url("game_edit", table, 2), form_data(table, 2, version=0, re_augen=140))
        client.post(url("game_edit", table, 2), form_data(table, 2, version=0, re_augen=100, action="save_next"))
        assert sorted(table.games.values_list("number", "re_augen")) == [(1, 130), (2, 140), (3, 100)]

    def test_a_double_submission_stores_one_game_and_answers_normally(self, client, director, table):
        client.force_login(director)
        data = form_data(table, 2, version=0)
        assert client.post(url("game_edit", table, 2), data).status_code == 302
        response = client.post(url("game_edit", table, 2), data)
        assert response.status_code == 302
        assert table.games.count() == 2

    def test_editing_a_game_someone_changed_shows_both(self, client, director, table):
        client.force_login(director)
        other = make_director("zweite")
        table.round.tournament.directors.add(other)
        results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=150), version=1,
                          by=Actor(user=other))
        response = client.post(url("game_edit", table, 1), form_data(table, 1, version=1, re_augen=90))
        page = response.content.decode()
        assert response.status_code == 409
        assert "Spiel 1 wurde inzwischen geändert." in page and "zweite" in page and "150 Augen" in page
        assert table.games.get(number=1).re_augen == 150

    def test_editing_a_game_someone_deleted_does_not_bring_it_back(self, client, director, table):
        client.force_login(director)
        results.delete_game(table=table, number=1, version=1)
        response = client.post(url("game_edit", table, 1), form_data(table, 1, version=1, re_augen=90))
        assert response.status_code == 409
        assert "Spiel 1 wurde inzwischen gelöscht." in response.content.decode()
        assert not table.games.exists()
        # explicitly: save mine anyway (version 0: a new game)
        assert client.post(url("game_edit", table, 1), form_data(table, 1, version=0)).status_code == 302
        assert table.games.count() == 1

    def test_games_are_entered_in_order(self, client, director, table):
        with pytest.raises(UserError, match="erst Spiel 2, dann Spiel 5"):
            results.save_game(table=table, number=5, data=normal_game(table, 5), version=0)
        client.force_login(director)
        response = client.post(url("game_edit", table, 5), form_data(table, 5, version=0))
        assert response.status_code == 200 and "erst Spiel 2, dann Spiel 5" in response.content.decode()
        response = client.get(url("game_edit", table, 5), follow=True)  # the form: the same rule
        assert "erst Spiel 2, dann Spiel 5" in response.content.decode()
        assert table.games.count() == 1

    def test_a_deleted_game_leaves_a_gap_that_is_filled_next(self, table):
        for number in (2, 3):
            results.save_game(table=table, number=number, data=normal_game(table, number), version=0)
        results.delete_game(table=table, number=2, version=1)
        assert editing.next_game_number(table) == 2
        with pytest.raises(UserError):
            results.save_game(table=table, number=4, data=normal_game(table, 4), version=0)
        results.save_game(table=table, number=2, data=normal_game(table, 2), version=0)

    def test_game_numbers_outside_the_table_are_not_found(self, client, director, table):
        client.force_login(director)
        assert client.get(url("game_edit", table, 0)).status_code == 404
        assert client.get(url("game_edit", table, 9)).status_code == 404
        assert client.post(url("game_edit", table, 0), form_data(table, 1, version=0)).status_code == 404

    def test_deleting_a_game_that_does_not_exist_answers_normally(self, client, director, table):
        client.force_login(director)
        response = client.post(url("game_delete", table, 99), {"confirm": "yes"}, follow=True)
        assert response.status_code == 200
        assert "Spiel 99 gibt es an diesem Tisch nicht (mehr)." in response.content.decode()

    def test_deleting_a_game_changed_meanwhile_deletes_nothing(self, table):
        results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=150), version=1)
        with pytest.raises(Conflict):
            results.delete_game(table=table, number=1, version=1)
        assert table.games.count() == 1

    def test_a_penalty_sent_twice_is_entered_once(self, client, director, table):
        client.force_login(director)
        data = {"key": "f" * 32, "offender": seat_ids(table)[1], "game_number": "", "note": ""}
        client.post(url("penalty_add", table), data)
        client.post(url("penalty_add", table), data)
        assert Penalty.objects.count() == 1 and RequestKey.objects.count() == 1

    def test_clearing_totals_of_a_table_entered_game_by_game_keeps_its_scores(self, client, director, table):
        client.force_login(director)
        before = list(Score.objects.filter(table=table).values_list("entry_id", "points"))
        shown = Table.objects.get(pk=table.pk).version
        response = client.post(url("table_totals", table), {"action": "clear", "version": shown})
        assert "keine Endstände eingetragen" in response.content.decode()
        assert list(Score.objects.filter(table=table).values_list("entry_id", "points")) == before

    def test_signing_a_sheet_that_changed_since_it_was_shown_is_refused(self, client, director, table):
        client.force_login(director)
        shown = Table.objects.get(pk=table.pk).version
        results.save_game(table=table, number=2, data=normal_game(table, 2), version=0)
        response = client.post(url("table_sign", table), {"version": shown, "note": "alle"}, follow=True)
        assert "wurde inzwischen geändert" in response.content.decode()
        assert not Table.objects.get(pk=table.pk).is_locked
        client.post(url("table_sign", table), {"version": Table.objects.get(pk=table.pk).version, "note": "alle"})
        assert Table.objects.get(pk=table.pk).is_locked

    def test_a_signing_note_that_is_too_long_is_not_dropped_silently(self, client, director, table):
        client.force_login(director)
        response = client.post(url("table_sign", table), {"version": table.version, "note": "x" * 301}, follow=True)
        assert "höchstens 300 Zeichen" in response.content.decode()
        assert not Table.objects.get(pk=table.pk).is_locked

    def test_signing_needs_a_published_round(self, table):
        sheet_state.sign_table(table=table)
        seating.close_round(round=table.round, backup=False)
        table.refresh_from_db()
        with pytest.raises(UserError, match="veröffentlichten, nicht abgeschlossenen"):
            sheet_state.unlock_table(table=table)


@pytest.mark.django_db
def test_a_round_created_twice_is_created_once(client, director):
    tournament = make_tournament(players=8, director=director, slug="herbst")
    seated_round(tournament)
    client.force_login(director)
    overview = client.get(reverse("tournament:overview", args=[tournament.slug])).content.decode()
    assert 'name="number" value="2"' in overview
    for _ in range(2):
        response = client.post(reverse("tournament:round_create", args=[tournament.slug]), {"number": "2"})
        assert response.status_code == 302 and response["Location"].endswith("/rounds/2/")
    assert list(tournament.rounds.values_list("number", flat=True)) == [1, 2]


@pytest.mark.django_db
def test_a_round_action_after_another_change_shows_it_and_can_be_done_anyway(client, director):
    tournament = make_tournament(players=9, director=director, slug="herbst")
    round = seated_round(tournament, publish=False)
    shown = Round.objects.get(pk=round.pk).version
    a, b = seat_ids(round.tables.get(number=1))[0], seat_ids(round.tables.get(number=2))[0]
    seating.seat_round(round=round, seed="andere", version=shown)  # someone else draws again
    client.force_login(director)
    path = reverse("tournament:round_swap", args=[tournament.slug, 1])
    response = client.post(path, {"first": a, "second": b, "version": shown, "key": "k1"})
    page = response.content.decode()
    assert response.status_code == 409
    assert "Runde 1 wurde inzwischen geändert." in page and "Tische ausgelost" in page
    assert "„Tauschen“ trotzdem ausführen" in page
    seats_before = dict(Seat.objects.filter(round=round).values_list("entry_id", "table_id"))
    current = Round.objects.get(pk=round.pk).version
    client.post(path, {"first": a, "second": b, "version": current, "key": "k2"})
    seats_after = dict(Seat.objects.filter(round=round).values_list("entry_id", "table_id"))
    assert seats_after[a] == seats_before[b] and seats_after[b] == seats_before[a]


@pytest.mark.django_db
def test_a_swap_sent_twice_swaps_once(client, director):
    tournament = make_tournament(players=8, director=director, slug="herbst")
    round = seated_round(tournament, publish=False)
    a, b = seat_ids(round.tables.get(number=1))[0], seat_ids(round.tables.get(number=2))[0]
    client.force_login(director)
    data = {"first": a, "second": b, "version": Round.objects.get(pk=round.pk).version, "key": "einmal"}
    path = reverse("tournament:round_swap", args=[tournament.slug, 1])
    client.post(path, data)
    client.post(path, data)
    assert Seat.objects.get(round=round, entry_id=a).table.number == 2


@pytest.mark.django_db
def test_status_actions_in_the_wrong_state_are_refused():
    tournament = make_tournament(players=8)
    draft = seated_round(tournament, publish=False)
    with pytest.raises(UserError, match="Entwurf und hat keine Ergebnisse"):
        seating.hide_results(round=draft)
    table = draft.tables.first()
    with pytest.raises(UserError, match="veröffentlichten"):
        sheet_state.sign_table(table=table)
    assert not Round.objects.get(pk=draft.pk).results_hidden


@pytest.mark.django_db
def test_games_per_table_cannot_drop_below_an_entered_game():
    tournament = make_tournament(players=8)
    table = seated_round(tournament).tables.first()
    for number in range(1, 7):
        results.save_game(table=table, number=number, data=normal_game(table, number))
    with pytest.raises(UserError, match="schon Spiel 6 eingetragen"):
        tournaments.update_tournament(tournament=tournament, fields={"games_at_table_of_4": 5},
                                      rules=tournament.rules)
    tournaments.update_tournament(tournament=tournament, fields={"games_at_table_of_4": 6}, rules=tournament.rules)


# ---- real concurrent writers ----------------------------------------------------------------------

def together(*functions):
    """Runs the functions at the same moment, each in a thread with its own database connection;
    returns what each returned or raised."""
    barrier = threading.Barrier(len(functions))
    outcome: list = [None] * len(functions)

    def run(index, function):
        try:
            barrier.wait(timeout=30)
            outcome[index] = function()
        except Exception as error:  # noqa: BLE001 - the test looks at what each writer got
            outcome[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, f)) for i, f in enumerate(functions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return outcome


RACES = 8


@pytest.mark.django_db(transaction=True)
def test_two_directors_saving_the_same_new_game_at_once():
    """Each race: two people save game 2 of a table with different input at the same moment. One
    is stored, the other is told (Conflict) and nothing of it is stored: never both 'saved'."""
    tournament = make_tournament(players=4 * RACES)
    round = seated_round(tournament)
    for table in round.tables.all():
        results.save_game(table=table, number=1, data=normal_game(table, 1))
    for table in round.tables.all():
        got = together(
            lambda t=table: results.save_game(table=t, number=2, data=normal_game(t, 2, re_augen=140), version=0),
            lambda t=table: results.save_game(table=t, number=2, data=normal_game(t, 2, re_augen=100), version=0))
        saved = [g for g in got if isinstance(g, Game)]
        refused = [g for g in got if isinstance(g, Conflict)]
        assert len(saved) == 1 and len(refused) == 1, got
        assert list(table.games.filter(number=2).values_list("re_augen", flat=True)) == [saved[0].re_augen]
        assert sum(Score.objects.filter(table=table).values_list("points", flat=True)) == 0


@pytest.mark.django_db(transaction=True)
def test_the_same_game_sent_twice_at_once_is_stored_once():
    tournament = make_tournament(players=8)
    table = seated_round(tournament).tables.get(number=1)
    data = normal_game(table, 1)
    got = together(*[lambda: results.save_game(table=table, number=1, data=data, version=0)] * 3)
    assert all(isinstance(g, Game) for g in got), got
    assert table.games.count() == 1 and len({g.pk for g in got}) == 1


@pytest.mark.django_db(transaction=True)
def test_players_registered_at_once_get_distinct_start_numbers():
    tournament = make_tournament(players=0)
    got = together(*[(lambda n=n: tournaments.register_player(tournament=tournament, name=f"Spieler {n}"))
                     for n in range(8)])
    assert all(isinstance(e, Entry) for e in got), got
    assert sorted(tournament.entries.values_list("start_number", flat=True)) == list(range(1, 9))


@pytest.mark.django_db(transaction=True)
def test_the_next_round_created_twice_at_once_is_created_once():
    tournament = make_tournament(players=8)
    seated_round(tournament)
    got = together(*[lambda: seating.create_round(tournament=tournament, number=2)] * 3)
    assert all(isinstance(r, Round) for r in got), got
    assert list(tournament.rounds.values_list("number", flat=True)) == [1, 2]


@pytest.mark.django_db(transaction=True)
def test_a_penalty_sent_twice_at_once_is_entered_once():
    tournament = make_tournament(players=8)
    table = seated_round(tournament).tables.get(number=1)
    offender = seat_ids(table)[0]
    got = together(*[lambda: penalties.add_penalty(table=table, offender_id=offender, key="doppelt")] * 3)
    assert all(isinstance(p, Penalty) for p in got), got
    assert table.penalties.count() == 1


@pytest.mark.django_db(transaction=True)
def test_signing_while_someone_edits_never_takes_an_edit_after_the_signature():
    """Sign (as the sheet was shown) and save a changed game at the same moment: either the game
    is saved and the signature refused, or the sheet is signed and the game refused."""
    tournament = make_tournament(players=4 * RACES)
    round = seated_round(tournament)
    for table in round.tables.all():
        results.save_game(table=table, number=1, data=normal_game(table, 1))
    for table in round.tables.all():
        shown = Table.objects.get(pk=table.pk).version
        got = together(
            lambda t=table, v=shown: sheet_state.sign_table(table=t, version=v, note="alle vier"),
            lambda t=table: results.save_game(table=t, number=1, data=normal_game(t, 1, re_augen=90), version=1))
        signed, edited = got
        fresh = Table.objects.get(pk=table.pk)
        if isinstance(edited, Game):
            assert isinstance(signed, Conflict) and not fresh.is_locked
        else:
            assert signed is None and isinstance(edited, UserError) and fresh.is_locked
            assert table.games.get(number=1).re_augen == 130


@pytest.mark.django_db(transaction=True)
def test_pages_answer_concurrent_saves_without_an_error_page():
    """Through the pages (two browsers): one is saved (302), the other sees the conflict (409)."""
    director = make_director()
    tournament = make_tournament(players=8, director=director, slug="herbst")
    table = seated_round(tournament).tables.get(number=1)

    def post(re_augen):
        client = Client()
        client.force_login(director)
        return client.post(url("game_edit", table, 1), form_data(table, 1, version=0, re_augen=re_augen)).status_code

    got = together(lambda: post(140), lambda: post(100))
    assert sorted(got) == [302, 409], got
    assert table.games.count() == 1
    assert DataChange.objects.filter(tournament=tournament).exists()


@pytest.mark.only_database("postgresql")
@pytest.mark.django_db(transaction=True)
def test_the_same_backup_restored_twice_at_once_is_restored_once():
    """Found by a tester: on PostgreSQL both restores passed the check of the short name and the second
    failed with an IntegrityError (a 500). Now it is told the name is taken; nothing of it is saved."""
    from tournament.models import Tournament
    from tournament.services.exporting import export_tournament
    from tournament.services.importing import import_tournament

    director = make_director()
    original = make_tournament(players=8, director=director, slug="herbst")
    seated_round(original)
    document = export_tournament(original)
    entries_before = Entry.objects.count()
    got = together(*[lambda: import_tournament(document, director=director, slug="kopie")] * 2)
    restored = [g for g in got if isinstance(g, Tournament)]
    refused = [g for g in got if isinstance(g, UserError)]
    assert len(restored) == 1 and len(refused) == 1, got
    assert refused[0].message == "Den Kurznamen kopie hat schon ein anderes Turnier." and refused[0].field == "slug"
    assert Tournament.objects.filter(slug="kopie").count() == 1
    assert Entry.objects.count() == entries_before + 8  # the refused one left nothing behind


@pytest.mark.only_database("postgresql")
@pytest.mark.django_db(transaction=True)
def test_two_tournaments_of_the_same_name_created_at_once_get_two_short_names():
    import datetime

    got = together(*[lambda: tournaments.create_tournament(name="Herbstturnier", date=datetime.date(2026, 11, 21))] * 3)
    assert all(not isinstance(g, Exception) for g in got), got
    assert sorted(g.slug for g in got) == ["herbstturnier", "herbstturnier-2", "herbstturnier-3"]
