"""Reading a tournament file (docs/tournament-file.md): what `file_checks.check_file` builds (the
`Plan` that `importing` writes), the problem lines it collects (`Checker`, `ImportProblems`), and
how it reads each value: the JSON's form here (types, required and unknown keys), the value itself
by the model's own validation (`Checker.model`: `full_clean` on an unsaved instance), never a rule
of its own.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from scoring import vocabulary

from ..errors import UserError, language
from ..models import Entry, Round, Tournament
from ..validators import SMALL

MOST_DEPTH = 32  # a tournament file is at most about ten levels deep


class ImportProblems(UserError):
    """A tournament file that cannot be imported: `lines` names every problem and where it is."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        super().__init__("\n".join(lines))


# ---- import: the checked plan --------------------------------------------------------------------

@dataclass
class PlannedPenalty:
    offender: str
    players: list[str]
    game_number: int | None
    note: str


@dataclass
class PlannedTable:
    number: int
    players: list[str]
    games: list[tuple[int, scoring.Game]] = field(default_factory=list)
    penalties: list[PlannedPenalty] = field(default_factory=list)
    totals: dict[str, int] | None = None
    signed_at: datetime.datetime | None = None
    signed_note: str = ""
    ended_after: int | None = None  # the table stopped after this game (a player had to leave)
    ended_note: str = ""
    approved: list[str] = field(default_factory=list)  # who tapped "stimmt" for the sheet as it is
    drafts: list[dict] = field(default_factory=list)  # entries from the phones, waiting or rejected
    link: str | None = None  # the entry link's token


@dataclass
class PlannedRound:
    round: Round  # unsaved, checked by its model: number, status, mode, seed, results_hidden
    tables: list[PlannedTable] = field(default_factory=list)


@dataclass
class PlannedPlayer:
    entry: Entry  # unsaved, with its unsaved Player, checked by their models
    ref: str = ""  # how the rest of the file names the player (names.references): the name, or "Name (Verein)"
    member_number: str = ""  # spaces dropped, as the player's page stores it
    categories: list[str] = field(default_factory=list)  # in the tournament's order (Tournament.category_names)


@dataclass
class PlannedTeam:
    name: str
    members: list[int]  # start numbers


@dataclass
class Plan:
    """What a checked file will write."""

    tournament: Tournament  # unsaved, checked by its model
    rules: scoring.Rules | None = None
    players: list[PlannedPlayer] = field(default_factory=list)
    rounds: list[PlannedRound] = field(default_factory=list)
    teams: list[PlannedTeam] = field(default_factory=list)
    log: list[dict] | None = None  # the change log's records, None when the file has none
    series: dict[str, str] | None = None  # the series it was an evening of: {"name", "slug"}; None: none


def is_int(value, low: int = 1, high: int = SMALL) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def shown(value) -> str:
    return json.dumps(value, ensure_ascii=False)


