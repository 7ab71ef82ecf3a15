"""The tournament's data, by concept: `core` (tournaments, players, rounds, tables, games, scores,
the change counter) and `registration` (the public registration page and its waiting list)."""

from .core import (
    DataChange,
    DraftGame,
    Entry,
    Game,
    LoggedChange,
    Penalty,
    Player,
    RequestKey,
    Round,
    Score,
    Seat,
    Series,
    SeriesMerge,
    Table,
    Tournament,
    default_rules,
    kept_history,
)
from .registration import Registration

__all__ = ["DataChange", "DraftGame", "Entry", "Game", "LoggedChange", "Penalty", "Player", "Registration",
           "RequestKey", "Round", "Score", "Seat", "Series", "SeriesMerge", "Table", "Tournament", "default_rules",
           "kept_history"]
