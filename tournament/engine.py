"""The one bridge between the stored games and the two engines (`scoring/`, `seating/`).

A game has three shapes here:

- the **model**, `models.Game`: players are entries (ids), "no announcement" is "";
- the **data** that forms give and services take, a dict:
  `{"type", "solo", "pflichtsolo", "re": [entry ids], "re_augen", "re_tricks", "announcements": {"re",
  "kontra"}, "extras": {"re": {kind: n}, "kontra": {kind: n}}}` ("pflichtsolo": a solo's mark in a list
  with Pflichtsoli, True/False, or None);
- the **engine's form** of ../shared/scoring-contract.md: the data with the four players named. The
  engine names a player by the entry id as a string; the tournament file and the change log name
  them by the player's name. Both are the same conversion with another naming function.

`data_of` and `model_fields` go between model and data, `stored_breakdown` turns the engine's
breakdown into what a game keeps, `to_engine` and `from_engine` between data
and the engine's form, `parse` checks data with the engine. Who deals and who sits out comes from
`seating.dealing` only: `table_deals` and `game_deal` read a table's deal (in a list with Pflichtsoli
it follows the games' marks), and `score_table` turns a table's games and penalties into a
`scoring.Sheet` and scores it. A save hands on what it has worked out (`Known`), so that a saved
game's deal is computed and the game parsed only once (docs/architecture.md: a saved game's path).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import scoring
from scoring.presets import SONDERPUNKT_KINDS
from scoring.vocabulary import Label
from seating import dealing

from .errors import EntryProblems, where
from .models import Game, Penalty, Table

GameData = dict[str, Any]


def data_of(game: Game) -> GameData:
    """What a stored game holds, in the form services take."""
    return {
        "type": game.type,
        "solo": game.solo or None,
        "pflichtsolo": game.pflichtsolo,
        "re": list(game.re),
        "re_augen": game.re_augen,
        "re_tricks": game.re_tricks,
        "announcements": {"re": game.announce_re or None, "kontra": game.announce_kontra or None},
        "extras": {party: dict(counts) for party, counts in (game.extras or {}).items() if counts},
    }


def model_fields(data: GameData) -> dict[str, Any]:
    """The model's field values of checked data (`from_engine` of a parsed game)."""
    return {
        "type": data["type"],
        "solo": data.get("solo") or "",
        "pflichtsolo": data.get("pflichtsolo"),
        "re": [int(p) for p in data["re"]],
        "re_augen": data["re_augen"],
        "re_tricks": data.get("re_tricks"),
        "announce_re": data["announcements"].get("re") or "",
        "announce_kontra": data["announcements"].get("kontra") or "",
        "extras": {party: dict(counts) for party, counts in (data.get("extras") or {}).items() if counts},
    }


def to_engine(data: GameData, players: Sequence[Any], name: Callable[[Any], str] = str) -> dict:
    """The engine's form of a game of these 4 `players` (entry ids), each named by `name`. Keys in
    the order of the tournament file; `solo`, `pflichtsolo` and `re_tricks` only when set."""
    announcements = data.get("announcements") or {}
    game: dict[str, Any] = {"players": [name(p) for p in players], "type": data.get("type")}
    if data.get("solo"):
        game["solo"] = data["solo"]
    if data.get("pflichtsolo") is not None:
        game["pflichtsolo"] = data["pflichtsolo"]
    game["re"] = [name(p) for p in data.get("re") or []]
    game["re_augen"] = data.get("re_augen")
    if data.get("re_tricks") is not None:
        game["re_tricks"] = data["re_tricks"]
    game["announcements"] = {"re": announcements.get("re") or None, "kontra": announcements.get("kontra") or None}
    game["extras"] = canonical_extras(data.get("extras") or {})
    return game


def canonical_extras(extras: dict) -> dict:
    """The Sonderpunkte in the file's order, whatever order the database keeps them in (PostgreSQL's
    jsonb orders keys by length): the parties Re, Kontra, each party's kinds in the rulebook's order
    (`scoring.presets.SONDERPUNKT_KINDS`), so that an export reads the same from either database."""
    order = {kind: index for index, kind in enumerate(SONDERPUNKT_KINDS)}
    return {party: {kind: extras[party][kind] for kind in sorted(extras[party], key=lambda k: (order.get(k, 99), k))}
            for party in sorted(extras, key=lambda p: (p != "re", p != "kontra", p)) if extras[party]}


def from_engine(game: scoring.Game, key: Callable[[str], Any] = int) -> GameData:
    """The data of a game the engine has checked, its players turned back into entry ids by `key`."""
    return {
        "type": game.type,
        "solo": game.solo,
        "pflichtsolo": game.pflichtsolo,
        "re": [key(p) for p in game.re],
        "re_augen": game.re_augen,
        "re_tricks": game.re_tricks,
        "announcements": {"re": game.announcements["re"], "kontra": game.announcements["kontra"]},
        "extras": {party: dict(counts) for party, counts in game.extras.items() if counts},
    }


