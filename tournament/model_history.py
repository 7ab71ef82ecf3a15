"""What every historical record holds (django-simple-history), for the models of `models.py` and
`rangliste_models.py`."""

from django.db import models
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
