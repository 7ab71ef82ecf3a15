"""The rating carried across an association's Rangliste, stored with the list (docs/rating.md, "Across
clubs on the hub"): computed by the list's refresh (`rangliste_refresh.refresh_rangliste`), in the
background, with the code that carries a Rangliste's rating on read (`selectors.ratings.carry`): all the
Rangliste's tournaments in the order of their dates, each one's games from the ratings after the ones
before. The refresh rates again from the first tournament whose digest moved (its change counter, who
its entries are, or a tournament before it), starting from the stored ratings after the ones before;
the result equals rating every game anew in order (tested)."""

from __future__ import annotations

from dataclasses import dataclass

from scoring import rating

from ..log import audit
from ..models import Rangliste, RanglisteRatedTournament, RanglisteRating
from ..selectors.rangliste import Read, public_key
from ..selectors.ratings import carry, change_counters, scope_digests, scope_ids
from . import bulk


@dataclass(frozen=True)
class Rated:
    """What the refresh stores: the rated tournaments in order with their digests, and each player's
    rating after each of them (by link); `again`: the tournaments rated anew (the rest were kept)."""

    tournaments: list[tuple[int, str]]
    after: list[dict[str, rating.Rating]]
    again: int


def compute(*, rangliste: Rangliste, found: Read) -> Rated:
    """The carried ratings of the tournaments the Rangliste read (`found`). Reads: the change counters
    and the stored digests; the stored ratings before the first tournament whose digest moved, and that
    one's and the later ones' seats and games (at most 4 queries)."""
    ids = scope_ids(found)
    digests = scope_digests(found, ids, change_counters(ids))
    kept = list(
        RanglisteRatedTournament.objects.filter(rangliste=rangliste)
        .order_by("position")
        .values_list("tournament_id", "digest")
    )
    first = 0
    while first < min(len(kept), len(ids)) and kept[first] == (ids[first], digests[first]):
        first += 1
    link_key = {public_key(key): key for key in found.keys.values()}
    after: list[dict[str, rating.Rating]] = [{} for _ in range(first)]
    now: dict[str, rating.Rating] = {}
    if first:
        for position, link, mu, sigma, games in (
            RanglisteRating.objects.filter(rangliste=rangliste, position__lt=first)
            .order_by("position")
            .values_list("position", "link", "mu", "sigma", "games")
        ):
            value = rating.Rating(mu=mu, sigma=sigma, games=games)
            after[position][link_key[link]] = value
            now[link_key[link]] = value
    after.extend(carry(found, ids[first:], now) if first < len(ids) else [])
    return Rated(tournaments=list(zip(ids, digests, strict=True)), after=after, again=len(ids) - first)


def store(*, rangliste: Rangliste, rated: Rated) -> None:
    """Writes the ratings whole, in the refresh's transaction (a step of its recording)."""
    audit.require("rangliste_ratings.store")
    RanglisteRating.objects.filter(rangliste=rangliste)._raw_delete(RanglisteRating.objects.db)
    RanglisteRatedTournament.objects.filter(rangliste=rangliste)._raw_delete(RanglisteRatedTournament.objects.db)
    bulk.insert_dicts(
        RanglisteRatedTournament,
        [
            {"rangliste_id": rangliste.pk, "tournament_id": tournament_id, "position": position, "digest": digest}
            for position, (tournament_id, digest) in enumerate(rated.tournaments)
        ],
    )
    newest = {key: position for position, delta in enumerate(rated.after) for key in delta}
    bulk.insert_dicts(
        RanglisteRating,
        [
            {
                "rangliste_id": rangliste.pk,
                "tournament_id": rated.tournaments[position][0],
                "position": position,
                "link": public_key(key),
                "mu": value.mu,
                "sigma": value.sigma,
                "games": value.games,
                "latest": newest[key] == position,
            }
            for position, delta in enumerate(rated.after)
            for key, value in delta.items()
        ],
    )
