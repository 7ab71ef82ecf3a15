"""The tournament file: export, import, lossless round trip, and import errors that name their place."""

import copy
import datetime
import json
import random
import re
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

import scoring
from tournament.log.changelog import KINDS, history_model
from tournament.models import DataChange, DraftGame, Entry, Game, Penalty, Player, Round, Score, Seat, Table, Tournament
from tournament.selectors import standings
from tournament.services import generate, penalties, results, seating, sheet_state, tournaments
from tournament.services.exporting import export_tournament
from tournament.services.file_checks import ImportProblems
from tournament.services.file_reading import MOST_DEPTH, depth, nul_place
from tournament.services.importing import import_tournament
from tournament.services.organisations import default_organisation

from ..factories import make_director, make_tournament, normal_game, seat_ids, seated_round

pytestmark = pytest.mark.django_db

GAME = {"announcements": {"re": None, "kontra": None}, "extras": {}}
T1 = ["Anna", "Bernd", "Carla", "Dieter"]
T5 = ["Bernd", "Carla", "Dieter", "Frieda", "Hanna"]

# A hand-written file in canonical form: a Nullspiel (game 1 of round 1, table 1) doubling game 2, a
# penalty after game 2, a solo, a totals-only table, a table of 5 with a penalty, an empty table.
CANONICAL = {
    "format_version": 1,
    "name": "Herbstturnier",
    "slug": "herbstturnier-2026",
    "date": "2026-11-21",
    "rules": "turnier",
    "place": "Vereinsheim am Markt",
    "players": [
        {"name": "Anna", "club": "DK Nord"}, {"name": "Bernd", "club": "DK Nord"}, {"name": "Carla", "club": ""},
        {"name": "Dieter", "club": "Fuchsjagd Kiel"}, {"name": "Emil", "club": ""},
        {"name": "Frieda", "club": "Fuchsjagd Kiel"}, {"name": "Gustav", "club": ""},
        {"name": "Hanna", "club": "DK Nord"}, {"name": "Ida", "club": "", "joined_round": 2},
    ],
    "rounds": [
        {"number": 1, "status": "closed", "seed": "herbst-1", "tables": [
            {"number": 1, "players": T1, "rows": [
                {"players": T1, "type": "normal", "re": ["Anna", "Carla"], "re_augen": 130,
                 "announcements": {"re": None, "kontra": None}, "extras": {"kontra": {"fuchs": 1}}},
                {"players": T1, "type": "normal", "re": ["Bernd", "Dieter"], "re_augen": 150,
                 "announcements": {"re": "re", "kontra": None}, "extras": {}},
                {"penalty": "Dieter", "players": T1},
                {"players": T1, "type": "solo", "solo": "damen", "re": ["Carla"], "re_augen": 100, "re_tricks": 4,
                 "announcements": {"re": None, "kontra": "kontra"}, "extras": {}},
            ]},
            {"number": 2, "players": ["Emil", "Frieda", "Gustav", "Hanna"], "rows": [],
             "totals": {"Emil": 12, "Frieda": -4, "Gustav": -10, "Hanna": 2}},
        ]},
        {"number": 2, "tables": [
            {"number": 1, "players": ["Anna", "Emil", "Gustav", "Ida"], "rows": []},
            {"number": 2, "players": T5, "rows": [
                {"players": ["Carla", "Dieter", "Frieda", "Hanna"], "type": "hochzeit", "re": ["Carla", "Hanna"],
                 "re_augen": 125, "announcements": {"re": None, "kontra": None}, "extras": {"re": {"doppelkopf": 1}}},
                {"players": ["Bernd", "Dieter", "Frieda", "Hanna"], "type": "armut", "re": ["Bernd", "Frieda"],
                 "re_augen": 90, "announcements": {"re": None, "kontra": "kontra"},
                 "extras": {"kontra": {"karlchen": 1}}},
                {"penalty": "Hanna", "players": ["Bernd", "Dieter", "Frieda", "Hanna"]},
            ]},
        ]},
    ],
}


def canonical():
    return copy.deepcopy(CANONICAL)


def table_of(tournament, round_number, table_number):
    return Table.objects.get(round__tournament=tournament, round__number=round_number, number=table_number)


def row_counts():
    """The rows of every table an import writes to, the change log (historical records) included."""
    models = (Tournament, Player, Entry, Round, Table, Seat, Game, Penalty, Score, DataChange,
              *(history_model(kind) for kind in KINDS))
    return {model.__name__: model.objects.count() for model in models}


def problems_of(data, **kwargs):
    """The problem lines of a file that must not import; checks that nothing was written."""
    before = row_counts()
    with pytest.raises(ImportProblems) as error:
        import_tournament(data, **kwargs)
    assert row_counts() == before
    return error.value.lines


def without_links(data):
    """The file without the tables' entry links (a copy imported next to its original gets new ones)."""
    return {**data, "rounds": [{**r, "tables": [{k: v for k, v in t.items() if k != "link"} for t in r["tables"]]}
                               for r in data["rounds"]]}


def links(data):
    return [t.get("link") for r in data["rounds"] for t in r["tables"]]


