"""Rounds and seating: creating a round, drawing its tables, swapping and moving players before it is
published, publishing, closing and reopening it, hiding its results. The draw itself is
`seating.draw` (pure Python).

Every change locks the round (`locking.lock_round`), checks the version the director's page was
loaded from (`errors.Conflict` when another change came first), and records itself
(`audit.recording`) with a snapshot of the whole seating. An action whose goal is already reached
(publishing a published round, a double click) changes nothing and is not an error; a draw, a swap
or a move sent twice is recognised by its one-time key and carried out once.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

import seating

from ..errors import Conflict, UserError, language
from ..log import audit, changelog
from ..log.audit import SYSTEM, Actor
from ..models import Entry, RequestKey, Round, Seat, Table, Tournament
from ..selectors import standings
from ..selectors.teams import match_teams, team_pairs
from . import table_links
from .backups import backup_after_commit
from .editing import seen_key
from .locking import lock_round, lock_tables, lock_tournament


def playing_entries(tournament: Tournament, round_number: int) -> list[Entry]:
    """Who is seated in this round: joined by then and not withdrawn, by start number; once the
    check-in is in use (anyone marked present), only those present (docs/tournament.md)."""
    entries = list(tournament.entries.select_related("player").order_by("start_number"))
    checkin = any(e.present for e in entries)
    return [e for e in entries if e.plays_in(round_number) and (e.present or not checkin)]


def history_before(tournament: Tournament, round_number: int) -> seating.History:
    """Who met whom, and who sat at a table of 5, in the rounds before this one."""
    seats = (Seat.objects.filter(round__tournament=tournament, round__number__lt=round_number)
             .order_by("round__number", "table__number", "position").values_list("round_id", "table_id", "entry_id"))
    rounds: dict[int, dict[int, list[int]]] = {}
    for round_id, table_id, entry_id in seats:
        rounds.setdefault(round_id, {}).setdefault(table_id, []).append(entry_id)
    return seating.History.from_rounds(list(tables.values()) for tables in rounds.values())


def _check_version(round: Round, version: int | None) -> None:
    if version is not None and version != round.version:
        raise Conflict(_("Runde %(round)s wurde inzwischen geändert.") % {"round": round.number},
                       current=round, version=round.version, change=changelog.latest_for_round(round))


def _check_draft(round: Round) -> None:
    if not round.is_draft:
        raise UserError(_("Runde %(round)s ist veröffentlicht; ihre Tische stehen fest.") % {"round": round.number})


def _remember(key: str | None, round: Round) -> None:
    if key:
        RequestKey.objects.create(key=key, tournament_id=round.tournament_id, result={"round": round.number})


def _saved(round: Round) -> None:
    """Saves the round once per action, with its version counted up: one log record per action."""
    round.version += 1
    round.save()


ROUND_STATE = ("status", "mode", "seed", "results_hidden", "repeat_meetings", "repeated_five", "version")


def _sync(given: Round, fresh: Round) -> None:
    """The caller's round object says what the locked, changed one says (no stale status after)."""
    for name in ROUND_STATE:
        setattr(given, name, getattr(fresh, name))


