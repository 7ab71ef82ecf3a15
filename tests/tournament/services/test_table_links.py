"""Tables enter their own results on phones through the table's secret link: links that stop working,
drafts that count only once confirmed, the second-player rule, one game per one-time key, "stimmt"
on every phone signs the sheet, the director's board."""

from __future__ import annotations

import json

import pytest
from django.core import signing
from django.db.models import Sum
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seating.dealing import game_players
from tournament.errors import UserError
from tournament.log import changelog
from tournament.log.audit import Actor
from tournament.models import DraftGame, Game, Score, Table, Tournament
from tournament.selectors import standings
from tournament.services import results, seating, sheet_state, table_links
from tournament.views import table_link

from ..factories import make_director, make_tournament, seat_ids, seated_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(director):
    tournament = make_tournament(players=8, director=director, slug="handy")
    return seated_round(tournament).tables.get(number=1)


def token(table) -> str:
    return Table.objects.get(pk=table.pk).link_token


def game(table, number, re_augen=130):
    _dealer, _out, players = game_players(seat_ids(table), number)
    return {"type": "normal", "re": players[:2], "re_augen": re_augen, "announcements": {"re": None, "kontra": None},
            "extras": {}}


def device_id(name: str) -> str:
    """The id the server would have issued to the test's phone called `name`."""
    return "".join(ch for ch in name if ch.isalnum()).ljust(16, "0")[:64]


def as_device(client, device: str | None) -> None:
    """The phone `client` is the device `device` (the server's signed cookie; None: a phone without one)."""
    if device is None:
        client.cookies.pop(table_link.DEVICE_COOKIE, None)
        return
    name = device_id(device)
    signer = signing.get_cookie_signer(salt=table_link.DEVICE_COOKIE + table_link.DEVICE_SALT)
    client.cookies[table_link.DEVICE_COOKIE] = signer.sign(name)


def post(client, table, name, body, **args):
    """A phone's request; a "device" in the body becomes the device cookie the server issued (the
    server itself ignores any device id in the JSON)."""
    if "device" in body:
        as_device(client, body["device"] if isinstance(body["device"], str) else None)
    path = reverse(f"table_link_{name}", args=[token(table), *args.values()])
    return client.post(path, json.dumps(body), content_type="application/json")


def enter(client, table, number=1, *, key="k1", device="phone-a", player=None, re_augen=130):
    return post(client, table, "enter", {"number": number, "data": game(table, number, re_augen), "key": key,
                                         "device": device, "player": player})


# ---- the link ----------------------------------------------------------------------------------------

def test_publishing_gives_every_table_a_link(table):
    tokens = list(table.round.tables.values_list("link_token", flat=True))
    assert all(tokens) and len(set(tokens)) == len(tokens) and all(len(t) >= 24 for t in tokens)


def test_a_table_has_its_link_when_drawn_which_opens_when_the_round_is_published(director, client):
    """The link is made with the table (one insert, not an update a table at publication), so sheets
    printed before publishing carry it; until then it says the round is not yet published."""
    round = seated_round(make_tournament(players=8, director=director, slug="entwurf"), publish=False)
    drawn = dict(round.tables.values_list("number", "link_token"))
    assert all(drawn.values()) and len(set(drawn.values())) == 2
    with pytest.raises(table_links.LinkClosed, match="noch nicht veröffentlicht"):
        table_links.table_of_link(drawn[1])
    page = client.get(reverse("table_link", args=[drawn[1]]))
    text = page.content.decode()
    assert page.status_code == 410 and "noch nichts eingetragen" in text and "noch nicht veröffentlicht" in text
    names = round.tables.get(number=1).seats.values_list("entry__player__name", flat=True)
    assert not any(name in text for name in names)  # the seating the director may still draw again
    client.force_login(director)
    links = client.get(reverse("tournament:links", args=[round.tournament.slug, round.number])).content.decode()
    assert "gelten ab der Veröffentlichung" in links and drawn[1] in links
    seating.publish_round(round=round)
    assert dict(round.tables.values_list("number", "link_token")) == drawn
    assert table_links.table_of_link(drawn[1]).number == 1


