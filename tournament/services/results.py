"""Game results: entering, editing and deleting games, penalties, totals-only tables, sign-off,
and rebuilding the score cache from the scoring engine.

The engine (`scoring/`) is the only place that counts. This module turns a table's games and
penalties into an engine sheet (players are entry ids as strings), scores it, and stores the result
on the games and as `Score` rows, always for the whole table and in the same transaction.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from scoring.sheet import SheetGame

from ..dealing import game_players
from ..errors import EntryProblems, UserError
from ..models import Game, Penalty, Round, Score, Table, Tournament


# ---- who plays which game ------------------------------------------------------------------------

def games_per_player(tournament: Tournament, table_size: int) -> int:
    """Games each player plays at a table (the dealer of a table of 5 sits out)."""
    games = tournament.games_at_table(table_size)
    return games * 4 // table_size if table_size == 5 else games


def seat_entries(table: Table) -> list[int]:
    return [seat.entry_id for seat in sorted(table.seats.all(), key=lambda s: s.position)]


# ---- between the database and the engine ---------------------------------------------------------

def engine_game(data: dict, players: list[int]) -> dict:
    """A game in the contract's form, players named by entry id (as strings)."""
    game = {
        "players": [str(p) for p in players],
        "type": data.get("type"),
        "re": [str(p) for p in data.get("re") or []],
        "re_augen": data.get("re_augen"),
        "announcements": {"re": data.get("announcements", {}).get("re") or None,
                          "kontra": data.get("announcements", {}).get("kontra") or None},
        "extras": data.get("extras") or {},
    }
    if data.get("solo"):
        game["solo"] = data["solo"]
    if data.get("re_tricks") is not None:
        game["re_tricks"] = data["re_tricks"]
    return game


def game_data(game: Game) -> dict:
    """What a stored game holds, in the form `save_game` takes."""
    return {
        "type": game.type,
        "solo": game.solo or None,
        "re": list(game.re),
        "re_augen": game.re_augen,
        "re_tricks": game.re_tricks,
        "announcements": {"re": game.announce_re or None, "kontra": game.announce_kontra or None},
        "extras": game.extras,
    }


def where(table: Table, number: int | None = None) -> str:
    text = _("Runde %(round)s, Tisch %(table)s") % {"round": table.round.number, "table": table.number}
    if number is not None:
        text += ", " + _("Spiel %(number)s") % {"number": number}
    return text + ": "


def score_table(table: Table, games: list[tuple[int, dict]], penalties: list[Penalty],
                rules: scoring.Rules) -> tuple[scoring.Sheet, scoring.SheetResult]:
    """Scores a table's games (number, data), in number order, and its penalties."""
    entries = seat_entries(table)
    rows = []
    for number, data in sorted(games, key=lambda item: item[0]):
        _dealer, _out, players = game_players(entries, number)
        try:
            rows.append(scoring.parse_game(engine_game(data, players), rules))
        except scoring.InvalidInput as error:
            raise EntryProblems(error.problems, where=where(table, number)) from None
    for penalty in penalties:
        rows.append(scoring.Penalty(offender=str(penalty.offender_id), players=tuple(str(p) for p in penalty.players)))
    sheet = scoring.Sheet(rules=rules, players=tuple(str(e) for e in entries), rows=tuple(rows))
    return sheet, scoring.score_sheet(sheet)


@transaction.atomic
def recompute_table(table: Table, rules: scoring.Rules | None = None) -> scoring.SheetResult | None:
    """Rewrites the table's cached results from its games and penalties."""
    rules = rules or table.round.tournament.scoring_rules()
    if table.totals_only:
        return None
    games = list(table.games.order_by("number"))
    penalties = list(table.penalties.order_by("id"))
    sheet, result = score_table(table, [(g.number, game_data(g)) for g in games], penalties, rules)
    scores = []
    for game, parsed, scored in zip(games, sheet.rows, result.rows):
        game.winner = scored.result.winner or ""
        game.value = scored.result.value
        game.multiplier = scored.multiplier
        game.breakdown = [list(item) for item in scored.result.breakdown]
        lone = parsed.is_solo(rules)
        for key, points in scored.scores.items():
            on_re = key in parsed.re
            won = scored.result.winner == ("re" if on_re else "kontra")
            scores.append(Score(table=table, round_id=table.round_id, entry_id=int(key), kind=Score.Kind.GAME,
                                game=game, points=points, won=won, solo=lone and on_re, games=1))
    Game.objects.bulk_update(games, ["winner", "value", "multiplier", "breakdown"])
    for penalty, scored in zip(penalties, result.rows[len(games):]):
        for key, points in scored.scores.items():
            scores.append(Score(table=table, round_id=table.round_id, entry_id=int(key), kind=Score.Kind.PENALTY,
                                penalty=penalty, points=points))
    Score.objects.filter(table=table).delete()
    Score.objects.bulk_create(scores)
    return result


