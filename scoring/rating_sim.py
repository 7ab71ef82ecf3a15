"""`python -m scoring.rating_sim`: the rating tested on synthetic players whose strength is known.

The model the games follow (docs/rating.md, "Beweis"):
- each player has a true strength s drawn from a normal distribution (mean 0, standard deviation 1);
- each evening has `rounds` rounds; each round seats everyone at random at tables of 4 and each table
  plays `games` games; a game is a solo (1 against 3, the soloist chosen at random) with probability
  `SOLO_SHARE`, else two random players against the other two;
- a party's strength is the mean of its players' s; Re wins with probability
  logistic(SKILL * (S_re - S_kontra)): the stronger party wins more often;
- the winners' value is 1 + Binomial(3, logistic(SKILL * margin - 1)), margin the winners' lead in
  strength (negative for an upset): the stronger party also wins by more;
- points as at the table: each winner gets the value, each loser pays it, a lone player three times.

What is compared, over `seeds` tournaments of `players` players and `evenings` evenings:
- **rank correlation** (Spearman) with the true strength after 2, 3, … evenings, of the rating's mu
  and of the Rundenschnitt (points per round played) after the same games;
- **log-loss** of predicting who wins each game of the last evening, held out, from the evenings
  before. Both predictions get the same one-parameter calibration, fitted by maximum likelihood on the
  training games (the evenings before) with the Rundenschnitte and ratings after them: logistic(k *
  the difference of the parties' mean Rundenschnitt) against logistic(a * the difference of the
  parties' mean mu). Also printed: `rating.expected` with its fixed `rating.CALIBRATION` (nothing
  fitted on the tournament) and the library's own `predict_win` (uncalibrated).

`python -m scoring.rating_sim` runs 20 tournaments on every core (18 s of processor time), `--quick` 5.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import partial

from . import rating

SOLO_SHARE = 0.1
SKILL = 1.0  # how much strength decides a game (1: a party 1 sd stronger wins 73 %)


@dataclass(frozen=True)
class Played:
    match: rating.Match
    scores: dict[str, int]


def logistic(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def play(rng: random.Random, table: Sequence[str], strength: dict[str, float], games: int) -> list[Played]:
    played = []
    for _ in range(games):
        order = list(table)
        rng.shuffle(order)
        re = order[:1] if rng.random() < SOLO_SHARE else order[:2]
        kontra = [p for p in table if p not in re]
        diff = sum(strength[p] for p in re) / len(re) - sum(strength[p] for p in kontra) / len(kontra)
        winner = "re" if rng.random() < logistic(SKILL * diff) else "kontra"
        margin = diff if winner == "re" else -diff
        value = 1 + sum(rng.random() < logistic(SKILL * margin - 1) for _ in range(3))
        sign = 1 if winner == "re" else -1
        scores = {p: sign * value * (3 if len(re) == 1 else 1) for p in re}
        scores.update({p: -sign * value for p in kontra})
        played.append(Played(rating.match(players=table, re=re, winner=winner, value=value), scores))
    return played


def evening(
    rng: random.Random, players: list[str], strength: dict[str, float], rounds: int, games: int
) -> list[list[Played]]:
    """Each round's games (tables of 4, random seating)."""
    out = []
    for _ in range(rounds):
        order = list(players)
        rng.shuffle(order)
        out.append([g for t in range(0, len(order), 4) for g in play(rng, order[t : t + 4], strength, games)])
    return out


def ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 1, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    return cov / math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))


def log_loss(probabilities: Sequence[float], outcomes: Sequence[bool]) -> float:
    eps = 1e-12
    return -sum(math.log(max(p if won else 1 - p, eps)) for p, won in zip(probabilities, outcomes, strict=True)) / len(
        outcomes
    )


def fit_slope(diffs: Sequence[float], outcomes: Sequence[bool]) -> float:
    """The slope k of P(Re wins) = logistic(k * diff) with the highest likelihood (Newton's method)."""
    k = 0.0
    for _ in range(50):
        gradient = sum(d * ((1.0 if won else 0.0) - logistic(k * d)) for d, won in zip(diffs, outcomes, strict=True))
        hessian = -sum(d * d * logistic(k * d) * (1 - logistic(k * d)) for d in diffs)
        if hessian == 0:
            break
        step = gradient / hessian
        k -= step
        if abs(step) < 1e-9:
            break
    return k


