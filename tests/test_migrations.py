import contextlib
import datetime
import os

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


@contextlib.contextmanager
def empty_database():
    """The default connection on a new, empty database of the same server for the block, then back
    on the test database (which the block leaves as it was) and the new one dropped. Migrating an
    empty database forward to a step is about a third of the work of migrating the test database
    back to it and forward again (Django renders the models' state at every step, both ways)."""
    test_name = connection.settings_dict["NAME"]
    name = f"{test_name}_empty" if connection.vendor != "sqlite" else f"{test_name}.empty.sqlite3"
    connection.close()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
            cursor.execute(f'CREATE DATABASE "{name}"')
        connection.close()
    connection.settings_dict["NAME"] = name
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["NAME"] = test_name
        ContentType.objects.clear_cache()
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        else:
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(name + suffix)


def test_no_model_changes_without_migrations(db):
    """Fails when a model was changed without `python manage.py makemigrations`."""
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


OWN_TABLES = ("tournament_", "doko_cache")  # the app's tables and the shared cache's (config/settings.py)


def schema(connection) -> dict:
    """Every table's columns (name, type, null; on PostgreSQL how the values are stored) and its
    constraints and indexes (columns, kind, order; not their names, which differ where a migration
    renamed something), as introspection reads them: the tables of the app and the shared cache's (the
    other apps' are made by their own migrations; Django's auth, for one, keeps `id` of its link tables
    as an integer where a table made from its models has a big integer)."""
    introspection = connection.introspection
    tables = {}
    with connection.cursor() as cursor:
        storage = {}
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT c.relname, a.attname, a.attstorage FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
                "WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attnum > 0 "
                "AND NOT a.attisdropped"
            )
            storage = {(table, column): kind for table, column, kind in cursor.fetchall()}
        for table in introspection.get_table_list(cursor):
            if table.type != "t" or not table.name.startswith(OWN_TABLES):
                continue
            columns = sorted(
                (column.name, str(column.type_code), column.null_ok, storage.get((table.name, column.name)))
                for column in introspection.get_table_description(cursor, table.name)
            )
            constraints = sorted(
                repr((c["columns"], c["primary_key"], c["unique"], c["foreign_key"], c["check"], c["index"],
                      c.get("type"), c.get("orders")))
                for c in introspection.get_constraints(cursor, table.name).values()
            )
            tables[table.name] = {"columns": columns, "constraints": constraints}
    return tables


@pytest.mark.django_db(transaction=True)
def test_the_migrations_keep_the_organisers_and_end_at_the_test_databases_tables():
    """0010: whoever directs a tournament or a series keeps the right to create them (and to restore
    backups); a helper or an account without a role does not get it. 0018: that right becomes being an
    organiser of the one organisation everything moves into. On an empty database migrated to 0009,
    then forward (`empty_database`). Migrated to the end, that database has the same tables, columns,
    constraints and indexes as the test database, which is made from the models with what the
    migrations add beyond them (tests/conftest.py, `django_db_setup`)."""
    with empty_database():
        executor = MigrationExecutor(connection)
        before, after = [("tournament", "0009_draft_settled")], [("tournament", "0010_organiser_permission")]
        executor.migrate(before)
        apps = executor.loader.project_state(before).apps
        User = apps.get_model("auth", "User")
        Tournament, Series = apps.get_model("tournament", "Tournament"), apps.get_model("tournament", "Series")
        director, series_director, helper, nobody = (
            User.objects.create(username=name) for name in ("leitung", "serienleitung", "helfer", "niemand")
        )
        tournament = Tournament.objects.create(name="Herbst", slug="herbst", date=datetime.date(2026, 11, 21))
        tournament.directors.add(director)
        tournament.helpers.add(helper)
        Series.objects.create(name="Serie", slug="serie").directors.add(series_director)
        executor = MigrationExecutor(connection)
        executor.migrate(after)
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        migrated = schema(connection)
        from tournament.models import Organisation, Series, Tournament

        users = {user.username: user for user in get_user_model().objects.all()}
        organisers = {user.username for user in Organisation.objects.get(slug="verein").organisers.all()}
        assert organisers == {"leitung", "serienleitung"}
        assert not any(user.has_perm("tournament.organise") for user in users.values())  # replaced
        assert set(Tournament.objects.values_list("organisation__slug", flat=True)) == {"verein"}
        assert set(Series.objects.values_list("organisation__slug", flat=True)) == {"verein"}
    made = schema(connection)  # the test database again
    assert sorted(migrated) == sorted(made)
    different = [table for table in made if migrated[table] != made[table]]
    assert not different, "\n".join(f"{t}:\n  migrated {migrated[t]}\n  test db  {made[t]}" for t in different)


@pytest.mark.only_database("postgresql")
def test_the_cache_values_are_stored_uncompressed_on_postgresql(db):
    """config 0002: PostgreSQL stores the cache's values as they are (compressing them took about
    half the time of each write: docs/performance.md)."""
    cache = settings.CACHES["default"]
    if cache["BACKEND"] != "tournament.web.database_cache.DatabaseCache":
        pytest.skip("the shared cache is not the database here (DJANGO_REDIS_URL)")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attstorage FROM pg_attribute WHERE attrelid = %s::regclass AND attname = 'value'",
            [cache["LOCATION"]],
        )
        assert cursor.fetchone() == ("e",)
