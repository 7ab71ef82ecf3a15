"""A phone without Wi-Fi, as the table-entry tests need it: `go_offline` tells the page
(navigator.onLine) and makes sure that no entry it sends reaches the server; `go_online` undoes both
and tells the page, as the browser's "online" event does.

Playwright's offline emulation alone let one entry through in CI: the page still believed it was
online when the game was typed or when it was loaded again, and the server stored the entry while
the test took the phone for offline. So the entries are also refused by a route while offline. And
once more a full make test's SQLite pass saw a DraftGame stored while the phone was "offline" (not
reproduced alone, nine runs, with and without load): so the server itself refuses the table links'
POSTs while the test says offline, as a busy server does (429, "try again in a second": the phone
keeps the game and sends it again, design.md's offline rules). The phone's queue is what is tested;
an entry can reach the database only after `go_online`."""

from __future__ import annotations

import contextlib
import re
from unittest import mock

ENTRIES = re.compile(r"/games\.json$")


def _no_connection(route) -> None:
    route.abort("internetdisconnected")


# the live server runs in this process: while offline, its table links answer "too many, again in 1 s"
_server_refuses = mock.patch("tournament.web.rate_limits.table_link_over", return_value=1)


def go_offline(context, page) -> None:
    _server_refuses.start()
    context.route(ENTRIES, _no_connection)
    context.set_offline(True)
    page.wait_for_function("!navigator.onLine")


def go_online(context, page) -> None:
    context.unroute(ENTRIES, _no_connection)
    context.set_offline(False)
    server_online()
    page.evaluate("window.dispatchEvent(new Event('online'))")


def server_online() -> None:
    """The server takes entries again (also after a test that ended offline: tests/e2e/conftest.py)."""
    with contextlib.suppress(RuntimeError):  # not started
        _server_refuses.stop()
