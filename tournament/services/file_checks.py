"""Checking a tournament file (docs/tournament-file.md) before anything is written: `check_file`
reads the whole file and either returns the plan of what to write (`importing.import_tournament`
writes it through the services) or raises `ImportProblems` with every problem, each line naming its
round, table and game, in the reader's language.

What the file must hold beyond its form: round numbers 1, 2, 3 … without gaps; a player seated only
in rounds they play (from `joined_round`, before `withdrawn_from_round`); at most as many games as a
table has, numbered within them; penalties in games that exist at the table; the change log's
records well-formed.
"""

from __future__ import annotations

import datetime
import itertools
import json
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from scoring import vocabulary
from scoring.validate import RE_SIZE
from seating import dealing

from .. import names
from .. import vocabulary as app_words
from ..errors import UserError, language
from ..fileformat import ROUND_DEFAULTS, TOURNAMENT_DEFAULTS
from ..models import Round, Tournament
from ..ranking import TIE_BREAKERS
from .scores import most_total
from .tournaments import MOST_START_NUMBER

PUBLIC_KEYS = ("public_overview", "public_standings", "public_seating", "public_players")
TOURNAMENT_KEYS = ("name", "slug", "date", "rules", "players", "rounds", "log", *TOURNAMENT_DEFAULTS)
PLAYER_KEYS = ("name", "club", "start_number", "joined_round", "withdrawn_from_round", "present")
ROUND_KEYS = ("number", "tables", *ROUND_DEFAULTS)
TABLE_KEYS = ("number", "players", "rows", "totals", "game_numbers", "penalty_details", "ended", "signed", "approved",
              "drafts", "link")
DRAFT_KEYS = ("number", "row", "status", "key", "device", "at", "entered_by", "decided_by", "reason", "corrects",
              "penalty")
DRAFT_PENALTY_KEYS = ("offender", "note")
PENALTY_DETAIL_KEYS = ("game", "note")
SIGNED_KEYS = ("at", "note")
ENDED_KEYS = ("after", "note")
LOG_KEYS = ("at", "kind", "type", "action", "user", "device", "round", "table", "number", "id", "detail")
LOG_KINDS = ("tournament", "player", "round", "table", "game", "penalty", "draft", "registration")


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
    number: int
    status: str
    mode: str
    seed: str
    results_hidden: bool
    tables: list[PlannedTable] = field(default_factory=list)


@dataclass
class PlannedPlayer:
    name: str
    club: str
    start_number: int
    joined_round: int
    withdrawn_from_round: int | None
    present: bool = False
    ref: str = ""  # how the rest of the file names the player (names.references): the name, or "Name (Verein)"


@dataclass
class Plan:
    """What a checked file will write."""

    tournament: dict
    rules: scoring.Rules | None = None
    players: list[PlannedPlayer] = field(default_factory=list)
    rounds: list[PlannedRound] = field(default_factory=list)
    log: list[dict] | None = None  # the change log's records, None when the file has none

    def games_at_table(self, size: int) -> int:
        return (self.tournament.get("games_at_table_of_5") if size == 5
                else self.tournament.get("games_at_table_of_4")) or 1

    def list_rule(self, size: int) -> dealing.ListRule | None:
        """The file's list with Pflichtsoli at a table of this size (Tournament.list_rule)."""
        return Tournament(pflichtsoli=self.tournament.get("pflichtsoli") or "",
                          games_at_table_of_4=self.games_at_table(4),
                          games_at_table_of_5=self.games_at_table(5)).list_rule(size)

    def most_total(self, size: int) -> int:
        """The largest final total a player can have at a table of this size (scores.most_total)."""
        settings = Tournament(rules=self.tournament.get("rules") or scoring.DEFAULT_PRESET,
                              games_at_table_of_4=self.games_at_table(4), games_at_table_of_5=self.games_at_table(5))
        return most_total(settings, size)


SMALL = 32767  # the largest round, table or game number the database holds


def _is_int(value, low: int = 1, high: int = SMALL) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


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


