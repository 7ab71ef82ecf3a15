"""The game's words and the engine's messages, in English and German: the one place where a game
term or a problem with an entry is worded. The command line speaks English (or German with
--lang de); the web app takes the same words in the reader's language (tournament/vocabulary.py).

- `TERMS`: game types, solos, parties, announcements and Sonderpunkte by their codes.
- `BREAKDOWN`: the items a game's value is made of ("keine 120", "Re angesagt" ...). The engine
  returns each as a `Label`: the German words of the presets (a str, as ../shared/scoring-contract.md
  shows them) that also carries its code and parameters, so the app can word it in English too.
- `MESSAGES`: what is wrong with an entry, as (field, code, parameters) from `validate.py`. A
  parameter that holds a code (a game type, a Sonderpunkt) or a list of codes is worded too:
  nobody reads "bei normal" or "höchstens 2 fuchs".
"""

from __future__ import annotations

EN, DE = 0, 1
LANGS = ("en", "de")

TERMS: dict[str, dict[str, tuple[str, str]]] = {
    "type": {
        "normal": ("normal game", "Normalspiel"), "hochzeit": ("Hochzeit", "Hochzeit"),
        "stille_hochzeit": ("silent Hochzeit", "stille Hochzeit"), "armut": ("Armut", "Armut"),
        "solo": ("solo", "Solo"),
    },
    "solo": {
        "trumpf": ("trump solo", "Trumpfsolo"), "karo": ("Diamonds solo", "Karosolo"),
        "kreuz": ("Clubs solo", "Kreuzsolo"), "pik": ("Spades solo", "Piksolo"), "herz": ("Hearts solo", "Herzsolo"),
        "damen": ("Queens solo", "Damensolo"), "buben": ("Jacks solo", "Bubensolo"),
        "fleischlos": ("fleischlos (no trumps)", "Fleischloser"), "koehler": ("Köhler", "Köhler"),
    },
    # a solo in a list with Pflichtsoli: the soloist's compulsory one, or one more (docs/pflichtsolo.md)
    "pflichtsolo": {"pflicht": ("compulsory solo", "Pflichtsolo"), "lust": ("voluntary solo", "Lustsolo")},
    "party": {"re": ("Re", "Re"), "kontra": ("Kontra", "Kontra")},
    "announcement": {
        "re": ("Re", "Re"), "kontra": ("Kontra", "Kontra"), "keine90": ("no 90", "keine 90"),
        "keine60": ("no 60", "keine 60"), "keine30": ("no 30", "keine 30"), "schwarz": ("schwarz", "schwarz"),
    },
    "sonderpunkt": {
        "fuchs": ("Fuchs caught", "Fuchs gefangen"), "doppelkopf": ("Doppelkopf", "Doppelkopf"),
        "karlchen": ("Karlchen", "Karlchen"), "karlchen_gefangen": ("Karlchen caught", "Karlchen gefangen"),
        "herzstich": ("Herzstich", "Herzstich"),
    },
    "bock_trigger": {  # what starts a Bockrunde (Rules.bock_triggers)
        "doppelkopf": ("a Doppelkopf", "ein Doppelkopf"), "solo_lost": ("a lost solo", "ein verlorenes Solo"),
        "herzstich": ("a Herzstich", "ein Herzstich"), "kontra_lost": ("a lost Kontra", "ein verlorenes Kontra"),
        "re_and_kontra": ("Re and Kontra both announced", "Re und Kontra angesagt"),
        "split_120": ("120 to 120", "120 zu 120"), "nullspiel": ("a Nullspiel", "ein Nullspiel"),
    },
    "below": {  # levels a party stayed below, in the additive presets' words
        "keine90": ("under 90", "unter 90"), "keine60": ("under 60", "unter 60"), "keine30": ("under 30", "unter 30"),
        "schwarz": ("schwarz", "schwarz"),
    },
}


def term(kind: str, code: str, lang: str = "en") -> str:
    """A game term in `lang`; an unknown code as it is (it came from outside and is shown quoted)."""
    words = TERMS.get(kind, {}).get(code)
    if words is None:
        return repr(code)
    return words[DE if lang == "de" else EN]


def terms(kind: str, codes, lang: str = "en") -> str:
    return ", ".join(term(kind, code, lang) for code in codes)


# ---- the rulesets ----------------------------------------------------------------------------------

