"""The exchange format (docs/tournament-file.md, schemas/tournament-file.v1.schema.json): the version in
every file and the refusal of one this software does not know, every older file still importing, the
schema against the docs' examples, the code's vocabularies and a rich tournament, its findings as
problem lines that say where, `manage.py check_file`, and export → import → export byte-identical."""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

import scoring
from scoring import presets
from scoring.validate import ANNOUNCEMENTS, MOST_PER_GAME, RE_SIZE
from tournament import privacy
from tournament.fileformat import FORMAT_VERSION
from tournament.log import changelog
from tournament.log.audit import Actor
from tournament.models import DraftGame, Game, Penalty, Player, Round, Tournament
from tournament.ranking import TIE_BREAKERS
from tournament.services import (
    exporting,
    file_checks,
    file_references,
    file_schema,
    file_teams,
    penalties,
    player_details,
    results,
    seating,
    sheet_state,
    table_links,
    teams,
    tournaments,
)
from tournament.services.importing import import_tournament

from ..factories import make_director, make_tournament, normal_game, seat_ids
from .test_backups import busy_tournament
from .test_transfer import CANONICAL, canonical, problems_of

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).parents[3]
DOC = ROOT / "docs" / "tournament-file.md"
OLD_FILES = sorted((Path(__file__).parents[1] / "files").glob("*.json"))


def as_written(data) -> str:
    """The file as the export command writes it (`manage.py export_tournament`)."""
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def schema_errors(data) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in file_schema.validator().iter_errors(data)]


def wipe():
    """An empty database: no tournament, no player, no change log (a backup restored elsewhere)."""
    for model in (DraftGame, Game, Penalty, Tournament):  # games and penalties keep their players (PROTECT)
        model.objects.all().delete()
    Player.objects.all().delete()
    for kind in changelog.KINDS:
        changelog.history_model(kind).objects.all().delete()


# ---- the version ---------------------------------------------------------------------------------

def test_every_export_says_its_version_first():
    data = exporting.export_tournament(make_tournament(players=4))
    assert list(data)[0] == "format_version" and data["format_version"] == FORMAT_VERSION == 1
    assert file_schema.schema()["properties"]["format_version"]["const"] == FORMAT_VERSION
    assert file_schema.SCHEMA_PATH.name == "tournament-file.v1.schema.json"


@pytest.mark.parametrize("version", [2, 99, "1", 1.0, True, None, 0, -1, [1]])
def test_a_version_this_software_does_not_know_is_refused_whole(version):
    data = {**canonical(), "format_version": version, "rounds": "kaputt"}  # nothing else is looked at
    with pytest.raises(file_schema.UnknownVersion) as error:
        import_tournament(data)
    assert error.value.reason == "unknown_format_version" and error.value.version == version
    [line] = problems_of(data)
    assert line == ("format_version: Diese Datei ist im Austauschformat Version " + json.dumps(version)
                    + " geschrieben; dieses Programm kennt nur Version 1 (und Dateien ohne Versionsangabe). Eine "
                    "neuere Version des Programms kann sie lesen.")


@pytest.mark.parametrize("path", OLD_FILES, ids=[path.stem for path in OLD_FILES])
def test_every_older_file_still_imports_and_exports_as_version_1(path):
    """Files written before the format had a version (the docs' example of the first release,
    2026-11-21, and a backup with its change log written by the software of 2026-11-25): read as
    version 1, and exported again they are the same file with its version."""
    old = json.loads(path.read_text(encoding="utf-8"))
    assert "format_version" not in old
    assert file_schema.file_version(old) == 0 and file_schema.form_problems(old) == []
    tournament = import_tournament(copy.deepcopy(old), director=make_director())
    backup = "log" in old
    exported = exporting.export_tournament(tournament, backup=backup)
    if backup:  # PostgreSQL keeps a JSON object's keys in an order of its own (jsonb): the log's details
        # are compared as objects, everything else byte for byte
        assert [record["detail"] for record in exported["log"]] == [record["detail"] for record in old["log"]]
        for data in (exported, old):
            data["log"] = [{**record, "detail": None} for record in data["log"]]
    assert as_written(exported) == as_written({"format_version": 1, **old})


# ---- the schema ------------------------------------------------------------------------------------

