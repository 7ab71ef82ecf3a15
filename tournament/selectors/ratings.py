"""The players' ratings (docs/rating.md): each player's now, and one player's course round by round
(one query each); the games and change counters a scope across tournaments is carried from."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Exists, Max
from django.utils import numberformat
from django.utils.formats import get_format
from django.utils.translation import get_language

from scoring import rating

from ..models import DataChange, Game, Rating, RatingStep, Round, Seat, Tournament


def ratings_of(tournament: Tournament, *, include_hidden: bool = True) -> dict[int, rating.Rating]:
    """Each rated player's rating now, by entry id; without `include_hidden` (the public), the rating
    after the newest round whose results are not hidden (a hidden round's games must not show through
    the rating). One query; for the public two while a round's results are hidden.

    While no round is hidden, a player's newest step is his rating now (`services.ratings` writes both
    together), so the public reads the ratings now too: one row a player instead of one a player and
    round (6.6 against 2.4 ms for 1,000 players after 3 rounds on PostgreSQL, in every first render of
    the standings after a change); whether a round is hidden comes with the same query."""
    rows = Rating.objects.filter(tournament=tournament)
    if not include_hidden:
        rows = rows.annotate(hidden=Exists(Round.objects.filter(tournament=tournament, results_hidden=True)))
    found: dict[int, rating.Rating] = {}
    for entry_id, mu, sigma, games, *hidden in rows.values_list("entry_id", "mu", "sigma", "games",
                                                               *([] if include_hidden else ["hidden"])):
        if hidden and hidden[0]:
            return _visible_steps(tournament)
        found[entry_id] = rating.Rating(mu=mu, sigma=sigma, games=games)
    return found


def _visible_steps(tournament: Tournament) -> dict[int, rating.Rating]:
    """Each player's rating after the newest round whose results are not hidden: his newest such step."""
    found: dict[int, rating.Rating] = {}
    for entry_id, mu, sigma, games in (RatingStep.objects.filter(round__tournament=tournament,
                                                                 round__results_hidden=False)
                                       .order_by("round__number").values_list("entry_id", "mu", "sigma", "games")):
        found[entry_id] = rating.Rating(mu=mu, sigma=sigma, games=games)
    return found


@dataclass(frozen=True)
class RatingCourse:
    now: rating.Rating
    rounds: list[tuple[int, rating.Rating]]  # (round number, rating after it), in order

    @property
    def missing(self) -> int:
        return self.now.games_missing


def rating_course(entry_id: int, *, include_hidden: bool = True) -> RatingCourse | None:
    """One player's rating after each round he played (without `include_hidden`: the rounds whose
    results are not hidden); None before his first game."""
    steps_of = RatingStep.objects.filter(entry_id=entry_id)
    if not include_hidden:
        steps_of = steps_of.filter(round__results_hidden=False)
    steps = [(number, rating.Rating(mu=mu, sigma=sigma, games=games)) for number, mu, sigma, games in
             steps_of.order_by("round__number")
             .values_list("round__number", "mu", "sigma", "games")]
    return RatingCourse(now=steps[-1][1], rounds=steps) if steps else None


def rating_text(value: rating.Rating) -> str:
    """The rating as the pages show it: mu, one decimal, with the reader's decimal mark (27,9 / 27.9)."""
    return mu_text(value.mu)


def mu_text(mu: float) -> str:
    """`rating_text` of a rating's mu: what Django's `number_format(mu, 1)` gives (the digits cut, not
    rounded), through the same `numberformat.format` with the language's format read once per call
    instead of once per part."""
    language = get_language()
    decimal_mark, grouping, thousands = (get_format(name, language) for name in
                                         ("DECIMAL_SEPARATOR", "NUMBER_GROUPING", "THOUSAND_SEPARATOR"))
    return numberformat.format(mu, decimal_mark, 1, grouping, thousands)


# ---- a scope across tournaments: a series, a Rangliste (web/rating_scopes.py, docs/rating.md) -------------


def change_counters(tournament_ids: list[int]) -> dict[int, int]:
    """Each tournament's change counter (its newest change; every write moves it). One query."""
    return dict(DataChange.objects.filter(tournament_id__in=tournament_ids).order_by().values("tournament_id")
                .annotate(top=Max("id")).values_list("tournament_id", "top"))


