"""Directors find their players' correction requests on a hub (docs/hub.md, "Corrections"): the
tournament's menu, its overview and "Meine Turniere" link them with the number of open ones; the answer
page says that the hub sends nothing and whom to write to, links the player's page and keeps the
answer so far in its form; an organisation's directors find their guests' suggestions."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.urls import reverse

from tournament.services import corrections, tournaments

from ..factories import make_director, make_organisation, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def hub(settings):
    settings.DOKO_HUB = True
    cache.clear()


@pytest.fixture
def herbst():
    nord = make_organisation(name="DK Nord", slug="nord")
    director = make_director("leitung-nord", organisation=nord)
    tournament = tournaments.create_tournament(
        name="Herbstturnier Nord", date=datetime.date(2026, 10, 3), director=director, organisation=nord
    )
    for name in ["Anna Krämer", "Bernd Brandt", "Carla Clausen", "Dora Dahl"]:
        tournaments.register_player(tournament=tournament, name=name, club="")
    play_round(tournament)
    return tournament, director


def ask(tournament, name, text, contact=""):
    player = tournament.entries.get(player__name=name).player_id
    return corrections.request_correction(tournament=tournament, player_id=player, text=text, contact=contact)


def test_directors_find_open_requests(herbst, client):
    tournament, director = herbst
    corrections_url = reverse("tournament:corrections", args=[tournament.slug])
    client.force_login(director)
    overview = client.get(reverse("tournament:overview", args=[tournament.slug])).content.decode()
    assert f'href="{corrections_url}"' in overview  # the menu, also with nothing open
    assert "warten auf Ihre Antwort" not in overview and "wartet auf Ihre Antwort" not in overview
    ask(tournament, "Anna Krämer", "In Runde 1 fehlt ein Solo.")
    request = ask(tournament, "Bernd Brandt", "Mein Name ist falsch geschrieben.")
    overview = client.get(reverse("tournament:overview", args=[tournament.slug])).content.decode()
    assert "2 Korrekturanfragen von Spielern warten auf Ihre Antwort" in overview
    home = client.get(reverse("tournament:home")).content.decode()
    assert "2 offene Korrekturanfragen" in home and f'href="{corrections_url}"' in home
    assert f'href="{reverse("tournament:identities", args=["nord"])}"' in home and "Gäste zuordnen" in home
    corrections.answer_correction(tournament=tournament, request_id=request.pk, status="declined", answer="Stimmt so.")
    home = client.get(reverse("tournament:home")).content.decode()
    assert "1 offene Korrekturanfrage<" in home
    # a helper of the tournament sees neither the link nor the count
    helper = make_director("helferin", organiser=False)
    tournament.helpers.add(helper)
    client.force_login(helper)
    assert corrections_url not in client.get(reverse("tournament:overview", args=[tournament.slug])).content.decode()
    assert "Korrekturanfrage" not in client.get(reverse("tournament:home")).content.decode()


def test_answer_page_says_whom_to_write_and_keeps_the_answer(herbst, client):
    tournament, director = herbst
    request = ask(tournament, "Anna Krämer", "In Runde 1 fehlt ein Solo.", contact="anna@example.org")
    ask(tournament, "Bernd Brandt", "Mein Name ist falsch geschrieben.")
    corrections.answer_correction(
        tournament=tournament, request_id=request.pk, status="declined", answer="Das Solo war ein Normalspiel."
    )
    client.force_login(director)
    page = client.get(reverse("tournament:corrections", args=[tournament.slug])).content.decode()
    assert "Diese Seite verschickt nichts" in page
    assert "Schreiben Sie dem Spieler an: <strong>anna@example.org</strong>" in page
    assert "Der Spieler hat keinen Kontakt angegeben" in page  # Bernd left none
    assert f'href="{reverse("tournament:person", args=[request.player_id])}"' in page
    # "Antwort ändern" starts from the answer given
    assert 'value="Das Solo war ein Normalspiel."' in page
    assert '<option value="declined" selected>' in page
    assert f'id="id_answer_{request.pk}"' in page  # one form per request, each with its own field ids


def test_correction_form_is_styled_like_the_other_public_forms(herbst, client):
    tournament, _director = herbst
    anna = tournament.entries.get(player__name="Anna Krämer").player_id
    page = client.get(reverse("tournament:person", args=[anna])).content.decode()
    # form.stacked: labels above the fields, at most 22rem wide, the select as wide as the form (site.css)
    assert 'class="stacked correction-form"' in page
    assert "diese Seite verschickt nichts" in page