PRESET_TITLES: dict[str, tuple[str, str]] = {
    "turnier": ("Doppelkopf tournament rules (doubling; a Nullspiel doubles the next game)",
                "Regelwerk Doppelkopfturnier (Verdopplung, Nullspiel verdoppelt das nächste Spiel)"),
    "ddv": ("DDV tournament rules (additive)", "DDV-Turnierspielregeln (additiv)"),
    "spin": ("Spin.de tournament rules (additive)", "Spin.de Turnierregeln (additiv)"),
    "spin-haus": ("Spin.de house rules (additive; a Bock round after a Doppelkopf and a lost solo)",
                  "Spin.de Hausregeln (additiv, Bockrunde nach Doppelkopf und verlorenem Solo)"),
    "40karten": ("40Karten.de house rules (40 cards, doubling, Bock)",
                 "40Karten.de Hausregeln (40 Karten, Verdopplung, Böcke)"),
    "standard": ("International standard rules (additive)", "Internationale Standardregeln (additiv)"),
}


def ruleset_title(rules, lang: str = "en") -> str:
    """A ruleset's title in `lang`: a preset's from the table above, any other's as it was given."""
    words = PRESET_TITLES.get(rules.id)
    if words is None or words[DE] != rules.title:
        return rules.title
    return words[DE if lang == "de" else EN]


# ---- what a game's value is made of --------------------------------------------------------------

BREAKDOWN: dict[str, tuple[str, str]] = {
    "keine120": ("won", "keine 120"),
    "gewonnen": ("won", "gewonnen"),
    "below": ("{level}", "{level}"),  # a level the losers stayed below: "keine 90" / "unter 90" (additive)
    "lost_absage": ("{absage} (missed announcement)", "{absage} (verlorene Absage)"),
    "absage_said": ("{absage} announced", "{absage} angesagt"),
    "absage_said_by": ("{absage} announced ({party})", "{absage} angesagt ({party})"),
    "reached_against": ("{augen} against {absage}", "{augen} gegen {absage}"),
    "reached_against_by": ("{augen} against {absage} ({party})", "{augen} gegen {absage} ({party})"),
    "gegen_die_alten": ("against the Kreuz Queens", "gegen die Alten"),
    "announced": ("{party} announced", "{party} angesagt"),
    "sonderpunkt": ("{kind} ({party})", "{kind} ({party})"),
    "solo_lost": ("solo lost", "Solo verloren"),
    "nobody_wins": ("nobody wins", "keine Partei gewinnt"),
    "below_by": ("{level} ({party})", "{level} ({party})"),
    "bock": ("Bock", "Bock"),
    "nullspiel_doubled": ("doubled after a Nullspiel", "nach Nullspiel verdoppelt"),
}
# the parameters of breakdown items that hold codes, and the kind of term they are
BREAKDOWN_TERMS = {"absage": "announcement", "party": "party", "kind": "sonderpunkt"}


class Label(str):
    """A breakdown item's words in German, the presets' words (what the command line prints and the
    contract shows), with the code and parameters to word it in another language."""

    code: str
    params: dict

    def __new__(cls, code: str, **params):
        label = super().__new__(cls, breakdown_text(code, params, "de"))
        label.code = code
        label.params = params
        return label

    def __reduce__(self):  # keep code and parameters when pickled (the PDF pool's workers)
        return (_label, (self.code, self.params))

    def text(self, lang: str = "en") -> str:
        return breakdown_text(self.code, self.params, lang)


def _label(code: str, params: dict) -> Label:
    return Label(code, **params)


def breakdown_text(code: str, params: dict, lang: str = "en") -> str:
    """A breakdown item in `lang`. `level` is worded as the scheme says: "keine 90" (doubling) or
    "unter 90" (additive, `additive` true)."""
    words: dict = {}
    for name, value in params.items():
        if name == "level":
            words[name] = term("below" if params.get("additive") else "announcement", value, lang)
        elif name in BREAKDOWN_TERMS:
            words[name] = term(BREAKDOWN_TERMS[name], value, lang)
        else:
            words[name] = value
    template = BREAKDOWN.get(code)
    if template is None:
        return code
    return template[DE if lang == "de" else EN].format(**words)


# ---- what is wrong with an entry -----------------------------------------------------------------