class Checker:
    """Collects problem lines: "<where>: <field>: <text>", in the active language."""

    def __init__(self, *, unique: bool = True):
        self.lines: list[str] = []
        self.lang = language()
        self.unique = unique  # whether unique fields (the short name) must be free in this database

    def add(self, where: str, text: str):
        self.lines.append(f"{where}: {text}" if where else text)

    def engine(self, where: str, field_name: str, code: str, **params):
        """A problem worded by the scoring engine's messages (fehlt, muss eine Liste sein, …)."""
        self.add(where, f"{field_name}: {vocabulary.text(code, params, self.lang)}")

    def problems(self, where: str, error: scoring.InvalidInput):
        for problem in error.problems:
            self.add(where, f"{problem.field}: {problem.text(self.lang)}")

    def unknown(self, where: str, data: dict, known: tuple[str, ...]):
        for key in data:
            if key not in known:
                self.engine(where, key, "unknown_field")

    def model(self, where: str, instance: models.Model, values: dict, *, keys: dict[str, str] | None = None,
              fallback: dict | None = None) -> set[str]:
        """Sets `values` on the unsaved `instance` and checks them with the model's own validation
        (`full_clean`: the fields' lengths, choices and validators, the model's `clean`, a unique
        field). A value already refused here (None) is left out. Returns the names of the refused
        fields, which are set to `fallback`'s value (or None) so that the later checks go on;
        `keys` names a field as the file does where that differs ("ended_note": "ended.note")."""
        given = {name: value for name, value in values.items() if value is not None}
        for name, value in given.items():
            setattr(instance, name, value)
        try:
            instance.full_clean(exclude=[f.name for f in instance._meta.fields if f.name not in given],
                                validate_unique=self.unique)
        except ValidationError as error:
            for name, errors in error.error_dict.items():
                key = (keys or {}).get(name, name)
                for problem in errors:
                    text = self._worded(instance, name, problem)
                    self.add(where, text if name == NON_FIELD_ERRORS else f"{key}: {text}")
                if name != NON_FIELD_ERRORS:
                    setattr(instance, name, (fallback or {}).get(name))
            return set(error.error_dict) - {NON_FIELD_ERRORS}
        return set()

    def _worded(self, instance: models.Model, name: str, problem: ValidationError) -> str:
        """A field's choices are listed (a file's author looks the codes up), every other problem is
        the model's message."""
        if problem.code == "invalid_choice":
            field = instance._meta.get_field(name)
            assert isinstance(field, models.Field)
            values = [str(value) or '""' for value, _label in field.flatchoices]
            return vocabulary.text("not_one_of", {"value": (problem.params or {}).get("value"),
                                                  "allowed": ", ".join(values)}, self.lang)
        return " ".join(problem.messages)

    def text(self, where: str, data: dict, key: str, *, required: bool = False, default: str | None = "") -> str | None:
        value = data.get(key)
        if value is None:
            if required:
                self.engine(where, key, "required")
            return None if required else default
        if not isinstance(value, str):
            self.add(where, f"{key}: " + _("muss ein Text sein, nicht %(value)s") % {"value": shown(value)})
            return None
        if required and not value.strip():
            self.add(where, f"{key}: " + _("darf nicht leer sein"))
            return None
        return value

    def number(self, where: str, data: dict, key: str, *, required: bool = False, default=None,
               low: int | None = None, high: int = SMALL):
        """A whole number; its range is the model's (`Between`) unless the file's own (`low`, `high`)."""
        value = data.get(key)
        if value is None:
            if required:
                self.engine(where, key, "required")
            return default
        if low is None and not is_int(value, -(2**63), 2**63):
            self.engine(where, key, "not_integer", value=value)
            return None
        if low is not None and not is_int(value, low, high):
            self.add(where, f"{key}: " + _("muss eine ganze Zahl von %(low)s bis %(high)s sein, nicht %(value)s")
                     % {"low": low, "high": high, "value": shown(value)})
            return None
        return value

    def flag(self, where: str, data: dict, key: str, default: bool) -> bool | None:
        value = data.get(key, default)
        if not isinstance(value, bool):
            self.engine(where, key, "not_boolean", value=value)
            return None
        return value

    def listed(self, where: str, data: dict, key: str, *, required: bool = False) -> list | None:
        value = data.get(key)
        if value is None:
            if required:
                self.engine(where, key, "required")
                return None
            return []
        if not isinstance(value, list):
            self.engine(where, key, "not_list")
            return None
        return value

    def obj(self, where: str, data: dict, key: str) -> dict | None:
        """An optional object (`ended`, `signed`, …): None when absent or refused."""
        value = data.get(key)
        if value is not None and not isinstance(value, dict):
            self.engine(where, key, "not_object")
            return None
        return value

    def moment(self, where: str, key: str, value) -> datetime.datetime | None:
        try:
            at = datetime.datetime.fromisoformat(value)
        except (TypeError, ValueError):
            self.add(where, f"{key}: " + _("muss Datum und Uhrzeit der Form JJJJ-MM-TTThh:mm:ss+00:00 sein"))
            return None
        return at if timezone.is_aware(at) else timezone.make_aware(at)


def round_where(number, index: int) -> str:
    if is_int(number):
        return _("Runde %(round)s") % {"round": number}
    return _("%(index)s. Runde der Datei") % {"index": index}


def table_where(round_where: str, number, index: int) -> str:
    if is_int(number):
        return round_where + ", " + _("Tisch %(table)s") % {"table": number}
    return round_where + ", " + _("%(index)s. Tisch der Runde") % {"index": index}


def nul_place(data) -> str:
    """Where the first text (or key) holding a NUL character is, as the file's author looks for it:
    `players[3].name`; "" when there is none. For a file whose `depth` is within the limit."""
    stack: list = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                return path
        elif isinstance(value, dict):
            items = []
            for key, item in value.items():
                name = f"{path}.{key}" if path else str(key)
                if isinstance(key, str) and "\x00" in key:
                    return name.replace("\x00", "\\u0000")
                items.append((item, name))
            stack.extend(reversed(items))  # the first one next: in the file's order
        elif isinstance(value, list):
            stack.extend(reversed([(item, f"{path}[{index}]") for index, item in enumerate(value)]))
    return ""


def depth(data) -> tuple[int, bool]:
    """How deeply lists and objects are nested in `data`, and whether any text (or key) holds a NUL
    character, which no database stores: found level by level without recursion (a file nested a
    thousand levels deep must get a message, not a RecursionError), the texts looked through at once
    at the end (a third of the time of looking at each: 0.17 against 0.5 s for 1,000 players)."""
    deepest, level, current = 0, 1, [data]
    texts: list[str] = []
    while current and deepest <= MOST_DEPTH:
        below: list = []
        for value in current:
            if isinstance(value, str):
                texts.append(value)
            elif isinstance(value, dict):
                texts.extend(key for key in value if isinstance(key, str))
                deepest = level
                below.extend(value.values())
            elif isinstance(value, list):
                deepest = level
                below.extend(value)
        current, level = below, level + 1
    return deepest, "\x00" in "".join(texts)