def without_slug(data):
    return {key: value for key, value in data.items() if key not in ("slug", "name")}


# ---- round trip ----------------------------------------------------------------------------------

def test_canonical_file_round_trips():
    tournament = import_tournament(canonical())
    assert export_tournament(tournament, backup=False) == CANONICAL


def test_minimal_file_round_trips():
    data = {"name": "Kneipenabend", "slug": "kneipe", "date": "2026-03-01", "rules": "ddv",
            "players": [{"name": name, "club": ""} for name in T1],
            "rounds": [{"number": 1, "tables": [{"number": 1, "players": T1, "rows": [
                {"players": T1, "type": "normal", "re": ["Anna", "Bernd"], "re_augen": 121, **GAME}]}]}]}
    # a file without format_version (written before versions) is read as version 1 and exported with it
    assert export_tournament(import_tournament(copy.deepcopy(data)), backup=False) == {"format_version": 1, **data}


def test_docs_example_round_trips():
    text = (Path(__file__).parents[3] / "docs" / "tournament-file.md").read_text(encoding="utf-8")
    example = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    assert export_tournament(import_tournament(copy.deepcopy(example)), backup=False) == example


def test_generated_tournament_exports_imports_and_exports_the_same():
    generated = generate.generate_tournament(players=13, rounds=3, seed="rundreise")
    first = export_tournament(generated)
    copy_ = import_tournament(copy.deepcopy(first), slug="kopie")
    second = export_tournament(copy_)
    assert without_links(second) == without_links({**first, "slug": "kopie"})
    assert all(links(first)) and all(links(second)) and not set(links(first)) & set(links(second))
    assert [(r.points, r.games) for r in standings(copy_)] == [(r.points, r.games) for r in standings(generated)]


def test_a_nul_character_is_refused_where_it_is():
    data = canonical()
    data["players"][1]["club"] = "DK\x00Nord"
    assert problems_of(data) == ["Die Datei enthält ein Nullzeichen (\\u0000) in einem Text, bei players[1].club; "
                                 "so ein Zeichen kann nicht gespeichert werden."]
    assert nul_place({"a": [{"b": "ok"}, {"c": ["x", "y\x00"]}]}) == "a[1].c[1]"
    assert nul_place({"a": 1, "b\x00c": 2}) == "b\\u0000c"  # in a key: shown as the file writes it
    assert nul_place([["first\x00"], "second\x00"]) == "[0][0]"  # the first in the file's order
    assert nul_place({"a": ["ok"]}) == ""


def test_a_files_log_asks_for_each_historical_model_once(monkeypatch):
    """django-simple-history builds a new manager class on every `Model.history` (0.2 ms): checking
    and importing a file with thousands of log records asked once per record (2-3 s at 1,000 players)."""
    data = export_tournament(generate.generate_tournament(players=13, rounds=2, seed="log"))
    assert len(data["log"]) > 4 * len(KINDS)
    asked = []
    descriptor = type(Game.__dict__["history"])
    get = descriptor.__get__

    def counted(self, instance, owner):
        asked.append(owner)
        return get(self, instance, owner)

    monkeypatch.setattr(descriptor, "__get__", counted)
    import_tournament(copy.deepcopy(data), slug="kopie")
    assert len(asked) <= 2 * len(KINDS), len(asked)


def test_depth_counts_the_levels_and_finds_a_nul_anywhere():
    assert depth({"a": [{"b": "x"}], "c": 1}) == (3, False)
    assert depth({"a": [{"b\x00": 1}]}) == (3, True)  # in a key
    assert depth([[[["ok", "a\x00b"]]]]) == (4, True)
    assert depth("\x00") == (0, True)
    deep: list = []
    inner = deep
    for _ in range(100_000):  # no RecursionError, and it stops below the limit
        inner.append([])
        inner = inner[0]
    assert depth(deep) == (MOST_DEPTH + 1, False)


def test_deleted_game_late_penalty_note_and_signature_survive_export_and_import():
    tournament = make_tournament(players=8)
    table = seated_round(tournament).tables.get(number=1)
    for number in (1, 2, 3):
        results.save_game(table=table, number=number, data=normal_game(table, number))
    results.delete_game(table=table, number=2)
    ids = seat_ids(table)
    penalties.add_penalty(table=table, offender_id=ids[1], game_number=6, note="Karte verworfen")
    sheet_state.sign_table(table=table, note="alle vier")
    exported = export_tournament(tournament)
    sheet = exported["rounds"][0]["tables"][0]
    assert sheet["game_numbers"] == [1, 3]
    assert sheet["penalty_details"] == [{"game": 6, "note": "Karte verworfen"}]
    assert sheet["signed"]["note"] == "alle vier"
    copied = import_tournament(copy.deepcopy(exported), slug="kopie")
    assert without_links(export_tournament(copied)) == without_links({**exported, "slug": "kopie"})


