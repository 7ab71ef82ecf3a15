"""A whole tournament as one JSON file: `export_tournament` writes it, `import_tournament` reads it.

The format is described in docs/tournament-file.md: players by name, rounds with their tables in seat
order, and each table's games and penalties as rows of the scoring engine's sheet format
(../shared/scoring-contract.md), so a table's rows can be checked with `python -m scoring`.
Export writes the canonical form (optional keys only when they differ from their defaults); importing
a canonical file and exporting it again gives the same JSON.

Import checks the whole file first and raises `ImportProblems` with every problem, each line naming
its round, table and game; only a file without problems is written, in one transaction.
"""

from __future__ import annotations

import datetime
import itertools
import json
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

import scoring
from scoring import messages
from scoring.validate import RE_SIZE

from ..dealing import game_players
from ..errors import UserError
from ..models import Entry, Game, Penalty, Player, Round, Score, Seat, Table, Tournament
from ..selectors import TIE_BREAKERS
from . import results, seating, tournaments

# optional keys and their defaults: export leaves a key out when it holds its default
TOURNAMENT_DEFAULTS = {"place": "", "rounds_planned": 3, "games_at_table_of_4": 8, "games_at_table_of_5": 10,
                       "tie_breakers": [], "public_overview": True, "public_standings": True, "public_seating": True,
                       "public_players": True}
PUBLIC_KEYS = ("public_overview", "public_standings", "public_seating", "public_players")
TOURNAMENT_KEYS = ("name", "slug", "date", "rules", "players", "rounds", *TOURNAMENT_DEFAULTS)
PLAYER_KEYS = ("name", "club", "start_number", "joined_round", "withdrawn_from_round")
ROUND_DEFAULTS = {"status": Round.Status.PUBLISHED.value, "mode": Round.Mode.RANDOM.value, "seed": "",
                  "results_hidden": False}
ROUND_KEYS = ("number", "tables", *ROUND_DEFAULTS)
TABLE_KEYS = ("number", "players", "rows", "totals", "game_numbers", "penalty_details", "signed")
PENALTY_DETAIL_KEYS = ("game", "note")
SIGNED_KEYS = ("at", "note")