@transaction.atomic
def recompute_tournament(tournament: Tournament) -> int:
    """Rebuilds every table's cache under the tournament's current rules; returns the table count."""
    rules = tournament.scoring_rules()
    tables = Table.objects.filter(round__tournament=tournament).select_related("round").prefetch_related("seats")
    count = 0
    for table in tables:
        recompute_table(table, rules)
        count += 1
    return count


# ---- what may be changed -------------------------------------------------------------------------

def check_editable(table: Table):
    if table.round.status == Round.Status.DRAFT:
        raise UserError(_("Runde %(round)s ist noch nicht veröffentlicht: erst die Tische veröffentlichen, "
                          "dann Ergebnisse eintragen.") % {"round": table.round.number})
    if table.round.status == Round.Status.CLOSED:
        raise UserError(_("Runde %(round)s ist abgeschlossen; Ergebnisse können nicht mehr geändert werden.")
                        % {"round": table.round.number})
    if table.is_locked:
        raise UserError(_("Der Spielzettel von Tisch %(table)s ist unterschrieben und gesperrt. "
                          "Die Turnierleitung kann ihn entsperren.") % {"table": table.number})


def _max_games(table: Table, size: int) -> int:
    return table.round.tournament.games_at_table(size)


def next_game_number(table: Table) -> int:
    """The first number without a game (a deleted game leaves a gap that is filled first)."""
    taken = set(table.games.values_list("number", flat=True))
    number = 1
    while number in taken:
        number += 1
    return number


def _checked_number(table: Table, number: int | None, entries: list[int]) -> int:
    if number is None:
        number = next_game_number(table)
    limit = _max_games(table, len(entries))
    if not 1 <= number <= limit:
        raise UserError(_("An einem %(size)ser-Tisch gibt es die Spiele 1 bis %(limit)s; Spiel %(number)s "
                          "gibt es nicht.") % {"size": len(entries), "limit": limit, "number": number})
    return number


# ---- games ---------------------------------------------------------------------------------------

def preview_game(*, table: Table, data: dict, number: int | None = None) -> SheetGame:
    """Scores the table as if the game were saved, and returns that game's row. Saves nothing."""
    entries = seat_entries(table)
    number = _checked_number(table, number, entries)
    games = [(g.number, game_data(g)) for g in table.games.exclude(number=number)]
    games.append((number, data))
    _sheet, result = score_table(table, games, [], table.round.tournament.scoring_rules())
    index = sorted(n for n, _d in games).index(number)
    return result.rows[index]


