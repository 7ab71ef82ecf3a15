"""The form of a tournament file, checked against its JSON Schema (schemas/tournament-file.v1.schema.json,
docs/tournament-file.md) before anything else: which version of the format it is (`file_version`: a
version this software does not know is refused with one sentence), then the schema's findings as problem
lines in the words of the other checks (`form_problems`): where in the file ("Runde 2, Tisch 3, Spiel 4",
"Spieler 5", "Änderungsprotokoll, Eintrag 7") and what is wrong, worded with the engine's vocabulary
("fehlt", "unbekanntes Feld", "muss eine Liste sein", …).

The schema holds the form only (types, required and unknown keys, the fixed vocabularies); what a value
may be beyond that stays with its rule's home (the models, the scoring engine, `file_checks`). A file
whose form is wrong is reported by its form alone: the later checks read a file of the right form, so
no problem is reported twice.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import jsonschema_rs
from django.utils.translation import gettext as _
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from scoring import vocabulary
from scoring.validate import RE_SIZE

from ..errors import language
from ..fileformat import FORMAT_VERSION
from .file_reading import ImportProblems, is_int, round_where, shown, table_where

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "schemas" / f"tournament-file.v{FORMAT_VERSION}.schema.json"
# the versions this software reads: 0 is a file written before the format had versions (no
# `format_version`), read as version 1 (it has the same keys)
KNOWN_VERSIONS = (0, 1)
# lists of some of a fixed vocabulary: a problem in one is said of the whole list ("muss eine Liste aus
# won, best_round sein"), as the settings page and the engine say it
SET_FIELDS = ("tie_breakers", "gegen_die_alten", "sonderpunkte", "sonderpunkte_in_solo", "bock_triggers",
              "solo_kinds")


class UnknownVersion(ImportProblems):
    """A file in a version of the format this software does not know (a newer one): refused whole.
    `version` is what the file says (a hub answers with it)."""

    reason = "unknown_format_version"

    def __init__(self, version):
        self.version = version
        super().__init__([
            "format_version: " + _("Diese Datei ist im Austauschformat Version %(version)s geschrieben; dieses "
                                   "Programm kennt nur Version %(known)s (und Dateien ohne Versionsangabe). "
                                   "Eine neuere Version des Programms kann sie lesen.")
            % {"version": shown(version), "known": FORMAT_VERSION}])


@cache
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@cache
def validator() -> Draft202012Validator:
    """Compiled once per process, from the schema with its references put in place and its annotations
    left out (the same rules: it checks a file of 7 MB in half the time, 1.0 s instead of 2.0 s).
    Formats (date, date-time) are annotations here: their values are checked with the import's own words
    (`file_checks`)."""
    whole = schema()
    return Draft202012Validator({"$schema": whole["$schema"], **_inlined(whole, whole["$defs"])})


@cache
def quick_validator() -> jsonschema_rs.Draft202012Validator:
    """The same schema (as `validator` has it) compiled by jsonschema-rs: it says only whether a file
    is of the right form, a 7 MB file in 5 ms instead of 1.1 s (docs/dependencies.md). A file it finds
    wrong is read again by `validator`, whose findings `form_problems` words as problem lines."""
    return jsonschema_rs.Draft202012Validator(validator().schema, validate_formats=False)


ANNOTATIONS = ("$schema", "$id", "$defs", "title", "description", "default", "format")


def _inlined(node, defs: dict):
    """The schema without `$ref` (each replaced by its definition; the file's definitions do not
    refer to themselves) and without annotations."""
    if isinstance(node, list):
        return [_inlined(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict = {}
    if "$ref" in node:
        out.update(_inlined(defs[node["$ref"].rsplit("/", 1)[-1]], defs))
    for key, value in node.items():
        if key in ANNOTATIONS or key == "$ref":
            continue
        if key == "properties":
            out[key] = {name: _inlined(sub, defs) for name, sub in value.items()}
        else:
            out[key] = value if key in ("enum", "const", "required") else _inlined(value, defs)
    return out


def file_version(data: dict) -> int:
    """The file's version of the format: 0 when it has none (written before versions existed).
    Raises UnknownVersion for anything else than a version this software reads."""
    version = data.get("format_version", 0)
    if not is_int(version, 0) or version not in KNOWN_VERSIONS or ("format_version" in data and version == 0):
        raise UnknownVersion(version)
    return version


def form_problems(data: dict) -> list[str]:
    """The schema's findings as problem lines, in the file's order, each once. A file without a
    version is checked as version 1 (the same keys)."""
    if "format_version" not in data:
        data = {"format_version": FORMAT_VERSION, **data}
    if quick_validator().is_valid(data):
        return []
    errors = sorted(validator().iter_errors(data), key=lambda error: _order(data, list(error.absolute_path)))
    lines: list[str] = []
    lang = language()
    for error in errors:
        for line in _lines(data, error, lang):
            if line not in lines:
                lines.append(line)
    return lines


def _order(data, path: list) -> list[int]:
    """Where a path is in the file, as a sort key: each key by its place in its object."""
    key, node = [], data
    for part in path:
        if isinstance(node, dict):
            key.append(list(node).index(part) if part in node else len(node))
        else:
            key.append(part if isinstance(part, int) else 0)
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            node = None
    return key


def _lines(data: dict, error: ValidationError, lang: str) -> list[str]:
    where, kind, rest = _place(data, list(error.absolute_path))
    value = error.instance
    validator_name = error.validator
    field_path = rest[:2] if rest[:1] == ["rules"] else rest[:1]
    if field_path and field_path[-1] in SET_FIELDS and (
            validator_name == "uniqueItems" or validator_name == "enum" and len(rest) > len(field_path)):
        allowed = _set_members(error)
        return [_line(where, _field(field_path), vocabulary.text("not_subset", {"allowed": allowed}, lang))]
    field = _field(rest) or kind
    if validator_name == "required":
        return [_line(where, _field([*rest, key]), vocabulary.text("required", {}, lang))
                for key in error.validator_value if isinstance(value, dict) and key not in value]
    if validator_name == "additionalProperties":
        known = error.schema.get("properties", {})
        code = "unknown_option" if rest == ["rules"] else "unknown_field"
        return [_line(where, _field([*rest, key]), vocabulary.text(code, {}, lang))
                for key in value if key not in known]
    if validator_name == "type" and rest == ["series"]:  # with an example of what it looks like
        return [_line(where, field, _("muss ein Objekt mit dem Namen der Serie sein, z. B. {\"name\": "
                                      "\"Monatsturniere\", \"slug\": \"monatsturniere\"}, nicht %(value)s")
                      % {"value": shown(value)})]
    if validator_name == "type":
        return [_line(where, field, _type_text(error.validator_value, value, lang))]
    if validator_name in ("enum", "const"):
        choices = error.validator_value if validator_name == "enum" else [error.validator_value]
        text: str
        if rest == ["type"] and kind in ("row", "drafts"):  # a game's type: the engine's words, as on the form
            text = vocabulary.text("type_not_one_of", {"value": value, "types": list(RE_SIZE)}, lang)
        else:
            text = vocabulary.text("not_one_of", {"value": value, "allowed": ", ".join(map(_choice, choices))}, lang)
        return [_line(where, field, text)]
    # (the schema uses no other keyword that can fail; `test_file_schema` keeps it so)
    return [_line(where, field, _("passt nicht zur Form der Turnierdatei (%(rule)s)") % {"rule": validator_name})]


def _line(where: str, field: str, text: str) -> str:
    text = f"{field}: {text}" if field else text
    return f"{where}: {text}" if where else text


def _field(path: list) -> str:
    """A key path inside a place: `signed.at`, `totals.Anna`, `re[2]` (a list's entries counted from 1)."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part + 1}]"
        else:
            part = part or '""'  # the key "" (the overall prize list)
            text += f".{part}" if text else part
    return text


def _choice(value) -> str:
    if value is None:
        return "null"
    return str(value) or '""'


def _type_text(expected, value, lang: str) -> str:
    expected = [expected] if isinstance(expected, str) else list(expected)
    if "object" in expected and "string" in expected:
        return vocabulary.text("rules_type", {}, lang)
    if "integer" in expected:
        return vocabulary.text("not_integer", {"value": value}, lang)
    if "object" in expected:
        return vocabulary.text("not_object", {}, lang)
    if "array" in expected:
        return vocabulary.text("not_list", {}, lang)
    if "boolean" in expected:
        return vocabulary.text("not_boolean", {"value": value}, lang)
    return _("muss ein Text sein, nicht %(value)s") % {"value": shown(value)}


def _set_members(error: ValidationError) -> str:
    """The vocabulary of a list like `tie_breakers`, from the failing part of the schema."""
    if error.validator == "enum":
        return ", ".join(map(_choice, error.validator_value))
    items = error.schema.get("items", {})  # (the references are in place: `validator`)
    return ", ".join(map(_choice, items.get("enum", [])))


def _place(data: dict, path: list) -> tuple[str, str, list]:
    """Where a path of the file is, in the words of the problem lines: the place ("Runde 1, Tisch 2,
    Spiel 3"), what the place is ("row": the name a wrong entry itself is reported under), and the keys
    inside the place."""
    where, kind, level = "", "", "file"
    round_text = ""
    node = data
    rest: list = []
    index = 0
    while index < len(path):
        part = path[index]
        following = path[index + 1] if index + 1 < len(path) else None
        item = _get(node, part)
        if rest or not isinstance(following, int):
            if level == "draft" and part == "row" and not rest and following is not None:
                node, index = item, index + 1  # a phone's game: its fields are the row's
                continue
            rest.append(part)
            node, index = item, index + 1
            continue
        position = following + 1
        element = _get(item, following)  # the entry of the list `part`: the place itself
        if level == "file" and part == "players":
            where, kind, level = _("Spieler %(index)s") % {"index": position}, "player", "leaf"
        elif level == "file" and part == "teams":
            where, kind, level = _("Team %(index)s") % {"index": position}, "team", "leaf"
        elif level == "file" and part == "log":
            where, kind, level = (_("Änderungsprotokoll, Eintrag %(index)s") % {"index": position}, "log", "leaf")
        elif level == "file" and part == "rounds":
            round_text = round_where(element.get("number") if isinstance(element, dict) else None, position)
            where, kind, level = round_text, "round", "round"
        elif level == "round" and part == "tables":
            where = table_where(round_text, element.get("number") if isinstance(element, dict) else None, position)
            kind, level = "table", "table"
        elif level == "table" and part == "rows":
            where, kind, level = where + ", " + _row_where(node, following), "row", "leaf"
        elif level == "table" and part == "drafts":
            where = where + ", " + _("Eingabe %(index)s vom Tisch") % {"index": position}
            kind, level = "drafts", "draft"
        elif level == "table" and part == "penalty_details":
            row = _penalty_row(node, following)
            if row is None:
                rest.append(part)
                node, index = item, index + 1
                continue
            where, kind, level = where + ", " + _row_where(node, row), "penalty_details", "leaf"
            rest.append("penalty_details")
        else:
            rest.append(part)
            node, index = item, index + 1
            continue
        node, index = element, index + 2
    return where, kind, rest


def _get(node, part):
    try:
        return node[part]
    except (KeyError, IndexError, TypeError):
        return None


def _row_where(table, index: int) -> str:
    """A row as the other checks name it: a game by its number, a penalty or a wrong entry by its line."""
    rows = table.get("rows") if isinstance(table, dict) else None
    rows = rows if isinstance(rows, list) else []
    row = rows[index] if index < len(rows) else None
    if isinstance(row, dict) and "penalty" in row:
        return _("Zeile %(row)s (Strafe)") % {"row": index + 1}
    if not isinstance(row, dict):
        return _("Zeile %(row)s") % {"row": index + 1}
    game = sum(1 for other in rows[:index] if not (isinstance(other, dict) and "penalty" in other))
    numbers = table.get("game_numbers")
    games = sum(1 for other in rows if not (isinstance(other, dict) and "penalty" in other))
    if isinstance(numbers, list) and len(numbers) == games and all(is_int(n) for n in numbers):
        return _("Spiel %(number)s") % {"number": numbers[game]}
    return _("Spiel %(number)s") % {"number": game + 1}


def _penalty_row(table, index: int) -> int | None:
    """The line of the table's `index`-th penalty row (what `penalty_details[index]` tells more of)."""
    rows = table.get("rows") if isinstance(table, dict) else None
    penalties = [line for line, row in enumerate(rows if isinstance(rows, list) else [])
                 if isinstance(row, dict) and "penalty" in row]
    return penalties[index] if index < len(penalties) else None
