"""Players across clubs on the hub (docs/hub.md, "Players across clubs"): an organisation's decision
that its guest record (no member number) is, or is not, the same person as another record
(`IdentityDecision`), and a player's request to correct a tournament's result (`CorrectionRequest`).
Who is the same person is read in one place: `selectors/identities.py`."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from .changes import kept_history
from .organisations import Organisation
from .players import Player
from .tournaments import Tournament


class IdentityDecision(models.Model):
    """A director of `organisation` decided about their own record `player` (a guest: no member number)
    and another record `other` (of any organisation, shown to them only as the public sees it): the
    same person (`same`) or not. Undoing it deletes the row (its history keeps it)."""

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="identity_decisions")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="identity_decisions")
    other = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    same = models.BooleanField(_("dieselbe Person"))
    decided_at = models.DateTimeField(auto_now=True)
    history = kept_history()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "other"], name="identity_decision_once")]

    def __str__(self):
        return f"{self.player_id} {'=' if self.same else '≠'} {self.other_id}"


class CorrectionRequest(models.Model):
    """A player's request, from their page on the hub, that a tournament's result be corrected: what is
    wrong and (optionally) how to reach them. Only the tournament's directors read it and answer."""

    class Status(models.TextChoices):
        OPEN = "open", _("offen")
        ANSWERED = "answered", _("beantwortet")
        DECLINED = "declined", _("abgelehnt")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="correction_requests")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="correction_requests")
    text = models.TextField(_("Was ist falsch?"), max_length=1000)
    contact = models.CharField(_("Kontakt (freiwillig)"), max_length=200, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    answer = models.CharField(_("Antwort"), max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    history = kept_history("contact")

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["tournament", "status"], name="correction_open")]

    def __str__(self):
        return f"{self.tournament_id}: {self.text[:30]}"