def doc_examples() -> list[tuple[str | None, dict]]:
    """The ```json blocks of the format's documentation, each with the part of the schema it shows:
    a whole file, or the part named by a comment right before it (`<!-- schema: #/$defs/player -->`)."""
    text = DOC.read_text(encoding="utf-8")
    return [(part or None, json.loads(block))
            for part, block in re.findall(r"(?:<!-- schema: (\S+) -->\n)?```json\n(.*?)```", text, re.S)]


def part_validator(pointer: str):
    from jsonschema import Draft202012Validator

    schema = file_schema.schema()
    kind, name = pointer.removeprefix("#/").split("/")
    part = {"$ref": f"#/$defs/{name}"} if kind == "$defs" else schema["properties"][name]
    return Draft202012Validator({"$defs": schema["$defs"], **part})


def test_every_json_example_of_the_docs_is_valid_and_a_whole_file_imports():
    examples = doc_examples()
    assert len(examples) >= 5 and sum(1 for part, _ in examples if part is None) >= 2
    for part, example in examples:
        if part is None:  # a whole file: valid, importable, and exported the same
            assert schema_errors(example) == []
            tournament = import_tournament(json.loads(json.dumps(example)))
            assert as_written(exporting.export_tournament(tournament, backup="log" in example)) == as_written(
                {"format_version": 1, **example})
        else:
            assert [e.message for e in part_validator(part).iter_errors(example)] == [], part


def _keywords(node, found: set[str]):
    if isinstance(node, dict):
        for key, value in node.items():
            found.add(key)
            if key in ("properties", "$defs"):
                for sub in value.values():
                    _keywords(sub, found)
            elif key not in ("enum", "const", "default", "required", "description", "title"):
                _keywords(value, found)
    elif isinstance(node, list):
        for item in node:
            _keywords(item, found)


def test_the_schema_is_valid_draft_2020_12_and_uses_only_keywords_the_problem_lines_word():
    from jsonschema import Draft202012Validator

    schema = file_schema.schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    found: set[str] = set()
    _keywords(schema, found)
    worded = {"type", "enum", "const", "required", "additionalProperties", "uniqueItems"}
    structural = {"$schema", "$id", "$defs", "$ref", "title", "description", "default", "format", "properties",
                  "items", "if", "then", "else"}
    assert found <= worded | structural, found - worded - structural


def _closed(node) -> list:
    """Every object of the schema that has properties: each must refuse any other key."""
    out = []
    if isinstance(node, dict):
        if "properties" in node:
            out.append(node)
        for key, value in node.items():
            if key not in ("enum", "const", "default"):
                out.extend(_closed(value))
    elif isinstance(node, list):
        for item in node:
            out.extend(_closed(item))
    return out


def test_the_schemas_keys_are_the_keys_the_import_knows():
    """"Any other key is an error": every object of the schema is closed, with the same keys as the
    import's lists of known keys."""
    schema = file_schema.schema()
    assert all(node.get("additionalProperties") is False for node in _closed(schema))
    defs = schema["$defs"]
    assert set(schema["properties"]) == set(file_checks.TOURNAMENT_KEYS)
    assert set(defs["player"]["properties"]) == set(file_checks.PLAYER_KEYS)
    assert set(defs["round"]["properties"]) == set(file_checks.ROUND_KEYS)
    assert set(defs["table"]["properties"]) == set(file_references.TABLE_KEYS)
    assert set(defs["draft"]["properties"]) == set(file_references.DRAFT_KEYS)
    assert set(defs["log_record"]["properties"]) == set(file_checks.LOG_KEYS)
    assert set(defs["team"]["properties"]) == set(file_teams.TEAM_KEYS)
    assert set(defs["game_row"]["properties"]) | {"rules"} == set(scoring.validate.GAME_FIELDS)
    assert set(defs["penalty_row"]["properties"]) == set(scoring.validate.PENALTY_FIELDS)