def test_exported_rows_are_sheets_the_scoring_engine_scores_like_the_app():
    tournament = import_tournament(canonical())
    exported = export_tournament(tournament)
    for round_data in exported["rounds"]:
        for table_data in round_data["tables"]:
            if not table_data["rows"]:
                continue
            sheet = scoring.parse_sheet({"rules": exported["rules"], "players": table_data["players"],
                                         "rows": table_data["rows"]})
            totals = scoring.score_sheet(sheet).totals
            table = table_of(tournament, round_data["number"], table_data["number"])
            stored = {e.player.name: sum(e.scores.filter(table=table).values_list("points", flat=True))
                      for e in Entry.objects.filter(seats__table=table).select_related("player")}
            assert totals == stored


# ---- what import writes --------------------------------------------------------------------------

def test_import_counts_the_nullspiel_doubling():
    tournament = import_tournament(canonical())
    games = {g.number: g for g in table_of(tournament, 1, 1).games.all()}
    assert games[1].value == 0
    assert games[2].multiplier == 2 and games[2].value == 4


def test_import_attaches_a_penalty_to_the_game_row_before_it():
    tournament = import_tournament(canonical())
    penalty = table_of(tournament, 2, 2).penalties.get()
    assert penalty.offender.name == "Hanna" and penalty.game_number == 2
    assert table_of(tournament, 1, 1).penalties.get().game_number == 2


def test_import_seats_a_table_of_five_and_the_dealer_sits_out():
    tournament = import_tournament(canonical())
    table = table_of(tournament, 2, 2)
    assert [s.entry.name for s in table.seats.order_by("position")] == T5
    game = table.games.get(number=2)
    assert game.dealer.name == "Carla" and game.sitting_out.name == "Carla"


def test_import_enters_totals_only_tables_as_totals():
    tournament = import_tournament(canonical())
    table = table_of(tournament, 1, 2)
    assert table.totals_only
    points = dict(Score.objects.filter(table=table, kind=Score.Kind.TOTAL).values_list("entry__player__name", "points"))
    assert points == {"Emil": 12, "Frieda": -4, "Gustav": -10, "Hanna": 2}


def test_import_keeps_round_status_seed_and_entries():
    tournament = import_tournament(canonical())
    rounds = {r.number: r for r in tournament.rounds.all()}
    assert (rounds[1].status, rounds[1].seed) == (Round.Status.CLOSED, "herbst-1")
    assert rounds[2].status == Round.Status.PUBLISHED
    assert tournament.entries.get(player__name="Ida").joined_round == 2
    assert sum(row.points for row in standings(tournament)) == 0


def test_import_records_repeat_meetings_of_the_seating():
    tournament = import_tournament(canonical())
    # round 2 brings together again: Emil and Gustav at table 1; Bernd, Carla, Dieter and Frieda, Hanna at table 2
    assert tournament.rounds.get(number=2).repeat_meetings == 1 + 3 + 1
    assert tournament.rounds.get(number=1).repeat_meetings == 0


def test_import_makes_the_director_a_director_and_reuses_known_players():
    director = make_director()
    anna = Player.objects.create(name="Anna", club="DK Nord", organisation=default_organisation())
    tournament = import_tournament(canonical(), director=director)
    assert list(tournament.directors.all()) == [director]
    assert tournament.entries.get(start_number=1).player == anna


def test_import_of_a_draft_round_places_its_tables_unpublished():
    data = canonical()
    data["rounds"].append({"number": 3, "status": "draft", "tables": [
        {"number": 1, "players": ["Anna", "Bernd", "Emil", "Frieda"], "rows": []},
        {"number": 2, "players": ["Carla", "Dieter", "Gustav", "Hanna", "Ida"], "rows": []}]})
    tournament = import_tournament(copy.deepcopy(data))
    assert tournament.rounds.get(number=3).is_draft
    assert export_tournament(tournament, backup=False) == data


def test_place_tables_numbers_tables_in_order_and_counts_repeats():
    tournament = make_tournament(players=8)
    first = seated_round(tournament)
    ids = [seat_ids(t) for t in first.tables.order_by("number")]
    second = seating.create_round(tournament=tournament)
    seating.place_tables(round=second, tables=[ids[1], ids[0]])
    assert [seat_ids(t) for t in second.tables.order_by("number")] == [ids[1], ids[0]]
    second.refresh_from_db()
    assert second.repeat_meetings == 12  # both tables met again: 6 pairs each


# ---- import errors: every problem, where it is, nothing written ----------------------------------

def test_invalid_game_names_round_table_and_game():
    data = canonical()
    data["rounds"][1]["tables"][1]["rows"][1]["re_augen"] = 250
    assert problems_of(data) == ["Runde 2, Tisch 2, Spiel 2: re_augen: muss zwischen 0 und 240 liegen, nicht 250"]