def create_round(*, tournament: Tournament, number: int | None = None, by: Actor = SYSTEM) -> Round:
    """The next round, as a draft. `number` is the round the director's page offered to create;
    when it exists already (the button pressed twice, or by two people), that round is returned and
    nothing is created. The previous round must be published first."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        last = tournament.rounds.order_by("-number").first()
        if number is not None and last is not None and 1 <= number <= last.number:
            return tournament.rounds.get(number=number)
        if last and last.status == Round.Status.DRAFT:
            raise UserError(_("Runde %(round)s ist noch ein Entwurf: erst veröffentlichen, dann die nächste "
                              "Runde anlegen.") % {"round": last.number})
        next_number = (last.number + 1) if last else 1
        if number is not None and number != next_number:
            raise UserError(_("Als Nächstes kommt Runde %(round)s.") % {"round": next_number})
        with audit.recording("round_created", by=by, tournament=tournament):
            return Round.objects.create(tournament=tournament, number=next_number)


def seat_round(*, round: Round, mode: str = Round.Mode.RANDOM, seed: str | None = None, version: int | None = None,
               by: Actor = SYSTEM, key: str | None = None, separate_clubs: bool = False,
               apart: list[tuple[int, int]] | tuple[tuple[int, int], ...] = ()) -> seating.Draw:
    """Draws the tables of a draft round, replacing an earlier draw of it.

    Round 1 and mode "random": a random draw, reproducible from `seed` (a new one when empty), with
    as few repeat meetings and second tables of 5 as possible; when all `tournament.rounds_planned`
    rounds can be played without repeats, it follows such a schedule while the earlier rounds did
    (docs/seating.md). Mode
    "standings": places 1–4 at table 1 and so on, from the standings after the previous round.
    `separate_clubs`: players of one club at different tables in round 1 as far as possible;
    `apart`: pairs of entry ids never at one table when avoidable (both: mode "random" only); with
    the tournament's `teams_apart`, every pair of members of one team too. A team match
    (`tournament.team_match`) seats one player of each team at every table instead, whatever the mode
    (`seating.team_match`; refused with the reason when the teams do not fit).

    The draw is computed before the round is locked (a large one takes a moment and should not hold
    up other writers); the version check then makes sure nobody changed the round meanwhile."""
    _check_draft(round)
    tournament = round.tournament
    entries = playing_entries(tournament, round.number)
    history = history_before(tournament, round.number)
    try:
        if tournament.team_match:  # one of each team at every table (docs/competitions.md)
            teams = match_teams(tournament, [(e.id, e.player.name) for e in entries])
            if teams.problem:
                raise UserError(teams.problem)
            mode, seed = Round.Mode.RANDOM, (seed or "").strip() or secrets.token_hex(4)
            result = seating.team_match_round([list(ids) for _name, ids in teams.teams],
                                              round_index=round.number - 1, history=history, seed=seed)
        elif mode == Round.Mode.STANDINGS and round.number > 1:
            rank = {row.entry_id: i for i, row in enumerate(standings(tournament, up_to_round=round.number - 1))}
            ordered = sorted(entries, key=lambda e: (rank.get(e.id, len(rank)), e.start_number))
            result = seating.draw_by_standings([e.id for e in ordered], history=history)
            seed = ""
        else:
            mode = Round.Mode.RANDOM
            seed = (seed or "").strip() or secrets.token_hex(4)
            clubs = {e.id: e.player.club for e in entries} if separate_clubs else None
            if tournament.teams_apart:  # members of a team at different tables (docs/competitions.md)
                apart = [*apart, *team_pairs(tournament)]
            result = seating.draw_random([e.id for e in entries], seed=seed, history=history,
                                      rounds_planned=tournament.rounds_planned, clubs=clubs, apart=apart)
    except seating.SeatingImpossible as error:
        raise UserError(error.message(language())) from None
    with transaction.atomic():
        locked = lock_round(round)
        if seen_key(key) is not None:
            return result
        _check_draft(locked)
        _check_version(locked, version)
        with audit.recording("round_drawn", by=by, tournament=locked.tournament_id):
            _place(locked, [[int(p) for p in players] for players in result.tables])  # type: ignore[call-overload]
            locked.mode, locked.seed = mode, seed
            _remember(key, locked)
            _saved(locked)
    _sync(round, locked)
    return result


def _recount(round: Round) -> None:
    """The round's repeat meetings and second tables of 5, from its seating (saved by the caller)."""
    tables: dict[int, list[int]] = {}
    for table_id, entry_id in round.tables.values_list("id", "seats__entry_id").order_by("number", "seats__position"):
        tables.setdefault(table_id, []).append(entry_id)
    meetings, five = seating.count_repeats(list(tables.values()), history_before(round.tournament, round.number))
    round.repeat_meetings, round.repeated_five = meetings, five


def _seat_of(round: Round, entry_id: int) -> Seat:
    try:
        return Seat.objects.select_related("table").get(round=round, entry_id=entry_id)
    except Seat.DoesNotExist:
        raise UserError(_("Dieser Spieler sitzt in Runde %(round)s an keinem Tisch.")
                        % {"round": round.number}) from None


