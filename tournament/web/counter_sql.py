"""The two reads every poll runs, written out as SQL: the only hand-written SQL that reads (the writes'
`executemany` and COPY are in `services/scores.py` and `services/bulk.py`; docs/performance.md,
"Hand-written SQL").

Why: an unchanged poll is answered `304 Not Modified` from one of these reads before anything else
(`caching.answers_unchanged_polls`), and a visitor's cached page is sent after one; they are most of
what the phones ask for, above every cache layer, hundreds a second when a round is announced. The
same queries built by the ORM (scalar `MAX(id)` subqueries over `Tournament.objects.values_list`) cost
0.6 and 1.6 ms to build against 0.03 and 0.05 ms here (in one process, alternating, 1,000 players,
SQLite), and `scripts/bench.py` measured an unchanged poll at 1.2 ms against 0.4 ms and a visitor's
cached seating at 1.7 against 0.9 ms (2026-11-28). The bench's bound (25x a bare view) would hold
either way; the announcement burst (every request at p95 <= 250 ms while 200 phones arrive at once,
not met yet) is bound by the CPU, so the reads stay written out.

Both name their tables from the models and take every value as a parameter.
`tests/tournament/test_counter_sql.py` compares them with the ORM's reads."""

from __future__ import annotations

from django.db import connection

from ..models import DataChange, Seat, Tournament


def _name(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def counter_by_slug(slug: str) -> tuple[int, int] | None:
    """(tournament id, change counter: the id of its newest change, 0 before the first) in one query,
    without loading the tournament. None: no tournament of that slug."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT t.id, (SELECT MAX(d.id) FROM {_name(DataChange)} d WHERE d.tournament_id = t.id) "
            f"FROM {_name(Tournament)} t WHERE t.slug = %s",
            [slug],
        )
        row = cursor.fetchone()
    return (row[0], row[1] or 0) if row else None


def player_counters(tournament_id: int, entry_id: int) -> tuple[int, int, int]:
    """`caching.change_counter`, `caching.setup_counter` and the newest change of a sheet at a table
    where the player sits or sat (0: none), at once: what a player's page depends on, which it asks
    for on every poll. One query, along the indexes of the change log."""
    changes = _name(DataChange)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT MAX(id) FROM {changes} WHERE tournament_id = %s), "
            f"(SELECT MAX(id) FROM {changes} WHERE tournament_id = %s AND table_id IS NULL), "
            f"(SELECT MAX(id) FROM {changes} WHERE table_id IN "
            f"(SELECT table_id FROM {_name(Seat)} WHERE entry_id = %s))",
            [tournament_id, tournament_id, entry_id],
        )
        row = cursor.fetchone()
    return row[0] or 0, row[1] or 0, row[2] or 0