def test_every_problem_of_the_file_is_reported_at_once():
    """Every problem of form at once (the schema), in the file's order; once the form is right, every
    problem of content at once. A file with both gets the form's lines only: each problem is said once."""
    data = canonical()
    data["rounds"][0]["tables"][0]["rows"][0]["type"] = "ramsch"
    data["rounds"][1]["tables"][1]["rows"][0]["re_augen"] = -1
    data["players"][2]["club"] = 5
    assert problems_of(data) == [
        "Spieler 3: club: muss ein Text sein, nicht 5",
        "Runde 1, Tisch 1, Spiel 1: type: muss eine der Spielarten Normalspiel, Hochzeit, stille Hochzeit, Armut, "
        "Solo sein, nicht „ramsch“"]
    data["rounds"][0]["tables"][0]["rows"][0]["type"] = "normal"
    data["players"][2]["club"] = ""
    data["rounds"][0]["tables"][1]["totals"]["Emil"] = 13
    lines = problems_of(data)
    assert len(lines) == 2
    assert lines[0] == "Runde 1, Tisch 2: totals: Die Endstände ergeben zusammen 1 statt 0."
    assert lines[1].startswith("Runde 2, Tisch 2, Spiel 1: re_augen: muss zwischen")


def test_unknown_player_at_a_table():
    data = canonical()
    data["rounds"][1]["tables"][0]["players"][3] = "Zoe"
    assert 'Runde 2, Tisch 1: players: "Zoe" steht nicht in der Spielerliste' in problems_of(data)


def test_player_at_two_tables_of_a_round():
    data = canonical()
    data["rounds"][1]["tables"][0]["players"][3] = "Hanna"
    assert "Runde 2, Tisch 2: players: Hanna sitzt in dieser Runde schon an Tisch 1" in problems_of(data)


@pytest.mark.parametrize("players", [T1[:3], T1 + ["Emil", "Frieda"] + ["Gustav"]], ids=["3", "6"])
def test_table_size_other_than_4_or_5(players):
    data = canonical()
    data["rounds"][0]["tables"][0] = {"number": 1, "players": players, "rows": []}
    assert (f"Runde 1, Tisch 1: players: ein Tisch hat 4 oder 5 Spieler, nicht {len(players)}"
            in problems_of(data))


def test_duplicate_round_number():
    data = canonical()
    data["rounds"][1]["number"] = 1
    assert "Runde 1: Runde 1 steht zweimal in der Datei." in problems_of(data)


def test_duplicate_table_number():
    data = canonical()
    data["rounds"][1]["tables"][1]["number"] = 1
    assert "Runde 2, Tisch 1: Tisch 1 steht in dieser Runde zweimal." in problems_of(data)


def test_game_players_must_match_the_seating_at_a_table_of_five():
    data = canonical()
    row = data["rounds"][1]["tables"][1]["rows"][1]  # game 2: Carla deals and sits out
    row["players"] = ["Carla", "Dieter", "Frieda", "Hanna"]
    row["re"] = ["Carla", "Frieda"]
    assert problems_of(data) == [
        "Runde 2, Tisch 2, Spiel 2: players: in Spiel 2 spielen Bernd, Dieter, Frieda, Hanna "
        "(Carla gibt und setzt aus), nicht Carla, Dieter, Frieda, Hanna"]


def test_penalty_at_a_table_of_five_needs_a_game_before_it():
    data = canonical()
    rows = data["rounds"][1]["tables"][1]["rows"]
    rows.insert(0, rows.pop())
    assert problems_of(data) == [
        "Runde 2, Tisch 2, Zeile 1 (Strafe): Am 5er-Tisch braucht eine Strafe das Spiel, in dem sie fiel "
        "(wer saß aus?): die Strafzeile gehört hinter die Zeile dieses Spiels."]


def test_penalty_at_a_table_of_five_names_the_players_of_its_game():
    data = canonical()
    data["rounds"][1]["tables"][1]["rows"][2]["players"] = ["Carla", "Dieter", "Frieda", "Hanna"]
    assert problems_of(data) == [
        "Runde 2, Tisch 2, Zeile 3 (Strafe): players: in Spiel 2 spielen Bernd, Dieter, Frieda, Hanna "
        "(Carla gibt und setzt aus), nicht Carla, Dieter, Frieda, Hanna"]


def test_penalty_offender_must_be_among_its_players():
    data = canonical()
    data["rounds"][0]["tables"][0]["rows"][2]["penalty"] = "Emil"
    assert problems_of(data) == [
        "Runde 1, Tisch 1, Zeile 3 (Strafe): penalty: „Emil“ ist keiner der Spieler dieser Strafe"]


def test_slug_already_used():
    make_tournament(slug="herbstturnier-2026")
    assert problems_of(canonical()) == ["slug: Den Kurznamen herbstturnier-2026 hat schon ein anderes Turnier."]


def test_totals_must_sum_to_zero():
    data = canonical()
    data["rounds"][0]["tables"][1]["totals"]["Emil"] = 13
    assert problems_of(data) == ["Runde 1, Tisch 2: totals: Die Endstände ergeben zusammen 1 statt 0."]


def test_draft_round_has_no_results():
    data = canonical()
    data["rounds"][1]["status"] = "draft"
    assert problems_of(data) == [
        "Runde 2, Tisch 2: Runde 2 ist ein Entwurf: Spiele, Strafen und Endstände gibt es erst in einer "
        "veröffentlichten Runde."]


def test_invalid_rules_are_reported_with_the_engines_message():
    data = canonical()
    data["rules"] = "skat"
    [line] = problems_of(data)
    assert line.startswith("rules: unbekannte Regelvorlage „skat“")