def test_the_schemas_vocabularies_are_the_codes():
    schema = file_schema.schema()
    defs, top = schema["$defs"], schema["properties"]
    assert defs["game_row"]["properties"]["type"]["enum"] == list(RE_SIZE)
    assert defs["solo_kind"]["enum"] == list(presets.SOLO_KINDS_48) + ["koehler"]
    for party, allowed in ANNOUNCEMENTS.items():
        assert defs["game_row"]["properties"]["announcements"]["properties"][party]["enum"] == [None, *allowed]
    assert list(defs["extra_counts"]["properties"]) == list(presets.SONDERPUNKT_KINDS)
    assert set(MOST_PER_GAME) == set(presets.SONDERPUNKT_KINDS)
    options = set(presets.TURNIER.options())
    assert set(defs["rules"]["properties"]) == options | {"preset"}
    for name, choices in presets._CHOICES.items():
        assert defs["rules"]["properties"][name]["enum"] == list(choices)
    assert defs["rules"]["properties"]["bock_triggers"]["items"]["enum"] == list(presets.BOCK_TRIGGERS)
    assert top["tie_breakers"]["items"]["enum"] == list(TIE_BREAKERS)
    assert top["ranking"]["enum"] == list(Tournament.Ranking.values)
    assert top["pflichtsoli"]["enum"] == list(Tournament.Pflichtsoli.values)
    assert defs["player"]["properties"]["publication"]["enum"] == list(privacy.LEVELS)
    assert defs["round"]["properties"]["status"]["enum"] == list(Round.Status.values)
    assert defs["round"]["properties"]["mode"]["enum"] == list(Round.Mode.values)
    assert defs["log_record"]["properties"]["kind"]["enum"] == list(changelog.KINDS)
    for key, default in file_checks.TOURNAMENT_DEFAULTS.items():  # the defaults the export leaves out
        assert top[key]["default"] == default, key


# ---- the schema's findings as problem lines --------------------------------------------------------

def with_changes(*changes):
    data = canonical()
    data["rounds"][0]["tables"][0]["penalty_details"] = [{"note": "zu früh"}]
    data["rounds"][0]["tables"][1]["drafts"] = [
        {"number": 1, "row": {"players": ["Emil", "Frieda", "Gustav", "Hanna"], "type": "normal",
                              "re": ["Emil", "Frieda"], "re_augen": 121}, "status": "waiting", "key": "k",
         "device": "d"}]
    for change in changes:
        change(data)
    return data


def t1(data):
    return data["rounds"][0]["tables"][0]


