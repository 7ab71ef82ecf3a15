"""On PostgreSQL the cache's values are stored as they are (`STORAGE EXTERNAL`), not compressed.

A cached value is a pickle in base64 (Django's database cache), up to about 90 KB for the standings
of 1,000 players; by default PostgreSQL compresses every such value (pglz) before it stores it, which
took about half the time of writing it. Uncompressed, writing the standings' two values after a
change took 1.5-1.7 + 0.8-1.1 ms instead of 3.2-3.4 + 1.5 ms (docs/performance.md, "The database
cache"); the table takes more room on disk. SQLite does not compress: nothing to do
there, nor with Redis (no table: a table made later by `createcachetable` needs this migration run
again, see 0001). Rows written before keep how they were stored until overwritten."""

from django.core.cache import caches
from django.core.cache.backends.db import BaseDatabaseCache
from django.db import migrations


def cache_tables():
    return [cache._table for cache in (caches[alias] for alias in caches) if isinstance(cache, BaseDatabaseCache)]


def set_storage(kind):
    def run(apps, schema_editor):
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            return
        existing = set(connection.introspection.table_names())
        for table in cache_tables():
            if table in existing:
                schema_editor.execute(f"ALTER TABLE {schema_editor.quote_name(table)} "
                                      f"ALTER COLUMN {schema_editor.quote_name('value')} SET STORAGE {kind}")

    return run


class Migration(migrations.Migration):
    dependencies = [("config", "0001_cache_table")]
    operations = [migrations.RunPython(set_storage("EXTERNAL"), set_storage("EXTENDED"))]
