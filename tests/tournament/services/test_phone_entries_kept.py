"""A game entered at the table is never lost or silently replaced:
every phone entry carries the version it saw, a mismatch waits as a conflict the director resolves on the
board, rejected entries can be corrected or cleared, the server says who a device is, waiting entries are
bounded, and every answer of games.json names the game it is about."""

from __future__ import annotations

import json

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from tournament import engine
from tournament.errors import Conflict
from tournament.models import DraftGame, Game, Score, Table, Tournament
from tournament.selectors import table_state
from tournament.services import results, table_links
from tournament.views import table_link

from ..factories import make_director, make_tournament, normal_game, seat_ids, seated_round
from .test_concurrency import together

pytestmark = pytest.mark.django_db


def make_table(director, confirmation=Tournament.Confirmation.SECOND_PLAYER, slug="handy"):
    tournament = make_tournament(players=8, director=director, slug=slug)
    tournament.confirmation = confirmation
    tournament.save()
    return seated_round(tournament).tables.get(number=1)


def token(table) -> str:
    return Table.objects.get(pk=table.pk).link_token


def phone(device: str | None) -> Client:
    """A phone that the server knows as `device` (its signed cookie); None: one without a cookie."""
    client = Client()
    if device is not None:
        signer = signing.get_cookie_signer(salt=table_link.DEVICE_COOKIE + table_link.DEVICE_SALT)
        client.cookies[table_link.DEVICE_COOKIE] = signer.sign(device.ljust(16, "0"))
    return client


def post(client, table, name, body, *args):
    return client.post(reverse(f"table_link_{name}", args=[token(table), *args]), json.dumps(body),
                       content_type="application/json")


def enter(client, table, number=1, *, key="k1", re_augen=130, version=None, player=None):
    body = {"number": number, "data": normal_game(table, number, re_augen=re_augen), "key": key, "player": player}
    if version is not None:
        body["version"] = version
    return post(client, table, "enter", body)


@pytest.fixture
def director():
    return make_director("leitung")


# ---- point 2: a late or simultaneous entry never replaces a stored game ------------------------------

def test_an_entry_made_before_the_director_stored_the_game_waits_as_a_conflict(director):
    table = make_table(director, Tournament.Confirmation.IMMEDIATE)
    results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=150), version=0)
    answer = enter(phone("anna"), table, 1, re_augen=100, version=0)
    assert answer.status_code == 200
    assert answer.json()["conflict"] is True and answer.json()["key"] == "k1"
    assert "war inzwischen schon anders eingetragen" in answer.json()["message"]
    game = table.games.get(number=1)
    assert (game.re_augen, game.version) == (150, 1)  # the stored game is untouched
    draft = DraftGame.objects.get(number=1)
    assert draft.status == DraftGame.Status.WAITING and draft.base_version == 0
    state = answer.json()["state"]
    assert state["drafts"][0]["conflict"] and "150 Augen" in state["drafts"][0]["stored"]


def test_the_same_game_as_stored_is_taken_as_it_is(director):
    table = make_table(director)
    results.save_game(table=table, number=1, data=normal_game(table, 1), version=0)
    answer = enter(phone("anna"), table, 1, version=0)
    assert answer.status_code == 200 and "conflict" not in answer.json()
    assert DraftGame.objects.get().status == DraftGame.Status.CONFIRMED
    assert table.games.get(number=1).version == 1


def test_the_director_keeps_the_stored_game_or_takes_the_tables_with_one_click(client, director):
    table = make_table(director, Tournament.Confirmation.IMMEDIATE)
    results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=150), version=0)
    enter(phone("anna"), table, 1, key="a", re_augen=100, version=0)
    client.force_login(director)
    board = client.get(reverse("tournament:board", args=["handy", 1])).content.decode()
    assert "Gespeichert" in board and "150 Augen" in board and "Vom Tisch" in board and "100 Augen" in board
    assert 'value="take"' in board and "Gespeichertes behalten" in board
    draft = DraftGame.objects.get(key="a")
    decide = reverse("tournament:board_decide", args=["handy", 1, 1, draft.pk])
    client.post(decide, {"decision": "take"})
    game = table.games.get(number=1)
    assert (game.re_augen, game.version) == (100, 2)
    assert DraftGame.objects.get(key="a").status == DraftGame.Status.CONFIRMED
    assert sum(Score.objects.filter(table=table).values_list("points", flat=True)) == 0
    # and the other way: keep what is stored
    enter(phone("bernd"), table, 1, key="b", re_augen=90, version=1)
    client.post(reverse("tournament:board_decide", args=["handy", 1, 1, DraftGame.objects.get(key="b").pk]),
                {"decision": "reject"})
    assert table.games.get(number=1).re_augen == 100