class ImportProblems(UserError):
    """A tournament file that cannot be imported: `lines` names every problem and where it is."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        super().__init__("\n".join(lines))


# ---- export --------------------------------------------------------------------------------------

def export_tournament(tournament: Tournament) -> dict:
    """The tournament in the file format of docs/tournament-file.md, canonical form. Eight queries."""
    data = {"name": tournament.name, "slug": tournament.slug, "date": tournament.date.isoformat(),
            "rules": scoring.rules_spec(tournament.scoring_rules())}
    for key, default in TOURNAMENT_DEFAULTS.items():
        value = getattr(tournament, key)
        if value != default:
            data[key] = list(value) if isinstance(value, list) else value

    entries = list(tournament.entries.select_related("player").order_by("start_number"))
    name = {entry.id: entry.player.name for entry in entries}
    data["players"] = [_export_player(entry, index) for index, entry in enumerate(entries, start=1)]

    tables = list(Table.objects.filter(round__tournament=tournament).order_by("number"))
    seats: dict[int, list[int]] = {}
    for table_id, entry_id in (Seat.objects.filter(round__tournament=tournament)
                               .order_by("position").values_list("table_id", "entry_id")):
        seats.setdefault(table_id, []).append(entry_id)
    games: dict[int, list[Game]] = {}
    for game in Game.objects.filter(table__round__tournament=tournament).order_by("number"):
        games.setdefault(game.table_id, []).append(game)
    penalties: dict[int, list[Penalty]] = {}
    for penalty in Penalty.objects.filter(table__round__tournament=tournament).order_by("id"):
        penalties.setdefault(penalty.table_id, []).append(penalty)
    totals: dict[int, dict[int, int]] = {}
    for table_id, entry_id, points in (Score.objects.filter(round__tournament=tournament, kind=Score.Kind.TOTAL)
                                       .values_list("table_id", "entry_id", "points")):
        totals.setdefault(table_id, {})[entry_id] = points
    tables_of: dict[int, list[Table]] = {}
    for table in tables:
        tables_of.setdefault(table.round_id, []).append(table)

    data["rounds"] = []
    for round in tournament.rounds.order_by("number"):
        item = {"number": round.number}
        for key, default in ROUND_DEFAULTS.items():
            if getattr(round, key) != default:
                item[key] = getattr(round, key)
        item["tables"] = [
            _export_table(table, seats.get(table.id, []), games.get(table.id, []), penalties.get(table.id, []),
                          totals.get(table.id, {}), name)
            for table in tables_of.get(round.id, [])]
        data["rounds"].append(item)
    return data


def _export_player(entry: Entry, index: int) -> dict:
    item = {"name": entry.player.name, "club": entry.player.club}
    if entry.start_number != index:
        item["start_number"] = entry.start_number
    if entry.joined_round != 1:
        item["joined_round"] = entry.joined_round
    if entry.withdrawn_from_round is not None:
        item["withdrawn_from_round"] = entry.withdrawn_from_round
    return item


def _export_table(table: Table, seated: list[int], games: list[Game], penalties: list[Penalty],
                  totals: dict[int, int], name: dict[int, str]) -> dict:
    item = {"number": table.number, "players": [name[e] for e in seated]}
    # slot 0: before the first game row; slot i: after the i-th game row. A penalty goes right after
    # its game, or after the last game before it when its game is not entered.
    numbers = [game.number for game in games]
    slots: list[list[Penalty]] = [[] for _ in range(len(games) + 1)]
    details = []
    for penalty in penalties:
        slot = 0 if penalty.game_number is None else sum(1 for n in numbers if n <= penalty.game_number)
        slots[slot].append(penalty)
    rows = []
    for slot, slot_penalties in enumerate(slots):
        if slot:
            rows.append(_export_game(games[slot - 1], seated, name))
        for penalty in slot_penalties:
            rows.append({"penalty": name[penalty.offender_id], "players": [name[e] for e in penalty.players]})
            detail = {}
            if penalty.game_number != (numbers[slot - 1] if slot else None):
                detail["game"] = penalty.game_number
            if penalty.note:
                detail["note"] = penalty.note
            details.append(detail)
    item["rows"] = rows
    if table.totals_only:
        item["totals"] = {name[e]: totals.get(e, 0) for e in seated}
    if numbers != list(range(1, len(numbers) + 1)):
        item["game_numbers"] = numbers
    if any(details):
        item["penalty_details"] = details
    if table.signed_at is not None:
        item["signed"] = {"at": table.signed_at.isoformat()}
        if table.signed_note:
            item["signed"]["note"] = table.signed_note
    return item


def _export_game(game: Game, seated: list[int], name: dict[int, str]) -> dict:
    row = {"players": [name[e] for e in seated if e != game.sitting_out_id], "type": game.type}
    if game.solo:
        row["solo"] = game.solo
    row["re"] = [name[e] for e in game.re]
    row["re_augen"] = game.re_augen
    if game.re_tricks is not None:
        row["re_tricks"] = game.re_tricks
    row["announcements"] = {"re": game.announce_re or None, "kontra": game.announce_kontra or None}
    row["extras"] = {party: dict(counts) for party, counts in game.extras.items() if counts}
    return row


# ---- import: the checked plan --------------------------------------------------------------------

@dataclass
class _Penalty:
    offender: str
    players: list[str]
    game_number: int | None
    note: str


@dataclass
class _Table:
    number: int
    players: list[str]
    games: list[tuple[int, scoring.Game]] = field(default_factory=list)
    penalties: list[_Penalty] = field(default_factory=list)
    totals: dict[str, int] | None = None
    signed_at: datetime.datetime | None = None
    signed_note: str = ""


@dataclass
class _Round:
    number: int
    status: str
    mode: str
    seed: str
    results_hidden: bool
    tables: list[_Table] = field(default_factory=list)


@dataclass
class _Player:
    name: str
    club: str
    start_number: int
    joined_round: int
    withdrawn_from_round: int | None


@dataclass
class _Plan:
    tournament: dict
    rules: scoring.Rules | None = None
    players: list[_Player] = field(default_factory=list)
    rounds: list[_Round] = field(default_factory=list)


SMALL = 32767  # the largest round, table or game number the database holds


def _is_int(value, low: int = 1, high: int = SMALL) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


class _Checker:
    """Collects problem lines: "<where>: <field>: <text>", in the active language."""

    def __init__(self):
        self.lines: list[str] = []
        self.lang = "de" if (get_language() or "de").startswith("de") else "en"

    def add(self, where: str, text: str):
        self.lines.append(f"{where}: {text}" if where else text)

    def engine(self, where: str, field_name: str, code: str, **params):
        """A problem worded by the scoring engine's messages (fehlt, muss eine Liste sein, …)."""
        self.add(where, f"{field_name}: {messages.text(code, params, self.lang)}")

    def problem(self, where: str, problem: scoring.Problem):
        self.add(where, f"{problem.field}: {problem.text(self.lang)}")

    def unknown(self, where: str, data: dict, known: tuple[str, ...]):
        for key in data:
            if key not in known:
                self.engine(where, key, "unknown_field")

    def text(self, where: str, data: dict, key: str, *, required: bool = False, default: str = "",
             max_length: int | None = None) -> str | None:
        value = data.get(key)
        if value is None:
            if required:
                self.engine(where, key, "required")
                return None
            return default
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

    def number(self, where: str, data: dict, key: str, *, required: bool = False, default=None, low: int = 1,
               high: int = SMALL):
        value = data.get(key)
        if value is None:
            if required:
                self.engine(where, key, "required")
            return default
        if not _is_int(value, low, high):
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


