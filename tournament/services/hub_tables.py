"""The hub writing one table of a published tournament (docs/publishing.md, "Applying"): a `table` entry
replaces that table's games, penalties, totals, end and signature through the services that the pages
use (unlock, resume, clear, delete, then enter the sheet, end and sign it as the file says), so that
the rest of the tournament stays untouched and its cached pages of other tables stay cached. The
file is checked first like any tournament file, with the other tables' rows left out."""

from __future__ import annotations

from django.db import transaction

from .. import engine
from ..errors import UserError
from ..log.audit import Actor
from ..models import Table, Tournament
from . import penalties as penalty_services
from . import results, sheet_state, tournaments
from .file_checks import check_file

RESULT_KEYS = ("rows", "totals", "game_numbers", "penalty_details", "ended", "signed", "approved", "drafts")


def replace_table(*, tournament: Tournament, data: dict, round_number: int, table_number: int, by: Actor) -> bool:
    """Writes the table (round, table) of the venue's file `data` into the hub's tournament. False when
    it cannot be done table by table (the hub's seating or players differ from the file's, the round is
    closed there): then nothing is written and the caller replaces the whole tournament. Raises
    ImportProblems for a file that does not check."""
    reduced = {**{k: v for k, v in data.items() if k not in ("rounds", "slug")},
               "rounds": [{**r, "tables": [t if (r.get("number"), t.get("number")) == (round_number, table_number)
                                           else {k: v for k, v in t.items() if k not in RESULT_KEYS}
                                           for t in r.get("tables", [])]} for r in data.get("rounds", [])]}
    plan = check_file(reduced, slug=tournaments.unique_slug(str(data.get("name", ""))))
    planned = next((t for r in plan.rounds if r.round.number == round_number for t in r.tables
                    if t.number == table_number), None)
    table = (Table.objects.filter(round__tournament=tournament, round__number=round_number, number=table_number)
             .select_related("round__tournament").first())
    if planned is None or table is None:
        return False
    by_number = dict(tournament.entries.values_list("start_number", "id"))
    entry = {p.ref: by_number.get(p.entry.start_number) for p in plan.players}
    seated = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    if [entry.get(name) for name in planned.players] != seated or len(by_number) != len(plan.players):
        return False
    try:
        with transaction.atomic():  # a savepoint: refused by a service, nothing of it stays
            _clear(table, by)
            _write(table, planned, entry, by)
    except UserError:
        return False
    return True


def _clear(table: Table, by: Actor) -> None:
    if table.signed_at is not None:
        sheet_state.unlock_table(table=table, by=by)
    if table.ended_after is not None:
        sheet_state.resume_table(table=table, by=by)
    if table.totals_only:
        sheet_state.clear_totals(table=table, by=by)
    for penalty_id in table.penalties.values_list("pk", flat=True):
        penalty_services.delete_penalty(table=table, penalty_id=penalty_id, by=by)
    for number in sorted(table.games.values_list("number", flat=True), reverse=True):
        results.delete_game(table=table, number=number, by=by)


def _write(table: Table, planned, entry: dict, by: Actor) -> None:
    # game by game and penalty by penalty (not `enter_sheets`, which records a change of several tables):
    # each a change of this table only, so the hub's pages of the setup and of other tables stay cached
    for number, game in planned.games:
        results.save_game(table=table, data=engine.from_engine(game, key=entry.__getitem__), number=number, by=by)
    for p in planned.penalties:
        penalty_services.add_penalty(table=table, offender_id=entry[p.offender], game_number=p.game_number,
                                     note=p.note, by=by)
    if planned.totals is not None:
        sheet_state.enter_totals(table=table, totals={entry[n]: pts for n, pts in planned.totals.items()}, by=by)
    if planned.ended_after is not None:
        sheet_state.end_table(table=table, note=planned.ended_note, by=by)
    if planned.signed_at is not None:
        sheet_state.sign_table(table=table, by=by, note=planned.signed_note, at=planned.signed_at)
