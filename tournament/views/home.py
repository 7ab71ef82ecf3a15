from django.shortcuts import render

from ..models import Tournament


def home(request):
    """The start page: every tournament, newest first; "Neues Turnier" for logged-in users."""
    tournaments = Tournament.objects.only("name", "slug", "date", "place")
    return render(request, "tournament/home.html", {"tournaments": tournaments})
