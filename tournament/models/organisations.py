"""An organisation (a club, or an association) on a site that serves many: it owns its tournaments,
series, Ranglisten and players (docs/security.md, "Organisations"). Its organisers create
tournaments, series and Ranglisten within it and restore its backups; the site's administrator
creates organisations and their first organiser (`manage.py create_organisation`)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .changes import kept_history


class Organisation(models.Model):
    name = models.CharField(_("Name"), max_length=200)
    slug = models.SlugField(_("Kurzname"), max_length=80, unique=True)
    # who acts for the organisation: creates tournaments, series and Ranglisten, restores backups
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organisations", blank=True,
                                        verbose_name=_("Veranstalter"))
    # member numbers of its players appear on public pages and exports only when this is on
    publish_member_numbers = models.BooleanField(_("Mitgliedsnummern öffentlich"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    history = kept_history("created_at")

    class Meta:
        ordering = ["name"]
        verbose_name = _("Organisation")
        verbose_name_plural = _("Organisationen")

    def __str__(self):
        return self.name