@transaction.atomic
def save_game(*, table: Table, data: dict, number: int | None = None) -> Game:
    """Enters game `number` (the next free one when None) or replaces it; recomputes the table."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    check_editable(table)
    if table.totals_only:
        raise UserError(_("Für Tisch %(table)s wurden nur Endstände eingetragen.") % {"table": table.number})
    entries = seat_entries(table)
    number = _checked_number(table, number, entries)
    dealer, sitting_out, players = game_players(entries, number)
    rules = table.round.tournament.scoring_rules()
    try:
        parsed = scoring.parse_game(engine_game(data, players), rules)
    except scoring.InvalidInput as error:
        raise EntryProblems(error.problems) from None
    game, _created = Game.objects.update_or_create(
        table=table, number=number,
        defaults={
            "dealer_id": dealer,
            "sitting_out_id": sitting_out,
            "type": parsed.type,
            "solo": parsed.solo or "",
            "re": [int(p) for p in parsed.re],
            "re_augen": parsed.re_augen,
            "re_tricks": parsed.re_tricks,
            "announce_re": parsed.announcements["re"] or "",
            "announce_kontra": parsed.announcements["kontra"] or "",
            "extras": {party: counts for party, counts in parsed.extras.items() if counts},
        },
    )
    recompute_table(table, rules)
    game.refresh_from_db()
    return game


@transaction.atomic
def delete_game(*, table: Table, number: int):
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    check_editable(table)
    deleted, _ = table.games.filter(number=number).delete()
    if not deleted:
        raise UserError(_("Spiel %(number)s gibt es an diesem Tisch nicht.") % {"number": number})
    recompute_table(table)


# ---- penalties -----------------------------------------------------------------------------------

@transaction.atomic
def add_penalty(*, table: Table, offender_id: int, game_number: int | None = None, note: str = "") -> Penalty:
    """A penalty against a player of this table. At a table of 5 it names the game, which says who
    sat out; the offender must have played that game."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    check_editable(table)
    entries = seat_entries(table)
    if offender_id not in entries:
        raise UserError(_("Dieser Spieler sitzt nicht an Tisch %(table)s.") % {"table": table.number}, field="offender")
    if game_number is None and len(entries) == 5:
        raise UserError(_("Am 5er-Tisch braucht eine Strafe das Spiel, in dem sie fiel (wer saß aus?)."),
                        field="game_number")
    players = entries
    if game_number is not None:
        game_number = _checked_number(table, game_number, entries)
        _dealer, sitting_out, players = game_players(entries, game_number)
        if offender_id == sitting_out:
            raise UserError(_("Der Spieler saß in Spiel %(number)s aus.") % {"number": game_number}, field="offender")
    penalty = Penalty.objects.create(table=table, offender_id=offender_id, game_number=game_number,
                                     players=list(players), note=note)
    recompute_table(table)
    return penalty


@transaction.atomic
def delete_penalty(*, penalty: Penalty):
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=penalty.table_id)
    check_editable(table)
    penalty.delete()
    recompute_table(table)


# ---- totals only ---------------------------------------------------------------------------------

@transaction.atomic
def enter_totals(*, table: Table, totals: dict[int, int]) -> None:
    """Final totals from a paper sheet summed at the table, instead of game by game. They must sum
    to zero; they are marked as totals in the standings."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    check_editable(table)
    entries = seat_entries(table)
    if table.games.exists() or table.penalties.exists():
        raise UserError(_("Tisch %(table)s hat schon einzelne Spiele; Endstände gehen nur bei einem leeren "
                          "Spielzettel.") % {"table": table.number})
    if set(totals) != set(entries):
        raise UserError(_("Für jeden Spieler des Tisches gehört ein Endstand eingetragen."))
    total = sum(totals.values())
    if total != 0:
        raise UserError(_("Die Endstände ergeben zusammen %(sum)s statt 0.") % {"sum": total})
    games = games_per_player(table.round.tournament, len(entries))
    table.totals_only = True
    table.save(update_fields=["totals_only"])
    Score.objects.filter(table=table).delete()
    Score.objects.bulk_create(
        Score(table=table, round_id=table.round_id, entry_id=e, kind=Score.Kind.TOTAL, points=totals[e], games=games)
        for e in entries)


@transaction.atomic
def clear_totals(*, table: Table) -> None:
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    check_editable(table)
    table.totals_only = False
    table.save(update_fields=["totals_only"])
    Score.objects.filter(table=table).delete()


# ---- sign-off ------------------------------------------------------------------------------------

@transaction.atomic
def sign_table(*, table: Table, user, note: str = "") -> None:
    """The paper sheet was signed by the table's players: lock it."""
    if table.is_locked:
        raise UserError(_("Der Spielzettel ist bereits unterschrieben."))
    table.signed_at = timezone.now()
    table.signed_by = user
    table.signed_note = note
    table.save(update_fields=["signed_at", "signed_by", "signed_note"])


@transaction.atomic
def unlock_table(*, table: Table) -> None:
    table.signed_at = None
    table.signed_by = None
    table.signed_note = ""
    table.save(update_fields=["signed_at", "signed_by", "signed_note"])


@transaction.atomic
def change_rules(*, tournament: Tournament, rules) -> None:
    """Sets the ruleset (a preset id or a preset with changed options) and recomputes every table.
    A game the new rules cannot score rolls everything back, naming round, table and game."""
    try:
        checked = scoring.parse_rules(rules)
    except scoring.InvalidInput as error:
        raise EntryProblems(error.problems) from None
    tournament.rules = scoring.rules_spec(checked)
    tournament.save(update_fields=["rules"])
    recompute_tournament(tournament)
