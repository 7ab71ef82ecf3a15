from django.shortcuts import render


def home(request):
    """The start page. Lists nothing yet: there are no tournaments in the data model so far."""
    return render(request, "tournament/home.html")
