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
        ASSOCIATION = "association", _("die Ranglistenturniere der Mitgliedsvereine eines Verbands")

    organisation = models.ForeignKey("tournament.Organisation", on_delete=models.PROTECT, related_name="ranglisten",
                                     verbose_name=_("Organisation"))
    name = models.CharField(_("Name"), max_length=200, validators=[VisibleName()])
    slug = models.SlugField(_("Kurzname"), max_length=80, unique=True)
    source = models.CharField(_("Turniere"), max_length=12, choices=Source.choices, default=Source.FLAGGED)
    series = models.ForeignKey("tournament.Series", on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="ranglisten", verbose_name=_("Serie"))
    months = models.PositiveSmallIntegerField(_("Zeitraum in Monaten"), default=rules.MONTHS)
    minimum_rounds = models.PositiveSmallIntegerField(_("Mindestzahl Runden"), default=rules.MINIMUM_ROUNDS)
    # [[place, label], …]: places up to `place` qualify for `label`
    cut_lines = models.JSONField(_("Qualifikationslinien"), default=list, blank=True)
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="directed_ranglisten", blank=True)
    # an association's Rangliste (source "association", docs/competitions.md, "The association's Rangliste"):
    # the organisations whose published Ranglistenturniere count, and the rules a tournament must meet
    members = models.ManyToManyField("tournament.Organisation", related_name="counted_in_ranglisten", blank=True,
                                     verbose_name=_("Mitgliedsvereine"))
    minimum_players = models.PositiveSmallIntegerField(_("Mindestzahl Spieler je Turnier"), default=32)
    minimum_tournament_rounds = models.PositiveSmallIntegerField(_("Mindestzahl Runden je Turnier"), default=3)
    # the stored list (RanglisteStanding …): wanted anew since a tournament arrived; computed for which day
    stale = models.BooleanField(default=True)
    computed_on = models.DateField(null=True, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)  # when the computation stored began
    # {"ranked", "below", "tournaments", "window": [from, until], "cuts": [[place, label, rows_above, moved]]}
    computed = models.JSONField(default=dict, blank=True)
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


class RanglisteStanding(models.Model):
    """One line of an association's Rangliste as computed on `Rangliste.computed_on` (what the page
    reads; written whole by `services.rangliste_refresh`, equal to computing it anew, tested). Names as
    entered with their strictest publication level: the level is applied where the line is shown."""

    rangliste = models.ForeignKey(Rangliste, on_delete=models.CASCADE, related_name="standings")
    position = models.PositiveIntegerField()  # the order of the page: ranked by place, then those below the minimum
    key = models.CharField(max_length=400)  # who the player is (selectors.rangliste.identity)
    link = models.CharField(max_length=20)  # selectors.rangliste.public_key(key)
    name = models.CharField(max_length=200)
    club = models.CharField(max_length=200, blank=True)
    member_number = models.CharField(max_length=40, blank=True)  # empty unless published
    publication = models.CharField(max_length=8)
    ranked = models.BooleanField()
    place = models.PositiveIntegerField()  # ranked: the place; below the minimum: the place the average would give
    shared = models.PositiveIntegerField(default=1)
    rounds = models.PositiveIntegerField()
    points = models.IntegerField()
    tournaments = models.PositiveIntegerField()
    qualifies = models.CharField(max_length=100, blank=True)

    class Meta:
        indexes = [models.Index(fields=["rangliste", "position"]), models.Index(fields=["rangliste", "link"])]

    def __str__(self):
        return f"{self.place} {self.name}"


class RanglisteCount(models.Model):
    """A player's rounds and points in one tournament of an association's Rangliste (their history)."""

    rangliste = models.ForeignKey(Rangliste, on_delete=models.CASCADE, related_name="counts")
    link = models.CharField(max_length=20)
    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="+")
    rounds = models.PositiveIntegerField()
    points = models.IntegerField()

    class Meta:
        indexes = [models.Index(fields=["rangliste", "link"])]

    def __str__(self):
        return f"{self.link} {self.tournament_id}: {self.rounds}"


class RanglisteTournament(models.Model):
    """A published Ranglistenturnier of a member club as the association's rules found it on arrival:
    counts, or why not (`reason`: players, rounds, standings)."""

    class Reason(models.TextChoices):
        COUNTS = "", _("zählt")
        PLAYERS = "players", _("zu wenige Spieler")
        ROUNDS = "rounds", _("zu wenige Runden")
        STANDINGS = "standings", _("Tabelle nicht öffentlich")

    rangliste = models.ForeignKey(Rangliste, on_delete=models.CASCADE, related_name="checked_tournaments")
    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=10, blank=True, choices=Reason.choices)
    players = models.PositiveIntegerField()
    rounds = models.PositiveIntegerField()

    class Meta:
        indexes = [models.Index(fields=["rangliste", "reason"])]

    def __str__(self):
        return f"{self.tournament_id} {self.reason or 'counts'}"


class RanglistePlace(models.Model):
    """A ranked player's place in an association's Rangliste on a day (their places over time,
    docs/competitions.md, "Places over time"): written by each refresh in the transaction that stores
    the list, one row per player and day (a second refresh on the day replaces the day's rows); older
    days are kept. The player is their `link` (`selectors.rangliste.public_key` of who they are), so a
    row holds no name; `publication` is the strictest level of their records that day."""

    rangliste = models.ForeignKey(Rangliste, on_delete=models.CASCADE, related_name="places")
    link = models.CharField(max_length=20)
    day = models.DateField()
    place = models.PositiveIntegerField()
    publication = models.CharField(max_length=8)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["rangliste", "link", "day"], name="rangliste_place_once")]
        indexes = [models.Index(fields=["link", "day"], name="rangliste_place_link")]

    def __str__(self):
        return f"{self.link} {self.day}: {self.place}"
