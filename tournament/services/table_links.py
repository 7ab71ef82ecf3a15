"""Tables enter their own results: each table of a published round has a secret entry link
(`Table.link_token`, printed as a QR code on the blank score sheet). Through it the players' phones
enter games, which wait as drafts (`DraftGame`) until they are confirmed as the tournament says
(`Tournament.confirmation`): at once, by a second player of the table on another device, or by the
director. Confirming saves the game through `results.save_game`, like any other entry. When every
player of the table has tapped "stimmt" for the complete sheet, it is signed and locked.

Every phone request carries a one-time key (a game sent twice over a bad connection is entered
once) and the version of the game the phone saw (0: a new game). Who the device is, the server says
(a signed cookie, `views.table_link`), not the phone's JSON: the change log records it with the table
and the time, and a device cannot confirm its own entry.

Nothing from a phone replaces a stored game silently: an entry made against an older version of a
game (the director or another phone stored it meanwhile) waits as a conflict, which the director
resolves on the board (keep the stored game, or take the table's). The waiting entries are bounded
per game and per device (`MOST_WAITING_PER_GAME`, one per device and game) and per table.

Every write that adds an entry or decides one counts the table's waiting entries again in the same
transaction (`count_drafts`: `Table.drafts_waiting`, which the pages read).
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from seating import dealing

from .. import engine
from ..errors import Conflict, EntryProblems, UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import DraftGame, Entry, Game, Round, Table, Tournament
from ..models.games import drafts_waiting
from . import editing, penalties, results, sheet_state
from .locking import lock_round, lock_table, lock_tables

TOKEN_BYTES = 18  # 24 characters: unguessable, and short enough for a small QR code
MOST_WAITING_PER_GAME = 5  # entries waiting for one game: one per player of a table of 5
MOST_ENTRIES_PER_TABLE = 200  # every entry a table's link ever made, in any state


class LinkClosed(UserError):
    """The link does not (or no longer) let anyone enter: `message` says why, for the players."""


# ---- the links -------------------------------------------------------------------------------------

def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def renew_links(*, round: Round, tables: list[int] | None = None, by: Actor = SYSTEM) -> int:
    """A new link for the given tables (numbers; all tables when None): the old link stops working."""
    return _set_links(round=round, tables=tables, renew=True, by=by)


def revoke_links(*, round: Round, tables: list[int] | None = None, by: Actor = SYSTEM) -> int:
    """The link of the given tables (all when None) stops working; the director can make a new one (in a
    round not yet published the table gets a new one when the round is published: `ensure_links`)."""
    return _set_links(round=round, tables=tables, renew=False, by=by)


def _set_links(*, round: Round, tables: list[int] | None, renew: bool, by: Actor) -> int:
    with transaction.atomic():
        round = lock_round(round)
        if round.status == Round.Status.CLOSED:  # (a drawn round's tables have their links already)
            raise UserError(_("Runde %(round)s ist abgeschlossen: ihre Eingabelinks lassen sich nicht mehr ändern.")
                            % {"round": round.number})
        chosen = [t for t in lock_tables(round) if tables is None or t.number in tables]
        action = "link_renewed" if renew else "link_revoked"
        with audit.recording(action, by=by, tournament=round.tournament_id):
            for table in chosen:
                table.link_token = new_token() if renew else None
                table.save(update_fields=["link_token"])
        return len(chosen)


def ensure_links(round: Round) -> None:
    """Every table of a published round has a link: made with the table (`seating._place`), here for a
    table that has none when its round is published (one placed before tables had their link from the
    start). No record of its own (nothing a person changed): inside the recording of the publication."""
    audit.require("table_links.ensure_links")
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

def enter_game(*, token: str, number: int, data: dict, key: str, device: str, player_id: int | None = None,
               version: int = 0, penalty: dict | None = None) -> DraftGame:
    """A game entered on a phone: checked by the engine like any entry, then a draft (or, when the
    tournament confirms at once, the game itself). `version` is the version of the game the phone
    saw (0: a new game); when the game is stored in another version by now, the draft waits as a
    conflict for the director, whatever the confirmation mode. The same key sent again returns the
    first draft. The identical game entered on another device by another player of the table
    confirms it. `penalty` ({"offender", "note"}): a penalty in this game, entered with it and
    confirmed with it (`penalties.add_penalty` in the same change)."""
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
        entries = engine.seat_entries(table)
        editing.check_entry(table, len(entries), number)  # the director's form checks the same
        existing = table.games.filter(number=number).first()
        editing.check_in_order(table, number, existing)
        rule = table.round.tournament.list_rule(len(entries))
        games = engine.entered_games(table) if rule else {}
        deal = dealing.deal_of(entries, number, rule=rule, games=games)
        try:
            checked = engine.checked(engine.with_mark(data, deal, rule), deal.players,
                                     table.round.tournament.scoring_rules())
        except scoring.InvalidInput as error:
            raise EntryProblems(error.problems) from None
        games[number] = dealing.entered(checked["type"], checked["re"], checked["pflichtsolo"])
        results.check_list(table, entries, rule, games, number)
        if penalty is not None:
            if penalty["offender"] not in deal.players:
                raise UserError(_("Strafe: der Spieler hat Spiel %(number)s nicht mitgespielt.") % {"number": number},
                                field="penalty")
            checked = {**checked, "penalty": {"offender": penalty["offender"], "note": penalty.get("note") or ""}}
        _check_bounds(table, number, device)
        player = player_of(table, player_id)
        by = link_actor(table, player, device)
        with audit.recording("draft_entered", by=by, tournament=table.round.tournament_id, table=table):  # one change
            _settle_rejected(table, number, by=by)
            if existing is not None and penalty is None and all(getattr(existing, name) == value
                                            for name, value in engine.model_fields(checked).items()):
                # the game is stored just so already (entered twice, or by the director): nothing to decide
                draft = _new_draft(table=table, number=number, data=checked, key=key, device=device,
                                   entered_by=player, base_version=existing.version)
                _decide(draft, DraftGame.Status.CONFIRMED, by=by, reason=_("schon so eingetragen"), game=existing)
                return draft
            current = existing.version if existing is not None else 0
            draft = _new_draft(table=table, number=number, data=checked, key=key, device=device,
                               entered_by=player, base_version=version)
            if version != current:
                return draft  # stored meanwhile in another version: a conflict the director resolves on the board
            mode = table.round.tournament.confirmation
            same = _waiting_same(table, number, checked, but=draft)
            if (mode == Tournament.Confirmation.SECOND_PLAYER and same is not None and same.device != device
                    and (player is None or same.entered_by_id != player.pk) and same.base_version == current):
                # a second player entered the same game on their phone: that confirms it
                _confirm(table, same, by=by)
                _decide(draft, DraftGame.Status.CONFIRMED, by=by, reason=_("dasselbe Spiel wie eine andere Eingabe"),
                        game=same.game)
            elif mode == Tournament.Confirmation.IMMEDIATE:
                _confirm(table, draft, by=by)
            return draft


def _new_draft(*, table: Table, **fields) -> DraftGame:
    """A waiting entry at the table, counted (inside the caller's recording)."""
    draft = DraftGame.objects.create(table=table, **fields)
    count_drafts(table.pk)
    return draft


def count_drafts(table_id: int) -> None:
    """The table's entries waiting for confirmation counted again into `Table.drafts_waiting` (one
    UPDATE): a step of every write that adds an entry or decides one, inside its recording."""
    audit.require("table_links.count_drafts")
    Table.objects.filter(pk=table_id).update(drafts_waiting=drafts_waiting())


def _check_bounds(table: Table, number: int, device: str) -> None:
    """A link may not fill the database: one waiting entry per device and game, a few per game, a
    bounded number per table."""
    waiting = list(table.drafts.filter(number=number, status=DraftGame.Status.WAITING).values_list("device", flat=True))
    if device in waiting:
        raise UserError(_("Deine Eingabe für Spiel %(number)s wartet schon auf Bestätigung. Eine andere Fassung "
                          "geht erst, wenn sie bestätigt oder abgelehnt ist.") % {"number": number})
    if len(waiting) >= MOST_WAITING_PER_GAME:
        raise UserError(_("Für Spiel %(number)s warten schon %(n)s Eingaben. Bitte erst bestätigen oder ablehnen, "
                          "oder die Turnierleitung fragen.") % {"number": number, "n": len(waiting)})
    if table.drafts.count() >= MOST_ENTRIES_PER_TABLE:
        raise UserError(_("An diesem Tisch wurde schon sehr oft eingegeben. Bitte die übrigen Spiele der "
                          "Turnierleitung geben."))


def _settle_rejected(table: Table, number: int, *, by: Actor) -> None:
    """A new entry for a game settles the rejected entries for it: they leave the phones and the board."""
    for draft in table.drafts.filter(number=number, status=DraftGame.Status.REJECTED):
        with audit.recording("draft_settled", by=by, tournament=table.round.tournament_id, table=table):
            draft.status = DraftGame.Status.SETTLED
            draft.save(update_fields=["status"])


def _waiting_same(table: Table, number: int, data: dict, *, but: DraftGame) -> DraftGame | None:
    for draft in table.drafts.filter(number=number, status=DraftGame.Status.WAITING).exclude(pk=but.pk):
        if (engine.model_fields(draft.data) == engine.model_fields(data)
                and draft.data.get("penalty") == data.get("penalty")):
            return draft
    return None


def _confirm(table: Table, draft: DraftGame, *, by: Actor) -> Game:
    """Saves the draft as the game (inside the caller's lock and transaction) and marks it confirmed,
    as one change. A draft for a game number that got a game meanwhile is a conflict the director
    sorts out."""
    with audit.recording("draft_confirmed", by=by, tournament=table.round.tournament_id, table=table):
        try:
            game = results.save_game(table=table, number=draft.number, data=draft.data, version=draft.base_version,
                                     by=by, action="draft_confirmed")
        except Conflict:
            raise UserError(_("Spiel %(number)s wurde inzwischen anders eingetragen. Die Turnierleitung "
                              "entscheidet, welche Fassung gilt.") % {"number": draft.number}) from None
        penalty = draft.data.get("penalty")
        if penalty:  # the penalty entered with the game counts with it
            penalties.add_penalty(table=table, offender_id=penalty["offender"], game_number=draft.number,
                                note=penalty.get("note") or _("am Tisch eingetragen"), by=by)
        _decide(draft, DraftGame.Status.CONFIRMED, by=by, game=game)
    return game


def _decide(draft: DraftGame, status: str, *, by: Actor, reason: str = "", game: Game | None = None) -> None:
    action = "draft_confirmed" if status == DraftGame.Status.CONFIRMED else "draft_rejected"
    with audit.recording(action, by=by, tournament=draft.table.round.tournament_id, table=draft.table_id):
        draft.status = status
        draft.decided_at = timezone.now()
        draft.decided_by = by.name
        draft.decided_device = by.device
        draft.reason = reason[:200]
        draft.game = game
        draft.save()
        count_drafts(draft.table_id)


def pending_games(table: Table, sent: dict[int, dict]) -> dict[int, dict]:
    """The games before a preview that are not stored yet, by number: the entries waiting at the table
    (the first of each game) and what the phone still holds in its queue (`sent`, unchecked: a game
    the engine refuses is left out)."""
    pending: dict[int, dict] = {}
    for draft in table.drafts.filter(status=DraftGame.Status.WAITING).order_by("-created_at"):
        pending[draft.number] = draft.data
    entries = engine.seat_entries(table)
    rules = table.round.tournament.scoring_rules()
    for number, data in sent.items():
        if number in pending or not 1 <= number <= 99:
            continue
        try:
            pending[number] = engine.checked(data, engine.game_deal(table, entries, number).players, rules)
        except (scoring.InvalidInput, UserError):
            continue
    return pending


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


def decide_as_director(*, table: Table, draft_id: int, confirm: bool, by: Actor, reason: str = "",
                       take: bool = False) -> DraftGame:
    """The director (or a helper) confirms or rejects a draft, in every confirmation mode. A draft in
    conflict (its game was stored in another version meanwhile) is confirmed only with `take`: the
    table's version replaces the stored one, knowingly; rejecting it keeps the stored game."""
    with transaction.atomic():
        table = lock_table(table)
        draft = table.drafts.filter(pk=draft_id).first()
        if draft is None:
            raise UserError(_("Diese Eingabe gibt es an diesem Tisch nicht."))
        if draft.status != DraftGame.Status.WAITING:
            return draft
        editing.check_editable(table)
        if confirm and take:
            stored = table.games.filter(number=draft.number).first()
            draft.base_version = stored.version if stored is not None else 0
            _confirm(table, draft, by=by)
        elif confirm:
            _confirm(table, draft, by=by)
        else:
            _decide(draft, DraftGame.Status.REJECTED, by=by, reason=reason or _("von der Turnierleitung abgelehnt"))
        return draft


def settle_as_director(*, table: Table, draft_id: int, by: Actor) -> DraftGame:
    """A rejected entry is dealt with ("erledigt"): it leaves the board and the table's phones."""
    with transaction.atomic():
        table = lock_table(table)
        draft = table.drafts.filter(pk=draft_id).first()
        if draft is None:
            raise UserError(_("Diese Eingabe gibt es an diesem Tisch nicht."))
        if draft.status == DraftGame.Status.REJECTED:
            with audit.recording("draft_settled", by=by, tournament=table.round.tournament_id, table=table):
                draft.status = DraftGame.Status.SETTLED
                draft.save(update_fields=["status"])
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
            with audit.recording("sheet_approved", by=by, tournament=table.round.tournament_id, table=table):
                table.approvals = {**(table.approvals or {}), str(player.pk): table.version}
                table.save(update_fields=["approvals"])
        if sheet_complete(table) and all(table.approvals.get(str(e)) == table.version
                                         for e in engine.seat_entries(table)):
            sheet_state.sign_table(table=table, version=table.version, note=_("auf den Handys: alle „stimmt“"),
                               by=Actor(label=_("Tisch %(table)s (alle Spieler)") % {"table": table.number},
                                        device=device[:64]))
            table.refresh_from_db()
        return table


def sheet_complete(table: Table) -> bool:
    """Every game of the table entered (or its totals), and no entry still waiting: the counts stored on
    the table (`Table.games_entered`, `Table.drafts_waiting`), read again in one query."""
    entered, waiting = Table.objects.filter(pk=table.pk).values_list("games_entered", "drafts_waiting").get()
    if waiting:
        return False
    if table.totals_only:
        return True
    expected = table.expected_games(table.round.tournament.games_at_table(len(engine.seat_entries(table))))
    return entered >= expected
