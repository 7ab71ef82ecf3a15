"""Game results: entering, previewing, editing, deleting and restoring a table's games, and whole
sheets at once (an import, a generated tournament).

A saved game takes one path: the form's data -> `save_game` (locks the table, checks the version) ->
the deal of the table, computed once (`engine.table_deals`, with the list's Pflichtsoli) -> the bridge
(`engine.parse`: the engine checks the game) -> `scores.recompute_table` with that deal and that parsed
game handed on (the engine scores the sheet) -> the games' results and `Score` rows. Nothing goes back up.

Every function that writes locks the table first (`locking.lock_table`), checks the version the
person's form was loaded from (`errors.Conflict` when someone else changed it since) and records the
change (`audit.recording`). A change that changes nothing (the same game sent twice) is not carried
out again and answers like the first.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

import scoring
from scoring.sheet import SheetGame
from seating import dealing

from .. import engine, vocabulary
from ..errors import Conflict, EntryProblems, UserError, where
from ..log import audit, changelog
from ..log.audit import SYSTEM, Actor
from ..models import Game, Penalty, Seat, Table
from . import bulk
from .editing import bump_version, check_editable, check_entry, check_in_order, check_number, next_game_number
from .locking import lock, lock_table
from .scores import chunks, recompute_table, score_rows, with_ids, write_scores

# ---- lists with Pflichtsoli (dealing.py, docs/pflichtsolo.md) ---------------------------------------

def _list_games(table: Table) -> list[Game]:
    """The table's games with what a list's deal needs (and their stored deal)."""
    return list(table.games.only("id", "number", "type", "re", "pflichtsolo", "dealer_id", "sitting_out_id")
                .order_by("number"))


def check_list(table: Table, entries: list[int], rule: dealing.ListRule | None, games: dict[int, dealing.Entered],
               number: int) -> None:
    """Raises `UserError` when the list's Pflicht- and Lustsoli would be wrong with game `number` as
    in `games` (its problems next to the Pflichtsolo field, a later game's with its number)."""
    problems = vocabulary.list_problems(entries, games, rule=rule, name=_name_of(table), numbers=number)
    if not problems:
        return
    own = [text for n, text in problems if n == number]
    later = [_("Spiel %(number)s: %(problem)s") % {"number": n, "problem": text} for n, text in problems if n != number]
    if later:
        own.append(_("Danach stimmt die Liste nicht mehr: %(problems)s") % {"problems": " ".join(later)})
    field = ("pflichtsolo" if games[number].soloist is not None else "type") if problems[0][0] == number else None
    raise UserError(" ".join(own), field=field)


def _name_of(table: Table):
    """A player's name by entry id, read (one query) only when a message needs one."""
    names: dict[int, str] = {}

    def name(entry_id: int) -> str:
        if not names:
            names.update(Seat.objects.filter(table=table).values_list("entry_id", "entry__player__name"))
        return names.get(entry_id, "?")
    return name


def follow_deal(table: Table, entries: list[int], rule: dealing.ListRule | None, stored: list[Game],
                games: dict[int, dealing.Entered], number: int) -> tuple[list[Game], list[dealing.Deal]]:
    """The table's other games whose dealer changes when game `number` becomes as in `games` (not in
    it: deleted): after a Pflichtsolo the same dealer deals again. At a table of 5 the dealer sits
    out, so such a change would put other players into games already entered: it is refused. With
    the games moved, the deal of every game as it is now (empty without a list)."""
    if rule is None:
        return [], []
    penalties: list[tuple[int, list | None]] = [
        (n, players) for n, players in table.penalties.exclude(game_number=None).values_list("game_number", "players")
        if n is not None]
    count = max([number, *games, *(n for n, _players in penalties)])
    deals = dealing.deals(entries, count, rule=rule, games=games)
    for game_number, players in [(g.number, None) for g in stored if g.number != number] + penalties:
        deal = deals[game_number - 1]
        if len(entries) == 5 and (players is None and deal.sitting_out != _sitting_out(stored, game_number)
                                  or players is not None and set(players) != set(deal.players)):
            raise UserError(_("Das ändert, wer nach Spiel %(number)s gibt: am 5er-Tisch säße dann in Spiel "
                              "%(later)s ein anderer Spieler aus, und das Spiel ist schon eingetragen. Bitte erst "
                              "die Spiele (und Strafen) ab Spiel %(later)s löschen.")
                            % {"number": number, "later": game_number}, field="pflichtsolo")
    moved = []
    for game in stored:
        if game.number != number and game.dealer_id != deals[game.number - 1].dealer:
            game.dealer_id = deals[game.number - 1].dealer
            moved.append(game)
    return moved, deals


def _sitting_out(stored: list[Game], number: int) -> int | None:
    return next(g.sitting_out_id for g in stored if g.number == number)


# ---- games ---------------------------------------------------------------------------------------

def preview_game(*, table: Table, data: dict, number: int, pending: dict[int, dict] | None = None) -> SheetGame:
    """Scores the table as if the game were saved, and returns that game's row. Saves nothing.
    `pending`: games before it not stored yet (entries waiting, a phone's queue), by number; they count
    for the preview (a Nullspiel doubles the next game) where no game of that number is stored."""
    entries = engine.seat_entries(table)
    check_number(table, number, len(entries))
    games = [(g.number, engine.data_of(g)) for g in table.games.exclude(number=number)]
    stored = {n for n, _d in games}
    games += [(n, d) for n, d in sorted((pending or {}).items()) if n < number and n not in stored]
    rule = table.round.tournament.list_rule(len(entries))
    entered = {n: dealing.entered(d["type"], d["re"], d["pflichtsolo"]) for n, d in games} if rule else {}
    data = engine.with_mark(data, dealing.deal_of(entries, number, rule=rule, games=entered), rule)
    entered[number] = dealing.entered(data.get("type"), data.get("re") or [], data.get("pflichtsolo"))
    check_list(table, entries, rule, entered, number)
    games.append((number, data))
    _sheet, result = engine.score_table(table, games, [], table.round.tournament.scoring_rules())
    index = sorted(n for n, _d in games).index(number)
    return result.rows[index]


def save_game(*, table: Table, data: dict, number: int | None = None, version: int | None = None,
              by: Actor = SYSTEM, action: str = "game_saved") -> Game:
    """Enters game `number` (`version` 0: a new game) or replaces it (`version`: the one the form
    was loaded from). Without `number` the next game is entered, and without `version` whatever is
    stored is replaced (for commands and tests; the pages always send both). Recomputes the table.

    Games are entered in order: a new game takes at most the first free number, or one that an entry
    from the table waiting holds (`editing.check_entry`, `editing.check_in_order`: the same checks as
    a phone's entry). Raises `Conflict` when the game was entered, changed or deleted by someone else
    meanwhile; the same game sent twice is saved once."""
    with transaction.atomic():
        table = lock_table(table)
        entries = engine.seat_entries(table)
        if number is None:
            number = next_game_number(table)
        check_entry(table, len(entries), number)
        rule = table.round.tournament.list_rule(len(entries))
        stored = _list_games(table) if rule else []
        games = {g.number: engine.entered_game(g) for g in stored}
        # every game the table can have: a game's deal depends only on the games before it
        deals = dealing.deals(entries, table.round.tournament.games_at_table(len(entries)), rule=rule, games=games)
        deal = deals[number - 1]
        data = engine.with_mark(data, deal, rule)
        dealer, sitting_out, players = deal.as_tuple()
        rules = table.round.tournament.scoring_rules()
        try:
            parsed = engine.parse(data, players, rules)  # the one time the engine reads this game
        except scoring.InvalidInput as error:
            raise EntryProblems(error.problems) from None
        fields = engine.model_fields(engine.from_engine(parsed))
        existing = table.games.filter(number=number).first()
        if existing is not None and all(getattr(existing, name) == value for name, value in fields.items()):
            return existing  # nothing to change: a double submission, or a second person entering the same
        if version is not None:
            _check_game_version(table, number, existing, version)
        check_in_order(table, number, existing)
        games[number] = dealing.entered(fields["type"], fields["re"], fields["pflichtsolo"])
        check_list(table, entries, rule, games, number)
        moved, deals_after = follow_deal(table, entries, rule, stored, games, number)
        known = engine.Known(entries=entries, deals=deals_after or deals, parsed={number: parsed})
        with audit.recording(action, by=by, tournament=table.round.tournament_id, table=table):
            if existing is None:
                game = Game.objects.create(table=table, number=number, dealer_id=dealer, sitting_out_id=sitting_out,
                                           **fields)
            else:
                game = existing
                for name, value in fields.items():
                    setattr(game, name, value)
                game.version += 1
                game.save()
            Game.objects.bulk_update(moved, ["dealer"])
            bump_version(table)
            recompute_table(table, rules, known=known)
        game.refresh_from_db()
        return game


def _check_game_version(table: Table, number: int, existing: Game | None, version: int) -> None:
    if existing is None and version:
        raise Conflict(_("Spiel %(number)s wurde inzwischen gelöscht.") % {"number": number},
                       current=None, version=0, change=changelog.latest_for_game(table, number))
    if existing is not None and existing.version != version:
        if version == 0:
            text = _("Spiel %(number)s wurde inzwischen schon eingetragen.")
        else:
            text = _("Spiel %(number)s wurde inzwischen geändert.")
        raise Conflict(text % {"number": number}, current=existing, version=existing.version,
                       change=changelog.latest_for_game(table, number))


def delete_game(*, table: Table, number: int, version: int | None = None, by: Actor = SYSTEM) -> None:
    """Deletes game `number` as it was loaded (`version`); its number stays free for the next game."""
    with transaction.atomic():
        table = lock_table(table)
        check_editable(table)
        existing = table.games.filter(number=number).first()
        if existing is None:
            raise UserError(_("Spiel %(number)s gibt es an diesem Tisch nicht (mehr).") % {"number": number})
        if version is not None and existing.version != version:
            raise Conflict(_("Spiel %(number)s wurde inzwischen geändert; es ist nicht gelöscht.")
                           % {"number": number}, current=existing, version=existing.version,
                           change=changelog.latest_for_game(table, number))
        moved: list[Game] = []
        if table.round.tournament.pflichtsoli:  # a list: the later games' dealers follow
            entries = engine.seat_entries(table)
            rule = table.round.tournament.list_rule(len(entries))
            stored = _list_games(table)
            moved, _deals = follow_deal(table, entries, rule, stored,
                                      {g.number: engine.entered_game(g) for g in stored if g.number != number}, number)
        with audit.recording("game_deleted", by=by, tournament=table.round.tournament_id, table=table):
            existing.delete()
            Game.objects.bulk_update(moved, ["dealer"])
            bump_version(table)
            recompute_table(table)


def restore_game(*, table: Table, record, by: Actor = SYSTEM) -> Game:
    """Puts back a game as a record of the change log holds it (`record`: a historical `Game`),
    replacing what is there now; logged as a restore. The players are the entries the record holds
    (ids), so that a rename or two swapped names change nothing; only a record read from a tournament
    file, which holds names, is matched by name. A second restore of the same record changes nothing."""
    number = record.number
    row = (record.log_detail or {}).get("row") or {}
    data = recorded_game(table, record, row)
    if data is None:
        names = dict(Seat.objects.filter(table=table).values_list("entry__player__name", "entry_id"))
        try:
            parsed = scoring.parse_sheet({"rules": scoring.rules_spec(table.round.tournament.scoring_rules()),
                                          "players": list(names), "rows": [row]}).rows[0]
        except (scoring.InvalidInput, KeyError):
            raise UserError(_("Diese Fassung von Spiel %(number)s passt nicht mehr zum Tisch (andere Spieler oder "
                              "Regeln) und kann nicht wiederhergestellt werden.") % {"number": number}) from None
        data = engine.from_engine(parsed, key=names.__getitem__)
    return save_game(table=table, number=number, data=data, version=None, by=by, action="game_restored")


def recorded_game(table: Table, record, row: dict) -> dict | None:
    """The game data a historical record holds, players as entry ids, when the record is a snapshot of
    the version its row describes at this table; None for a record read from a tournament file (its
    fields are those of the game as it was imported, or empty)."""
    data = engine.data_of(record)
    if record.table_id != table.pk or not data["re"] or not set(data["re"]) <= set(engine.seat_entries(table)):
        return None
    recorded = engine.to_engine(data, [])
    same = all(recorded.get(key) == row.get(key) for key in recorded if key not in ("players", "re"))
    return data if same and len(recorded["re"]) == len(row.get("re") or []) else None


def enter_sheets(*, sheets: list[tuple[Table, list[tuple[int, dict]], list[dict]]], by: Actor = SYSTEM,
                 rules: scoring.Rules | None = None, history: bool = True) -> int:
    """Fills empty tables of published rounds with whole sheets at once: for each table its games
    (number, data) and penalties ({"offender", "game_number", "players", "note"}). The same checks as
    game by game (the engine, the game numbers, who played which game), one insert for all games
    and one recomputation for all tables. For an imported tournament and a generated one; a file may hold
    gaps where games were deleted. Returns the number of games. `history=False`: no change log
    records for the games and penalties (an import whose file brings its own log, which replaces
    them anyway)."""
    new_games, new_penalties = [], []
    seated: dict[int, list[int]] = {}
    parsed: dict[int, dict[int, scoring.Game]] = {}  # table id -> game number -> the engine's game
    with transaction.atomic():
        # all tables locked, checked and read at once (a few queries per 500 tables, not per table)
        ids = [table.pk for table, _games, _penalties in sheets]
        locked: dict[int, Table] = {}
        filled: set[int] = set()
        for chunk in chunks(sorted(set(ids))):
            for table in lock(Table.objects.filter(pk__in=chunk).select_related("round__tournament", "signed_by")
                              .prefetch_related("seats")):
                locked[table.pk] = table
            filled.update(Game.objects.filter(table_id__in=chunk).values_list("table_id", flat=True).distinct())
            filled.update(Penalty.objects.filter(table_id__in=chunk).values_list("table_id", flat=True).distinct())
        tables = []
        for given, games, penalties in sheets:
            table = locked[given.pk]
            check_editable(table)
            if table.pk in filled or table.totals_only:
                raise UserError(_("Tisch %(table)s hat schon Ergebnisse.") % {"table": table.number})
            rules = rules or table.round.tournament.scoring_rules()
            entries = engine.seat_entries(table)
            seated[table.pk] = entries
            for number, _data in games:
                check_number(table, number, len(entries))
            rule = table.round.tournament.list_rule(len(entries))
            deals = engine.table_deals(table, entries, dict(games))
            marks = {number: engine.with_mark(data, deals[number - 1], rule) for number, data in games}
            if rule is not None or any(data.get("pflichtsolo") is not None for data in marks.values()):
                entered = {number: dealing.entered(data.get("type"), data.get("re") or [], data.get("pflichtsolo"))
                           for number, data in marks.items()}
                problems = vocabulary.list_problems(entries, entered, rule=rule, name=_name_of(table))
                if problems:
                    raise UserError(" ".join(where(table, number) + text for number, text in problems))
            for number, data in games:
                dealer, sitting_out, players = deals[number - 1].as_tuple()
                data = marks[number]
                try:
                    understood = engine.parse(data, players, rules)
                except scoring.InvalidInput as error:
                    raise EntryProblems(error.problems, where=where(table, number)) from None
                parsed.setdefault(table.pk, {})[number] = understood
                new_games.append(Game(table=table, number=number, dealer_id=dealer, sitting_out_id=sitting_out,
                                      **engine.model_fields(engine.from_engine(understood))))
            for penalty in penalties:
                new_penalties.append(Penalty(table=table, **penalty))
            tables.append(table)
        if not tables:
            return 0
        with audit.recording("sheets_entered", by=by, tournament=tables[0].round.tournament_id) as rec:
            for table in tables:
                rec.know_table(table, seated[table.pk])
            # the games go in with their results: scored before they are inserted (the penalties,
            # which the Score rows refer to, first)
            Penalty.objects.bulk_create(new_penalties)
            assert rules is not None
            games_of: dict[int, list[Game]] = {table.pk: [] for table in tables}
            penalties_of: dict[int, list[Penalty]] = {table.pk: [] for table in tables}
            for new_game in sorted(new_games, key=lambda g: g.number):
                games_of[new_game.table_id].append(new_game)
            for new_penalty in new_penalties:
                penalties_of[new_penalty.table_id].append(new_penalty)
            rows = [score_rows(table, games_of[table.pk], penalties_of[table.pk], rules, parsed.get(table.pk))[0]
                    for table in tables]
            bulk.insert_objects(new_games, key=("table_id", "number"))
            write_scores([], {table.pk: with_ids(table_rows) for table, table_rows in zip(tables, rows, strict=True)})
            for objects in (new_games, new_penalties):
                if objects and history:
                    audit.record_bulk(objects)
            for chunk in chunks([table.pk for table in tables]):
                Table.objects.filter(pk__in=chunk).update(version=F("version") + 1)
            for table in tables:
                table.version += 1
    return len(new_games)