def test_confirming_a_conflict_without_taking_it_stores_nothing(client, director):
    table = make_table(director, Tournament.Confirmation.DIRECTOR)
    enter(phone("anna"), table, 1, key="a", re_augen=100, version=0)
    results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=150), version=0)
    client.force_login(director)
    draft = DraftGame.objects.get(key="a")
    response = client.post(reverse("tournament:board_decide", args=["handy", 1, 1, draft.pk]),
                           {"decision": "confirm"}, follow=True)
    assert "inzwischen anders eingetragen" in response.content.decode()
    assert table.games.get(number=1).re_augen == 150 and DraftGame.objects.get(key="a").status == "waiting"


def test_two_different_entries_for_one_game_the_director_picks_either(client, director):
    table = make_table(director)
    enter(phone("anna"), table, 1, key="a", re_augen=130)
    enter(phone("bernd"), table, 1, key="b", re_augen=100)
    client.force_login(director)
    first, second = DraftGame.objects.get(key="a"), DraftGame.objects.get(key="b")
    client.post(reverse("tournament:board_decide", args=["handy", 1, 1, second.pk]), {"decision": "confirm"})
    assert table.games.get(number=1).re_augen == 100
    # the other one is a conflict now; the director can still take it
    board = client.get(reverse("tournament:board", args=["handy", 1])).content.decode()
    assert "passt nicht mehr zum Spielzettel" in board and "Eingabe vom Tisch übernehmen" in board
    client.post(reverse("tournament:board_decide", args=["handy", 1, 1, first.pk]), {"decision": "take"})
    assert table.games.get(number=1).re_augen == 130


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("confirmation", [Tournament.Confirmation.IMMEDIATE, Tournament.Confirmation.SECOND_PLAYER])
def test_the_director_and_a_phone_storing_the_same_game_at_once_lose_neither(confirmation):
    """Each race: the director saves game 2 (version 0) while a phone sends a different game 2
    (version 0). One is stored; the other is either told (the director's Conflict: the form shows
    both) or waits as a conflict on the board: neither is lost, nothing is overwritten."""
    director = make_director("leitung")
    tournament = make_tournament(players=32, director=director, slug="rennen")
    tournament.confirmation = confirmation
    tournament.save()
    round = seated_round(tournament)
    for table in round.tables.all():
        results.save_game(table=table, number=1, data=normal_game(table, 1))
    for index, table in enumerate(round.tables.order_by("number")):
        link = token(table)
        got = together(
            lambda t=table: results.save_game(table=t, number=2, data=normal_game(t, 2, re_augen=140), version=0),
            lambda t=table, i=index, link=link: table_links.enter_game(
                token=link, number=2, data=normal_game(t, 2, re_augen=100), key=f"race-{i}",
                device="phone-of-the-table"))
        stored = table.games.get(number=2)
        draft = DraftGame.objects.get(key=f"race-{index}")
        assert isinstance(got[1], DraftGame), got
        if isinstance(got[0], Conflict):  # the phone came first: its game is stored, the director's form shows it
            assert confirmation == Tournament.Confirmation.IMMEDIATE, got
            assert stored.re_augen == 100 and draft.status == DraftGame.Status.CONFIRMED
            assert got[0].current.re_augen == 100
        else:  # the director came first (or the phone's entry only waits): the phone's game waits as a conflict
            assert isinstance(got[0], Game), got
            assert stored.re_augen == 140 and stored.version == 1
            assert draft.status == DraftGame.Status.WAITING and table_state.draft_conflicts(draft, {2: stored})
        assert sum(Score.objects.filter(table=table).values_list("points", flat=True)) == 0


