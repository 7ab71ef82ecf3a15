"""Checking a tournament file (docs/tournament-file.md) before anything is written: `check_file`
reads the whole file and either returns the plan of what to write (`importing.import_tournament`
writes it through the services) or raises `ImportProblems` with every problem, each line naming its
round, table and game, in the reader's language.

Each rule has one home, and this module asks it:
- the values of the tournament, its players, rounds, tables, notes, the phones' entries and the log's
  records: the models' own validation, `full_clean` on unsaved instances (lengths, choices, ranges,
  `Tournament.clean`, `Entry.clean`, the unique short name), through `_Checker.model`;
- games and penalties: the scoring engine (`scoring.parse_sheet`, the game form's messages), who
  plays which game (`dealing`), the largest total (`results.most_total`), who plays in a round
  (`Entry.plays_in`), the ruleset (`scoring.parse_rules`);
- here, only what a file alone can get wrong: its JSON form (types, required and unknown keys) and
  the references between its parts: players named in the list, once each; round numbers 1, 2, 3 …
  without gaps, tables and start numbers once each; a player at one table per round; at most as many
  games as a table has; penalties in games the table has; totals, "stimmt" and the phones' entries of
  players at their table.
"""

from __future__ import annotations

import datetime
import itertools
import json
from dataclasses import dataclass, field

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from scoring import vocabulary
from scoring.validate import RE_SIZE

from .. import dealing, names
from ..errors import UserError, language
from ..fileformat import ROUND_DEFAULTS, TOURNAMENT_DEFAULTS
from ..models import SMALL, DraftGame, Entry, Penalty, Player, Round, Table, Tournament
from ..ranking import TIE_BREAKERS
from .results import most_total

PUBLIC_KEYS = ("public_overview", "public_standings", "public_seating", "public_players")
NUMBER_KEYS = ("rounds_planned", "games_at_table_of_4", "games_at_table_of_5", "round_minutes")
TOURNAMENT_KEYS = ("name", "slug", "date", "rules", "players", "rounds", "log", *TOURNAMENT_DEFAULTS)
PLAYER_KEYS = ("name", "club", "start_number", "joined_round", "withdrawn_from_round")
ROUND_KEYS = ("number", "tables", *ROUND_DEFAULTS)
TABLE_KEYS = ("number", "players", "rows", "totals", "game_numbers", "penalty_details", "ended", "signed", "approved",
              "drafts", "link")
DRAFT_KEYS = ("number", "row", "status", "key", "device", "at", "entered_by", "decided_by", "reason", "corrects",
              "penalty")
LOG_KEYS = ("at", "kind", "type", "action", "user", "device", "round", "table", "number", "id", "detail")
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


@dataclass
class Plan:
    """What a checked file will write."""

    tournament: Tournament  # unsaved, checked by its model
    rules: scoring.Rules | None = None
    players: list[PlannedPlayer] = field(default_factory=list)
    rounds: list[PlannedRound] = field(default_factory=list)
    log: list[dict] | None = None  # the change log's records, None when the file has none


def _is_int(value, low: int = 1, high: int = SMALL) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _shown(value) -> str:
    return json.dumps(value, ensure_ascii=False)


class _Checker:
    """Collects problem lines: "<where>: <field>: <text>", in the active language."""

    def __init__(self):
        self.lines: list[str] = []
        self.lang = language()

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
            instance.full_clean(exclude=[f.name for f in instance._meta.fields if f.name not in given])
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

    def text(self, where: str, data: dict, key: str, *, required: bool = False, default: str | None = "",
             max_length: int | None = None) -> str | None:
        value = data.get(key)
        if value is None:
            if required:
                self.engine(where, key, "required")
            return None if required else default
        if not isinstance(value, str):
            self.add(where, f"{key}: " + _("muss ein Text sein, nicht %(value)s") % {"value": _shown(value)})
            return None
        if required and not value.strip():
            self.add(where, f"{key}: " + _("darf nicht leer sein"))
            return None
        if max_length is not None and len(value) > max_length:
            self.add(where, f"{key}: " + _("höchstens %(n)s Zeichen") % {"n": max_length})
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
        if low is None and not _is_int(value, -(2**63), 2**63):
            self.engine(where, key, "not_integer", value=value)
            return None
        if low is not None and not _is_int(value, low, high):
            self.add(where, f"{key}: " + _("muss eine ganze Zahl von %(low)s bis %(high)s sein, nicht %(value)s")
                     % {"low": low, "high": high, "value": _shown(value)})
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


