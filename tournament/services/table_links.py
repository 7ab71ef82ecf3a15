"""Tables enter their own results: each table of a published round has a secret entry link
(`Table.link_token`, printed as a QR code on the blank score sheet). Through it the players' phones
enter games, which wait as drafts (`DraftGame`) until they are confirmed as the tournament says
(`Tournament.confirmation`): at once, by a second player of the table on another device, or by the
director. Confirming saves the game through `results.save_game`, like any other entry. When every
player of the table has tapped "stimmt" for the complete sheet, it is signed and locked.

Every phone request carries a one-time key (a game sent twice over a bad connection is entered
once) and the phone's device id, which the change log records with the table and the time.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring

from .. import audit, dealing, engine
from ..audit import SYSTEM, Actor
from ..errors import Conflict, EntryProblems, UserError
from ..models import DraftGame, Entry, Game, Round, Table, Tournament
from . import results
from .locking import lock_round, lock_table, lock_tables

TOKEN_BYTES = 18  # 24 characters: unguessable, and short enough for a small QR code


class LinkClosed(UserError):
    """The link does not (or no longer) let anyone enter: `message` says why, for the players."""


# ---- the links -------------------------------------------------------------------------------------

def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def renew_links(*, round: Round, tables: list[int] | None = None, by: Actor = SYSTEM) -> int:
    """A new link for the given tables (numbers; all tables when None): the old link stops working."""
    return _set_links(round=round, tables=tables, renew=True, by=by)


def revoke_links(*, round: Round, tables: list[int] | None = None, by: Actor = SYSTEM) -> int:
    """The link of the given tables (all when None) stops working; the director can make a new one."""
    return _set_links(round=round, tables=tables, renew=False, by=by)


def _set_links(*, round: Round, tables: list[int] | None, renew: bool, by: Actor) -> int:
    with transaction.atomic():
        round = lock_round(round)
        if round.status != Round.Status.PUBLISHED:
            raise UserError(_("Eingabelinks gibt es nur für eine veröffentlichte, nicht abgeschlossene Runde."))
        chosen = [t for t in lock_tables(round) if tables is None or t.number in tables]
        action = "link_renewed" if renew else "link_revoked"
        with audit.recording(action, by=by, tournament=round.tournament_id):
            for table in chosen:
                table.link_token = new_token() if renew else None
                table.save(update_fields=["link_token"])
        return len(chosen)


def ensure_links(round: Round) -> None:
    """Every table of a published round has a link (made when the round is published, and for tables
    that never had one). Not recorded: nothing a person changed."""
    missing = list(round.tables.filter(link_token__isnull=True))
    for table in missing:
        Table.objects.filter(pk=table.pk, link_token__isnull=True).update(link_token=new_token())


def table_of_link(token: str) -> Table:
    """The table a link belongs to, if it lets the players enter; else LinkClosed saying why."""
    table = (Table.objects.select_related("round__tournament").filter(link_token=token).first()
             if token else None)
    if table is None:
        raise LinkClosed(_("Diesen Eingabelink gibt es nicht (mehr). Vielleicht hat die Turnierleitung einen neuen "
                           "erzeugt: bitte den QR-Code auf dem aktuellen Spielzettel scannen oder an der "
                           "Turnierleitung fragen."))
    check_open(table)
    return table


def check_open(table: Table) -> None:
    if table.round.status == Round.Status.CLOSED:
        raise LinkClosed(_("Runde %(round)s ist abgeschlossen; Ergebnisse werden nicht mehr angenommen.")
                         % {"round": table.round.number})
    if table.round.status != Round.Status.PUBLISHED:
        raise LinkClosed(_("Runde %(round)s ist noch nicht veröffentlicht.") % {"round": table.round.number})
    if table.is_locked:
        raise LinkClosed(_("Der Spielzettel von Tisch %(table)s ist unterschrieben und gesperrt. Änderungen nur "
                           "noch über die Turnierleitung.") % {"table": table.number})


# ---- who is at the phone --------------------------------------------------------------------------

def player_of(table: Table, player_id: int | None) -> Entry | None:
    """The table's player the phone says it is (None when it did not say, or names someone else)."""
    if not player_id:
        return None
    return Entry.objects.select_related("player").filter(pk=player_id, seats__table=table).first()


def link_actor(table: Table, player: Entry | None, device: str) -> Actor:
    """How the change log names an entry through the link: "Tisch 3 (Anna Becker)"."""
    label = _("Tisch %(table)s") % {"table": table.number}
    if player is not None:
        label += f" ({player.player.name})"
    return Actor(label=label, device=device[:64])