MOST_DEPTH = 32  # a tournament file is at most about ten levels deep


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
    tournament = {
        "name": c.text("", data, "name", required=True, max_length=200),
        "place": c.text("", data, "place", max_length=200),
        "rounds_planned": c.number("", data, "rounds_planned", default=3),
        "games_at_table_of_4": c.number("", data, "games_at_table_of_4", default=8),
        "games_at_table_of_5": c.number("", data, "games_at_table_of_5", default=10),
        "round_minutes": c.number("", data, "round_minutes", default=100, low=0, high=600),
        **{key: c.flag("", data, key, bool(TOURNAMENT_DEFAULTS[key])) for key in PUBLIC_KEYS},
        "pflichtsoli": _check_pflichtsoli(c, data),
        "ranking": _check_ranking(c, data),
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
    plan = Plan(tournament=tournament)
    try:
        plan.rules = scoring.parse_rules(data.get("rules", scoring.DEFAULT_PRESET))
        tournament["rules"] = scoring.rules_spec(plan.rules)
    except scoring.InvalidInput as error:
        for problem in error.problems:
            c.problem("", problem)

    _check_players(c, data, plan)
    _check_rounds(c, data, plan)
    _check_log(c, data, plan)
    if c.lines:
        raise ImportProblems(c.lines)
    return plan


def _check_ranking(c: _Checker, data: dict) -> str:
    """How the standings rank (`Tournament.ranking`): one of the model's choices; a file without it
    (written before there was a choice) ranks by the sum of game points, as it did then."""
    value = data.get("ranking", TOURNAMENT_DEFAULTS["ranking"])
    if value not in Tournament.Ranking.values:
        c.engine("", "ranking", "not_one_of", value=value,
                 allowed=", ".join(repr(v) for v in Tournament.Ranking.values))
        return str(TOURNAMENT_DEFAULTS["ranking"])
    return value


def _check_pflichtsoli(c: _Checker, data: dict) -> str:
    """The tournament's lists with Pflichtsoli ("" without): one of the model's choices, and a list
    of at least one game per player."""
    value = data.get("pflichtsoli", "")
    if value not in Tournament.Pflichtsoli.values:
        c.engine("", "pflichtsoli", "not_one_of", value=value,
                 allowed=", ".join(repr(v) for v in Tournament.Pflichtsoli.values))
        return ""
    for size, key in ((4, "games_at_table_of_4"), (5, "games_at_table_of_5")):
        games = data.get(key, TOURNAMENT_DEFAULTS[key])
        if value and _is_int(games) and games < size:
            c.add("", key + ": " + _("eine Liste mit Pflichtsoli hat am %(size)ser-Tisch mindestens %(size)s Spiele, "
                                     "eines je Pflichtsolo") % {"size": size})
    return value


def _check_players(c: _Checker, data: dict, plan: Plan):
    players = c.listed("", data, "players", required=True)
    seen: dict[str, str] = {}  # names.identity -> the player as the list writes them first
    numbers = set()
    wheres = []
    for index, item in enumerate(players or [], start=1):
        where = _("Spieler %(index)s") % {"index": index}
        if not isinstance(item, dict):
            c.engine(where, "player", "not_object")
            continue
        c.unknown(where, item, PLAYER_KEYS)
        name = c.text(where, item, "name", required=True, max_length=120)
        club = c.text(where, item, "club", max_length=120)
        start_number = c.number(where, item, "start_number", default=index, high=MOST_START_NUMBER)
        joined = c.number(where, item, "joined_round", default=1)
        withdrawn = c.number(where, item, "withdrawn_from_round")
        present = c.flag(where, item, "present", False)
        if joined is not None and withdrawn is not None and withdrawn < joined:
            c.add(where, "withdrawn_from_round: " + _("darf nicht vor joined_round (%(joined)s) liegen")
                  % {"joined": joined})
        if name is not None and club is not None:
            identity = names.identity(name, club)
            if identity in seen:  # the same name and club, ignoring case and spaces: one person
                c.add(where, _("%(name)s steht zweimal in der Spielerliste.") % {"name": seen[identity]})
                name = None  # the tables' names mean the first
            else:
                seen[identity] = names.person_text(names.clean(name), names.clean(club))
        if start_number is not None:
            if start_number in numbers:
                c.add(where, _("Die Startnummer %(n)s ist schon vergeben.") % {"n": start_number})
            numbers.add(start_number)
        if name is not None:  # known for the tables even when another field has a problem
            plan.players.append(PlannedPlayer(name, club or "", start_number, joined, withdrawn, bool(present)))
            wheres.append(where)
    # the rest of the file names a player by the name as the list writes it, "Name (Verein)" where two
    # players share a name (with other clubs)
    refs = names.references((index, p.name, p.club) for index, p in enumerate(plan.players))
    told: set[str] = set()
    for index, player in enumerate(plan.players):
        player.ref = refs[index]
        if names.folded(player.ref) in told:
            c.add(wheres[index], "name: " + _("„%(name)s“ ist von einem anderen Spieler nicht zu unterscheiden")
                  % {"name": player.ref})
        told.add(names.folded(player.ref))


def _check_rounds(c: _Checker, data: dict, plan: Plan):
    rounds = c.listed("", data, "rounds", required=True)
    known = {player.ref for player in plan.players}
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
        round = PlannedRound(number=number, status=status, mode=mode, seed=seed or "", results_hidden=bool(hidden))
        _check_tables(c, where, item, round, known, plan)
        plan.rounds.append(round)
    plan.rounds.sort(key=lambda r: r.number or 0)
    if numbers and sorted(numbers) != list(range(1, len(numbers) + 1)):
        c.add("", "rounds: " + _("die Runden müssen 1, 2, 3 … ohne Lücke nummeriert sein, nicht %(numbers)s")
              % {"numbers": ", ".join(map(str, sorted(numbers)))})
    drafts = [r.number for r in plan.rounds if r.status == Round.Status.DRAFT and r.number]
    if drafts and max(numbers, default=0) > min(drafts):
        c.add("", _("Nur die letzte Runde kann ein Entwurf sein, nicht Runde %(round)s.") % {"round": min(drafts)})


def _check_tables(c: _Checker, round_where: str, data: dict, round: PlannedRound, known: set[str], plan: Plan):
    rules = plan.rules
    playing = {p.ref: p for p in plan.players}
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
                    player = playing.get(name)
                    # a draft's seating may be out of date (the page says so): only published rounds
                    if (player is not None and round.number is not None and player.joined_round is not None
                            and round.status != Round.Status.DRAFT
                            and not (player.joined_round <= round.number
                                     and (player.withdrawn_from_round is None
                                          or round.number < player.withdrawn_from_round))):
                        c.add(where, "players: " + _("%(name)s spielt laut Spielerliste in Runde %(round)s nicht mit "
                                                     "(dabei ab Runde %(joined)s%(withdrawn)s)")
                              % {"name": name, "round": round.number, "joined": player.joined_round,
                                 "withdrawn": (_(", zurückgezogen ab Runde %(n)s") % {"n": player.withdrawn_from_round}
                                               if player.withdrawn_from_round else "")})
                        players_ok = False
        table = PlannedTable(number=number, players=list(players or []))
        if players_ok and rules is not None:
            _check_rows(c, where, item, table, rules, round, plan)
        _check_ended(c, where, item, table)
        _check_signed(c, where, item, table)
        if players_ok:
            _check_phones(c, where, item, table, plan, round)
        round.tables.append(table)
    round.tables.sort(key=lambda t: t.number or 0)


def _check_ended(c: _Checker, where: str, data: dict, table: PlannedTable):
    """A table that stopped early: it stopped after its last game in the file, and says why."""
    ended = data.get("ended")
    if ended is None:
        return
    if not isinstance(ended, dict):
        c.engine(where, "ended", "not_object")
        return
    c.unknown(where, ended, ENDED_KEYS)
    after = c.number(where, ended, "after", required=True, low=0)
    note = c.text(where, ended, "note", required=True, max_length=300)
    if after is None or note is None:
        return
    if data.get("totals") is not None:
        c.add(where, "ended: " + _("ein Tisch mit nur Endständen kann nicht vorzeitig beendet sein"))
    elif after != len(table.games):
        c.add(where, "ended.after: " + _("der Tisch hat %(games)s Spiele, beendet nach Spiel %(after)s passt nicht "
                                         "dazu") % {"games": len(table.games), "after": after})
    table.ended_after = after
    table.ended_note = note


def _check_signed(c: _Checker, where: str, data: dict, table: PlannedTable):
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


def _check_phones(c: _Checker, where: str, data: dict, table: PlannedTable, plan: Plan, round: PlannedRound):
    """What the table's phones hold: "stimmt" of players at the table, the entries waiting or
    rejected (each a game row of this table, checked by the engine), the entry link's token."""
    approved = c.listed(where, data, "approved") or []
    for name in approved:
        if name not in table.players:
            c.add(where, "approved: " + _("%(name)s sitzt nicht an diesem Tisch") % {"name": _shown(name)})
        else:
            table.approved.append(name)
    link = data.get("link")
    if link is not None:
        if (not isinstance(link, str) or not 16 <= len(link) <= 64
                or not link.replace("-", "").replace("_", "").isalnum()):
            c.add(where, "link: " + _("ist kein gültiger Eingabelink"))
        else:
            table.link = link
    drafts = c.listed(where, data, "drafts") or []
    for index, item in enumerate(drafts, start=1):
        draft_where = where + ", " + _("Eingabe %(index)s vom Tisch") % {"index": index}
        if not isinstance(item, dict):
            c.engine(draft_where, "drafts", "not_object")
            continue
        c.unknown(draft_where, item, DRAFT_KEYS)
        number = c.number(draft_where, item, "number", required=True, high=plan.games_at_table(len(table.players)))
        status = item.get("status")
        if status not in ("waiting", "rejected"):
            c.engine(draft_where, "status", "not_one_of", value=status, allowed="waiting, rejected")
            continue
        key = c.text(draft_where, item, "key", required=True, max_length=64)
        device = c.text(draft_where, item, "device", required=True, max_length=64)
        entered_by = item.get("entered_by")
        if entered_by is not None and entered_by not in table.players:
            c.add(draft_where, "entered_by: " + _("%(name)s sitzt nicht an diesem Tisch")
                  % {"name": _shown(entered_by)})
            continue
        penalty = item.get("penalty")
        if penalty is not None:
            if not isinstance(penalty, dict):
                c.engine(draft_where, "penalty", "not_object")
                continue
            c.unknown(draft_where, penalty, DRAFT_PENALTY_KEYS)
            if penalty.get("offender") not in table.players:
                c.add(draft_where, "penalty.offender: " + _("%(name)s sitzt nicht an diesem Tisch")
                      % {"name": _shown(penalty.get("offender"))})
                continue
            penalty = {"offender": penalty["offender"],
                       "note": c.text(draft_where, penalty, "note", max_length=200) or ""}
        row = item.get("row")
        if number is None or key is None or device is None or plan.rules is None or not isinstance(row, dict):
            if not isinstance(row, dict):
                c.engine(draft_where, "row", "not_object")
            continue
        try:
            game = scoring.parse_sheet({"rules": scoring.rules_spec(plan.rules), "players": table.players,
                                        "rows": [row]}).rows[0]
        except scoring.InvalidInput as error:
            for problem in error.problems:
                c.problem(draft_where, problem)
            continue
        try:
            at = datetime.datetime.fromisoformat(item.get("at") or "")
            at = at if timezone.is_aware(at) else timezone.make_aware(at)
        except (TypeError, ValueError):
            at = None
        table.drafts.append({"number": number, "game": game, "status": status, "key": key, "device": device, "at": at,
                             "corrects": item.get("corrects") is True, "penalty": penalty,
                             "entered_by": entered_by, "decided_by": c.text(draft_where, item, "decided_by",
                                                                            max_length=150) or "",
                             "reason": c.text(draft_where, item, "reason", max_length=200) or ""})


def _check_rows(c: _Checker, where: str, data: dict, table: PlannedTable, rules: scoring.Rules, round: PlannedRound,
                plan: Plan):
    rows = c.listed(where, data, "rows")
    if rows is None:
        return
    if (rows or data.get("totals") is not None) and round.status == Round.Status.DRAFT:
        c.add(where, _("Runde %(round)s ist ein Entwurf: Spiele, Strafen und Endstände gibt es erst in einer "
                       "veröffentlichten Runde.") % {"round": round.number})
        return
    if data.get("totals") is not None:
        _check_totals(c, where, data["totals"], table, rows, plan.most_total(len(table.players)))
    limit = plan.games_at_table(len(table.players))
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
    if numbers and numbers[-1] > limit:
        c.add(where, "rows: " + _("an einem %(size)ser-Tisch gibt es die Spiele 1 bis %(limit)s, hier stehen %(n)s "
                                  "Spiele bis Spiel %(last)s")
              % {"size": len(table.players), "limit": limit, "n": game_rows, "last": numbers[-1]})
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
    rule = plan.list_rule(len(entries))
    deals = dealing.deals(entries, limit, rule=rule, games=_entered_rows(rows, numbers) if rule else None)
    last_game = None
    game_index = penalty_index = 0
    for row_index, row in enumerate(rows, start=1):
        is_penalty = isinstance(row, dict) and "penalty" in row
        if is_penalty:
            detail = details[penalty_index] if details else {}
            penalty_index += 1
            row_where = where + ", " + _("Zeile %(row)s (Strafe)") % {"row": row_index}
            _check_penalty(c, row_where, row, detail, last_game, table, rules, limit, deals)
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
        _dealer, out, expected = deals[number - 1].as_tuple()
        if set(game.players) != set(expected):
            text = _("in Spiel %(number)s spielen %(expected)s (%(out)s gibt und setzt aus), nicht %(got)s") \
                if out else _("in Spiel %(number)s spielen %(expected)s, nicht %(got)s")
            c.add(row_where, "players: " + text % {"number": number, "expected": ", ".join(expected), "out": out,
                                                   "got": ", ".join(game.players)})
            continue
        table.games.append((number, game))
    entered = {number: dealing.entered(game.type, game.re, game.pflichtsolo) for number, game in table.games}
    for number, text in app_words.list_problems(entries, entered, rule=rule, name=str):
        c.add(where + ", " + _("Spiel %(number)s") % {"number": number}, "pflichtsolo: " + text)


def _entered_rows(rows: list, numbers: list[int]) -> dict[int, dealing.Entered]:
    """What dealing needs of a file's game rows, before the engine has checked them (a list's deal
    follows its Pflichtsoli); a row of the wrong shape counts as a game that passes the deal on."""
    entered = {}
    game_rows = [row for row in rows if not (isinstance(row, dict) and "penalty" in row)]
    for number, row in zip(numbers, game_rows, strict=True):
        if not isinstance(row, dict):
            continue
        re = row.get("re")
        mark = row.get("pflichtsolo")
        entered[number] = dealing.entered(row.get("type") if isinstance(row.get("type"), str) else None,
                                          re if isinstance(re, list) and all(isinstance(p, str) for p in re) else [],
                                          mark if isinstance(mark, bool) else None)
    return entered


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


def _check_penalty(c: _Checker, where: str, row: dict, detail, last_game: int | None, table: PlannedTable,
                   rules: scoring.Rules, limit: int, deals: list[dealing.Deal]):
    if not isinstance(detail, dict):
        c.engine(where, "penalty_details", "not_object")
        return
    c.unknown(where, detail, PENALTY_DETAIL_KEYS)
    game_number = detail.get("game", last_game)
    if game_number is not None and not _is_int(game_number, high=limit):
        c.add(where, "penalty_details.game: " + _("muss eine Spielnummer von 1 bis %(limit)s (oder null) sein, nicht "
                                                  "%(value)s") % {"limit": limit, "value": _shown(game_number)})
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
        _dealer, out, expected = deals[game_number - 1].as_tuple()
        if set(penalty.players) != set(expected):
            c.add(where, "players: " + _("in Spiel %(number)s spielen %(expected)s (%(out)s gibt und setzt aus), "
                                         "nicht %(got)s")
                  % {"number": game_number, "expected": ", ".join(expected), "out": out,
                     "got": ", ".join(penalty.players)})
            return
    if note is not None:
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
        if name not in table.players:
            c.add(where, "totals: " + _("%(name)s sitzt nicht an diesem Tisch") % {"name": _shown(name)})
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
    """The change log's records (optional): written back as they are, so only their form is checked."""
    from ..log.audit import ACTIONS

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
        record = {"kind": item.get("kind"), "type": item.get("type"), "action": item.get("action", ""),
                  "user": c.text(where, item, "user", max_length=150) or "",
                  "device": c.text(where, item, "device", max_length=64) or "",
                  "round": c.number(where, item, "round"), "table": c.number(where, item, "table"),
                  "number": c.number(where, item, "number"), "id": c.number(where, item, "id", high=2**62),
                  "detail": item.get("detail", {})}
        try:
            at = datetime.datetime.fromisoformat(item.get("at"))  # type: ignore[arg-type]
            record["at"] = at if timezone.is_aware(at) else timezone.make_aware(at)
        except (TypeError, ValueError):
            c.add(where, "at: " + _("muss Datum und Uhrzeit der Form JJJJ-MM-TTThh:mm:ss+00:00 sein"))
            continue
        if record["kind"] not in LOG_KINDS:
            c.engine(where, "kind", "not_one_of", value=record["kind"], allowed=", ".join(LOG_KINDS))
        elif record["type"] not in ("+", "~", "-"):
            c.engine(where, "type", "not_one_of", value=record["type"], allowed="+, ~, -")
        elif record["action"] and record["action"] not in ACTIONS:
            c.engine(where, "action", "not_one_of", value=record["action"], allowed=", ".join(ACTIONS))
        elif not isinstance(record["detail"], dict):
            c.engine(where, "detail", "not_object")
        elif record["kind"] == "game" and record["number"] is None:
            c.engine(where, "number", "required")
        else:
            plan.log.append(record)
