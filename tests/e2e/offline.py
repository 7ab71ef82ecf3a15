"""A phone without Wi-Fi, as the table-entry tests need it: `go_offline` tells the page
(navigator.onLine) and makes sure that no entry it sends reaches the server; `go_online` undoes both
and tells the page, as the browser's "online" event does.

Playwright's offline emulation alone let one entry through in CI: the page still believed it was
online when the game was typed or when it was loaded again, and the server stored the entry while
the test took the phone for offline. So the entries are also refused by a route while offline."""

from __future__ import annotations

import re

ENTRIES = re.compile(r"/games\.json$")


def _no_connection(route) -> None:
    route.abort("internetdisconnected")


def go_offline(context, page) -> None:
    context.route(ENTRIES, _no_connection)
    context.set_offline(True)
    page.wait_for_function("!navigator.onLine")


def go_online(context, page) -> None:
    context.unroute(ENTRIES, _no_connection)
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
