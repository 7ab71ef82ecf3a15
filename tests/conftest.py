"""Shared test setup.

- Markers (registered in pyproject.toml):
  - `e2e`: set automatically on everything under tests/e2e/; those tests run last (with xdist: on
    every worker, once all the other tests are handed out, since xdist hands tests out in this order).
  - `only_database("postgresql")` / `only_database("sqlite")`: skip the test unless the default
    database is of that vendor. `make test` runs the suite once on each.
  - `every_database`: run in both passes although the test uses no database fixture (its subject
    depends on the database settings), see `--database-tests-only`.
  - `browser_only`: a browser test whose subject is what the browser does with a page (its layout at a
    width, accessibility, the timing of its scripts): it writes nothing through the app that another
    test does not write on both databases, so the PostgreSQL pass leaves it out (below).
- `--database-tests-only` (make test's PostgreSQL pass): deselect the tests that use no database.
  pytest-django refuses a query from a test without the `db` fixtures, so a test that passes without
  them does not depend on the database, and running it once, in the SQLite pass, checks all it checks.
  Likewise the `browser_only` tests: the pages they read are read on PostgreSQL by the view tests,
  the access walk and the browser tests that write.
- Hypothesis: no deadline (timings on a loaded 2-core CI machine are not meaningful); pick another
  registered profile with HYPOTHESIS_PROFILE. CI (`.ci/run`) uses "ci": the same examples every run,
  so that a run on main passes or fails for the code, not for the draw of examples; `make test`
  on a developer's machine keeps drawing new ones.
- Every test starts in the default language: a request in English does not leave English active for
  the next test.
- Every tournament file the suite exports is checked against the exchange format's JSON Schema
  (`pytest_sessionstart` wraps `exporting.export_tournament`): an export that is not a valid file
  fails the test that made it, wherever that is.
- Passwords are hashed with MD5 in the tests (Django's advice for test suites): PBKDF2, which the site
  keeps, costs 0.3-0.6 s a hash on this machine, and most tests make a director with a password.
- WhiteNoise looks each static file up when asked (`WHITENOISE_AUTOREFRESH`) instead of reading all of
  STATIC_ROOT for every new test client: after `make run` that folder holds about 900 files.
"""

import os
import uuid
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

hypothesis_settings.register_profile("doko", deadline=None, print_blob=True)
hypothesis_settings.register_profile("ci", parent=hypothesis_settings.get_profile("doko"), derandomize=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "doko"))

E2E_DIR = Path(__file__).parent / "e2e"


def pytest_addoption(parser):
    parser.addoption(
        "--database-tests-only",
        action="store_true",
        help="run only the tests that use the database (make test's second pass, on PostgreSQL)",
    )


def uses_database(item) -> bool:
    """Whether the test asks for the test database (and is not `browser_only`): a database fixture (db,
    transactional_db, ... all need django_db_setup), `live_server` (pytest-django asks for
    transactional_db on its behalf, when the test runs), the django_db marker, or `every_database`."""
    if item.get_closest_marker("browser_only") is not None:
        return False
    fixtures = getattr(item, "fixturenames", ())
    return (
        "django_db_setup" in fixtures
        or "live_server" in fixtures
        or any(item.get_closest_marker(name) is not None for name in ("django_db", "every_database"))
    )


def pytest_collection_modifyitems(config, items):
    from django.db import connection

    if config.getoption("database_tests_only"):
        kept = [item for item in items if uses_database(item)]
        if len(kept) < len(items):
            config.hook.pytest_deselected(items=[item for item in items if not uses_database(item)])
            items[:] = kept

    vendor = connection.vendor
    for item in items:
        if E2E_DIR in Path(item.path).parents:
            item.add_marker(pytest.mark.e2e)
        for marker in item.iter_markers(name="only_database"):
            wanted = marker.args[0]
            if wanted != vendor:
                item.add_marker(pytest.mark.skip(reason=f"only on {wanted}, this run uses {vendor}"))
    # Fast tests first; the browser tests (which keep Playwright's event loop alive) last.
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)


