"""Who may do what: a user's role in a tournament or a series.

Reads only, in a fixed number of queries whatever the size."""

from __future__ import annotations

from ..models import Series, Tournament


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


def tournaments_to_add(user) -> list[Tournament]:
    """The tournaments `user` directs (a superuser: all) that belong to no series yet, newest first.
    One query."""
    tournaments = Tournament.objects.filter(series=None).order_by("-date", "name")
    if not user.is_superuser:
        tournaments = tournaments.filter(directors=user)
    return list(tournaments.only("id", "name", "date"))