@pytest.mark.parametrize(("change", "line"), [
    (lambda d: d.update(rules={"preset": "turnier", "farbe": 1}), "rules.farbe: unbekannte Option"),
    (lambda d: d.update(rules={"preset": "turnier", "deck": 52}), "rules.deck: muss eines von 48, 40 sein, nicht 52"),
    (lambda d: d.update(rules=7), 'rules: muss ein Regelwerk oder ein Objekt mit "preset" sein'),
    (lambda d: d.update(rules={"sonderpunkte": ["fuchs", "ass"]}),
     "rules.sonderpunkte: muss eine Liste aus fuchs, doppelkopf, karlchen, karlchen_gefangen, herzstich sein"),
    (lambda d: d.update(tie_breakers=["won", "won"]), "tie_breakers: muss eine Liste aus won, best_round sein"),
    (lambda d: d.update(tie_breakers=["los"]), "tie_breakers: muss eine Liste aus won, best_round sein"),
    (lambda d: d.update(ranking="punkte"),
     "ranking: muss eines von points, table_points, average sein, nicht „punkte“"),
    (lambda d: d.update(pflichtsoli="ja"), 'pflichtsoli: muss eines von "", same_dealer, next_dealer sein, nicht „ja“'),
    (lambda d: d.update(team_count="2"), 'team_count: muss eine ganze Zahl sein, nicht „2“'),
    (lambda d: d.update(prizes={"": ["50 €", 30]}), 'prizes.""[2]: muss ein Text sein, nicht 30'),
    (lambda d: d["players"][3].update(publication="teilweise"),
     "Spieler 4: publication: muss eines von full, initials, hidden sein, nicht „teilweise“"),
    (lambda d: d["players"][3].update(categories="Damen"), "Spieler 4: categories: muss eine Liste sein"),
    (lambda d: d["players"][3].pop("name"), "Spieler 4: name: fehlt"),
    (lambda d: d["rounds"].append(3), "3. Runde der Datei: round: muss ein JSON-Objekt sein"),
    (lambda d: d["rounds"][1].update(number="zwei"),
     '2. Runde der Datei: number: muss eine ganze Zahl sein, nicht „zwei“'),
    (lambda d: d["rounds"][1]["tables"][0].update(number=None),
     "Runde 2, 1. Tisch der Runde: number: muss eine ganze Zahl sein, nicht None"),
    (lambda d: t1(d).update(players=["Anna", "Bernd", 3, "Dieter"]),
     "Runde 1, Tisch 1: players[3]: muss ein Text sein, nicht 3"),
    (lambda d: t1(d)["rows"][1].update(re_augen="150"),
     'Runde 1, Tisch 1, Spiel 2: re_augen: muss eine ganze Zahl sein, nicht „150“'),
    (lambda d: t1(d)["rows"][3].update(extras={"re": {"ass": 1}}),
     "Runde 1, Tisch 1, Spiel 3: extras.re.ass: unbekanntes Feld"),
    (lambda d: t1(d)["rows"][3]["announcements"].update(re="keine100"),
     "Runde 1, Tisch 1, Spiel 3: announcements.re: muss eines von null, re, keine90, keine60, keine30, schwarz sein, "
     "nicht „keine100“"),
    (lambda d: t1(d)["rows"][3].pop("re"), "Runde 1, Tisch 1, Spiel 3: re: fehlt"),
    (lambda d: t1(d).update(game_numbers=[1, 4, 5]) or t1(d)["rows"][3].update(solo="ramsch"),
     "Runde 1, Tisch 1, Spiel 5: solo: muss eines von trumpf, karo, kreuz, pik, herz, damen, buben, fleischlos, "
     "koehler sein, nicht „ramsch“"),
    (lambda d: t1(d)["rows"][2].update(strafe=1), "Runde 1, Tisch 1, Zeile 3 (Strafe): strafe: unbekanntes Feld"),
    (lambda d: t1(d)["penalty_details"][0].update(game="2"),
     'Runde 1, Tisch 1, Zeile 3 (Strafe): penalty_details.game: muss eine ganze Zahl sein, nicht „2“'),
    (lambda d: t1(d).update(signed={"at": 5}), "Runde 1, Tisch 1: signed.at: muss ein Text sein, nicht 5"),
    (lambda d: t1(d).update(ended={"note": "weg"}), "Runde 1, Tisch 1: ended.after: fehlt"),
    (lambda d: d["rounds"][0]["tables"][1]["totals"].update(Emil="12"),
     'Runde 1, Tisch 2: totals.Emil: muss eine ganze Zahl sein, nicht „12“'),
    (lambda d: d["rounds"][0]["tables"][1]["drafts"][0]["row"].update(type="ramsch"),
     "Runde 1, Tisch 2, Eingabe 1 vom Tisch: type: muss eine der Spielarten Normalspiel, Hochzeit, stille Hochzeit, "
     "Armut, Solo sein, nicht „ramsch“"),
    (lambda d: d["rounds"][0]["tables"][1]["drafts"][0].update(row=[]),
     "Runde 1, Tisch 2, Eingabe 1 vom Tisch: row: muss ein JSON-Objekt sein"),
    (lambda d: d["rounds"][0]["tables"][1]["drafts"][0].update(status="confirmed"),
     "Runde 1, Tisch 2, Eingabe 1 vom Tisch: status: muss eines von waiting, rejected sein, nicht „confirmed“"),
    (lambda d: d.update(log=[{"at": "2026-11-21T10:00:00+00:00", "kind": "game", "type": "+", "round": "1"}]),
     'Änderungsprotokoll, Eintrag 1: round: muss eine ganze Zahl sein, nicht „1“'),
    (lambda d: d.update(series={"name": "Serie", "farbe": "rot"}), "series.farbe: unbekanntes Feld"),
], ids=lambda value: "" if callable(value) else value[:40])
def test_the_schemas_findings_say_where_in_the_files_words(change, line):
    assert problems_of(with_changes(change)) == [line]