def test_links_of_a_drawn_round_can_be_renewed_or_revoked_until_it_is_closed(director):
    """A director who printed the sheets of a drawn round and lost one can renew or revoke its link before
    publishing; a revoked one gets a new link at publication; a closed round's links stay as they are."""
    round = seated_round(make_tournament(players=8, director=director, slug="neu-gezogen"), publish=False)
    drawn = dict(round.tables.values_list("number", "link_token"))
    assert table_links.renew_links(round=round, tables=[1]) == 1
    renewed = dict(round.tables.values_list("number", "link_token"))
    assert renewed[1] not in (None, drawn[1]) and renewed[2] == drawn[2]
    table_links.revoke_links(round=round, tables=[2])
    seating.publish_round(round=round)
    published = dict(round.tables.values_list("number", "link_token"))
    assert published[1] == renewed[1] and published[2] not in (None, drawn[2])
    seating.close_round(round=round, backup=False)
    with pytest.raises(UserError, match="abgeschlossen"):
        table_links.renew_links(round=round)


def test_the_page_opens_without_an_account(client, table):
    response = client.get(reverse("table_link", args=[token(table)]))
    page = response.content.decode()
    assert response.status_code == 200 and "Tisch 1 · Runde 1" in page and "Wer bist du?" in page
    state = json.loads(page.split('<script id="state" type="application/json">')[1].split("</script>")[0])
    assert [p["seat"] for p in state["players"]] == [1, 2, 3, 4] and state["next_number"] == 1


@pytest.mark.parametrize("how", ["wrong", "revoked", "closed", "signed"])
def test_a_link_that_does_not_work_says_why(client, table, how):
    link = token(table)
    expected = {"wrong": "gibt es nicht (mehr)", "revoked": "gibt es nicht (mehr)", "closed": "abgeschlossen",
                "signed": "unterschrieben"}[how]
    if how == "wrong":
        link = "x" * 24
    elif how == "revoked":
        table_links.revoke_links(round=table.round, tables=[1])
    elif how == "closed":
        seating.close_round(round=table.round, backup=False)
    else:
        sheet_state.sign_table(table=table)
    page = client.get(reverse("table_link", args=[link]))
    assert page.status_code == 410 and expected in page.content.decode()
    answer = client.post(reverse("table_link_enter", args=[link]), json.dumps(
        {"number": 1, "data": game(table, 1), "key": "k", "device": "d"}), content_type="application/json")
    assert answer.status_code == 410 and expected in answer.json()["message"]
    assert not DraftGame.objects.exists()


def test_renewing_a_link_stops_the_old_one(client, director, table):
    old = token(table)
    client.force_login(director)
    client.post(reverse("tournament:links_action", args=["handy", 1]), {"table": 1, "action": "renew"})
    assert token(table) != old
    assert client.get(reverse("table_link", args=[old])).status_code == 410
    assert client.get(reverse("table_link", args=[token(table)])).status_code == 200
    assert changelog.entries(table.round.tournament, limit=1)[0].action == "link_renewed"


def test_the_links_page_shows_a_qr_code_per_table_for_directors_only(client, director, table):
    client.force_login(director)
    page = client.get(reverse("tournament:links", args=["handy", 1])).content.decode()
    assert page.count("<svg") == 2 and f"/e/{token(table)}/" in page
    helper = make_director("helfer")
    table.round.tournament.helpers.add(helper)
    client.force_login(helper)
    assert client.get(reverse("tournament:links", args=["handy", 1])).status_code == 403


# ---- drafts and confirmation ----------------------------------------------------------------------------

def test_a_draft_counts_nowhere_until_it_is_confirmed(client, table):
    answer = enter(client, table)
    assert answer.status_code == 200 and answer.json()["status"] == "waiting"
    assert not Game.objects.exists() and not Score.objects.exists()
    assert all(row.points == 0 and row.games == 0 for row in standings(table.round.tournament))
    draft = DraftGame.objects.get()
    confirm = post(client, table, "decide", {"confirm": True, "device": "phone-b"}, draft=draft.pk)
    assert confirm.status_code == 200 and confirm.json()["status"] == "confirmed"
    stored = Game.objects.get()
    assert stored.re_augen == 130 and sum(r.games for r in standings(table.round.tournament)) == 4