# ---- entering a game ------------------------------------------------------------------------------

def enter_game(*, token: str, number: int, data: dict, key: str, device: str, player_id: int | None = None
               ) -> DraftGame:
    """A game entered on a phone: checked by the engine like any entry, then a draft (or, when the
    tournament confirms at once, the game itself). The same key sent again returns the first draft.
    The identical game entered on another device by another player of the table confirms it."""
    key, device = (key or "")[:64], (device or "")[:64]
    if not key or not device:
        raise UserError(_("Die Eingabe kam ohne Schlüssel oder Gerät an; bitte die Seite neu laden."))
    with transaction.atomic():
        table = lock_table(table_of_link(token))
        earlier = DraftGame.objects.filter(key=key).first()
        if earlier is not None:
            if earlier.table_id != table.pk:
                raise UserError(_("Diese Eingabe gehört zu einem anderen Tisch."))
            return earlier
        check_open(table)
        results.check_editable(table)
        if table.totals_only:
            raise UserError(_("Für Tisch %(table)s wurden nur Endstände eingetragen.") % {"table": table.number})
        entries = results.seat_entries(table)
        results.check_number(table, number, len(entries))
        first_free = results.next_game_number(table)
        if number > first_free and not table.games.filter(number=number).exists():
            raise UserError(_("Spiele werden der Reihe nach eingetragen: erst Spiel %(first)s, dann "
                              "Spiel %(number)s.") % {"first": first_free, "number": number})
        rule = dealing.list_rule(table.round.tournament, len(entries))
        games = results.entered_games(table) if rule else {}
        deal = dealing.deal_of(entries, number, rule=rule, games=games)
        try:
            checked = engine.checked(results.with_mark(data, deal, rule), deal.players,
                                     table.round.tournament.scoring_rules())
        except scoring.InvalidInput as error:
            raise EntryProblems(error.problems) from None
        games[number] = dealing.entered(checked["type"], checked["re"], checked["pflichtsolo"])
        results.check_list(table, entries, rule, games, number)
        player = player_of(table, player_id)
        by = link_actor(table, player, device)
        existing = table.games.filter(number=number).first()
        base = {"base_version": existing.version if existing is not None else 0}
        same = _waiting_same(table, number, checked)
        second_player = table.round.tournament.confirmation == Tournament.Confirmation.SECOND_PLAYER
        if (second_player and same is not None and same.device != device
                and (player is None or same.entered_by_id != player.pk)):
            # a second player entered the same game on their phone: that confirms it
            with audit.recording("draft_entered", by=by, tournament=table.round.tournament_id):
                draft = DraftGame.objects.create(table=table, number=number, data=checked, key=key, device=device,
                                                 entered_by=player, **base)
            _confirm(table, same, by=by)
            _decide(draft, DraftGame.Status.CONFIRMED, by=by, reason=_("dasselbe Spiel wie eine andere Eingabe"),
                    game=same.game)
            return draft
        with audit.recording("draft_entered", by=by, tournament=table.round.tournament_id):
            draft = DraftGame.objects.create(table=table, number=number, data=checked, key=key, device=device,
                                             entered_by=player, **base)
        if table.round.tournament.confirmation == Tournament.Confirmation.IMMEDIATE:
            _confirm(table, draft, by=by)
        return draft


def _waiting_same(table: Table, number: int, data: dict) -> DraftGame | None:
    for draft in table.drafts.filter(number=number, status=DraftGame.Status.WAITING):
        if engine.model_fields(draft.data) == engine.model_fields(data):
            return draft
    return None


def _confirm(table: Table, draft: DraftGame, *, by: Actor) -> Game:
    """Saves the draft as the game (inside the caller's lock and transaction) and marks it confirmed.
    A draft for a game number that got a game meanwhile is a conflict the director sorts out."""
    try:
        game = results.save_game(table=table, number=draft.number, data=draft.data, version=draft.base_version,
                                 by=by, action="draft_confirmed")
    except Conflict:
        raise UserError(_("Spiel %(number)s wurde inzwischen anders eingetragen. Die Turnierleitung entscheidet, "
                          "welche Fassung gilt.") % {"number": draft.number}) from None
    _decide(draft, DraftGame.Status.CONFIRMED, by=by, game=game)
    return game


