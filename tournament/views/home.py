from django.conf import settings
from django.db.models import Q
from django.shortcuts import render

from ..models import Rangliste, Series, Tournament
from ..selectors import is_organiser, organisations_of, people
from . import calendar

OWN_ON_HUB = 50  # a user's own tournaments on a hub's start page


def home(request):
    """The start page: what the reader may open (docs/security.md): the tournaments whose overview is
    public and those the user directs or helps with, newest first; the public series and Ranglisten
    and those the user directs;
    "Neues Turnier", "Neue Serie" and "Neue Rangliste" for organisers (docs/security.md).

    On a hub (docs/hub.md) every club's public tournaments are in the calendar instead
    (`calendar.start_listing`): above it, a logged-in user finds only what they direct or help with."""
    user = request.user
    tournaments = Tournament.objects.only("name", "slug", "date", "place")
    series = Series.objects.only("name", "slug", "public")
    ranglisten = Rangliste.objects.only("name", "slug", "public")
    if settings.DOKO_HUB:
        return _hub_home(request, tournaments, series, ranglisten)
    if not user.is_authenticated:
        tournaments = tournaments.filter(public_overview=True)
        series = series.filter(public=True)
        ranglisten = ranglisten.filter(public=True)
    elif not user.is_superuser:
        tournaments = tournaments.filter(Q(public_overview=True) | Q(directors=user) | Q(helpers=user)).distinct()
        series = series.filter(Q(public=True) | Q(directors=user)).distinct()
        ranglisten = ranglisten.filter(Q(public=True) | Q(directors=user)).distinct()
    organiser = is_organiser(user)
    # on a hub: the organisations whose publishing keys the organiser issues (docs/publishing.md)
    key_organisations = organisations_of(user) if organiser and settings.DOKO_HUB else []
    return render(request, "tournament/home.html", {"tournaments": tournaments, "series_list": series,
                                                    "ranglisten": ranglisten, "is_organiser": organiser,
                                                    "key_organisations": key_organisations,
                                                    "own_organisations": organisations_of(user) if organiser else []})


def _hub_home(request, tournaments, series, ranglisten):
    user = request.user
    context = {"listing": calendar.start_listing(request)}
    if user.is_authenticated:
        organiser = is_organiser(user)
        context.update(
            own=True, is_organiser=organiser, key_organisations=organisations_of(user) if organiser else [],
            tournaments=_with_open_corrections(
                tournaments.filter(Q(directors=user) | Q(helpers=user)).distinct()[:OWN_ON_HUB], user),
            series_list=series.filter(directors=user).distinct(),
            ranglisten=ranglisten.filter(directors=user).distinct())
    return render(request, "tournament/hub/home.html", context)


def _with_open_corrections(tournaments, user) -> list:
    """The tournaments, each with the players' correction requests waiting for the user's answer
    (`open_corrections`; docs/hub.md, "Corrections"): one query for all of them."""
    counts = people.open_corrections_of(user)
    found = list(tournaments)
    for tournament in found:
        tournament.open_corrections = counts.get(tournament.pk, 0)
    return found
