"""Who may see and change what: every director page goes through `director_required`."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from ..models import Tournament
from ..selectors import is_director


def director_required(view):
    """Resolves `slug` to the tournament and lets only its directors (and superusers) through:
    anonymous users go to the login page, other users get 403. The view gets `tournament`."""

    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        tournament = get_object_or_404(Tournament, slug=slug)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_director(request.user, tournament):
            raise PermissionDenied
        request.is_director = True
        return view(request, tournament, *args, **kwargs)

    return wrapper


def public_or_director(page: str):
    """For pages the public may see: the tournament's directors always, everyone else only while
    the director has the page switched on (Tournament.public_<page>); otherwise 404. The view gets
    `tournament`, and `request.is_director` tells which view to render."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            tournament = get_object_or_404(Tournament, slug=slug)
            request.is_director = is_director(request.user, tournament)
            if not request.is_director and not getattr(tournament, f"public_{page}"):
                raise Http404
            return view(request, tournament, *args, **kwargs)

        return wrapper

    return decorator
