"""How the presets differ where the worked examples do not reach: one rule per test."""

import pytest

from scoring import PRESETS, rules_from, rules_spec

from .helpers import score


def test_every_preset_listed_in_rules_md_exists():
    assert set(PRESETS) == {"turnier", "ddv", "spin", "spin-haus", "40karten", "standard"}


@pytest.mark.parametrize("preset", ["turnier", "ddv", "standard"])
def test_re_wins_with_120_only_when_kontra_alone_announced(preset):
    assert score(preset, kontra_says="kontra", re_augen=120).winner == "re"
    assert score(preset, re_says="re", kontra_says="kontra", re_augen=120).winner == "kontra"
    assert score(preset, re_augen=120).winner == "kontra"


def test_spin_re_wins_with_120_whenever_kontra_announced():
    assert score("spin", re_says="re", kontra_says="kontra", re_augen=120).winner == "re"


def test_spin_nobody_wins_scores_nothing_not_even_sonderpunkte():
    result = score("spin", re_says="keine90", kontra_says="keine90", re_augen=120, re_extras={"fuchs": 1})
    assert result.winner is None
    assert result.scores == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_turnier_nobody_wins_counts_only_the_net_sonderpunkte():
    result = score(re_says="keine90", kontra_says="keine90", re_augen=120,
                   re_extras={"fuchs": 2}, kontra_extras={"doppelkopf": 1})
    assert result.winner is None
    assert result.scores == {"A": 1, "B": 1, "C": -1, "D": -1}


def test_spin_additive_values():
    # 1 + unter 90 + Re 2 + Kontra 2 + gegen die Alten; Fuchs of Re netted: 7 - 1
    result = score("spin", re_says="re", kontra_says="kontra", re_augen=80, re_extras={"fuchs": 1})
    assert result.winner == "kontra"
    assert result.value == 6


def test_spin_karlchen_gefangen_point_goes_to_the_catching_party():
    result = score("spin", re_augen=130, kontra_extras={"karlchen_gefangen": 1})
    assert result.value == 0


def test_ddv_gegen_die_alten_not_in_armut_nor_solo():
    assert score("ddv", type="armut", re_augen=100).value == 1
    assert score("ddv", re_augen=100).value == 2
    assert score("ddv", type="solo", solo="damen", re=("A",), re_augen=100).value == 1


def test_turnier_gegen_die_alten_also_in_armut_and_solo():
    assert score(type="armut", re_augen=100).value == 2
    assert score(type="solo", solo="damen", re=("A",), re_augen=100).value == 2


def test_ddv_stille_hochzeit_scores_as_a_solo():
    result = score("ddv", type="stille_hochzeit", re=("A",), re_augen=100)
    assert result.value == 1  # no gegen die Alten in a solo
    assert result.scores == {"A": -3, "B": 1, "C": 1, "D": 1}


def test_40karten_lost_solo_costs_one_more_after_doubling():
    # keine 120 + gegen die Alten = 2, Re x2 = 4, Solo verloren + 1 = 5; the soloist pays 15
    result = score("40karten", type="solo", solo="koehler", re=("A",), re_says="re", re_augen=100)
    assert result.value == 5
    assert result.breakdown[-1] == ("Solo verloren", 1)
    assert result.scores == {"A": -15, "B": 5, "C": 5, "D": 5}


def test_40karten_schwarz_needs_no_trick_in_ten():
    result = score("40karten", re_augen=240, re_tricks=10)
    assert [label for label, _ in result.breakdown] == ["keine 120", "keine 90", "keine 60", "keine 30", "schwarz"]


def test_schwarz_is_about_tricks_not_augen():
    result = score(re_augen=240, re_tricks=11)  # Kontra took a trick of four nines
    assert "schwarz" not in [label for label, _ in result.breakdown]
    assert score(re_augen=240).value == 5  # no tricks given: 0 Augen means no trick


def test_standard_counts_doppelkopf_and_gegen_die_alten_in_a_solo():
    result = score("standard", type="solo", solo="damen", re=("A",), re_augen=100, kontra_extras={"doppelkopf": 1})
    assert result.breakdown == [("gewonnen", 1), ("gegen die Alten", 1), ("Doppelkopf (Kontra)", 1)]


def test_doubling_breakdown_labels_the_lost_absage_levels():
    result = score(re_says="keine60", kontra_says="kontra", re_augen=177)
    assert result.breakdown == [
        ("keine 120", 1), ("keine 90 (verlorene Absage)", 1), ("keine 60 (verlorene Absage)", 1),
        ("keine 90 angesagt", 1), ("keine 60 angesagt", 1), ("gegen die Alten", 1),
        ("Re angesagt", "x2"), ("Kontra angesagt", "x2")]


def test_negative_value_means_the_losing_party_gains():
    result = score(re_augen=130, kontra_extras={"fuchs": 2, "karlchen": 1})
    assert result.winner == "re"
    assert result.value == -2
    assert result.scores == {"A": -2, "B": -2, "C": 2, "D": 2}


def test_changed_options_start_from_a_preset():
    rules = rules_from({"preset": "turnier", "penalty_points": 3, "bock_triggers": ["nullspiel"]})
    assert rules.penalty_points == 3 and rules.bock_triggers == {"nullspiel"}
    assert rules.scheme == "doubling"
    assert rules_spec(rules) == {"preset": "turnier", "penalty_points": 3, "bock_triggers": ["nullspiel"]}
    assert rules_spec(rules_from("ddv")) == "ddv"


def test_the_spec_reads_the_presets_options_once(monkeypatch):
    """It is written for every table a file or a saved game scores (it read the preset's options once
    per option: 0.27 ms a table, 0.2 s for a file of 750 tables)."""
    rules = rules_from({"preset": "turnier", "penalty_points": 3})
    read = []
    options = type(rules).options
    monkeypatch.setattr(type(rules), "options", lambda self: (read.append(self.id), options(self))[1])
    assert rules_spec(rules) == {"preset": "turnier", "penalty_points": 3}
    assert len(read) == 2  # the rules' own and the preset's


def test_lone_factor_cannot_break_zero_sum():
    with pytest.raises(ValueError):
        rules_from({"preset": "turnier", "lone_factor": 2})
