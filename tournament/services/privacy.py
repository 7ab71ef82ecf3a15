"""A player's publication level (docs/privacy.md): set by a director on the player's edit page, chosen
by the player when registering, carried by the tournament file.

The level belongs to the organisation's record of the person (`Player.publication`): it holds in every
tournament of that record, so a change is written once and recorded in the change log of each of
those tournaments ("Veröffentlichung geändert", the entry's record), which also moves each one's change
counter: no cached public page of any of them keeps the name the player no longer wants shown.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from .. import privacy
from ..errors import UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Entry, Player
from .locking import lock_tournaments_of_player


def checked_level(level: str) -> str:
    if level not in privacy.LEVELS:
        raise UserError(_("Diese Veröffentlichung gibt es nicht."), field="publication")
    return level


def set_publication(*, entry: Entry, level: str, by: Actor = SYSTEM) -> Entry:
    """The publication level of the entry's player record, in every tournament of the record (each
    locked in id order, each logging the change). Unchanged: nothing written, nothing logged."""
    level = checked_level(level)
    with transaction.atomic():
        player_id = Entry.objects.filter(pk=entry.pk).values_list("player_id", flat=True).get()
        touched = lock_tournaments_of_player(player_id)
        if Player.objects.filter(pk=player_id).values_list("publication", flat=True).get() == level:
            return Entry.objects.select_related("player").get(pk=entry.pk)
        # the record (no signal: the change is logged as each tournament's entry, one change per tournament)
        with audit.recording("publication_changed", by=by, tournament=None):
            Player.objects.filter(pk=player_id).update(publication=level)
            for tournament in touched:
                with audit.recording("publication_changed", by=by, tournament=tournament):
                    tournament.entries.select_related("player").get(player_id=player_id).save()
        return Entry.objects.select_related("player").get(pk=entry.pk)


def at_least(*, entry: Entry, level: str, by: Actor = SYSTEM) -> Entry:
    """Makes the record's level `level` where that shows less than it does now, never more: what a
    registration or a tournament file may do to a record that exists already (only its directors
    publish more of a person)."""
    current = Player.objects.filter(entries=entry.pk).values_list("publication", flat=True).get()
    wanted = privacy.strictest([current, checked_level(level)])
    return entry if wanted == current else set_publication(entry=entry, level=wanted, by=by)