def party_lead(m: rating.Match, value: dict[str, float]) -> float:
    """Re's mean `value` minus Kontra's."""
    return sum(value[p] for p in m.re) / len(m.re) - sum(value[p] for p in m.kontra) / len(m.kontra)


@dataclass
class Figures:
    evenings: list[int]
    rating_rho: list[float]
    average_rho: list[float]
    rating_loss: float  # calibrated on the training games, as the Rundenschnitt model
    average_loss: float
    fixed_loss: float = 0.0  # `rating.expected` with `settings.calibration`: nothing fitted on the tournament
    library_loss: float = 0.0  # the library's own `predict_win`
    calibration: float = 0.0  # the slope a fitted for the rating
    coin_loss: float = math.log(2)


def tournament(
    seed: int,
    *,
    players: int = 120,
    evenings: int = 10,
    rounds: int = 3,
    games: int = 8,
    settings: rating.Settings = rating.DEFAULT,
) -> Figures:
    rng = random.Random(seed)
    names = [f"P{i:03d}" for i in range(players)]
    strength = {p: rng.gauss(0, 1) for p in names}
    truth = [strength[p] for p in names]
    ratings: dict[str, rating.Rating] = {}
    points = dict.fromkeys(names, 0)
    rounds_played = dict.fromkeys(names, 0)
    figures = Figures(evenings=[], rating_rho=[], average_rho=[], rating_loss=0.0, average_loss=0.0)
    train: list[Played] = []
    for number in range(1, evenings + 1):
        night = evening(rng, names, strength, rounds, games)
        if number == evenings:  # held out: predicted from the evenings before
            held_out = [g for r in night for g in r]
            outcomes = [g.match.winner == "re" for g in held_out]
            won = [g.match.winner == "re" for g in train]
            average = {p: points[p] / max(rounds_played[p], 1) for p in names}
            k = fit_slope([party_lead(g.match, average) for g in train], won)
            figures.average_loss = log_loss([logistic(k * party_lead(g.match, average)) for g in held_out], outcomes)
            mu = {p: ratings[p].mu for p in names}
            a = fit_slope([party_lead(g.match, mu) for g in train], won)
            figures.calibration = a
            figures.rating_loss = log_loss([logistic(a * party_lead(g.match, mu)) for g in held_out], outcomes)
            own = replace(settings, calibration=None)
            figures.library_loss = log_loss(
                [rating.expected(ratings, g.match.re, g.match.kontra, own) for g in held_out], outcomes
            )
            figures.fixed_loss = log_loss(
                [rating.expected(ratings, g.match.re, g.match.kontra, settings) for g in held_out], outcomes
            )
        for round_games in night:
            for g in round_games:
                ratings.update(rating.after(ratings, g.match, settings))
                for p, s in g.scores.items():
                    points[p] += s
            for p in names:
                rounds_played[p] += 1
            train.extend(round_games)
        if number >= 2:
            figures.evenings.append(number)
            figures.rating_rho.append(spearman([ratings[p].mu for p in names], truth))
            figures.average_rho.append(spearman([points[p] / rounds_played[p] for p in names], truth))
    return figures


def run(seeds: int = 20, jobs: int = 1, **kwargs) -> list[Figures]:
    """The tournaments of seeds 0 to `seeds` - 1, on `jobs` processes (the same figures either way)."""
    if jobs <= 1:
        return [tournament(seed, **kwargs) for seed in range(seeds)]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(partial(tournament, **kwargs), range(seeds)))


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def ahead(results: list[Figures]) -> list[int]:
    """For each number of evenings: in how many tournaments the rating's rank correlation is higher."""
    return [sum(f.rating_rho[i] > f.average_rho[i] for f in results) for i in range(len(results[0].evenings))]