# ---- point 3: no dead ends after a refusal ------------------------------------------------------------

def test_a_rejected_entry_leaves_once_corrected_or_cleared(client, director):
    table = make_table(director)
    ids = seat_ids(table)
    enter(phone("anna"), table, 1, key="a", player=ids[0])
    draft = DraftGame.objects.get(key="a")
    post(phone("bernd"), table, "decide", {"confirm": False, "player": ids[1], "reason": "Augen falsch"}, draft.pk)
    state = table_state.phone_state(Table.objects.get(pk=table.pk), device="anna".ljust(16, "0"))
    rejected = [d for d in state["drafts"] if d["status"] == "rejected"]
    assert rejected and rejected[0]["data"]["re_augen"] == 130 and rejected[0]["own"]
    # corrected on the phone: the new entry settles the rejected one
    enter(phone("anna"), table, 1, key="a2", player=ids[0], re_augen=140)
    assert DraftGame.objects.get(key="a").status == DraftGame.Status.SETTLED
    state = table_state.phone_state(Table.objects.get(pk=table.pk))
    assert [d["status"] for d in state["drafts"]] == ["waiting"]
    # a rejected entry on the board: "Erledigt" clears it
    post(phone("bernd"), table, "decide", {"confirm": False, "player": ids[1]}, DraftGame.objects.get(key="a2").pk)
    client.force_login(director)
    assert "Spiel 1 abgelehnt" in client.get(reverse("tournament:board", args=["handy", 1])).content.decode()
    client.post(reverse("tournament:board_decide", args=["handy", 1, 1, DraftGame.objects.get(key="a2").pk]),
                {"decision": "settle"})
    assert "Spiel 1 abgelehnt" not in client.get(reverse("tournament:board", args=["handy", 1])).content.decode()
    assert DraftGame.objects.get(key="a2").status == DraftGame.Status.SETTLED


def test_the_player_who_confirms_sees_the_points(director):
    table = make_table(director)
    enter(phone("anna"), table, 1)
    state = table_state.phone_state(Table.objects.get(pk=table.pk))
    points = state["drafts"][0]["points"]
    ids = seat_ids(table)
    row = results.preview_game(table=table, data=normal_game(table, 1), number=1)
    assert points == [row.scores.get(str(e)) for e in ids]
    assert sum(p for p in points if p) == 0 and any(points)


# ---- point 5: who a device is, the server says ----------------------------------------------------------

def test_a_phone_cannot_confirm_its_own_entry_by_sending_another_device_id(director):
    table = make_table(director)
    anna = phone("anna")
    enter(anna, table, 1)
    draft = DraftGame.objects.get()
    answer = post(anna, table, "decide", {"confirm": True, "device": "ganz-anderes-geraet"}, draft.pk)
    assert answer.status_code == 422 and "eigene Eingabe" in answer.json()["message"]
    assert DraftGame.objects.get().status == DraftGame.Status.WAITING and not Game.objects.exists()


def test_the_page_gives_the_phone_a_signed_httponly_device_cookie(director):
    table = make_table(director)
    client = Client()
    response = client.get(reverse("table_link", args=[token(table)]))
    cookie = response.cookies[table_link.DEVICE_COOKIE]
    assert cookie["httponly"] and cookie["path"] == "/e/" and cookie.value
    device = client.get(reverse("table_link_state", args=[token(table)]))  # kept: no new cookie
    assert table_link.DEVICE_COOKIE not in device.cookies
    forged = Client()
    forged.cookies[table_link.DEVICE_COOKIE] = "selbstgemacht0000000"
    enter(forged, table, 1, key="f")
    assert DraftGame.objects.get(key="f").device != "selbstgemacht0000000"


