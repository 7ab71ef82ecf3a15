"""Who may see and change what. Four roles:

- **superuser**: everything, in every tournament (counts as a director);
- **director** (Turnierleitung, `Tournament.directors`): everything of their tournament, and adds
  co-directors and helpers on the settings page;
- **helper** (Turnierhelfer, `Tournament.helpers`): enters and corrects games, penalties and totals
  and marks a sheet as signed, reads the change log; nothing else (no settings, seating, players,
  unlocking, restoring from the log);
- **the public**: only the pages the director switched on (`Tournament.public_<page>`).

Besides the roles in a tournament, an account may be an **organiser** of an organisation (a club or an
association; `Organisation.organisers`, made by the site's administrator; every superuser counts as
one of every organisation): only organisers create tournaments, series and Ranglisten, within their
organisations, and restore backups (`organiser_required`, docs/security.md).

Every view that is not public goes through `role_required`; `request.role` says which role the
request has ("director", "helper" or None), `request.is_director` whether it is a director.
"""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from ..models import Series, Tournament
from ..selectors import is_organiser, is_series_director, role_of
from ..web import caching

DIRECTOR, HELPER = "director", "helper"


def _set_role(request, tournament: Tournament) -> str | None:
    request.role = role_of(request.user, tournament)
    request.is_director = request.role == DIRECTOR
    request.can_enter = request.role in (DIRECTOR, HELPER)
    request.on_hub = settings.DOKO_HUB  # the menu links the players' correction requests (docs/hub.md)
    return request.role


def role_required(*roles: str):
    """Resolves `slug` to the tournament and lets only these roles through: anonymous users go to
    the login page, everyone else gets 403. The view gets `tournament`."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            tournament = get_object_or_404(Tournament, slug=slug)
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if _set_role(request, tournament) not in roles:
                raise PermissionDenied
            return view(request, tournament, *args, **kwargs)

        return wrapper

    return decorator


director_required = role_required(DIRECTOR)


def organiser_required(view):
    """Creating a tournament, a series or a Rangliste, restoring a backup: anonymous users go to the
    login page, accounts that are no organiser of any organisation (and no superuser) get 403."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not is_organiser(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return login_required(wrapper)


entry_required = role_required(DIRECTOR, HELPER)  # entering results: directors and helpers


def public_or_director(page: str):
    """For pages the public may see: the tournament's directors and helpers always, everyone else
    only while the director has the page switched on (Tournament.public_<page>); otherwise 404.
    The view gets `tournament`; `request.role` tells which view to render."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            tournament = caching.tournament_by_slug(request, slug)  # read once per change of it
            _set_role(request, tournament)
            if not request.can_enter and not getattr(tournament, f"public_{page}"):
                raise Http404
            return view(request, tournament, *args, **kwargs)

        return wrapper

    return decorator


def _series(slug: str) -> Series:
    return get_object_or_404(Series, slug=slug)


def series_director_required(view):
    """A director's page of a series: anonymous users go to the login page, everyone but the series'
    directors (and superusers) gets 403. The view gets `series`."""

    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        series = _series(slug)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_series_director(request.user, series):
            raise PermissionDenied
        request.is_director = True
        return view(request, series, *args, **kwargs)

    return wrapper


def series_public_or_director(view):
    """A page of a series that the public sees while the series is public; its directors always,
    everyone else 404 otherwise. `request.is_director` tells which view to render."""

    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        series = _series(slug)
        request.is_director = is_series_director(request.user, series)
        if not request.is_director and not series.public:
            raise Http404
        return view(request, series, *args, **kwargs)

    return wrapper
