"""Any JSON at all: the engine scores it or says what is wrong; it never crashes."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import InvalidInput
from scoring.__main__ import score_input

from .helpers import game_data

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-300, 300) | st.text(max_size=8)
    | st.sampled_from(["normal", "solo", "re", "kontra", "keine90", "A", "turnier", "fuchs"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12)
FIELDS = ["rules", "players", "type", "solo", "re", "re_augen", "re_tricks", "announcements", "extras", "rows",
          "penalty"]


def scores_or_explains(data):
    try:
        score_input(data)
    except InvalidInput as error:
        assert error.problems and all(p.line() and p.line("de") for p in error.problems)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_arbitrary_json_never_crashes(data):
    scores_or_explains(data)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FIELDS), json_values)
def test_a_game_with_one_field_replaced_never_crashes(field, value):
    data = game_data(re_augen=130, re_says="re", re_extras={"fuchs": 1})
    data[field] = value
    scores_or_explains(data)
    scores_or_explains({"rules": "turnier", "players": ["A", "B", "C", "D", "E"], "rows": [data]})