MESSAGES: dict[str, tuple[str, str]] = {
    # code: (English, German); lower case: the command line writes "field: message"
    "not_object": ("must be a JSON object", "muss ein JSON-Objekt sein"),
    "not_list": ("must be a list", "muss eine Liste sein"),
    "unknown_field": ("unknown field", "unbekanntes Feld"),
    "required": ("is required", "fehlt"),
    "unknown_preset": ("unknown preset {value!r}; known: {known}", "unbekannte Regelvorlage {value!r}; bekannt: {known}"),
    "rules_type": ('must be a ruleset or an object with "preset"', 'muss ein Regelwerk oder ein Objekt mit "preset" sein'),
    "not_one_of": ("must be one of {allowed}, got {value!r}", "muss eines von {allowed} sein, nicht {value!r}"),
    "type_not_one_of": ("must be one of the game types {types}, got {value!r}",
                        "muss eine der Spielarten {types} sein, nicht {value!r}"),
    "solo_not_one_of": ("this ruleset has these solos: {solos}; {value!r} is not one of them",
                        "dieses Regelwerk hat diese Soli: {solos}; {value!r} gehört nicht dazu"),
    "not_subset": ("must be a list of some of {allowed}", "muss eine Liste aus {allowed} sein"),
    "out_of_range": ("must be between {low} and {high}, got {value!r}", "muss zwischen {low} und {high} liegen, nicht {value!r}"),
    "not_boolean": ("must be true or false, got {value!r}", "muss true oder false sein, nicht {value!r}"),
    "unknown_option": ("unknown option", "unbekannte Option"),
    "lone_factor_fixed": (
        "is 3 in every ruleset (a lone player plays against three, so each game sums to zero), got {value!r}",
        "ist in jedem Regelwerk 3 (ein Alleinspieler spielt gegen drei, so bleibt jedes Spiel nullsummig), nicht {value!r}",
    ),
    "players_count": ("must name {expected} players, got {got}", "muss {expected} Spieler nennen, nicht {got}"),
    "players_names": ("must be distinct, non-empty names", "müssen verschiedene, nicht leere Namen sein"),
    "not_integer": ("must be a whole number, got {value!r}", "muss eine ganze Zahl sein, nicht {value!r}"),
    "solo_without_type": ("a kind of solo goes only with a solo", "eine Soloart gibt es nur bei einem Solo"),
    "solo_missing": ("a solo needs its kind: {solos}", "ein Solo braucht seine Art: {solos}"),
    "pflichtsolo_without_solo": (
        "only a solo is marked as a compulsory or a voluntary solo; this game is: {type}",
        "nur ein Solo ist ein Pflicht- oder Lustsolo; dieses Spiel ist: {type}",
    ),
    "re_not_player": ("{name!r} is not one of the players", "{name!r} ist keiner der Spieler"),
    "re_size": (
        "{type}: the Re party has {expected} player(s), not {got}",
        "{type}: die Re-Partei hat {expected} Spieler, nicht {got}",
    ),
    "no_trick_augen": (
        "{party} took no trick, so it cannot have {augen} Augen",
        "{party} hat keinen Stich und kann daher keine {augen} Augen haben",
    ),
    "too_many_augen_for_tricks": (
        "{party} cannot have {augen} Augen in {tricks} trick(s): {tricks} trick(s) hold {low} to {high} Augen",
        "{party} kann in {tricks} Stich(en) keine {augen} Augen haben: {tricks} Stich(e) haben {low} bis {high} Augen",
    ),
    "too_few_augen_for_tricks": (
        "{party} cannot have only {augen} Augen in {tricks} trick(s): {tricks} trick(s) hold {low} to {high} Augen",
        "{party} kann in {tricks} Stich(en) nicht nur {augen} Augen haben: {tricks} Stich(e) haben {low} bis "
        "{high} Augen",
    ),
    "announcement_not_allowed": (
        "{value!r} is not an announcement of {party}; {party} can announce: {announcements}",
        "{value!r} ist keine Ansage von {party}; {party} kann ansagen: {announcements}",
    ),
    "extra_unknown_kind": (
        "{value!r} is not a bonus point of this ruleset; it has: {kinds}",
        "{value!r} ist in diesem Regelwerk kein Sonderpunkt; es hat: {kinds}",
    ),
    "extra_in_solo": ("“{kind}” does not count in a solo", "„{kind}“ zählt im Solo nicht"),
    "extra_no_trick": (
        "{party} took no trick, so it cannot have the bonus point “{kind}”",
        "{party} hat keinen Stich und kann daher den Sonderpunkt „{kind}“ nicht haben",
    ),
    "too_many_per_game": (
        "at most {limit} × “{kind}” in a game, not {got}",
        "höchstens {limit} × „{kind}“ in einem Spiel, nicht {got}",
    ),
    "doppelkopf_augen": (
        "{party} has {augen} Augen, which hold at most {limit} Doppelkopf trick(s) of 40 Augen",
        "{party} hat {augen} Augen, das reicht für höchstens {limit} Doppelkopf-Stich(e) zu 40 Augen",
    ),
    "last_trick_twice": (
        "“{first}” and “{second}” both need the last trick, which only one party takes",
        "„{first}“ und „{second}“ brauchen beide den letzten Stich, den nur eine Partei macht",
    ),
    "penalty_not_player": ("{name!r} is not one of the players of this penalty", "{name!r} ist keiner der Spieler dieser Strafe"),
    "row_player_not_at_table": ("{name!r} does not sit at this table", "{name!r} sitzt nicht an diesem Tisch"),
    "row_rules": ("the ruleset is set once for the whole sheet, not per row", "das Regelwerk gilt für den ganzen Zettel, nicht je Zeile"),
    "row_players_required": (
        "at a table of 5 each row names the 4 players of that game",
        "am 5er-Tisch nennt jede Zeile die 4 Spieler dieses Spiels",
    ),
    "invalid_json": ("not valid JSON: {error}", "kein gültiges JSON: {error}"),
    "input_type": (
        "must be a game object, a list of game objects or a sheet object",
        "muss ein Spiel, eine Liste von Spielen oder ein Spielzettel sein",
    ),
    "cannot_read": ("cannot read {path}: {error}", "{path} kann nicht gelesen werden: {error}"),
}

