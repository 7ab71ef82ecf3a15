"""Writes to a table's sheet as a whole: final totals instead of games, signing and unlocking, ending a
table early and resuming it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import engine
from ..errors import UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Round, Table
from .editing import check_editable, check_table_version, sync_table
from .locking import lock_table
from .scores import most_total, recompute_table

# ---- totals only ---------------------------------------------------------------------------------

def enter_totals(*, table: Table, totals: dict[int, int], version: int | None = None, by: Actor = SYSTEM) -> None:
    """Final totals from a paper sheet summed at the table, instead of game by game. They must sum
    to zero and stay within what the rules allow; they are marked as totals in the standings."""
    given = table
    with transaction.atomic():
        table = lock_table(table)
        check_editable(table)
        check_table_version(table, version)
        entries = engine.seat_entries(table)
        if table.games_entered or table.penalties.exists():  # (the stored count, the table locked)
            raise UserError(_("Tisch %(table)s hat schon einzelne Spiele; Endstände gehen nur bei einem leeren "
                              "Spielzettel.") % {"table": table.number})
        if set(totals) != set(entries):
            raise UserError(_("Für jeden Spieler des Tisches gehört ein Endstand eingetragen."))
        limit = most_total(table.round.tournament, len(entries))
        too_big = [points for points in totals.values() if abs(points) > limit]
        if too_big:
            raise UserError(_("Ein Endstand von %(points)s ist an diesem Tisch nicht möglich: nach den Regeln "
                              "sind es höchstens ±%(limit)s.") % {"points": too_big[0], "limit": limit})
        total = sum(totals.values())
        if total != 0:
            raise UserError(_("Die Endstände ergeben zusammen %(sum)s statt 0.") % {"sum": total})
        if table.totals_only and table.entered_totals == {str(e): totals[e] for e in entries}:
            return
        with audit.recording("totals_entered", by=by, tournament=table.round.tournament_id, table=table):
            table.totals_only = True
            table.entered_totals = {str(e): totals[e] for e in entries}
            table.version += 1
            table.save(update_fields=["totals_only", "entered_totals", "version"])
            recompute_table(table)
    sync_table(given, table)


def clear_totals(*, table: Table, version: int | None = None, by: Actor = SYSTEM) -> None:
    """Removes entered totals, so that the table can be entered game by game."""
    given = table
    with transaction.atomic():
        table = lock_table(table)
        check_editable(table)
        if not table.totals_only:
            raise UserError(_("Für Tisch %(table)s sind keine Endstände eingetragen; es gibt nichts zu löschen.")
                            % {"table": table.number})
        check_table_version(table, version)
        with audit.recording("totals_cleared", by=by, tournament=table.round.tournament_id, table=table):
            table.totals_only = False
            table.entered_totals = None
            table.version += 1
            table.save(update_fields=["totals_only", "entered_totals", "version"])
            recompute_table(table)
    sync_table(given, table)


# ---- sign-off ------------------------------------------------------------------------------------

def sign_table(*, table: Table, version: int | None = None, by: Actor = SYSTEM, note: str = "", at=None) -> None:
    """The paper sheet was signed by the table's players: lock it, as it was loaded (`version`).
    `at`: when it was signed, if not now (an imported tournament)."""
    given = table
    with transaction.atomic():
        table = lock_table(table)
        if table.round.status != Round.Status.PUBLISHED:
            raise UserError(_("Nur Spielzettel einer veröffentlichten, nicht abgeschlossenen Runde können "
                              "unterschrieben werden."))
        if table.is_locked:
            raise UserError(_("Der Spielzettel ist bereits unterschrieben."))
        check_table_version(table, version)
        if len(note) > 300:  # Table.signed_note
            raise UserError(_("Die Notiz zu den Unterschriften ist zu lang (höchstens 300 Zeichen)."), field="note")
        with audit.recording("table_signed", by=by, tournament=table.round.tournament_id, table=table):
            table.signed_at = at or timezone.now()
            table.signed_by = by.user
            table.signed_note = note
            table.version += 1
            table.save(update_fields=["signed_at", "signed_by", "signed_note", "version"])
    sync_table(given, table)


def unlock_table(*, table: Table, version: int | None = None, by: Actor = SYSTEM) -> None:
    given = table
    with transaction.atomic():
        table = lock_table(table)
        if table.round.status != Round.Status.PUBLISHED:
            raise UserError(_("Nur Spielzettel einer veröffentlichten, nicht abgeschlossenen Runde können "
                              "entsperrt werden."))
        if not table.is_locked:
            raise UserError(_("Der Spielzettel ist nicht gesperrt."))
        check_table_version(table, version)
        with audit.recording("table_unlocked", by=by, tournament=table.round.tournament_id, table=table):
            table.signed_at = None
            table.signed_by = None
            table.signed_note = ""
            table.version += 1
            table.save(update_fields=["signed_at", "signed_by", "signed_note", "version"])
    sync_table(given, table)


# ---- a table that stops early ---------------------------------------------------------------------

def end_table(*, table: Table, note: str, version: int | None = None, by: Actor = SYSTEM) -> None:
    """A player had to leave and the table cannot play on: the games entered so far count, no more
    are expected, and the sheet says why (docs/tournament.md, "Wenn jemand gehen muss")."""
    given = table
    note = note.strip()
    with transaction.atomic():
        table = lock_table(table)
        if table.round.status != Round.Status.PUBLISHED:
            raise UserError(_("Nur ein Tisch einer veröffentlichten, nicht abgeschlossenen Runde kann beendet werden."))
        if table.is_locked:
            raise UserError(_("Der Spielzettel ist unterschrieben und gesperrt; erst entsperren, dann beenden."))
        if table.totals_only:
            raise UserError(_("Der Tisch hat nur Endstände; da gibt es keine fehlenden Spiele."))
        if table.ended_after is not None:
            raise UserError(_("Der Tisch ist schon nach Spiel %(last)s beendet.") % {"last": table.ended_after})
        check_table_version(table, version)
        if not note:
            raise UserError(_("Bitte den Grund angeben, er steht auf dem Spielzettel (z. B. wer gehen musste)."),
                            field="note")
        if len(note) > 300:  # Table.ended_note
            raise UserError(_("Der Grund ist zu lang (höchstens 300 Zeichen)."), field="note")
        if table.drafts_waiting:  # (the stored count, read with the table locked)
            raise UserError(_("Vom Tisch warten noch Eingaben auf Bestätigung; erst bestätigen oder ablehnen."))
        with audit.recording("table_ended", by=by, tournament=table.round.tournament_id, table=table):
            table.ended_after = table.games_entered
            table.ended_note = note
            table.version += 1
            table.save(update_fields=["ended_after", "ended_note", "version"])
    sync_table(given, table)


def resume_table(*, table: Table, version: int | None = None, by: Actor = SYSTEM) -> None:
    """The table plays on after all (it was ended by mistake, or the player is back)."""
    given = table
    with transaction.atomic():
        table = lock_table(table)
        if table.round.status != Round.Status.PUBLISHED:
            raise UserError(_("Nur ein Tisch einer veröffentlichten, nicht abgeschlossenen Runde kann wieder "
                              "geöffnet werden."))
        if table.ended_after is None:
            raise UserError(_("Der Tisch ist nicht beendet."))
        if table.is_locked:
            raise UserError(_("Der Spielzettel ist unterschrieben und gesperrt; erst entsperren."))
        check_table_version(table, version)
        with audit.recording("table_resumed", by=by, tournament=table.round.tournament_id, table=table):
            table.ended_after = None
            table.ended_note = ""
            table.version += 1
            table.save(update_fields=["ended_after", "ended_note", "version"])
    sync_table(given, table)