def test_the_one_who_entered_cannot_confirm(client, table):
    ids = seat_ids(table)
    enter(client, table, device="phone-a", player=ids[0])
    draft = DraftGame.objects.get()
    same_device = post(client, table, "decide", {"confirm": True, "device": "phone-a", "player": ids[1]},
                       draft=draft.pk)
    same_player = post(client, table, "decide", {"confirm": True, "device": "phone-b", "player": ids[0]},
                       draft=draft.pk)
    for answer in (same_device, same_player):
        assert answer.status_code == 422 and "eigene Eingabe" in answer.json()["message"]
    assert DraftGame.objects.get().status == "waiting" and not Game.objects.exists()
    assert post(client, table, "decide", {"confirm": True, "device": "phone-b", "player": ids[1]},
                draft=draft.pk).json()["status"] == "confirmed"


def test_a_second_player_rejects_and_the_director_sees_it(client, director, table):
    enter(client, table)
    draft = DraftGame.objects.get()
    post(client, table, "decide", {"confirm": False, "device": "phone-b", "reason": "Augen falsch"}, draft=draft.pk)
    assert DraftGame.objects.get().status == "rejected" and not Game.objects.exists()
    client.force_login(director)
    board = client.get(reverse("tournament:board", args=["handy", 1])).content.decode()
    assert "Spiel 1 abgelehnt: Augen falsch" in board


def test_the_same_key_sent_twice_makes_one_draft(client, table):
    first = enter(client, table, key="einmal")
    second = enter(client, table, key="einmal")
    assert first.json()["draft"] == second.json()["draft"] and DraftGame.objects.count() == 1


def test_the_same_game_from_a_second_phone_confirms_it(client, table):
    ids = seat_ids(table)
    enter(client, table, key="a", device="phone-a", player=ids[0])
    enter(client, table, key="b", device="phone-b", player=ids[2])
    assert Game.objects.count() == 1
    assert set(DraftGame.objects.values_list("status", flat=True)) == {"confirmed"}


def test_different_games_for_one_number_wait_for_the_director(client, director, table):
    enter(client, table, key="a", device="phone-a", re_augen=130)
    enter(client, table, key="b", device="phone-b", re_augen=100)
    assert DraftGame.objects.filter(status="waiting").count() == 2 and not Game.objects.exists()
    first = DraftGame.objects.get(key="a")
    client.force_login(director)
    client.post(reverse("tournament:board_decide", args=["handy", 1, 1, first.pk]), {"decision": "confirm"})
    assert Game.objects.get().re_augen == 130
    board = client.get(reverse("tournament:board", args=["handy", 1])).content.decode()
    assert "passt nicht mehr zum Spielzettel" in board  # the other one no longer fits


@pytest.mark.parametrize("mode", ["immediate", "director"])
def test_the_tournament_chooses_how_entries_are_confirmed(client, director, table, mode):
    Tournament.objects.filter(pk=table.round.tournament_id).update(confirmation=mode)
    enter(client, table)
    draft = DraftGame.objects.get()
    if mode == "immediate":
        assert draft.status == "confirmed" and Game.objects.count() == 1
        return
    answer = post(client, table, "decide", {"confirm": True, "device": "phone-b"}, draft=draft.pk)
    assert answer.status_code == 422 and "Turnierleitung" in answer.json()["message"]
    table_links.decide_as_director(table=table, draft_id=draft.pk, confirm=True, by=Actor(user=director))
    assert Game.objects.count() == 1


def test_games_go_on_while_earlier_ones_wait(client, table):
    enter(client, table, 1, key="a")
    assert enter(client, table, 2, key="b").status_code == 200
    second = DraftGame.objects.get(number=2)
    post(client, table, "decide", {"confirm": True, "device": "phone-b"}, draft=second.pk)
    assert list(Game.objects.values_list("number", flat=True)) == [2]
    answer = enter(client, table, 4, key="c")
    assert answer.status_code == 422 and "erst Spiel 3" in answer.json()["message"]