@pytest.mark.parametrize("change, line", [
    (lambda d: d.pop("name"), "name: fehlt"),
    (lambda d: d.update(date="21.11.2026"), 'date: muss ein Datum der Form JJJJ-MM-TT sein, nicht "21.11.2026"'),
    (lambda d: d.update(rounds={}), "rounds: muss eine Liste sein"),
    (lambda d: d.update(turnier=1), "turnier: unbekanntes Feld"),
    (lambda d: d["players"].append("Zoe"), "Spieler 10: player: muss ein JSON-Objekt sein"),
    (lambda d: d["players"].append({"name": "anna ", "club": "DK Nord"}),
     "Spieler 10: Anna (DK Nord) steht zweimal in der Spielerliste."),
    (lambda d: d["rounds"][0]["tables"][0].update(rows="viele"), "Runde 1, Tisch 1: rows: muss eine Liste sein"),
    (lambda d: d["rounds"][0]["tables"][0]["rows"].append(7),
     "Runde 1, Tisch 1, Zeile 5: row: muss ein JSON-Objekt sein"),
    (lambda d: d["rounds"][0].update(status="fertig"),
     "Runde 1: status: muss eines von draft, published, closed sein, nicht „fertig“"),
    (lambda d: d.update(slug="Herbst Turnier"),
     'slug: "Herbst Turnier" ist kein gültiger Kurzname (nur Buchstaben, Ziffern, - und _)'),
], ids=["name", "date", "rounds", "unknown-key", "player", "player-twice", "rows", "row", "status", "slug"])
def test_malformed_structure_is_reported_and_nothing_written(change, line):
    data = canonical()
    change(data)
    assert line in problems_of(data)


# ---- import errors beyond the form: what the file must hold (file_checks) --------------------------
# Each file below differs from CANONICAL (which imports) in one place, and each test expects exactly
# the one line of the check that covers it, so it fails when that check is missing.

def test_penalty_in_a_game_the_table_does_not_have():
    data = canonical()
    data["rounds"][0]["tables"][0]["penalty_details"] = [{"game": 999, "note": "zu spät"}]
    assert problems_of(data) == [
        "Runde 1, Tisch 1, Zeile 3 (Strafe): penalty_details.game: muss eine Spielnummer von 1 bis 8 (oder null) "
        "sein, nicht 999"]


def test_more_games_than_the_table_has():
    data = canonical()
    table = data["rounds"][0]["tables"][0]
    table["rows"] = [copy.deepcopy(table["rows"][1]) for _ in range(500)]
    assert problems_of(data) == [
        "Runde 1, Tisch 1: rows: an einem 4er-Tisch gibt es die Spiele 1 bis 8, hier stehen 500 Spiele bis Spiel 500"]


def test_game_numbers_beyond_the_tables_games():
    data = canonical()
    data["rounds"][0]["tables"][0]["game_numbers"] = [1, 2, 9]
    assert problems_of(data) == [
        "Runde 1, Tisch 1: rows: an einem 4er-Tisch gibt es die Spiele 1 bis 8, hier stehen 3 Spiele bis Spiel 9"]


def test_player_seated_before_joining():
    data = canonical()
    data["players"][8]["joined_round"] = 3  # Ida sits at table 1 of round 2
    assert problems_of(data) == [
        "Runde 2, Tisch 1: players: Ida spielt laut Spielerliste in Runde 2 nicht mit (dabei ab Runde 3)"]


def test_player_seated_in_the_round_they_withdrew_from():
    data = canonical()
    data["players"][0]["withdrawn_from_round"] = 2  # Anna sits at table 1 of round 2
    assert problems_of(data) == [
        "Runde 2, Tisch 1: players: Anna spielt laut Spielerliste in Runde 2 nicht mit "
        "(dabei ab Runde 1, zurückgezogen ab Runde 2)"]


def test_player_seated_after_the_round_they_withdrew_from():
    data = canonical()
    data["players"][0]["withdrawn_from_round"] = 2
    data["players"].append({"name": "Jens", "club": ""})
    data["rounds"][1]["tables"][0]["players"][0] = "Jens"  # Anna plays round 1 only ...
    data["rounds"].append({"number": 3, "tables": [  # ... but sits at a table of round 3 (published)
        {"number": 1, "players": ["Anna", "Bernd", "Carla", "Dieter"], "rows": []}]})
    assert problems_of(data) == [
        "Runde 3, Tisch 1: players: Anna spielt laut Spielerliste in Runde 3 nicht mit "
        "(dabei ab Runde 1, zurückgezogen ab Runde 2)"]


@pytest.mark.parametrize("numbers", [(1, 5), (2, 3)], ids=["gap", "not-from-1"])
def test_rounds_are_numbered_from_1_without_gaps(numbers):
    data = canonical()
    data["rounds"][0]["number"], data["rounds"][1]["number"] = numbers
    assert problems_of(data) == [
        "rounds: die Runden müssen 1, 2, 3 … ohne Lücke nummeriert sein, nicht {}, {}".format(*numbers)]


