"""Game results: entering, editing, deleting and restoring games and penalties, totals-only tables,
sign-off, and rebuilding the score cache from the scoring engine.

The engine (`scoring/`) is the only place that counts. A table's games and penalties become an
engine sheet (`engine.to_engine`, players named by entry id), the sheet is scored and the result
stored on the games and as `Score` rows, always for the whole table and in the same transaction.

Every function that writes locks the table first (`locking.lock_table`), checks the version the
person's form was loaded from (`errors.Conflict` when someone else changed it since) and records the
change (`audit.recording`). A change that changes nothing (the same game sent twice) is not carried
out again and answers like the first.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.db.models import Count, F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from scoring.sheet import SheetGame
from scoring.validate import most_points_per_game
from seating import dealing

from .. import audit, changelog, engine, vocabulary
from ..audit import SYSTEM, Actor
from ..errors import Conflict, EntryProblems, UserError
from ..models import DraftGame, Game, Penalty, RequestKey, Round, Score, Seat, Table, Tournament
from . import bulk
from .locking import lock, lock_table, lock_tables, lock_tournament

# ---- who plays which game ------------------------------------------------------------------------


def games_per_player(tournament: Tournament, table_size: int) -> int:
    """Games each player plays at a table (the dealer of a table of 5 sits out)."""
    games = tournament.games_at_table(table_size)
    return games * 4 // table_size if table_size == 5 else games


def seat_entries(table: Table) -> list[int]:
    return [seat.entry_id for seat in sorted(table.seats.all(), key=lambda s: s.position)]


def table_deals(table: Table, entries: list[int], games: dict[int, dict], count: int | None = None
                ) -> list[dealing.Deal]:
    """Who deals games 1 to `count` (default: the highest of `games`) at the table, from its games
    (number -> data): in a list with Pflichtsoli the deal follows their marks."""
    rule = table.round.tournament.list_rule(len(entries))
    entered = {number: dealing.entered(data.get("type"), data.get("re") or [], data.get("pflichtsolo"))
               for number, data in games.items()} if rule else {}
    return dealing.deals(entries, max(games, default=0) if count is None else count, rule=rule, games=entered)


def game_deal(table: Table, entries: list[int], number: int) -> dealing.Deal:
    """Who deals game `number` at the table, and who sits out; in a list with Pflichtsoli read from
    the games entered before it (one query more, only then)."""
    rule = table.round.tournament.list_rule(len(entries))
    return dealing.deal_of(entries, number, rule=rule, games=entered_games(table) if rule else {})


def where(table: Table, number: int | None = None) -> str:
    text = _("Runde %(round)s, Tisch %(table)s") % {"round": table.round.number, "table": table.number}
    if number is not None:
        text += ", " + _("Spiel %(number)s") % {"number": number}
    return text + ": "


def most_total(tournament: Tournament, table_size: int) -> int:
    """The largest final total (either sign) a player can have at a table: every game at the most
    the rules allow, and a penalty in each."""
    rules = tournament.scoring_rules()
    games = games_per_player(tournament, table_size)
    return games * (most_points_per_game(rules) + 3 * rules.penalty_points)


# ---- lists with Pflichtsoli (dealing.py, docs/pflichtsolo.md) ---------------------------------------

def _list_games(table: Table) -> list[Game]:
    """The table's games with what a list's deal needs (and their stored deal)."""
    return list(table.games.only("id", "number", "type", "re", "pflichtsolo", "dealer_id", "sitting_out_id")
                .order_by("number"))


def _entered(game: Game) -> dealing.Entered:
    return dealing.entered(game.type, game.re, game.pflichtsolo)


def entered_games(table: Table) -> dict[int, dealing.Entered]:
    """What a list's deal needs of the table's games, by number (one query)."""
    return {number: dealing.entered(game_type, re, pflichtsolo) for number, game_type, re, pflichtsolo
            in table.games.values_list("number", "type", "re", "pflichtsolo")}


def with_mark(data: dict, deal: dealing.Deal, rule: dealing.ListRule | None) -> dict:
    """The game's data with its solo marked as the list's rule gives it, when the input left it open
    (a solo of a list: the soloist's first is their Pflichtsolo, every further one a Lustsolo)."""
    game = dealing.marked(dealing.entered(data.get("type"), data.get("re") or [], data.get("pflichtsolo")), deal, rule)
    return {**data, "pflichtsolo": game.pflichtsolo}


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
                games: dict[int, dealing.Entered], number: int) -> list[Game]:
    """The table's other games whose dealer changes when game `number` becomes as in `games` (not in
    it: deleted): after a Pflichtsolo the same dealer deals again. At a table of 5 the dealer sits
    out, so such a change would put other players into games already entered: it is refused."""
    if rule is None:
        return []
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
    return moved


