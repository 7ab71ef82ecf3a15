"""A table's games in order: Nullspiel doubling, Bock rounds, penalties, sitting out, totals.

Doubled games wait in one queue, first in first out: a Nullspiel queues one game, a Bock trigger
queues a Bockrunde. A game takes the next queued doubling (×2); doublings never multiply, several
triggers make the doubled stretch longer. With `bock_skips_solo` a solo is not doubled and leaves
the queue as it is.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .game import Game, GameResult, score_game
from .presets import Rules
from .vocabulary import Label

NULLSPIEL_LABEL = Label("nullspiel_doubled")
BOCK_LABEL = Label("bock")


@dataclass(frozen=True)
class Penalty:
    """A penalty against `offender`, among the 4 `players` of the game it happened in. Not a game."""

    offender: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class Sheet:
    rules: Rules
    players: tuple[str, ...]  # 4 or 5, in seat order
    rows: tuple  # Game or Penalty, in the order played


@dataclass(frozen=True)
class SheetGame:
    result: GameResult  # value, scores and breakdown with the multiplier applied
    multiplier: int
    base_value: int  # the game's own value before the multiplier
    bock_triggers: tuple[str, ...]  # what this game queued for later games

    @property
    def scores(self) -> dict:
        return self.result.scores

    def as_json(self) -> dict:
        return {**self.result.as_json(), "multiplier": self.multiplier}


@dataclass(frozen=True)
class SheetPenalty:
    offender: str
    scores: dict

    def as_json(self) -> dict:
        return {"penalty": self.offender, "scores": dict(self.scores)}


@dataclass(frozen=True)
class SheetResult:
    rows: tuple  # SheetGame or SheetPenalty, one per input row
    totals: dict  # player -> sum over the rows, every player of the sheet

    def as_json(self) -> dict:
        return {"games": [row.as_json() for row in self.rows], "totals": dict(self.totals)}


def penalty_scores(penalty: Penalty, rules: Rules) -> dict:
    """The offender pays 3 × penalty_points, each of the other three players gets them."""
    points = rules.penalty_points
    return {p: -3 * points if p == penalty.offender else points for p in penalty.players}


def bock_triggers(game: Game, result: GameResult, rules: Rules) -> list[str]:
    """The Bock triggers this game sets off, one entry per Bockrunde it queues."""
    found = []
    wanted = rules.bock_triggers
    if "doppelkopf" in wanted:
        found += ["doppelkopf"] * (game.extra("re", "doppelkopf") + game.extra("kontra", "doppelkopf"))
    if "herzstich" in wanted:
        found += ["herzstich"] * (game.extra("re", "herzstich") + game.extra("kontra", "herzstich"))
    if "solo_lost" in wanted and game.is_solo(rules) and result.winner == "kontra":
        found.append("solo_lost")
    if "kontra_lost" in wanted and game.announced("kontra") and result.winner == "re":
        found.append("kontra_lost")
    if "re_and_kontra" in wanted and game.announced("re") and game.announced("kontra"):
        found.append("re_and_kontra")
    if "split_120" in wanted and game.re_augen == 120:
        found.append("split_120")
    if "nullspiel" in wanted and result.value == 0:
        found.append("nullspiel")
    return found


def doubled(result: GameResult, label: str) -> GameResult:
    return GameResult(
        winner=result.winner,
        value=result.value * 2,
        scores={p: s * 2 for p, s in result.scores.items()},
        breakdown=result.breakdown + [(label, "x2")],
    )


def score_sheet(sheet: Sheet) -> SheetResult:
    rules = sheet.rules
    bock_length = rules.bock_length or len(sheet.players)
    queue: deque[str] = deque()  # one label per doubled game still to come
    rows = []
    totals = {player: 0 for player in sheet.players}
    for row in sheet.rows:
        scored: SheetGame | SheetPenalty
        if isinstance(row, Penalty):
            scored = SheetPenalty(offender=row.offender, scores=penalty_scores(row, rules))
        else:
            result = score_game(row, rules)
            base_value = result.value
            multiplier = 1
            if queue and not (rules.bock_skips_solo and row.is_solo(rules)):
                result = doubled(result, queue.popleft())
                multiplier = 2
            triggers = bock_triggers(row, GameResult(result.winner, base_value, {}, []), rules)
            if rules.nullspiel_doubles and base_value == 0:
                queue.append(NULLSPIEL_LABEL)
            for _ in triggers:
                queue.extend([BOCK_LABEL] * bock_length)
            scored = SheetGame(result=result, multiplier=multiplier, base_value=base_value,
                               bock_triggers=tuple(triggers))
        for player, points in scored.scores.items():
            totals[player] += points
        rows.append(scored)
    return SheetResult(rows=tuple(rows), totals=totals)
