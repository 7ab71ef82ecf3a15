"""Who deals and who sits out, and the list with Pflichtsoli (seating.dealing, pure Python;
docs/pflichtsolo.md). The sentences that word a list's problems are the app's:
tests/tournament/services/test_pflichtsolo.py."""

import pytest

from seating import dealing

SEATS = ["A", "B", "C", "D"]
DDV = dealing.ListRule(games=24, same_dealer=True)


def solo(player, pflicht=None):
    return dealing.entered("solo", [player], pflicht)


def normal():
    return dealing.entered("normal", ["A", "B"], None)


@pytest.mark.parametrize("size", [4, 5])
def test_without_a_list_the_deal_goes_round_as_before(size):
    seats = list("ABCDE")[:size]
    played = {n: solo(seats[n % size], pflicht=True) for n in range(1, 31)}  # marks change nothing
    for deal in dealing.deals(seats, 30, games=played):
        assert deal.dealer == seats[(deal.number - 1) % size]
        assert deal.sitting_out == (deal.dealer if size == 5 else None)
        assert deal.known and deal.vorgefuehrt is None and not deal.open_pflichtsoli


def test_ddv_the_same_dealer_deals_again_after_a_pflichtsolo():
    games = {1: normal(), 2: solo("C", pflicht=True), 3: normal(), 4: solo("D", pflicht=False)}
    dealers = [d.dealer for d in dealing.deals(SEATS, 5, rule=DDV, games=games)]
    # game 2 (B deals) is C's Pflichtsolo: B deals game 3 again; a Lustsolo passes the deal on
    assert dealers == ["A", "B", "B", "C", "D"]


def test_the_other_option_passes_the_deal_on_after_a_pflichtsolo():
    rule = dealing.ListRule(games=24, same_dealer=False)
    games = {1: normal(), 2: solo("C", pflicht=True), 3: normal()}
    assert [d.dealer for d in dealing.deals(SEATS, 4, rule=rule, games=games)] == ["A", "B", "C", "D"]


def test_an_unmarked_solo_is_marked_as_the_rule_gives_it():
    games = {1: solo("C"), 2: solo("C"), 3: normal()}
    deals = dealing.deals(SEATS, 3, rule=DDV, games=games)
    assert [d.dealer for d in deals] == ["A", "A", "B"]  # only C's first solo is the Pflichtsolo
    assert dealing.marked(games[1], deals[0], DDV).pflichtsolo is True
    assert dealing.marked(games[2], deals[1], DDV).pflichtsolo is False


def test_a_later_games_dealer_is_known_only_once_the_games_before_are_entered():
    deals = dealing.deals(SEATS, 4, rule=DDV, games={1: normal()})
    assert [d.known for d in deals] == [True, True, False, False]


def ddv_list(pflicht_at: dict[int, str]) -> dict[int, dealing.Entered]:
    """20 Normalspiele with the given Pflichtsoli (game number -> soloist) in between."""
    games, number, normal_games = {}, 1, 0
    while normal_games < 20:
        if number in pflicht_at:
            games[number] = solo(pflicht_at[number], pflicht=True)
        else:
            games[number] = normal()
            normal_games += 1
        number += 1
    return games


def test_after_the_normalspiele_the_open_pflichtsoli_are_vorgefuehrt_next_after_the_dealer():
    games = ddv_list({5: "B", 9: "D"})  # 22 games: A and C still owe theirs
    deals = dealing.deals(SEATS, 24, rule=DDV, games=games)
    assert not any(d.vorgefuehrt for d in deals[:22])
    # 20 deals passed on: A deals game 23, the one after A who still owes it is C
    assert [(d.number, d.dealer, d.vorgefuehrt, d.known) for d in deals[22:]] == [
        (23, "A", "C", True), (24, "B", "A", True)]  # game 23 can only be C's: game 24 is fixed already
    games[23] = solo("C", pflicht=True)
    deals = dealing.deals(SEATS, 24, rule=DDV, games=games)
    assert (deals[23].dealer, deals[23].vorgefuehrt) == ("B", "A")  # a vorgeführtes solo passes the deal on


def test_at_a_table_of_5_the_one_left_to_vorfuehren_never_deals_it_himself():
    seats = list("ABCDE")
    rule = dealing.ListRule(games=30, same_dealer=True)
    games, number = {}, 1
    pflicht = {3: "B", 8: "C", 12: "D", 17: "E"}
    while len(games) < 29:
        games[number] = solo(pflicht[number], pflicht=True) if number in pflicht else normal()
        number += 1
    last = dealing.deals(seats, 30, rule=rule, games=games)[29]
    # 25 deals passed on: A would deal game 30, and A is the only one owing the Pflichtsolo: B deals
    assert (last.dealer, last.sitting_out, last.vorgefuehrt) == ("B", "B", "A")
