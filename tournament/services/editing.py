"""What may be changed at a table, and the table's version: the checks every write to a table makes
before it changes anything (round published and open, sheet not signed, game number in range), the
one check of an entered game that the director's form, the phones and the penalties share
(`check_entry`, `check_in_order`: games in order, a waiting entry holding its number), the sheet's
version counter, and the one-time keys of forms sent twice.
"""

from __future__ import annotations

from django.db.models import F
from django.utils.translation import gettext as _

from ..errors import Conflict, UserError
from ..log import audit, changelog
from ..models import DraftGame, Game, RequestKey, Round, Table


def check_editable(table: Table) -> None:
    if table.round.status == Round.Status.DRAFT:
        raise UserError(_("Runde %(round)s ist noch nicht veröffentlicht: erst die Tische veröffentlichen, "
                          "dann Ergebnisse eintragen.") % {"round": table.round.number})
    if table.round.status == Round.Status.CLOSED:
        raise UserError(_("Runde %(round)s ist abgeschlossen; Ergebnisse können nicht mehr geändert werden.")
                        % {"round": table.round.number})
    if table.is_locked:
        raise UserError(_("Der Spielzettel von Tisch %(table)s ist unterschrieben und gesperrt. "
                          "Die Turnierleitung kann ihn entsperren.") % {"table": table.number})


def next_game_number(table: Table) -> int:
    """The first number without a game and without an entry from the table waiting to be confirmed:
    games are entered in order, a deleted game leaves a gap that is filled first, and a game the
    table entered on a phone keeps its number while it waits."""
    return _first_free(*_taken_numbers(table))


def _taken_numbers(table: Table) -> tuple[set[int], set[int]]:
    """The numbers of the table's games, and those of the entries from its phones waiting."""
    return (set(table.games.values_list("number", flat=True)),
            set(table.drafts.filter(status=DraftGame.Status.WAITING).values_list("number", flat=True)))


def _first_free(games: set[int], waiting: set[int]) -> int:
    number = 1
    while number in games or number in waiting:
        number += 1
    return number


def check_number(table: Table, number: int, size: int) -> None:
    limit = table.round.tournament.games_at_table(size)
    if not 1 <= number <= limit:
        raise UserError(_("An einem %(size)ser-Tisch gibt es die Spiele 1 bis %(limit)s; Spiel %(number)s "
                          "gibt es nicht.") % {"size": size, "limit": limit, "number": number})
    if table.ended_after is not None and number > table.ended_after:
        raise UserError(_("Der Tisch wurde nach Spiel %(last)s beendet; Spiel %(number)s kann nicht mehr "
                          "eingetragen werden. Die Turnierleitung kann den Tisch wieder öffnen.")
                        % {"last": table.ended_after, "number": number})


def check_entry(table: Table, size: int, number: int | None = None) -> None:
    """The checks a game or a penalty entered at a table of `size` players makes first, on every path
    (the director's form, a phone, a penalty): the table takes entries (`check_editable`), its games
    were not replaced by totals only, and game `number`, when given, is one the table can have
    (`check_number`)."""
    check_editable(table)
    if table.totals_only:
        raise UserError(_("Für Tisch %(table)s wurden nur Endstände eingetragen.") % {"table": table.number})
    if number is not None:
        check_number(table, number, size)


def check_in_order(table: Table, number: int, existing: Game | None) -> None:
    """Games are entered in order, on every path (the director's form and a phone's entry): a game not
    stored yet (`existing` None) takes a number at most the first free one (`next_game_number`).
    An entry from the table waiting for confirmation holds its number: that number stays in order
    (its confirmation, a second phone entering the same game, the director entering it) even when
    an earlier number became free again meanwhile (an earlier entry rejected, an earlier game
    deleted). Editing a stored game is always in order."""
    if existing is not None:
        return
    games, waiting = _taken_numbers(table)
    first_free = _first_free(games, waiting)
    if number > first_free and number not in waiting:
        raise UserError(_("Spiele werden der Reihe nach eingetragen: erst Spiel %(first)s, dann "
                          "Spiel %(number)s.") % {"first": first_free, "number": number})


def bump_version(table: Table) -> None:
    """Counts up the version of the whole sheet (a counter: no change log record of its own), inside
    the caller's recording."""
    audit.require("editing.bump_version")
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.version += 1


TABLE_STATE = ("totals_only", "entered_totals", "signed_at", "signed_by_id", "signed_note", "ended_after",
               "ended_note", "version")


def sync_table(given: Table, fresh: Table) -> None:
    """The caller's table object says what the locked, changed one says."""
    for name in TABLE_STATE:
        setattr(given, name, getattr(fresh, name))


def check_table_version(table: Table, version: int | None) -> None:
    if version is not None and version != table.version:
        raise Conflict(_("Der Spielzettel von Tisch %(table)s wurde inzwischen geändert. Bitte prüfen Sie ihn und "
                         "versuchen Sie es dann noch einmal.") % {"table": table.number},
                       current=table, version=table.version, change=changelog.latest_for_table(table))



def seen_key(key: str | None) -> dict | None:
    """What an earlier request with this one-time key made, or None. Read under the lock of what the
    request changes, so that the second of two simultaneous requests sees the first one's key."""
    if not key:
        return None
    return RequestKey.objects.filter(key=key).values_list("result", flat=True).first()


