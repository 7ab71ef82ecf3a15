"""tournament/web/database_cache.py: the shared cache without Redis stores a value in one statement,
and counts and culls the table as Django does on every `cull_every`-th write only."""

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tournament.web.database_cache import DatabaseCache


def fresh_cache(**options) -> DatabaseCache:
    """An instance of its own (its own count of writes), with keys apart from the app's."""
    return DatabaseCache("doko_cache", {"KEY_PREFIX": "test-upsert", "TIMEOUT": 60, "OPTIONS": options})


def test_the_shared_cache_without_redis_is_this_one():
    if settings.CACHES["default"]["LOCATION"] == "doko_cache":
        assert settings.CACHES["default"]["BACKEND"] == "tournament.web.database_cache.DatabaseCache"


@pytest.mark.django_db(transaction=True)
def test_storing_a_value_is_one_statement_that_inserts_or_overwrites():
    cache = fresh_cache()
    try:
        with CaptureQueriesContext(connection) as queries:
            cache.set("standings", {"rows": [1, 2]})
        assert len(queries) == 1 and "ON CONFLICT" in queries[0]["sql"]
        assert cache.get("standings") == {"rows": [1, 2]}
        with CaptureQueriesContext(connection) as queries:
            cache.set("standings", {"rows": [3]})
        assert len(queries) == 1
        assert cache.get("standings") == {"rows": [3]}
        cache.set("forever", "kept", None)
        cache.set("gone", "at once", 0)
        assert cache.get("forever") == "kept" and cache.get("gone") is None
        cache.set_many({"a": 1, "b": 2})
        assert cache.get_many(["a", "b"]) == {"a": 1, "b": 2}
        assert cache.add("a", 9) is False and cache.get("a") == 1  # add and touch are Django's own
        assert cache.add("c", 3) is True and cache.touch("c", 120) is True and cache.get("c") == 3
    finally:
        cache.clear()


@pytest.mark.django_db(transaction=True)
def test_every_nth_write_counts_the_table_and_culls_it_as_django_does():
    cache = fresh_cache(MAX_ENTRIES=6, CULL_FREQUENCY=2)
    cache.cull_every = 4
    cache.clear()
    try:
        counted = []
        for number in range(1, 17):
            with CaptureQueriesContext(connection) as queries:
                cache.set(f"key-{number}", number)
            if any("COUNT(*)" in query["sql"] for query in queries):
                counted.append(number)
        assert counted == [4, 8, 12, 16]
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM doko_cache")
            stored = cursor.fetchone()[0]
        # culled at writes 8, 12 and 16 (more than 6 entries): half of them each time, the newest kept
        assert stored < 16 and cache.get("key-16") == 16
    finally:
        cache.clear()


@pytest.mark.django_db
def test_inside_a_transaction_the_write_is_a_savepoint_and_the_transaction_goes_on():
    cache = fresh_cache()
    with transaction.atomic():
        with CaptureQueriesContext(connection) as queries:
            cache.set("page", "<html>")
        assert any("ON CONFLICT" in query["sql"] for query in queries)
        assert cache.get("page") == "<html>"
        cache.set("page", "<html lang=de>")
        assert cache.get("page") == "<html lang=de>"
        with connection.cursor() as cursor:  # the caller's transaction is still usable
            cursor.execute("SELECT 1")
            assert cursor.fetchone()[0] == 1
