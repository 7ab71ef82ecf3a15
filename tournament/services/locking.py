"""The one locking helper: every service that writes locks the rows it is about to change, inside
its transaction, before it reads what it decides on (pretix's `lock_objects`).

PostgreSQL: `SELECT … FOR NO KEY UPDATE` of exactly these rows (never the rows of joined tables), so
a second writer of the same table or round waits until the first has committed and then reads what
the first wrote. NO KEY UPDATE still lets other transactions insert rows that refer to the locked
one (a game of a locked table's round, a change counter row of a locked tournament), which keeps
writers of different tables from waiting on each other. Locks are always taken in the order
series, tournament, round, table (and by id within one kind), so two writers can never wait on each other.

SQLite has no row locks; there every transaction takes the database's write lock when it begins
(`transaction_mode = IMMEDIATE` in the settings), which serialises writers completely.
"""

from __future__ import annotations

from typing import TypeVar

from django.db import connection
from django.db.models import Model, QuerySet

from ..models import Entry, Player, Rangliste, Round, Series, Table, Tournament

M = TypeVar("M", bound=Model)


class TransactionRequired(RuntimeError):
    """A lock outside a transaction would be released at once: a programming error."""


def lock(queryset: QuerySet[M]) -> list[M]:
    """Locks the rows of `queryset` for the rest of the transaction and returns them, read after the
    lock (so they hold what the previous writer committed). Refuses to run outside a transaction."""
    if not connection.in_atomic_block:
        raise TransactionRequired("lock() must run inside transaction.atomic()")
    features = connection.features
    locked = queryset.select_for_update(no_key=features.has_select_for_no_key_update,
                                        of=("self",) if features.has_select_for_update_of else ())
    return list(locked.order_by("pk"))


def lock_one(queryset: QuerySet[M]) -> M:
    rows = lock(queryset)
    if len(rows) != 1:
        raise queryset.model.DoesNotExist(f"{queryset.model.__name__} to lock not found")  # type: ignore[attr-defined]
    return rows[0]


def lock_tournament(tournament: Tournament | int) -> Tournament:
    pk = tournament.pk if isinstance(tournament, Tournament) else tournament
    return lock_one(Tournament.objects.filter(pk=pk))


def lock_tournaments_of_player(player_id: int) -> list[Tournament]:
    """Every tournament with an entry of this player record, locked in id order: a change of the record
    (its member number, its publication level, its erasure) is logged in each of them. A subquery, not
    a join with DISTINCT: PostgreSQL locks no rows of a DISTINCT query."""
    return lock(Tournament.objects.filter(pk__in=Entry.objects.filter(player_id=player_id).values("tournament_id")))


def lock_round(round: Round | int) -> Round:
    """The round, locked, with its tournament read (not locked)."""
    pk = round.pk if isinstance(round, Round) else round
    return lock_one(Round.objects.filter(pk=pk).select_related("tournament"))


def lock_table(table: Table | int) -> Table:
    """The table, locked, with its round and tournament read (not locked)."""
    pk = table.pk if isinstance(table, Table) else table
    return lock_one(Table.objects.filter(pk=pk).select_related("round__tournament", "signed_by"))


def lock_tables(round: Round) -> list[Table]:
    """All tables of a round, locked (after the round itself, by the caller)."""
    return lock(Table.objects.filter(round=round))


def lock_series(series: Series | int) -> Series:
    """A series, locked; taken before the locks of its tournaments (series, tournament, round, table)."""
    pk = series.pk if isinstance(series, Series) else series
    return lock_one(Series.objects.filter(pk=pk))


def lock_rangliste(rangliste: Rangliste | int) -> Rangliste:
    """A Rangliste, locked; it changes no tournament, so nothing is locked after it."""
    pk = rangliste.pk if isinstance(rangliste, Rangliste) else rangliste
    return lock_one(Rangliste.objects.filter(pk=pk))


def lock_players(ids) -> list[Player]:
    """Player records, locked in id order: a decision about who is the same person (services/identities.py).
    It changes no tournament, so nothing is locked after them."""
    return lock(Player.objects.filter(pk__in=list(ids)))
