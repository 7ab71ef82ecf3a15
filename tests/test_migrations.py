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


@pytest.mark.django_db(transaction=True)
def test_accounts_that_direct_something_become_organisers():
    """0010: whoever directs a tournament or a series keeps the right to create them (and to restore
    backups); a helper or an account without a role does not get it. 0018: that right becomes being an
    organiser of the one organisation everything moves into. On an empty database migrated to 0009,
    then forward (`empty_database`)."""
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
        from tournament.models import Organisation, Series, Tournament

        users = {user.username: user for user in get_user_model().objects.all()}
        organisers = {user.username for user in Organisation.objects.get(slug="verein").organisers.all()}
        assert organisers == {"leitung", "serienleitung"}
        assert not any(user.has_perm("tournament.organise") for user in users.values())  # replaced
        assert set(Tournament.objects.values_list("organisation__slug", flat=True)) == {"verein"}
        assert set(Series.objects.values_list("organisation__slug", flat=True)) == {"verein"}


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
