"""A player's registration on the tournament's public page (docs/tournament.md, "Anmeldung und
Check-in"): what they typed, their contact (for the director only, never on a public page), and
where they stand: registered (with an `Entry`), on the waiting list, or withdrawn."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from .. import privacy
from ..validators import VisibleName
from .changes import kept_history
from .players import Entry
from .tournaments import Tournament


class Registration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("angemeldet")
        WAITING = "waiting", _("Warteliste")
        WITHDRAWN = "withdrawn", _("abgemeldet")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    name = models.CharField(_("Name"), max_length=120, validators=[VisibleName()])
    club = models.CharField(_("Verein"), max_length=120, blank=True, validators=[VisibleName("club")])
    category = models.CharField(_("Kategorie"), max_length=60, blank=True)  # free text for now
    contact = models.CharField(_("Kontakt (E-Mail oder Telefon)"), max_length=200, blank=True)  # private
    # what the player chose for the public pages (privacy.py); given to the player's record
    publication = models.CharField(_("Veröffentlichung"), max_length=8, choices=privacy.CHOICES,
                                   default=privacy.FULL)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REGISTERED)
    # the player's entry while registered; a withdrawn registration keeps the entry that played
    entry = models.OneToOneField(Entry, on_delete=models.SET_NULL, null=True, blank=True, related_name="registration")
    created_at = models.DateTimeField(auto_now_add=True)  # the waiting list's order
    # the secret of the player's private link (services/registration_links.py): they see, cancel and
    # check in their registration with it; "" for one made before there were links (no link then)
    link_token = models.CharField(max_length=64, blank=True, default="")
    # the contact is never kept in the history: an old value there would outlive its erasure
    # (services/contacts.py, docs/security.md "Contact data"); nor is the link's secret (the change
    # log is read by helpers and goes into the tournament file)
    history = kept_history("created_at", "contact", "link_token")
    # not stored: a waiting registration of a person registered already (selectors.checkin.registrations)
    registered_already = False

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        verbose_name = _("Anmeldung")
        verbose_name_plural = _("Anmeldungen")

    def __str__(self):
        return self.name
