"""A player's rating (Wertungszahl) from every game they played: pure Python, no Django.

The rules (docs/rating.md):
- **A game is a match of two parties** (`match_of`, `Match`): Re against Kontra as the engine scored
  it; 2 against 2, or 1 against 3 when Re is a lone player (a solo, a stille Hochzeit, a Hochzeit
  that found no partner). Only the four players of the game take part: the dealer who sits out at a
  table of 5 is not in the engine's game and is not rated. A game nobody won is a draw.
- **The mathematics is openskill's** Weng-Lin model with the Plackett-Luce likelihood, never an
  approximation of our own: `plackett_luce` is the library's `rate` for two parties, step for step, the
  same floats to the last bit (tested against the library), without its per-call costs. Two choices
  are ours, both exact changes of variable around the library's update (no approximation): a party's
  strength is the *mean* of its players' skills (the library sums them; a lone player would then face
  three times his strength, and every solo won would count as a sensation), and the dynamics `tau` is
  added to each player's uncertainty in player units before the update (the library would add it to the
  scaled values).
- **The weight** (`weight`) is how clearly the game was won: its value before Bock and Nullspiel doubling
  (`SheetGame.base_value`), 1 to `WEIGHT_CAP`; a game of weight w is rated as w wins in a row (the
  library's update w times, the dynamics added once), as the Rundenschnitt counts its value w times
  (beta: `Settings.beta`; both chosen by `rating_sim`, docs/rating.md). A draw is one draw.
- **The prediction** (`expected`) is logistic(`CALIBRATION` times the difference of the parties' mean
  mu), the slope fitted by `rating_sim` on training games, as the Rundenschnitt's model there is: the
  library's own `predict_win` is too sure, since a game of weight w counts as w wins (docs/rating.md).
- **Order**: games are rated one after another (`replay`); the same games in the same order give the
  same ratings, to the last bit. At a tournament the order is round, table, game number; tables of one
  round share no player, so their order within the round changes nothing.
- **Confidence**: a rating is mu (the estimate) and sigma (its uncertainty); it is ranked by the
  conservative value mu - 3 sigma (`Rating.conservative`) and only after `MINIMUM_GAMES` games
  (`Rating.settled`). Not zero-sum in general: in each of the library's updates a party's players
  together move by the mean of their variances (sigma squared), so the sum of mu stays exactly when both
  parties are equally sure on average (four equally sure players, in a solo as in 2 against 2: tested),
  and moves otherwise; a game of weight 2 or more is several updates, zero-sum when the four players are
  equally sure in a game of 2 against 2 (the parties stay equally sure), not in a solo (the lone
  player's uncertainty shrinks faster than his opponents').
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

from .game import Game, GameResult

MU = 25.0  # a new player's rating
SIGMA = MU / 3  # a new player's uncertainty
BETA = 20.0  # the performance noise of one win (tuned by rating_sim: docs/rating.md)
TAU = MU / 300  # the dynamics added to sigma before each game (the library's default)
WEIGHT_CAP = 4  # a game's weight: its value, at least 1, at most this
MINIMUM_GAMES = 40  # games before a rating is ranked (docs/rating.md: rating_sim's rank correlation is then 0.87)
CALIBRATION = 0.031  # `expected`: the slope on the parties' mean mu difference (fitted by rating_sim: docs/rating.md)
Z = 3  # the conservative value: mu - Z sigma


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0  # games rated

    @property
    def conservative(self) -> float:
        """What the rating ranks by: mu - 3 sigma (the player is this strong with about 99.9 % certainty)."""
        return self.mu - Z * self.sigma

    @property
    def settled(self) -> bool:
        """Ranked only after `MINIMUM_GAMES` games."""
        return self.games >= MINIMUM_GAMES

    @property
    def games_missing(self) -> int:
        return max(MINIMUM_GAMES - self.games, 0)


@dataclass(frozen=True)
class Match:
    """One game as the rating sees it: the parties, who won (None: nobody, a draw) and its weight."""

    re: tuple[str, ...]
    kontra: tuple[str, ...]
    winner: str | None  # "re", "kontra" or None
    weight: int = 1


@dataclass(frozen=True)
class Settings:
    beta: float = BETA
    tau: float = TAU
    weighted: bool = True  # False: every game weighs 1 (rating_sim compares both)
    repeat: bool = True  # a game of weight w: w wins in a row; False: once with the noise beta / w (until 2026-11)
    calibration: float | None = CALIBRATION  # `expected`'s slope on the mean mu (None: the library's predict_win)


DEFAULT = Settings()


def weight(value: int) -> int:
    """A game's weight from its value before doubling: 1 to WEIGHT_CAP (a negative or zero value, a game
    whose losers gained or nobody won, weighs 1)."""
    return min(max(value, 1), WEIGHT_CAP)


def match(*, players: Iterable[str], re: Iterable[str], winner: str | None, value: int) -> Match:
    """The match of a game: `players` the four who played it (not the dealer sitting out), `re` the Re
    party, `winner` "re", "kontra" or None/"" (nobody), `value` the game's value before doubling."""
    re_party = tuple(sorted(re))
    kontra = tuple(sorted(p for p in players if p not in re_party))
    if not re_party or not kontra:
        raise ValueError("a game needs two parties")
    return Match(re=re_party, kontra=kontra, winner=winner or None, weight=weight(value))


