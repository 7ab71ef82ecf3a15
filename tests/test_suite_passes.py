"""Which tests `make test`'s PostgreSQL pass runs (`--database-tests-only`, tests/conftest.py): those
that use the database, but not the browser tests marked `browser_only` (what the browser does with a
page; the SQLite pass runs them)."""

from dataclasses import dataclass, field

import pytest

from .conftest import uses_database


@dataclass
class Item:
    fixturenames: tuple[str, ...] = ()
    markers: dict[str, object] = field(default_factory=dict)

    def get_closest_marker(self, name):
        return self.markers.get(name)


@pytest.mark.parametrize(
    ("item", "in_the_postgresql_pass"),
    [
        (Item(("db", "django_db_setup")), True),
        (Item(("live_server",)), True),  # a browser test that writes through the pages
        (Item(markers={"django_db": pytest.mark.django_db}), True),
        (Item(markers={"every_database": pytest.mark.every_database}), True),
        (Item(("tmp_path",)), False),  # no database: the same on both
        (Item(("live_server",), {"browser_only": pytest.mark.browser_only}), False),
        (Item(("live_server",), {"browser_only": pytest.mark.browser_only, "django_db": pytest.mark.django_db}), False),
    ],
)
def test_the_postgresql_pass_runs_the_tests_that_use_the_database_but_not_the_browser_only_ones(
    item, in_the_postgresql_pass
):
    assert uses_database(item) is in_the_postgresql_pass


def test_the_browser_only_tests_are_browser_tests(request):
    """`browser_only` marks a browser test (tests/e2e), never one of the others."""
    marked = [item.nodeid for item in request.session.items if item.get_closest_marker("browser_only")]
    assert all(nodeid.startswith("tests/e2e/") for nodeid in marked)
