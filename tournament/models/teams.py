"""Teams of a tournament (docs/competitions.md): a name and 2 to 6 members (entries); how many of
them count (all, or the best k) is the tournament's (`Tournament.team_count`, the same k for every
team, as `scoring.teams` ranks them). The standings are `scoring.teams` fed by `selectors.teams`.

The models it refers to are named by their labels."""

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.teams import MAX_MEMBERS, MIN_MEMBERS

from ..validators import VisibleName
from .changes import kept_history


class Team(models.Model):
    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("Name"), max_length=80, validators=[VisibleName()])
    version = models.PositiveIntegerField(default=1)  # of the name and the members
    history = kept_history()

    class Meta:
        ordering = ["tournament", "name"]
        verbose_name = _("Team")
        verbose_name_plural = _("Teams")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_unique_name"),
        ]

    def __str__(self):
        return self.name


class TeamMember(models.Model):
    """An entry in a team; an entry is in at most one team (the one-to-one field)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    entry = models.OneToOneField("tournament.Entry", on_delete=models.CASCADE, related_name="team_membership",
                                 verbose_name=_("Spieler"))

    class Meta:
        ordering = ["team", "entry__start_number"]

    def __str__(self):
        return f"{self.team_id}: {self.entry_id}"

    def clean(self):
        super().clean()
        if self.team_id and self.entry_id and self.team.tournament_id != self.entry.tournament_id:
            raise ValidationError({"entry": _("Dieser Spieler spielt in einem anderen Turnier.")})


__all__ = ["MAX_MEMBERS", "MIN_MEMBERS", "Team", "TeamMember"]
