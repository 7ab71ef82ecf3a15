"""Penalties at a table: added (at a table of 5 with the game, which says who sat out), deleted and
restored, each recomputing the table.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from .. import engine
from ..errors import UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Penalty, RequestKey, Seat, Table
from .editing import bump_version, check_editable, check_entry, seen_key
from .locking import lock_table
from .scores import recompute_table


def add_penalty(*, table: Table, offender_id: int, game_number: int | None = None, note: str = "",
                by: Actor = SYSTEM, key: str | None = None, action: str = "penalty_added") -> Penalty:
    """A penalty against a player of this table. At a table of 5 it names the game, which says who
    sat out; the offender must have played that game. `key`: the form's one-time key, so that a
    penalty sent twice is entered once."""
    with transaction.atomic():
        table = lock_table(table)
        seen = seen_key(key)
        if seen is not None:
            penalty = Penalty.objects.filter(pk=seen.get("penalty") or 0).first()
            if penalty is not None:
                return penalty
        entries = engine.seat_entries(table)
        check_entry(table, len(entries), game_number)  # as for a game; a penalty may name a game not entered yet
        if offender_id not in entries:
            raise UserError(_("Dieser Spieler sitzt nicht an Tisch %(table)s.") % {"table": table.number},
                            field="offender")
        if game_number is None and len(entries) == 5:
            raise UserError(_("Am 5er-Tisch braucht eine Strafe das Spiel, in dem sie fiel (wer saß aus?)."),
                            field="game_number")
        players = entries
        if game_number is not None:
            _dealer, sitting_out, players = engine.game_deal(table, entries, game_number).as_tuple()
            if offender_id == sitting_out:
                raise UserError(_("Der Spieler saß in Spiel %(number)s aus.") % {"number": game_number},
                                field="offender")
        if len(note) > 200:  # Penalty.note
            raise UserError(_("Der Grund ist zu lang (höchstens 200 Zeichen)."), field="note")
        with audit.recording(action, by=by, tournament=table.round.tournament_id, table=table):
            penalty = Penalty.objects.create(table=table, offender_id=offender_id, game_number=game_number,
                                             players=list(players), note=note)
            if key:
                RequestKey.objects.create(key=key, tournament_id=table.round.tournament_id,
                                          result={"penalty": penalty.pk})
            bump_version(table)
            recompute_table(table)
        return penalty


def delete_penalty(*, table: Table, penalty_id: int, by: Actor = SYSTEM) -> None:
    with transaction.atomic():
        table = lock_table(table)
        check_editable(table)
        penalty = table.penalties.filter(pk=penalty_id).first()
        if penalty is None:
            raise UserError(_("Diese Strafe gibt es nicht (mehr); vielleicht hat sie schon jemand gelöscht."))
        with audit.recording("penalty_deleted", by=by, tournament=table.round.tournament_id, table=table):
            penalty.delete()
            bump_version(table)
            recompute_table(table)


def restore_penalty(*, table: Table, record, by: Actor = SYSTEM) -> bool:
    """Enters again a deleted penalty as a record of the change log holds it (`record`: a historical
    `Penalty`), against the entry it was against (by id: a rename or two swapped names change
    nothing; a record read from a tournament file holds only the name). Restoring the same record
    again while the penalty it restored still stands, or a record of a penalty that was not deleted,
    changes nothing: returns False then."""
    key = f"restore-penalty-{record.history_id}"
    detail = record.log_detail or {}
    with transaction.atomic():
        table = lock_table(table)
        seen = seen_key(key)
        if seen is not None:
            if table.penalties.filter(pk=seen.get("penalty") or 0).exists():
                return False
            RequestKey.objects.filter(key=key).delete()  # restored, then deleted again: restore anew
        if table.penalties.filter(pk=record.id).exists():  # a record of a penalty that still stands
            return False
        seated = engine.seat_entries(table)
        offender = record.offender_id if record.id > 0 else None  # (a file's record: no id of this database)
        if offender is None:
            names = dict(Seat.objects.filter(table=table).values_list("entry__player__name", "entry_id"))
            offender = names.get(str((detail.get("row") or {}).get("penalty", "")))
        if offender is None or offender not in seated:
            raise UserError(_("Diese Strafe passt nicht mehr zum Tisch und kann nicht wiederhergestellt werden."))
        add_penalty(table=table, offender_id=offender, game_number=detail.get("game"), note=detail.get("note", ""),
                    by=by, key=key, action="penalty_restored")
        return True


