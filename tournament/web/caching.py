"""Cheap polling: HTTP validators and a shared cache for the pages players keep open on their phones.

Every write to a tournament goes through a service inside `audit.recording(...)`, which appends a
`DataChange` row: the newest row's id is the tournament's **change counter**. One indexed query
reads it, and everything here is keyed by it:

- **ETag.** A polled page's ETag is the counter plus a digest of what else the page depends on
  (the page and its query, the language, what the reader's role may see, the release of the code).
  A poll whose `If-None-Match` still matches is answered `304 Not Modified` before anything is
  read or rendered.
- **Shared cache.** What is expensive to compute (the standings of every round, a rendered page
  fragment) is stored in Django's cache under a key that holds the counter. A write makes a new
  counter, so every key of the tournament changes at once: nothing has to be deleted, no worker can
  serve a page from before the write, and old entries simply expire. The cache is the database
  (`doko_cache`) or Redis (`DJANGO_REDIS_URL`), so it is shared by every worker process and every
  machine (config/settings.py); a process may keep a copy of what it read (`recent`: a key's
  value never changes), never something only it knows.

What the cache holds is shared by everyone with the same view of the tournament, so it never holds
anything personal: the full pages are assembled per request from the cached fragment and the
site's frame (which carries the reader's CSRF token), and only fragments without any secret are
compressed (`compressed`).
"""

from __future__ import annotations

import copy
import re
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Hashable
from functools import wraps
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.middleware.gzip import GZipMiddleware
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.formats import time_format
from django.utils.http import parse_etags
from django.utils.translation import get_language

from ..models import DataChange, Tournament

# the counter reads every page and poll runs, by the tournament's id or slug, for a page or a player's page,
# written out as SQL (the reason and the figures: selectors/written_sql.py)
from ..selectors.written_sql import counter_by_slug as counter_by_slug
from ..selectors.written_sql import counters as counters
from ..selectors.written_sql import player_counters as player_counters
from ..selectors.written_sql import player_counters_by_slug
from . import cache_keys
from .cache_keys import TIMEOUT, digest, release


def change_counter(tournament: Tournament | int) -> int:
    """The tournament's change counter: the id of its newest DataChange (0 before the first), read
    backwards along the (tournament, id) index. One query."""
    tournament_id = tournament.pk if isinstance(tournament, Tournament) else tournament
    newest = (DataChange.objects.filter(tournament_id=tournament_id).order_by("-id")
              .values_list("id", flat=True).first())
    return newest or 0


def setup_counter(tournament: Tournament | int) -> int:
    """The newest change that is not one table's sheet (the seating, the players, the settings, the
    rounds, several tables at once): what a page showing no results depends on. One query, along the
    partial index of those changes."""
    tournament_id = tournament.pk if isinstance(tournament, Tournament) else tournament
    newest = (DataChange.objects.filter(tournament_id=tournament_id, table_id__isnull=True).order_by("-id")
              .values_list("id", flat=True).first())
    return newest or 0


def etag(tournament: Tournament | int, counter: int, page: str, variant: tuple = (), mine: tuple = (),
         version: str | None = None) -> str:
    """The validator of a page: the change counter, and a digest of what else it depends on.

    `version`: what the page's content depends on, when that is narrower than the whole tournament
    (a player's page: their own tables, the setup and their ranks). The tag then ends with a second
    digest made with the version instead of the counter, and a reader whose tag ends with it has the
    page as it is now even though the tournament changed elsewhere (`Poll.not_modified`)."""
    tournament_id = tournament.pk if isinstance(tournament, Tournament) else tournament
    tag = f"{counter}-{digest(release(), page, tournament_id, counter, get_language(), *variant, *mine)}"
    if version is not None:
        tag += f"-{digest(release(), page, tournament_id, 'version', version, get_language(), *variant, *mine)}"
    return f'W/"{tag}"'


def presented_etags(request) -> list[str]:
    """The validators a request brings (If-None-Match), as sent."""
    return parse_etags(request.META.get("HTTP_IF_NONE_MATCH", ""))


def same_counter(presented: str, tag: str) -> bool:
    """`presented` was made for the same change counter, page, language and reader as `tag` (a tag
    without a version part): it is `tag`, or `tag` with a version part after it."""
    return presented == tag or presented.startswith(tag[:-1] + "-")