def _round_where(number, index: int) -> str:
    if _is_int(number):
        return _("Runde %(round)s") % {"round": number}
    return _("%(index)s. Runde der Datei") % {"index": index}


def _table_where(round_where: str, number, index: int) -> str:
    if _is_int(number):
        return round_where + ", " + _("Tisch %(table)s") % {"table": number}
    return round_where + ", " + _("%(index)s. Tisch der Runde") % {"index": index}


def depth(data) -> tuple[int, bool]:
    """How deeply lists and objects are nested in `data`, and whether any text (or key) holds a NUL
    character, which no database stores: found without recursion (a file nested a thousand levels
    deep must get a message, not a RecursionError)."""
    deepest, nul, stack = 0, False, [(data, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict):
            nul = nul or any(isinstance(key, str) and "\x00" in key for key in value)
            value = list(value.values())
        if isinstance(value, str):
            nul = nul or "\x00" in value
        elif isinstance(value, list):
            deepest = max(deepest, level)
            if level > MOST_DEPTH:
                break
            stack.extend((item, level + 1) for item in value)
    return deepest, nul


def check_file(data, *, slug: str | None = None) -> Plan:
    """Checks a tournament file completely; returns what to write or raises ImportProblems."""
    c = _Checker()
    if not isinstance(data, dict):
        raise ImportProblems([_("Die Datei muss ein JSON-Objekt mit dem Turnier sein.")])
    deepest, nul = depth(data)
    if deepest > MOST_DEPTH:
        raise ImportProblems([_("Die Datei ist zu tief verschachtelt (mehr als %(n)s Ebenen); eine Turnierdatei "
                                "hat etwa zehn.") % {"n": MOST_DEPTH}])
    if nul:
        raise ImportProblems([_("Die Datei enthält ein Nullzeichen (\\u0000) in einem Text; so ein Zeichen kann "
                                "nicht gespeichert werden.")])
    c.unknown("", data, TOURNAMENT_KEYS)
    plan = Plan(tournament=Tournament())
    try:
        plan.rules = scoring.parse_rules(data.get("rules", scoring.DEFAULT_PRESET))
    except scoring.InvalidInput as error:
        c.problems("", error)
    c.model("", plan.tournament, {
        "name": c.text("", data, "name", required=True),
        "slug": (slug if slug is not None else c.text("", data, "slug")) or None,  # none: made from the name
        "date": _date(c, data),
        "rules": scoring.rules_spec(plan.rules) if plan.rules else None,
        "place": c.text("", data, "place"),
        **{key: c.number("", data, key, default=TOURNAMENT_DEFAULTS[key]) for key in NUMBER_KEYS},
        **{key: c.flag("", data, key, bool(TOURNAMENT_DEFAULTS[key])) for key in PUBLIC_KEYS},
        "pflichtsoli": c.text("", data, "pflichtsoli"),
        "ranking": c.text("", data, "ranking", default=str(TOURNAMENT_DEFAULTS["ranking"])),
        "tie_breakers": _tie_breakers(c, data),
    }, fallback=TOURNAMENT_DEFAULTS)
    _check_players(c, data, plan)
    _check_rounds(c, data, plan)
    _check_log(c, data, plan)
    if c.lines:
        raise ImportProblems(c.lines)
    return plan


def _date(c: _Checker, data: dict) -> datetime.date | None:
    """JSON has no dates: the file writes them as text, "YYYY-MM-DD"."""
    date = data.get("date")
    try:
        if not isinstance(date, str) or len(date) != 10:
            raise ValueError
        return datetime.date.fromisoformat(date)
    except ValueError:
        if date is None:
            c.engine("", "date", "required")
        else:
            c.add("", "date: " + _("muss ein Datum der Form JJJJ-MM-TT sein, nicht %(value)s")
                  % {"value": _shown(date)})
    return None


def _tie_breakers(c: _Checker, data: dict) -> list | None:
    """Some of `ranking.TIE_BREAKERS`, each once (the settings page's choices)."""
    value = data.get("tie_breakers", [])
    if (not isinstance(value, list) or any(not isinstance(t, str) or t not in TIE_BREAKERS for t in value)
            or len(set(value)) != len(value)):
        c.engine("", "tie_breakers", "not_subset", allowed=", ".join(TIE_BREAKERS))
        return None
    return list(value)


def _check_players(c: _Checker, data: dict, plan: Plan):
    seen: dict[str, str] = {}  # names.identity -> the player as the list writes them first
    numbers = set()
    wheres = []
    for index, item in enumerate(c.listed("", data, "players", required=True) or [], start=1):
        where = _("Spieler %(index)s") % {"index": index}
        if not isinstance(item, dict):
            c.engine(where, "player", "not_object")
            continue
        c.unknown(where, item, PLAYER_KEYS)
        name, club = c.text(where, item, "name", required=True), c.text(where, item, "club")
        person = Player()
        refused = c.model(where, person, {"name": name, "club": club}, fallback={"club": ""})
        name, club = (None if key in refused else value for key, value in (("name", name), ("club", club)))
        entry = Entry(player=person)
        c.model(where, entry, {"start_number": c.number(where, item, "start_number", default=index),
                               "joined_round": c.number(where, item, "joined_round", default=1),
                               "withdrawn_from_round": c.number(where, item, "withdrawn_from_round")})
        if name is not None and club is not None:
            identity = names.identity(name, club)
            if identity in seen:  # the same name and club, ignoring case and spaces: one person
                c.add(where, _("%(name)s steht zweimal in der Spielerliste.") % {"name": seen[identity]})
                name = None  # the tables' names mean the first
            else:
                seen[identity] = names.person_text(names.clean(name), names.clean(club))
        if entry.start_number is not None:
            if entry.start_number in numbers:
                c.add(where, _("Die Startnummer %(n)s ist schon vergeben.") % {"n": entry.start_number})
            numbers.add(entry.start_number)
        if name is not None:  # known for the tables even when another field has a problem
            plan.players.append(PlannedPlayer(entry))
            wheres.append(where)
    # the rest of the file names a player by the name as the list writes it, "Name (Verein)" where two
    # players share a name (with other clubs)
    refs = names.references((index, p.entry.player.name, p.entry.player.club) for index, p in enumerate(plan.players))
    told: set[str] = set()
    for index, player in enumerate(plan.players):
        player.ref = refs[index]
        if names.folded(player.ref) in told:
            c.add(wheres[index], "name: " + _("„%(name)s“ ist von einem anderen Spieler nicht zu unterscheiden")
                  % {"name": player.ref})
        told.add(names.folded(player.ref))


def _check_rounds(c: _Checker, data: dict, plan: Plan):
    numbers = set()
    for index, item in enumerate(c.listed("", data, "rounds", required=True) or [], start=1):
        where = _round_where(item.get("number") if isinstance(item, dict) else None, index)
        if not isinstance(item, dict):
            c.engine(where, "round", "not_object")
            continue
        c.unknown(where, item, ROUND_KEYS)
        number = c.number(where, item, "number", required=True)
        if number is not None:
            if number in numbers:
                c.add(where, _("Runde %(round)s steht zweimal in der Datei.") % {"round": number})
            numbers.add(number)
        round = PlannedRound(Round())
        c.model(where, round.round, {
            "number": number,
            **{key: c.text(where, item, key, default=str(ROUND_DEFAULTS[key])) for key in ("status", "mode", "seed")},
            "results_hidden": c.flag(where, item, "results_hidden", False)})
        _check_tables(c, where, item, round, plan)
        plan.rounds.append(round)
    plan.rounds.sort(key=lambda r: r.round.number or 0)
    if numbers and sorted(numbers) != list(range(1, len(numbers) + 1)):
        c.add("", "rounds: " + _("die Runden müssen 1, 2, 3 … ohne Lücke nummeriert sein, nicht %(numbers)s")
              % {"numbers": ", ".join(map(str, sorted(numbers)))})
    drafts = [r.round.number for r in plan.rounds if r.round.is_draft and r.round.number]
    if drafts and max(numbers, default=0) > min(drafts):
        c.add("", _("Nur die letzte Runde kann ein Entwurf sein, nicht Runde %(round)s.") % {"round": min(drafts)})


def _check_tables(c: _Checker, round_where: str, data: dict, planned: PlannedRound, plan: Plan):
    round = planned.round
    playing = {p.ref: p.entry for p in plan.players}
    seated: dict[str, int] = {}
    numbers = set()
    for index, item in enumerate(c.listed(round_where, data, "tables", required=True) or [], start=1):
        where = _table_where(round_where, item.get("number") if isinstance(item, dict) else None, index)
        if not isinstance(item, dict):
            c.engine(where, "table", "not_object")
            continue
        c.unknown(where, item, TABLE_KEYS)
        number = c.number(where, item, "number", required=True)
        if number is not None:
            if number in numbers:
                c.add(where, _("Tisch %(table)s steht in dieser Runde zweimal.") % {"table": number})
            numbers.add(number)
        players = c.listed(where, item, "players", required=True)
        players_ok = players is not None
        if players is not None and len(players) not in (4, 5):
            c.add(where, "players: " + _("ein Tisch hat 4 oder 5 Spieler, nicht %(n)s") % {"n": len(players)})
            players_ok = False
        for name in players or []:
            if not isinstance(name, str) or name not in playing:
                c.add(where, "players: " + _("%(name)s steht nicht in der Spielerliste") % {"name": _shown(name)})
                players_ok = False
            elif name in seated:
                text = (_("%(name)s sitzt in dieser Runde schon an Tisch %(other)s")
                        if seated[name] != number else _("%(name)s sitzt zweimal an diesem Tisch"))
                c.add(where, "players: " + text % {"name": name, "other": seated[name]})
                players_ok = False
            else:
                seated[name] = number
                entry = playing[name]
                # a draft's seating may be out of date (the page says so): only published rounds
                if (round.number is not None and entry.joined_round is not None and not round.is_draft
                        and not entry.plays_in(round.number)):
                    c.add(where, "players: " + _("%(name)s spielt laut Spielerliste in Runde %(round)s nicht mit "
                                                 "(dabei ab Runde %(joined)s%(withdrawn)s)")
                          % {"name": name, "round": round.number, "joined": entry.joined_round,
                             "withdrawn": (_(", zurückgezogen ab Runde %(n)s") % {"n": entry.withdrawn_from_round}
                                           if entry.withdrawn_from_round else "")})
                    players_ok = False
        table = PlannedTable(number=number, players=list(players or []))
        if players_ok and plan.rules is not None:
            _check_rows(c, where, item, table, planned, plan, plan.rules)
        _check_ended(c, where, item, table)
        signed = c.obj(where, item, "signed")
        if signed is not None:
            c.unknown(where, signed, ("at", "note"))
            table.signed_at = c.moment(where, "signed.at", signed.get("at"))
            table.signed_note = c.text(where, signed, "note") or ""
        c.model(where, Table(), {"number": number, "signed_note": table.signed_note, "ended_note": table.ended_note},
                keys={"signed_note": "signed.note", "ended_note": "ended.note"})
        if players_ok:
            _check_phones(c, where, item, table, plan)
        planned.tables.append(table)
    planned.tables.sort(key=lambda t: t.number or 0)


def _check_ended(c: _Checker, where: str, data: dict, table: PlannedTable):
    """A table that stopped early: it stopped after its last game in the file, and says why."""
    ended = c.obj(where, data, "ended")
    if ended is None:
        return
    c.unknown(where, ended, ("after", "note"))
    after = c.number(where, ended, "after", required=True, low=0)
    note = c.text(where, ended, "note", required=True)
    if after is None or note is None:
        return
    if data.get("totals") is not None:
        c.add(where, "ended: " + _("ein Tisch mit nur Endständen kann nicht vorzeitig beendet sein"))
    elif after != len(table.games):
        c.add(where, "ended.after: " + _("der Tisch hat %(games)s Spiele, beendet nach Spiel %(after)s passt nicht "
                                         "dazu") % {"games": len(table.games), "after": after})
    table.ended_after, table.ended_note = after, note


def _at_table(c: _Checker, where: str, key: str, name, table: PlannedTable) -> bool:
    """Whether `name` (from the rest of the file) is a player of this table."""
    if name in table.players:
        return True
    c.add(where, f"{key}: " + _("%(name)s sitzt nicht an diesem Tisch") % {"name": _shown(name)})
    return False


def _check_phones(c: _Checker, where: str, data: dict, table: PlannedTable, plan: Plan):
    """What the table's phones hold: "stimmt" of players at the table, the entries waiting or
    rejected (each a game row of this table, checked by the engine), the entry link's token."""
    table.approved = [name for name in c.listed(where, data, "approved") or []
                      if _at_table(c, where, "approved", name, table)]
    link = data.get("link")
    if link is not None:
        if (not isinstance(link, str) or not 16 <= len(link) <= 64
                or not link.replace("-", "").replace("_", "").isalnum()):
            c.add(where, "link: " + _("ist kein gültiger Eingabelink"))
        else:
            table.link = link
    for index, item in enumerate(c.listed(where, data, "drafts") or [], start=1):
        draft_where = where + ", " + _("Eingabe %(index)s vom Tisch") % {"index": index}
        if not isinstance(item, dict):
            c.engine(draft_where, "drafts", "not_object")
            continue
        c.unknown(draft_where, item, DRAFT_KEYS)
        status = item.get("status")
        if status not in ("waiting", "rejected"):  # a file keeps the entries not yet dealt with
            c.engine(draft_where, "status", "not_one_of", value=status, allowed="waiting, rejected")
            continue
        values = {"number": c.number(draft_where, item, "number", required=True, low=1,
                                     high=plan.tournament.games_at_table(len(table.players))),
                  "key": c.text(draft_where, item, "key", required=True),
                  "device": c.text(draft_where, item, "device", required=True),
                  "decided_by": c.text(draft_where, item, "decided_by"), "reason": c.text(draft_where, item, "reason")}
        refused = c.model(draft_where, DraftGame(status=status), values)
        entered_by = item.get("entered_by")
        if entered_by is not None and not _at_table(c, draft_where, "entered_by", entered_by, table):
            continue
        penalty = c.obj(draft_where, item, "penalty")
        if penalty is not None:
            c.unknown(draft_where, penalty, ("offender", "note"))
            if not _at_table(c, draft_where, "penalty.offender", penalty.get("offender"), table):
                continue
            penalty = {"offender": penalty["offender"], "note": c.text(draft_where, penalty, "note")}
            refused |= c.model(draft_where, Penalty(), {"note": penalty["note"]}, keys={"note": "penalty.note"})
        row = item.get("row")
        if not isinstance(row, dict):
            c.engine(draft_where, "row", "not_object")
            continue
        if refused or plan.rules is None or any(values[key] is None for key in ("number", "key", "device")):
            continue
        try:
            game = scoring.parse_sheet({"rules": scoring.rules_spec(plan.rules), "players": table.players,
                                        "rows": [row]}).rows[0]
        except scoring.InvalidInput as error:
            c.problems(draft_where, error)
            continue
        at = c.moment(draft_where, "at", item["at"]) if item.get("at") else None  # none: the time of the import
        table.drafts.append({**values, "game": game, "status": status, "at": at, "entered_by": entered_by,
                             "corrects": item.get("corrects") is True,
                             "penalty": penalty and {**penalty, "note": penalty["note"] or ""},
                             "decided_by": values["decided_by"] or "", "reason": values["reason"] or ""})


def _check_rows(c: _Checker, where: str, data: dict, table: PlannedTable, planned: PlannedRound, plan: Plan,
                rules: scoring.Rules):
    rows = c.listed(where, data, "rows")
    if rows is None:
        return
    if (rows or data.get("totals") is not None) and planned.round.is_draft:
        c.add(where, _("Runde %(round)s ist ein Entwurf: Spiele, Strafen und Endstände gibt es erst in einer "
                       "veröffentlichten Runde.") % {"round": planned.round.number})
        return
    entries = table.players  # names in seat order; the engine sees the names as players
    if data.get("totals") is not None:
        _check_totals(c, where, data["totals"], table, rows, most_total(plan.tournament, len(entries)))
    limit = plan.tournament.games_at_table(len(entries))
    game_rows = sum(1 for row in rows if not (isinstance(row, dict) and "penalty" in row))
    numbers = c.listed(where, data, "game_numbers")
    if numbers is None:
        return
    if not numbers:
        numbers = list(range(1, game_rows + 1))
    elif (len(numbers) != game_rows or not all(_is_int(n) for n in numbers)
          or any(a >= b for a, b in itertools.pairwise(numbers))):
        c.add(where, "game_numbers: " + _("braucht für jede der %(n)s Spielzeilen eine Nummer, aufsteigend ab 1")
              % {"n": game_rows})
        return
    if numbers and numbers[-1] > limit:
        c.add(where, "rows: " + _("an einem %(size)ser-Tisch gibt es die Spiele 1 bis %(limit)s, hier stehen %(n)s "
                                  "Spiele bis Spiel %(last)s")
              % {"size": len(entries), "limit": limit, "n": game_rows, "last": numbers[-1]})
        return
    details = c.listed(where, data, "penalty_details")
    if details is None:
        return
    if details and len(details) != len(rows) - game_rows:
        c.add(where, "penalty_details: " + _("braucht für jede der %(n)s Strafzeilen einen Eintrag")
              % {"n": len(rows) - game_rows})
        return

    spec = scoring.rules_spec(rules)
    rule = dealing.list_rule(plan.tournament, len(entries))
    deals = dealing.deals(entries, limit, rule=rule, games=_entered_rows(rows, numbers) if rule else None)
    last_game = None
    games, penalties = iter(numbers), iter(details or [])
    for row_index, row in enumerate(rows, start=1):
        if isinstance(row, dict) and "penalty" in row:
            row_where = where + ", " + _("Zeile %(row)s (Strafe)") % {"row": row_index}
            _check_penalty(c, row_where, row, next(penalties, {}), last_game, table, spec, limit, deals)
            continue
        number = next(games)
        last_game = number
        if not isinstance(row, dict):
            c.engine(where + ", " + _("Zeile %(row)s") % {"row": row_index}, "row", "not_object")
            continue
        row_where = where + ", " + _("Spiel %(number)s") % {"number": number}
        if _unhashable_choice(c, row_where, row, rules):
            continue
        try:
            game = scoring.parse_sheet({"rules": spec, "players": entries, "rows": [row]}).rows[0]
        except scoring.InvalidInput as error:
            c.problems(row_where, error)
            continue
        if _plays(c, row_where, "players", game.players, deals[number - 1], number):
            table.games.append((number, game))
    entered = {number: dealing.entered(game.type, game.re, game.pflichtsolo) for number, game in table.games}
    for number, text in dealing.list_problems(entries, entered, rule=rule, name=str):
        c.add(where + ", " + _("Spiel %(number)s") % {"number": number}, "pflichtsolo: " + text)


def _plays(c: _Checker, where: str, key: str, players, deal: dealing.Deal, number: int) -> bool:
    """Whether a row names the players of game `number` as the deal has them (at a table of 5 the
    dealer sits out)."""
    _dealer, out, expected = deal.as_tuple()
    if set(players) == set(expected):
        return True
    text = (_("in Spiel %(number)s spielen %(expected)s (%(out)s gibt und setzt aus), nicht %(got)s") if out
            else _("in Spiel %(number)s spielen %(expected)s, nicht %(got)s"))
    c.add(where, f"{key}: " + text % {"number": number, "expected": ", ".join(expected), "out": out,
                                      "got": ", ".join(players)})
    return False


def _entered_rows(rows: list, numbers: list[int]) -> dict[int, dealing.Entered]:
    """What dealing needs of a file's game rows, before the engine has checked them (a list's deal
    follows its Pflichtsoli); a row of the wrong shape counts as a game that passes the deal on."""
    entered = {}
    game_rows = [row for row in rows if not (isinstance(row, dict) and "penalty" in row)]
    for number, row in zip(numbers, game_rows, strict=True):
        if not isinstance(row, dict):
            continue
        re, mark = row.get("re"), row.get("pflichtsolo")
        entered[number] = dealing.entered(row.get("type") if isinstance(row.get("type"), str) else None,
                                          re if isinstance(re, list) and all(isinstance(p, str) for p in re) else [],
                                          mark if isinstance(mark, bool) else None)
    return entered


def _unhashable_choice(c: _Checker, where: str, row: dict, rules: scoring.Rules) -> bool:
    """The engine (scoring.validate.parse_game) looks `type` and `solo` up in sets and fails on a list
    or an object there; such a row is reported here with the engine's message instead."""
    found = False
    for key, allowed in (("type", sorted(RE_SIZE)), ("solo", sorted(rules.solo_kinds))):
        if isinstance(row.get(key), (list, dict)):
            c.engine(where, key, "not_one_of", value=row[key], allowed=", ".join(allowed))
            found = True
    return found


def _check_penalty(c: _Checker, where: str, row: dict, detail, last_game: int | None, table: PlannedTable,
                   spec, limit: int, deals: list[dealing.Deal]):
    if not isinstance(detail, dict):
        c.engine(where, "penalty_details", "not_object")
        return
    c.unknown(where, detail, ("game", "note"))
    game_number = detail.get("game", last_game)
    if game_number is not None and not _is_int(game_number, high=limit):
        c.add(where, "penalty_details.game: " + _("muss eine Spielnummer von 1 bis %(limit)s (oder null) sein, nicht "
                                                  "%(value)s") % {"limit": limit, "value": _shown(game_number)})
        return
    note = c.text(where, detail, "note")
    refused = c.model(where, Penalty(), {"note": note})
    try:
        penalty = scoring.parse_sheet({"rules": spec, "players": table.players, "rows": [row]}).rows[0]
    except scoring.InvalidInput as error:
        c.problems(where, error)
        return
    if len(table.players) == 5:
        if game_number is None:
            c.add(where, _("Am 5er-Tisch braucht eine Strafe das Spiel, in dem sie fiel (wer saß aus?): "
                           "die Strafzeile gehört hinter die Zeile dieses Spiels."))
            return
        if not _plays(c, where, "players", penalty.players, deals[game_number - 1], game_number):
            return
    if note is not None and not refused:
        table.penalties.append(PlannedPenalty(penalty.offender, list(penalty.players), game_number, note))


def _check_totals(c: _Checker, where: str, totals, table: PlannedTable, rows: list, most: int):
    if not isinstance(totals, dict):
        c.engine(where, "totals", "not_object")
        return
    if rows:
        c.add(where, "totals: " + _("ein Tisch hat entweder Spielzeilen oder Endstände, nicht beides"))
        return
    problems = False
    for name, points in totals.items():
        if not _at_table(c, where, "totals", name, table):
            problems = True
        elif not _is_int(points, low=-(2**63), high=2**63):
            c.add(where, f"totals.{name}: " + vocabulary.text("not_integer", {"value": points}, c.lang))
            problems = True
        elif abs(points) > most:
            c.add(where, f"totals.{name}: " + _("an diesem Tisch sind nach den Regeln höchstens ±%(most)s möglich, "
                                                "nicht %(value)s") % {"most": most, "value": points})
            problems = True
    missing = [name for name in table.players if name not in totals]
    if missing:
        c.add(where, "totals: " + _("es fehlt der Endstand von %(names)s") % {"names": ", ".join(missing)})
    elif not problems and sum(totals.values()) != 0:
        c.add(where, "totals: " + _("Die Endstände ergeben zusammen %(sum)s statt 0.") % {"sum": sum(totals.values())})
    elif not problems:
        table.totals = dict(totals)


def _check_log(c: _Checker, data: dict, plan: Plan):
    """The change log's records (optional): written back as they are, so only their form is checked,
    with the historical records' own fields."""
    from ..audit import ACTIONS
    from ..changelog import KINDS, history_model

    records = c.listed("", data, "log")
    if records is None or "log" not in data:
        return
    plan.log = []
    for index, item in enumerate(records, start=1):
        where = _("Änderungsprotokoll, Eintrag %(index)s") % {"index": index}
        if not isinstance(item, dict):
            c.engine(where, "log", "not_object")
            continue
        c.unknown(where, item, LOG_KEYS)
        at = c.moment(where, "at", item.get("at"))
        kind, action, detail = item.get("kind"), item.get("action", ""), item.get("detail", {})
        if at is None:
            continue
        if kind not in KINDS:
            c.engine(where, "kind", "not_one_of", value=kind, allowed=", ".join(KINDS))
            continue
        record = {"at": at, "kind": kind, "type": c.text(where, item, "type", required=True), "action": action,
                  "user": c.text(where, item, "user"), "device": c.text(where, item, "device"),
                  **{key: c.number(where, item, key, low=1, high=2**62 if key == "id" else SMALL)
                     for key in ("round", "table", "number", "id")}, "detail": detail}
        if c.model(where, history_model(kind)(), {"history_type": record["type"], "log_user": record["user"],
                                                   "log_device": record["device"]},
                   keys={"history_type": "type", "log_user": "user", "log_device": "device"}):
            continue
        if action and action not in ACTIONS:
            c.engine(where, "action", "not_one_of", value=action, allowed=", ".join(ACTIONS))
        elif not isinstance(detail, dict):
            c.engine(where, "detail", "not_object")
        elif kind == "game" and record["number"] is None:
            c.engine(where, "number", "required")
        else:
            plan.log.append({**record, "user": record["user"] or "", "device": record["device"] or ""})
