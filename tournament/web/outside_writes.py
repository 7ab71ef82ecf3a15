"""Writes outside the services count the tournament up too (docs/architecture.md, "The change
counter"): the services record every change, and their recording appends the DataChange that is
the tournament's change counter (`caching.change_counter`). A change made elsewhere (the admin, a
shell, a test that saves a model) must not leave a page that is cached or held by a phone as it
was -- least of all results the director has just hidden -- so each save or delete of the
tournament's models outside a recording appends one as well. Connected when the app is ready
(tournament/apps.py)."""

from __future__ import annotations

from contextvars import ContextVar

from django.db.models.signals import post_delete, post_save, pre_delete
from django.dispatch import receiver

from ..log import audit
from ..models import DataChange, DraftGame, Entry, Game, Penalty, Player, Round, Seat, Table, Tournament

_deleting: ContextVar[frozenset[int]] = ContextVar("doko_tournaments_being_deleted", default=frozenset())


def _tournaments_of(instance) -> list[int]:
    if isinstance(instance, Tournament):
        return [instance.pk]
    if isinstance(instance, (Entry, Round)):
        return [instance.tournament_id]
    if isinstance(instance, Player):
        return list(Entry.objects.filter(player_id=instance.pk).values_list("tournament_id", flat=True).distinct())
    if isinstance(instance, Seat):
        return list(Round.objects.filter(pk=instance.round_id).values_list("tournament_id", flat=True))
    if isinstance(instance, Table):
        return list(Round.objects.filter(pk=instance.round_id).values_list("tournament_id", flat=True))
    if isinstance(instance, (Game, Penalty, DraftGame)):
        return list(Table.objects.filter(pk=instance.table_id).values_list("round__tournament_id", flat=True))
    return []


COUNTED = (Tournament, Entry, Player, Round, Table, Seat, Game, Penalty, DraftGame)


def _count_up(instance) -> None:
    if audit.current() is not None:
        return  # a service's recording appends the DataChange when it ends
    deleting = _deleting.get()
    for tournament_id in _tournaments_of(instance):
        if tournament_id and tournament_id not in deleting:
            DataChange.objects.append(tournament_id)


@receiver(post_save)
def count_saved(sender, instance, raw=False, **kwargs):
    if isinstance(instance, COUNTED) and not raw:
        _count_up(instance)


@receiver(pre_delete, sender=Tournament)
def tournament_deleting(sender, instance, **kwargs):
    # its rows go with it (its DataChange rows too): nothing to count for them
    _deleting.set(_deleting.get() | {instance.pk})


@receiver(post_delete)
def count_deleted(sender, instance, **kwargs):
    if isinstance(instance, Tournament):
        _deleting.set(_deleting.get() - {instance.pk})
    elif isinstance(instance, COUNTED):
        _count_up(instance)
