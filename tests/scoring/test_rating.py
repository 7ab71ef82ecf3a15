"""The rating (scoring/rating.py): the parties of a game, the weight, and the update's properties."""

import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import parse_sheet, rating, rules_from, score_sheet
from scoring.rating import Match, Rating
from tests.scoring.helpers import game_data, score

NAMES = ["A", "B", "C", "D", "E", "F", "G", "H"]


@st.composite
def matches(draw, names=NAMES):
    four = draw(st.permutations(names))[:4]
    re = four[: draw(st.sampled_from([1, 2, 2, 2]))]
    winner = draw(st.sampled_from(["re", "kontra", None]))
    return rating.match(players=four, re=re, winner=winner, value=draw(st.integers(-3, 12)))


ratings_st = st.dictionaries(
    st.sampled_from(NAMES), st.builds(Rating, mu=st.floats(0, 50), sigma=st.floats(0.5, 9), games=st.integers(0, 200))
)


def swapped(game: Match) -> Match:
    winner = {"re": "kontra", "kontra": "re", None: None}[game.winner]
    return Match(re=game.kontra, kontra=game.re, winner=winner, weight=game.weight)


# ---- the parties of a game --------------------------------------------------------------------


def test_normal_game_is_two_against_two():
    data = game_data(re=("A", "C"), re_augen=150)
    result = score(re=("A", "C"), re_augen=150)
    match = rating.match(players=data["players"], re=data["re"], winner=result.winner, value=result.value)
    assert (match.re, match.kontra, match.winner) == (("A", "C"), ("B", "D"), "re")


@pytest.mark.parametrize("kind", [{"type": "solo", "solo": "damen"}, {"type": "stille_hochzeit"}, {"type": "hochzeit"}])
def test_lone_player_is_one_against_three(kind):
    rules = rules_from("turnier")
    sheet = parse_sheet(
        {"rules": "turnier", "players": ["A", "B", "C", "D"], "rows": [game_data(re=("B",), re_augen=100, **kind)]}
    )
    scored = score_sheet(sheet).rows[0]
    match = rating.match_of(sheet.rows[0], scored.result, scored.base_value)
    assert (match.re, match.kontra, match.winner) == (("B",), ("A", "C", "D"), "kontra")
    assert sheet.rows[0].is_solo(rules) or kind["type"] == "stille_hochzeit"


def test_dealer_sitting_out_at_a_table_of_five_is_not_rated():
    players = ["A", "B", "C", "D", "E"]  # game 1: A deals and sits out
    row = game_data(re=("B", "C"), re_augen=130, players=["B", "C", "D", "E"])
    sheet = parse_sheet({"rules": "turnier", "players": players, "rows": [row]})
    scored = score_sheet(sheet).rows[0]
    match = rating.match_of(sheet.rows[0], scored.result, scored.base_value)
    assert "A" not in match.re + match.kontra
    after = rating.update({}, match)
    assert "A" not in after and set(after) == {"B", "C", "D", "E"}


def test_weight_is_the_value_before_doubling_between_1_and_the_cap():
    assert [rating.weight(v) for v in (-2, 0, 1, 3, 4, 9)] == [1, 1, 1, 3, 4, rating.WEIGHT_CAP]
    sheet = parse_sheet(
        {
            "rules": "turnier",
            "players": ["A", "B", "C", "D"],
            "rows": [game_data(re_augen=120), game_data(re_augen=150)],
        }
    )  # 120: a Nullspiel? no: Kontra
    rows = score_sheet(sheet).rows
    for game, scored in zip(sheet.rows, rows, strict=True):
        assert rating.match_of(game, scored.result, scored.base_value).weight == rating.weight(scored.base_value)


def test_nobody_won_is_a_draw():
    match = rating.match(players="ABCD", re="AB", winner="", value=0)
    assert match.winner is None
    after = rating.update({}, match)
    assert after["A"].mu == pytest.approx(rating.MU) and after["A"].sigma < rating.SIGMA + rating.TAU


# ---- the update's properties -------------------------------------------------------------------


@given(ratings_st, matches())
def test_winners_gain_and_losers_lose(ratings, game):
    after = rating.update(ratings, game)
    if game.winner is None:
        return
    winners = game.re if game.winner == "re" else game.kontra
    losers = game.kontra if game.winner == "re" else game.re
    for p in winners:
        assert after[p].mu >= ratings.get(p, Rating()).mu
    for p in losers:
        assert after[p].mu <= ratings.get(p, Rating()).mu
    for p in winners + losers:
        assert after[p].games == ratings.get(p, Rating()).games + 1


