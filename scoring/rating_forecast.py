"""A table's expected result before a round, from its players' ratings (docs/rating.md, "Shown"): the share
of the games each player is expected to win. Built on `scoring.rating.expected` (the library's
`predict_win`), without changing the model.

At a table of four every player partners each of the three others equally often over a round (the
partners change with the cards, not the seats), so a player's share is the mean, over his three possible
partners, of the chance that the two win against the other two. At a table of five each player sits out
as the dealer equally often: the share is the mean over the four-player games he plays. Solos are left
out (a rare game whose soloist nobody knows in advance). Equal players: 50 % each."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

from .rating import DEFAULT, Rating, Settings, expected


def _four(ratings: Mapping[str, Rating], players: Sequence[str], settings: Settings) -> dict[str, float]:
    share = {}
    for player in players:
        chances = []
        for partner in players:
            if partner == player:
                continue
            others = [p for p in players if p not in (player, partner)]
            chances.append(expected(ratings, (player, partner), others, settings))
        share[player] = sum(chances) / len(chances)
    return share


def win_shares(ratings: Mapping[str, Rating], players: Sequence[str], settings: Settings = DEFAULT) -> dict[str, float]:
    """Each player's expected share of the games he plays that his party wins (0 to 1), for a table of 4
    or 5 `players`; a player without a rating is new (`Rating()`)."""
    if len(players) not in (4, 5) or len(set(players)) != len(players):
        raise ValueError("a table has 4 or 5 different players")
    if len(players) == 4:
        return _four(ratings, players, settings)
    sums = dict.fromkeys(players, 0.0)
    for four in combinations(players, 4):
        for player, share in _four(ratings, four, settings).items():
            sums[player] += share
    return {player: total / 4 for player, total in sums.items()}  # each plays 4 of the 5 line-ups