def test_totals_beyond_what_the_rules_allow():
    data = canonical()
    data["rounds"][0]["tables"][1]["totals"] = {"Emil": 10**9, "Frieda": -10**9, "Gustav": 0, "Hanna": 0}
    assert problems_of(data) == [
        "Runde 1, Tisch 2: totals.Emil: an diesem Tisch sind nach den Regeln höchstens ±3504 möglich, "
        "nicht 1000000000",
        "Runde 1, Tisch 2: totals.Frieda: an diesem Tisch sind nach den Regeln höchstens ±3504 möglich, "
        "nicht -1000000000"]


def test_totals_up_to_what_the_rules_allow_import():
    """The bound of the test above is the rules' (8 games under "turnier"), not a smaller one."""
    data = canonical()
    data["rounds"][0]["tables"][1]["totals"] = {"Emil": 3504, "Frieda": -3504, "Gustav": 0, "Hanna": 0}
    tournament = import_tournament(data)
    points = dict(Score.objects.filter(table=table_of(tournament, 1, 2)).values_list("entry__player__name", "points"))
    assert points == {"Emil": 3504, "Frieda": -3504, "Gustav": 0, "Hanna": 0}
    data["slug"] = "zu-viel"
    data["rounds"][0]["tables"][1]["totals"] = {"Emil": 3505, "Frieda": -3505, "Gustav": 0, "Hanna": 0}
    assert len(problems_of(data)) == 2


@pytest.mark.parametrize("joined, withdrawn", [(3, 2), (2, 1)])
def test_withdrawn_from_round_may_not_come_before_joined_round(joined, withdrawn):
    data = canonical()
    data["players"].append({"name": "Jens", "club": "", "joined_round": joined, "withdrawn_from_round": withdrawn})
    assert problems_of(data) == [f"Spieler 10: withdrawn_from_round: darf nicht vor joined_round ({joined}) liegen"]


def test_withdrawn_in_the_round_they_joined_imports():
    """Withdrawn before playing (the app stores this, so a backup of it must restore)."""
    data = canonical()
    data["players"].append({"name": "Jens", "club": "", "joined_round": 2, "withdrawn_from_round": 2})
    entry = import_tournament(data).entries.get(player__name="Jens")
    assert (entry.joined_round, entry.withdrawn_from_round) == (2, 2)


def test_start_number_beyond_99999():
    data = canonical()
    data["players"].append({"name": "Jens", "club": "", "start_number": 100000})
    assert problems_of(data) == ["Spieler 10: start_number: muss eine ganze Zahl von 1 bis 99999 sein, nicht 100000"]


def test_start_number_99999_imports():
    data = canonical()
    data["players"].append({"name": "Jens", "club": "", "start_number": 99999})
    assert import_tournament(data).entries.get(player__name="Jens").start_number == 99999


LOG_RECORD = {"at": "2026-11-21T10:00:00+00:00", "kind": "game", "type": "+", "action": "sheets_entered",
              "user": "Import", "round": 1, "table": 1, "number": 1, "detail": {"number": 1}}


def test_a_well_formed_log_record_imports():
    """The base of the malformed records below."""
    data = canonical()
    data["log"] = [copy.deepcopy(LOG_RECORD)]
    tournament = import_tournament(data)
    assert history_model("game").objects.filter(log_tournament=tournament.pk).count() == 1


@pytest.mark.parametrize("change, line", [
    (lambda d: d.update(log={"eintrag": LOG_RECORD}), "log: muss eine Liste sein"),
    (lambda d: d.update(log="leer"), "log: muss eine Liste sein"),
    (lambda d: d["log"].append("gestern"), "Änderungsprotokoll, Eintrag 2: log: muss ein JSON-Objekt sein"),
    (lambda d: d["log"][0].update(kind="spiel"),
     "Änderungsprotokoll, Eintrag 1: kind: muss eines von tournament, player, round, table, game, penalty, draft, "
     "team, registration sein, nicht „spiel“"),
    (lambda d: d["log"][0].update(type="x"), "Änderungsprotokoll, Eintrag 1: type: muss eines von +, ~, - sein, "
                                             "nicht „x“"),
    (lambda d: d["log"][0].update(at="gestern"),
     "Änderungsprotokoll, Eintrag 1: at: muss Datum und Uhrzeit der Form JJJJ-MM-TTThh:mm:ss+00:00 sein"),
    (lambda d: d["log"][0].update(at=20261121),
     "Änderungsprotokoll, Eintrag 1: at: muss ein Text sein, nicht 20261121"),
    (lambda d: d["log"][0].pop("at"), "Änderungsprotokoll, Eintrag 1: at: fehlt"),
], ids=["object", "text", "record", "kind", "type", "at-text", "at-number", "at-missing"])
def test_malformed_log_is_reported_and_nothing_written(change, line):
    data = canonical()
    data["log"] = [copy.deepcopy(LOG_RECORD)]
    change(data)
    assert problems_of(data) == [line]


def test_a_file_that_is_not_an_object():
    assert problems_of([CANONICAL]) == ["Die Datei muss ein JSON-Objekt mit dem Turnier sein."]


