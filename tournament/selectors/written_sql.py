"""SQL written out, for the one read that every player's page opened after a change runs, where
Django took longer to build the query than the database took to answer it: `players.player_record`
(4.9 -> 2.2 ms, docs/performance.md). Its test compares it with Django's own queries
(tests/tournament/test_written_sql.py). The other reads that were written out here now read numbers
stored by the writes (`Table.games_entered`, `Table.drafts_waiting`, `Tally`) or a plain ORM query.

`rows` hands back the values as Django would: each column converted by the model field it was read
from (SQLite gives a JSON field or a date as text, a boolean as 0 or 1)."""

from __future__ import annotations

from collections.abc import Sequence, Sized
from typing import Any, cast

from django.db import connection
from django.db.models import Field, Model


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