def swap_players(*, round: Round, first_id: int, second_id: int, version: int | None = None, by: Actor = SYSTEM,
                 key: str | None = None) -> None:
    """Two players change seats (and tables) before the round is published."""
    given = round
    with transaction.atomic():
        round = lock_round(round)
        if seen_key(key) is not None:
            return
        _check_draft(round)
        _check_version(round, version)
        first, second = _seat_of(round, first_id), _seat_of(round, second_id)
        if first.pk == second.pk:
            return
        with audit.recording("seats_swapped", by=by, tournament=round.tournament_id):
            # the unique constraint on (round, entry) forbids a direct swap: park one seat first
            first.entry_id, second.entry_id = second.entry_id, first.entry_id
            Seat.objects.filter(pk=second.pk).delete()
            first.save(update_fields=["entry"])
            Seat.objects.create(table=second.table, round=round, position=second.position, entry_id=second.entry_id)
            _recount(round)
            _remember(key, round)
            _saved(round)
    _sync(given, round)


def move_player(*, round: Round, entry_id: int, table_number: int, version: int | None = None, by: Actor = SYSTEM,
                key: str | None = None) -> None:
    """Moves a player from a table of 5 to the last seat of a table of 4 (which becomes a table of 5)."""
    given = round
    with transaction.atomic():
        round = lock_round(round)
        if seen_key(key) is not None:
            return
        _check_draft(round)
        _check_version(round, version)
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
        with audit.recording("player_moved", by=by, tournament=round.tournament_id):
            old_table = seat.table
            seat.delete()
            Seat.objects.create(table=target, round=round, position=5, entry_id=entry_id)
            for position, remaining in enumerate(old_table.seats.order_by("position"), start=1):
                if remaining.position != position:
                    remaining.position = position
                    remaining.save(update_fields=["position"])
            _recount(round)
            _remember(key, round)
            _saved(round)
    _sync(given, round)


def _change_status(round: Round, *, version: int | None, by: Actor, action: str, goal_reached, check, change,
                   lock_all_tables: bool = False) -> Round:
    """The frame of every status action: lock, nothing to do when the goal is reached already, check
    the state and the version, change, record."""
    with transaction.atomic():
        locked = lock_round(round)
        if not goal_reached(locked):
            check(locked)
            _check_version(locked, version)
            if lock_all_tables:  # wait for every table's writer to finish first
                lock_tables(locked)
            with audit.recording(action, by=by, tournament=locked.tournament_id):
                change(locked)
                _saved(locked)
    _sync(round, locked)
    return locked


def publish_round(*, round: Round, version: int | None = None, by: Actor = SYSTEM) -> None:
    def check(r: Round):
        _check_draft(r)
        if not r.tables.exists():
            raise UserError(_("Runde %(round)s hat noch keine Tische: erst auslosen.") % {"round": r.number})

    def change(r: Round):
        r.status = Round.Status.PUBLISHED
        table_links.ensure_links(r)  # each table gets its entry link for the players' phones

    _change_status(round, version=version, by=by, action="round_published",
                   goal_reached=lambda r: r.status == Round.Status.PUBLISHED, check=check, change=change)


def close_round(*, round: Round, version: int | None = None, by: Actor = SYSTEM, backup: bool = True) -> None:
    """Closes a published round; its results can then no longer change. A backup of the whole
    tournament is written once the closing is committed (`backups.backup_after_commit`)."""
    def check(r: Round):
        if r.status != Round.Status.PUBLISHED:
            raise UserError(_("Nur eine veröffentlichte Runde kann abgeschlossen werden."))

    def change(r: Round):
        r.status = Round.Status.CLOSED

    closed = _change_status(round, version=version, by=by, action="round_closed",
                            goal_reached=lambda r: r.status == Round.Status.CLOSED, check=check, change=change,
                            lock_all_tables=True)
    if backup:
        backup_after_commit(closed.tournament, reason=f"runde-{closed.number}-abgeschlossen")


