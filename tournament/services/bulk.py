"""Inserting many rows fast, from plain tuples: PostgreSQL's COPY, elsewhere multi-row INSERTs.

Django's `bulk_create` builds a model instance per row and prepares every value through the query
compiler, which was most of an import's and a recomputation's time for the tens of thousands of
score rows and change log records of a championship. These helpers take the values as they go to
the database (`Field.get_db_prep_save` where needed) and send them with COPY (PostgreSQL) or in
batches of multi-row INSERTs (SQLite), both far faster than one statement per row.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import DEFAULT_DB_ALIAS, connection, connections, models

from ..log import audit


def insert_rows(table: str, columns: Sequence[str], rows: Iterable[Sequence]) -> int:
    """INSERT INTO `table` (`columns`) the `rows` (values ready for the database), in batches that
    stay within the database's limit on parameters. Returns the number of rows. No signals are sent,
    so it runs inside the caller's recording (`audit.require`)."""
    audit.require("bulk.insert_rows")
    rows = list(rows)
    if not rows:
        return 0
    quote = connection.ops.quote_name
    if connection.vendor == "postgresql":
        # COPY: six times faster than multi-row INSERTs for PostgreSQL (psycopg 3's copy protocol)
        with connection.cursor() as cursor, cursor.cursor.copy(
                f"COPY {quote(table)} ({', '.join(quote(c) for c in columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return len(rows)
    limit = connection.features.max_query_params or 65535
    batch = max(1, min(1000, limit // len(columns)))
    head = f"INSERT INTO {quote(table)} ({', '.join(quote(c) for c in columns)}) VALUES "
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            chunk = rows[start:start + batch]
            cursor.execute(head + ", ".join([one] * len(chunk)), [value for row in chunk for value in row])
    return len(rows)


def insert_dicts(model, rows: list[dict]) -> int:
    """What `bulk_create` does for rows given as {attname: value}, without model instances: every
    field without a value gets its default; the primary key is left to the database; the rows are
    inserted in order (their ids keep that order). A value goes through `Field.get_db_prep_save`
    unless it is one that goes to the database as it is (`as_is`)."""
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    plain = [as_is(field) for field in fields]
    # the connection itself: `connection` finds it anew on each use (asgiref's Local), which was most of
    # the time a JSON value takes to prepare (0.3 s of a 1,000-player import's games on PostgreSQL)
    database = connections[DEFAULT_DB_ALIAS]
    return insert_rows(model._meta.db_table, [field.column for field in fields], (
        tuple(value if value is None and kind is not None or type(value) is kind
              else field.get_db_prep_save(value, database)
              for field, kind in zip(fields, plain, strict=True)
              for value in (row[field.attname] if field.attname in row else field.get_default(),))
        for row in rows))


def insert_objects(objects: list, *, key: tuple[str, str], chunk: int = 500) -> None:
    """`bulk_create` for new objects of one model, through `insert_dicts` (PostgreSQL: COPY; Django's
    `bulk_create` sends a column's values as an array, which psycopg writes out in Python: 0.4 s of a
    1,000-player import for its 6,000 games), each object's id read back by `key`, two fields that are
    unique together (a game: its table and number)."""
    if not objects:
        return
    model = type(objects[0])
    fields = [field.attname for field in model._meta.concrete_fields if not field.primary_key]
    insert_dicts(model, [{name: getattr(obj, name) for name in fields} for obj in objects])
    first, second = key
    ids: dict[tuple, int] = {}
    values = sorted({getattr(obj, first) for obj in objects})
    for start in range(0, len(values), chunk):
        ids.update(((a, b), pk) for pk, a, b in model.objects.filter(**{f"{first}__in": values[start:start + chunk]})
                   .values_list("pk", first, second))
    for obj in objects:
        obj.pk = ids[(getattr(obj, first), getattr(obj, second))]
        obj._state.adding = False
        obj._state.db = connection.alias


# Django's own field classes whose `get_db_prep_save` returns a value of their Python type (and None)
# unchanged on SQLite and in PostgreSQL's COPY: 186,000 calls were a sixth of an import's time
PLAIN_FIELDS: dict[type, type] = {
    models.BooleanField: bool, models.IntegerField: int, models.BigIntegerField: int,
    models.SmallIntegerField: int, models.PositiveIntegerField: int, models.PositiveSmallIntegerField: int,
    models.PositiveBigIntegerField: int, models.FloatField: float, models.CharField: str,
    models.TextField: str, models.SlugField: str,
}


def as_is(field) -> type | None:
    """The Python type whose values (and None) field `field` sends to the database as they are; None:
    every value goes through `get_db_prep_save` (dates, JSON, decimals, a field of our own)."""
    if isinstance(field, models.ForeignKey):
        field = field.target_field
        if type(field) in (models.AutoField, models.BigAutoField):
            return int
    return PLAIN_FIELDS.get(type(field))