@pytest.mark.parametrize("path", ["director", "phone"])
def test_a_waiting_entry_holds_its_number_on_every_path(client, table, path):
    """One rule for a game's number, whoever enters it (`editing.check_in_order`): entries for games
    1 and 2 wait, game 1's is rejected, so 1 is the first free number again. Game 2 keeps its number:
    the director's form and a second phone both enter it; game 3 is out of order on both."""
    enter(client, table, 1, key="a")
    enter(client, table, 2, key="b")
    post(client, table, "decide", {"confirm": False, "device": "phone-b"}, draft=DraftGame.objects.get(number=1).pk)

    def entering(number: int) -> str | None:
        """None: entered; else the message that refused it."""
        if path == "director":
            try:
                results.save_game(table=table, number=number, data=game(table, number), version=0)
            except UserError as error:
                return error.message
            return None
        answer = enter(client, table, number, key=f"phone-{number}", device="phone-b")
        return answer.json()["message"] if answer.status_code == 422 else None

    assert entering(2) is None
    assert list(Game.objects.values_list("number", flat=True)) == [2]
    assert entering(3) == "Spiele werden der Reihe nach eingetragen: erst Spiel 1, dann Spiel 3."
    assert list(Game.objects.values_list("number", flat=True)) == [2]


def test_the_directors_form_opens_for_the_number_a_waiting_entry_holds(client, director, table):
    """The director's form for a new game asks the same rule as saving it (`editing.check_in_order`):
    with game 1's entry rejected and game 2's waiting, game 2's form opens (saving it is allowed), game 3's
    is refused with the rule's own sentence."""
    enter(client, table, 1, key="a")
    enter(client, table, 2, key="b")
    post(client, table, "decide", {"confirm": False, "device": "phone-b"}, draft=DraftGame.objects.get(number=1).pk)
    client.force_login(director)
    t = table.round.tournament
    address = reverse("tournament:game_edit", args=[t.slug, table.round.number, table.number, 2])
    assert client.get(address).status_code == 200
    refused = client.get(address.replace("/games/2/", "/games/3/"), follow=True).content.decode()
    assert "Spiele werden der Reihe nach eingetragen: erst Spiel 1, dann Spiel 3." in refused


def test_bad_input_gets_messages_by_field(client, table):
    answer = post(client, table, "enter", {"number": 1, "data": {**game(table, 1), "re_augen": 250}, "key": "k",
                                           "device": "d"})
    assert answer.status_code == 422 and answer.json()["problems"]["re_augen"]
    for body in ([], {"number": "x"}, {"number": 1, "data": [], "key": "k", "device": "d"}, {"number": 1}):
        answer = client.post(reverse("table_link_enter", args=[token(table)]), json.dumps(body),
                             content_type="application/json")
        assert answer.status_code == 422 and answer.json()["message"]
    assert not DraftGame.objects.exists()


def test_preview_scores_a_game_without_saving(client, table):
    answer = post(client, table, "preview", {"number": 1, "data": game(table, 1)})
    assert answer.status_code == 200 and answer.json()["winner"] == "re" and answer.json()["value"] == 1
    assert sum(answer.json()["scores"].values()) == 0 and not DraftGame.objects.exists()


# ---- "stimmt" ----------------------------------------------------------------------------------------------

def test_every_player_taps_stimmt_and_the_sheet_is_signed(client, table):
    Tournament.objects.filter(pk=table.round.tournament_id).update(confirmation="immediate")
    for number in range(1, 9):
        enter(client, table, number, key=f"g{number}")
    ids = seat_ids(table)
    version = Table.objects.get(pk=table.pk).version
    for index, player in enumerate(ids):
        answer = post(client, table, "approve", {"device": f"phone-{index}", "player": player, "version": version})
        assert answer.status_code == 200
        assert answer.json()["signed"] == (index == 3)
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.is_locked and "alle" in fresh.signed_note
    assert client.get(reverse("table_link", args=[token(table)])).status_code == 410


