"""The rating carried from tournament to tournament: a Rangliste's (and so a series') players rated over
all its tournaments in the order of their dates, each tournament's games rated from the players' ratings
after the tournaments before (docs/rating.md, "Across tournaments").

Stored in the shared cache, computed when read: one entry per scope (`cache_keys.rating_scope`) that
holds, for each of its tournaments in order, the ratings of its players after it and a digest of
everything that was computed from -- that tournament and every one before it, with their change
counters (every write to a tournament moves its counter: a game saved, corrected or deleted, a round's
results hidden) and who each of their entries is across the tournaments (`Person.key`: a member number,
a name changed, a merge). A reader keeps the tournaments up to the first whose digest moved and rates
from there: a
game saved in the newest tournament rates that tournament again, a correction in an earlier one that
one and every later one; exactly what rating every game anew in order gives (tested). Saving a game
does nothing here (the tournament's own ratings are kept in the save: services/ratings.py), so it stays
as fast as before."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache

from scoring import rating

from .. import privacy
from ..selectors.rangliste import Read
from ..selectors.ratings import carry, change_counters, scope_digests, scope_ids
from . import cache_keys

TIMEOUT = 30 * 24 * 3600  # the value says what it holds; what is not read for a month is computed anew


@dataclass(frozen=True)
class Carried:
    """The ratings of a scope's players now, and each one's course: the rating after each tournament
    he played (tournament id, rating)."""

    now: dict[str, rating.Rating]
    course: dict[str, list[tuple[int, rating.Rating]]]


def carried(read: Read, *, scope: str) -> Carried:
    """The carried ratings of the tournaments `read` found (in their order), keyed by who the players
    are across them. `scope` names the scope in the cache ("rangliste-3"). Queries: the change
    counters and the kept entry; when a tournament's digest has moved, its and the later tournaments'
    seats and games and storing the entry (3 more)."""
    ids = scope_ids(read)  # a tournament whose rating is switched off (itself or its organisation) is not rated
    digests = scope_digests(read, ids, change_counters(ids))
    key = cache_keys.rating_scope(scope)
    kept: list[tuple[str, dict[str, rating.Rating]]] = cache.get(key) or []
    first = 0
    while first < min(len(kept), len(digests)) and kept[first][0] == digests[first]:
        first += 1
    after: list[dict[str, rating.Rating]] = [delta for _digest, delta in kept[:first]]
    if first < len(ids):
        now: dict[str, rating.Rating] = {}
        for delta in after:
            now.update(delta)
        after.extend(carry(read, ids[first:], now))
        cache.set(key, list(zip(digests, after, strict=True)), TIMEOUT)
    result: dict[str, rating.Rating] = {}
    course: dict[str, list[tuple[int, rating.Rating]]] = {}
    for tournament_id, delta in zip(ids, after, strict=True):
        result.update(delta)
        for player, rated in delta.items():
            course.setdefault(player, []).append((tournament_id, rated))
    return Carried(now=result, course=course)


def shown(read: Read, found: Carried, *, public: bool) -> Carried:
    """What a reader sees of the carried ratings: the public none of a person not published (the
    strictest level of their records, docs/privacy.md)."""
    if not public:
        return found
    keys = {key for key, person in read.people.items() if person.level != privacy.HIDDEN}
    return Carried(now={k: v for k, v in found.now.items() if k in keys},
                   course={k: v for k, v in found.course.items() if k in keys})
