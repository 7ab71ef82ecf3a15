"""Rounds and seating: creating a round, drawing its tables, swapping and moving players before it is
published, publishing and closing it. The draw itself is `tournament.draw` (pure Python)."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from .. import draw
from ..errors import UserError
from ..models import Entry, Round, Seat, Table, Tournament
from ..selectors import standings


def playing_entries(tournament: Tournament, round_number: int) -> list[Entry]:
    """Who is seated in this round: joined by then and not withdrawn, by start number."""
    entries = tournament.entries.select_related("player").order_by("start_number")
    return [e for e in entries if e.plays_in(round_number)]


def history_before(tournament: Tournament, round_number: int) -> draw.History:
    """Who met whom, and who sat at a table of 5, in the rounds before this one."""
    seats = (Seat.objects.filter(round__tournament=tournament, round__number__lt=round_number)
             .order_by("round__number", "table__number", "position").values_list("round_id", "table_id", "entry_id"))
    rounds: dict[int, dict[int, list[int]]] = {}
    for round_id, table_id, entry_id in seats:
        rounds.setdefault(round_id, {}).setdefault(table_id, []).append(entry_id)
    return draw.History.from_rounds(list(tables.values()) for tables in rounds.values())


@transaction.atomic
def create_round(*, tournament: Tournament) -> Round:
    """The next round, as a draft. The previous round must be published first."""
    last = tournament.rounds.order_by("-number").first()
    if last and last.status == Round.Status.DRAFT:
        raise UserError(_("Runde %(round)s ist noch ein Entwurf: erst veröffentlichen, dann die nächste "
                          "Runde anlegen.") % {"round": last.number})
    return Round.objects.create(tournament=tournament, number=(last.number + 1) if last else 1)


@transaction.atomic
def seat_round(*, round: Round, mode: str = Round.Mode.RANDOM, seed: str | None = None) -> draw.Draw:
    """Draws the tables of a draft round, replacing an earlier draw of it.

    Round 1 and mode "random": a random draw, reproducible from `seed` (a new one when empty), with
    as few repeat meetings and second tables of 5 as possible. Mode "standings": places 1–4 at
    table 1 and so on, from the standings after the previous round."""
    if not round.is_draft:
        raise UserError(_("Runde %(round)s ist veröffentlicht; ihre Tische stehen fest.") % {"round": round.number})
    tournament = round.tournament
    entries = playing_entries(tournament, round.number)
    history = history_before(tournament, round.number)
    try:
        if mode == Round.Mode.STANDINGS and round.number > 1:
            rank = {row.entry_id: i for i, row in enumerate(standings(tournament, up_to_round=round.number - 1))}
            ordered = sorted(entries, key=lambda e: (rank.get(e.id, len(rank)), e.start_number))
            result = draw.draw_by_standings([e.id for e in ordered], history=history)
            seed = ""
        else:
            mode = Round.Mode.RANDOM
            seed = (seed or "").strip() or secrets.token_hex(4)
            result = draw.draw_random([e.id for e in entries], seed=seed, history=history)
    except draw.SeatingImpossible as error:
        raise UserError(error.message("en" if (get_language() or "de").startswith("en") else "de")) from None
    place_tables(round=round, tables=[list(players) for players in result.tables])
    round.mode, round.seed = mode, seed
    round.save(update_fields=["mode", "seed"])
    return result


def _recount(round: Round) -> None:
    tables = {}
    for table_id, entry_id in round.tables.values_list("id", "seats__entry_id").order_by("number", "seats__position"):
        tables.setdefault(table_id, []).append(entry_id)
    meetings, five = draw.count_repeats(list(tables.values()), history_before(round.tournament, round.number))
    round.repeat_meetings, round.repeated_five = meetings, five
    round.save(update_fields=["repeat_meetings", "repeated_five"])


def _seat_of(round: Round, entry_id: int) -> Seat:
    try:
        return Seat.objects.select_related("table").get(round=round, entry_id=entry_id)
    except Seat.DoesNotExist:
        raise UserError(_("Dieser Spieler sitzt in Runde %(round)s an keinem Tisch.") % {"round": round.number}) from None


def _check_draft(round: Round):
    if not round.is_draft:
        raise UserError(_("Runde %(round)s ist veröffentlicht; Plätze können nicht mehr getauscht werden.")
                        % {"round": round.number})


@transaction.atomic
def swap_players(*, round: Round, first_id: int, second_id: int) -> None:
    """Two players change seats (and tables) before the round is published."""
    _check_draft(round)
    first, second = _seat_of(round, first_id), _seat_of(round, second_id)
    if first.pk == second.pk:
        return
    # the unique constraint on (round, entry) forbids a direct swap: park one seat first
    first.entry_id, second.entry_id = second.entry_id, first.entry_id
    Seat.objects.filter(pk=second.pk).delete()
    first.save(update_fields=["entry"])
    Seat.objects.create(table=second.table, round=round, position=second.position, entry_id=second.entry_id)
    _recount(round)


@transaction.atomic
def move_player(*, round: Round, entry_id: int, table_number: int) -> None:
    """Moves a player from a table of 5 to the last seat of a table of 4 (which becomes a table of 5)."""
    _check_draft(round)
    seat = _seat_of(round, entry_id)
    try:
        target = round.tables.get(number=table_number)
    except Table.DoesNotExist:
        raise UserError(_("Tisch %(table)s gibt es in dieser Runde nicht.") % {"table": table_number}) from None
    if target.pk == seat.table_id:
        return
    source_size, target_size = seat.table.seats.count(), target.seats.count()
    if source_size != 5 or target_size != 4:
        raise UserError(_("Verschieben geht nur von einem 5er- an einen 4er-Tisch, damit alle Tische 4 oder 5 "
                          "Spieler haben; sonst Plätze tauschen."))
    old_table = seat.table
    seat.delete()
    Seat.objects.create(table=target, round=round, position=5, entry_id=entry_id)
    for position, remaining in enumerate(old_table.seats.order_by("position"), start=1):
        if remaining.position != position:
            remaining.position = position
            remaining.save(update_fields=["position"])
    _recount(round)


@transaction.atomic
def publish_round(*, round: Round) -> None:
    _check_draft(round)
    if not round.tables.exists():
        raise UserError(_("Runde %(round)s hat noch keine Tische: erst auslosen.") % {"round": round.number})
    round.status = Round.Status.PUBLISHED
    round.save(update_fields=["status"])


@transaction.atomic
def close_round(*, round: Round) -> None:
    """Closes a published round; its results can then no longer change."""
    if round.status != Round.Status.PUBLISHED:
        raise UserError(_("Nur eine veröffentlichte Runde kann abgeschlossen werden."))
    round.status = Round.Status.CLOSED
    round.save(update_fields=["status"])


@transaction.atomic
def reopen_round(*, round: Round) -> None:
    if round.status != Round.Status.CLOSED:
        raise UserError(_("Die Runde ist nicht abgeschlossen."))
    round.status = Round.Status.PUBLISHED
    round.save(update_fields=["status"])


@transaction.atomic
def hide_results(*, round: Round) -> None:
    """Keeps the round's results off the public pages until they are announced."""
    round.results_hidden = True
    round.save(update_fields=["results_hidden"])


@transaction.atomic
def show_results(*, round: Round) -> None:
    """Announces the round's results: they count on the public pages."""
    round.results_hidden = False
    round.save(update_fields=["results_hidden"])


@transaction.atomic
def place_tables(*, round: Round, tables: list[list[int]], numbers: list[int] | None = None) -> None:
    """Seats a draft round as given instead of drawing it (an imported tournament): `tables` holds the
    entry ids of each table in seat order; the tables are numbered 1.. in order, or by `numbers`.
    Replaces an earlier seating and records the repeat counts as a draw does."""
    if not round.is_draft:
        raise UserError(_("Runde %(round)s ist veröffentlicht; ihre Tische stehen fest.") % {"round": round.number})
    numbers = list(numbers) if numbers is not None else list(range(1, len(tables) + 1))
    round.tables.all().delete()
    Table.objects.bulk_create(Table(round=round, number=number) for number in numbers)
    by_number = {table.number: table for table in round.tables.all()}
    Seat.objects.bulk_create(Seat(table=by_number[number], round=round, position=position, entry_id=entry_id)
                             for number, players in zip(numbers, tables)
                             for position, entry_id in enumerate(players, start=1))
    _recount(round)
