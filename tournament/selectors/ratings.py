"""The players' ratings (docs/rating.md): each player's now, and one player's course round by round.
One query each."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.formats import number_format

from scoring import rating

from ..models import Rating, RatingStep, Tournament


def ratings_of(tournament: Tournament) -> dict[int, rating.Rating]:
    """Each rated player's rating now, by entry id."""
    return {entry_id: rating.Rating(mu=mu, sigma=sigma, games=games) for entry_id, mu, sigma, games in
            Rating.objects.filter(tournament=tournament).values_list("entry_id", "mu", "sigma", "games")}


@dataclass(frozen=True)
class RatingCourse:
    now: rating.Rating
    rounds: list[tuple[int, rating.Rating]]  # (round number, rating after it), in order

    @property
    def missing(self) -> int:
        return self.now.games_missing


def rating_course(entry_id: int) -> RatingCourse | None:
    """One player's rating after each round he played; None before his first game."""
    steps = [(number, rating.Rating(mu=mu, sigma=sigma, games=games)) for number, mu, sigma, games in
             RatingStep.objects.filter(entry_id=entry_id).order_by("round__number")
             .values_list("round__number", "mu", "sigma", "games")]
    return RatingCourse(now=steps[-1][1], rounds=steps) if steps else None


def rating_version(entry_id: int) -> int:
    """The id of the player's newest rating step (0: none): the steps of a table are written anew
    whenever its games are rated again, so a new id means the rating may have moved. One query."""
    return RatingStep.objects.filter(entry_id=entry_id).order_by("-id").values_list("id", flat=True).first() or 0


def rating_text(value: rating.Rating) -> str:
    """The rating as the pages show it: mu, one decimal."""
    return number_format(value.mu, 1)  # with the reader's decimal mark: 27,9 / 27.9
