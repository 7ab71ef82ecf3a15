"""The stored scores: a cache of the engine's output, rewritten for a whole table whenever one of its
games or penalties changes, and for every table when the ruleset changes (`rebuild_scores`:
`manage.py recompute_scores`). Only what changed is written.

With a table's `Score` rows, `write_scores` writes the numbers the pages read, in the same
transaction: each player's `Tally` at the table (points, games, won, solos, totals only: what the
standings sum) and the table's `games_entered` (what `selectors.missing` compares with the games
expected). Both follow from the rows written (`tallies`, `games_of`), so they cannot drift from them;
every recomputation compares them with the rows and writes again those that differ.

What the engine says comes through the bridge (`tournament/engine.py: score_table`): a table's
games and penalties become an engine sheet with players named by entry id, and its rows become the
games' results and the `Score` rows, in the caller's transaction.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.db.models import Count, Max
from django.utils.translation import gettext as _

import scoring
from scoring.validate import most_points_per_game

from .. import engine
from ..errors import EntryProblems, UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Game, Penalty, Score, Table, Tally, Tournament
from ..models.games import drafts_waiting
from . import bulk, ratings
from .locking import lock_tables, lock_tournament


def games_per_player(tournament: Tournament, table_size: int) -> int:
    """Games each player plays at a table (the dealer of a table of 5 sits out)."""
    games = tournament.games_at_table(table_size)
    return games * 4 // table_size if table_size == 5 else games


def most_total(tournament: Tournament, table_size: int) -> int:
    """The largest final total (either sign) a player can have at a table: every game at the most
    the rules allow, and a penalty in each."""
    rules = tournament.scoring_rules()
    games = games_per_player(tournament, table_size)
    return games * (most_points_per_game(rules) + 3 * rules.penalty_points)


@transaction.atomic
def recompute_table(table: Table, rules: scoring.Rules | None = None, *, known: engine.Known | None = None
                    ) -> scoring.SheetResult | None:
    """Rewrites the table's cached results from its games and penalties (or its entered totals).
    `known`: what the save worked out already (its deals and parsed game), handed on to the engine."""
    rules = rules or table.round.tournament.scoring_rules()
    return recompute_tables([table], rules, known={table.pk: known} if known is not None else None)[table.pk]


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
    cached standings from before the rebuild is served (caching.py). The stored numbers are written
    again where they are not what the scores, games and drafts say: the tallies and games entered
    (`recompute_tables`), and every table's entries waiting. Returns the table count."""
    with transaction.atomic():
        lock_tournament(tournament)
        for round in tournament.rounds.all():
            lock_tables(round)
        with audit.recording("scores_recomputed", by=by, tournament=tournament):
            Table.objects.filter(round__tournament=tournament).update(drafts_waiting=drafts_waiting())
            return recompute_tournament(tournament)


CHUNK = 500  # ids per IN (...): well below SQLite's limit on parameters


def chunks(items: list, size: int = CHUNK):
    for start in range(0, len(items), size):
        yield items[start:start + size]


def recompute_tables(tables: list[Table], rules: scoring.Rules, known: dict[int, engine.Known] | None = None
                     ) -> dict[int, scoring.SheetResult | None]:
    """Rewrites the cached results of several tables at once, exactly as `recompute_table` would for
    each: their games, penalties, stored scores and tallies are read in four queries (per 500
    tables), each table is scored by the engine, and only what changed is written: the games whose
    result differs (one UPDATE statement for all), the Score rows of the tables whose rows differ
    (deleted and inserted in one statement each), and the tallies and games entered of the tables
    whose tallies or count differ from what the rows say (also when the rows are as stored: deleting
    a game or a penalty deletes its Score rows with it). A full recomputation under unchanged rules
    writes nothing. Must run in a transaction (the callers' or recompute_table's). Returns each
    table's result."""
    ids = [table.pk for table in tables]
    games: dict[int, list[Game]] = {i: [] for i in ids}
    penalties: dict[int, list[Penalty]] = {i: [] for i in ids}
    stored: dict[int, list[tuple]] = {i: [] for i in ids}
    stored_tallies: dict[int, list[tuple]] = {i: [] for i in ids}
    for chunk in chunks(ids):
        for game in Game.objects.filter(table_id__in=chunk).order_by("table_id", "number"):
            games[game.table_id].append(game)
        for penalty in Penalty.objects.filter(table_id__in=chunk).order_by("id"):
            penalties[penalty.table_id].append(penalty)
        for row in Score.objects.filter(table_id__in=chunk).values_list(*SCORE_COLUMNS):
            stored[row[0]].append(row)
        for row in Tally.objects.filter(table_id__in=chunk).values_list(*TALLY_COLUMNS):
            stored_tallies[row[0]].append(row)
    results: dict[int, scoring.SheetResult | None] = {}
    changed_games: list[Game] = []
    new_scores: dict[int, list[tuple]] = {}
    recount: dict[int, list[tuple]] = {}
    for table in tables:
        rows, results[table.pk], changed = score_rows(table, games[table.pk], penalties[table.pk], rules,
                                                      known=(known or {}).get(table.pk))
        changed_games.extend(changed)
        rows = with_ids(rows)
        if sorted(rows, key=_row_order) != sorted(stored[table.pk], key=_row_order):
            new_scores[table.pk] = rows
        elif sorted(tallies(rows)) != sorted(stored_tallies[table.pk]) or games_of(rows) != table.games_entered:
            recount[table.pk] = rows
    write_scores(changed_games, new_scores, recount=recount)
    for table in tables:
        written = new_scores.get(table.pk, recount.get(table.pk))
        if written is not None:
            table.games_entered = games_of(written)
    return results


