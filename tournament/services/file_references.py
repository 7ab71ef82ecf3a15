"""What only a tournament file can get wrong: the references between its parts, table by table
(`check_tables`, called by `file_checks.check_file` for each round). The players of a table are
named in the file's player list and sit at one table of the round, in a round they play
(`Entry.plays_in`); each game row names the four the deal has playing (`dealing`), at most as many
games as the table has; a penalty belongs to a game the table has; totals, "stimmt" and the phones'
entries name players of the table. The games and penalties themselves are the scoring engine's
(`scoring.parse_sheet`), the notes and the phones' keys the models' (`Checker.model`), the largest
total the services' (`scores.most_total`).
"""

from __future__ import annotations

import itertools

from django.utils.translation import gettext as _

import scoring
from scoring import vocabulary
from seating import dealing

from .. import vocabulary as app_words
from ..models import DraftGame, Penalty, Table
from .file_reading import Checker, Plan, PlannedPenalty, PlannedRound, PlannedTable, is_int, shown, table_where
from .scores import most_total

TABLE_KEYS = ("number", "players", "rows", "totals", "game_numbers", "penalty_details", "ended", "signed", "approved",
              "drafts", "link")
DRAFT_KEYS = ("number", "row", "status", "key", "device", "at", "entered_by", "decided_by", "reason", "corrects",
              "penalty")


def check_tables(c: Checker, round_where: str, data: dict, planned: PlannedRound, plan: Plan):
    round = planned.round
    playing = {p.ref: p.entry for p in plan.players}
    seated: dict[str, int] = {}
    numbers = set()
    for index, item in enumerate(c.listed(round_where, data, "tables", required=True) or [], start=1):
        where = table_where(round_where, item.get("number") if isinstance(item, dict) else None, index)
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
                c.add(where, "players: " + _("%(name)s steht nicht in der Spielerliste") % {"name": shown(name)})
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


def _check_ended(c: Checker, where: str, data: dict, table: PlannedTable):
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


def _at_table(c: Checker, where: str, key: str, name, table: PlannedTable) -> bool:
    """Whether `name` (from the rest of the file) is a player of this table."""
    if name in table.players:
        return True
    c.add(where, f"{key}: " + _("%(name)s sitzt nicht an diesem Tisch") % {"name": shown(name)})
    return False


def _check_phones(c: Checker, where: str, data: dict, table: PlannedTable, plan: Plan):
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


def _check_rows(c: Checker, where: str, data: dict, table: PlannedTable, planned: PlannedRound, plan: Plan,
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
    elif (len(numbers) != game_rows or not all(is_int(n) for n in numbers)
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
    rule = plan.tournament.list_rule(len(entries))
    deals = dealing.deals(entries, limit, rule=rule, games=_entered_rows(rows, numbers) if rule else None)
    last_game = None
    games, penalties = iter(numbers), iter(details or [])
    game_label = _("Spiel %(number)s")  # translated once for the table's rows
    at_once = _parsed_at_once(spec, entries, rows)
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
        row_where = where + ", " + game_label % {"number": number}
        if at_once is not None:
            game = at_once[row_index - 1]
        else:
            try:
                game = scoring.parse_sheet({"rules": spec, "players": entries, "rows": [row]}).rows[0]
            except scoring.InvalidInput as error:
                c.problems(row_where, error)
                continue
        if _plays(c, row_where, "players", game.players, deals[number - 1], number):
            table.games.append((number, game))
    entered = {number: dealing.entered(game.type, game.re, game.pflichtsolo) for number, game in table.games}
    for number, text in app_words.list_problems(entries, entered, rule=rule, name=str):
        c.add(where + ", " + game_label % {"number": number}, "pflichtsolo: " + text)


def _parsed_at_once(spec: str | dict, entries: list[str], rows: list) -> dict[int, scoring.Game] | None:
    """The table's game rows parsed as one sheet, by their index in `rows`; None when any of them has a
    problem (then each row is parsed alone, so that each problem is told at its row). One sheet instead
    of one a row: 0.1 s of the 6,000 games of a 1,000-player file."""
    indexes = [index for index, row in enumerate(rows) if isinstance(row, dict) and "penalty" not in row]
    try:
        sheet = scoring.parse_sheet({"rules": spec, "players": entries, "rows": [rows[i] for i in indexes]})
    except scoring.InvalidInput:
        return None
    return dict(zip(indexes, sheet.rows, strict=True))


def _plays(c: Checker, where: str, key: str, players, deal: dealing.Deal, number: int) -> bool:
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


def _check_penalty(c: Checker, where: str, row: dict, detail, last_game: int | None, table: PlannedTable,
                   spec, limit: int, deals: list[dealing.Deal]):
    if not isinstance(detail, dict):
        c.engine(where, "penalty_details", "not_object")
        return
    c.unknown(where, detail, ("game", "note"))
    game_number = detail.get("game", last_game)
    if game_number is not None and not is_int(game_number, high=limit):
        c.add(where, "penalty_details.game: " + _("muss eine Spielnummer von 1 bis %(limit)s (oder null) sein, nicht "
                                                  "%(value)s") % {"limit": limit, "value": shown(game_number)})
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


def _check_totals(c: Checker, where: str, totals, table: PlannedTable, rows: list, most: int):
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
        elif not is_int(points, low=-(2**63), high=2**63):
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
