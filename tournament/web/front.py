"""The front door: a visitor's whole answer sent again before Django runs, while what it was made from
has not moved.

When the director announces a round, 200 phones open the same seating within 100 ms, each with the
page's stylesheet, then their own page (docs/performance.md, "The announcement burst"). Django's own
path for a page it has cached whole costs about 1.5 ms of a core (eleven middlewares, the view, the
queries built by the ORM); gunicorn alone costs about 0.2 ms. So the answers every visitor of an
address gets are kept here, in the WSGI application around Django's (config/wsgi.py):

- A view marks an answer that is the same for every visitor of its address with what it depends on:
  `keep(response, "setup", tournament_id, value=counter)` -- a check of `CHECKS` and the value it gave
  when the answer was made (the change counters the view read anyway). A static file whose name holds
  its content's hash is kept as it is (check "static").
- The next visitor of the same address, with the same headers the answer can vary by (host, scheme,
  languages and encodings accepted), gets the kept answer if the check gives the same value now:
  one query, no middleware, no view. Otherwise Django answers, and its answer is kept in turn.
- An answer that shows the time ("Stand: 21:40", `timed=True`) is kept for the minute it was made in.

The kept answers are values under keys that hold the check's value, in a `caching.Recent` of the
process: the one rule of what a process keeps (the key holds the counter, so what is kept is never
stale). What the front door keeps is exactly what Django would answer under the same counters, since
every cache behind it is keyed by them too.

Never answered here (Django answers them): anything but GET; a request with a cookie (a session, a
language chosen, a message waiting); a Range, If-Modified-Since or If-Match; an If-None-Match that is
not the kept answer's ETag (Django then decides between 304 and the page); an answer with a cookie, an
error, or a header it could vary by that is not in the key.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable

from django.conf import settings
from django.db import DatabaseError
from django.utils.http import parse_etags

from . import caching

# what an answer may depend on, each read in one query (the raw SQL is fenced in `caching`)
CHECKS: dict[str, Callable[..., object]] = {
    "change": lambda tournament_id: caching.counters(tournament_id)[0],
    "setup": lambda tournament_id: caching.counters(tournament_id)[1],
    "player": caching.player_counters,
    "static": lambda: 0,
}

# the request headers a kept answer may vary by: each is part of the key
KEYED_HEADERS = ("HTTP_HOST", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PROTO", "HTTP_ACCEPT_LANGUAGE",
                 "HTTP_ACCEPT_ENCODING")
VARY_ALLOWED = {"accept-encoding", "accept-language", "cookie"}  # cookie: requests with one never come here
REFUSED_HEADERS = ("HTTP_COOKIE", "HTTP_AUTHORIZATION", "HTTP_RANGE", "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_MATCH",
                   "HTTP_IF_UNMODIFIED_SINCE", "HTTP_IF_RANGE")
# the headers a 304 repeats from the answer it stands for (as Django's get_conditional_response does)
NOT_MODIFIED_HEADERS = ("cache-control", "content-location", "etag", "expires", "last-modified", "vary")

kept = caching.Recent(256)  # (family, address, value, minute) -> Answer
_checks: dict[tuple, tuple[str, tuple, bool]] = {}  # address -> (check, its arguments, timed)
_checks_lock = threading.Lock()
MAX_ADDRESSES = 4096  # what `_checks` remembers (a few bytes each); forgotten all at once beyond it
MAX_BODY = 512 * 1024  # a bigger answer is not kept (256 answers of a process: at most 128 MB)


class Answer:
    """A kept answer: what start_response was given, and the body."""

    __slots__ = ("status", "headers", "body", "etag")

    def __init__(self, status: str, headers: list[tuple[str, str]], body: bytes):
        self.status, self.headers, self.body = status, headers, body
        self.etag = next((value for name, value in headers if name.lower() == "etag"), None)


def keep(response, check: str, *args, value, timed: bool = False):
    """Marks `response` as everyone's answer at its address while `CHECKS[check](*args)` gives `value`;
    `timed`: it shows the time, so it holds only in the minute it was made in. Returns `response`."""
    response.front_door = (check, args, value, timed)
    return response


def address(environ) -> tuple | None:
    """The key of what a request asks for, or None when the front door must leave it to Django."""
    if environ.get("REQUEST_METHOD") != "GET" or any(environ.get(name) for name in REFUSED_HEADERS):
        return None
    return (environ.get("SCRIPT_NAME", ""), environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", ""),
            environ.get("wsgi.url_scheme", ""), *(environ.get(name, "") for name in KEYED_HEADERS))


def _minute() -> int:
    return int(time.time() // 60)


def _value_now(check: str, args: tuple):
    try:
        return CHECKS[check](*args)
    except DatabaseError:
        return _Unknown  # (Django answers, and deals with the connection)


class _Unknown:
    """A check that could not be made: equal to nothing kept."""


def _kept_key(check: str, where: tuple, value, timed: bool, minute: int) -> tuple:
    """The key of a kept answer (`cache_keys.FAMILIES`: "front-change", "front-setup", "front-player",
    "front-static"): it holds the value of the check, so an answer is never found after it moved."""
    return (f"front-{check}", where, value, minute if timed else None)


class FrontDoor:
    """The WSGI application around Django's: kept answers first, Django for everything else."""

    def __init__(self, application: Callable):
        self.application = application
        self.static_prefix = (settings.STATIC_URL or "/static/")

    def __call__(self, environ, start_response):
        where = address(environ)
        if where is None:
            return self.application(environ, start_response)
        minute = _minute()
        found = _checks.get(where)
        if found is not None:
            check, args, timed = found
            answer = kept.get(_kept_key(check, where, _value_now(check, args), timed, minute))
            if answer is not None:
                return self.send(answer, environ, start_response)
        return self.through_django(where, minute, environ, start_response)

    def send(self, answer: Answer, environ, start_response) -> Iterable[bytes]:
        presented = environ.get("HTTP_IF_NONE_MATCH")
        if presented is not None:
            if answer.etag is None or answer.etag not in parse_etags(presented):
                return self.application(environ, start_response)  # Django decides (304 or the page)
            start_response("304 Not Modified", [(name, value) for name, value in answer.headers
                                                if name.lower() in NOT_MODIFIED_HEADERS])
            return []
        start_response(answer.status, list(answer.headers))
        return [answer.body]

    def through_django(self, where: tuple, minute: int, environ, start_response) -> Iterable[bytes]:
        given: list = []

        def note(status, headers, exc_info=None):
            given[:] = [status, headers, exc_info]
            return _no_write

        result = self.application(environ, note)
        status, headers, exc_info = given
        mark = getattr(result, "front_door", None)
        if mark is None and self._immutable_static(environ, status, headers):
            mark = ("static", (), 0, False)
        if mark is None or not self._keepable(status, headers) or "HTTP_IF_NONE_MATCH" in environ:
            start_response(status, headers, exc_info)
            return result
        try:
            body = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        check, args, value, timed = mark
        if len(body) <= MAX_BODY:
            with _checks_lock:
                if len(_checks) >= MAX_ADDRESSES:
                    _checks.clear()
                _checks[where] = (check, args, timed)
            kept.put(_kept_key(check, where, value, timed, minute), Answer(status, list(headers), body))
        start_response(status, headers)
        return [body]

    def _immutable_static(self, environ, status: str, headers) -> bool:
        if not environ.get("PATH_INFO", "").startswith(self.static_prefix) or not status.startswith("200"):
            return False
        return any(name.lower() == "cache-control" and "immutable" in value for name, value in headers)

    @staticmethod
    def _keepable(status: str, headers) -> bool:
        if not status.startswith("200"):
            return False
        for name, value in headers:
            lower = name.lower()
            if lower == "set-cookie":
                return False
            if lower == "vary" and not {part.strip().lower() for part in value.split(",")} <= VARY_ALLOWED:
                return False
        return True


def _no_write(data: bytes) -> None:
    raise RuntimeError("the front door does not take the WSGI write() of an answer it may keep")


def forget() -> None:
    """Forgets every kept answer and check (tests; `caching.forget_kept` clears `kept` too)."""
    with _checks_lock:
        _checks.clear()
    kept.clear()
