"""An organisation (a club, or an association) on a site that serves many: it owns its tournaments,
series, Ranglisten and players (docs/security.md, "Organisations"). Its organisers create
tournaments, series and Ranglisten within it and restore its backups; the site's administrator
creates organisations and their first organiser (`manage.py create_organisation`)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .changes import kept_history
from .search_keys import SearchKeyField


class Region(models.TextChoices):
    """Where a club plays, for the hub's calendar filter (docs/hub.md): the German states, the way the
    Doppelkopf associations' Landesverbände are drawn."""

    BW = "BW", "Baden-Württemberg"
    BY = "BY", "Bayern"
    BE = "BE", "Berlin"
    BB = "BB", "Brandenburg"
    HB = "HB", "Bremen"
    HH = "HH", "Hamburg"
    HE = "HE", "Hessen"
    MV = "MV", "Mecklenburg-Vorpommern"
    NI = "NI", "Niedersachsen"
    NW = "NW", "Nordrhein-Westfalen"
    RP = "RP", "Rheinland-Pfalz"
    SL = "SL", "Saarland"
    SN = "SN", "Sachsen"
    ST = "ST", "Sachsen-Anhalt"
    SH = "SH", "Schleswig-Holstein"
    TH = "TH", "Thüringen"


class Organisation(models.Model):
    name = models.CharField(_("Name"), max_length=200)
    slug = models.SlugField(_("Kurzname"), max_length=80, unique=True)
    # who acts for the organisation: creates tournaments, series and Ranglisten, restores backups
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organisations", blank=True,
                                        verbose_name=_("Veranstalter"))
    # member numbers of its players appear on public pages and exports only when this is on
    publish_member_numbers = models.BooleanField(_("Mitgliedsnummern öffentlich"), default=False)
    # the players' rating (docs/rating.md): off hides it on every tournament, series and Rangliste of the
    # organisation, whatever a tournament's own switch says (services.organisations.switch_rating)
    rating_enabled = models.BooleanField(_("Wertungszahl zeigen"), default=True)
    # the region of the hub's calendar filter; "": none given (listed under every region's "alle")
    region = models.CharField(_("Region"), max_length=2, choices=Region.choices, blank=True, default="")
    search_key = SearchKeyField(sources=("name",))  # the name folded, for the hub's search
    created_at = models.DateTimeField(auto_now_add=True)
    history = kept_history("created_at", "search_key")

    class Meta:
        ordering = ["name"]
        verbose_name = _("Organisation")
        verbose_name_plural = _("Organisationen")

    def __str__(self):
        return self.name