def match_of(game: Game, result: GameResult, base_value: int | None = None) -> Match:
    """The match of a game the engine scored (`score_game`, or a row of `score_sheet` with its
    `base_value`, the value before Bock and Nullspiel doubling)."""
    value = result.value if base_value is None else base_value
    return match(players=game.players, re=game.re, winner=result.winner, value=value)


@cache
def _model(beta: float) -> PlackettLuce:
    # tau 0: the dynamics is added in player units by `update` (see the module's docstring)
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=beta, tau=0.0)


def _scaled(model: PlackettLuce, ratings: list[Rating]):
    """The party's players as the library sees them: mu and sigma divided by the party's size, so that
    the library's sum of the party is the mean of its players."""
    n = len(ratings)
    return [model.rating(mu=r.mu / n, sigma=r.sigma / n) for r in ratings]


KAPPA = 0.0001  # the library's kappa: a player's variance shrinks by at most this factor in one update


def plackett_luce(parties: list[list[tuple[float, float]]], ranks: list[float], beta: float
                  ) -> list[list[tuple[float, float]]]:
    """openskill's `PlackettLuce(beta=beta, tau=0).rate(parties, ranks=ranks)` for two parties of
    players given as (mu, sigma), returned the same way: the library's computation step for step, in
    its order of operations, so the same numbers to the last bit (test_rating.py checks it against the
    library on any ratings). The library's `rate` spends nine tenths of its time around the
    mathematics (checking its arguments, deep copies, a uuid for every player and every copy: 0.7 s
    of the 6,000 games of a championship's import, 0.1 s here); its options we do not use (weights,
    scores and margin, balance, limit_sigma, a gamma of our own) are left out."""
    order = sorted(range(len(parties)), key=lambda i: ranks[i])  # the winners first (a stable sort)
    teams = [[(mu, math.sqrt(sigma * sigma + 0.0)) for mu, sigma in parties[i]] for i in order]  # tau 0
    rank = [int(ranks[i]) for i in order]
    team_mu, team_variance = [], []
    for team in teams:
        mu_summed = variance_summed = 0.0
        for mu, sigma in sorted(team, key=lambda p: (p[0] - 3.0 * p[1]) + 0.0, reverse=True):  # by ordinal
            mu_summed += mu
            variance_summed += sigma**2
        team_mu.append(mu_summed)
        team_variance.append(variance_summed)
    collective = 0.0
    for variance in team_variance:
        collective += variance + beta**2
    c = math.sqrt(collective)
    sum_q: dict[int, float] = {}
    for i in range(len(teams)):
        summed = math.exp(team_mu[i] / c)
        for q in range(len(teams)):
            if rank[i] >= rank[q]:
                sum_q[q] = sum_q[q] + summed if q in sum_q else summed
    a = [sum(1 for other in rank if other == own) for own in rank]
    result = []
    for i, team in enumerate(teams):
        omega = delta = 0.0
        i_mu_over_c = math.exp(team_mu[i] / c)
        for q in range(len(teams)):
            share = i_mu_over_c / sum_q[q]
            if rank[q] <= rank[i]:
                delta += share * (1 - share) / a[q]
                omega += (1 - share) / a[q] if q == i else -share / a[q]
        omega *= team_variance[i] / c
        delta *= team_variance[i] / c**2
        delta *= math.sqrt(team_variance[i]) / c  # the library's gamma
        result.append([(mu + (sigma**2 / team_variance[i]) * omega,
                        sigma * math.sqrt(max(1 - (sigma**2 / team_variance[i]) * delta, KAPPA)))
                       for mu, sigma in team])
    back: list[list[tuple[float, float]]] = [[] for _ in parties]
    for position, i in enumerate(order):  # each party where it was given
        back[i] = result[position]
    return back


