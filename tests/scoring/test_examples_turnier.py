"""The eleven worked examples of seed 003 ("Regelwerk Doppelkopfturnier"), preset `turnier`.

Re party: A and B (or A alone in the lone-player examples); Kontra: the others.
"""

from .helpers import score


def test_14_fall_1_re_keine_60_kontra_schwarz():
    # keine 120, keine 90, keine 90, keine 60, keine 60, keine 30, schwarz = 7; Re doubles = 14
    result = score(re_says="keine60", re_augen=240, re_tricks=12)
    assert result.winner == "re"
    assert result.value == 14
    assert result.scores == {"A": 14, "B": 14, "C": -14, "D": -14}


def test_14_fall_2_re_keine_60_fails_against_kontra():
    # keine 120, keine 90 x2, keine 60 x2, gegen die Alten = 6; Re x2 = 12; Kontra x2 = 24
    result = score(re_says="keine60", kontra_says="kontra", re_augen=177)
    assert result.winner == "kontra"
    assert result.value == 24
    assert result.scores == {"A": -24, "B": -24, "C": 24, "D": 24}


def test_16_sonderpunkte_added_after_doubling():
    # keine 120, keine 90, keine 90, keine 60 = 4; Re x2 = 8; Fuchs, Doppelkopf, Karlchen = 11
    result = score(re_says="keine90", re_augen=190,
                   re_extras={"fuchs": 1, "doppelkopf": 1, "karlchen": 1})
    assert result.value == 11
    assert result.scores == {"A": 11, "B": 11, "C": -11, "D": -11}


def test_a_re_with_doppelkopf_against_101():
    result = score(re_says="re", re_augen=139, re_extras={"doppelkopf": 1})
    assert result.scores == {"A": 3, "B": 3, "C": -3, "D": -3}


def test_b_kontra_wins_with_60_against_keine_60_and_karl():
    # 6 points, Re x2 = 12, minus 1 for Re's Karl = 11 for each Kontra player
    result = score(re_says="keine60", re_augen=180, re_extras={"karlchen": 1})
    assert result.winner == "kontra"
    assert result.scores == {"A": -11, "B": -11, "C": 11, "D": 11}


def test_c_kontra_wins_with_120_when_both_announced():
    result = score(re_says="re", kontra_says="kontra", re_augen=120)
    assert result.winner == "kontra"
    assert result.scores == {"A": -8, "B": -8, "C": 8, "D": 8}


def test_d_kontra_karl_and_re_fuchs_cancel():
    # The example's "Karl" of the Kontra party counts one point for Kontra (it won the last trick
    # with it: rule 15 gives nothing for a Kreuz-Bube merely caught), Re's Fuchs one for Re.
    result = score(kontra_says="kontra", re_augen=77,
                   kontra_extras={"karlchen": 1}, re_extras={"fuchs": 1})
    assert result.scores == {"A": -6, "B": -6, "C": 6, "D": 6}


def test_e_kontra_keine_90_fails_re_wins_with_93():
    result = score(re_says="re", kontra_says="keine90", re_augen=93)
    assert result.winner == "re"
    assert result.scores == {"A": 12, "B": 12, "C": -12, "D": -12}


def test_f_stille_hochzeit_sonderpunkte_make_a_nullspiel():
    result = score(type="stille_hochzeit", re=("A",), kontra_says="kontra", re_augen=118,
                   re_extras={"fuchs": 2, "doppelkopf": 1, "karlchen": 1})
    assert result.winner == "kontra"
    assert result.value == 0
    assert result.scores == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_g_bubensolo_re_keine_90_wins_with_153():
    result = score(type="solo", solo="buben", re=("A",), re_says="keine90", re_augen=153)
    assert result.value == 6
    assert result.scores == {"A": 18, "B": -6, "C": -6, "D": -6}


def test_h_trumpfsolo_lost_against_kontra_gegen_die_alten():
    result = score(type="solo", solo="trumpf", re=("A",), re_says="re", kontra_says="kontra", re_augen=115)
    assert result.value == 8
    assert result.scores == {"A": -24, "B": 8, "C": 8, "D": 8}
