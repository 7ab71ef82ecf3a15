"""The tournament's scores summed per round, table and player (`selectors.score_sums`), kept in the
shared cache from one change to the next and brought up to date table by table (issue 18.3: a game
saved at one table should not make the standings add up all 25,000 scores again).

The cache holds one entry per tournament: the change counter the sums are valid for and the sums by
table. For a newer counter, the changes since then are read (one query): when each of them touched
one table (`DataChange.table_id`), only those tables are summed again (one small query) and their
lines replaced; any wider change (seating, players, rules, a whole round) sums everything anew.

On PostgreSQL, a write whose change has a lower id than one already seen may commit after it (ids are
handed out when a transaction writes, not when it commits, and writers of different tables do not
wait on each other). So there the tables of the last `LOOK_BACK` changes before the stored counter
are summed again as well: a late commit is picked up by the next computation instead of being missed
until everything is summed anew. SQLite lets one transaction write at a time (and ours take the write
lock when they begin: `transaction_mode = IMMEDIATE`), so a change there has committed before the next
one gets its id, and nothing is looked at again (`look_back`). Two workers computing at once store the
same sums; a worker behind the stored counter computes everything and stores nothing.
"""

from __future__ import annotations

from django.core.cache import cache
from django.db import connection

from .. import selectors
from ..models import DataChange, Tournament
from ..selectors.standings import SCORE_SUM_TABLE, ScoreSum

LOOK_BACK = 50  # changes before the stored counter whose tables are summed again (late commits)
MOST_NEW = 200  # more changes since the stored counter than this: everything is summed anew
TIMEOUT = 6 * 3600


def by_table(lines: list[ScoreSum]) -> dict[int, list[ScoreSum]]:
    tables: dict[int, list[ScoreSum]] = {}
    for line in lines:
        tables.setdefault(line[SCORE_SUM_TABLE], []).append(line)
    return tables


def lines_of(tables: dict[int, list[ScoreSum]]) -> list[ScoreSum]:
    return [line for lines in tables.values() for line in lines]


def look_back() -> int:
    """How many changes before a stored counter are looked at again for late commits: none on SQLite,
    where changes commit in the order of their ids (the module's docstring)."""
    return 0 if connection.vendor == "sqlite" else LOOK_BACK


def changed_tables(tournament: Tournament, *, since: int, counter: int) -> set[int] | None:
    """The tables whose sums may differ between counter `since` and `counter` (with the look-back for
    late commits); None when a wider change came in between or there were too many to look at."""
    back = look_back()
    changes = list(DataChange.objects.filter(tournament=tournament, id__lte=counter).order_by("-id")
                   .values_list("id", "table_id")[:MOST_NEW + back + 1])
    new = [table for change, table in changes if change > since]
    if len(new) == len(changes) or None in new:  # the window does not reach back to `since`, or wider
        return None
    older = [table for change, table in changes if change <= since][:back]
    return {table for table in new + older if table is not None}


def tables(tournament: Tournament, *, counter: int, release: str) -> dict[int, list[ScoreSum]]:
    """Every line of `selectors.score_sums` for the tournament's rounds as of change `counter`, by table
    (table id -> its lines; `release`: the code's, `caching.release()`: a new release sums anew)."""
    key = f"doko:score-sums:{tournament.pk}:{release}"
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
