"""What a problem with an entry says, in English (the command line) and German (the web app).

A problem is (field, code, params); `text(code, params, lang)` words it.
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # code: (English, German)
    "not_object": ("must be a JSON object", "muss ein JSON-Objekt sein"),
    "not_list": ("must be a list", "muss eine Liste sein"),
    "unknown_field": ("unknown field", "unbekanntes Feld"),
    "required": ("is required", "fehlt"),
    "unknown_preset": ("unknown preset {value!r}; known: {known}", "unbekannte Regelvorlage {value!r}; bekannt: {known}"),
    "rules_type": ('must be a preset id or an object with "preset"', 'muss eine Regelvorlage oder ein Objekt mit "preset" sein'),
    "not_one_of": ("must be one of {allowed}, got {value!r}", "muss eines von {allowed} sein, nicht {value!r}"),
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
    "solo_without_type": ("a solo kind goes only with type solo", "eine Soloart gibt es nur beim Spieltyp Solo"),
    "solo_missing": ("type solo needs the kind of solo ({allowed})", "ein Solo braucht die Soloart ({allowed})"),
    "re_not_player": ("{name!r} is not one of the players", "{name!r} ist keiner der Spieler"),
    "re_size": (
        "a {type} game has {expected} in the Re party, got {got}",
        "bei {type} hat die Re-Partei {expected} Spieler, nicht {got}",
    ),
    "no_trick_augen": (
        "{party} took no trick, so it cannot have {augen} Augen",
        "{party} hat keinen Stich und kann daher keine {augen} Augen haben",
    ),
    "too_many_augen_for_tricks": (
        "{party} cannot have {augen} Augen in {tricks} trick(s): a trick holds at most 44",
        "{party} kann in {tricks} Stich(en) keine {augen} Augen haben: ein Stich hat höchstens 44",
    ),
    "too_few_augen_for_tricks": (
        "{party} cannot have only {augen} Augen in {tricks} trick(s): with 40 cards a trick holds at least 8",
        "{party} kann in {tricks} Stich(en) nicht nur {augen} Augen haben: mit 40 Karten hat ein Stich mindestens 8",
    ),
    "announcement_not_allowed": (
        "{value!r} is not an announcement of the {party} party; allowed: {allowed}",
        "{value!r} ist keine Ansage der {party}-Partei; erlaubt: {allowed}",
    ),
    "extra_unknown_kind": (
        "{kind!r} is not a Sonderpunkt of these rules; known: {known}",
        "{kind!r} ist in diesem Regelwerk kein Sonderpunkt; bekannt: {known}",
    ),
    "extra_in_solo": ("{kind} does not count in a solo", "{kind} zählt im Solo nicht"),
    "extra_no_trick": ("{party} took no trick, so it cannot have {kind}", "{party} hat keinen Stich und kann daher kein {kind} haben"),
    "too_many_per_game": ("at most {limit} {kind} in a game, got {got}", "höchstens {limit} {kind} in einem Spiel, nicht {got}"),
    "doppelkopf_augen": (
        "{party} has {augen} Augen, which hold at most {limit} Doppelkopf trick(s) of 40 Augen",
        "{party} hat {augen} Augen, das reicht für höchstens {limit} Doppelkopf-Stich(e) zu 40 Augen",
    ),
    "last_trick_twice": (
        "Karlchen and Karlchen gefangen both need the last trick, which only one party takes",
        "Karlchen und Karlchen gefangen brauchen beide den letzten Stich, den nur eine Partei macht",
    ),
    "penalty_not_player": ("{name!r} is not one of the players of this penalty", "{name!r} ist keiner der Spieler dieser Strafe"),
    "row_player_not_at_table": ("{name!r} does not sit at this table", "{name!r} sitzt nicht an diesem Tisch"),
    "row_rules": ("rules are set once for the sheet, not per row", "das Regelwerk gilt für den ganzen Zettel, nicht je Zeile"),
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

def text(code: str, params: dict, lang: str = "en") -> str:
    english, german = MESSAGES[code]
    template = german if lang == "de" else english
    return template.format(**params)
