"""Lists with Pflichtsoli (docs/pflichtsolo.md): who deals, who is vorgeführt, the checks of
the Pflicht- and Lustsoli, and a full DDV list of 24 games at a table of 4 through every way in."""

import datetime
import json

import pytest
from django.urls import reverse
from django.utils import translation

import scoring
from tests.seating.test_dealing import DDV, SEATS, ddv_list, normal, solo
from tournament import vocabulary
from tournament.errors import UserError
from tournament.log.changelog import game_text
from tournament.models import Game, Score, Tournament
from tournament.printing import documents
from tournament.selectors import table_sheet
from tournament.selectors.table_state import form_spec, phone_state
from tournament.services import exporting, importing, results, table_links, tournaments
from tournament.services.file_checks import ImportProblems

from ..factories import make_tournament, seat_ids, seated_round

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def german():
    """The messages below are the German ones, whatever a request before left active."""
    with translation.override("de"):
        yield

def test_list_problems_name_the_game_and_the_player():
    name = str.lower
    games = {1: solo("C", pflicht=True), 2: solo("C", pflicht=True), 3: solo("D", pflicht=False), 4: normal()}
    problems = vocabulary.list_problems(SEATS, games, rule=DDV, name=name)
    assert [n for n, _text in problems] == [2, 3]
    assert "c hat das Pflichtsolo der Liste schon in Spiel 1 gespielt" in problems[0][1]
    assert "d hat das Pflichtsolo der Liste noch nicht gespielt" in problems[1][1]
    assert vocabulary.list_problems(SEATS, {1: solo("C", pflicht=True)}, rule=None, name=name)  # no list: no mark


def test_a_vorfuehrung_must_be_the_pflichtsolo_of_the_player_vorgefuehrt():
    games = ddv_list({5: "B", 9: "D"})
    for wrong in (normal(), solo("A", pflicht=True), solo("C", pflicht=False)):
        problems = vocabulary.list_problems(SEATS, {**games, 23: wrong}, rule=DDV, name=str)
        assert problems == [(23, "Die Normalspiele der Liste sind gespielt: in Spiel 23 wird C vorgeführt, das Spiel "
                                 "ist das Pflichtsolo von C.")]
    assert vocabulary.list_problems(SEATS, {**games, 23: solo("C")}, rule=DDV, name=str) == []


# ---- a full DDV list at a table of 4 --------------------------------------------------------------

def ddv_tournament(players=4, **kwargs):
    return make_tournament(players=players, rules="ddv", pflichtsoli=Tournament.Pflichtsoli.SAME_DEALER,
                           games_at_table_of_4=24, games_at_table_of_5=30, **kwargs)


def normal_data(ids, re=(0, 1), augen=130):
    return {"type": "normal", "re": [ids[i] for i in re], "re_augen": augen,
            "announcements": {"re": None, "kontra": None}, "extras": {}}


def solo_data(player, pflicht=None, augen=130, kind="damen"):
    data = {"type": "solo", "solo": kind, "re": [player], "re_augen": augen,
            "announcements": {"re": None, "kontra": None}, "extras": {}}
    if pflicht is not None:
        data["pflichtsolo"] = pflicht
    return data