def _sitting_out(stored: list[Game], number: int) -> int | None:
    return next(g.sitting_out_id for g in stored if g.number == number)


# ---- the score cache -----------------------------------------------------------------------------

def score_table(table: Table, games: list[tuple[int, dict]], penalties: list[Penalty],
                rules: scoring.Rules, parsed: dict[int, scoring.Game] | None = None,
                entries: list[int] | None = None) -> tuple[scoring.Sheet, scoring.SheetResult]:
    """Scores a table's games (number, data), in number order, and its penalties. `parsed`: games
    the engine has parsed already under these rules, by number (an import checks each game first);
    `entries`: the table's players in seat order, when the caller has read them already."""
    entries = seat_entries(table) if entries is None else entries
    rows: list = []
    deals = table_deals(table, entries, {number: data for number, data in games})
    for number, data in sorted(games, key=lambda item: item[0]):
        if parsed and number in parsed:
            rows.append(parsed[number])
            continue
        players = deals[number - 1].players
        try:
            rows.append(engine.parse(data, players, rules))
        except scoring.InvalidInput as error:
            raise EntryProblems(error.problems, where=where(table, number)) from None
    for penalty in penalties:
        rows.append(scoring.Penalty(offender=str(penalty.offender_id), players=tuple(str(p) for p in penalty.players)))
    sheet = scoring.Sheet(rules=rules, players=tuple(str(e) for e in entries), rows=tuple(rows))
    return sheet, scoring.score_sheet(sheet)


@transaction.atomic
def recompute_table(table: Table, rules: scoring.Rules | None = None) -> scoring.SheetResult | None:
    """Rewrites the table's cached results from its games and penalties (or its entered totals)."""
    rules = rules or table.round.tournament.scoring_rules()
    return recompute_tables([table], rules)[table.pk]


@transaction.atomic
def recompute_tournament(tournament: Tournament) -> int:
    """Rebuilds every table's cache under the tournament's current rules; returns the table count."""
    rules = tournament.scoring_rules()
    tables = list(Table.objects.filter(round__tournament=tournament).select_related("round__tournament")
                  .prefetch_related("seats").order_by("round__number", "number"))
    recompute_tables(tables, rules)
    return len(tables)


def rebuild_scores(*, tournament: Tournament, by: Actor = SYSTEM) -> int:
    """`recompute_tournament` as a change of its own (`manage.py recompute_scores`): in a transaction,
    with the tournament's tables locked, and recorded, so that the change counter moves and no page or
    cached standings from before the rebuild is served (caching.py). Returns the table count."""
    with transaction.atomic():
        lock_tournament(tournament)
        for round in tournament.rounds.all():
            lock_tables(round)
        with audit.recording("scores_recomputed", by=by, tournament=tournament):
            return recompute_tournament(tournament)


CHUNK = 500  # ids per IN (...): well below SQLite's limit on parameters


def _chunks(items: list, size: int = CHUNK):
    for start in range(0, len(items), size):
        yield items[start:start + size]


def recompute_tables(tables: list[Table], rules: scoring.Rules) -> dict[int, scoring.SheetResult | None]:
    """Rewrites the cached results of several tables at once, exactly as `recompute_table` would for
    each: their games, penalties and stored scores are read in three queries (per 500 tables), each
    table is scored by the engine, and only what changed is written: the games whose result differs
    (one UPDATE statement for all), and the Score rows of the tables whose rows differ (deleted and
    inserted in one statement each). A full recomputation under unchanged rules writes nothing.
    Must run in a transaction (the callers' or recompute_table's). Returns each table's result."""
    ids = [table.pk for table in tables]
    games: dict[int, list[Game]] = {i: [] for i in ids}
    penalties: dict[int, list[Penalty]] = {i: [] for i in ids}
    stored: dict[int, list[tuple]] = {i: [] for i in ids}
    for chunk in _chunks(ids):
        for game in Game.objects.filter(table_id__in=chunk).order_by("table_id", "number"):
            games[game.table_id].append(game)
        for penalty in Penalty.objects.filter(table_id__in=chunk).order_by("id"):
            penalties[penalty.table_id].append(penalty)
        for row in Score.objects.filter(table_id__in=chunk).values_list(*SCORE_COLUMNS):
            stored[row[0]].append(row)
    results: dict[int, scoring.SheetResult | None] = {}
    changed_games: list[Game] = []
    new_scores: dict[int, list[tuple]] = {}
    for table in tables:
        rows, results[table.pk], changed = _score_rows(table, games[table.pk], penalties[table.pk], rules)
        changed_games.extend(changed)
        rows = _with_ids(rows)
        if sorted(rows, key=_row_order) != sorted(stored[table.pk], key=_row_order):
            new_scores[table.pk] = rows
    _write(changed_games, new_scores)
    return results