def test_import_problems_are_a_user_error_with_all_lines_in_the_message():
    data = canonical()
    data["date"] = 20261121
    data.pop("name")
    with pytest.raises(ImportProblems) as error:
        import_tournament(data)
    assert str(error.value.message) == "\n".join(error.value.lines) and len(error.value.lines) == 2


def test_export_writes_optional_keys_only_when_they_differ_from_the_default():
    tournament = make_tournament(players=4, rounds_planned=5, tie_breakers=["won"])
    tournament.entries.filter(start_number=4).update(start_number=9, withdrawn_from_round=2)
    exported = export_tournament(tournament)
    assert exported["rounds_planned"] == 5 and exported["tie_breakers"] == ["won"]
    assert "place" not in exported and "games_at_table_of_4" not in exported
    assert exported["players"][0] == {"name": "Anna", "club": "DK Nord"}
    assert exported["players"][3] == {"name": "Dieter", "club": "DK Nord", "start_number": 9,
                                      "withdrawn_from_round": 2}
    assert exported["date"] == datetime.date(2026, 11, 21).isoformat()


def _paths(node, prefix=()):
    if prefix:
        yield prefix
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        yield from _paths(value, prefix + (key,))


def test_wrong_values_anywhere_in_the_file_are_problems_never_crashes():
    """Any value replaced by one of the wrong type: the import reports it (or accepts it), nothing else."""
    rng = random.Random(20261121)
    wrong = [None, 0, -1, 1.5, True, "", "x", [], {}, [1], {"a": 1}, 99999, "Anna", ["Anna"]]
    paths = list(_paths(CANONICAL))
    for attempt in range(300):
        data = canonical()
        data["slug"] = f"versuch-{attempt}"
        for path in rng.sample(paths, rng.randint(1, 3)):
            node = data
            try:
                for key in path[:-1]:
                    node = node[key]
                node[path[-1]] = copy.deepcopy(rng.choice(wrong))
            except (KeyError, IndexError, TypeError):
                pass  # an earlier change removed this place
        try:
            import_tournament(data)
        except ImportProblems as error:
            assert error.lines


# ---- names: one normalisation, one identity -------------------------------------

def test_a_name_written_with_extra_spaces_imports_cleaned():
    data = canonical()
    data["players"][0]["name"] = "  Anna   Alt "
    for round in data["rounds"]:
        for table in round["tables"]:
            table["players"] = ["  Anna   Alt " if name == "Anna" else name for name in table["players"]]
            for row in table["rows"]:
                row["players"] = ["  Anna   Alt " if name == "Anna" else name for name in row["players"]]
                if "re" in row:
                    row["re"] = ["  Anna   Alt " if name == "Anna" else name for name in row["re"]]
    tournament = import_tournament(data)
    assert tournament.entries.get(start_number=1).player.name == "Anna Alt"
    exported = export_tournament(tournament, backup=False)
    assert exported["players"][0]["name"] == "Anna Alt" and "Anna Alt" in exported["rounds"][0]["tables"][0]["players"]


def test_the_same_player_twice_ignoring_case_and_spaces_is_a_problem_line():
    data = canonical()
    data["players"].append({"name": " ANNA ", "club": "dk nord"})
    assert problems_of(data) == ["Spieler 10: Anna (DK Nord) steht zweimal in der Spielerliste."]


def test_the_same_name_with_other_clubs_is_named_with_the_club_in_the_file():
    data = canonical()
    data["players"].append({"name": "Anna", "club": "SG West"})
    with pytest.raises(ImportProblems) as error:  # "Anna" alone could be either
        import_tournament(copy.deepcopy(data))
    assert 'Runde 1, Tisch 1: players: "Anna" steht nicht in der Spielerliste' in error.value.lines
    text = json.dumps(data["rounds"]).replace('"Anna"', '"Anna (DK Nord)"')
    data["rounds"] = json.loads(text)
    data["rounds"][1]["tables"][0]["players"][3] = "Anna (SG West)"  # instead of Ida
    tournament = import_tournament(data)
    assert sorted(tournament.entries.filter(player__name="Anna").values_list("player__club", flat=True)) == [
        "DK Nord", "SG West"]
    assert export_tournament(tournament, backup=False) == data


def test_a_backup_of_two_players_of_the_same_name_restores():
    tournament = make_tournament(players=7, slug="zwei-anna")
    tournaments.register_player(tournament=tournament, name="Anna", club="SG West")
    round = seated_round(tournament)
    for table in round.tables.all():
        results.save_game(table=table, data=normal_game(table))
    data = export_tournament(tournament)
    seated = {name for r in data["rounds"] for t in r["tables"] for name in t["players"]}
    assert {"Anna (DK Nord)", "Anna (SG West)"} <= seated
    copy_ = import_tournament(data, slug="kopie")
    assert without_links(export_tournament(copy_))["rounds"] == without_links(data)["rounds"]
    assert any("Anna (SG West)" in json.dumps(record["detail"]) for record in data["log"])  # the log's words too
    assert [(r.name, r.points) for r in standings(copy_)] == [(r.name, r.points) for r in standings(tournament)]