def test_the_compiled_validator_finds_what_the_schema_file_finds():
    """`file_schema.validator` puts the references in place for speed: the same findings as the file."""
    from jsonschema import Draft202012Validator

    def found(validator, data):
        return sorted((list(e.absolute_path), e.validator) for e in validator.iter_errors(data))

    as_filed = Draft202012Validator(file_schema.schema())
    broken = with_changes(lambda d: d.update(ranking="x", rules={"deck": 5, "farbe": 1}, tie_breakers=["x", "x"]),
                          lambda d: t1(d)["rows"][3].update(solo=3, extras={"re": {"fuchs": "1"}}),
                          lambda d: t1(d)["rows"][2].update(players=[1]),
                          lambda d: d["rounds"][0]["tables"][1]["drafts"][0]["row"].update(type=None),
                          lambda d: d.update(log=[{"kind": "x", "detail": 1}]))
    assert len(found(as_filed, broken)) >= 10
    assert found(file_schema.validator(), broken) == found(as_filed, broken)
    assert found(file_schema.validator(), with_changes()) == found(as_filed, with_changes()) == []
    assert file_schema.quick_validator().is_valid(with_changes())
    assert not file_schema.quick_validator().is_valid(broken)


def test_a_file_of_the_right_form_is_not_walked_by_the_slow_validator(monkeypatch):
    """jsonschema-rs says whether the form is right (5 ms for 7 MB); only a wrong file is walked by
    jsonschema's validator (1.1 s for 7 MB), whose findings become the problem lines."""
    from jsonschema import Draft202012Validator

    walked = []
    original = Draft202012Validator.iter_errors
    monkeypatch.setattr(Draft202012Validator, "iter_errors",
                        lambda self, data: walked.append(1) or original(self, data))
    assert file_schema.form_problems(with_changes()) == [] and walked == []
    assert file_schema.form_problems(with_changes(lambda d: d.update(ranking="x"))) and walked


def test_the_with_changes_base_imports():
    """The base of the cases above is a good file: each case's one line is the change's."""
    import_tournament(with_changes())


def test_a_file_with_problems_of_form_and_content_gets_each_problem_once():
    """The form first: a file whose form is wrong gets the form's lines, none of the content's (which
    would say the same problem again, or one that follows from it)."""
    data = canonical()
    data["players"][0]["name"] = 5  # a form problem; the tables' "Anna" would then be unknown too
    data["rounds"][0]["tables"][1]["totals"]["Emil"] = 13  # a content problem
    assert problems_of(data) == ["Spieler 1: name: muss ein Text sein, nicht 5"]


def test_the_same_lines_in_english():
    from django.utils import translation

    data = with_changes(lambda d: t1(d)["rows"][3].pop("re"), lambda d: d.update(ranking="punkte"))
    with translation.override("en"):
        assert problems_of(data) == [  # in the file's order: `ranking` comes after `rounds` in this one
            "Round 1, Table 1, Game 3: re: is required",
            "ranking: must be one of points, table_points, average, got “punkte”"]
        assert problems_of({**data, "format_version": 2}) == [
            "format_version: This file is written in version 2 of the exchange format; this program knows only "
            "version 1 (and files without a version). A newer version of the program can read it."]


# ---- manage.py check_file ------------------------------------------------------------------------