def _with_ids(rows: list[tuple]) -> list[tuple]:
    """Score rows with their game's id in place of the game (known once the game is saved)."""
    return [row[:4] + (row[4].pk if row[4] is not None else None,) + row[5:] for row in rows]


# the columns of Score rows as they are compared and written (table first)
SCORE_COLUMNS = ("table_id", "round_id", "entry_id", "kind", "game_id", "penalty_id", "points", "won", "solo", "games")


def _row_order(row: tuple) -> tuple:
    return tuple("" if value is None else value for value in row)


def _score_rows(table: Table, games: list[Game], penalties: list[Penalty], rules: scoring.Rules,
                parsed: dict[int, scoring.Game] | None = None
                ) -> tuple[list[tuple], scoring.SheetResult | None, list[Game]]:
    """A table's Score rows (SCORE_COLUMNS, with the Game itself in place of its id: `_with_ids`),
    its sheet's result, and its games whose stored result is not what the engine says (updated in
    memory; a game not saved yet gets its result before it is inserted)."""
    if table.totals_only:
        played = games_per_player(table.round.tournament, len(seat_entries(table)))
        return [(table.pk, table.round_id, int(entry_id), Score.Kind.TOTAL.value, None, None, points, False, False,
                 played) for entry_id, points in (table.entered_totals or {}).items()], None, []
    sheet, result = score_table(table, [(g.number, engine.data_of(g)) for g in games], penalties, rules, parsed)
    rows: list[tuple] = []
    changed = []
    # the rows after the games are penalties: zip stops at the last game
    for game, played, scored in zip(games, sheet.rows, result.rows, strict=False):
        fields = {"winner": scored.result.winner or "", "value": scored.result.value,
                  "multiplier": scored.multiplier, "breakdown": engine.stored_breakdown(scored.result.breakdown)}
        if any(getattr(game, name) != value for name, value in fields.items()):
            for name, value in fields.items():
                setattr(game, name, value)
            changed.append(game)
        lone = played.is_solo(rules)
        for key, points in scored.scores.items():
            on_re = key in played.re
            won = scored.result.winner == ("re" if on_re else "kontra")
            rows.append((table.pk, table.round_id, int(key), Score.Kind.GAME.value, game, None, points, won,
                         lone and on_re, 1))
    for penalty, scored in zip(penalties, result.rows[len(games):], strict=True):
        for key, points in scored.scores.items():
            rows.append((table.pk, table.round_id, int(key), Score.Kind.PENALTY.value, None, penalty.pk, points,
                         False, False, 0))
    return rows, result, changed


def _write(changed_games: list[Game], new_scores: dict[int, list[tuple]]) -> None:
    """The changed games' results (one `executemany`: the ORM's bulk_update builds a CASE per row
    and field, which took most of a recomputation's time), and the tables' Score rows replaced (a
    DELETE and multi-row INSERTs, `bulk.insert_rows`)."""
    if changed_games:
        game_table = connection.ops.quote_name(Game._meta.db_table)
        breakdown = Game._meta.get_field("breakdown")
        with connection.cursor() as cursor:
            cursor.executemany(
                f"UPDATE {game_table} SET winner = %s, value = %s, multiplier = %s, breakdown = %s WHERE id = %s",
                [(g.winner, g.value, g.multiplier, breakdown.get_db_prep_save(g.breakdown, connection), g.pk)
                 for g in changed_games])
    if not new_scores:
        return
    for chunk in _chunks(list(new_scores)):
        Score.objects.filter(table_id__in=chunk).delete()
    column_of = {field.attname: str(field.column) for field in Score._meta.concrete_fields}
    columns = [column_of[name] for name in SCORE_COLUMNS]
    bulk.insert_rows(Score._meta.db_table, columns, [row for table_rows in new_scores.values() for row in table_rows])


