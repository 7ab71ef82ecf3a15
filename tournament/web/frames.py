"""A visitor's page in a frame rendered once: for pages that many visitors open one after another,
each with content of its own (a player's page: when the evening starts, 500 phones open 500
different pages within seconds), and for pages whose content changes with every game saved while
their frame does not (the standings). The site's frame (header, tournament navigation, language switch)
is rendered once per change of the tournament's setup (the setup counter: a game saved at a table
leaves the frame as it was), language and release in each process, with marks where the page's own
parts go, and the marks are filled in for each request (rendering the frame was 4 ms of a player's
first page of 18 ms, and one query; docs/performance.md). What the frame shows is the tournament's
name, date and place, its rounds and whether its registration is open: all of it setup.

Only for a visitor whose page is everybody's (`caching.for_everyone`: no login, no session, no
message waiting) at an address without a query: for them the frame holds nothing personal (no CSRF
token, no account's name), and it depends on the address only through the path, whose own part is
marked as well. Everyone else gets the page rendered as usual (`fill` returns None).
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Callable

from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import mark_safe

from . import caching

# letters and digits only: a mark passes the template's escaping and `urlencode` unchanged; random,
# so that no text a director or player types can be taken for one
_TOKEN = secrets.token_hex(8)


def mark(name: str) -> str:
    return f"dokomark{_TOKEN}{name}"


def fill(request, key: Callable[[], str], template: str, context: dict, *, path_part: str, safe: dict[str, str],
         text: dict[str, str]) -> str | None:
    """The page `template` for a visitor: the frame kept in this process under `key()` (which must
    name what the frame shows: a `cache_keys` key with a counter that moves whenever it may; asked
    only for a page that is everybody's, so that reading its counter costs the others nothing), with `safe`
    (HTML) and `text` (escaped here) put in where the template shows those context values, and
    `path_part` (the page's own part of its path, letters and digits, such as a player's id) where
    the frame shows the address. None when the page is not one for everyone: render it as usual."""
    if not caching.for_everyone(request) or request.META.get("QUERY_STRING") or f"/{path_part}/" not in request.path:
        return None
    kept_under = key()
    frame = caching.recent.get(kept_under)
    if frame is None:
        shown = copy.copy(request)
        before, after = request.path.rsplit(f"/{path_part}/", 1)
        shown.path = f"{before}/{mark('path')}/{after}"
        marks = {name: mark_safe(mark(name)) for name in (*safe, *text)}
        frame = render_to_string(template, {**context, **marks}, request=shown)
        caching.recent.put(kept_under, frame)
    page = frame.replace(mark("path"), path_part)
    for name, value in safe.items():
        page = page.replace(mark(name), value)
    for name, value in text.items():
        page = page.replace(mark(name), escape(value))
    return page


def page(request, key: Callable[[], str], template: str, context: dict, *, path_part: str, safe: dict[str, str],
         text: dict[str, str]) -> str:
    """The page `template` for any reader: filled into its kept frame (`fill`) where it is everybody's,
    else rendered as usual with `safe` (HTML) and `text` in the context; byte for byte the same page."""
    filled = fill(request, key, template, context, path_part=path_part, safe=safe, text=text)
    if filled is not None:
        return filled
    return render_to_string(template, {**context, **{name: mark_safe(value) for name, value in safe.items()},
                                       **text}, request=request)
