"""The only SQL written out for reads, each with the bound the ORM missed (docs/performance.md,
"Hand-written SQL"). Everything else reads with the ORM; the writes' `executemany` and COPY are in
`services/scores.py` and `services/bulk.py`.

- `counter_by_slug`, `counters`, `player_counters`, `player_counters_by_slug`: the change counters
  (for a player's page also the player's newest rating step, read with the tournament by its slug in
  one query) every poll (and the front door, `web/front.py`) reads first, above every cache layer (an
  unchanged poll is answered 304 from one of them, a visitor's cached page sent after one). Built by
  the ORM (scalar `MAX(id)` subqueries) they took 0.6 and 1.6 ms against 0.03 and 0.05 ms here;
  `scripts/bench.py` measured an unchanged poll at 1.2 against 0.4 ms and a visitor's cached seating at
  1.7 against 0.9 ms (SQLite, 2026-11-28). The bench's 25x bound would hold; the announcement burst
  (p95 <= 250 ms while 200 phones arrive at once) is bound by the CPU and, on PostgreSQL, by the round
  trips of each request.
- `player_entry`, `player_seats`, `player_scores`, `games_sat_out`: a player's record
  (`players.player_record`), read again after every change at the player's own tables. With the
  ORM it took 2.9 against 1.0 ms (one process, alternating), and the player's page after a change at
  their own table, standings cached, is at 14.1-14.9 ms on PostgreSQL with this SQL (`bench.py`, the
  bound 15 ms): about 2 ms more would miss it.

Each names its tables and columns from the models and takes every value as a parameter; `rows`
hands back the values as Django would (each column converted by the model field it was read from:
SQLite gives a JSON field or a date as text, a boolean as 0 or 1). `tests/tournament/selectors/test_written_sql.py`
compares every one with the ORM's reads."""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Sized
from typing import Any, cast

from django.db import connection
from django.db.models import Field, Model

from ..models import DataChange, Entry, Game, Penalty, Player, RatingStep, Round, Score, Seat, Table, Tournament

# the fields of `Game` a player's page shows (`players.GameFacts`, in this order)
GAME_FIELDS = (
    "number",
    "type",
    "solo",
    "pflichtsolo",
    "re",
    "sitting_out_id",
    "re_augen",
    "announce_re",
    "announce_kontra",
    "extras",
    "multiplier",
    "breakdown",
)


def table(model: type[Model]) -> str:
    """The model's table name, quoted for the database in use."""
    return connection.ops.quote_name(model._meta.db_table)


def placeholders(values: Sized) -> str:
    """One `%s` per value, for `IN (...)`: `f"id IN ({placeholders(ids)})"`, with the ids as parameters."""
    return ", ".join(["%s"] * len(values))


def fields(model: type[Model], *names: str) -> list[Field]:
    """The model's fields of these names (a foreign key by its name: the id), for `rows`."""
    return [cast(Field, model._meta.get_field(name)) for name in names]


def rows(sql: str, params: Sequence, fields: Sequence[Field | None]) -> list[tuple]:
    """The rows of `sql`, each column converted as Django converts a value of `fields`' field (None: a
    number the query computes, as the database gives it)."""
    converters: list[list[tuple[Any, Any]]] = []
    for field in fields:
        if field is None:
            converters.append([])
            continue
        column = field.get_col(field.model._meta.db_table)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        converters.append([(converter, column) for converter in found])
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    if not any(converters):
        return [tuple(row) for row in fetched]
    converted = []
    for row in fetched:
        values = list(row)
        for index, chain in enumerate(converters):
            for converter, column in chain:
                values[index] = converter(values[index], column, connection)
        converted.append(tuple(values))
    return converted


# ---- the change counters (every poll) ------------------------------------------------------------


def counter_by_slug(slug: str) -> tuple[int, int, int] | None:
    """(tournament id, change counter: the id of its newest change, 0 before the first, setup counter:
    its newest change that is not one table's sheet) in one query, without loading the tournament.
    None: no tournament of that slug."""
    changes = table(DataChange)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT t.id, (SELECT MAX(d.id) FROM {changes} d WHERE d.tournament_id = t.id), "
            f"(SELECT MAX(d.id) FROM {changes} d WHERE d.tournament_id = t.id AND d.table_id IS NULL) "
            f"FROM {table(Tournament)} t WHERE t.slug = %s",
            [slug],
        )
        row = cursor.fetchone()
    return (row[0], row[1] or 0, row[2] or 0) if row else None


def counters(tournament_id: int) -> tuple[int, int]:
    """The change counter and the setup counter at once: what the front door asks before it sends a
    kept answer again (`web/front.py`), where building the query with the ORM would cost half of what
    the whole answer costs (0.28 ms of CPU a request with it written out)."""
    changes = table(DataChange)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT MAX(id) FROM {changes} WHERE tournament_id = %s), "
            f"(SELECT MAX(id) FROM {changes} WHERE tournament_id = %s AND table_id IS NULL)",
            [tournament_id, tournament_id],
        )
        row = cursor.fetchone()
    return row[0] or 0, row[1] or 0


