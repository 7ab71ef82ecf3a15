"""The change log: every change is recorded with who, when, what before and after; the director
reads it per tournament, round and table, and restores earlier versions of games and penalties."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.log import changelog
from tournament.log.audit import Actor
from tournament.models import DataChange, Game, Penalty, Round
from tournament.services import penalties, results, seating, sheet_state, tournaments

from ..factories import make_director, make_tournament, normal_game, seat_ids, seated_round

pytestmark = pytest.mark.django_db


def newest(tournament):
    return changelog.entries(tournament, limit=1)[0]


@pytest.fixture
def table(director):
    tournament = make_tournament(players=9, director=director, slug="herbst")
    return seated_round(tournament).tables.get(number=1)


def test_every_kind_of_change_is_recorded_with_who_and_where(director):
    """One action after another, each must leave a log entry saying what it was."""
    by = Actor(user=director)
    tournament = make_tournament(players=9, director=director, slug="herbst")
    get_user_model().objects.create_user("helfer", password="pw-helfer")

    def check(action, kind, *, round_number=None, table_number=None, changes=1):
        entry = newest(tournament)
        assert (entry.action, entry.kind, entry.round, entry.table) == (action, kind, round_number, table_number)
        assert entry.user == "leitung" and entry.label
        return entry

    counter = DataChange.objects.filter(tournament=tournament).count
    before = counter()
    tournaments.update_tournament(tournament=tournament, fields={"place": "Lübeck"}, rules="ddv", by=by)
    entry = check("settings_changed", "tournament")
    assert "Lübeck" in entry.after_text and "ddv" in entry.after_text and "ddv" not in entry.before_text
    tournaments.set_role(tournament=tournament, username="helfer", role="helper", add=True, by=by)
    assert "helfer" in check("roles_changed", "tournament").after_text
    entry = tournaments.register_player(tournament=tournament, name="Zoe", club="DK Süd", by=by)
    assert "Zoe" in check("player_registered", "player").after_text
    tournaments.withdraw_player(entry=entry, by=by)
    check("player_withdrawn", "player")
    tournaments.return_player(entry=entry, by=by)
    check("player_returned", "player")
    round = seating.create_round(tournament=tournament, by=by)
    check("round_created", "round", round_number=1)
    seating.seat_round(round=round, seed="s", by=by)
    assert "10 Spieler" in check("round_drawn", "round", round_number=1).after_text
    first, second = seat_ids(round.tables.get(number=1))[0], seat_ids(round.tables.get(number=2))[0]
    seating.swap_players(round=round, first_id=first, second_id=second, by=by)
    assert "Tisch 2" in check("seats_swapped", "round", round_number=1).after_text
    seating.publish_round(round=round, by=by)
    assert "veröffentlicht" in check("round_published", "round", round_number=1).after_text
    table = round.tables.get(number=1)
    results.save_game(table=table, number=1, data=normal_game(table, 1), version=0, by=by)
    assert "Normalspiel" in check("game_saved", "game", round_number=1, table_number=1).after_text
    results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=150), version=1, by=by)
    entry = check("game_saved", "game", round_number=1, table_number=1)
    assert "130 Augen" in entry.before_text and "150 Augen" in entry.after_text
    penalty = penalties.add_penalty(table=table, offender_id=seat_ids(table)[1], game_number=1, note="gelegt", by=by)
    assert "gelegt" in check("penalty_added", "penalty", round_number=1, table_number=1).after_text
    penalties.delete_penalty(table=table, penalty_id=penalty.pk, by=by)
    assert check("penalty_deleted", "penalty", round_number=1, table_number=1).deleted
    results.delete_game(table=table, number=1, by=by)
    entry = check("game_deleted", "game", round_number=1, table_number=1)
    assert entry.deleted and "150 Augen" in entry.before_text
    other = round.tables.get(number=2)
    ids = seat_ids(other)
    totals = {ids[0]: 10, ids[1]: -10, **{e: 0 for e in ids[2:]}}
    sheet_state.enter_totals(table=other, totals=totals, by=by)
    entered = check("totals_entered", "table", round_number=1, table_number=2).after_text
    assert "+10" in entered and "−10" in entered and "-10" not in entered
    sheet_state.clear_totals(table=other, by=by)
    check("totals_cleared", "table", round_number=1, table_number=2)
    sheet_state.sign_table(table=other, note="alle fünf", by=by)
    assert "alle fünf" in check("table_signed", "table", round_number=1, table_number=2).after_text
    sheet_state.unlock_table(table=other, by=by)
    check("table_unlocked", "table", round_number=1, table_number=2)
    seating.hide_results(round=round, by=by)
    check("results_hidden", "round", round_number=1)
    seating.show_results(round=round, by=by)
    check("results_shown", "round", round_number=1)
    seating.close_round(round=round, by=by, backup=False)
    check("round_closed", "round", round_number=1)
    seating.reopen_round(round=round, by=by)
    check("round_reopened", "round", round_number=1)
    assert counter() - before == 22  # one change counter row per action


def test_a_change_that_changes_nothing_is_not_recorded(table):
    results.save_game(table=table, number=1, data=normal_game(table, 1), version=0)
    count = len(changelog.entries(table.round.tournament))
    results.save_game(table=table, number=1, data=normal_game(table, 1), version=0)  # sent twice
    seating.publish_round(round=table.round)  # published already
    assert len(changelog.entries(table.round.tournament)) == count


def test_the_log_page_newest_first_with_filters(client, director, table):
    tournament = table.round.tournament
    results.save_game(table=table, number=1, data=normal_game(table, 1), version=0, by=Actor(user=director))
    other = table.round.tables.get(number=2)
    results.save_game(table=other, number=1, data=normal_game(other, 1), version=0, by=Actor(user=director))
    client.force_login(director)
    log_url = reverse("tournament:log", args=[tournament.slug])
    page = client.get(log_url).content.decode()
    assert page.index("R1 T2") < page.index("R1 T1") < page.index("Runde veröffentlicht")
    assert "Spieler angemeldet" in page and "Turnier angelegt" in page
    only = client.get(log_url, {"round": 1, "table": 1}).content.decode()
    assert "R1 T1" in only and "R1 T2" not in only and "Spieler angemeldet" not in only
    sheet = client.get(reverse("tournament:table", args=[tournament.slug, 1, 1])).content.decode()
    assert "Änderungen an diesem Tisch" in sheet and "Spiel gespeichert" in sheet


def test_the_log_page_runs_a_fixed_number_of_queries(client, director):
    counts = []
    for players, slug in ((8, "klein"), (24, "gross")):
        tournament = make_tournament(players=players, director=director, slug=slug)
        round = seated_round(tournament)
        for table in round.tables.all():
            for number in (1, 2):
                results.save_game(table=table, number=number, data=normal_game(table, number))
            results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=100))
        client.force_login(director)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("tournament:log", args=[slug])).status_code == 200
        counts.append(len(queries))
    # session, user, role, tournament, rounds for the filter, and for each kind of record (10 kinds, teams,
    # registrations and correction requests too) one query and one for the records before those of the page
    # (only kinds on the page: here 5)
    assert counts[0] == counts[1] and counts[0] == 20, counts


def test_restoring_an_earlier_version_of_a_game(client, director, table):
    results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=130), version=0)
    results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=90), version=1)
    first = Game.history.filter(number=1).order_by("history_id").first()
    client.force_login(director)
    path = reverse("tournament:restore", args=[table.round.tournament.slug, 1, 1, "game", first.history_id])
    response = client.post(path, {"next": reverse("tournament:log", args=[table.round.tournament.slug])})
    assert response.status_code == 302 and response["Location"].endswith("/log/")
    game = table.games.get(number=1)
    assert game.re_augen == 130 and game.version == 3
    entry = newest(table.round.tournament)
    assert entry.action == "game_restored" and "90 Augen" in entry.before_text and "130 Augen" in entry.after_text


def test_undoing_deletes_of_a_game_and_a_penalty(client, director, table):
    results.save_game(table=table, number=1, data=normal_game(table, 1), version=0)
    offender = seat_ids(table)[1]
    penalty = penalties.add_penalty(table=table, offender_id=offender, game_number=1, note="Revoke")
    penalties.delete_penalty(table=table, penalty_id=penalty.pk)
    results.delete_game(table=table, number=1)
    client.force_login(director)
    slug = table.round.tournament.slug
    page = client.get(reverse("tournament:log", args=[slug])).content.decode()
    assert page.count("Löschen rückgängig machen") == 2
    game_deleted = Game.history.get(history_type="-")
    penalty_deleted = Penalty.history.get(history_type="-")
    client.post(reverse("tournament:restore", args=[slug, 1, 1, "game", game_deleted.history_id]))
    client.post(reverse("tournament:restore", args=[slug, 1, 1, "penalty", penalty_deleted.history_id]))
    assert table.games.get().re_augen == 130
    restored = table.penalties.get()
    assert (restored.offender_id, restored.game_number, restored.note) == (offender, 1, "Revoke")
    assert [e.action for e in changelog.entries(table.round.tournament, limit=2)] == [
        "penalty_restored", "game_restored"]


def test_only_directors_restore(client, table):
    results.save_game(table=table, number=1, data=normal_game(table, 1), version=0)
    helper = make_director("helfer")
    table.round.tournament.helpers.add(helper)
    record = Game.history.get()
    client.force_login(helper)
    slug = table.round.tournament.slug
    response = client.post(reverse("tournament:restore", args=[slug, 1, 1, "game", record.history_id]), follow=True)
    assert "Nur die Turnierleitung" in response.content.decode()
    # the helper reads the log, without the buttons to restore
    log = client.get(reverse("tournament:log", args=[slug]))
    assert log.status_code == 200 and "Diese Fassung wiederherstellen" not in log.content.decode()
    # a record of another table (or another tournament) is not restored through this table
    client.force_login(table.round.tournament.directors.get())
    other = reverse("tournament:restore", args=[slug, 1, 2, "game", record.history_id])
    assert client.post(other).status_code == 404


def test_who_made_a_change_through_the_pages(client, director, table):
    client.force_login(director)
    from ..services.test_concurrency import form_data

    client.post(reverse("tournament:game_edit", args=[table.round.tournament.slug, 1, 1, 1]),
                form_data(table, 1, version=0))
    record = Game.history.get()
    assert record.history_user == director and record.log_user == "leitung"
    assert record.log_detail["row"]["re_augen"] == 130
    assert Round.history.filter(log_tournament=table.round.tournament_id).exists()


def swap_names(first, second):
    """Two players swap names (a mix-up at registration corrected): each entry keeps its results."""
    from tournament.services.tournaments import edit_player

    one, two = first.player.name, second.player.name
    edit_player(entry=first, name="Zwischenname", club=first.player.club)
    edit_player(entry=second, name=one, club=second.player.club)
    edit_player(entry=first, name=two, club=first.player.club)


def test_restoring_a_deleted_penalty_twice_enters_it_once(client, director, table):
    """Two clicks (or two tabs) on the same deleted penalty: the first restores it, the second finds
    it there and changes nothing."""
    results.save_game(table=table, number=1, data=normal_game(table, 1), version=0)
    penalty = penalties.add_penalty(table=table, offender_id=seat_ids(table)[1], game_number=1, note="Revoke")
    penalties.delete_penalty(table=table, penalty_id=penalty.pk)
    deleted = Penalty.history.get(history_type="-")
    client.force_login(director)
    path = reverse("tournament:restore", args=[table.round.tournament.slug, 1, 1, "penalty", deleted.history_id])
    client.post(path)
    response = client.post(path, follow=True)
    assert table.penalties.count() == 1
    assert "schon wiederhergestellt" in response.content.decode()
    assert [e.action for e in changelog.entries(table.round.tournament, limit=2)] == [
        "penalty_restored", "penalty_deleted"]
    # deleted again, the same record restores it again
    penalties.delete_penalty(table=table, penalty_id=table.penalties.get().pk)
    client.post(path)
    assert table.penalties.count() == 1


def test_restoring_a_deleted_game_twice_changes_nothing_the_second_time(client, director, table):
    results.save_game(table=table, number=1, data=normal_game(table, 1), version=0)
    results.delete_game(table=table, number=1)
    deleted = Game.history.get(history_type="-")
    client.force_login(director)
    path = reverse("tournament:restore", args=[table.round.tournament.slug, 1, 1, "game", deleted.history_id])
    client.post(path)
    client.post(path)
    assert table.games.get().version == 1
    assert [e.action for e in changelog.entries(table.round.tournament, limit=2)] == [
        "game_restored", "game_deleted"]


def test_restore_finds_the_players_by_identity_not_by_name(client, director, table):
    """A penalty and a game are restored to the entries they were about, also after a rename and after
    two players swapped names."""
    seated = list(table.seats.order_by("position").select_related("entry__player"))
    offender = seated[1].entry
    results.save_game(table=table, number=1, data=normal_game(table, 1), version=0)
    re_party = table.games.get().re
    penalty = penalties.add_penalty(table=table, offender_id=offender.pk, game_number=1, note="Revoke")
    penalties.delete_penalty(table=table, penalty_id=penalty.pk)
    results.delete_game(table=table, number=1)
    swap_names(offender, seated[2].entry if seated[2].entry_id not in re_party else seated[3].entry)
    from tournament.services.tournaments import edit_player

    edit_player(entry=seated[0].entry, name="Neuer Name", club="")  # a renamed Re player
    client.force_login(director)
    slug = table.round.tournament.slug
    client.post(reverse("tournament:restore", args=[slug, 1, 1, "penalty",
                                                    Penalty.history.get(history_type="-").history_id]))
    client.post(reverse("tournament:restore", args=[slug, 1, 1, "game",
                                                    Game.history.get(history_type="-").history_id]))
    assert table.penalties.get().offender_id == offender.pk
    assert table.games.get().re == re_party
