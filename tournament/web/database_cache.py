"""The shared cache without Redis (a laptop at the venue): Django's database cache, with storing a
value in one statement.

Django's `DatabaseCache.set` counts the whole table, then reads the key and updates or inserts it in
a transaction: on PostgreSQL five round trips to the database, and under load each of them waits
for Python's GIL again (6.0 ms a write at p50 on PostgreSQL while 500 phones arrive; 2.1 ms on
SQLite; docs/performance.md, "The database cache"). Here `set` is one `INSERT ... ON CONFLICT DO
UPDATE`, which SQLite (3.24 and later) and PostgreSQL both have, and the table is counted and culled
as Django does (`MAX_ENTRIES`, `CULL_FREQUENCY`) on every `cull_every`-th write of a process only.
Inside a transaction the statement runs in a savepoint, so that a failed cache write cannot spoil
the caller's transaction; `add`, `touch`, reading and deleting are Django's own.

`incr` is atomic here (Django's reads the value and writes it back, so two requests at once both
count 5 -> 6): the row is locked (`SELECT ... FOR UPDATE` on PostgreSQL; on SQLite the transaction
holds the database's write lock from its start) while the count is read and written back. The rate
limits of the anonymous writes count with it (`web/rate_limits.py`, django-ratelimit)."""

from __future__ import annotations

import base64
import itertools
import pickle
from contextlib import nullcontext
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache as DjangoDatabaseCache
from django.db import DatabaseError, connections, router, transaction


class DatabaseCache(DjangoDatabaseCache):
    cull_every = 50  # writes of a process between two counts of the table (Django: every write)

    def __init__(self, table, params):
        super().__init__(table, params)
        self._writes = itertools.count(1)

    def incr(self, key, delta=1, version=None):
        key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        table, key_column, value_column, expires_column = map(
            connection.ops.quote_name, (self._table, "cache_key", "value", "expires"))
        now = connection.ops.adapt_datetimefield_value(datetime.now(UTC if settings.USE_TZ else None)
                                                        .replace(microsecond=0))
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(f"SELECT {value_column} FROM {table} WHERE {key_column} = %s AND {expires_column} > %s"
                           + lock, [key, now])
            row = cursor.fetchone()
            if row is None:
                raise ValueError(f"Key '{key}' not found")
            value = pickle.loads(base64.b64decode(connection.ops.process_clob(row[0]).encode())) + delta
            encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
            cursor.execute(f"UPDATE {table} SET {value_column} = %s WHERE {key_column} = %s", [encoded, key])
        return value

    def _base_set(self, mode, key, value, timeout=DEFAULT_TIMEOUT):
        if mode != "set" or next(self._writes) % self.cull_every == 0:
            return super()._base_set(mode, key, value, timeout)  # counts, culls when full, then writes
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        timeout = self.get_backend_timeout(timeout)
        if timeout is None:
            expires = datetime.max
        else:
            expires = datetime.fromtimestamp(timeout, tz=UTC if settings.USE_TZ else None)
        expires = connection.ops.adapt_datetimefield_value(expires.replace(microsecond=0))
        encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
        table, key_column, value_column, expires_column = map(
            connection.ops.quote_name, (self._table, "cache_key", "value", "expires"))
        sql = (f"INSERT INTO {table} ({key_column}, {value_column}, {expires_column}) VALUES (%s, %s, %s) "
               f"ON CONFLICT ({key_column}) DO UPDATE SET {value_column} = excluded.{value_column}, "
               f"{expires_column} = excluded.{expires_column}")
        # in the caller's transaction: a savepoint; else one statement, committed by itself
        savepoint = transaction.atomic(using=db) if connection.in_atomic_block else nullcontext()
        try:
            with savepoint, connection.cursor() as cursor:
                cursor.execute(sql, [key, encoded, expires])
        except DatabaseError:
            return False  # as Django's: a cache write may fail quietly
        return True
