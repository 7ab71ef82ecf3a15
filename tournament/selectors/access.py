"""Who may do what: a user's role in a tournament or a series.

Reads only, in a fixed number of queries whatever the size."""

from __future__ import annotations

from ..models import Organisation, Series, Tournament


def role_of(user, tournament: Tournament) -> str | None:
    """"director" (also every superuser), "helper" or None. At most two queries."""
    if not user.is_authenticated:
        return None
    if user.is_superuser or tournament.directors.filter(pk=user.pk).exists():
        return "director"
    if tournament.helpers.filter(pk=user.pk).exists():
        return "helper"
    return None


def is_director(user, tournament: Tournament) -> bool:
    return role_of(user, tournament) == "director"



def is_series_director(user, series: Series) -> bool:
    """A director of the series (also every superuser). At most one query."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or series.directors.filter(pk=user.pk).exists()


def tournaments_to_add(user, series: Series) -> list[Tournament]:
    """The tournaments of the series' organisation that `user` directs (a superuser: all of them) and
    that belong to no series yet, newest first. One query."""
    tournaments = (Tournament.objects.filter(series=None, organisation_id=series.organisation_id)
                   .order_by("-date", "name"))
    if not user.is_superuser:
        tournaments = tournaments.filter(directors=user)
    return list(tournaments.only("id", "name", "date"))


def organisations_of(user):
    """The organisations `user` acts for (a superuser: all), by name. A queryset, not yet run."""
    if not user.is_authenticated:
        return Organisation.objects.none()
    if user.is_superuser:
        return Organisation.objects.order_by("name", "id")
    return user.organisations.order_by("name", "id")


def is_organiser(user) -> bool:
    """May create tournaments, series and Ranglisten and restore backups: an organiser of some
    organisation, or a superuser. At most one query."""
    return user.is_authenticated and (user.is_superuser or user.organisations.exists())
