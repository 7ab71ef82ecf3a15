"""Who changed what: the change log's records (django-simple-history), the change counter and its turn,
one-time keys."""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection, models, transaction
from django.db.models import Q
from simple_history.models import HistoricalRecords


class LoggedChange(models.Model):
    """What every historical record (django-simple-history) holds besides the row itself: the
    tournament, round and table it belongs to, what was done, by whom and from which device, and
    the row in the words of the tournament file (player names, not database ids), so that the
    change log reads the same after a backup is restored into another database. Filled in by
    `audit.fill_record` from the service that made the change."""

    log_tournament = models.IntegerField(null=True, db_index=True)
    log_round = models.PositiveSmallIntegerField(null=True)
    log_table = models.PositiveSmallIntegerField(null=True)
    log_action = models.CharField(max_length=32, blank=True)
    log_user = models.CharField(max_length=150, blank=True)
    log_device = models.CharField(max_length=64, blank=True)
    log_detail = models.JSONField(default=dict, blank=True)

    class Meta:
        abstract = True


def kept_history(*excluded: str) -> HistoricalRecords:
    """django-simple-history for a model, with the `LoggedChange` fields; `excluded`: fields not kept
    (the cache of the engine's output)."""
    return HistoricalRecords(bases=[LoggedChange], excluded_fields=list(excluded), cascade_delete_history=False)


class CounterTurn(models.Model):
    """One row per tournament, locked by every write to it just before it appends its `DataChange`
    and held until that write commits: so a tournament's changes get their ids in the order they
    commit. Without it two writers of different tables could commit out of order on PostgreSQL (ids
    are handed out when a transaction writes, not when it commits): a reader would then see change
    106 while 105 is still open, cache the page under counter 106 without 105, and keep it after
    105 commits (docs/architecture.md, "The change counter"). SQLite lets one transaction write at a
    time, so there the lock is not needed (and `select_for_update` does nothing).

    The turn is the last lock a write takes (after the series, tournament, round and table locks of
    `services.locking`) and nothing is locked after it, so it cannot take part in a deadlock; writers
    of different tables wait on each other only for the few milliseconds from the turn to the commit.
    The row is made on the tournament's first write."""

    tournament = models.OneToOneField("tournament.Tournament", on_delete=models.CASCADE, primary_key=True,
                                      related_name="+")
    # the tournament is published to a hub (an active `Publication`): read with the lock, so that a write
    # knows whether to queue its change in the outbox without a query of its own (docs/publishing.md)
    publishing = models.BooleanField(default=False)

    def __str__(self):
        return f"turn of {self.tournament_id}"


# called with (tournament id, table id) after a change of a published tournament is appended, in the
# change's transaction: `services.outbox.queue_change` (set when the app is ready; models import no services)
PUBLISHED_CHANGE: list[Callable[[int, int | None], object]] = []


class DataChangeManager(models.Manager["DataChange"]):
    def append(self, tournament_id: int, table_id: int | None = None) -> DataChange:
        """The one way to count a tournament up: waits for the tournament's turn (`CounterTurn`), then
        appends the change. Inside the transaction of the write (a save outside any, in the admin or a
        shell: in a transaction of its own, so that the turn is held until the change is committed)."""
        if not connection.in_atomic_block:
            with transaction.atomic():
                return self.append(tournament_id, table_id)
        turn = (CounterTurn.objects.filter(pk=tournament_id).values_list("publishing", flat=True)
                .select_for_update(no_key=connection.features.has_select_for_no_key_update))
        publishing = list(turn)
        if not publishing:
            CounterTurn.objects.bulk_create([CounterTurn(pk=tournament_id)], ignore_conflicts=True)
            publishing = list(turn.all())
        change = self.create(tournament_id=tournament_id, table_id=table_id)
        if publishing and publishing[0]:  # queued in the outbox in this same transaction
            for queue in PUBLISHED_CHANGE:
                queue(tournament_id, table_id)
        return change


class DataChange(models.Model):
    """One row per write to a tournament (appended by `audit.recording`): the newest id is the
    tournament's change counter, which tells a poll in one indexed query whether anything changed.
    Appending instead of counting up a column keeps the rows the pages read from being rewritten;
    the ids follow the order of the commits (`CounterTurn`)."""

    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="+")
    # the one table whose sheet the change touched (`audit.recording(table=...)`); null: a wider change
    # (seating, players, settings, rounds). Pages that depend on the setup or on some tables only read
    # the newest change of those (`web/caching.py`), so a game saved at table 12 leaves them cached.
    table_id = models.PositiveIntegerField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    objects = DataChangeManager()

    class Meta:
        indexes = [models.Index(fields=["tournament", "id"], name="datachange_tournament_id"),
                   models.Index(fields=["tournament", "id"], condition=Q(table_id__isnull=True),
                                name="datachange_setup"),
                   models.Index(fields=["table_id", "id"], name="datachange_table_id")]

    def __str__(self):
        return f"{self.tournament_id}#{self.pk}"


class RequestKey(models.Model):
    """A form's or a phone's one-time key: a request sent twice (double click, a retry after the
    Wi-Fi dropped) finds its key here and is answered with the first result instead of being
    carried out again."""

    key = models.CharField(max_length=64, unique=True)
    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="+")
    result = models.JSONField(default=dict, blank=True)  # what the first request made, e.g. {"game": 3}
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.key

