"""What an entry may hold: each rule of validate.py, with the field and reason it reports."""

import pytest

from scoring import InvalidInput, parse_game, parse_sheet, rules_from
from scoring.validate import augen_range

from .helpers import game_data


def problems(data, preset="turnier"):
    with pytest.raises(InvalidInput) as error:
        parse_game(data, rules_from(preset))
    return [p.line() for p in error.value.problems]


def test_valid_game_parses():
    game = parse_game(game_data(re_augen=130, re_says="re", re_extras={"fuchs": 1}), rules_from("turnier"))
    assert game.re == ("A", "B") and game.kontra == ("C", "D")


@pytest.mark.parametrize("augen", [-1, 241, 250])
def test_augen_outside_0_to_240(augen):
    assert problems(game_data(re_augen=augen)) == [f"re_augen: must be between 0 and 240, got {augen}"]


def test_augen_must_be_a_whole_number():
    assert problems(game_data(re_augen="120")) == ["re_augen: must be a whole number, got “120”"]
    assert problems(game_data(re_augen=True)) == ["re_augen: must be a whole number, got True"]


def test_tricks_outside_the_decks_range():
    assert problems(game_data(re_augen=200, re_tricks=13)) == ["re_tricks: must be between 0 and 12, got 13"]
    assert problems(game_data(re_augen=200, re_tricks=11), "40karten") == [
        "re_tricks: must be between 0 and 10, got 11"]


def test_re_party_must_be_players():
    assert problems(game_data(re=("A", "Zoe"), re_augen=130)) == ["re: “Zoe” is not one of the players"]


@pytest.mark.parametrize("game_type, re, expected", [
    ("normal", ("A",), "normal game: the Re party has 2 player(s), not 1"),
    ("armut", ("A", "B", "C"), "Armut: the Re party has 2 player(s), not 3"),
    ("solo", ("A", "B"), "solo: the Re party has 1 player(s), not 2"),
    ("stille_hochzeit", ("A", "B"), "silent Hochzeit: the Re party has 1 player(s), not 2"),
])
def test_re_party_size_by_game_type(game_type, re, expected):
    data = game_data(type=game_type, re=re, re_augen=130, solo="damen" if game_type == "solo" else None)
    assert problems(data) == [f"re: {expected}"]


def test_hochzeit_has_one_or_two_re_players():
    rules = rules_from("turnier")
    assert len(parse_game(game_data(type="hochzeit", re=("A",), re_augen=130), rules).re) == 1
    assert len(parse_game(game_data(type="hochzeit", re=("A", "C"), re_augen=130), rules).re) == 2


def test_solo_kind_without_type_solo():
    assert problems(game_data(re_augen=130, solo="damen")) == ["solo: a kind of solo goes only with a solo"]


def test_solo_needs_its_kind():
    assert problems(game_data(type="solo", re=("A",), re_augen=130)) == [
        "solo: a solo needs its kind: Jacks solo, Queens solo, fleischlos (no trumps), Hearts solo, Diamonds solo, "
        "Clubs solo, Spades solo, trump solo"]


def test_koehler_only_with_40_cards():
    data = game_data(type="solo", solo="koehler", re=("A",), re_augen=130)
    assert problems(data)[0].startswith("solo: this ruleset has these solos: ")
    assert parse_game(data, rules_from("40karten")).solo == "koehler"


def test_announcement_not_allowed_for_that_party():
    assert problems(game_data(re_augen=130, re_says="kontra")) == [
        "announcements.re: “Kontra” is not an announcement of Re; Re can announce: Re, no 90, no 60, no 30, schwarz"]
    assert problems(game_data(re_augen=130, kontra_says="re"))[0].startswith(
        "announcements.kontra: “Re” is not an announcement of Kontra")


def test_more_than_two_fuechse():
    assert problems(game_data(re_augen=130, re_extras={"fuchs": 2}, kontra_extras={"fuchs": 1})) == [
        "extras.kontra.fuchs: at most 2 × “Fuchs caught” in a game, not 3"]