def _decide(draft: DraftGame, status: str, *, by: Actor, reason: str = "", game: Game | None = None) -> None:
    action = "draft_confirmed" if status == DraftGame.Status.CONFIRMED else "draft_rejected"
    with audit.recording(action, by=by, tournament=draft.table.round.tournament_id):
        draft.status = status
        draft.decided_at = timezone.now()
        draft.decided_by = by.name
        draft.decided_device = by.device
        draft.reason = reason[:200]
        draft.game = game
        draft.save()


# ---- confirming and rejecting ---------------------------------------------------------------------

def decide_on_link(*, token: str, draft_id: int, confirm: bool, device: str, player_id: int | None = None,
                   reason: str = "") -> DraftGame:
    """A second player of the table confirms or rejects a draft on their own phone: not the device
    (nor the player) that entered it. Only when the tournament lets the table confirm."""
    device = (device or "")[:64]
    with transaction.atomic():
        table = lock_table(table_of_link(token))
        draft = table.drafts.filter(pk=draft_id).first()
        if draft is None:
            raise UserError(_("Diese Eingabe gibt es an diesem Tisch nicht."))
        if draft.status != DraftGame.Status.WAITING:
            return draft  # decided already (sent twice, or by someone else): nothing more to do
        if table.round.tournament.confirmation != Tournament.Confirmation.SECOND_PLAYER:
            raise UserError(_("Bei diesem Turnier bestätigt die Turnierleitung die Eingaben vom Tisch."))
        player = player_of(table, player_id)
        if not device or device == draft.device or (player is not None and player.pk == draft.entered_by_id):
            raise UserError(_("Die eigene Eingabe kann man nicht selbst bestätigen: ein anderer Spieler des Tisches "
                              "bestätigt sie auf seinem Gerät."))
        by = link_actor(table, player, device)
        if confirm:
            _confirm(table, draft, by=by)
        else:
            _decide(draft, DraftGame.Status.REJECTED, by=by, reason=reason or _("am Tisch abgelehnt"))
        return draft


def decide_as_director(*, table: Table, draft_id: int, confirm: bool, by: Actor, reason: str = "") -> DraftGame:
    """The director (or a helper) confirms or rejects a draft, in every confirmation mode."""
    with transaction.atomic():
        table = lock_table(table)
        draft = table.drafts.filter(pk=draft_id).first()
        if draft is None:
            raise UserError(_("Diese Eingabe gibt es an diesem Tisch nicht."))
        if draft.status != DraftGame.Status.WAITING:
            return draft
        results.check_editable(table)
        if confirm:
            _confirm(table, draft, by=by)
        else:
            _decide(draft, DraftGame.Status.REJECTED, by=by, reason=reason or _("von der Turnierleitung abgelehnt"))
        return draft


# ---- "stimmt": the table signs on the phones ------------------------------------------------------

def approve_sheet(*, token: str, device: str, player_id: int | None, version: int) -> Table:
    """A player taps "stimmt" for the sheet as shown (`version`). When every player of the table has
    done so for the complete sheet (every game entered, nothing waiting), it is signed and locked."""
    with transaction.atomic():
        table = lock_table(table_of_link(token))
        player = player_of(table, player_id)
        if player is None:
            raise UserError(_("Bitte zuerst oben wählen, wer du bist: jeder Spieler tippt auf seinem Gerät "
                              "„stimmt“."))
        if version != table.version:
            raise Conflict(_("Der Spielzettel hat sich geändert, seit er angezeigt wurde: bitte noch einmal "
                             "ansehen."), current=table, version=table.version)
        by = link_actor(table, player, device)
        if (table.approvals or {}).get(str(player.pk)) != table.version:
            with audit.recording("sheet_approved", by=by, tournament=table.round.tournament_id):
                table.approvals = {**(table.approvals or {}), str(player.pk): table.version}
                table.save(update_fields=["approvals"])
        if sheet_complete(table) and all(table.approvals.get(str(e)) == table.version
                                         for e in results.seat_entries(table)):
            results.sign_table(table=table, version=table.version, note=_("auf den Handys: alle „stimmt“"),
                               by=Actor(label=_("Tisch %(table)s (alle Spieler)") % {"table": table.number},
                                        device=device[:64]))
            table.refresh_from_db()
        return table


def sheet_complete(table: Table) -> bool:
    """Every game of the table entered (or its totals), and no entry still waiting."""
    if table.drafts.filter(status=DraftGame.Status.WAITING).exists():
        return False
    if table.totals_only:
        return True
    expected = table.expected_games(table.round.tournament.games_at_table(len(results.seat_entries(table))))
    return table.games.count() >= expected