# ---- one rule, one place: the file's values are checked by the models' own validation ----

def model_messages(instance, **values) -> dict[str, list[str]]:
    """What `full_clean` of an unsaved model says about `values`."""
    for name, value in values.items():
        setattr(instance, name, value)
    with pytest.raises(ValidationError) as error:
        instance.full_clean(exclude=[f.name for f in instance._meta.fields if f.name not in values])
    return error.value.message_dict


def test_a_start_number_beyond_99999_is_refused_by_the_model_as_by_the_file():
    assert model_messages(Entry(), start_number=100000) == {
        "start_number": ["muss eine ganze Zahl von 1 bis 99999 sein, nicht 100000"]}


def test_withdrawn_before_joining_is_refused_by_the_model_as_by_the_file():
    assert model_messages(Entry(), joined_round=3, withdrawn_from_round=2) == {
        "withdrawn_from_round": ["darf nicht vor joined_round (3) liegen"]}


def test_a_round_clock_beyond_600_minutes_is_refused_by_the_model_as_by_the_file():
    assert model_messages(Tournament(), round_minutes=601) == {
        "round_minutes": ["muss eine ganze Zahl von 0 bis 600 sein, nicht 601"]}
    data = canonical()
    data["round_minutes"] = 601
    assert problems_of(data) == ["round_minutes: muss eine ganze Zahl von 0 bis 600 sein, nicht 601"]


def test_a_list_with_pflichtsoli_shorter_than_the_table_is_refused_by_the_model_as_by_the_file():
    assert model_messages(Tournament(), pflichtsoli="same_dealer", games_at_table_of_4=3) == {
        "games_at_table_of_4": ["Eine Liste mit Pflichtsoli hat am 4er-Tisch mindestens 4 Spiele, eines je "
                                "Pflichtsolo."]}
    data = canonical()
    data.update(pflichtsoli="same_dealer", games_at_table_of_4=3)
    data["rounds"] = []  # no games: only the tournament's own problem
    assert problems_of(data) == ["games_at_table_of_4: Eine Liste mit Pflichtsoli hat am 4er-Tisch mindestens 4 "
                                 "Spiele, eines je Pflichtsolo."]


def test_a_taken_short_name_is_refused_by_the_model_as_by_the_file():
    make_tournament(slug="herbstturnier-2026")
    with pytest.raises(ValidationError) as error:
        Tournament(name="x", slug="herbstturnier-2026", date=datetime.date(2026, 11, 21)).validate_unique()
    assert error.value.message_dict == {"slug": ["Den Kurznamen herbstturnier-2026 hat schon ein anderes Turnier."]}


@pytest.mark.parametrize("where, key, model, field", [
    ((), "name", Tournament, "name"),
    (("players", 0), "club", Player, "club"),
    (("rounds", 0), "seed", Round, "seed"),
    (("rounds", 0, "tables", 0, "signed"), "note", Table, "signed_note"),
], ids=["tournament", "player", "round", "signature"])
def test_a_text_too_long_gets_the_models_own_message(where, key, model, field):
    data = canonical()
    data["rounds"][0]["tables"][0]["signed"] = {"at": "2026-11-21T22:00:00+00:00"}
    node = data
    for step in where:
        node = node[step]
    node[key] = "x" * 301
    [message] = model_messages(model(), **{field: "x" * 301})[field]
    [line] = problems_of(data)
    assert line.endswith(f"{key}: {message}") and "301" in message


def draft(**changes):
    """A waiting entry from the phones of round 2, table 1 (empty in CANONICAL), for game 1."""
    players = ["Anna", "Emil", "Gustav", "Ida"]
    return {"number": 1, "status": "waiting", "key": "k" * 32, "device": "telefon-1", "at": "2026-11-21T20:00:00+00:00",
            "row": {"players": players, "type": "normal", "re": ["Anna", "Emil"], "re_augen": 130, **GAME}, **changes}


def test_a_waiting_entry_from_the_phones_imports():
    data = canonical()
    data["rounds"][1]["tables"][0]["drafts"] = [draft()]
    table = table_of(import_tournament(data), 2, 1)
    assert table.drafts.get().created_at == datetime.datetime(2026, 11, 21, 20, tzinfo=datetime.UTC)


def test_a_waiting_entry_sent_at_no_time_is_a_problem_line():
    """It was imported as sent at the time of the import (the file's time silently lost)."""
    data = canonical()
    data["rounds"][1]["tables"][0]["drafts"] = [draft(at="gestern")]
    assert problems_of(data) == [
        "Runde 2, Tisch 1, Eingabe 1 vom Tisch: at: muss Datum und Uhrzeit der Form JJJJ-MM-TTThh:mm:ss+00:00 sein"]


def test_a_phones_key_too_long_gets_the_models_own_message():
    data = canonical()
    data["rounds"][1]["tables"][0]["drafts"] = [draft(key="k" * 65)]
    [message] = model_messages(DraftGame(), key="k" * 65)["key"]
    assert problems_of(data) == [f"Runde 2, Tisch 1, Eingabe 1 vom Tisch: key: {message}"]