def test_stimmt_for_a_sheet_that_changed_since_is_refused(client, table):
    Tournament.objects.filter(pk=table.round.tournament_id).update(confirmation="immediate")
    enter(client, table, 1, key="g1")
    shown = Table.objects.get(pk=table.pk).version
    enter(client, table, 2, key="g2")
    answer = post(client, table, "approve", {"device": "d", "player": seat_ids(table)[0], "version": shown})
    assert answer.status_code == 409 and "geändert" in answer.json()["message"]


def test_an_approval_of_an_incomplete_sheet_does_not_sign(client, table):
    enter(client, table, 1, key="g1")  # waiting: not complete
    version = Table.objects.get(pk=table.pk).version
    for player in seat_ids(table):
        post(client, table, "approve", {"device": "d", "player": player, "version": version})
    assert not Table.objects.get(pk=table.pk).is_locked


# ---- the change log and the board ----------------------------------------------------------------------

def test_every_entry_confirmation_and_rejection_is_logged_with_table_and_device(client, table):
    ids = seat_ids(table)
    enter(client, table, 1, key="a", device="geraet-anna", player=ids[0])
    draft = DraftGame.objects.get()
    post(client, table, "decide", {"confirm": True, "device": "geraet-carla", "player": ids[2]}, draft=draft.pk)
    entries = changelog.entries(table.round.tournament, round_number=1, table_number=1)
    actions = [(e.action, e.kind, e.device) for e in entries]
    assert ("draft_entered", "draft", device_id("geraet-anna")) in actions
    assert ("draft_confirmed", "game", device_id("geraet-carla")) in actions
    assert ("draft_confirmed", "draft", device_id("geraet-carla")) in actions
    names = {e.user for e in entries if e.kind == "draft"}
    assert any("Tisch 1" in name for name in names)


def test_the_board_shows_every_table_and_confirms_in_one_click(client, director, table):
    enter(client, table, 1)
    client.force_login(director)
    page = client.get(reverse("tournament:board", args=["handy", 1])).content.decode()
    assert "Tisch 1" in page and "Tisch 2" in page and "Spiel 1 wartet" in page
    assert "1 Eingabe wartet auf Bestätigung" in page
    draft = DraftGame.objects.get()
    response = client.post(reverse("tournament:board_decide", args=["handy", 1, 1, draft.pk]),
                           {"decision": "confirm"})
    assert response.status_code == 302 and Game.objects.count() == 1
    partial = client.get(reverse("tournament:board", args=["handy", 1]) + "?partial=1").content.decode()
    assert "<html" not in partial and "1 / 8 Spiele" in partial


def test_the_board_runs_a_fixed_number_of_queries(client, director, django_assert_num_queries):
    counts = []
    for players, slug in ((8, "klein"), (24, "gross")):
        tournament = make_tournament(players=players, director=director, slug=slug)
        round = seated_round(tournament)
        for table in round.tables.all():
            table_links.enter_game(token=Table.objects.get(pk=table.pk).link_token, number=1, data=game(table, 1),
                                   key=f"{slug}-{table.pk}", device="d")
        client.force_login(director)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("tournament:board", args=[slug, 1])).status_code == 200
        counts.append(len(queries))
    # the games entered are read with the tables (`Table.games_entered`, and the table's size annotated
    # on the same query): two queries fewer than counting them (docs/performance.md)
    assert counts == [BOARD_QUERIES, BOARD_QUERIES], counts


BOARD_QUERIES = 14  # the tournament, the session, the user, the access check, the round, the board (8), the rounds


def test_a_closed_link_refuses_confirmations_too(client, table):
    enter(client, table)
    draft = DraftGame.objects.get()
    seating.close_round(round=table.round, backup=False)
    answer = post(client, table, "decide", {"confirm": True, "device": "phone-b"}, draft=draft.pk)
    assert answer.status_code == 410


