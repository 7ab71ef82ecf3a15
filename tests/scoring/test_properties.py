"""Property-based tests over random valid games and sheets, for every preset."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import PRESETS, parse_game, parse_sheet, score_game, score_sheet
from scoring.game import counted_sonderpunkte
from scoring.validate import ANNOUNCEMENTS, RE_SIZE, augen_range

PLAYERS = ["A", "B", "C", "D"]


def party_counts(draw, kinds, augen, has_trick, other_total=None):
    """Sonderpunkte one party may hold, within what the game allows."""
    counts = {}
    if not has_trick:
        return counts
    if "fuchs" in kinds:
        counts["fuchs"] = draw(st.integers(0, 2 - (other_total or {}).get("fuchs", 0)))
    if "doppelkopf" in kinds:
        counts["doppelkopf"] = draw(st.integers(0, min(augen // 40, 4 - (other_total or {}).get("doppelkopf", 0))))
    return {k: v for k, v in counts.items() if v}


@st.composite
def valid_games(draw, rules, players=PLAYERS):
    game_type = draw(st.sampled_from(sorted(RE_SIZE)))
    re = draw(st.permutations(players))[: draw(st.sampled_from(RE_SIZE[game_type]))]
    data = {"players": list(players), "type": game_type, "re": list(re)}
    if game_type == "solo":
        data["solo"] = draw(st.sampled_from(sorted(rules.solo_kinds)))
    re_tricks = draw(st.integers(0, rules.tricks))
    kontra_tricks = rules.tricks - re_tricks
    low, high = augen_range(re_tricks, rules)
    data["re_augen"] = re_augen = draw(st.integers(low, high))
    if draw(st.booleans()):
        data["re_tricks"] = re_tricks
    else:  # without tricks, 0 Augen means no trick
        re_tricks = 0 if re_augen == 0 else max(re_tricks, 1)
        kontra_tricks = 0 if re_augen == 240 else max(kontra_tricks, 1)
    data["announcements"] = {party: draw(st.sampled_from((None,) + allowed))
                             for party, allowed in ANNOUNCEMENTS.items()}

    probe = parse_game({**data, "extras": {}}, rules)
    kinds = rules.sonderpunkte_in_solo if probe.is_solo(rules) else rules.sonderpunkte
    re_extras = party_counts(draw, kinds, re_augen, re_tricks > 0)
    kontra_extras = party_counts(draw, kinds, 240 - re_augen, kontra_tricks > 0, re_extras)
    last_trick = [k for k in ("karlchen", "karlchen_gefangen") if k in kinds]
    takers = [p for p, t in (("re", re_tricks), ("kontra", kontra_tricks)) if t]
    if last_trick and takers and draw(st.booleans()):
        kind = draw(st.sampled_from(last_trick))
        target = re_extras if draw(st.sampled_from(takers)) == "re" else kontra_extras
        target[kind] = 1
    if "herzstich" in kinds and takers and draw(st.booleans()):
        (re_extras if draw(st.sampled_from(takers)) == "re" else kontra_extras)["herzstich"] = 1
    data["extras"] = {"re": re_extras, "kontra": kontra_extras}
    return data


def games_of(preset):
    return valid_games(PRESETS[preset])


def net_sonderpunkte(game, rules, party):
    other = "kontra" if party == "re" else "re"
    kinds = counted_sonderpunkte(game, rules)
    return sum(game.extra(party, k) for k in kinds) - sum(game.extra(other, k) for k in kinds)


def evaluate(breakdown):
    """An independent reading of a breakdown: numbers add, "xN" multiplies."""
    total = 0
    for label, amount in breakdown:
        assert isinstance(label, str) and label
        if isinstance(amount, str):
            assert amount in ("x2",)
            total *= 2
        else:
            assert isinstance(amount, int)
            total += amount
    return total


PRESET_IDS = sorted(PRESETS)


@pytest.mark.parametrize("preset", PRESET_IDS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_game_scores_sum_to_zero_and_lone_player_gets_three_times(preset, data):
    rules = PRESETS[preset]
    game = parse_game(data.draw(valid_games(rules)), rules)
    result = score_game(game, rules)
    assert sum(result.scores.values()) == 0
    if len(game.re) == 1:
        lone = result.scores[game.re[0]]
        for player in game.kontra:
            assert lone == -3 * result.scores[player]


@pytest.mark.parametrize("preset", PRESET_IDS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_winner_gains_unless_sonderpunkte_outweigh(preset, data):
    rules = PRESETS[preset]
    game = parse_game(data.draw(valid_games(rules)), rules)
    result = score_game(game, rules)
    if result.winner is None:
        return
    winner_member = (game.re if result.winner == "re" else game.kontra)[0]
    without_extras = score_game(replace(game, extras={"re": {}, "kontra": {}}), rules)
    assert without_extras.winner == result.winner
    assert without_extras.value >= 1
    assert result.value == without_extras.value + net_sonderpunkte(game, rules, result.winner)
    if result.scores[winner_member] <= 0:
        assert net_sonderpunkte(game, rules, result.winner) <= -without_extras.value


@pytest.mark.parametrize("preset", PRESET_IDS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_breakdown_adds_up_to_the_value(preset, data):
    rules = PRESETS[preset]
    result = score_game(parse_game(data.draw(valid_games(rules)), rules), rules)
    assert evaluate(result.breakdown) == result.value


@pytest.mark.parametrize("preset", PRESET_IDS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_sheet_of_five_sums_to_zero_and_sitting_out_scores_nothing(preset, data):
    rules = PRESETS[preset]
    table = ["A", "B", "C", "D", "E"]
    rows = []
    for number in range(10):
        sitting_out = table[number % 5]
        players = [p for p in table if p != sitting_out]
        if data.draw(st.integers(0, 9)) == 0:
            rows.append({"penalty": data.draw(st.sampled_from(players)), "players": players})
        rows.append(data.draw(valid_games(rules, players)))
    result = score_sheet(parse_sheet({"rules": preset, "players": table, "rows": rows}))
    assert sum(result.totals.values()) == 0
    for row, scored in zip(rows, result.rows, strict=True):
        assert sum(scored.scores.values()) == 0
        assert set(scored.scores) == set(row["players"])  # the one sitting out gets no entry
        if "penalty" not in row:
            assert scored.multiplier in (1, 2)
            assert evaluate(scored.result.breakdown) == scored.result.value
            assert scored.result.value == scored.base_value * scored.multiplier
    for player in table:
        assert result.totals[player] == sum(r.scores.get(player, 0) for r in result.rows)