# ---- what may be changed -------------------------------------------------------------------------

def check_editable(table: Table) -> None:
    if table.round.status == Round.Status.DRAFT:
        raise UserError(_("Runde %(round)s ist noch nicht veröffentlicht: erst die Tische veröffentlichen, "
                          "dann Ergebnisse eintragen.") % {"round": table.round.number})
    if table.round.status == Round.Status.CLOSED:
        raise UserError(_("Runde %(round)s ist abgeschlossen; Ergebnisse können nicht mehr geändert werden.")
                        % {"round": table.round.number})
    if table.is_locked:
        raise UserError(_("Der Spielzettel von Tisch %(table)s ist unterschrieben und gesperrt. "
                          "Die Turnierleitung kann ihn entsperren.") % {"table": table.number})


def next_game_number(table: Table) -> int:
    """The first number without a game and without an entry from the table waiting to be confirmed:
    games are entered in order, a deleted game leaves a gap that is filled first, and a game the
    table entered on a phone keeps its number while it waits."""
    taken = set(table.games.values_list("number", flat=True))
    taken |= set(table.drafts.filter(status=DraftGame.Status.WAITING).values_list("number", flat=True))
    number = 1
    while number in taken:
        number += 1
    return number


def check_number(table: Table, number: int, size: int) -> None:
    limit = table.round.tournament.games_at_table(size)
    if not 1 <= number <= limit:
        raise UserError(_("An einem %(size)ser-Tisch gibt es die Spiele 1 bis %(limit)s; Spiel %(number)s "
                          "gibt es nicht.") % {"size": size, "limit": limit, "number": number})
    if table.ended_after is not None and number > table.ended_after:
        raise UserError(_("Der Tisch wurde nach Spiel %(last)s beendet; Spiel %(number)s kann nicht mehr "
                          "eingetragen werden. Die Turnierleitung kann den Tisch wieder öffnen.")
                        % {"last": table.ended_after, "number": number})


def _bump(table: Table) -> None:
    """Counts up the version of the whole sheet (a counter: no change log record of its own)."""
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.version += 1


TABLE_STATE = ("totals_only", "entered_totals", "signed_at", "signed_by_id", "signed_note", "ended_after",
               "ended_note", "version")


def _sync(given: Table, fresh: Table) -> None:
    """The caller's table object says what the locked, changed one says."""
    for name in TABLE_STATE:
        setattr(given, name, getattr(fresh, name))


def _check_table_version(table: Table, version: int | None) -> None:
    if version is not None and version != table.version:
        raise Conflict(_("Der Spielzettel von Tisch %(table)s wurde inzwischen geändert. Bitte prüfen Sie ihn und "
                         "versuchen Sie es dann noch einmal.") % {"table": table.number},
                       current=table, version=table.version, change=changelog.latest_for_table(table))


# ---- games ---------------------------------------------------------------------------------------

def preview_game(*, table: Table, data: dict, number: int, pending: dict[int, dict] | None = None) -> SheetGame:
    """Scores the table as if the game were saved, and returns that game's row. Saves nothing.
    `pending`: games before it not stored yet (entries waiting, a phone's queue), by number; they count
    for the preview (a Nullspiel doubles the next game) where no game of that number is stored."""
    entries = seat_entries(table)
    check_number(table, number, len(entries))
    games = [(g.number, engine.data_of(g)) for g in table.games.exclude(number=number)]
    stored = {n for n, _d in games}
    games += [(n, d) for n, d in sorted((pending or {}).items()) if n < number and n not in stored]
    rule = table.round.tournament.list_rule(len(entries))
    entered = {n: dealing.entered(d["type"], d["re"], d["pflichtsolo"]) for n, d in games} if rule else {}
    data = with_mark(data, dealing.deal_of(entries, number, rule=rule, games=entered), rule)
    entered[number] = dealing.entered(data.get("type"), data.get("re") or [], data.get("pflichtsolo"))
    check_list(table, entries, rule, entered, number)
    games.append((number, data))
    _sheet, result = score_table(table, games, [], table.round.tournament.scoring_rules())
    index = sorted(n for n, _d in games).index(number)
    return result.rows[index]