def test_a_confirmation_from_a_phone_the_server_does_not_know_is_refused(director):
    table = make_table(director)
    enter(phone("anna"), table, 1)
    stranger = phone(None)
    answer = post(stranger, table, "decide", {"confirm": True, "device": "b"}, DraftGame.objects.get().pk)
    assert answer.status_code == 422 and "neu laden" in answer.json()["message"]
    assert table_link.DEVICE_COOKIE in answer.cookies  # after a reload it is known
    answer = post(phone(None), table, "approve", {"player": seat_ids(table)[0], "version": 0})
    assert answer.status_code == 422 and "neu laden" in answer.json()["message"]
    assert not Game.objects.exists() and not Table.objects.get(pk=table.pk).approvals


# ---- point 6: waiting entries are bounded -------------------------------------------------------------

def test_waiting_entries_are_bounded_per_device_and_game(director):
    table = make_table(director)
    anna = phone("anna")
    assert enter(anna, table, 1, key="a1", re_augen=130).status_code == 200
    again = enter(anna, table, 1, key="a2", re_augen=129)
    assert again.status_code == 422 and "wartet schon auf Bestätigung" in again.json()["message"]
    for index in range(table_links.MOST_WAITING_PER_GAME - 1):
        assert enter(phone(f"geraet{index}"), table, 1, key=f"g{index}", re_augen=100 + index).status_code == 200
    too_many = enter(phone("noch-eins"), table, 1, key="x", re_augen=90)
    assert too_many.status_code == 422 and "warten schon" in too_many.json()["message"]
    assert DraftGame.objects.filter(status="waiting").count() == table_links.MOST_WAITING_PER_GAME


# ---- point 9: numbers written in other scripts ------------------------------------------------------------

@pytest.mark.parametrize("value", ["²", "٣", "①", "1²"])
def test_a_number_that_is_no_ascii_number_gets_a_message(director, value):
    table = make_table(director)
    for name in ("enter", "preview"):
        body = {"number": value, "data": normal_game(table, 1), "key": "k"}
        answer = post(phone("anna"), table, name, body)
        assert answer.status_code == 422 and "Zahl" in answer.json()["message"]
        game = {**normal_game(table, 1), "re_augen": value}
        answer = post(phone("anna"), table, name, {"number": 1, "data": game, "key": "k"})
        assert answer.status_code == 422
    assert not DraftGame.objects.exists()


# ---- every answer of games.json names its game ------------------------------------------------------------

def test_every_answer_to_an_entry_names_the_game_it_is_about(director):
    table = make_table(director)
    assert enter(phone("anna"), table, 1, key="ok").json()["key"] == "ok"
    refused = enter(phone("anna"), table, 5, key="late")
    assert refused.status_code == 422 and refused.json()["key"] == "late"
    old = token(table)
    table_links.revoke_links(round=table.round, tables=[1])
    gone = Client().post(reverse("table_link_enter", args=[old]), json.dumps({"key": "weg", "number": 2}),
                         content_type="application/json")
    assert gone.status_code == 410 and gone.json()["key"] == "weg" and gone.json()["message"]


# ---- point 17: the preview counts the games waiting before it ---------------------------------------------

def test_the_preview_counts_a_waiting_nullspiel(director):
    table = make_table(director)
    nullspiel = normal_game(table, 1, extras={"kontra": {"fuchs": 1}})  # Re wins 1, Kontra's Fuchs: 0
    post(phone("anna"), table, "enter", {"number": 1, "data": nullspiel, "key": "n"})
    assert DraftGame.objects.get().status == "waiting"
    answer = post(phone("anna"), table, "preview", {"number": 2, "data": normal_game(table, 2)})
    assert answer.status_code == 200 and answer.json()["multiplier"] == 2
    # the same from the phone's own queue, not sent yet
    DraftGame.objects.all().delete()
    alone = post(phone("anna"), table, "preview", {"number": 2, "data": normal_game(table, 2)}).json()
    queued = post(phone("anna"), table, "preview", {"number": 2, "data": normal_game(table, 2),
                                                   "pending": [{"number": 1, "data": nullspiel}]}).json()
    assert (alone["multiplier"], queued["multiplier"]) == (1, 2)