def scope_games(tournament_ids: list[int]) -> dict[int, list[tuple[list[int], list[int], str, int]]]:
    """Each tournament's games as the rating reads them: (the four who played it, the Re party, the
    winner, the value before doubling), in the order round, table, game; rounds whose results are hidden
    left out (as the Rangliste leaves them out). Two queries."""
    seated: dict[int, list[int]] = defaultdict(list)
    for table_id, entry_id in (Seat.objects.filter(round__tournament_id__in=tournament_ids,
                                                   round__results_hidden=False)
                               .order_by("position").values_list("table_id", "entry_id")):
        seated[table_id].append(entry_id)
    games: dict[int, list[tuple[list[int], list[int], str, int]]] = defaultdict(list)
    rows = (Game.objects.filter(table__round__tournament_id__in=tournament_ids, table__round__results_hidden=False)
            .order_by("table__round__tournament_id", "table__round__number", "table__number", "number")
            .values_list("table__round__tournament_id", "table_id", "re", "winner", "value", "multiplier",
                         "sitting_out_id"))
    for tournament_id, table_id, re, winner, value, multiplier, sitting_out in rows:
        players = [e for e in seated.get(table_id, []) if e != sitting_out]
        games[tournament_id].append((players, list(re), winner, value // (multiplier or 1)))
    return games


def ratings_before(tournament: Tournament, round_number: int, *, include_hidden: bool = True
                   ) -> dict[int, rating.Rating]:
    """Each player's rating before round `round_number`: his newest step of an earlier round (a
    player without one is new; without `include_hidden`, of an earlier round whose results are not
    hidden). One query."""
    found: dict[int, rating.Rating] = {}
    steps = RatingStep.objects.filter(round__tournament=tournament, round__number__lt=round_number)
    if not include_hidden:
        steps = steps.filter(round__results_hidden=False)
    for entry_id, mu, sigma, games in (steps
                                       .order_by("round__number").values_list("entry_id", "mu", "sigma", "games")):
        found[entry_id] = rating.Rating(mu=mu, sigma=sigma, games=games)
    return found


def scope_ids(read) -> list[int]:
    """The tournaments of a scope (`selectors.rangliste.Read`) that are rated, in order: those whose rating
    is on (their own switch and their organisation's)."""
    return [t.pk for t in read.tournaments if t.rating_shown and getattr(t, "organisation_rating", True)]


def scope_digests(read, ids: list[int], counters: dict[int, int]) -> list[str]:
    """For each tournament of `ids` in order, a digest of what its ratings are computed from: it and every
    one before it, with their change counters and who each of their entries is."""
    entries: dict[int, list[tuple[int, str]]] = {t: [] for t in ids}
    for entry_id, key in read.keys.items():
        if read.tournament_of[entry_id] in entries:
            entries[read.tournament_of[entry_id]].append((entry_id, key))
    digests, previous = [], ""
    for tournament_id in ids:
        parts = (previous, tournament_id, counters.get(tournament_id, 0), sorted(entries[tournament_id]))
        previous = hashlib.sha256("\x1f".join(str(part) for part in parts).encode()).hexdigest()[:24]
        digests.append(previous)
    return digests


def carry(read, ids: list[int], now: dict[str, rating.Rating]) -> list[dict[str, rating.Rating]]:
    """Rates the tournaments `ids` in order, each one's games (`scope_games`) from the players' ratings
    `now` (keyed by who they are across the scope, `read.keys`) after the tournaments before: for each,
    the ratings after it of the players who played in it. A tournament entered as totals only has no games
    and rates nobody. Two queries."""
    now = dict(now)
    games = scope_games(ids)
    after = []
    for tournament_id in ids:
        played: set[str] = set()
        for players, re, winner, value in games.get(tournament_id, []):
            if any(p not in read.keys for p in players):
                continue  # (an entry the Rangliste does not know: none, as it reads them all)
            match = rating.match(players=[read.keys[p] for p in players], re=[read.keys[int(e)] for e in re],
                                 winner=winner, value=value)
            now.update(rating.after(now, match))
            played.update(match.re + match.kontra)
        after.append({player: now[player] for player in played})
    return after