def pytest_sessionstart(session):
    """Before any test module is imported (they import `export_tournament` by name): every export is
    checked against the schema (schemas/tournament-file.v1.schema.json), as JSON written and read back.
    The validator is compiled once (`file_schema.validator`)."""
    import functools
    import json
    import sys

    from tournament.fileformat import FORMAT_VERSION
    from tournament.services import exporting, file_schema

    original = exporting.export_tournament
    if getattr(original, "checked_against_schema", False):
        return

    @functools.wraps(original)
    def export_tournament(tournament, *, backup=True):
        data = original(tournament, backup=backup)
        problems = file_schema.form_problems(json.loads(json.dumps(data)))
        assert data.get("format_version") == FORMAT_VERSION and not problems, (
            "the export is not a valid tournament file:\n" + "\n".join(problems)
        )
        return data

    export_tournament.checked_against_schema = True  # type: ignore[attr-defined]
    exporting.export_tournament = export_tournament
    for module in list(sys.modules.values()):  # the app's modules that took it by name already
        if getattr(module, "export_tournament", None) is original:
            module.export_tournament = export_tournament


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing():
    from django.conf import settings
    from django.contrib.auth.hashers import get_hashers, get_hashers_by_algorithm

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    get_hashers.cache_clear()
    get_hashers_by_algorithm.cache_clear()


@pytest.fixture(autouse=True, scope="session")
def static_files_looked_up_when_asked():
    """WhiteNoise looks a static file up when it is asked for, instead of reading every file under
    STATIC_ROOT when a test client (or a live server) starts: after `make run` or `make serve`
    (collectstatic, about 900 files) that reading was 9 % of the suite's CPU. The files served are the same."""
    from django.conf import settings

    settings.WHITENOISE_AUTOREFRESH = True


@pytest.fixture(autouse=True, scope="session")
def cache_writes_never_count_the_table():
    """The shared cache counts and culls its table on every 50th write of a process
    (`web/database_cache.py`): in a test run, whichever test that write fell in would run two
    queries more, and the pinned query counts would depend on the order of the tests. Its own test
    sets the count per cache."""
    from tournament.web.database_cache import DatabaseCache

    DatabaseCache.cull_every = 10**12


@pytest.fixture(autouse=True)
def no_values_kept_from_another_test():
    """A test's database is rolled back at its end, and on SQLite the next test's tournament and
    changes get the same ids again: what a process keeps of the shared cache (`caching.recent` and
    `histories.kept`, keyed by those ids) must not outlive the test."""
    from tournament.web import caching

    caching.forget_kept()
    yield
    caching.forget_kept()


@pytest.fixture(autouse=True)
def rate_limits_counted_per_test(settings):
    """The rate limits of the anonymous writes (`web/rate_limits.py`) count in the shared cache: each
    test counts afresh under a prefix of its own, so that the many anonymous POSTs of the access walk
    and the fuzz tests (and of a test before) never meet the limit, whatever the cache (in the database
    the counts are rolled back with the test anyway; in Redis they are not). The limits themselves stay
    as configured: tests/tournament/views/test_public_forms.py shows them answering."""
    settings.RATELIMIT_CACHE_PREFIX = f"rl:{uuid.uuid4().hex}:"


@pytest.fixture(autouse=True)
def default_language():
    yield
    from django.utils import translation

    translation.deactivate()


def pytest_collection_finish(session):
    """What every test of the process keeps (Django, the app, the test modules and items) is moved out of
    the garbage collector's sight once collected (`gc.freeze`, as the server does after its start):
    the collector's full passes no longer walk it after every few thousand new objects."""
    import gc

    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """Each worker's test database is made from the models as they are (Django's `TEST["MIGRATE"] =
    False`: the tables at once, 0.3 s) instead of through all the migrations (7 s of CPU a process:
    Django renders the models' state at every step). That the migrations make the same tables is
    checked by tests/test_migrations.py (`makemigrations --check`, and an empty database migrated
    forward with data); what they add beyond the models on PostgreSQL is added by `django_db_setup`."""
    from django.db import connections

    for connection in connections.all():
        connection.settings_dict.setdefault("TEST", {})["MIGRATE"] = False


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, with what the migrations add beyond the models' tables (both only
    on PostgreSQL): the search's trigram indexes (0030) and the cache's values stored uncompressed (config
    0002). The test database is otherwise the models' (`django_db_modify_db_settings`)."""
    import importlib

    from django.db import connection

    region = importlib.import_module("tournament.migrations.0030_region")
    cache_storage = importlib.import_module("config.migrations.0002_cache_values_uncompressed")
    with django_db_blocker.unblock(), connection.schema_editor() as editor:
        region.trigram_indexes(None, editor)
        cache_storage.set_storage("EXTERNAL")(None, editor)