def same_version(presented: str, tag: str) -> bool:
    """`presented` ends with the version part of `tag` (same page, reader, language and content)."""
    head, _, tail = tag[:-1].rpartition("-")
    return head.count("-") >= 1 and presented.endswith("-" + tail + '"')


def personal_parts(request) -> tuple:
    """What of the reader a page with the site's frame depends on: the user and the CSRF cookie."""
    return (request.user.pk, request.COOKIES.get(settings.CSRF_COOKIE_NAME, ""))


class Validator:
    """One request for a page with an ETag: the 304 when the reader already holds it, and the marks on
    the answer. `personal`: the answer carries the reader's own things (the site's frame), so a message
    waiting to be shown is never answered 304. `Poll` makes the tag of a tournament's page; a page of
    something else makes its own (the association's stored Rangliste: views/rangliste.py)."""

    version: str | None = None  # (Poll: the part of the tag that says what the page shows)

    def __init__(self, request, tag: str, *, personal: bool = False):
        self.request = request
        self.etag = tag
        self.personal = personal

    def not_modified(self):
        """The 304 answer when the reader already has this version, else None."""
        if self.personal and len(messages.get_messages(self.request)):
            return None  # a message waits to be shown (loading does not use it up)
        answer = get_conditional_response(self.request, etag=self.etag)
        if (answer is None and self.version is not None and self.request.method in ("GET", "HEAD")
                and any(same_version(presented, self.etag) for presented in presented_etags(self.request))):
            answer = HttpResponseNotModified()  # the tournament changed, but not what this page shows
        return self.finish(answer) if answer is not None else None

    def finish(self, response):
        """Marks a response of this page with its validator: a browser may keep it, but asks first."""
        response["ETag"] = self.etag
        patch_cache_control(response, private=True, no_cache=True)
        return response


class Poll(Validator):
    """One request for a polled page of a tournament: its change counter and its ETag.

    `variant`: everything besides the tournament's data that the page depends on (which page, its
    query, what the reader's role may see). `personal`: the response also carries the reader's own
    things (the site's frame with their name and CSRF token), so the ETag includes the user and the
    CSRF cookie (the cached fragment inside does not depend on them, see `key`).
    """

    def __init__(self, request, tournament: Tournament, *, page: str, variant: tuple = (), personal: bool = False,
                 counter: int | None = None, version: str | None = None):
        self.counter = request_counter(request, tournament) if counter is None else counter  # (or a narrower one)
        self.version = version
        super().__init__(request, etag(tournament, self.counter, page, variant,
                                       personal_parts(request) if personal else (), version=version),
                         personal=personal)


# ---- the fast answer to an unchanged poll ------------------------------------------------------------

def request_counter_by_slug(request, slug: str) -> tuple[int, int, int] | None:
    """(tournament id, change counter, setup counter) of the tournament by its slug (`counter_by_slug`),
    read once per request: the first reader (a poll's check, `reads_player_counters`, the API) keeps it
    on the request (`request.counter_by_slug`) for the rest (`tournament_by_slug`)."""
    found = getattr(request, "counter_by_slug", None)
    if found is None:
        found = request.counter_by_slug = counter_by_slug(slug)
    return found


def tournament_by_slug(request, slug: str) -> Tournament:
    """The tournament of a public page, and its change and setup counters (`request.change_counter`,
    which `Poll` then uses, and `request.setup_counter`, which a kept frame is keyed by), from one
    query: the tournament's row itself is read once per change of the tournament's setup and kept in
    the process (`recent`). A write of one table's sheet never touches
    the tournament's row, and every other write moves the setup counter (`audit.recording`), so a kept
    row is never stale; a game saved does not make every page read the row again. Each request gets
    its own copy. Http404 for an unknown slug."""
    found = request_counter_by_slug(request, slug)
    if found is None:
        raise Http404
    tournament_id, counter, setup = found
    key = cache_keys.tournament_row(tournament_id, setup)
    kept = recent.get(key)
    if kept is None:
        kept = Tournament.objects.filter(pk=tournament_id).select_related("organisation").first()
        if kept is None:
            raise Http404
        recent.put(key, kept)
    request.change_counter, request.setup_counter = counter, setup
    return copy.copy(kept)


def request_counter(request, tournament: Tournament) -> int:
    """The change counter read with the tournament (`tournament_by_slug`), else read now."""
    counter = getattr(request, "change_counter", None)
    return change_counter(tournament) if counter is None else counter