def with_ids(rows: list[tuple]) -> list[tuple]:
    """Score rows with their game's id in place of the game (known once the game is saved)."""
    return [row[:4] + (row[4].pk if row[4] is not None else None,) + row[5:] for row in rows]


# the columns of Score rows as they are compared and written (table first)
SCORE_COLUMNS = ("table_id", "round_id", "entry_id", "kind", "game_id", "penalty_id", "points", "won", "solo", "games")
# the columns of Tally rows as they are compared and written (table first)
TALLY_COLUMNS = ("table_id", "round_id", "entry_id", "points", "games", "won", "solos", "totals_only")


def tallies(rows: list[tuple]) -> list[tuple]:
    """Each player's tally (TALLY_COLUMNS) from a table's Score rows (SCORE_COLUMNS, with ids):
    the points and games summed, the games won and played as the soloist counted, and whether the
    points are entered totals."""
    summed: dict[tuple[int, int], list] = {}
    for table_id, round_id, entry_id, kind, _game, _penalty, points, won, solo, played in rows:
        line = summed.setdefault((table_id, entry_id), [table_id, round_id, entry_id, 0, 0, 0, 0, False])
        line[3] += points
        line[4] += played
        line[5] += bool(won)
        line[6] += bool(solo)
        line[7] = line[7] or kind == Score.Kind.TOTAL
    return [tuple(line) for line in summed.values()]


def games_of(rows: list[tuple]) -> int:
    """The games a table's Score rows stand for: every game entered scores its players, so the
    distinct games of the rows are the games entered (a totals-only table has none)."""
    return len({row[4] for row in rows if row[4] is not None})


def _row_order(row: tuple) -> tuple:
    return tuple("" if value is None else value for value in row)


def score_rows(table: Table, games: list[Game], penalties: list[Penalty], rules: scoring.Rules,
               parsed: dict[int, scoring.Game] | None = None, known: engine.Known | None = None
               ) -> tuple[list[tuple], scoring.SheetResult | None, list[Game]]:
    """A table's Score rows (SCORE_COLUMNS, with the Game itself in place of its id: `with_ids`),
    its sheet's result, and its games whose stored result is not what the engine says (updated in
    memory; a game not saved yet gets its result before it is inserted)."""
    if table.totals_only:
        played = games_per_player(table.round.tournament, len(engine.seat_entries(table)))
        return [(table.pk, table.round_id, int(entry_id), Score.Kind.TOTAL.value, None, None, points, False, False,
                 played) for entry_id, points in (table.entered_totals or {}).items()], None, []
    sheet, result = engine.score_table(table, [(g.number, engine.data_of(g)) for g in games], penalties, rules, parsed,
                                       known=known)
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


def write_scores(changed_games: list[Game], new_scores: dict[int, list[tuple]], *,
                 recount: dict[int, list[tuple]] | None = None) -> None:
    """The changed games' results (one `executemany`: the ORM's bulk_update builds a CASE per row
    and field, which took most of a recomputation's time), and the tables' Score rows replaced (a
    DELETE and multi-row INSERTs, `bulk.insert_rows`), with the numbers the pages read from them:
    each player's `Tally` and the table's `games_entered` (`_write_tallies`). `recount`: tables
    whose Score rows stay as they are, but whose tallies and games entered are written again from
    them. The players' ratings follow the changed tables (`ratings.refresh`, docs/rating.md). Inside
    the caller's recording."""
    audit.require("scores.write_scores")
    _write_tallies({**(recount or {}), **new_scores})
    _write_games(changed_games)
    _write_score_rows(new_scores)
    ratings.refresh([*new_scores, *(recount or {})])


def _write_games(changed_games: list[Game]) -> None:
    audit.require("scores.write_scores")
    if changed_games:
        game_table = connection.ops.quote_name(Game._meta.db_table)
        breakdown = Game._meta.get_field("breakdown")
        with connection.cursor() as cursor:
            cursor.executemany(
                f"UPDATE {game_table} SET winner = %s, value = %s, multiplier = %s, breakdown = %s WHERE id = %s",
                [(g.winner, g.value, g.multiplier, breakdown.get_db_prep_save(g.breakdown, connection), g.pk)
                 for g in changed_games])


def _write_score_rows(new_scores: dict[int, list[tuple]]) -> None:
    if not new_scores:
        return
    for chunk in chunks(list(new_scores)):
        Score.objects.filter(table_id__in=chunk).delete()
    column_of = {field.attname: str(field.column) for field in Score._meta.concrete_fields}
    columns = [column_of[name] for name in SCORE_COLUMNS]
    bulk.insert_rows(Score._meta.db_table, columns, [row for table_rows in new_scores.values() for row in table_rows])


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
    audit.require("scores.change_rules")
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


def _write_tallies(rows_of: dict[int, list[tuple]]) -> None:
    """The tables' tallies replaced (a DELETE and an insert) and their `games_entered` set (one UPDATE
    per number of games), from each table's Score rows (`rows_of`: table id -> its rows, with ids)."""
    audit.require("scores.write_scores")
    if not rows_of:
        return
    ids = list(rows_of)
    for chunk in chunks(ids):
        Tally.objects.filter(table_id__in=chunk).delete()
    column_of = {field.attname: str(field.column) for field in Tally._meta.concrete_fields}
    bulk.insert_rows(Tally._meta.db_table, [column_of[name] for name in TALLY_COLUMNS],
                     [line for table_rows in rows_of.values() for line in tallies(table_rows)])
    by_count: dict[int, list[int]] = {}
    for table_id, table_rows in rows_of.items():
        by_count.setdefault(games_of(table_rows), []).append(table_id)
    for count, tables in by_count.items():
        for chunk in chunks(tables):
            Table.objects.filter(pk__in=chunk).update(games_entered=count)