def parse(data: GameData, players: Sequence[int], rules: scoring.Rules) -> scoring.Game:
    """Checks a game of these 4 players with the engine; raises scoring.InvalidInput."""
    return scoring.parse_game(to_engine(data, players), rules)


def checked(data: GameData, players: Sequence[int], rules: scoring.Rules) -> GameData:
    """The data as the engine understood it (normalised: no zero counts, None for no announcement)."""
    return from_engine(parse(data, players, rules))


def stored_breakdown(items) -> list[list]:
    """The engine's breakdown (`scoring.GameResult.breakdown`) as a game keeps it: [German words,
    amount, code, parameters] per item; the words for whoever reads the stored data, the code and
    parameters to word it in the reader's language (`vocabulary.breakdown`)."""
    stored = []
    for text, amount in items:
        if isinstance(text, Label):
            stored.append([str(text), amount, text.code, text.params])
        else:
            stored.append([str(text), amount])
    return stored


# ---- a table's deal and sheet, read from its games (the services and the phones' reads share them) ----

def seat_entries(table: Table) -> list[int]:
    return [seat.entry_id for seat in sorted(table.seats.all(), key=lambda s: s.position)]


def table_deals(table: Table, entries: list[int], games: dict[int, dict], count: int | None = None
                ) -> list[dealing.Deal]:
    """Who deals games 1 to `count` (default: the highest of `games`) at the table, from its games
    (number -> data): in a list with Pflichtsoli the deal follows their marks."""
    rule = table.round.tournament.list_rule(len(entries))
    entered = {number: dealing.entered(data.get("type"), data.get("re") or [], data.get("pflichtsolo"))
               for number, data in games.items()} if rule else {}
    return dealing.deals(entries, max(games, default=0) if count is None else count, rule=rule, games=entered)


def game_deal(table: Table, entries: list[int], number: int) -> dealing.Deal:
    """Who deals game `number` at the table, and who sits out; in a list with Pflichtsoli read from
    the games entered before it (one query more, only then)."""
    rule = table.round.tournament.list_rule(len(entries))
    return dealing.deal_of(entries, number, rule=rule, games=entered_games(table) if rule else {})


def entered_game(game: Game) -> dealing.Entered:
    return dealing.entered(game.type, game.re, game.pflichtsolo)


def entered_games(table: Table) -> dict[int, dealing.Entered]:
    """What a list's deal needs of the table's games, by number (one query)."""
    return {number: dealing.entered(game_type, re, pflichtsolo) for number, game_type, re, pflichtsolo
            in table.games.values_list("number", "type", "re", "pflichtsolo")}


def with_mark(data: dict, deal: dealing.Deal, rule: dealing.ListRule | None) -> dict:
    """The game's data with its solo marked as the list's rule gives it, when the input left it open
    (a solo of a list: the soloist's first is their Pflichtsolo, every further one a Lustsolo)."""
    game = dealing.marked(dealing.entered(data.get("type"), data.get("re") or [], data.get("pflichtsolo")), deal, rule)
    return {**data, "pflichtsolo": game.pflichtsolo}


@dataclass(frozen=True)
class Known:
    """What a save has worked out for a table already, handed on to the scoring so that nothing is
    read or computed twice: the players in seat order, the deal of every game (`seating.dealing.deals`
    with the games as they are after the save), and the games the engine has parsed, by number."""

    entries: list[int]
    deals: list[dealing.Deal] = field(default_factory=list)
    parsed: dict[int, scoring.Game] = field(default_factory=dict)


def score_table(table: Table, games: list[tuple[int, dict]], penalties: list[Penalty],
                rules: scoring.Rules, parsed: dict[int, scoring.Game] | None = None,
                entries: list[int] | None = None, known: Known | None = None
                ) -> tuple[scoring.Sheet, scoring.SheetResult]:
    """Scores a table's games (number, data), in number order, and its penalties. `parsed`: games
    the engine has parsed already under these rules, by number (an import checks each game first);
    `entries`: the table's players in seat order, when the caller has read them already; `known`:
    what a save worked out already (its players, deals and parsed game are used as they are)."""
    if known is not None:
        entries, parsed = known.entries, {**known.parsed, **(parsed or {})}
    entries = seat_entries(table) if entries is None else entries
    rows: list = []
    highest = max((number for number, _data in games), default=0)
    if known is not None and len(known.deals) >= highest:
        deals = known.deals
    else:
        deals = table_deals(table, entries, {number: data for number, data in games})
    for number, data in sorted(games, key=lambda item: item[0]):
        if parsed and number in parsed:
            rows.append(parsed[number])
            continue
        players = deals[number - 1].players
        try:
            rows.append(parse(data, players, rules))
        except scoring.InvalidInput as error:
            raise EntryProblems(error.problems, where=where(table, number)) from None
    for penalty in penalties:
        rows.append(scoring.Penalty(offender=str(penalty.offender_id), players=tuple(str(p) for p in penalty.players)))
    sheet = scoring.Sheet(rules=rules, players=tuple(str(e) for e in entries), rows=tuple(rows))
    return sheet, scoring.score_sheet(sheet)
