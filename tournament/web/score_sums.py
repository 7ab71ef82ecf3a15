"""The tournament's scores summed per round, table and player (`selectors.score_sums`: the stored
tallies, 3,000 rows at 1,000 players), kept in the shared cache from one change to the next and
brought up to date table by table (a game saved at one table reads that table's tallies again, not
all of them; docs/performance.md).

The cache holds one entry per tournament: the change counter the sums are valid for and the sums by
table. For a newer counter, the changes since then are read (one query): when each of them touched
one table (`DataChange.table_id`), only those tables are summed again (one small query) and their
lines replaced; any wider change (seating, players, rules, a whole round) sums everything anew.

A change's id is final once a reader sees it: a tournament's changes get their ids in the order they
commit (`models.CounterTurn`), so every change up to a counter a reader has seen has committed, and the
sums stored for it miss nothing. Two workers computing at once store the same sums; a worker behind
the stored counter computes everything and stores nothing.
"""

from __future__ import annotations

from django.core.cache import cache

from .. import selectors
from ..models import DataChange, Tournament
from ..selectors.standings import SCORE_SUM_TABLE, ScoreSum
from . import cache_keys

MOST_NEW = 200  # more changes since the stored counter than this: everything is summed anew
TIMEOUT = 6 * 3600


def by_table(lines: list[ScoreSum]) -> dict[int, list[ScoreSum]]:
    tables: dict[int, list[ScoreSum]] = {}
    for line in lines:
        tables.setdefault(line[SCORE_SUM_TABLE], []).append(line)
    return tables


def lines_of(tables: dict[int, list[ScoreSum]]) -> list[ScoreSum]:
    return [line for lines in tables.values() for line in lines]


def changed_tables(tournament: Tournament, *, since: int, counter: int) -> set[int] | None:
    """The tables whose sums may differ between counter `since` and `counter`; None when a wider change
    came in between or there were too many to look at."""
    changes = list(DataChange.objects.filter(tournament=tournament, id__gt=since, id__lte=counter)
                   .values_list("table_id", flat=True)[:MOST_NEW + 1])
    if len(changes) > MOST_NEW or None in changes:
        return None
    return {table for table in changes if table is not None}


def tables(tournament: Tournament, *, counter: int) -> dict[int, list[ScoreSum]]:
    """Every line of `selectors.score_sums` for the tournament's rounds as of change `counter`, by table
    (table id -> its lines; a new release of the code sums anew: `cache_keys.score_sums`)."""
    key = cache_keys.score_sums(tournament.pk)
    stored = cache.get(key)
    if stored is not None:
        since, by_id = stored
        if since == counter:
            return by_id
        if since < counter:
            changed = changed_tables(tournament, since=since, counter=counter)
            if changed is not None:
                for table in changed:
                    by_id.pop(table, None)
                by_id.update(by_table(selectors.score_sums(table_ids=changed)))
                cache.set(key, (counter, by_id), TIMEOUT)
                return by_id
    by_id = by_table(selectors.score_sums(round_ids=tournament.rounds.values_list("id", flat=True)))
    if stored is None or stored[0] < counter:
        cache.set(key, (counter, by_id), TIMEOUT)
    return by_id
