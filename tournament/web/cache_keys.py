"""Every key of the cache, in one place: what each family holds, what it depends on, and what moves it.

A key that holds a **counter** never needs deleting: a write that changes what is stored under it
appends a `DataChange` in its own transaction, which moves the counter, so the next reader asks for a
new key and old entries expire (`TIMEOUT`). The counters, read from the change log with indexed queries
(`caching.change_counter`, `setup_counter`; `player_counters` reads a player's four in one):

- the **change counter**: the newest change of the tournament (every write moves it);
- the **setup counter**: the newest change that is not one table's sheet (seating, players, settings,
  rounds, hidden results; a game saved at a table leaves it);
- a player's **own tables**: the newest change of a sheet at a table where the player sits or sat (with
  the player's newest rating step, which moves with games at other tables too: `RatingStep`).

A tournament's changes get their ids in the order they commit (`models.CounterTurn`), so a counter a
reader has seen stays true: nothing below it can still commit.

Every key also holds the release of the code (`release`: a new version never reads an old page) and,
where words are in it, the language. Where they live:

- the **shared cache** (`django.core.cache`: the database table `doko_cache` or Redis), shared by every
  worker and machine: every family below except those marked "in-process only" (`tournament`, the two
  frames, `current-seats` and the front door's `front-*`);
- **one in-process layer**, `caching.Recent` (three instances: `caching.recent`, `histories.kept` and
  the front door's `front.kept`), which keeps values under keys that hold a counter; the rule that
  keeps it right: it only keeps values under keys whose value never changes. The front door
  (`front.py`, in front of Django) keeps a visitor's whole answers there, each under the value of the
  counter its view named.

`FAMILIES` lists them for the docs and for `tests/tournament/web/test_cache_keys.py`, which walks each
family through a write of every kind and checks that it moves exactly when it must.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from functools import cache as memoize

from django.conf import settings
from django.utils import timezone
from django.utils.translation import get_language

# how long an entry is kept at most (a write makes new keys anyway)
TIMEOUT = 6 * 3600


@dataclass(frozen=True)
class Family:
    holds: str
    # what gives it new keys: "change", "setup", "own tables", "version" (a digest of narrower counters),
    # "days" (a digest of the change counters of a series' days and the series' settings),
    # "job" (the job's id holds the change counter); "in place": one key, its value holds the counter;
    # "release": only a new version of the code (a new process); "timeout": nothing, it expires
    # (`HUB_TIMEOUT`); "stored": an association's stored Rangliste (`stored_rangliste`)
    moved_by: str
    made_in: str  # the module that reads and writes it


FAMILIES: dict[str, Family] = {
    "tournament": Family("the tournament's row, read by every public request (no sheet's write touches it; "
                         "in-process only)",
                         "setup", "web/caching.py"),
    "standings-live": Family("the standings' table, sums and chart, per view and query", "change",
                             "views/standings.py"),
    "standings-page": Family("a visitor's whole standings page, compressed", "change", "views/standings.py"),
    "round-page": Family("a visitor's whole seating page of a round (under the change counter while it shows each "
                         "table's expected result: `rounds.shows_forecast`)", "setup", "views/rounds.py"),
    "round-tables": Family("the round page's tables ({% cache %} in templates/tournament/round.html)", "change",
                           "templatetags/polling.py"),
    "player-record": Family("a player's tables and games, without ranks", "own tables", "views/public.py"),
    "player-live": Family("a player's page without the frame", "version", "views/public.py"),
    "player-frame": Family("the site's frame around a visitor's player page (in-process only)", "setup",
                           "web/frames.py"),
    "standings-frame": Family("the site's frame around a visitor's standings page (in-process only)", "setup",
                              "web/frames.py"),
    "current-seats": Family("where every player sits in the newest published round, for the seat notice "
                            "(in-process only)", "change", "views/seat_notice.py"),
    "history": Family("the standings after every round, computed anew", "change", "web/histories.py"),
    "ranks": Family("everyone's rank after each round (a player's page)", "change", "web/histories.py"),
    "score-sums": Family("the scores summed per table and player, with the counter they are valid for",
                         "in place", "web/score_sums.py"),
    "pdf-job": Family("a background PDF's state and result", "job", "printing/jobs.py"),
    # the front door's whole answers (in-process only, a `caching.Recent`): the key holds the address, the
    # headers the answer varies by and the value of the check its view named (web/front.py)
    "front-change": Family("a visitor's whole standings page, standings poll or seat notice, as sent",
                           "change", "web/front.py"),
    "front-setup": Family("a visitor's whole seating page of a round, as sent (in front-change while it shows "
                          "each table's expected result)", "setup", "web/front.py"),
    "front-player": Family("a visitor's whole player page or its poll, as sent (the change counter, the setup, "
                           "the own tables and the rating step)", "change", "web/front.py"),
    "front-static": Family("a static file whose name holds its content's hash, as sent", "release",
                           "web/front.py"),
    "rating-scope": Family("the ratings carried across a Rangliste's tournaments: the players' ratings after each "
                           "tournament, each with a digest of it and every tournament before it (their change "
                           "counters, who their entries are)", "in place", "web/rating_scopes.py"),
    # the hub's pages across every organisation's tournaments (docs/hub.md): no counter of one tournament
    # says when they change, and a site-wide one would move with every game saved anywhere on a Saturday
    # evening; they are kept `HUB_TIMEOUT` seconds, the day and the filters in the key
    "hub-page": Family("the hub's start page, a month of the calendar or a search, without the frame, and "
                       "the clubs of the filter", "timeout", "views/calendar.py"),
    # a league's table or a cup of a series, across the clubs that publish its days (docs/competitions.md,
    # "A season across clubs"): for the public, under `selectors.season.season_version`, a digest of the
    # series' settings and of every day's id, organisation and change counter
    "season": Family("a league table or a cup of a series, as the public sees it", "days", "views/series.py"),
    # a person's page across clubs (docs/hub.md, "Players across clubs"): the same reasoning, their
    # tournaments at every club; kept `HUB_TIMEOUT` seconds, the record the address names in the key
    "hub-person": Family("a player's page across clubs without the frame and the correction form, with the "
                         "tournaments the form offers", "timeout", "views/people.py"),
    # an association's stored Rangliste (docs/competitions.md, "The association's Rangliste"): no counter of
    # one tournament says when it changes, but the stored list does (`stored_rangliste`: its refresh, its
    # day, its stale mark, the Rangliste's settings); the phones polling it get 304 or this whole answer
    "rangliste-page": Family("a visitor's whole page of an association's stored Rangliste or of one of its "
                             "players, as sent", "stored", "views/rangliste.py"),
    # not a page: the mark that a refresh of an association's Rangliste is queued and not begun, so that
    # the saves of a Saturday evening queue one refresh, not one each (`cache.add`); deleted when the
    # refresh begins, and it expires after `rangliste_refresh.QUEUED_FOR` (a worker that died); the key is
    # made there (`queued_key`: a service, which the layers keep from importing this module)
    "rangliste-queued": Family("that a refresh of an association's Rangliste is queued", "timeout",
                               "services/rangliste_refresh.py"),
}

# how long a hub page (`hub_page`) is kept: how late a tournament made public, private, started or
# finished shows on the hub's start page, calendar and search
HUB_TIMEOUT = 30


@memoize
def release() -> str:
    """What the code that renders the pages is: DJANGO_RELEASE, or a digest of the templates, the
    Python code (the app, both engines and the settings), the static files and the translations, so
    that a new version never serves a page or an ETag of the old one. The same on every machine with
    the same checkout."""
    configured = os.environ.get("DJANGO_RELEASE", "").strip()
    if configured:
        return configured
    found = hashlib.sha256()
    base = settings.BASE_DIR
    for folder, pattern in (("templates", "**/*.html"), ("tournament", "**/*.py"), ("scoring", "**/*.py"),
                            ("seating", "**/*.py"), ("config", "**/*.py"), ("static", "**/*.*"),
                            ("locale", "**/*.po")):
        for path in sorted((base / folder).glob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                found.update(path.relative_to(base).as_posix().encode() + b"\0" + path.read_bytes())
    return found.hexdigest()[:12]


# computed when the app loads: in gunicorn's master process (preload_app), so that every worker forked
# from it has the same release even if a file is touched while it runs
release()


def digest(*parts) -> str:
    return hashlib.sha256("\x1f".join(str(part) for part in parts).encode()).hexdigest()[:24]


def _key(family: str, tournament_id: int, counter: int | str, *variant) -> str:
    assert family in FAMILIES, family
    return f"doko:{family}:{tournament_id}:{counter}:{digest(release(), get_language(), *variant)}"


def tournament_row(tournament_id: int, setup_counter: int) -> str:
    return f"doko:tournament:{tournament_id}:{setup_counter}"


def standings_live(tournament_id: int, counter: int, *, director: bool, query: dict[str, str]) -> str:
    return _key("standings-live", tournament_id, counter, "d" if director else "p", sorted(query.items()))


def standings_page(tournament_id: int, counter: int, *, variant: tuple, path: str) -> str:
    return _key("standings-page", tournament_id, counter, variant, path)


def round_page(tournament_id: int, setup_counter: int, *, round_number: int, path: str) -> str:
    return _key("round-page", tournament_id, setup_counter, round_number, path)


def round_tables_version(counter: int) -> str:
    """What the `{% cache %}` of a round's tables depends on besides its arguments."""
    return f"{counter}-{get_language()}-{release()}"