def save_game(*, table: Table, data: dict, number: int | None = None, version: int | None = None,
              by: Actor = SYSTEM, action: str = "game_saved") -> Game:
    """Enters game `number` (`version` 0: a new game) or replaces it (`version`: the one the form
    was loaded from). Without `number` the next game is entered, and without `version` whatever is
    stored is replaced (for commands and tests; the pages always send both). Recomputes the table.

    Games are entered in order: a new game takes the first free number. Raises `Conflict` when the
    game was entered, changed or deleted by someone else meanwhile; the same game sent twice is
    saved once."""
    with transaction.atomic():
        table = lock_table(table)
        check_editable(table)
        if table.totals_only:
            raise UserError(_("Für Tisch %(table)s wurden nur Endstände eingetragen.") % {"table": table.number})
        entries = seat_entries(table)
        if number is None:
            number = next_game_number(table)
        check_number(table, number, len(entries))
        rule = table.round.tournament.list_rule(len(entries))
        stored = _list_games(table) if rule else []
        games = {g.number: _entered(g) for g in stored}
        deal = dealing.deal_of(entries, number, rule=rule, games=games)
        data = with_mark(data, deal, rule)
        dealer, sitting_out, players = deal.as_tuple()
        rules = table.round.tournament.scoring_rules()
        try:
            checked = engine.checked(data, players, rules)
        except scoring.InvalidInput as error:
            raise EntryProblems(error.problems) from None
        fields = engine.model_fields(checked)
        existing = table.games.filter(number=number).first()
        if existing is not None and all(getattr(existing, name) == value for name, value in fields.items()):
            return existing  # nothing to change: a double submission, or a second person entering the same
        if version is not None:
            _check_game_version(table, number, existing, version)
        if existing is None and not table.drafts.filter(number=number, status=DraftGame.Status.WAITING).exists():
            first_free = next_game_number(table)
            if number > first_free:
                raise UserError(_("Spiele werden der Reihe nach eingetragen: erst Spiel %(first)s, dann "
                                  "Spiel %(number)s.") % {"first": first_free, "number": number})
        games[number] = dealing.entered(fields["type"], fields["re"], fields["pflichtsolo"])
        check_list(table, entries, rule, games, number)
        moved = follow_deal(table, entries, rule, stored, games, number)
        with audit.recording(action, by=by, tournament=table.round.tournament_id):
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
            _bump(table)
            recompute_table(table, rules)
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
        moved = []
        if table.round.tournament.pflichtsoli:  # a list: the later games' dealers follow
            entries = seat_entries(table)
            rule = table.round.tournament.list_rule(len(entries))
            stored = _list_games(table)
            moved = follow_deal(table, entries, rule, stored,
                                {g.number: _entered(g) for g in stored if g.number != number}, number)
        with audit.recording("game_deleted", by=by, tournament=table.round.tournament_id):
            existing.delete()
            Game.objects.bulk_update(moved, ["dealer"])
            _bump(table)
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
    if record.table_id != table.pk or not data["re"] or not set(data["re"]) <= set(seat_entries(table)):
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
        for chunk in _chunks(sorted(set(ids))):
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
            entries = seat_entries(table)
            seated[table.pk] = entries
            for number, _data in games:
                check_number(table, number, len(entries))
            rule = table.round.tournament.list_rule(len(entries))
            deals = table_deals(table, entries, dict(games))
            marks = {number: with_mark(data, deals[number - 1], rule) for number, data in games}
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
            rows = [_score_rows(table, games_of[table.pk], penalties_of[table.pk], rules, parsed.get(table.pk))[0]
                    for table in tables]
            Game.objects.bulk_create(new_games)
            _write([], {table.pk: _with_ids(table_rows) for table, table_rows in zip(tables, rows, strict=True)})
            for objects in (new_games, new_penalties):
                if objects and history:
                    audit.record_bulk(objects)
            for chunk in _chunks([table.pk for table in tables]):
                Table.objects.filter(pk__in=chunk).update(version=F("version") + 1)
            for table in tables:
                table.version += 1
    return len(new_games)


# ---- penalties -----------------------------------------------------------------------------------

