"""The seven `ddv` worked examples of rules.md. Re party A and B, Kontra C and D."""

from .helpers import score


def test_1_re_keine_90_with_130():
    result = score("ddv", re_says="keine90", re_augen=130)
    assert result.winner == "kontra"
    assert result.scores == {"A": -5, "B": -5, "C": 5, "D": 5}


def test_2_re_keine_60_kontra_kontra_re_170():
    result = score("ddv", re_says="keine60", kontra_says="kontra", re_augen=170)
    assert result.scores == {"A": -8, "B": -8, "C": 8, "D": 8}


def test_3_both_keine_60_nobody_wins_re_gets_3():
    result = score("ddv", re_says="keine60", kontra_says="keine60", re_augen=170)
    assert result.winner is None
    assert result.scores == {"A": 3, "B": 3, "C": -3, "D": -3}


def test_4_re_keine_90_kontra_schwarz_re_75_is_zero():
    result = score("ddv", re_says="keine90", kontra_says="schwarz", re_augen=75)
    assert result.winner is None
    assert result.scores == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_5_both_schwarz_re_57():
    result = score("ddv", re_says="schwarz", kontra_says="schwarz", re_augen=57)
    assert result.winner is None
    assert result.scores == {"A": -5, "B": -5, "C": 5, "D": 5}


def test_6_only_kontra_announced_re_80():
    result = score("ddv", kontra_says="kontra", re_augen=80)
    assert result.scores == {"A": -5, "B": -5, "C": 5, "D": 5}


def test_7_re_keine_60_with_130():
    result = score("ddv", re_says="keine60", re_augen=130)
    assert result.scores == {"A": -7, "B": -7, "C": 7, "D": 7}