@given(ratings_st, matches())
def test_symmetric_parties(ratings, game):
    """Naming the parties the other way round (Re as Kontra and the winner with them) changes nothing."""
    assert rating.update(ratings, game) == rating.update(ratings, swapped(game))


@given(ratings_st, matches(), st.permutations(NAMES))
def test_players_order_within_a_party_does_not_matter(ratings, game, order):
    def reordered(party):
        return tuple(sorted(party, key=order.index))

    other = Match(re=reordered(game.re), kontra=reordered(game.kontra), winner=game.winner, weight=game.weight)
    before = rating.update(ratings, game)
    after = rating.update(ratings, other)
    assert before.keys() == after.keys()
    for key in before:
        assert before[key].mu == pytest.approx(after[key].mu, abs=1e-9)


@given(ratings_st, matches())
def test_zero_sum_exactly_when_both_parties_are_equally_sure(ratings, game):
    """Weng-Lin is not zero-sum: in one of the library's updates (a game of weight 1) a party's players
    together move by the mean of their variances (sigma squared). The sum of mu stays when the two
    parties' mean variances are equal (four equally sure players, in a solo as in 2 against 2), and moves
    when they differ."""
    game = replace(game, weight=1)
    after = rating.update(ratings, game)
    players = game.re + game.kontra
    moved = sum(after[p].mu - ratings.get(p, Rating()).mu for p in players)

    def mean_variance(party):
        return sum(ratings.get(p, Rating()).sigma ** 2 + rating.TAU**2 for p in party) / len(party)

    if math.isclose(mean_variance(game.re), mean_variance(game.kontra), rel_tol=1e-12):
        assert moved == pytest.approx(0, abs=1e-9)
    elif game.winner is not None:
        assert moved != pytest.approx(0, abs=1e-9)


@given(st.floats(1, 9), st.sampled_from(["re", "kontra"]), st.integers(1, 4))
def test_zero_sum_between_equally_sure_players(sigma, winner, value):
    """Four equally sure players: zero-sum in a game of 2 against 2 of any weight (the parties stay
    equally sure from one win to the next) and in a solo of weight 1; a heavier solo is not (after its
    first win the lone player is surer than his opponents)."""
    same = {p: Rating(mu=25, sigma=sigma) for p in "ABCD"}
    pair = rating.update(same, rating.match(players="ABCD", re="AB", winner=winner, value=value))
    assert sum(pair[p].mu for p in "ABCD") == pytest.approx(100, abs=1e-9)
    solo = rating.update(same, rating.match(players="ABCD", re="A", winner=winner, value=value))
    moved = sum(solo[p].mu for p in "ABCD") - 100
    assert abs(moved) < 1e-12 if value == 1 else abs(moved) > 1e-9


@given(ratings_st, matches())
def test_a_game_of_weight_w_is_w_wins_in_a_row(ratings, game):
    """A game of weight w is rated as the library's update w times (a draw once), the dynamics added
    before the first; it counts as one game."""
    after = rating.update(ratings, game)
    one = replace(game, weight=1)
    step = rating.update(ratings, one)
    for _ in range(game.weight - 1 if game.winner else 0):
        step = rating.update(step, one, rating.Settings(tau=0))
    for p in game.re + game.kontra:
        assert (after[p].mu, after[p].sigma) == pytest.approx((step[p].mu, step[p].sigma), abs=1e-9)
        assert after[p].games == ratings.get(p, Rating()).games + 1


@given(ratings_st, matches())
def test_expected_is_symmetric_and_follows_the_ratings(ratings, game):
    re_wins = rating.expected(ratings, game.re, game.kontra)
    assert re_wins + rating.expected(ratings, game.kontra, game.re) == pytest.approx(1)
    lead = sum(ratings.get(p, Rating()).mu for p in game.re) / len(game.re) - sum(
        ratings.get(p, Rating()).mu for p in game.kontra
    ) / len(game.kontra)
    assert re_wins == pytest.approx(1 / (1 + math.exp(-rating.CALIBRATION * lead)))
    library = rating.expected(ratings, game.re, game.kontra, rating.Settings(calibration=None))
    assert (library - 0.5) * lead >= 0 and (re_wins - 0.5) * lead >= 0


def test_a_solo_between_equals_is_even():
    """The party is the mean of its players: a lone player is not three times outnumbered."""
    assert rating.expected({}, ["A"], ["B", "C", "D"]) == pytest.approx(0.5)
    won = rating.update({}, rating.match(players="ABCD", re="A", winner="re", value=1))
    lost = rating.update({}, rating.match(players="ABCD", re="A", winner="kontra", value=1))
    assert won["A"].mu - rating.MU == pytest.approx(rating.MU - lost["A"].mu)


