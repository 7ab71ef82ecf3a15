from django.db.models import Q
from django.shortcuts import render

from ..models import Rangliste, Series, Tournament


def home(request):
    """The start page: every tournament, newest first; the public series and those the user directs;
    the Ranglisten likewise; "Neues Turnier", "Neue Serie" and "Neue Rangliste" for organisers."""
    tournaments = Tournament.objects.only("name", "slug", "date", "place")
    series = Series.objects.only("name", "slug", "public")
    if not request.user.is_authenticated:
        series = series.filter(public=True)
    elif not request.user.is_superuser:
        series = series.filter(Q(public=True) | Q(directors=request.user)).distinct()
    ranglisten = Rangliste.objects.only("name", "slug", "public")
    if not request.user.is_authenticated:
        ranglisten = ranglisten.filter(public=True)
    elif not request.user.is_superuser:
        ranglisten = ranglisten.filter(Q(public=True) | Q(directors=request.user)).distinct()
    return render(request, "tournament/home.html", {"tournaments": tournaments, "series_list": series,
                                                    "ranglisten": ranglisten})