def test_a_full_ddv_list_at_a_table_of_4():
    table = seated_round(ddv_tournament()).tables.get()
    ids = seat_ids(table)
    a, b, c, d = ids
    sheet = table_sheet(table)
    assert len(sheet.lines) == 24 and sheet.pflichtsoli and sheet.pflichtsolo_open == list(sheet.entries)
    dealers = {}

    def enter(data, **kwargs):
        game = results.save_game(table=table, data=data, **kwargs)
        dealers[game.number] = game.dealer_id
        return game

    for _ in range(3):
        enter(normal_data(ids))
    pflicht_c = enter(solo_data(c))  # game 4: C's Pflichtsolo (games 1-3 dealt by A, B, C)
    assert pflicht_c.pflichtsolo is True and pflicht_c.dealer_id == d
    assert enter(normal_data(ids)).dealer_id == d  # the same dealer deals again after a Pflichtsolo
    lust = enter(solo_data(c, augen=100))  # C's second solo: a Lustsolo, and the deal passes on
    assert lust.pflichtsolo is False and lust.dealer_id == a
    assert enter(normal_data(ids)).dealer_id == b

    # a second Pflichtsolo of C, and a Lustsolo of A before A's Pflichtsolo, are refused; nothing saved
    with pytest.raises(UserError) as error:
        enter(solo_data(c, pflicht=True))
    assert error.value.field == "pflichtsolo"
    assert "hat das Pflichtsolo der Liste schon in Spiel 4 gespielt" in str(error.value.message)
    with pytest.raises(UserError, match="noch nicht gespielt: das erste Solo eines Spielers ist sein Pflichtsolo"):
        enter(solo_data(a, pflicht=False))
    assert table.games.count() == 7

    enter(solo_data(a, pflicht=True))  # game 8: A's Pflichtsolo, dealt by C; C deals again
    while table.games.count() < 22:  # 20 Normalspiele (with C's Lustsolo), 2 Pflichtsoli
        enter(normal_data(ids, re=(1, 2), augen=100))
    sheet = table_sheet(table)
    assert [e.id for e in sheet.pflichtsolo_open] == [b, d]
    # the Normalspiele are played: game 23 is dealt by A (20 deals passed on), B sits next and is vorgeführt
    assert [(n, e.id) for n, e in sheet.vorfuehrungen] == [(23, b), (24, d)]  # game 23 passes the deal on
    assert sheet.lines[22].dealer.id == a and sheet.lines[22].dealer_known
    assert sheet.lines[23].dealer.id == b and sheet.lines[23].dealer_known
    assert [e.id for e in sheet.pflichtsolo_open] == [b, d]  # forecast, not played
    printed = documents.filled_rows(sheet, table.round.tournament.scoring_rules())[22]
    assert (printed.number, printed.type, printed.re) == ("23", "S … P vorg.", "2")  # B: seat 2

    with pytest.raises(UserError, match="in Spiel 23 wird .* vorgeführt"):
        enter(normal_data(ids))
    with pytest.raises(UserError, match="in Spiel 23 wird .* vorgeführt"):
        enter(solo_data(d))  # D owes one too, but B sits next after the dealer
    vorgefuehrt = enter(solo_data(b, kind="buben"))
    assert vorgefuehrt.number == 23 and vorgefuehrt.pflichtsolo is True
    last = enter(solo_data(d, augen=60))
    assert last.number == 24 and last.dealer_id == b  # a vorgeführtes solo passes the deal on
    with pytest.raises(UserError, match="Spiele 1 bis 24"):
        enter(normal_data(ids))

    assert [dealers[n] for n in range(1, 25)] == [
        a, b, c, d, d, a, b, c, c, d, a, b, c, d, a, b, c, d, a, b, c, d, a, b]
    sheet = table_sheet(table)
    assert not sheet.pflichtsolo_open and sorted((e.id, n) for e, n in sheet.pflichtsolo_played) == sorted(
        [(c, 4), (a, 8), (b, 23), (d, 24)])
    assert sheet.total_sum == 0 and Score.objects.filter(table=table, solo=True).count() == 5
    assert [line.game.pflichtsolo for line in sheet.lines if line.game.type == "solo"] == [
        True, False, True, True, True]


