"""People and their part in a tournament."""


from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .. import privacy
from ..validators import MOST_START_NUMBER, SMALL, Between, VisibleName
from .changes import kept_history
from .organisations import Organisation
from .search_keys import SearchKeyField
from .tournaments import CATEGORIES, Tournament


class Player(models.Model):
    """A person of an organisation (a club's player record); takes part in its tournaments through an
    Entry. Another organisation's tournaments have their own record of the same person."""

    organisation = models.ForeignKey(Organisation, on_delete=models.PROTECT, related_name="players",
                                     verbose_name=_("Organisation"))
    name = models.CharField(_("Name"), max_length=120, validators=[VisibleName()])
    club = models.CharField(_("Verein"), max_length=120, blank=True, validators=[VisibleName("club")])
    # the association's member number: the same number is the same person in every Rangliste. It
    # belongs to this record of the organisation: only its directors change it (services/rangliste.py)
    member_number = models.CharField(_("Mitgliedsnummer"), max_length=20, blank=True)
    # how much of the person the public sees, in every tournament of the organisation (privacy.py)
    publication = models.CharField(_("Veröffentlichung"), max_length=8, choices=privacy.CHOICES,
                                   default=privacy.FULL)
    # the name folded, for the hub's search (docs/hub.md; found only at the full name's level)
    search_key = SearchKeyField(sources=("name",))

    class Meta:
        ordering = ["name"]
        verbose_name = pgettext_lazy("one player", "Spieler")
        verbose_name_plural = _("Spieler")
        # the hub's player page finds a person's records at every club by their number (docs/hub.md)
        indexes = [models.Index(fields=["member_number"], name="player_member_number")]

    def __str__(self):
        return f"{self.name} ({self.club})" if self.club else self.name

    def save(self, *args, **kwargs):
        if getattr(self, "shown_to_public", False):  # its name replaced for a public page (privacy.for_public)
            raise RuntimeError("a player read for a public page is not saved")
        super().save(*args, **kwargs)


class Entry(models.Model):
    """A player's entry in one tournament: start number, and from which round they play."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    start_number = models.PositiveIntegerField(_("Startnummer"), validators=[Between(1, MOST_START_NUMBER)])
    joined_round = models.PositiveSmallIntegerField(_("dabei ab Runde"), default=1, validators=[Between(1, SMALL)])
    # withdrawn: not seated from this round on; null while active
    withdrawn_from_round = models.PositiveSmallIntegerField(_("zurückgezogen ab Runde"), null=True, blank=True,
                                                            validators=[Between(1, SMALL)])
    # the player's categories here (prize list, standings by category): of CATEGORIES and the tournament's own
    categories = models.JSONField(_("Kategorien"), default=list, blank=True)
    # checked in at the door; once anyone is, a draw seats only those present (services/checkin.py)
    present = models.BooleanField(_("anwesend"), default=False)
    history = kept_history()

    CATEGORIES = CATEGORIES  # the usual categories (models/tournaments.py)

    class Meta:
        ordering = ["start_number"]
        verbose_name = _("Teilnahme")
        verbose_name_plural = _("Teilnahmen")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_once_per_tournament"),
            models.UniqueConstraint(fields=["tournament", "start_number"], name="entry_unique_start_number"),
        ]

    def __str__(self):
        return f"{self.start_number}. {self.player.name}"

    @property
    def name(self) -> str:
        return self.player.name

    def clean(self):
        """Withdrawn before playing is allowed (in the round they joined), not before joining."""
        if self.withdrawn_from_round is not None and self.withdrawn_from_round < self.joined_round:
            raise ValidationError({"withdrawn_from_round": _("darf nicht vor joined_round (%(joined)s) liegen")
                                   % {"joined": self.joined_round}})

    def plays_in(self, round_number: int) -> bool:
        return self.joined_round <= round_number and (
            self.withdrawn_from_round is None or round_number < self.withdrawn_from_round)