def meets_the_bar(results: list[Figures]) -> bool:
    """The rating's bar (docs/rating.md): on average over the tournaments, the rating's rank correlation is
    higher than the Rundenschnitt's at every number of evenings, and its calibrated log-loss is lower."""
    higher = all(
        mean([f.rating_rho[i] for f in results]) > mean([f.average_rho[i] for f in results])
        for i in range(len(results[0].evenings))
    )
    return higher and mean([f.rating_loss for f in results]) < mean([f.average_loss for f in results])


def describe(settings: rating.Settings) -> str:
    if not settings.weighted:
        weighting = "every game weighs 1"
    elif settings.repeat:
        weighting = f"a game of value v rated as v wins (v at most {rating.WEIGHT_CAP})"
    else:
        weighting = f"a game of value v rated once with the noise beta / v (v at most {rating.WEIGHT_CAP})"
    model = "openskill Plackett-Luce, party = mean of players"
    return f"{model}, beta {settings.beta:.3g}, tau {settings.tau:.3g}, {weighting}"


def report(results: list[Figures], settings: rating.Settings) -> list[str]:
    n = len(results)
    lines = [f"rating: {describe(settings)}; {n} tournaments (seeds 0-{n - 1})"]
    lines.append("evenings  rho(rating)  rho(Rundenschnitt)  rating higher in")
    for i, (number, count) in enumerate(zip(results[0].evenings, ahead(results), strict=True)):
        r, a = mean([f.rating_rho[i] for f in results]), mean([f.average_rho[i] for f in results])
        lines.append(f"{number:8d}  {r:11.3f}  {a:18.3f}  {count}/{n}")
    beaten = sum(f.rating_loss < f.average_loss for f in results)
    lines += [
        "log-loss on the held-out last evening (lower is better):",
        f"  rating, calibrated on the training games       {mean([f.rating_loss for f in results]):.4f}"
        f"  (lower than the Rundenschnitt model's in {beaten}/{n})",
        f"  Rundenschnitt model, calibrated the same way   {mean([f.average_loss for f in results]):.4f}",
        f"  rating.expected, fixed calibration {settings.calibration}        "
        f"{mean([f.fixed_loss for f in results]):.4f}",
        f"  the library's own predict_win (uncalibrated)   {mean([f.library_loss for f in results]):.4f}",
        f"  a coin                                         {math.log(2):.4f}",
        f"calibration slope a fitted for the rating: mean {mean([f.calibration for f in results]):.3f}, "
        f"{min(f.calibration for f in results):.3f} to {max(f.calibration for f in results):.3f}",
        f"the rating's bar (mean rho higher at every number of evenings, lower log-loss): "
        f"{'met' if meets_the_bar(results) else 'NOT met'}; rating higher in every tournament at every "
        f"number of evenings: {'yes' if all(c == n for c in ahead(results)) else 'no'}",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring.rating_sim", description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="tournaments, seeds 0 to n-1 (default 20)")
    parser.add_argument("--quick", action="store_true", help="5 tournaments")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)")
    parser.add_argument("--players", type=int, default=120)
    parser.add_argument("--evenings", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=8, help="games per table and round (default 8)")
    parser.add_argument("--beta", type=float, default=rating.BETA)
    parser.add_argument("--tau", type=float, default=rating.TAU)
    parser.add_argument("--unweighted", action="store_true", help="every game weighs 1")
    parser.add_argument(
        "--noise", action="store_true", help="a game of value v rated once with the noise beta / v (until 2026-11)"
    )
    parser.add_argument("--calibration", type=float, default=rating.CALIBRATION)
    args = parser.parse_args(argv)
    settings = rating.Settings(
        beta=args.beta,
        tau=args.tau,
        weighted=not args.unweighted,
        repeat=not args.noise,
        calibration=args.calibration,
    )
    started = time.perf_counter()
    results = run(
        5 if args.quick else args.seeds,
        args.jobs,
        players=args.players,
        evenings=args.evenings,
        rounds=args.rounds,
        games=args.games,
        settings=settings,
    )
    print("\n".join(report(results, settings)))
    print(f"{time.perf_counter() - started:.1f} s on {args.jobs} processes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
