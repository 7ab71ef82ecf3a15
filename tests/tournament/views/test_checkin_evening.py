"""The check-in page as a club meets it (issue "The evening as a club meets it"): the list by surname,
a search that finds Krämer by "kraemer" and "kramer", Oßenbrügge by "oss" and Yılmaz by "yilmaz", a
no-show withdrawn from the list (confirmed first, in the change log), and a walk-in with categories."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tournament.collation import matches, search_forms
from tournament.log import changelog
from tournament.models import DataChange, Entry
from tournament.services import checkin, tournaments

from ..factories import make_tournament

pytestmark = pytest.mark.django_db

PEOPLE = ["Zoe Alt", "Jan Krämer", "Ulla Oßenbrügge", "Deniz Yılmaz", "Anna Zander", "Friedrich von der Heide",
          "Bernd Müller", "Carla Kramer"]


@pytest.fixture
def evening(director):
    tournament = make_tournament(players=0, director=director, slug="abend")
    for name in PEOPLE:
        tournaments.register_player(tournament=tournament, name=name, club="DK Nord")
    return tournament


@pytest.fixture
def client(director):
    client = Client()
    client.force_login(director)
    return client


def shown(client, tournament, query=""):
    page = client.get(reverse("tournament:checkin", args=[tournament.slug]), {"q": query} if query else {})
    items = re.findall(r'<li id="e\d+" data-name="[^"]*"( hidden)?[^>]*>.*?<strong>([^<]+)</strong>',
                       page.content.decode(), re.S)
    return [name for hidden, name in items if not hidden]


def test_the_list_is_by_surname(client, evening):
    assert shown(client, evening) == ["Zoe Alt", "Friedrich von der Heide", "Carla Kramer", "Jan Krämer",
                                      "Bernd Müller", "Ulla Oßenbrügge", "Deniz Yılmaz", "Anna Zander"]


@pytest.mark.parametrize(("query", "found"), [
    ("kraemer", ["Jan Krämer"]),
    ("Kramer", ["Carla Kramer", "Jan Krämer"]),  # both ways: without the umlaut's marks too
    ("krämer", ["Carla Kramer", "Jan Krämer"]),  # one spelling typed finds the other too (entered without)
    ("oss", ["Ulla Oßenbrügge"]),
    ("OSSENBRUEGGE", ["Ulla Oßenbrügge"]),
    ("yilmaz", ["Deniz Yılmaz"]),
    ("muller", ["Bernd Müller"]),
    ("zz", []),
])
def test_the_search_folds_umlauts_and_diacritics(client, evening, query, found):
    assert shown(client, evening, query) == found  # the page without JavaScript (?q=)


def test_the_search_forms_the_script_looks_in():
    assert search_forms("Jan Krämer") == ("jan kraemer", "jan kramer")
    assert search_forms("Ulla Oßenbrügge") == ("ulla ossenbruegge", "ulla ossenbrugge")
    assert search_forms("Deniz Yılmaz") == ("deniz yilmaz",)
    assert search_forms("İlkay Çelik") == ("ilkay celik",)
    assert matches("kraemer", "Jan Krämer") and matches("kramer", "Jan Krämer") and not matches("kraemer", "Kramer")


def test_a_no_show_is_withdrawn_from_the_check_in_list_after_confirming(client, evening):
    entry = evening.entries.get(player__name="Jan Krämer")
    url = reverse("tournament:checkin_withdraw", args=[evening.slug, entry.id])
    page = client.get(reverse("tournament:checkin", args=[evening.slug])).content.decode()
    assert url in page and "Jan Krämer zurückziehen" in page

    before = DataChange.objects.count()
    response = client.post(url, {"q": "kr"})  # not confirmed: nothing changes
    assert response.status_code == 302 and DataChange.objects.count() == before
    entry.refresh_from_db()
    assert entry.withdrawn_from_round is None

    response = client.post(url, {"confirm": "1", "q": "kr"}, follow=True)
    entry.refresh_from_db()
    assert entry.withdrawn_from_round == 1 and not entry.present
    assert "Jan Krämer ist zurückgezogen und wird ab Runde 1 nicht mehr ausgelost." in response.content.decode()
    assert [e.action for e in changelog.entries(evening)][0] == "player_withdrawn"
    assert DataChange.objects.count() == before + 1
    assert url not in response.content.decode()  # no second withdrawal offered


def test_withdrawing_a_player_of_another_tournament_is_404(client, evening, director):
    other = make_tournament(players=4, director=director, slug="anders")
    entry = other.entries.first()
    response = client.post(reverse("tournament:checkin_withdraw", args=[evening.slug, entry.id]), {"confirm": "1"})
    assert response.status_code == 404


def test_a_walk_in_gets_categories(client, evening):
    evening.categories = ["Ü70"]
    evening.save(update_fields=["categories"])
    page = client.get(reverse("tournament:checkin", args=[evening.slug])).content.decode()
    assert 'value="Damen"' in page and 'value="Ü70"' in page
    response = client.post(reverse("tournament:checkin", args=[evening.slug]),
                           {"name": "Zora Neu", "club": "", "categories": ["Ü70", "Damen"]})
    assert response.status_code == 302
    entry = Entry.objects.get(player__name="Zora Neu")
    assert entry.present and entry.categories == ["Damen", "Ü70"]  # in the tournament's order

    response = client.post(reverse("tournament:checkin", args=[evening.slug]),
                           {"name": "Xaver Neu", "categories": ["Profis"]})
    assert response.status_code == 400 and not Entry.objects.filter(player__name="Xaver Neu").exists()


def test_the_service_refuses_a_category_the_tournament_does_not_offer(evening):
    with pytest.raises(checkin.UserError, match="Die Kategorie „Profis“ gibt es in diesem Turnier nicht."):
        checkin.add_walk_in(tournament=evening, name="Xaver Neu", categories=["Profis"])
    assert not Entry.objects.filter(player__name="Xaver Neu").exists()