# ---- point 12: only an explicit "all tables" changes every link -------------------------------------------

@pytest.mark.parametrize("table_field", ["0", "x", "", "-1", "99", "１"])
def test_a_table_that_is_not_a_table_changes_no_link(client, director, table_field):
    table = make_table(director)
    before = list(table.round.tables.order_by("number").values_list("link_token", flat=True))
    client.force_login(director)
    response = client.post(reverse("tournament:links_action", args=["handy", 1]),
                           {"table": table_field, "action": "renew"}, follow=True)
    assert "kein Link wurde geändert" in response.content.decode()
    assert list(table.round.tables.order_by("number").values_list("link_token", flat=True)) == before
    client.post(reverse("tournament:links_action", args=["handy", 1]), {"table": "all", "action": "renew"})
    after = list(table.round.tables.order_by("number").values_list("link_token", flat=True))
    assert all(a != b for a, b in zip(before, after, strict=True))


# ---- point 21: what the tables and the director expect to find -------------------------------------------

def test_the_phone_shows_the_round_clock(director):
    from django.utils import timezone

    from tournament.services import round_clock

    table = make_table(director)
    assert table_state.phone_state(Table.objects.get(pk=table.pk))["clock_end"] is None
    round_clock.start_clock(round=table.round)
    state = Client().get(reverse("table_link_state", args=[token(table)])).json()
    end = table.round.__class__.objects.get(pk=table.round.pk).clock_end()
    assert state["clock_end"] == end.isoformat()
    assert state["clock_end_text"] == timezone.localtime(end).strftime("%H:%M")  # the hall's time, not the phone's
    page = Client().get(reverse("table_link", args=[token(table)])).content.decode()
    assert 'id="clock"' in page and "Spielzeit bis %(end)s Uhr" in page


def test_the_board_names_conflicts_and_tables_running_late(client, director):
    import datetime

    from django.utils import timezone

    from tournament.services import round_clock

    table = make_table(director, Tournament.Confirmation.IMMEDIATE)
    round = table.round
    # 60 of 100 minutes gone: every table should have about 4 of its 8 games in; none has
    round_clock.start_clock(round=round, at=timezone.now() - datetime.timedelta(minutes=60))
    results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=150), version=0)
    enter(phone("anna"), table, 1, re_augen=100, version=0)  # a conflict at table 1
    client.force_login(director)
    page = client.get(reverse("tournament:board", args=["handy", 1])).content.decode()
    assert 'id="board-alerts"' in page
    assert "Konflikt an Tisch 1: eine Eingabe passt nicht zum gespeicherten Spiel." in page
    assert "Tisch 1 liegt 3 Spiele hinter der Zeit." in page  # 1 game in, 1 waiting: 4 due
    assert "Tisch 2 liegt 4 Spiele hinter der Zeit." in page


def test_after_the_round_is_closed_the_link_shows_the_tables_final_sheet(director):
    from tournament.services import seating

    table = make_table(director)
    for number in (1, 2):
        results.save_game(table=table, number=number, data=normal_game(table, number), version=0)
    link = token(table)
    seating.close_round(round=table.round, backup=False)
    response = Client().get(reverse("table_link", args=[link]))
    page = response.content.decode()
    assert response.status_code == 410 and "abgeschlossen" in page
    assert 'id="final-sheet"' in page and "Spielzettel Tisch 1, Runde 1" in page
    names = [s.entry.player.name for s in table.seats.select_related("entry__player")]
    assert all(name in page for name in names) and "nicht eingetragen" in page
    # a link that names no table shows no sheet
    assert 'id="final-sheet"' not in Client().get(reverse("table_link", args=["y" * 24])).content.decode()