def test_more_than_one_karlchen():
    assert problems(game_data(re_augen=130, re_extras={"karlchen": 2}))[0] == (
        "extras.re.karlchen: must be between 0 and 1, got 2")
    assert problems(game_data(re_augen=130, re_extras={"karlchen": 1}, kontra_extras={"karlchen": 1})) == [
        "extras.kontra.karlchen: at most 1 × “Karlchen” in a game, not 2"]  # (not "Karlchen gefangen": not here)


def test_karlchen_and_karlchen_gefangen_both_need_the_last_trick():
    assert problems(game_data(re_augen=130, re_extras={"karlchen": 1}, kontra_extras={"karlchen_gefangen": 1}),
                    "spin") == [
        "extras.kontra.karlchen_gefangen: “Karlchen” and “Karlchen caught” both need the last trick, "
        "which only one party takes"]


def test_doppelkopf_tricks_the_augen_cannot_hold():
    # 40 Augen hold one Doppelkopf, 39 none; and no party has two in less than 80 Augen
    assert parse_game(game_data(re_augen=200, kontra_extras={"doppelkopf": 1}), rules_from("turnier"))
    assert problems(game_data(re_augen=201, kontra_extras={"doppelkopf": 1})) == [
        "extras.kontra.doppelkopf: Kontra has 39 Augen, which hold at most 0 Doppelkopf trick(s) of 40 Augen"]
    assert problems(game_data(re_augen=79, re_extras={"doppelkopf": 2})) == [
        "extras.re.doppelkopf: Re has 79 Augen, which hold at most 1 Doppelkopf trick(s) of 40 Augen"]


def test_more_than_four_doppelkopf_tricks_in_a_game():
    assert problems(game_data(re_augen=160, re_extras={"doppelkopf": 4}, kontra_extras={"doppelkopf": 1})) == [
        "extras.kontra.doppelkopf: at most 4 × “Doppelkopf” in a game, not 5"]


def test_sonderpunkt_kind_the_preset_does_not_have():
    assert problems(game_data(re_augen=130, re_extras={"karlchen_gefangen": 1})) == [
        "extras.re.karlchen_gefangen: “Karlchen caught” is not a bonus point of this ruleset; "
        "it has: Fuchs caught, Doppelkopf, Karlchen"]
    assert problems(game_data(re_augen=130, re_extras={"herzstich": 1}), "spin")[0].startswith(
        "extras.re.herzstich: “Herzstich” is not a bonus point")


def test_no_sonderpunkt_in_a_solo():
    data = game_data(type="solo", solo="damen", re=("A",), re_augen=130, re_extras={"doppelkopf": 1})
    assert problems(data) == ["extras.re.doppelkopf: “Doppelkopf” does not count in a solo"]
    # a Hochzeit without partner scores as a solo
    data = game_data(type="hochzeit", re=("A",), re_augen=130, kontra_extras={"fuchs": 1})
    assert problems(data) == ["extras.kontra.fuchs: “Fuchs caught” does not count in a solo"]


def test_standard_counts_doppelkopf_in_a_solo():
    data = game_data(type="solo", solo="damen", re=("A",), re_augen=130, re_extras={"doppelkopf": 1})
    assert parse_game(data, rules_from("standard")).extra("re", "doppelkopf") == 1


def test_a_party_without_trick_has_no_augen():
    assert problems(game_data(re_augen=10, re_tricks=0)) == [
        "re_augen: Re took no trick, so it cannot have 10 Augen"]
    assert problems(game_data(re_augen=230, re_tricks=12)) == [
        "re_augen: Kontra took no trick, so it cannot have 10 Augen"]


def test_a_trick_holds_at_most_44_augen():
    assert problems(game_data(re_augen=100, re_tricks=2)) == [
        "re_augen: Re cannot have 100 Augen in 2 trick(s): 2 trick(s) hold 0 to 88 Augen"]


