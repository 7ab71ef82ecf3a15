"""The one bridge between a stored game and the scoring engine (`scoring/`).

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
`dealing.py` only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import scoring
from scoring.vocabulary import Label

from .models import Game

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
    game["extras"] = {party: dict(counts) for party, counts in (data.get("extras") or {}).items() if counts}
    return game


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
