"""The rating carried across an association's Rangliste (docs/rating.md, "Across clubs on the hub"):
stored with the list by its refresh (`services.rangliste_ratings`), like `RanglisteStanding`: each
rated tournament in order with the digest of what it was rated from, and each player's rating after
each tournament he played there."""

from django.db import models

from .rangliste import Rangliste
from .tournaments import Tournament


class RanglisteRatedTournament(models.Model):
    """A tournament of an association's Rangliste as its players were rated, in order (`position`), with
    the digest of that tournament and every one before it (their change counters and who their entries
    are): a refresh rates again from the first tournament whose digest moved."""

    rangliste = models.ForeignKey(Rangliste, on_delete=models.CASCADE, related_name="rated_tournaments")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()
    digest = models.CharField(max_length=24)

    class Meta:
        indexes = [models.Index(fields=["rangliste", "position"])]

    def __str__(self):
        return f"{self.position}: {self.tournament_id}"


class RanglisteRating(models.Model):
    """A player's rating after one tournament of an association's Rangliste (`latest`: his newest, the
    rating now), by the link of his line (`RanglisteStanding.link`)."""

    rangliste = models.ForeignKey(Rangliste, on_delete=models.CASCADE, related_name="ratings")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()  # the tournament's place in the order (RanglisteRatedTournament)
    link = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()  # games rated across the Rangliste up to here
    latest = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["rangliste", "link"]), models.Index(fields=["rangliste", "latest", "link"])]

    def __str__(self):
        return f"{self.link} {self.mu:.1f} ± {self.sigma:.1f}"