def seen_key(key: str | None) -> dict | None:
    """What an earlier request with this one-time key made, or None. Read under the lock of what the
    request changes, so that the second of two simultaneous requests sees the first one's key."""
    if not key:
        return None
    return RequestKey.objects.filter(key=key).values_list("result", flat=True).first()


def add_penalty(*, table: Table, offender_id: int, game_number: int | None = None, note: str = "",
                by: Actor = SYSTEM, key: str | None = None, action: str = "penalty_added") -> Penalty:
    """A penalty against a player of this table. At a table of 5 it names the game, which says who
    sat out; the offender must have played that game. `key`: the form's one-time key, so that a
    penalty sent twice is entered once."""
    with transaction.atomic():
        table = lock_table(table)
        seen = seen_key(key)
        if seen is not None:
            penalty = Penalty.objects.filter(pk=seen.get("penalty") or 0).first()
            if penalty is not None:
                return penalty
        check_editable(table)
        if table.totals_only:
            raise UserError(_("Für Tisch %(table)s wurden nur Endstände eingetragen.") % {"table": table.number})
        entries = seat_entries(table)
        if offender_id not in entries:
            raise UserError(_("Dieser Spieler sitzt nicht an Tisch %(table)s.") % {"table": table.number},
                            field="offender")
        if game_number is None and len(entries) == 5:
            raise UserError(_("Am 5er-Tisch braucht eine Strafe das Spiel, in dem sie fiel (wer saß aus?)."),
                            field="game_number")
        players = entries
        if game_number is not None:
            check_number(table, game_number, len(entries))
            _dealer, sitting_out, players = game_deal(table, entries, game_number).as_tuple()
            if offender_id == sitting_out:
                raise UserError(_("Der Spieler saß in Spiel %(number)s aus.") % {"number": game_number},
                                field="offender")
        if len(note) > 200:  # Penalty.note
            raise UserError(_("Der Grund ist zu lang (höchstens 200 Zeichen)."), field="note")
        with audit.recording(action, by=by, tournament=table.round.tournament_id):
            penalty = Penalty.objects.create(table=table, offender_id=offender_id, game_number=game_number,
                                             players=list(players), note=note)
            if key:
                RequestKey.objects.create(key=key, tournament_id=table.round.tournament_id,
                                          result={"penalty": penalty.pk})
            _bump(table)
            recompute_table(table)
        return penalty


def delete_penalty(*, table: Table, penalty_id: int, by: Actor = SYSTEM) -> None:
    with transaction.atomic():
        table = lock_table(table)
        check_editable(table)
        penalty = table.penalties.filter(pk=penalty_id).first()
        if penalty is None:
            raise UserError(_("Diese Strafe gibt es nicht (mehr); vielleicht hat sie schon jemand gelöscht."))
        with audit.recording("penalty_deleted", by=by, tournament=table.round.tournament_id):
            penalty.delete()
            _bump(table)
            recompute_table(table)


def restore_penalty(*, table: Table, record, by: Actor = SYSTEM) -> bool:
    """Enters again a deleted penalty as a record of the change log holds it (`record`: a historical
    `Penalty`), against the entry it was against (by id: a rename or two swapped names change
    nothing; a record read from a tournament file holds only the name). Restoring the same record
    again while the penalty it restored still stands, or a record of a penalty that was not deleted,
    changes nothing: returns False then."""
    key = f"restore-penalty-{record.history_id}"
    detail = record.log_detail or {}
    with transaction.atomic():
        table = lock_table(table)
        seen = seen_key(key)
        if seen is not None:
            if table.penalties.filter(pk=seen.get("penalty") or 0).exists():
                return False
            RequestKey.objects.filter(key=key).delete()  # restored, then deleted again: restore anew
        if table.penalties.filter(pk=record.id).exists():  # a record of a penalty that still stands
            return False
        seated = seat_entries(table)
        offender = record.offender_id if record.id > 0 else None  # (a file's record: no id of this database)
        if offender is None:
            names = dict(Seat.objects.filter(table=table).values_list("entry__player__name", "entry_id"))
            offender = names.get(str((detail.get("row") or {}).get("penalty", "")))
        if offender is None or offender not in seated:
            raise UserError(_("Diese Strafe passt nicht mehr zum Tisch und kann nicht wiederhergestellt werden."))
        add_penalty(table=table, offender_id=offender, game_number=detail.get("game"), note=detail.get("note", ""),
                    by=by, key=key, action="penalty_restored")
        return True