def _shown(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _round_where(number, index: int) -> str:
    if _is_int(number):
        return _("Runde %(round)s") % {"round": number}
    return _("%(index)s. Runde der Datei") % {"index": index}


def _table_where(round_where: str, number, index: int) -> str:
    if _is_int(number):
        return round_where + ", " + _("Tisch %(table)s") % {"table": number}
    return round_where + ", " + _("%(index)s. Tisch der Runde") % {"index": index}


def check_file(data, *, slug: str | None = None) -> _Plan:
    """Checks a tournament file completely; returns what to write or raises ImportProblems."""
    c = _Checker()
    if not isinstance(data, dict):
        raise ImportProblems([_("Die Datei muss ein JSON-Objekt mit dem Turnier sein.")])
    c.unknown("", data, TOURNAMENT_KEYS)
    tournament = {
        "name": c.text("", data, "name", required=True, max_length=200),
        "place": c.text("", data, "place", max_length=200),
        "rounds_planned": c.number("", data, "rounds_planned", default=3),
        "games_at_table_of_4": c.number("", data, "games_at_table_of_4", default=8),
        "games_at_table_of_5": c.number("", data, "games_at_table_of_5", default=10),
        **{key: c.flag("", data, key, TOURNAMENT_DEFAULTS[key]) for key in PUBLIC_KEYS},
    }
    slug = slug if slug is not None else c.text("", data, "slug", max_length=80)
    if slug:
        try:
            validate_slug(slug)
        except ValidationError:
            c.add("", "slug: " + _("%(slug)s ist kein gültiger Kurzname (nur Buchstaben, Ziffern, - und _)")
                  % {"slug": _shown(slug)})
        else:
            if len(slug) > 80:
                c.add("", "slug: " + _("höchstens %(n)s Zeichen") % {"n": 80})
            elif Tournament.objects.filter(slug=slug).exists():
                c.add("", "slug: " + _("Den Kurznamen %(slug)s hat schon ein anderes Turnier.") % {"slug": slug})
    tournament["slug"] = slug or ""
    date = data.get("date")
    try:
        if not isinstance(date, str) or len(date) != 10:
            raise ValueError
        tournament["date"] = datetime.date.fromisoformat(date)
    except ValueError:
        if date is None:
            c.engine("", "date", "required")
        else:
            c.add("", "date: " + _("muss ein Datum der Form JJJJ-MM-TT sein, nicht %(value)s")
                  % {"value": _shown(date)})
    tie_breakers = data.get("tie_breakers", [])
    if (not isinstance(tie_breakers, list)
            or any(not isinstance(t, str) or t not in TIE_BREAKERS for t in tie_breakers)
            or len(set(tie_breakers)) != len(tie_breakers)):
        c.engine("", "tie_breakers", "not_subset", allowed=", ".join(TIE_BREAKERS))
    else:
        tournament["tie_breakers"] = list(tie_breakers)
    plan = _Plan(tournament=tournament)
    try:
        plan.rules = scoring.parse_rules(data.get("rules", scoring.DEFAULT_PRESET))
        tournament["rules"] = scoring.rules_spec(plan.rules)
    except scoring.InvalidInput as error:
        for problem in error.problems:
            c.problem("", problem)

    _check_players(c, data, plan)
    _check_rounds(c, data, plan)
    if c.lines:
        raise ImportProblems(c.lines)
    return plan


def _check_players(c: _Checker, data: dict, plan: _Plan):
    players = c.listed("", data, "players", required=True)
    names, numbers = set(), set()
    for index, item in enumerate(players or [], start=1):
        where = _("Spieler %(index)s") % {"index": index}
        if not isinstance(item, dict):
            c.engine(where, "player", "not_object")
            continue
        c.unknown(where, item, PLAYER_KEYS)
        name = c.text(where, item, "name", required=True, max_length=120)
        club = c.text(where, item, "club", max_length=120)
        start_number = c.number(where, item, "start_number", default=index, high=2**31 - 1)
        joined = c.number(where, item, "joined_round", default=1)
        withdrawn = c.number(where, item, "withdrawn_from_round")
        if name is not None:
            if name in names:
                c.add(where, _("%(name)s steht zweimal in der Spielerliste.") % {"name": name})
            names.add(name)
        if start_number is not None:
            if start_number in numbers:
                c.add(where, _("Die Startnummer %(n)s ist schon vergeben.") % {"n": start_number})
            numbers.add(start_number)
        if name is not None:  # known for the tables even when another field has a problem
            plan.players.append(_Player(name, club, start_number, joined, withdrawn))


def _check_rounds(c: _Checker, data: dict, plan: _Plan):
    rounds = c.listed("", data, "rounds", required=True)
    known = {player.name for player in plan.players}
    numbers = set()
    for index, item in enumerate(rounds or [], start=1):
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
        status = item.get("status", ROUND_DEFAULTS["status"])
        if status not in Round.Status.values:
            c.engine(where, "status", "not_one_of", value=status, allowed=", ".join(Round.Status.values))
        mode = item.get("mode", ROUND_DEFAULTS["mode"])
        if mode not in Round.Mode.values:
            c.engine(where, "mode", "not_one_of", value=mode, allowed=", ".join(Round.Mode.values))
        seed = c.text(where, item, "seed", max_length=40)
        hidden = c.flag(where, item, "results_hidden", False)
        round = _Round(number=number, status=status, mode=mode, seed=seed or "", results_hidden=hidden)
        _check_tables(c, where, item, round, known, plan.rules)
        plan.rounds.append(round)
    plan.rounds.sort(key=lambda r: r.number or 0)
    drafts = [r.number for r in plan.rounds if r.status == Round.Status.DRAFT and r.number]
    if drafts and max(numbers, default=0) > min(drafts):
        c.add("", _("Nur die letzte Runde kann ein Entwurf sein, nicht Runde %(round)s.") % {"round": min(drafts)})


def _check_tables(c: _Checker, round_where: str, data: dict, round: _Round, known: set[str],
                  rules: scoring.Rules | None):
    tables = c.listed(round_where, data, "tables", required=True)
    seated: dict[str, int] = {}
    numbers = set()
    for index, item in enumerate(tables or [], start=1):
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
        if players is not None:
            if len(players) not in (4, 5):
                c.add(where, "players: " + _("ein Tisch hat 4 oder 5 Spieler, nicht %(n)s") % {"n": len(players)})
                players_ok = False
            for name in players:
                if not isinstance(name, str) or name not in known:
                    c.add(where, "players: " + _("%(name)s steht nicht in der Spielerliste") % {"name": _shown(name)})
                    players_ok = False
                elif name in seated:
                    other = seated[name]
                    text = (_("%(name)s sitzt in dieser Runde schon an Tisch %(other)s")
                            if other != number else _("%(name)s sitzt zweimal an diesem Tisch"))
                    c.add(where, "players: " + text % {"name": name, "other": other})
                    players_ok = False
                else:
                    seated[name] = number
        table = _Table(number=number, players=list(players or []))
        if players_ok and rules is not None:
            _check_rows(c, where, item, table, rules, round)
        _check_signed(c, where, item, table)
        round.tables.append(table)
    round.tables.sort(key=lambda t: t.number or 0)


def _check_signed(c: _Checker, where: str, data: dict, table: _Table):
    signed = data.get("signed")
    if signed is None:
        return
    if not isinstance(signed, dict):
        c.engine(where, "signed", "not_object")
        return
    c.unknown(where, signed, SIGNED_KEYS)
    try:
        at = datetime.datetime.fromisoformat(signed["at"])
        table.signed_at = at if timezone.is_aware(at) else timezone.make_aware(at)
    except (KeyError, TypeError, ValueError):
        c.add(where, "signed.at: " + _("muss Datum und Uhrzeit der Form JJJJ-MM-TTThh:mm:ss+00:00 sein"))
    table.signed_note = c.text(where, signed, "note", max_length=300) or ""


def _check_rows(c: _Checker, where: str, data: dict, table: _Table, rules: scoring.Rules, round: _Round):
    rows = c.listed(where, data, "rows")
    if rows is None:
        return
    if (rows or data.get("totals") is not None) and round.status == Round.Status.DRAFT:
        c.add(where, _("Runde %(round)s ist ein Entwurf: Spiele, Strafen und Endstände gibt es erst in einer "
                       "veröffentlichten Runde.") % {"round": round.number})
        return
    if data.get("totals") is not None:
        _check_totals(c, where, data["totals"], table, rows)
    game_rows = sum(1 for row in rows if not (isinstance(row, dict) and "penalty" in row))
    penalty_rows = len(rows) - game_rows
    numbers = c.listed(where, data, "game_numbers")
    if numbers is None:
        return
    if not data.get("game_numbers"):
        numbers = list(range(1, game_rows + 1))
    elif (len(numbers) != game_rows or not all(_is_int(n) for n in numbers)
          or any(a >= b for a, b in itertools.pairwise(numbers))):
        c.add(where, "game_numbers: " + _("braucht für jede der %(n)s Spielzeilen eine Nummer, aufsteigend ab 1")
              % {"n": game_rows})
        return
    details = c.listed(where, data, "penalty_details")
    if details is None:
        return
    if details and len(details) != penalty_rows:
        c.add(where, "penalty_details: " + _("braucht für jede der %(n)s Strafzeilen einen Eintrag")
              % {"n": penalty_rows})
        return

    entries = table.players  # names in seat order; the engine sees the names as players
    spec = scoring.rules_spec(rules)
    last_game = None
    game_index = penalty_index = 0
    for row_index, row in enumerate(rows, start=1):
        is_penalty = isinstance(row, dict) and "penalty" in row
        if is_penalty:
            detail = details[penalty_index] if details else {}
            penalty_index += 1
            row_where = where + ", " + _("Zeile %(row)s (Strafe)") % {"row": row_index}
            _check_penalty(c, row_where, row, detail, last_game, table, rules)
            continue
        if isinstance(row, dict):
            number = numbers[game_index]
            row_where = where + ", " + _("Spiel %(number)s") % {"number": number}
        else:
            number = None
            row_where = where + ", " + _("Zeile %(row)s") % {"row": row_index}
        game_index += 1
        last_game = number
        if _unhashable_choice(c, row_where, row, rules):
            continue
        try:
            sheet = scoring.parse_sheet({"rules": spec, "players": entries, "rows": [row]})
        except scoring.InvalidInput as error:
            for problem in error.problems:
                c.problem(row_where, problem)
            continue
        game = sheet.rows[0]
        _dealer, out, expected = game_players(entries, number)
        if set(game.players) != set(expected):
            text = _("in Spiel %(number)s spielen %(expected)s (%(out)s gibt und setzt aus), nicht %(got)s") \
                if out else _("in Spiel %(number)s spielen %(expected)s, nicht %(got)s")
            c.add(row_where, "players: " + text % {"number": number, "expected": ", ".join(expected), "out": out,
                                                   "got": ", ".join(game.players)})
            continue
        table.games.append((number, game))


def _unhashable_choice(c: _Checker, where: str, row, rules: scoring.Rules) -> bool:
    """The engine (scoring.validate.parse_game) looks `type` and `solo` up in sets and fails on a list
    or an object there; such a row is reported here with the engine's message instead."""
    if not isinstance(row, dict):
        return False
    found = False
    for key, allowed in (("type", sorted(RE_SIZE)), ("solo", sorted(rules.solo_kinds))):
        value = row.get(key)
        if isinstance(value, (list, dict)):
            c.engine(where, key, "not_one_of", value=value, allowed=", ".join(allowed))
            found = True
    return found


def _check_penalty(c: _Checker, where: str, row: dict, detail, last_game: int | None, table: _Table,
                   rules: scoring.Rules):
    if not isinstance(detail, dict):
        c.engine(where, "penalty_details", "not_object")
        return
    c.unknown(where, detail, PENALTY_DETAIL_KEYS)
    game_number = detail.get("game", last_game)
    if game_number is not None and not _is_int(game_number):
        c.add(where, "penalty_details.game: " + _("muss eine Spielnummer ab 1 oder null sein"))
        return
    note = c.text(where, detail, "note", max_length=200)
    try:
        sheet = scoring.parse_sheet({"rules": scoring.rules_spec(rules), "players": table.players, "rows": [row]})
    except scoring.InvalidInput as error:
        for problem in error.problems:
            c.problem(where, problem)
        return
    penalty = sheet.rows[0]
    if len(table.players) == 5:
        if game_number is None:
            c.add(where, _("Am 5er-Tisch braucht eine Strafe das Spiel, in dem sie fiel (wer saß aus?): "
                           "die Strafzeile gehört hinter die Zeile dieses Spiels."))
            return
        _dealer, out, expected = game_players(table.players, game_number)
        if set(penalty.players) != set(expected):
            c.add(where, "players: " + _("in Spiel %(number)s spielen %(expected)s (%(out)s gibt und setzt aus), "
                                         "nicht %(got)s")
                  % {"number": game_number, "expected": ", ".join(expected), "out": out,
                     "got": ", ".join(penalty.players)})
            return
    if note is not None:
        table.penalties.append(_Penalty(penalty.offender, list(penalty.players), game_number, note))


def _check_totals(c: _Checker, where: str, totals, table: _Table, rows: list):
    if not isinstance(totals, dict):
        c.engine(where, "totals", "not_object")
        return
    if rows:
        c.add(where, "totals: " + _("ein Tisch hat entweder Spielzeilen oder Endstände, nicht beides"))
        return
    problems = False
    for name, points in totals.items():
        if name not in table.players:
            c.add(where, "totals: " + _("%(name)s sitzt nicht an diesem Tisch") % {"name": _shown(name)})
            problems = True
        elif not _is_int(points, low=-(2**31), high=2**31 - 1):
            c.add(where, f"totals.{name}: " + messages.text("not_integer", {"value": points}, c.lang))
            problems = True
    missing = [name for name in table.players if name not in totals]
    if missing:
        c.add(where, "totals: " + _("es fehlt der Endstand von %(names)s") % {"names": ", ".join(missing)})
    elif not problems and sum(totals.values()) != 0:
        c.add(where, "totals: " + _("Die Endstände ergeben zusammen %(sum)s statt 0.") % {"sum": sum(totals.values())})
    elif not problems:
        table.totals = dict(totals)


# ---- import: writing -----------------------------------------------------------------------------

def find_or_create_players(pairs: list[tuple[str, str]]) -> dict[tuple[str, str], Player]:
    """The Player for each (name, club): an existing one with that name and club, else a new one (as
    `tournaments.register_player` does). Three queries however many."""
    people: dict[tuple[str, str], Player] = {}
    wanted = set(pairs)
    for person in Player.objects.filter(name__in={name for name, _club in pairs}).order_by("id"):
        if (person.name, person.club) in wanted:
            people.setdefault((person.name, person.club), person)
    missing = [Player(name=name, club=club) for name, club in dict.fromkeys(pairs) if (name, club) not in people]
    for person in Player.objects.bulk_create(missing):
        people[(person.name, person.club)] = person
    return people


def import_tournament(data: dict, *, director=None, slug: str | None = None) -> Tournament:
    """Creates the tournament of a file (docs/tournament-file.md); `slug` replaces the file's.
    Checks everything first: raises ImportProblems listing every problem, and then writes nothing."""
    plan = check_file(data, slug=slug)
    with transaction.atomic():
        return _write(plan, director)


def _write(plan: _Plan, director) -> Tournament:
    t = plan.tournament
    tournament = tournaments.create_tournament(
        name=t["name"], date=t["date"], director=director, place=t["place"], slug=t["slug"], rules=t["rules"],
        rounds_planned=t["rounds_planned"], games_at_table_of_4=t["games_at_table_of_4"],
        games_at_table_of_5=t["games_at_table_of_5"], tie_breakers=t["tie_breakers"])
    for key in PUBLIC_KEYS:
        setattr(tournament, key, t[key])
    tournament.save(update_fields=PUBLIC_KEYS)
    people = find_or_create_players([(p.name, p.club) for p in plan.players])
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=people[(p.name, p.club)], start_number=p.start_number,
              joined_round=p.joined_round, withdrawn_from_round=p.withdrawn_from_round) for p in plan.players)
    entry = dict(tournament.entries.values_list("player__name", "id"))

    for planned in plan.rounds:
        round = Round.objects.create(tournament=tournament, number=planned.number, mode=planned.mode,
                                     seed=planned.seed, results_hidden=planned.results_hidden)
        seating.place_tables(round=round, tables=[[entry[n] for n in t.players] for t in planned.tables],
                             numbers=[t.number for t in planned.tables])
        if planned.status == Round.Status.DRAFT:
            continue
        Round.objects.filter(pk=round.pk).update(status=Round.Status.PUBLISHED)
        round.status = Round.Status.PUBLISHED
        tables = {table.number: table for table in
                  round.tables.select_related("round__tournament").prefetch_related("seats")}
        games, penalties = [], []
        for t in planned.tables:
            table = tables[t.number]
            seated = [entry[n] for n in t.players]
            for number, game in t.games:
                dealer, sitting_out, _players = game_players(seated, number)
                games.append(Game(
                    table=table, number=number, dealer_id=dealer, sitting_out_id=sitting_out, type=game.type,
                    solo=game.solo or "", re=[entry[n] for n in game.re], re_augen=game.re_augen,
                    re_tricks=game.re_tricks, announce_re=game.announcements["re"] or "",
                    announce_kontra=game.announcements["kontra"] or "",
                    extras={party: counts for party, counts in game.extras.items() if counts}))
            penalties += [Penalty(table=table, offender_id=entry[p.offender], game_number=p.game_number,
                                  players=[entry[n] for n in p.players], note=p.note) for p in t.penalties]
        Game.objects.bulk_create(games)
        Penalty.objects.bulk_create(penalties)
        for t in planned.tables:
            table = tables[t.number]
            if t.totals is not None:
                results.enter_totals(table=table, totals={entry[n]: points for n, points in t.totals.items()})
            elif t.games or t.penalties:
                results.recompute_table(table, plan.rules)
        if planned.status != Round.Status.PUBLISHED:
            Round.objects.filter(pk=round.pk).update(status=planned.status)
    for planned in plan.rounds:  # signing locks a table: only once everything is entered
        for t in planned.tables:
            if t.signed_at is not None:
                Table.objects.filter(round__tournament=tournament, round__number=planned.number,
                                     number=t.number).update(signed_at=t.signed_at, signed_note=t.signed_note)
    return tournament
