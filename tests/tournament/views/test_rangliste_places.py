"""A player's places in the association's Rangliste over time on their pages (docs/competitions.md,
"Places over time"; docs/hub.md, "Players across clubs"): the chart and the list on the person's page
across clubs and on the Rangliste's player page, with the publication level respected."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournament import privacy
from tournament.models import RanglisteStanding
from tournament.services import privacy as privacy_services
from tournament.services import rangliste_refresh

from ..services.test_rangliste_association import TODAY, association_rangliste, clubs, refreshed, two_clubs

__all__ = ["clubs"]  # the fixture

pytestmark = pytest.mark.django_db

YESTERDAY = TODAY - datetime.timedelta(days=1)


@pytest.fixture(autouse=True)
def hub(settings):
    settings.DOKO_HUB = True
    cache.clear()


def two_days(clubs):
    """The hand-worked Rangliste of two clubs, computed yesterday and today (the same places)."""
    a, b, director_a, _director_b = clubs
    january, march = two_clubs(clubs)
    rangliste = association_rangliste(director_a, [a, b])
    rangliste_refresh.refresh_rangliste(rangliste=rangliste, today=YESTERDAY)
    return refreshed(rangliste), january, march


def test_the_person_page_shows_the_places_over_time(clubs):
    rangliste, january, _march = two_days(clubs)
    dieter = january.entries.get(player__name="Dieter Brand").player_id  # M-1 at both clubs: place 4
    html = Client().get(reverse("tournament:person", args=[dieter])).content.decode()
    assert "Platz in der Verbandsrangliste" in html and "Verbandsrangliste" in html
    assert "(Platz 1 ist oben)" in html and "<svg" in html  # the chart, its axis turned: the first place on top
    link = RanglisteStanding.objects.get(rangliste=rangliste, name="Dieter Brand").link
    assert f"?p={link}" in html  # to the Rangliste's player page
    assert 'class="list places-over-time"' in html and '<td class="num">4</td>' in html
    # a guest whom no confirmation joins: found by their name and club as the Rangliste reads them
    anna = january.entries.get(player__name="Anna Kreuz").player_id  # DK Nord's Anna Kreuz, first
    html = Client().get(reverse("tournament:person", args=[anna])).content.decode()
    assert "places-over-time" in html and '<td class="num">1</td>' in html


def test_a_person_shown_by_initials_in_the_rangliste_is_not_joined_by_name(clubs):
    rangliste, january, march = two_days(clubs)
    # Dieter Brand's record at DK Süd publishes initials: the Rangliste shows him as "D. B." from now on
    privacy_services.set_publication(entry=march.entries.get(player__name="Dieter Brand"), level=privacy.INITIALS)
    rangliste_refresh.refresh_rangliste(rangliste=rangliste, today=TODAY)
    dieter = january.entries.get(player__name="Dieter Brand").player_id
    html = Client().get(reverse("tournament:person", args=[dieter])).content.decode()
    assert "Januarturnier" in html and "Märzturnier" not in html  # his page by name (DK Nord's record) stays
    assert "Platz in der Verbandsrangliste" not in html and "places-over-time" not in html
    # the Rangliste's own page shows his places, by initials
    link = RanglisteStanding.objects.get(rangliste=rangliste, place=4).link
    page = Client().get(reverse("tournament:rangliste_player", args=["verband"]) + f"?p={link}").content.decode()
    assert "D. B." in page and "Dieter Brand" not in page
    assert "places-over-time" in page and "(Platz 1 ist oben)" in page


def test_the_rangliste_player_page_lists_the_days_the_place_changed(clubs):
    rangliste, _january, _march = two_days(clubs)
    link = RanglisteStanding.objects.get(rangliste=rangliste, place=1).link
    page = Client().get(reverse("tournament:rangliste_player", args=["verband"]) + f"?p={link}").content.decode()
    assert "Platz in der Verbandsrangliste" in page and "bester Platz: 1" in page
    # the same place on both days: one line, since the first day
    listed = page[page.index("places-over-time") : page.index("</table>", page.index("places-over-time"))]
    assert listed.count("<tr>") == 2  # the head and one day
    assert f'datetime="{YESTERDAY.isoformat()}"' in listed and '<td class="num">1</td>' in listed