def run_check(path):
    out, err = io.StringIO(), io.StringIO()
    call_command("check_file", str(path), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_check_file_says_a_good_file_is_in_order(tmp_path):
    path = tmp_path / "herbst.json"
    path.write_text(as_written(CANONICAL), encoding="utf-8")
    out, _err = run_check(path)
    assert out == (f"{path} ist in Ordnung (Austauschformat Version 1). Spieler: 9, Runden: 2, Tische: 4, "
                   "Spiele: 5, Strafen: 2.\n")
    import_tournament(canonical())  # its short name taken here: still a good file (the import would say it)
    assert "in Ordnung" in run_check(path)[0]
    assert Tournament.objects.count() == 1


def test_check_file_reads_an_older_file_as_version_1(tmp_path):
    out, _err = run_check(OLD_FILES[0])
    assert "ist in Ordnung (ohne Versionsangabe, gelesen als Version 1)" in out


def test_check_file_lists_the_problems_one_a_line_and_exits_2(tmp_path):
    path = tmp_path / "kaputt.json"
    data = canonical()
    data["rounds"][1]["tables"][1]["rows"][1]["re_augen"] = 250
    data["players"][2]["club"] = 5
    path.write_text(json.dumps(data), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError) as error:
        call_command("check_file", str(path), stdout=out, stderr=err)
    assert error.value.returncode == 2
    assert out.getvalue() == "Spieler 3: club: muss ein Text sein, nicht 5\n"
    assert str(error.value) == f"Nicht in Ordnung: 1 Problem in {path}."
    data["players"][2]["club"] = ""
    data["rounds"][0]["tables"][1]["totals"]["Emil"] = 13
    path.write_text(json.dumps(data), encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(CommandError, match="2 Probleme"):
        call_command("check_file", str(path), stdout=out, stderr=err)
    assert out.getvalue().splitlines() == [
        "Runde 1, Tisch 2: totals: Die Endstände ergeben zusammen 1 statt 0.",
        "Runde 2, Tisch 2, Spiel 2: re_augen: muss zwischen 0 und 240 liegen, nicht 250"]
    assert Tournament.objects.count() == 0


@pytest.mark.parametrize(("text", "message"), [
    ("{kein json", "ist kein gültiges JSON"),
    (None, "lässt sich nicht lesen"),
    ("[" * 100_000 + "]" * 100_000, "zu tief verschachtelt"),
    ("[" * 40 + "]" * 40, "Die Datei muss ein JSON-Objekt mit dem Turnier sein."),
    ('{"format_version": 2}', "format_version: Diese Datei ist im Austauschformat Version 2 geschrieben"),
], ids=["not-json", "missing", "too-deep", "not-an-object", "newer-version"])
def test_check_file_says_what_is_wrong_with_an_unreadable_file_without_a_traceback(tmp_path, text, message):
    path = tmp_path / "datei.json"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(CommandError) as error:
        call_command("check_file", str(path), stdout=out, stderr=io.StringIO())
    assert error.value.returncode == 2
    assert message in str(error.value) + out.getvalue()


# ---- every export is valid; the richest tournament round trips byte for byte -------------------------

def test_the_suite_checks_every_export_against_the_schema(monkeypatch):
    """tests/conftest.py wraps the export: an export that is not a valid file fails the test."""
    assert getattr(exporting.export_tournament, "checked_against_schema", False)
    tournament = make_tournament(players=4)
    monkeypatch.setattr(exporting, "tournament_settings", lambda t: {"name": t.name, "farbe": "rot"})
    with pytest.raises(AssertionError, match="farbe: unbekanntes Feld"):
        exporting.export_tournament(tournament)


def rich_tournament(director) -> Tournament:
    """As much as a tournament holds: the busy evening of the backup tests (edits, deletes, restores,
    penalties with notes, totals only, a signed sheet, hidden results, a closed round, a withdrawal)
    and its own categories, prizes, ranking rules, member numbers, categories and publication levels,
    teams and team options, a second round with an ended table, entries from the phones (waiting with
    a penalty, rejected) and a "stimmt", and a third round drawn as a draft."""
    by = Actor(user=director)
    tournament = busy_tournament(director)
    tournaments.update_tournament(
        tournament=tournament, rules=tournament.rules, by=by,
        fields={"categories": ["Ü70"], "prizes": {"": ["50 €", "30 €"], "Ü70": ["Präsentkorb"]},
                "ranking": "table_points", "tie_breakers": ["won", "best_round"], "round_minutes": 90,
                "public_players": False, "counts_for_rangliste": True, "rounds_planned": 4})
    entries = list(tournament.entries.select_related("player").order_by("start_number"))
    player_details.edit_player(entry=entries[0], name=entries[0].player.name, club=entries[0].player.club,
                               member_number="DK 4711", categories=["Damen", "Ü70"], publication="initials", by=by)
    player_details.edit_player(entry=entries[1], name=entries[1].player.name, club=entries[1].player.club,
                               member_number="DK-0815", categories=["Gast"], publication="hidden", by=by)
    teams.create_team(tournament=tournament, name="Nord", members=[entries[0].pk, entries[1].pk], by=by)
    teams.create_team(tournament=tournament, name="Süd", members=[entries[2].pk, entries[4].pk, entries[5].pk], by=by)
    teams.set_team_options(tournament=tournament, team_count=2, club_count=0, teams_apart=True, by=by)

    second = tournament.rounds.get(number=2)
    seating.publish_round(round=second, by=by)
    first, other = second.tables.get(number=1), second.tables.get(number=2)
    for number in (1, 2):
        results.save_game(table=first, number=number, data=normal_game(first, number), version=0, by=by)
    sheet_state.end_table(table=first, note="Emil musste gehen", by=by)
    for number in (1, 2, 3):
        results.save_game(table=other, number=number, data=normal_game(other, number, re_augen=90), version=0, by=by)
    results.delete_game(table=other, number=2, by=by)  # numbers 1, 3: the file says `game_numbers`
    penalties.add_penalty(table=other, offender_id=seat_ids(other)[2], game_number=1, note="zu spät", by=by)
    other.refresh_from_db()
    link = other.link_token
    players = seat_ids(other)
    table_links.approve_sheet(token=link, device="handy-1", player_id=players[0], version=other.version)
    table_links.enter_game(token=link, number=2, key="warte", device="handy-2", player_id=players[1],
                           data={**normal_game(other, 2), "penalty": {"offender": players[3], "note": "vorgespielt"}})
    table_links.enter_game(token=link, number=2, key="nein", device="handy-3", data=normal_game(other, 2, re_augen=60))
    table_links.decide_on_link(token=link, draft_id=DraftGame.objects.get(key="nein").pk, confirm=False,
                               device="handy-1", reason="Augen falsch")
    seating.close_round(round=second, by=by, backup=False)
    third = seating.create_round(tournament=tournament, by=by)
    seating.seat_round(round=third, seed="drei", by=by)
    return Tournament.objects.get(pk=tournament.pk)


def pflichtsoli_tournament() -> Tournament:
    """A DDV list with Pflichtsoli and changed rules: a Pflichtsolo, the dealer dealing again, a
    Lustsolo, a game with announcements and Sonderpunkte."""
    rules = {"preset": "ddv", "penalty_points": 3, "bock_triggers": ["nullspiel"]}
    tournament = make_tournament(players=4, rules=rules, pflichtsoli=Tournament.Pflichtsoli.SAME_DEALER,
                                 games_at_table_of_4=24, games_at_table_of_5=30, slug="liste")
    round = seating.create_round(tournament=tournament)
    seating.seat_round(round=round, seed="liste")
    seating.publish_round(round=round)
    table = round.tables.get()
    a, b, c, d = seat_ids(table)
    plain = {"announcements": {"re": None, "kontra": None}, "extras": {}}
    for data in ({"type": "normal", "re": [a, b], "re_augen": 150, "announcements": {"re": "re", "kontra": None},
                  "extras": {"re": {"fuchs": 1}}},
                 {"type": "solo", "solo": "damen", "re": [c], "re_augen": 130, **plain},
                 {"type": "normal", "re": [a, c], "re_augen": 100, **plain},
                 {"type": "solo", "solo": "buben", "re": [c], "re_augen": 100, **plain}):
        results.save_game(table=table, data=data)
    assert list(table.games.order_by("number").values_list("pflichtsolo", flat=True)) == [None, True, None, False]
    return tournament


@pytest.mark.parametrize("build", ["rich", "pflichtsoli"])
def test_export_import_export_is_byte_identical(director, build):
    """A backup restored into an empty database is exported again byte for byte the same (the canonical
    JSON of the export command); the file is valid against the schema."""
    tournament = rich_tournament(director) if build == "rich" else pflichtsoli_tournament()
    first = as_written(exporting.export_tournament(tournament))
    data = json.loads(first)
    assert schema_errors(data) == []
    if build == "rich":  # everything the issue names is in it
        assert {"teams", "categories", "prizes", "ranking", "tie_breakers", "team_count", "log"} <= set(data)
        players = data["players"]
        assert {p.get("publication") for p in players} >= {"initials", "hidden"} and players[0]["member_number"]
        tables = [t for r in data["rounds"] for t in r["tables"]]
        assert {"totals", "penalty_details", "signed", "ended", "approved", "drafts", "game_numbers"} <= {
            key for t in tables for key in t}
        assert [r.get("status", "published") for r in data["rounds"]] == ["closed", "closed", "draft"]
    else:
        assert data["pflichtsoli"] == "same_dealer" and isinstance(data["rules"], dict)
        assert [row.get("pflichtsolo") for row in data["rounds"][0]["tables"][0]["rows"]] == [None, True, None, False]
    wipe()
    restored = import_tournament(data, director=make_director("neu"))
    assert as_written(exporting.export_tournament(restored)) == first