def test_director_decisions_need_an_open_sheet(director, table):
    table_links.enter_game(token=token(table), number=1, data=game(table, 1), key="k", device="d")
    sheet_state.sign_table(table=table)
    with pytest.raises(UserError, match="gesperrt"):
        table_links.decide_as_director(table=table, draft_id=DraftGame.objects.get().pk, confirm=True,
                                       by=Actor(user=director))


# ---- random and malformed requests from "phones" -------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.text(max_size=30)
    | st.sampled_from(["normal", "solo", "damen", "re", "kontra", "keine90", "\x00", "a" * 300]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=20)


def phone_body(table):
    """What a phone sends, with some parts replaced by anything."""
    ids = seat_ids(table)
    return st.fixed_dictionaries({
        "number": st.one_of(st.integers(0, 12), json_values),
        "key": st.one_of(st.uuids().map(lambda u: u.hex), json_values),
        "device": st.one_of(st.just("phone"), json_values),
        "player": st.one_of(st.sampled_from(ids), json_values),
        "confirm": json_values, "reason": json_values, "version": st.one_of(st.integers(0, 5), json_values),
        "data": st.one_of(st.fixed_dictionaries({
            "type": st.sampled_from(["normal", "solo", "hochzeit"]) | json_values,
            "solo": st.none() | st.sampled_from(["damen", "buben"]) | json_values,
            "re": st.lists(st.sampled_from(ids), max_size=3) | json_values,
            "re_augen": st.integers(-5, 250) | json_values, "re_tricks": st.none() | st.integers(-1, 13) | json_values,
            "announcements": st.fixed_dictionaries({"re": st.sampled_from([None, "re", "keine90"]) | json_values,
                                                    "kontra": st.sampled_from([None, "kontra"]) | json_values}),
            "extras": json_values}), json_values)})


@settings(settings.get_profile("ci"), max_examples=60, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_anything_a_phone_sends_is_answered_without_an_error_page(client, table, data):
    client.raise_request_exception = False
    before = DraftGame.objects.count(), Game.objects.count()
    name = data.draw(st.sampled_from(["enter", "preview", "approve", "decide", "state"]))
    body = data.draw(phone_body(table))
    if name == "state":
        response = client.get(reverse("table_link_state", args=[token(table)]))
    elif name == "decide":
        draft = data.draw(st.sampled_from([1, 99, 2**40]))
        response = client.post(reverse("table_link_decide", args=[token(table), draft]), json.dumps(body),
                               content_type="application/json")
    else:
        raw = data.draw(st.one_of(st.just(json.dumps(body)), st.binary(max_size=50).map(lambda b: b.hex()),
                                  st.just("[" * 5000)))
        response = client.post(reverse(f"table_link_{name}", args=[token(table)]), raw,
                               content_type="application/json")
    assert response.status_code != 500
    assert response.status_code in (200, 409, 410, 422)
    if response.status_code != 200:
        assert (DraftGame.objects.count(), Game.objects.count()) == before
    for table_id, total in Score.objects.values("table_id").annotate(s=Sum("points")).values_list("table_id", "s"):
        assert total == 0, table_id


def test_the_standings_say_an_entry_waits_for_confirmation(client, table):
    enter(client, table, 1)
    page = client.get(reverse("tournament:standings", args=["handy"])).content.decode()
    assert "Vorläufig:" in page and "Runde 1: 1 Eingabe vom Tisch wartet auf Bestätigung." in page
    assert "Runde 1: es fehlen noch 16 Spiele (Tische 1, 2)." in page  # the draft is no game yet


def test_only_entries_still_waiting_count_as_waiting(client, table, director):
    enter(client, table, 1)
    enter(client, table, 2, key="k2")
    first = table.drafts.get(number=1)
    table_links.decide_as_director(table=table, draft_id=first.pk, confirm=True, by=Actor(user=director))
    page = client.get(reverse("tournament:standings", args=["handy"])).content.decode()
    assert "Runde 1: 1 Eingabe vom Tisch wartet auf Bestätigung." in page  # game 2's; game 1's is confirmed
    assert "Runde 1: es fehlen noch 15 Spiele (Tische 1, 2)." in page