def request_setup_counter(request, tournament: Tournament) -> int:
    """The setup counter read with the tournament (`tournament_by_slug`), else read now."""
    counter = getattr(request, "setup_counter", None)
    return setup_counter(tournament) if counter is None else counter


def answers_unchanged_polls(describe):
    """Decorator for a polled view, outside its access check: a visitor's request that brings an
    ETag (If-None-Match) is answered 304 from one query -- the tournament's change counter by its
    slug -- before the tournament, the role or anything else is read. `describe(request, *args,
    **kwargs)` gives (page, variant, personal) exactly as the view's `Poll` uses them.

    Only for visitors without a session (no role to look up); everything that could change what a
    visitor may see (a page switched off, a round's results hidden) is a write, so it changes the
    counter and with it the ETag. Everyone else goes on to the view, which checks the same ETag."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            if (request.method in ("GET", "HEAD") and "HTTP_IF_NONE_MATCH" in request.META
                    and settings.SESSION_COOKIE_NAME not in request.COOKIES and "messages" not in request.COOKIES):
                found = request_counter_by_slug(request, slug)
                if found is not None:
                    page, variant, personal = describe(request, *args, **kwargs)
                    tag = etag(found[0], found[1], page, variant, personal_parts(request) if personal else ())
                    presented = next((p for p in presented_etags(request) if same_counter(p, tag)), None)
                    if presented is not None:  # nothing changed since: the reader's tag holds as it is
                        answer = HttpResponseNotModified()
                        answer["ETag"] = presented
                        patch_cache_control(answer, private=True, no_cache=True)
                        return answer
            return view(request, slug, *args, **kwargs)

        return wrapper

    return decorator


def reads_player_counters(view):
    """Decorator for a player's page and its poll, outside `answers_unchanged_polls`: the change counter
    by the slug and the player's counters (`player_counters`) in one query (`player_counters_by_slug`)
    instead of one each; `answers_unchanged_polls`, `tournament_by_slug` and `player_counters_of` take
    them from the request."""

    @wraps(view)
    def wrapper(request, slug, entry_id, *args, **kwargs):
        found = player_counters_by_slug(slug, entry_id)
        if found is not None:
            tournament_id, counters = found
            request.counter_by_slug = (tournament_id, counters[0], counters[1])
            request.player_counters = (tournament_id, entry_id, counters)
        return view(request, slug, entry_id, *args, **kwargs)

    return wrapper


def player_counters_of(request, tournament_id: int, entry_id: int) -> tuple[int, int, int, int]:
    """The player's counters as `reads_player_counters` read them with the tournament, else read now."""
    read = getattr(request, "player_counters", None)
    if read is not None and read[0] == tournament_id and read[1] == entry_id:
        return read[2]
    return player_counters(tournament_id, entry_id)


# ---- the shared cache ---------------------------------------------------------------------------------

_every_recent: list[Recent] = []  # for `forget_kept`


class Recent:
    """The last values a process read from the shared cache under keys whose value never changes
    (they hold the change counter, the language and the release: a write makes new keys), kept in the
    process so that the next of the hundreds of polls after a change neither asks the cache nor
    unpickles the value again. The shared cache stays what everyone agrees on: this only repeats
    what it said. For values that readers only read (never change in place)."""

    def __init__(self, size: int):
        self.size = size
        self.items: OrderedDict[Hashable, Any] = OrderedDict()
        self.lock = threading.Lock()
        _every_recent.append(self)

    def get(self, key: Hashable):
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key: Hashable, value) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


# a few per tournament and view: the ranks, the standings' fragments and whole pages of the newest counters
recent = Recent(64)


def forget_kept() -> None:
    """Forgets what this process keeps (`recent`, `histories.kept` and every other `Recent`), as if it
    were another process."""
    for kept in _every_recent:
        kept.clear()


_computing: dict[str, threading.Lock] = {}
_computing_guard = threading.Lock()