# ---- totals only ---------------------------------------------------------------------------------

def enter_totals(*, table: Table, totals: dict[int, int], version: int | None = None, by: Actor = SYSTEM) -> None:
    """Final totals from a paper sheet summed at the table, instead of game by game. They must sum
    to zero and stay within what the rules allow; they are marked as totals in the standings."""
    given = table
    with transaction.atomic():
        table = lock_table(table)
        check_editable(table)
        _check_table_version(table, version)
        entries = seat_entries(table)
        if table.games.exists() or table.penalties.exists():
            raise UserError(_("Tisch %(table)s hat schon einzelne Spiele; Endstände gehen nur bei einem leeren "
                              "Spielzettel.") % {"table": table.number})
        if set(totals) != set(entries):
            raise UserError(_("Für jeden Spieler des Tisches gehört ein Endstand eingetragen."))
        limit = most_total(table.round.tournament, len(entries))
        too_big = [points for points in totals.values() if abs(points) > limit]
        if too_big:
            raise UserError(_("Ein Endstand von %(points)s ist an diesem Tisch nicht möglich: nach den Regeln "
                              "sind es höchstens ±%(limit)s.") % {"points": too_big[0], "limit": limit})
        total = sum(totals.values())
        if total != 0:
            raise UserError(_("Die Endstände ergeben zusammen %(sum)s statt 0.") % {"sum": total})
        if table.totals_only and table.entered_totals == {str(e): totals[e] for e in entries}:
            return
        with audit.recording("totals_entered", by=by, tournament=table.round.tournament_id):
            table.totals_only = True
            table.entered_totals = {str(e): totals[e] for e in entries}
            table.version += 1
            table.save(update_fields=["totals_only", "entered_totals", "version"])
            recompute_table(table)
    _sync(given, table)


def clear_totals(*, table: Table, version: int | None = None, by: Actor = SYSTEM) -> None:
    """Removes entered totals, so that the table can be entered game by game."""
    given = table
    with transaction.atomic():
        table = lock_table(table)
        check_editable(table)
        if not table.totals_only:
            raise UserError(_("Für Tisch %(table)s sind keine Endstände eingetragen; es gibt nichts zu löschen.")
                            % {"table": table.number})
        _check_table_version(table, version)
        with audit.recording("totals_cleared", by=by, tournament=table.round.tournament_id):
            table.totals_only = False
            table.entered_totals = None
            table.version += 1
            table.save(update_fields=["totals_only", "entered_totals", "version"])
            recompute_table(table)
    _sync(given, table)


# ---- sign-off ------------------------------------------------------------------------------------

def sign_table(*, table: Table, version: int | None = None, by: Actor = SYSTEM, note: str = "", at=None) -> None:
    """The paper sheet was signed by the table's players: lock it, as it was loaded (`version`).
    `at`: when it was signed, if not now (an imported tournament)."""
    given = table
    with transaction.atomic():
        table = lock_table(table)
        if table.round.status != Round.Status.PUBLISHED:
            raise UserError(_("Nur Spielzettel einer veröffentlichten, nicht abgeschlossenen Runde können "
                              "unterschrieben werden."))
        if table.is_locked:
            raise UserError(_("Der Spielzettel ist bereits unterschrieben."))
        _check_table_version(table, version)
        if len(note) > 300:  # Table.signed_note
            raise UserError(_("Die Notiz zu den Unterschriften ist zu lang (höchstens 300 Zeichen)."), field="note")
        with audit.recording("table_signed", by=by, tournament=table.round.tournament_id):
            table.signed_at = at or timezone.now()
            table.signed_by = by.user
            table.signed_note = note
            table.version += 1
            table.save(update_fields=["signed_at", "signed_by", "signed_note", "version"])
    _sync(given, table)


def unlock_table(*, table: Table, version: int | None = None, by: Actor = SYSTEM) -> None:
    given = table
    with transaction.atomic():
        table = lock_table(table)
        if table.round.status != Round.Status.PUBLISHED:
            raise UserError(_("Nur Spielzettel einer veröffentlichten, nicht abgeschlossenen Runde können "
                              "entsperrt werden."))
        if not table.is_locked:
            raise UserError(_("Der Spielzettel ist nicht gesperrt."))
        _check_table_version(table, version)
        with audit.recording("table_unlocked", by=by, tournament=table.round.tournament_id):
            table.signed_at = None
            table.signed_by = None
            table.signed_note = ""
            table.version += 1
            table.save(update_fields=["signed_at", "signed_by", "signed_note", "version"])
    _sync(given, table)