def player_record(tournament_id: int, own: str, *, include_hidden: bool, entry_id: int) -> str:
    return _key("player-record", tournament_id, own, int(include_hidden), entry_id)


def player_live(tournament_id: int, version: str, *, role: str, entry_id: int) -> str:
    return _key("player-live", tournament_id, version, role, entry_id)


def player_frame(tournament_id: int, setup_counter: int) -> str:
    return _key("player-frame", tournament_id, setup_counter)


def standings_frame(tournament_id: int, setup_counter: int) -> str:
    return _key("standings-frame", tournament_id, setup_counter)


def current_seats(tournament_id: int, counter: int) -> str:
    return f"doko:current-seats:{tournament_id}:{counter}"


def history(tournament_id: int, counter: int, *, include_hidden: bool) -> str:
    return f"doko:history:{tournament_id}:{counter}:{int(include_hidden)}:{release()}"


def ranks(tournament_id: int, counter: int, *, include_hidden: bool) -> str:
    return f"doko:ranks:{tournament_id}:{counter}:{int(include_hidden)}:{release()}"


def score_sums(tournament_id: int) -> str:
    """One entry per tournament and release; the value holds the counter it is valid for, and a newer
    counter brings it up to date table by table (web/score_sums.py)."""
    return f"doko:score-sums:{tournament_id}:{release()}"