def player_counters(tournament_id: int, entry_id: int) -> tuple[int, int, int, int]:
    """The change counter, the setup counter (the newest change that is not one table's sheet), the
    newest change of a sheet at a table where the player sits or sat (0: none) and the player's newest
    rating step (0: none; the steps of a table are written anew whenever its games are rated again, so a
    new id means the rating may have moved), at once: what a player's page depends on, which the front
    door asks for before it sends a player's kept page again. One query, along the change log's and the
    rating steps' indexes."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {_player_counter_columns('%s')}", [tournament_id, tournament_id, entry_id, entry_id])
        row = cursor.fetchone()
    return row[0] or 0, row[1] or 0, row[2] or 0, row[3] or 0


def player_counters_by_slug(slug: str, entry_id: int) -> tuple[int, tuple[int, int, int, int]] | None:
    """(tournament id, its `player_counters`) by the tournament's slug, in one query: a player's page
    and its poll read them first (`caching.reads_player_counters`) instead of `counter_by_slug` and then
    `player_counters`. None: no tournament of that slug."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT t.id, {_player_counter_columns('t.id')} FROM {table(Tournament)} t WHERE t.slug = %s",
                       [entry_id, entry_id, slug])
        row = cursor.fetchone()
    return (row[0], (row[1] or 0, row[2] or 0, row[3] or 0, row[4] or 0)) if row else None


def _player_counter_columns(tournament: str) -> str:
    """The four columns of `player_counters`, the tournament's id given as `tournament` (a parameter's
    place or a column); the entry's id is a parameter, twice."""
    changes = table(DataChange)
    return (f"(SELECT MAX(c.id) FROM {changes} c WHERE c.tournament_id = {tournament}), "
            f"(SELECT MAX(c.id) FROM {changes} c WHERE c.tournament_id = {tournament} AND c.table_id IS NULL), "
            f"(SELECT MAX(c.id) FROM {changes} c WHERE c.table_id IN "
            f"(SELECT s.table_id FROM {table(Seat)} s WHERE s.entry_id = %s)), "
            f"(SELECT MAX(r.id) FROM {table(RatingStep)} r WHERE r.entry_id = %s)")


# ---- a player's record (`players.player_record`) -------------------------------------------------


def player_entry(tournament_id: int, entry_id: int) -> tuple | None:
    """(entry id, start number, name, club, publication level) of the tournament's entry; None: none."""
    found = rows(
        f"SELECT e.id, e.start_number, p.name, p.club, p.publication FROM {table(Entry)} e "
        f"JOIN {table(Player)} p ON p.id = e.player_id WHERE e.tournament_id = %s AND e.id = %s",
        [tournament_id, entry_id],
        [*fields(Entry, "id", "start_number"), *fields(Player, "name", "club", "publication")],
    )
    return found[0] if found else None


def player_seats(entry_id: int) -> list[tuple]:
    """Everyone seated at the player's tables, the player too, by round and position: (table id, table
    number, round id, round number, round status, results hidden, position, entry id, name,
    publication level, start number)."""
    seats, entries = table(Seat), table(Entry)
    return rows(
        f"SELECT s.table_id, t.number, s.round_id, r.number, r.status, r.results_hidden, s.position, s.entry_id, "
        f"p.name, p.publication, e.start_number FROM {seats} mine JOIN {seats} s ON s.table_id = mine.table_id "
        f"JOIN {table(Table)} t ON t.id = s.table_id "
        f"JOIN {table(Round)} r ON r.id = s.round_id JOIN {entries} e ON e.id = s.entry_id "
        f"JOIN {table(Player)} p ON p.id = e.player_id WHERE mine.entry_id = %s ORDER BY r.number, s.position",
        [entry_id],
        [
            *fields(Seat, "table"),
            *fields(Table, "number"),
            *fields(Seat, "round"),
            *fields(Round, "number", "status", "results_hidden"),
            *fields(Seat, "position", "entry"),
            *fields(Player, "name", "publication"),
            *fields(Entry, "start_number"),
        ],
    )


def player_scores(entry_id: int, *, include_hidden: bool) -> list[tuple]:
    """The player's `Score` rows with their game's `GAME_FIELDS` and their penalty's game number and
    offender: (id, round id, table id, kind, points, won, game id, penalty id, *game fields, penalty's
    game number, offender id). Without the rounds whose results are hidden unless `include_hidden`."""
    game_fields = fields(Game, *GAME_FIELDS)
    game_columns = ", ".join(f"g.{connection.ops.quote_name(str(field.column))}" for field in game_fields)
    hidden = "" if include_hidden else f" AND s.round_id IN (SELECT id FROM {table(Round)} WHERE results_hidden = %s)"
    return rows(
        f"SELECT s.id, s.round_id, s.table_id, s.kind, s.points, s.won, s.game_id, s.penalty_id, {game_columns}, "
        f"pe.game_number, pe.offender_id FROM {table(Score)} s "
        f"LEFT JOIN {table(Game)} g ON g.id = s.game_id "
        f"LEFT JOIN {table(Penalty)} pe ON pe.id = s.penalty_id WHERE s.entry_id = %s{hidden}",
        [entry_id] if include_hidden else [entry_id, False],
        [
            *fields(Score, "id", "round", "table", "kind", "points", "won", "game", "penalty"),
            *game_fields,
            *fields(Penalty, "game_number", "offender"),
        ],
    )


def games_sat_out(entry_id: int, table_ids: Iterable[int]) -> list[tuple[int, int]]:
    """(table id, game number) of the games the player sat out at these tables (a table of five)."""
    ids = list(table_ids)
    if not ids:
        return []
    return cast(
        list[tuple[int, int]],
        rows(
            f"SELECT table_id, number FROM {table(Game)} "
            f"WHERE sitting_out_id = %s AND table_id IN ({placeholders(ids)})",
            [entry_id, *ids],
            fields(Game, "table", "number"),
        ),
    )