# ---- a table that stops early ---------------------------------------------------------------------

def end_table(*, table: Table, note: str, version: int | None = None, by: Actor = SYSTEM) -> None:
    """A player had to leave and the table cannot play on: the games entered so far count, no more
    are expected, and the sheet says why (docs/tournament.md, "Wenn jemand gehen muss")."""
    given = table
    note = note.strip()
    with transaction.atomic():
        table = lock_table(table)
        if table.round.status != Round.Status.PUBLISHED:
            raise UserError(_("Nur ein Tisch einer veröffentlichten, nicht abgeschlossenen Runde kann beendet werden."))
        if table.is_locked:
            raise UserError(_("Der Spielzettel ist unterschrieben und gesperrt; erst entsperren, dann beenden."))
        if table.totals_only:
            raise UserError(_("Der Tisch hat nur Endstände; da gibt es keine fehlenden Spiele."))
        if table.ended_after is not None:
            raise UserError(_("Der Tisch ist schon nach Spiel %(last)s beendet.") % {"last": table.ended_after})
        _check_table_version(table, version)
        if not note:
            raise UserError(_("Bitte den Grund angeben, er steht auf dem Spielzettel (z. B. wer gehen musste)."),
                            field="note")
        if len(note) > 300:  # Table.ended_note
            raise UserError(_("Der Grund ist zu lang (höchstens 300 Zeichen)."), field="note")
        if table.drafts.filter(status=DraftGame.Status.WAITING).exists():
            raise UserError(_("Vom Tisch warten noch Eingaben auf Bestätigung; erst bestätigen oder ablehnen."))
        with audit.recording("table_ended", by=by, tournament=table.round.tournament_id):
            table.ended_after = table.games.count()
            table.ended_note = note
            table.version += 1
            table.save(update_fields=["ended_after", "ended_note", "version"])
    _sync(given, table)


def resume_table(*, table: Table, version: int | None = None, by: Actor = SYSTEM) -> None:
    """The table plays on after all (it was ended by mistake, or the player is back)."""
    given = table
    with transaction.atomic():
        table = lock_table(table)
        if table.round.status != Round.Status.PUBLISHED:
            raise UserError(_("Nur ein Tisch einer veröffentlichten, nicht abgeschlossenen Runde kann wieder "
                              "geöffnet werden."))
        if table.ended_after is None:
            raise UserError(_("Der Tisch ist nicht beendet."))
        if table.is_locked:
            raise UserError(_("Der Spielzettel ist unterschrieben und gesperrt; erst entsperren."))
        _check_table_version(table, version)
        with audit.recording("table_resumed", by=by, tournament=table.round.tournament_id):
            table.ended_after = None
            table.ended_note = ""
            table.version += 1
            table.save(update_fields=["ended_after", "ended_note", "version"])
    _sync(given, table)


# ---- the ruleset ---------------------------------------------------------------------------------

def highest_game_numbers(tournament: Tournament) -> dict[int, int]:
    """The highest game number entered at tables of 4 and of 5 (0 when none)."""
    highest = {4: 0, 5: 0}
    tables = (Table.objects.filter(round__tournament=tournament).annotate(size=Count("seats", distinct=True),
                                                                          top=Max("games__number"))
              .values_list("size", "top"))
    for size, top in tables:
        if size in highest and top:
            highest[size] = max(highest[size], top)
    return highest


def change_rules(*, tournament: Tournament, rules) -> None:
    """Sets the ruleset (a preset id or a preset with changed options) and recomputes every table,
    inside the caller's transaction and recording (`tournaments.update_tournament`). A game the new
    rules cannot score rolls everything back, naming round, table and game."""
    try:
        checked = scoring.parse_rules(rules)
    except scoring.InvalidInput as error:
        raise EntryProblems(error.problems) from None
    except RecursionError:
        raise UserError(_("Die Regeloptionen sind zu tief verschachtelt.")) from None
    lock_tournament(tournament)
    for round in tournament.rounds.all():
        lock_tables(round)
    tournament.rules = scoring.rules_spec(checked)
    recompute_tournament(tournament)
