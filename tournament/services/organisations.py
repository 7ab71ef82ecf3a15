"""Organisations (docs/security.md, "Organisations"): creating one with its first organiser, and
which organisation a tournament, series or Rangliste is created in when nobody chose one; the
organisation-wide switch of the rating."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from ..errors import UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Organisation, Tournament
from ..slugs import slug_from
from .locking import lock_one, lock_tournament

SLUG_LENGTH = 80  # Organisation.slug
DEFAULT_SLUG = "verein"  # the organisation of a single-club install (the venue's laptop, the demo)


def create_organisation(*, name: str, slug: str = "", organiser=None) -> Organisation:
    """A new organisation; `organiser` (an account) becomes its first organiser."""
    name = " ".join(name.split())
    if not name:
        raise UserError(_("Der Name fehlt."), field="name")
    slug = slug or slug_from(name, most=SLUG_LENGTH)
    if not slug:
        raise UserError(_("Bitte einen Kurznamen aus Buchstaben und Ziffern angeben."), field="slug")
    with transaction.atomic():
        if Organisation.objects.filter(slug=slug).exists():
            raise UserError(_("Den Kurznamen %(slug)s hat schon eine andere Organisation.") % {"slug": slug},
                            field="slug")
        organisation = Organisation.objects.create(name=name, slug=slug)
        if organiser is not None:
            organisation.organisers.add(organiser)
        return organisation


def default_organisation() -> Organisation:
    """The organisation of a single-club install: "Verein", made when first needed. Used where nobody
    chose one: the command line without --organisation, and services called without a director."""
    organisation, _created = Organisation.objects.get_or_create(slug=DEFAULT_SLUG, defaults={"name": "Verein"})
    return organisation


def home_organisation(user=None) -> Organisation:
    """Where `user` creates something when no organisation was chosen: their first organisation (by
    name), else the default one."""
    if user is not None and user.is_authenticated:
        first = user.organisations.order_by("name", "id").first()
        if first is not None:
            return first
    return default_organisation()


def add_organiser(*, organisation: Organisation, user) -> None:
    organisation.organisers.add(user)


def organisation_named(slug: str | None) -> Organisation:
    """The organisation with this short name (the command line's --organisation); none given: the default one."""
    if not slug:
        return default_organisation()
    organisation = Organisation.objects.filter(slug=slug).first()
    if organisation is None:
        raise UserError(_("Eine Organisation mit dem Kurznamen %(slug)s gibt es nicht.") % {"slug": slug},
                        field="organisation")
    return organisation


def switch_rating(*, organisation: Organisation, enabled: bool, by: Actor = SYSTEM) -> Organisation:
    """The organisation-wide switch of the players' rating (docs/rating.md): off, no tournament, series or
    Rangliste of the organisation shows it, whatever a tournament's own switch says; on, each tournament's
    own switch decides. A logged settings change (the organisation's history, with who), and every one of
    its tournaments' change counters moves, so that no cached page keeps showing what was switched off."""
    with transaction.atomic():
        organisation = lock_one(Organisation.objects.filter(pk=organisation.pk))
        if organisation.rating_enabled == enabled:
            return organisation
        with audit.recording("rating_switched", by=by, tournament=None):
            organisation.rating_enabled = enabled
            organisation.save(update_fields=["rating_enabled"])
        for tournament_id in Tournament.objects.filter(organisation=organisation).values_list("pk", flat=True):
            lock_tournament(tournament_id)
            with audit.recording("rating_switched", by=by, tournament=tournament_id):
                pass  # (the tournament's pages show the rating: its counter moves)
        return organisation