def test_changing_a_mark_moves_the_later_dealers_and_is_checked_against_the_whole_list():
    table = seated_round(ddv_tournament()).tables.get()
    ids = seat_ids(table)
    results.save_game(table=table, data=normal_data(ids))
    results.save_game(table=table, data=solo_data(ids[2]))  # game 2: C's Pflichtsolo, B deals again
    results.save_game(table=table, data=solo_data(ids[2], augen=100))  # game 3: C's Lustsolo
    results.save_game(table=table, data=normal_data(ids))  # game 4, dealt by C
    assert list(table.games.order_by("number").values_list("dealer_id", flat=True)) == [
        ids[0], ids[1], ids[1], ids[2]]
    # game 2 becomes a normal game: game 3 would be C's first solo marked as a Lustsolo
    with pytest.raises(UserError, match="Spiel 3: .* noch nicht gespielt"):
        results.save_game(table=table, number=2, data=normal_data(ids))
    # game 3 becomes the Pflichtsolo of D instead: fine, and nothing later moves
    results.save_game(table=table, number=3, data=solo_data(ids[3], pflicht=True))
    assert list(table.games.order_by("number").values_list("dealer_id", flat=True)) == [
        ids[0], ids[1], ids[1], ids[1]]  # D's Pflichtsolo: B deals game 4 too
    results.delete_game(table=table, number=3)  # a gap passes the deal on, as a Normalspiel would
    assert table.games.get(number=4).dealer_id == ids[2]


def test_at_a_table_of_5_a_change_that_would_seat_someone_else_out_of_an_entered_game_is_refused():
    tournament = ddv_tournament(players=5)
    table = seated_round(tournament).tables.get()
    ids = seat_ids(table)
    game = results.save_game(table=table, data=solo_data(ids[1]))  # A deals and sits out; B's Pflichtsolo
    assert (game.dealer_id, game.sitting_out_id) == (ids[0], ids[0])
    second = results.save_game(table=table, data=normal_data(ids, re=(1, 2)))
    assert (second.dealer_id, second.sitting_out_id) == (ids[0], ids[0])  # A deals again and sits out again
    with pytest.raises(UserError, match="säße dann in Spiel 2 ein anderer Spieler aus"):
        results.save_game(table=table, number=1, data=normal_data(ids, re=(1, 2)))
    with pytest.raises(UserError, match="säße dann in Spiel 2 ein anderer Spieler aus"):
        results.delete_game(table=table, number=1)
    assert table.games.get(number=1).pflichtsolo is True


def test_settings_lists_need_a_game_per_pflichtsolo_and_are_fixed_once_games_are_entered():
    with pytest.raises(UserError, match="mindestens 4 Spiele"):
        tournaments.create_tournament(name="Kurz", date=datetime.date(2026, 11, 21), rules="ddv",
                                      pflichtsoli=Tournament.Pflichtsoli.SAME_DEALER, games_at_table_of_4=3)
    tournament = ddv_tournament()
    table = seated_round(tournament).tables.get()
    tournaments.update_tournament(tournament=tournament, fields={"pflichtsoli": "next_dealer"},
                                  rules=tournament.rules)
    results.save_game(table=table, data=normal_data(seat_ids(table)))
    for fields in ({"pflichtsoli": ""}, {"games_at_table_of_4": 28}):
        with pytest.raises(UserError):
            tournaments.update_tournament(tournament=tournament, fields=fields, rules=tournament.rules)
    tournament.refresh_from_db()
    assert (tournament.pflichtsoli, tournament.games_at_table_of_4) == ("next_dealer", 24)


def test_creating_with_the_ddv_rules_makes_a_list(client, director):
    client.force_login(director)
    create = reverse("tournament:tournament_create")
    assert client.get(create).context["form"]["pflichtsoli"].initial == "auto"
    data = {"name": "DDV-Abend", "date": "2026-12-12", "preset": "ddv", "rounds_planned": 3,
            "games_at_table_of_4": 8, "games_at_table_of_5": 10, "round_minutes": 100, "pflichtsoli": "auto"}
    for name, changes, expected in (("DDV-Abend", {}, ("same_dealer", 24, 30)),
                                    ("Clubabend", {"preset": "turnier"}, ("", 8, 10)),
                                    ("Kurze Liste", {"games_at_table_of_4": 12}, ("same_dealer", 12, 10)),
                                    ("Ohne", {"pflichtsoli": ""}, ("", 8, 10))):
        assert client.post(create, {**data, "name": name, **changes}).status_code == 302
        made = Tournament.objects.get(name=name)
        assert (made.pflichtsoli, made.games_at_table_of_4, made.games_at_table_of_5) == expected, name


