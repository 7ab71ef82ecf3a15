"""The round clock: the director starts it when the tables begin to play; it runs for the
tournament's `round_minutes` (100 is common), shown on the round pages (docs/tournament.md, "Round
clock"). It only informs: nothing is refused when time is up."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Round
from .locking import lock_round


def start_clock(*, round: Round, by: Actor = SYSTEM, at: datetime.datetime | None = None) -> Round:
    """Starts (or starts again) the clock of a published round, now or `at`."""
    with transaction.atomic():
        fresh = lock_round(round)
        tournament = fresh.tournament
        if fresh.status != Round.Status.PUBLISHED:
            raise UserError(_("Die Uhr läuft nur in einer veröffentlichten, nicht abgeschlossenen Runde."))
        if not tournament.round_minutes:
            raise UserError(_("Für dieses Turnier ist keine Spielzeit je Runde eingestellt (Einstellungen)."))
        with audit.recording("round_clock_started", by=by, tournament=tournament.pk):
            fresh.started_at = at or timezone.now()
            fresh.save(update_fields=["started_at"])
    round.started_at = fresh.started_at
    return round


def stop_clock(*, round: Round, by: Actor = SYSTEM) -> Round:
    """Takes the clock away (started by mistake)."""
    with transaction.atomic():
        fresh = lock_round(round)
        if fresh.started_at is None:
            return round
        with audit.recording("round_clock_stopped", by=by, tournament=fresh.tournament_id):
            fresh.started_at = None
            fresh.save(update_fields=["started_at"])
    round.started_at = None
    return round
