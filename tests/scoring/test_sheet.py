"""A table's games in order: Nullspiel doubling, Bock rounds, penalties, sitting out, totals."""

from .helpers import game_data, sheet

FOUR = ["A", "B", "C", "D"]
FIVE = ["A", "B", "C", "D", "E"]
NULLSPIEL = game_data(type="stille_hochzeit", re=("A",), kontra_says="kontra", re_augen=118,
                      re_extras={"fuchs": 2, "doppelkopf": 1, "karlchen": 1})  # example f: worth 0
PLAIN_RE_WIN = game_data(re_augen=130)  # worth 1 to A and B


def test_game_after_a_nullspiel_counts_double():
    result = sheet("turnier", FOUR, [NULLSPIEL, PLAIN_RE_WIN, PLAIN_RE_WIN])
    games = [row.as_json() for row in result.rows]
    assert [g["multiplier"] for g in games] == [1, 2, 1]
    assert games[1]["scores"] == {"A": 2, "B": 2, "C": -2, "D": -2}
    assert games[1]["value"] == 2
    assert games[1]["breakdown"][-1] == ["nach Nullspiel verdoppelt", "x2"]
    assert result.totals == {"A": 3, "B": 3, "C": -3, "D": -3}


def test_nullspiel_inside_a_doubled_game_queues_one_more_without_multiplying():
    result = sheet("turnier", FOUR, [NULLSPIEL, NULLSPIEL, PLAIN_RE_WIN, PLAIN_RE_WIN])
    assert [row.multiplier for row in result.rows] == [1, 2, 2, 1]
    assert result.totals == {"A": 3, "B": 3, "C": -3, "D": -3}


def test_penalty_is_not_a_game_and_does_not_use_up_the_doubling():
    penalty = {"penalty": "B", "players": FOUR}
    result = sheet("turnier", FOUR, [NULLSPIEL, penalty, PLAIN_RE_WIN])
    assert result.rows[1].as_json() == {"penalty": "B", "scores": {"A": 2, "B": -6, "C": 2, "D": 2}}
    assert result.rows[2].multiplier == 2
    assert result.totals == {"A": 4, "B": -4, "C": 0, "D": 0}


def test_ddv_penalty_is_three_and_one():
    result = sheet("ddv", FOUR, [{"penalty": "C"}])
    assert result.totals == {"A": 1, "B": 1, "C": -3, "D": 1}


def test_table_of_five_the_player_sitting_out_scores_zero():
    rows = [
        game_data(players=["B", "C", "D", "E"], re=("B", "C"), re_augen=130),  # A deals and sits out
        game_data(players=["A", "C", "D", "E"], re=("A",), type="solo", solo="damen", re_augen=130),
        {"penalty": "E", "players": ["A", "B", "D", "E"]},
    ]
    result = sheet("turnier", FIVE, rows)
    assert "A" not in result.rows[0].scores
    assert result.rows[1].scores == {"A": 3, "C": -1, "D": -1, "E": -1}
    assert result.totals == {"A": 5, "B": 3, "C": 0, "D": 0, "E": -8}
    assert sum(result.totals.values()) == 0


def test_spin_haus_bock_after_doppelkopf_doubles_the_next_four_games():
    doppelkopf = game_data(re_augen=130, re_extras={"doppelkopf": 1})
    result = sheet("spin-haus", FOUR, [doppelkopf] + [PLAIN_RE_WIN] * 5)
    assert [row.multiplier for row in result.rows] == [1, 2, 2, 2, 2, 1]
    assert result.rows[1].as_json()["breakdown"][-1] == ["Bock", "x2"]


def test_spin_haus_lost_solo_and_doppelkopf_queue_one_after_the_other():
    lost_solo = game_data(type="solo", solo="damen", re=("A",), re_augen=100)
    doppelkopf = game_data(re_augen=130, re_extras={"doppelkopf": 1})
    result = sheet("spin-haus", FOUR, [lost_solo, doppelkopf] + [PLAIN_RE_WIN] * 8)
    # the solo queues 4 doubled games, the Doppelkopf (itself doubled) 4 more: never x4
    assert [row.multiplier for row in result.rows] == [1, 2, 2, 2, 2, 2, 2, 2, 2, 1]


def test_40karten_bock_round_lasts_as_many_games_as_players_and_skips_solos():
    split = game_data(re_augen=120)  # 120:120 starts a Bockrunde
    solo = game_data(type="solo", solo="buben", re=("A",), re_augen=130)
    five_rows = [dict(split, players=["A", "B", "C", "D"])] + [dict(PLAIN_RE_WIN, players=["B", "C", "D", "E"],
                                                                    re=["B", "C"])] * 6
    result = sheet("40karten", FIVE, five_rows)
    assert [row.multiplier for row in result.rows] == [1, 2, 2, 2, 2, 2, 1]
    result = sheet("40karten", FOUR, [split, solo, PLAIN_RE_WIN, PLAIN_RE_WIN, PLAIN_RE_WIN, PLAIN_RE_WIN,
                                      PLAIN_RE_WIN])
    assert [row.multiplier for row in result.rows] == [1, 1, 2, 2, 2, 2, 1]


def test_40karten_several_triggers_in_one_game_queue_one_round_each():
    # Re and Kontra announced, and the announced Kontra lost: two Bockrunden = 8 doubled games
    game = game_data(re_says="re", kontra_says="kontra", re_augen=150)
    result = sheet("40karten", FOUR, [game] + [PLAIN_RE_WIN] * 9)
    assert result.rows[0].bock_triggers == ("kontra_lost", "re_and_kontra")
    assert [row.multiplier for row in result.rows] == [1] + [2] * 8 + [1]


def test_40karten_nullspiel_and_herzstich_trigger_bock():
    herzstich = game_data(re_augen=130, kontra_extras={"herzstich": 1})
    result = sheet("40karten", FOUR, [herzstich, PLAIN_RE_WIN])
    assert result.rows[0].bock_triggers == ("herzstich",)
    assert result.rows[1].multiplier == 2


def test_turnier_has_no_bock():
    game = game_data(re_says="re", kontra_says="kontra", re_augen=150, re_extras={"doppelkopf": 1})
    result = sheet("turnier", FOUR, [game, PLAIN_RE_WIN])
    assert result.rows[1].multiplier == 1


def test_every_player_appears_in_the_totals():
    result = sheet("turnier", FIVE, [])
    assert result.as_json() == {"games": [], "totals": {"A": 0, "B": 0, "C": 0, "D": 0, "E": 0}}
