"""Each player's rating in a tournament (scoring/rating.py, docs/rating.md): derived data, like `Tally`.

Written by `services.ratings` inside the writes that change the scores (`services.scores.write_scores`),
in the same transaction; recomputed exactly from the first changed round when a game is corrected or
deleted."""

from __future__ import annotations

from django.db import models

from .players import Entry
from .rounds import Round, Table
from .tournaments import Tournament


class RatingStep(models.Model):
    """A player's rating after his games at one table (one round): the points of his chart, and where
    a recomputation from a later round starts."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rating_steps")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="rating_steps")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()  # games rated in the tournament up to here

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "entry"], name="rating_step_unique_entry")]

    def __str__(self):
        return f"{self.mu:.1f} ± {self.sigma:.1f}"


class Rating(models.Model):
    """A player's rating in the tournament now (his newest `RatingStep`)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="ratings")
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()

    def __str__(self):
        return f"{self.mu:.1f} ± {self.sigma:.1f}"