def once(key: str, read, compute):
    """`compute()` for a missing `key`, by one thread of the process at a time: when a change makes
    the key new, the phones polling right after it arrive at once, and the threads that ask for the
    same key while one computes it wait for that one and `read()` its result (None: not there, so
    they compute it) instead of computing it again -- a rush of identical work that used to keep
    both cores busy for nothing."""
    with _computing_guard:
        lock = _computing.setdefault(key, threading.Lock())
    if not lock.acquire(blocking=False):
        with lock:  # another thread computes it: wait, then read what it stored
            value = read()
        if value is not None:
            return value
        lock.acquire()
    try:
        return compute()
    finally:
        lock.release()
        with _computing_guard:
            if _computing.get(key) is lock:
                del _computing[key]


def cached(key: str, compute, timeout: int = TIMEOUT, *, keep: bool | Recent = False):
    """The value stored under `key`, computed (`once`) and stored first when it is not there.
    `keep`: also kept in this process (`recent`, or the `Recent` given), for a value read by every
    poll that only reads it."""
    kept = recent if keep is True else keep or None

    def read():
        value = cache.get(key)
        if value is not None and kept is not None:
            kept.put(key, value)
        return value

    def store():
        value = compute()
        cache.set(key, value, timeout)
        if kept is not None:
            kept.put(key, value)
        return value

    value = kept.get(key) if kept is not None else None
    if value is None:
        value = read()
    return value if value is not None else once(key, read, store)


_gzip = GZipMiddleware(cast(Any, lambda request: None))  # only its process_response is used


def for_everyone(request) -> bool:
    """A visitor whose page is everybody's: reading, not logged in, no session, no message waiting."""
    return (request.method in ("GET", "HEAD") and not request.user.is_authenticated
            and settings.SESSION_COOKIE_NAME not in request.COOKIES and "messages" not in request.COOKIES)


def whole_page(request, key: str, build, *, now_mark: str = "") -> HttpResponse:
    """A visitor's whole page (the site's frame and all) from the shared cache, built by `build()` and
    stored on a miss, compressed once. A visitor's frame holds no secret (the language switch needs no
    CSRF token: config/urls.py), so the page is the same for every visitor of this address; a page
    that used a CSRF token or sets a cookie is never stored. Everyone else: `build()`.

    `now_mark`: a mark in the page that stands for the time it is sent ("Stand: 21:40 Uhr"): replaced
    in every answer, also in the compressed one (the stored parts around it are compressed once)."""
    mark = now_mark.encode()
    if not for_everyone(request):
        response = build()
        if mark and not getattr(response, "streaming", False):
            response.content = response.content.replace(mark, _now_text(), 1)
        return response

    def read():
        return recent.get(key) or cache.get(key)

    def store():
        response = build()
        if (response.status_code != 200 or response.cookies or request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
                or response.has_header("Content-Encoding") or getattr(response, "streaming", False)):
            if mark:
                response.content = response.content.replace(mark, _now_text(), 1)
            return response
        parts = response.content.split(mark, 1) if mark else [response.content]
        stored = {"type": response["Content-Type"], "parts": parts, "deflated": [_deflate(part) for part in parts]}
        cache.set(key, stored, TIMEOUT)
        return stored

    stored = read() or once(key, read, store)
    if isinstance(stored, HttpResponse):
        return stored  # not for everyone after all: not stored
    recent.put(key, stored)
    now = _now_text() if len(stored["parts"]) > 1 else b""
    body = now.join(stored["parts"])
    response = HttpResponse(body, content_type=stored["type"])
    patch_vary_headers(response, ("Accept-Encoding",))
    if _ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")) and len(body) > 200:
        deflated = _deflate(now).join(stored["deflated"]) + zlib.compressobj(6, zlib.DEFLATED, -15).flush()
        response.content = (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + deflated
                            + struct.pack("<II", zlib.crc32(body), len(body) & 0xFFFFFFFF))
        response["Content-Encoding"] = "gzip"
    response["Content-Length"] = str(len(response.content))
    return response


def _deflate(data: bytes) -> bytes:
    """`data` as raw deflate blocks that end on a byte (a full flush, not the last block): such pieces,
    compressed once each, joined and closed by a last empty block, are one valid deflate stream."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(zlib.Z_FULL_FLUSH)


def _now_text() -> bytes:
    return time_format(timezone.localtime(), "TIME_FORMAT").encode()


_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def compressed(request, response):
    """Gzip for a response that holds no secret (a fragment of public data, an export), when the
    client accepts it. Pages with a CSRF token are left alone (BREACH: a secret in a compressed
    response next to text an attacker can choose)."""
    return _gzip.process_response(request, response)
