"""Checking a tournament file (docs/tournament-file.md) before anything is written: `check_file`
reads the whole file and either returns the plan of what to write (`importing.import_tournament`
writes it through the services) or raises `ImportProblems` with every problem, each line naming its
round, table and game, in the reader's language.

Each rule has one home, and the check asks it:
- the values of the tournament, its players, rounds, tables, notes, the phones' entries and the log's
  records: the models' own validation, `full_clean` on unsaved instances (lengths, choices, ranges,
  `Tournament.clean`, `Entry.clean`, the unique short name), through `file_reading.Checker.model`;
- games and penalties: the scoring engine (`scoring.parse_sheet`, the game form's messages), who
  plays which game (`dealing`), the largest total (`scores.most_total`), the ruleset
  (`scoring.parse_rules`);
- the file's form first, and alone: its version and its JSON Schema (`file_schema`: types, required and
  unknown keys, the fixed vocabularies);
- only what a file alone can get wrong is checked here: its JSON form (`file_reading`) and the
  references between its parts: players once each in the list, start numbers once each, rounds
  numbered 1, 2, 3 … without gaps and only the last a draft (here), the tables (`file_references`).
"""

from __future__ import annotations

import datetime

from django.utils.translation import gettext as _

import scoring

from .. import names
from ..fileformat import ROUND_DEFAULTS, TOURNAMENT_DEFAULTS
from ..models import Entry, Player, Round, Tournament
from ..ranking import TIE_BREAKERS
from ..validators import SMALL
from .file_reading import (
    MOST_DEPTH,
    Checker,
    ImportProblems,
    Plan,
    PlannedPlayer,
    PlannedRound,
    depth,
    nul_place,
    round_where,
    shown,
)
from .file_references import check_tables
from .file_schema import file_version, form_problems
from .file_teams import check_player, check_teams, check_tournament

__all__ = ["PUBLIC_KEYS", "ImportProblems", "Plan", "check_file"]

PUBLIC_KEYS = ("public_overview", "public_standings", "public_seating", "public_players")
NUMBER_KEYS = ("rounds_planned", "games_at_table_of_4", "games_at_table_of_5", "round_minutes")
TOURNAMENT_KEYS = ("format_version", "name", "slug", "date", "rules", "players", "teams", "rounds", "log", "series",
                   *TOURNAMENT_DEFAULTS)
PLAYER_KEYS = ("name", "club", "start_number", "joined_round", "withdrawn_from_round", "present", "member_number",
               "categories", "publication")
ROUND_KEYS = ("number", "tables", *ROUND_DEFAULTS)
LOG_KEYS = ("at", "kind", "type", "action", "user", "device", "round", "table", "number", "id", "detail")


def check_file(data, *, slug: str | None = None, unique: bool = True) -> Plan:
    """Checks a tournament file completely; returns what to write or raises ImportProblems.
    `unique=False`: the file alone, not whether its short name is free in this database
    (`manage.py check_file`)."""
    c = Checker(unique=unique)
    if not isinstance(data, dict):
        raise ImportProblems([_("Die Datei muss ein JSON-Objekt mit dem Turnier sein.")])
    deepest, nul = depth(data)
    if deepest > MOST_DEPTH:
        raise ImportProblems([_("Die Datei ist zu tief verschachtelt (mehr als %(n)s Ebenen); eine Turnierdatei "
                                "hat etwa zehn.") % {"n": MOST_DEPTH}])
    if nul:
        raise ImportProblems([_("Die Datei enthält ein Nullzeichen (\\u0000) in einem Text, bei %(where)s; so ein "
                                "Zeichen kann nicht gespeichert werden.") % {"where": nul_place(data)}])
    file_version(data)  # a version this software does not know: refused whole
    form = form_problems(data)  # the JSON Schema: the form first, and alone (each problem once)
    if form:
        raise ImportProblems(form)
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
        "counts_for_rangliste": c.flag("", data, "counts_for_rangliste", False),
    }, fallback=TOURNAMENT_DEFAULTS)
    plan.series = _series(c, data)
    check_tournament(c, data, plan)  # its own categories and team options
    _check_players(c, data, plan)
    check_teams(c, data, plan)
    _check_rounds(c, data, plan)
    _check_log(c, data, plan)
    if c.lines:
        raise ImportProblems(c.lines)
    return plan


def _date(c: Checker, data: dict) -> datetime.date | None:
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
                  % {"value": shown(date)})
    return None


