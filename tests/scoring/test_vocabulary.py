"""Every message and breakdown item of the engine, in both languages, worded for people: no code of a
game term ("keine90", "karlchen_gefangen", "fleischlos"), no placeholder, no Python quoting."""

import re
import string

import pytest

import scoring
from scoring import vocabulary

# the codes of game terms that are not themselves words of either language
CODES = {code for kind in vocabulary.TERMS.values() for code in kind}


def codes_in(text: str, lang: str) -> set[str]:
    """Codes that stand in `text` as words, except those that are the words of that language too
    ("Doppelkopf", "Re", "schwarz", "solo")."""
    found = set()
    for code in CODES:
        own_words = [words[vocabulary.LANGS.index(lang)] for kind in vocabulary.TERMS.values()
                     for c, words in kind.items() if c == code]
        if any(re.search(rf"\b{re.escape(code)}\b", word) for word in own_words):
            continue
        if re.search(rf"(?<![\w„“”]){re.escape(code)}(?![\w„“”])", text):
            found.add(code)
    return found


def sample(name: str, code: str):
    """A value for a message parameter: a code of the term kind the parameter holds, or a plain value."""
    kind = vocabulary.MESSAGE_TERMS.get(name)
    if name == "value" and code in vocabulary.VALUE_TERMS:
        return next(iter(vocabulary.TERMS[vocabulary.VALUE_TERMS[code]]))
    if kind is None:
        return {"value": 250, "name": "Zoe", "error": "Expecting value", "path": "game.json"}.get(name, 3)
    codes = list(vocabulary.TERMS[kind])
    return codes if name.endswith("s") else codes[-1]


def placeholders(template: str) -> set[str]:
    return {name.split("!")[0] for _text, name, _spec, _conv in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", vocabulary.LANGS)
@pytest.mark.parametrize("code", sorted(vocabulary.MESSAGES))
def test_every_message_is_worded_without_codes(code, lang):
    english, german = vocabulary.MESSAGES[code]
    params = {name: sample(name, code) for name in placeholders(english) | placeholders(german)}
    sentence = vocabulary.sentence(code, params, lang)
    assert not codes_in(sentence, lang), sentence
    assert "{" not in sentence and "'" not in sentence.replace("'s ", ""), sentence
    assert sentence.lstrip("„“")[0].isupper() and sentence.endswith("."), sentence


@pytest.mark.parametrize("lang", vocabulary.LANGS)
@pytest.mark.parametrize("code", sorted(vocabulary.BREAKDOWN))
def test_every_breakdown_item_is_worded_without_codes(code, lang):
    english, german = vocabulary.BREAKDOWN[code]
    names = placeholders(english) | placeholders(german)
    for level in vocabulary.TERMS["below"]:
        params = {"level": level, "absage": level, "party": "kontra", "kind": "karlchen_gefangen", "augen": 90}
        text = vocabulary.breakdown_text(code, {name: params[name] for name in names}, lang)
        assert not codes_in(text, lang) and "{" not in text, text


def test_english_breakdown_is_english_and_german_is_the_presets_words():
    game = scoring.parse_game({"players": ["A", "B", "C", "D"], "type": "normal", "re": ["A", "B"], "re_augen": 200,
                               "announcements": {"re": "keine90", "kontra": "kontra"},
                               "extras": {"kontra": {"fuchs": 1}}}, scoring.PRESETS["turnier"])
    items = scoring.score_game(game, scoring.PRESETS["turnier"]).breakdown
    assert [str(label) for label, _ in items] == [
        "keine 120", "keine 90", "keine 60", "keine 90 angesagt", "Re angesagt", "Kontra angesagt",
        "Fuchs gefangen (Kontra)"]
    assert [label.text("en") for label, _ in items] == [
        "won", "no 90", "no 60", "no 90 announced", "Re announced", "Kontra announced", "Fuchs caught (Kontra)"]


@pytest.mark.parametrize("lang", vocabulary.LANGS)
def test_the_messages_the_issue_found_are_worded(lang):
    """The messages a new user met: "bei normal", "fuchs zählt im Solo nicht", "höchstens 2 fuchs", a
    solo without its kind listing codes, two Karlchen reported as "Karlchen gefangen"."""
    rules = scoring.PRESETS["turnier"]
    players = ["A", "B", "C", "D"]
    bad = [
        {"type": "normal", "re": ["A"], "re_augen": 130},
        {"type": "solo", "solo": "damen", "re": ["A"], "re_augen": 130, "extras": {"re": {"fuchs": 1}}},
        {"type": "normal", "re": ["A", "B"], "re_augen": 130, "extras": {"re": {"fuchs": 2}, "kontra": {"fuchs": 1}}},
        {"type": "solo", "re": ["A"], "re_augen": 130},
        {"type": "normal", "re": ["A", "B"], "re_augen": 130,
         "extras": {"re": {"karlchen": 1}, "kontra": {"karlchen": 1}}},
    ]
    sentences = []
    for data in bad:
        with pytest.raises(scoring.InvalidInput) as error:
            scoring.parse_game({"players": players, **data}, rules)
        sentences += [problem.sentence(lang) for problem in error.value.problems]
    assert len(sentences) == 5
    for sentence in sentences:
        assert not codes_in(sentence, lang), sentence
    assert not any("gefangen" in s or "caught" in s for s in sentences[4:]), sentences[4:]
