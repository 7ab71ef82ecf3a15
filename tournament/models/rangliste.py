"""A ranking list across tournaments (Rangliste, docs/competitions.md): which tournaments feed it,
its window, its minimum of rounds and its cut lines. The rules are in
`scoring/rangliste.py`, the reading in `selectors/rangliste.py`."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring import rangliste as rules

from ..validators import VisibleName
from .changes import kept_history


class Rangliste(models.Model):
    """The results of a series' tournaments, or of every tournament flagged
    `counts_for_rangliste`, ranked by the average per round over a rolling window."""

    class Source(models.TextChoices):
        SERIES = "series", _("die Turniere einer Serie")
        FLAGGED = "flagged", _("alle Turniere, die für die Rangliste zählen")

    organisation = models.ForeignKey("tournament.Organisation", on_delete=models.PROTECT, related_name="ranglisten",
                                     verbose_name=_("Organisation"))
    name = models.CharField(_("Name"), max_length=200, validators=[VisibleName()])
    slug = models.SlugField(_("Kurzname"), max_length=80, unique=True)
    source = models.CharField(_("Turniere"), max_length=8, choices=Source.choices, default=Source.FLAGGED)
    series = models.ForeignKey("tournament.Series", on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="ranglisten", verbose_name=_("Serie"))
    months = models.PositiveSmallIntegerField(_("Zeitraum in Monaten"), default=rules.MONTHS)
    minimum_rounds = models.PositiveSmallIntegerField(_("Mindestzahl Runden"), default=rules.MINIMUM_ROUNDS)
    # [[place, label], …]: places up to `place` qualify for `label`
    cut_lines = models.JSONField(_("Qualifikationslinien"), default=list, blank=True)
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="directed_ranglisten", blank=True)
    public = models.BooleanField(_("Rangliste öffentlich"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    version = models.PositiveIntegerField(default=1)
    history = kept_history("created_at")

    class Meta:
        ordering = ["name"]
        verbose_name = _("Rangliste")
        verbose_name_plural = _("Ranglisten")

    def __str__(self):
        return self.name

    def cut_line_pairs(self) -> list[tuple[int, str]]:
        return [(int(place), str(label)) for place, label in self.cut_lines]