def _series(c: Checker, data: dict) -> dict[str, str] | None:
    """The series the tournament was an evening of: {"name": …, "slug": …} (the short name optional);
    an older file has none. Which series it joins is decided on import (`importing.join_series`)."""
    if "series" not in data or data["series"] is None:
        return None
    item = data["series"]
    if not isinstance(item, dict):
        c.add("", "series: " + _("muss ein Objekt mit dem Namen der Serie sein, z. B. {\"name\": \"Monatsturniere\", "
                                 "\"slug\": \"monatsturniere\"}, nicht %(value)s") % {"value": shown(item)})
        return None
    c.unknown("series", item, ("name", "slug"))
    name, slug = c.text("series", item, "name", required=True), c.text("series", item, "slug")
    if not name:
        return None
    return {"name": name, "slug": slug or ""}


def _tie_breakers(c: Checker, data: dict) -> list | None:
    """Some of `ranking.TIE_BREAKERS`, each once (the settings page's choices)."""
    value = data.get("tie_breakers", [])
    if (not isinstance(value, list) or any(not isinstance(t, str) or t not in TIE_BREAKERS for t in value)
            or len(set(value)) != len(value)):
        c.engine("", "tie_breakers", "not_subset", allowed=", ".join(TIE_BREAKERS))
        return None
    return list(value)


def _check_players(c: Checker, data: dict, plan: Plan):
    seen: dict[str, str] = {}  # names.identity -> the player as the list writes them first
    numbers = set()
    member_numbers: dict[str, str] = {}
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
                               "withdrawn_from_round": c.number(where, item, "withdrawn_from_round"),
                               "present": bool(c.flag(where, item, "present", False))})
        member_number, categories = check_player(c, where, item, person, entry, plan, member_numbers)
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
            plan.players.append(PlannedPlayer(entry, member_number=member_number, categories=categories))
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


def _check_rounds(c: Checker, data: dict, plan: Plan):
    numbers = set()
    for index, item in enumerate(c.listed("", data, "rounds", required=True) or [], start=1):
        where = round_where(item.get("number") if isinstance(item, dict) else None, index)
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
        check_tables(c, where, item, round, plan)
        plan.rounds.append(round)
    plan.rounds.sort(key=lambda r: r.round.number or 0)
    if numbers and sorted(numbers) != list(range(1, len(numbers) + 1)):
        c.add("", "rounds: " + _("die Runden müssen 1, 2, 3 … ohne Lücke nummeriert sein, nicht %(numbers)s")
              % {"numbers": ", ".join(map(str, sorted(numbers)))})
    drafts = [r.round.number for r in plan.rounds if r.round.is_draft and r.round.number]
    if drafts and max(numbers, default=0) > min(drafts):
        c.add("", _("Nur die letzte Runde kann ein Entwurf sein, nicht Runde %(round)s.") % {"round": min(drafts)})


def _check_log(c: Checker, data: dict, plan: Plan):
    """The change log's records (optional): written back as they are, so only their form is checked,
    with the historical records' own fields."""
    from ..log.audit import ACTIONS
    from ..log.changelog import history_model
    from .exporting import FILE_KINDS

    records = c.listed("", data, "log")
    if records is None or "log" not in data:
        return
    plan.log = []
    accepted: set[tuple] = set()
    label = _("Änderungsprotokoll, Eintrag %(index)s")  # translated once, not for each of thousands of records
    for index, item in enumerate(records, start=1):
        where = label % {"index": index}
        if not isinstance(item, dict):
            c.engine(where, "log", "not_object")
            continue
        c.unknown(where, item, LOG_KEYS)
        at = c.moment(where, "at", item.get("at"))
        kind, action, detail = item.get("kind"), item.get("action", ""), item.get("detail", {})
        if at is None:
            continue
        if kind not in FILE_KINDS:
            c.engine(where, "kind", "not_one_of", value=kind, allowed=", ".join(FILE_KINDS))
            continue
        record = {"at": at, "kind": kind, "type": c.text(where, item, "type", required=True), "action": action,
                  "user": c.text(where, item, "user"), "device": c.text(where, item, "device"),
                  **{key: c.number(where, item, key, low=1, high=2**62 if key == "id" else SMALL)
                     for key in ("round", "table", "number", "id")}, "detail": detail}
        form = (kind, record["type"], record["user"], record["device"])
        if form not in accepted:  # the records of a log share a few forms: each checked once
            if c.model(where, history_model(kind)(), {"history_type": record["type"], "log_user": record["user"],
                                                       "log_device": record["device"]},
                       keys={"history_type": "type", "log_user": "user", "log_device": "device"}):
                continue
            accepted.add(form)
        if action and action not in ACTIONS:
            c.engine(where, "action", "not_one_of", value=action, allowed=", ".join(ACTIONS))
        elif not isinstance(detail, dict):
            c.engine(where, "detail", "not_object")
        elif kind == "game" and record["number"] is None:
            c.engine(where, "number", "required")
        else:
            plan.log.append({**record, "user": record["user"] or "", "device": record["device"] or ""})