def test_an_entry_from_a_phone_is_one_change_whatever_it_sets_off(director):
    """Entering (which may settle a rejected entry and confirm another) counts the tournament up once:
    one DataChange per request, as for every page."""
    from tournament.models import DataChange

    table = make_table(director)
    ids = seat_ids(table)
    enter(phone("anna"), table, 1, key="a", player=ids[0])
    post(phone("bernd"), table, "decide", {"confirm": False, "player": ids[1]}, DraftGame.objects.get(key="a").pk)
    enter(phone("anna"), table, 1, key="a2", player=ids[0])
    before = DataChange.objects.count()
    enter(phone("carla"), table, 1, key="c", player=ids[2])  # the same game from another player: confirms it
    assert table.games.count() == 1
    assert DataChange.objects.count() == before + 1
    before = DataChange.objects.count()
    enter(phone("anna"), table, 2, key="b", player=ids[0], re_augen=100)
    post(phone("dieter"), table, "decide", {"confirm": False, "player": ids[3]}, DraftGame.objects.get(key="b").pk)
    before = DataChange.objects.count()
    enter(phone("anna"), table, 2, key="b2", player=ids[0], re_augen=110)  # settles the rejected one
    assert DataChange.objects.count() == before + 1


# ---- point 21: a penalty entered on the phone, with its game ----------------------------------------------

def test_a_penalty_entered_with_a_game_counts_once_the_game_is_confirmed(director):
    from tournament.models import Penalty

    table = make_table(director)
    ids = seat_ids(table)
    _dealer, _out, players = engine.game_deal(table, ids, 1).as_tuple()
    game = {**normal_game(table, 1), "penalty": {"offender": players[3], "note": "Farbe nicht bedient"}}
    answer = post(phone("anna"), table, "enter", {"number": 1, "data": game, "key": "p", "player": ids[0]})
    assert answer.status_code == 200 and not Penalty.objects.exists()  # waits with its game
    summary = answer.json()["state"]["drafts"][0]["summary"]
    assert "Strafe:" in summary and "Farbe nicht bedient" in summary
    post(phone("bernd"), table, "decide", {"confirm": True, "player": ids[1]}, DraftGame.objects.get().pk)
    penalty = Penalty.objects.get()
    assert (penalty.offender_id, penalty.game_number, penalty.note) == (players[3], 1, "Farbe nicht bedient")
    assert sum(Score.objects.filter(table=table).values_list("points", flat=True)) == 0
    assert table.games.count() == 1


def test_a_rejected_entry_brings_no_penalty_and_a_penalty_on_someone_not_playing_is_refused(director):
    from tournament.models import Penalty

    table = make_table(director)
    ids = seat_ids(table)
    other = [e for e in table.round.tournament.entries.values_list("id", flat=True) if e not in ids][0]
    refused = post(phone("anna"), table, "enter", {"number": 1, "key": "x", "data": {
        **normal_game(table, 1), "penalty": {"offender": other, "note": ""}}})
    assert refused.status_code == 422 and "nicht mitgespielt" in refused.json()["problems"]["penalty"][0]
    post(phone("anna"), table, "enter", {"number": 1, "key": "p", "data": {
        **normal_game(table, 1), "penalty": {"offender": ids[0], "note": "zu früh ausgespielt"}}})
    post(phone("bernd"), table, "decide", {"confirm": False}, DraftGame.objects.get(key="p").pk)
    assert not Penalty.objects.exists() and not table.games.exists()


def test_a_waiting_penalty_is_kept_in_a_backup(director):
    from tournament.services.exporting import export_tournament
    from tournament.services.importing import import_tournament

    table = make_table(director)
    ids = seat_ids(table)
    post(phone("anna"), table, "enter", {"number": 1, "key": "p", "data": {
        **normal_game(table, 1), "penalty": {"offender": ids[2], "note": "Karten gezeigt"}}})
    data = export_tournament(table.round.tournament)
    assert data["rounds"][0]["tables"][0]["drafts"][0]["penalty"]["note"] == "Karten gezeigt"
    DraftGame.objects.all().delete()  # (a copy next to the original leaves the entry's key with the original)
    copy = import_tournament(data, slug="kopie")
    draft = DraftGame.objects.get(table__round__tournament=copy)
    offender = copy.entries.get(pk=draft.data["penalty"]["offender"])
    assert offender.player.name == table.seats.get(entry_id=ids[2]).entry.player.name
    assert draft.data["penalty"]["note"] == "Karten gezeigt"