def update(ratings: Mapping[str, Rating], game: Match, settings: Settings = DEFAULT) -> dict[str, Rating]:
    """The ratings after one game: a new dict (the given one is not changed); players not seen before
    start at `Rating()`."""
    return {**ratings, **after(ratings, game, settings)}


def after(ratings: Mapping[str, Rating], game: Match, settings: Settings = DEFAULT) -> dict[str, Rating]:
    """The ratings of the game's players after it (`update` without copying everyone else's: `replay`
    and a tournament's ratings rate thousands of games one after another)."""
    weight = game.weight if settings.weighted else 1
    times, beta = (weight, settings.beta) if settings.repeat else (1, settings.beta / weight)
    if game.winner is None:
        times = 1  # a draw is one draw, whatever its value
    parties = [game.re, game.kontra]
    now = [[_dynamic(ratings.get(p, Rating()), settings.tau) for p in party] for party in parties]
    ranks = [1.0, 1.0] if game.winner is None else [0.0, 1.0] if game.winner == "re" else [1.0, 0.0]
    for _ in range(times):
        scaled = [[(r.mu / len(party), r.sigma / len(party)) for r in party] for party in now]
        rated = plackett_luce(scaled, ranks, beta)
        now = [
            [Rating(mu=mu * len(party), sigma=sigma * len(party)) for mu, sigma in new_party]
            for party, new_party in zip(parties, rated, strict=True)
        ]
    new = {}
    for party, new_party in zip(parties, now, strict=True):
        for player, rated_player in zip(party, new_party, strict=True):
            games = ratings[player].games if player in ratings else 0
            new[player] = Rating(mu=rated_player.mu, sigma=rated_player.sigma, games=games + 1)
    return new


def _dynamic(rating: Rating, tau: float) -> Rating:
    return Rating(mu=rating.mu, sigma=math.sqrt(rating.sigma**2 + tau**2), games=rating.games)


def replay(
    games: Iterable[Match], start: Mapping[str, Rating] | None = None, settings: Settings = DEFAULT
) -> dict[str, Rating]:
    """The ratings after `games` in their order, from `start` (default: everyone new)."""
    ratings = dict(start or {})
    for game in games:
        ratings.update(after(ratings, game, settings))
    return ratings


def expected(
    ratings: Mapping[str, Rating], re: Iterable[str], kontra: Iterable[str], settings: Settings = DEFAULT
) -> float:
    """The chance that `re` wins a game against `kontra`: logistic(`settings.calibration` times Re's mean
    mu minus Kontra's), the same one-parameter model as `rating_sim` gives the Rundenschnitt; with
    `calibration` None the library's own `predict_win` (docs/rating.md)."""
    parties = [[ratings.get(p, Rating()) for p in party] for party in (tuple(re), tuple(kontra))]
    if settings.calibration is None:
        model = _model(settings.beta)
        return model.predict_win([_scaled(model, party) for party in parties])[0]
    lead = sum(r.mu for r in parties[0]) / len(parties[0]) - sum(r.mu for r in parties[1]) / len(parties[1])
    return 1 / (1 + math.exp(-settings.calibration * lead))


def ranked(ratings: Mapping[str, Rating]) -> list[tuple[int, str, Rating]]:
    """The settled ratings (`Rating.settled`) best first by the conservative value, with places
    (equal values share a place), then by key."""
    rows = sorted(((-r.conservative, key, r) for key, r in ratings.items() if r.settled))
    placed: list[tuple[int, str, Rating]] = []
    for index, (value, key, rating) in enumerate(rows, start=1):
        place = placed[-1][0] if placed and -placed[-1][2].conservative == value else index
        placed.append((place, key, rating))
    return placed