def hub_page(page: str, *variant) -> str:
    """A hub page across all tournaments (`page`: "start", "month", "search", "clubs"), for `variant`
    (the day, the filters, the page number); kept `HUB_TIMEOUT` seconds."""
    assert page in ("start", "month", "search", "clubs"), page
    return f"doko:hub-page:{page}:{digest(release(), get_language(), *variant)}"


def season(series_id: int, version: str, *, mode: str) -> str:
    """A series' league table or cup for the public; `version`: `selectors.season.season_version` (a day
    that arrives, is corrected or leaves, or a change of the series, gives a new one)."""
    return f"doko:season:{series_id}:{digest(release(), get_language(), version, mode)}"


def hub_person(record_id: int) -> str:
    """A person's page across clubs, by the record its address names; kept `HUB_TIMEOUT` seconds."""
    return f"doko:hub-person:{record_id}:{digest(release(), get_language())}"


def stored_rangliste(rangliste) -> str:
    """What moves everything read from an association's stored Rangliste (its page, a player's page, the
    API's answers): the stored list (when its computation began, its day, whether it is stale: a change of a
    tournament it takes marks it so, `services.rangliste_refresh.tournament_changed`), the Rangliste's
    settings (`version`, a change of which makes it stale too), its name and its organisation's (the
    caller has it loaded), and today (the list is behind once the day turns)."""
    return digest(rangliste.pk, rangliste.version, rangliste.name, rangliste.organisation.name,
                  rangliste.computed_at, rangliste.computed_on, rangliste.stale, timezone.localdate())


def rangliste_page(rangliste_id: int, version: str, *variant) -> str:
    """A visitor's whole page of an association's stored Rangliste; `version`: `stored_rangliste`;
    `variant`: the page and its address."""
    return f"doko:rangliste-page:{rangliste_id}:{digest(release(), get_language(), version, *variant)}"


def rating_scope(scope: str) -> str:
    """One entry per scope (`scope`: "rangliste-3") and release; the value holds, for each tournament,
    the digest of what it was computed from, and a reader rates again from the first that moved
    (web/rating_scopes.py). Holds no words: no language."""
    return f"doko:rating-scope:{scope}:{release()}"


def pdf_job(job_id: str) -> str:
    """A job's id is a digest of its kind, tournament, change counter, language and parameters."""
    return f"doko:pdfjob:{job_id}"


def pdf_result(job_id: str) -> str:
    return f"doko:pdf:{job_id}"