def reopen_round(*, round: Round, version: int | None = None, by: Actor = SYSTEM) -> None:
    """Opens a closed round again. Every table gets a new entry link (the old ones, and a photo of an
    old QR code, stay invalid), so the director prints or shows the new codes (docs/tournament.md)."""
    def check(r: Round):
        if r.status != Round.Status.CLOSED:
            raise UserError(_("Die Runde ist nicht abgeschlossen."))
        later = r.tournament.rounds.filter(number__gt=r.number).exclude(status=Round.Status.DRAFT).first()
        if later is not None:
            raise UserError(_("Runde %(later)s ist schon veröffentlicht; Runde %(round)s kann nicht wieder geöffnet "
                              "werden.") % {"later": later.number, "round": r.number})

    def change(r: Round):
        r.status = Round.Status.PUBLISHED
        for table in r.tables.all():  # locked: lock_all_tables
            table.link_token = table_links.new_token()
            table.save(update_fields=["link_token"])

    _change_status(round, version=version, by=by, action="round_reopened",
                   goal_reached=lambda r: r.status == Round.Status.PUBLISHED, check=check, change=change,
                   lock_all_tables=True)


def _check_has_results(round: Round) -> None:
    if round.is_draft:
        raise UserError(_("Runde %(round)s ist noch ein Entwurf und hat keine Ergebnisse.") % {"round": round.number})


def hide_results(*, round: Round, version: int | None = None, by: Actor = SYSTEM) -> None:
    """Keeps the round's results off the public pages until they are announced."""
    def change(r: Round):
        r.results_hidden = True

    _change_status(round, version=version, by=by, action="results_hidden",
                   goal_reached=lambda r: r.results_hidden, check=_check_has_results, change=change)


def show_results(*, round: Round, version: int | None = None, by: Actor = SYSTEM) -> None:
    """Announces the round's results: they count on the public pages."""
    def change(r: Round):
        r.results_hidden = False

    _change_status(round, version=version, by=by, action="results_shown",
                   goal_reached=lambda r: not r.results_hidden, check=_check_has_results, change=change)


def place_tables(*, round: Round, tables: list[list[int]], numbers: list[int] | None = None,
                 mode: str = Round.Mode.RANDOM, seed: str = "", links: list[str | None] | None = None,
                 by: Actor = SYSTEM) -> None:
    """Seats a draft round as given instead of drawing it (an imported tournament): `tables` holds the
    entry ids of each table in seat order; the tables are numbered 1.. in order, or by `numbers`;
    `links` their entry links as a backup holds them (one missing, or another table's already: a new
    one). Replaces an earlier seating and records the repeat counts as a draw does."""
    with transaction.atomic():
        locked = lock_round(round)
        _check_draft(locked)
        with audit.recording("round_seated", by=by, tournament=locked.tournament_id):
            _place(locked, tables, numbers, links)
            locked.mode, locked.seed = mode, seed
            _saved(locked)
    _sync(round, locked)


def _place(round: Round, tables: list[list[int]], numbers: list[int] | None = None,
           links: list[str | None] | None = None) -> None:
    audit.require("seating._place")  # (bulk_create: no signals)
    numbers = list(numbers) if numbers is not None else list(range(1, len(tables) + 1))
    round.tables.all().delete()
    # each table's entry link is made with it (it opens once the round is published: `table_links.check_open`),
    # not by one UPDATE a table when the round is published
    taken = set(Table.objects.filter(link_token__in=[link for link in links or [] if link])
                .values_list("link_token", flat=True))
    tokens = []
    for link in links or [None] * len(numbers):
        tokens.append(link if link and link not in taken else table_links.new_token())
        taken.add(tokens[-1])
    Table.objects.bulk_create(Table(round=round, number=number, link_token=token)
                              for number, token in zip(numbers, tokens, strict=True))
    by_number = {table.number: table for table in round.tables.all()}
    Seat.objects.bulk_create(Seat(table=by_number[number], round=round, position=position, entry_id=entry_id)
                             for number, players in zip(numbers, tables, strict=True)
                             for position, entry_id in enumerate(players, start=1))
    audit.require("seating._place").forget_seats()
    _recount(round)


def next_round_number(tournament: Tournament) -> int:
    return (tournament.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