def test_the_list_speaks_english_too(client, director):
    tournament = ddv_tournament(director=director, slug="ddv")
    table = seated_round(tournament).tables.get()
    results.save_game(table=table, data=solo_data(seat_ids(table)[2]))
    client.force_login(director)
    response = client.post(game_url(tournament, table, "tournament:game_edit", number=2), {
        "version": 0, "number": 2, "type": "solo", "solo": "buben", "pflichtsolo": "pflicht", "re_seats": "3",
        "announcements": "", "re_augen": 130, "extras": "", "action": "save"}, HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    name = table.seats.get(position=3).entry.player.name
    assert f"{name} played their compulsory solo of the list in game 1 already" in page
    assert "Compulsory or voluntary solo" in page and "Compulsory solo still open:" in page


def test_a_tournament_without_lists_refuses_a_mark():
    tournament = make_tournament(players=4, rules="ddv")
    table = seated_round(tournament).tables.get()
    with pytest.raises(UserError, match="ohne Pflichtsoli"):
        results.save_game(table=table, data=solo_data(seat_ids(table)[0], pflicht=True))
    game = results.save_game(table=table, data=solo_data(seat_ids(table)[0]))
    assert game.pflichtsolo is None


# ---- the engine carries the mark --------------------------------------------------------------------

def test_the_engine_takes_the_mark_only_on_a_solo():
    rules = scoring.PRESETS["ddv"]
    game = {"players": SEATS, "type": "solo", "solo": "damen", "re": ["A"], "re_augen": 130, "pflichtsolo": True}
    assert scoring.parse_game(game, rules).pflichtsolo is True
    with pytest.raises(scoring.InvalidInput) as error:
        scoring.parse_game({**game, "type": "normal", "solo": None, "re": ["A", "B"]}, rules)
    assert [p.line("de") for p in error.value.problems] == [
        "pflichtsolo: nur ein Solo ist ein Pflicht- oder Lustsolo; dieses Spiel ist: Normalspiel"]
    with pytest.raises(scoring.InvalidInput, match="must be true or false"):
        scoring.parse_game({**game, "pflichtsolo": "ja"}, rules)


def test_the_change_log_and_the_file_say_pflicht_or_lust():
    row = {"type": "solo", "solo": "damen", "pflichtsolo": True, "re": ["Anna"], "re_augen": 130}
    assert game_text(row).startswith("Damensolo (Pflichtsolo) · Re: Anna")
    assert game_text({**row, "pflichtsolo": False}).startswith("Damensolo (Lustsolo)")
    assert game_text({**row, "pflichtsolo": None}).startswith("Damensolo · Re")


# ---- every way in: the form, the phones, the file, the printout ----------------------------------------

def game_url(tournament, table, name="tournament:game_new", **kwargs):
    return reverse(name, kwargs={"slug": tournament.slug, "round_number": table.round.number,
                                 "table_number": table.number, **kwargs})


def test_the_game_form_marks_a_solo_by_itself_and_says_whose_pflichtsolo_is_open(client, director):
    tournament = ddv_tournament(director=director, slug="ddv")
    table = seated_round(tournament).tables.get()
    client.force_login(director)
    page = client.get(game_url(tournament, table)).content.decode()
    assert 'name="pflichtsolo"' in page and "Pflichtsolo noch offen:" in page
    response = client.post(game_url(tournament, table, "tournament:game_edit", number=1), {
        "version": 0, "number": 1, "type": "solo", "solo": "damen", "pflichtsolo": "", "re_seats": "3",
        "announcements": "", "re_augen": 130, "extras": "", "action": "save"})
    assert response.status_code == 302
    assert table.games.get(number=1).pflichtsolo is True
    response = client.post(game_url(tournament, table, "tournament:game_edit", number=2), {
        "version": 0, "number": 2, "type": "solo", "solo": "buben", "pflichtsolo": "pflicht", "re_seats": "3",
        "announcements": "", "re_augen": 130, "extras": "", "action": "save"})
    assert response.status_code == 200 and not table.games.filter(number=2).exists()
    assert "hat das Pflichtsolo der Liste schon in Spiel 1 gespielt" in response.content.decode()
    page = client.get(reverse("tournament:table", kwargs={"slug": "ddv", "round_number": 1,
                                                          "table_number": 1})).content.decode()
    assert "(Pflichtsolo)" in page and "Noch offen" in page


def test_without_lists_the_game_form_has_no_mark(client, director, tournament):
    table = seated_round(tournament).tables.get(number=1)
    client.force_login(director)
    assert 'name="pflichtsolo"' not in client.get(game_url(tournament, table)).content.decode()


def test_a_phone_enters_a_pflichtsolo_and_sees_who_is_vorgefuehrt():
    tournament = ddv_tournament()
    tournaments.update_tournament(tournament=tournament, fields={"confirmation": "immediate"},
                                  rules=tournament.rules)
    table = seated_round(tournament).tables.get()
    ids = seat_ids(table)
    draft = table_links.enter_game(token=table.link_token, number=1, data=solo_data(ids[1]), key="k1", device="d1")
    assert table.games.get(number=1).pflichtsolo is True and draft.data["pflichtsolo"] is True
    with pytest.raises(UserError, match="schon in Spiel 1 gespielt"):
        table_links.enter_game(token=table.link_token, number=2, data=solo_data(ids[1], pflicht=True), key="k2",
                               device="d1")
    assert [value for value, _label in form_spec(table)["pflichtsolo"]["choices"]] == ["", "pflicht", "lust"]
    state = phone_state(table)
    assert state["dealing"][2]["dealer"] == ids[0] and state["dealing"][2]["open"] == [ids[0], ids[2], ids[3]]


def test_the_tournament_file_carries_the_option_and_the_marks():
    tournament = ddv_tournament(slug="ddv")
    table = seated_round(tournament).tables.get()
    ids = seat_ids(table)
    results.save_game(table=table, data=solo_data(ids[0]))
    results.save_game(table=table, data=solo_data(ids[0], augen=80))
    data = exporting.export_tournament(tournament)
    assert data["pflichtsoli"] == "same_dealer"
    assert [row.get("pflichtsolo") for row in data["rounds"][0]["tables"][0]["rows"]] == [True, False]
    copy = importing.import_tournament(json.loads(json.dumps(data)), slug="ddv-kopie")
    assert copy.pflichtsoli == "same_dealer"
    assert list(Game.objects.filter(table__round__tournament=copy).order_by("number")
                .values_list("pflichtsolo", "dealer__player__name")) == [
        (True, table.seats.get(position=1).entry.player.name), (False, table.seats.get(position=1).entry.player.name)]
    # a file whose list is wrong is not imported, and says where
    data["rounds"][0]["tables"][0]["rows"][1]["pflichtsolo"] = True
    with pytest.raises(ImportProblems) as error:
        importing.import_tournament(data, slug="ddv-falsch")
    assert "Spiel 2: pflichtsolo:" in str(error.value) and "schon in Spiel 1 gespielt" in str(error.value)


def test_the_printed_ddv_sheet_has_the_list_and_the_pflichtsoli():
    tournament = ddv_tournament()
    table = seated_round(tournament).tables.get()
    ids = seat_ids(table)
    entries = table_sheet(table).entries
    blank = documents.blank_rows(tournament, entries)
    games = [row for row in blank if row.kind == "open"]
    assert len(games) == 24 and games[0].dealer.startswith("1 ") and not any(row.dealer for row in games[1:])
    html = documents.sheet_document(table=table, entries=entries, table_count=1, sheet=None)
    assert "20 Normalspiele und 4 Pflichtsoli" in html and "Pflichtsolo gespielt in Spiel" in html
    results.save_game(table=table, data=solo_data(ids[2]))
    sheet = table_sheet(table)
    filled = documents.filled_rows(sheet, tournament.scoring_rules())
    assert filled[0].type == "Damensolo P" and filled[1].dealer.startswith("1 ") and not filled[2].dealer
    assert documents.pflichtsolo_cells(sheet, entries) == ["offen", "offen", "1", "offen"]