def test_with_40_cards_a_trick_holds_at_least_8_augen():
    assert problems(game_data(re_augen=235, re_tricks=9), "40karten") == [
        "re_augen: Re cannot have 235 Augen in 9 trick(s): 9 trick(s) hold 196 to 232 Augen"]


@pytest.mark.parametrize(("re_augen", "re_tricks", "allowed"), [
    (0, 5, False),  # the tester's stale Stiche: 48 cards have only eight nines (two tricks worth 0)
    (0, 1, True), (0, 2, True), (0, 3, False),  # a trick of four nines is worth 0
    (240, 11, True), (240, 10, True), (240, 9, False),  # Kontra's tricks of nines
    (27, 5, False), (28, 5, True), (184, 5, True), (185, 5, False),
    (120, 6, True), (88, 2, True), (89, 2, False),
])
def test_augen_and_tricks_must_go_together(re_augen, re_tricks, allowed):
    try:
        parse_game(game_data(re_augen=re_augen, re_tricks=re_tricks), rules_from("turnier"))
        found = []
    except InvalidInput as error:
        found = [p.line() for p in error.problems]
    assert (found == []) == allowed, found


def test_augen_range_of_the_cards():
    assert augen_range(0, rules_from("turnier")) == (0, 0)
    assert augen_range(12, rules_from("turnier")) == (240, 240)
    assert augen_range(5, rules_from("turnier")) == (28, 184)
    assert augen_range(1, rules_from("40karten")) == (8, 44)
    assert augen_range(10, rules_from("40karten")) == (240, 240)


def test_a_party_without_trick_has_no_sonderpunkte():
    assert problems(game_data(re_augen=240, kontra_extras={"fuchs": 1})) == [
        "extras.kontra.fuchs: Kontra took no trick, so it cannot have the bonus point “Fuchs caught”"]


def test_zero_augen_with_a_trick_is_not_schwarz():
    rules = rules_from("turnier")
    game = parse_game(game_data(re_augen=240, re_tricks=11), rules)
    assert not game.took_no_trick("kontra", rules)


def test_unknown_fields_and_missing_fields():
    data = game_data(re_augen=130)
    data["re_auge"] = 3
    del data["type"]
    assert problems(data) == ["re_auge: unknown field", "type: is required"]


def test_players_must_be_four_distinct_names():
    assert problems(game_data(re_augen=130, players=["A", "B", "C"])) == ["players: must name 4 players, got 3"]
    assert problems(game_data(re_augen=130, players=["A", "B", "C", "C"])) == [
        "players: must be distinct, non-empty names"]


def test_german_messages():
    with pytest.raises(InvalidInput) as error:
        parse_game(game_data(re_augen=250), rules_from("turnier"))
    assert error.value.problems[0].line("de") == "re_augen: muss zwischen 0 und 240 liegen, nicht 250"


def test_sheet_rows_are_reported_with_their_index():
    rows = [game_data(re_augen=130), game_data(re_augen=300), {"penalty": "Zoe"}]
    with pytest.raises(InvalidInput) as error:
        parse_sheet({"rules": "turnier", "players": ["A", "B", "C", "D"], "rows": rows})
    assert [p.line() for p in error.value.problems] == [
        "rows[1] re_augen: must be between 0 and 240, got 300",
        "rows[2] penalty: “Zoe” is not one of the players of this penalty"]


def test_sheet_of_five_needs_the_players_of_each_row():
    row = game_data(re_augen=130)
    del row["players"]
    with pytest.raises(InvalidInput) as error:
        parse_sheet({"rules": "turnier", "players": ["A", "B", "C", "D", "E"], "rows": [row]})
    assert [p.line() for p in error.value.problems] == ["rows[0] players: is required"]


def test_unknown_rules_and_bad_options():
    with pytest.raises(InvalidInput) as error:
        parse_sheet({"rules": {"preset": "turnier", "penalty_points": -1, "colour": 1}, "players": ["A", "B", "C", "D"],
                     "rows": []})
    assert [p.line() for p in error.value.problems] == [
        "rules.penalty_points: must be between 0 and 100, got -1", "rules.colour: unknown option"]