# message parameters that hold a code or a list of codes, and the kind of term they are
MESSAGE_TERMS = {"type": "type", "types": "type", "solos": "solo", "kind": "sonderpunkt", "kinds": "sonderpunkt",
                 "first": "sonderpunkt", "second": "sonderpunkt", "announcements": "announcement", "party": "party"}


# messages whose `value` is what was entered for a term of this kind: a known code is worded ("Karlchen
# does not count in this ruleset", not "karlchen")
VALUE_TERMS = {"type_not_one_of": "type", "solo_not_one_of": "solo", "announcement_not_allowed": "announcement",
               "extra_unknown_kind": "sonderpunkt"}


class _Quoted(str):
    """Something entered, quoted the way the language quotes ({value!r} in a message): „ramsch“ in
    German, “ramsch” in English, never Python's 'ramsch'."""

    lang = "en"

    def __repr__(self) -> str:
        return f"„{self}“" if self.lang == "de" else f"“{self}”"


def _quoted(value: str, lang: str) -> _Quoted:
    quoted = _Quoted(value)
    quoted.lang = lang
    return quoted


def text(code: str, params: dict, lang: str = "en") -> str:
    """A problem in `lang` (lower case, without a full stop: "field: text" on the command line)."""
    words: dict[str, object] = {}
    for name, value in params.items():
        kind = MESSAGE_TERMS.get(name)
        if name == "value" and code in VALUE_TERMS and isinstance(value, str) \
                and value in TERMS[VALUE_TERMS[code]]:
            words[name] = _quoted(term(VALUE_TERMS[code], value, lang), lang)
        elif kind is None:
            words[name] = _quoted(value, lang) if isinstance(value, str) else value
        elif isinstance(value, (list, tuple, set, frozenset)):
            words[name] = terms(kind, sorted(value) if isinstance(value, (set, frozenset)) else value, lang)
        else:
            words[name] = term(kind, value, lang)
    english, german = MESSAGES[code]
    return (german if lang == "de" else english).format(**words)


def sentence(code: str, params: dict, lang: str = "en") -> str:
    """A problem as a sentence for people (a capital letter, a full stop)."""
    words = text(code, params, lang)
    return words[:1].upper() + words[1:] + ("" if words.endswith((".", "!", "?")) else ".")


# ---- the fields of an entry, for a message that says where the problem is ------------------------

FIELDS: dict[str, tuple[str, str]] = {
    "type": ("game type", "Spielart"), "solo": ("solo", "Soloart"), "re": ("Re party", "Re-Partei"),
    "pflichtsolo": ("compulsory or voluntary solo", "Pflicht- oder Lustsolo"),
    "re_augen": ("Re's Augen", "Augen von Re"), "re_tricks": ("Re's tricks", "Stiche von Re"),
    "announcements": ("announcements", "Ansagen"), "extras": ("bonus points", "Sonderpunkte"),
    "players": ("players", "Spieler"), "penalty": ("penalty", "Strafe"), "rules": ("ruleset", "Regelwerk"),
}


def field_words(field: str, lang: str = "en") -> str:
    """Where a problem is, in words: "re_augen" -> "Augen von Re", "extras.kontra.fuchs" -> "Kontra,
    Fuchs gefangen", "announcements.re" -> "Ansagen, Re". A field of no entry (a rule option, which
    the user typed by that name) stays as it is."""
    first, _dot, rest = field.partition(".")
    words = FIELDS.get(first)
    if words is None:
        return field
    steps = rest.split(".") if rest else []
    # "Kontra, Fuchs gefangen" says it is a Sonderpunkt without the word
    parts = [] if first == "extras" and len(steps) == 2 else [words[DE if lang == "de" else EN]]
    for step, kind in zip(steps, ("party", "sonderpunkt"), strict=False):
        parts.append(term(kind, step, lang) if step in TERMS[kind] else step)
    return ", ".join(parts)