def test_a_clearer_win_moves_more():
    small = rating.update({}, rating.match(players="ABCD", re="AB", winner="re", value=1))
    large = rating.update({}, rating.match(players="ABCD", re="AB", winner="re", value=4))
    assert large["A"].mu > small["A"].mu > rating.MU
    assert large["A"].sigma < small["A"].sigma


@settings(max_examples=50)
@given(st.lists(matches(), min_size=2, max_size=12))
def test_order_of_games_is_respected(games):
    """`replay` rates the games in the given order: the same as updating one by one, and (in general)
    not the same as in another order."""
    one_by_one: dict[str, Rating] = {}
    for game in games:
        one_by_one = rating.update(one_by_one, game)
    assert rating.replay(games) == one_by_one


def test_another_order_gives_another_rating():
    first = rating.match(players="ABCD", re="AB", winner="re", value=1)
    second = rating.match(players="ABCE", re="AC", winner="kontra", value=3)
    assert rating.replay([first, second])["A"] != rating.replay([second, first])["A"]


@settings(max_examples=50)
@given(st.lists(matches(), min_size=1, max_size=12), st.data())
def test_correction_is_recomputation_from_scratch(games, data):
    """Correcting game i: replaying from the ratings before game i gives exactly what replaying all
    the corrected games from the start gives."""
    i = data.draw(st.integers(0, len(games) - 1))
    corrected = games[:i] + [data.draw(matches())] + games[i + 1 :]
    before_i = rating.replay(games[:i])
    assert rating.replay(corrected[i:], start=before_i) == rating.replay(corrected)


def test_update_leaves_its_input_alone():
    ratings = {"A": Rating(mu=30, sigma=5, games=3)}
    rating.update(ratings, rating.match(players="ABCD", re="AB", winner="re", value=1))
    assert ratings == {"A": Rating(mu=30, sigma=5, games=3)}


def test_conservative_value_and_minimum_games():
    r = Rating(mu=30, sigma=2, games=rating.MINIMUM_GAMES - 1)
    assert r.conservative == pytest.approx(24)
    assert not r.settled and r.games_missing == 1
    ratings = {
        "A": Rating(mu=30, sigma=2, games=40),
        "B": Rating(mu=31, sigma=1, games=40),
        "C": Rating(mu=40, sigma=1, games=3),
        "D": Rating(mu=31, sigma=1, games=45),
    }
    assert [(place, key) for place, key, _r in rating.ranked(ratings)] == [(1, "B"), (1, "D"), (3, "A")]


def test_sigma_shrinks_with_games():
    ratings: dict[str, Rating] = {}
    for i in range(rating.MINIMUM_GAMES):
        ratings = rating.update(
            ratings,
            rating.match(players="ABCD", re="AB" if i % 2 else "AC", winner="re" if i % 3 else "kontra", value=1),
        )
    assert ratings["A"].sigma < rating.SIGMA and math.isfinite(ratings["A"].mu)


# ---- the mathematics is the library's -------------------------------------------------------------

scaled_player = st.tuples(st.floats(-30, 60), st.floats(0.01, 9))


@settings(max_examples=300)
@given(st.sampled_from([(2, 2), (1, 3), (3, 1)]), st.lists(scaled_player, min_size=4, max_size=4),
       st.sampled_from([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]), st.sampled_from([rating.BETA, 4.1, 25 / 6, 0.7, 33.0]))
def test_plackett_luce_is_the_librarys_rate_to_the_last_bit(sizes, players, ranks, beta):
    """`plackett_luce` computes what openskill's `PlackettLuce.rate` computes, operation for operation:
    the same floats, not merely close ones (two players of the same rating in both parties included)."""
    from openskill.models import PlackettLuce

    parties = [players[: sizes[0]], players[sizes[0]:]]
    model = PlackettLuce(mu=rating.MU, sigma=rating.SIGMA, beta=beta, tau=0.0)
    library = model.rate([[model.rating(mu=mu, sigma=sigma) for mu, sigma in party] for party in parties], ranks=ranks)
    assert rating.plackett_luce(parties, ranks, beta) == [[(r.mu, r.sigma) for r in party] for party in library]


def test_after_is_update_for_the_games_players():
    ratings = {"A": Rating(mu=30, sigma=5, games=3), "X": Rating(mu=20, sigma=4, games=9)}
    game = rating.match(players="ABCD", re="A", winner="kontra", value=3)
    assert rating.update(ratings, game) == {**ratings, **rating.after(ratings, game)}
    assert rating.after(ratings, game).keys() == set("ABCD")
