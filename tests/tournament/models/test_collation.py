"""Names in order the German way (DIN 5007-1): one helper, `collation.name_key`, wherever player names
are sorted for display."""

import pytest
from django.urls import reverse

from tournament.collation import name_key, surname_key
from tournament.printing import documents
from tournament.selectors import standings
from tournament.services import tournaments

from ..factories import make_tournament, seated_round

pytestmark = pytest.mark.django_db

# in DIN 5007-1 order: Ä with A, Ö with O, ß as ss, case and accents do not count
IN_ORDER = ["abel", "Äbel", "Bernd", "Émile", "Mueller", "Muller", "Müller", "Otto", "Özil", "Strasse", "Straße",
            "Strauss", "Zander"]
EIGHT = ["Zander", "Özil", "Äbel", "Otto", "Bernd", "Straße", "Ulla", "Émile"]  # a field of 8, not in order


def test_name_key_sorts_the_german_way():
    assert sorted(reversed(IN_ORDER), key=name_key) == IN_ORDER
    assert sorted(["Zander", "Ärger", "ärger"], key=str.casefold) == ["Zander", "Ärger", "ärger"]  # what str did
    assert name_key(" ẞchaf ")[0] == "sschaf"


def test_surname_key_sorts_by_the_last_word_then_the_first_names():
    names = ["Anna Alt", "Bernd Alt", "Anna Alt 2", "Müller, Bernd", "Zoe Bäcker", "Friedrich Wilhelm von der Heide",
             "Gisela Hoffmann", "Änne Özdemir", "Otto", "Jürgen Größ"]
    assert sorted(names, key=surname_key) == [
        "Anna Alt", "Anna Alt 2", "Bernd Alt", "Zoe Bäcker", "Jürgen Größ", "Friedrich Wilhelm von der Heide",
        "Gisela Hoffmann", "Müller, Bernd", "Otto", "Änne Özdemir"]


def named_tournament(director):
    tournament = make_tournament(players=0, director=director, slug="namen")
    for name in EIGHT:
        tournaments.register_player(tournament=tournament, name=name)
    return tournament


def test_players_with_equal_points_are_listed_by_name(director):
    tournament = named_tournament(director)
    assert [row.name for row in standings(tournament)] == sorted(EIGHT, key=name_key)
    assert [row.name for row in standings(tournament)][:2] == ["Äbel", "Bernd"]


def test_the_standings_name_column_sorts_the_german_way(client, director):
    tournament = named_tournament(director)
    client.force_login(director)
    page = client.get(reverse("tournament:standings", args=[tournament.slug]) + "?sort=-name").content.decode()
    shown = sorted(EIGHT, key=lambda name: page.index(f">{name}<"))
    assert shown == sorted(EIGHT, key=name_key, reverse=True)


def test_the_round_page_and_the_seating_plan_list_everyone_a_to_z(client, director):
    tournament = named_tournament(director)
    round = seated_round(tournament)
    client.force_login(director)
    response = client.get(reverse("tournament:round", args=[tournament.slug, 1]))
    assert [name for name, _table, _seat in response.context["by_name"]] == sorted(EIGHT, key=name_key)
    plan = documents.seating_htmls(round)[0]
    assert sorted(EIGHT, key=lambda name: plan.rindex(name)) == sorted(EIGHT, key=name_key)
