"""The registration as a club meets it on the evening: the category typed at registration
becomes the player's, the director ticks every player's categories on one page, a person registered
or waiting cannot register again in any state, and a finished tournament takes no registration."""

import pytest
from django.test import Client
from django.urls import reverse

from tournament.errors import UserError
from tournament.models import DataChange, Entry, Registration
from tournament.selectors import overview
from tournament.services import checkin, waiting_list

from ..factories import make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_tournament(director):
    tournament = make_tournament(players=0, director=director, slug="abend")
    tournament.categories = ["Ü70"]
    tournament.save()
    return checkin.set_registration(tournament=tournament, open=True, limit=3)


def categories(tournament, name):
    return Entry.objects.get(tournament=tournament, player__name=name).categories


def test_the_registrations_category_becomes_the_players_when_registered_and_when_moved_up(open_tournament):
    checkin.register(tournament=open_tournament, name="Anna", category="damen")
    checkin.register(tournament=open_tournament, name="Bernd", category="Senioren, ü70")
    checkin.register(tournament=open_tournament, name="Carla", category="Schachclub")
    checkin.register(tournament=open_tournament, name="Dora", category="JUGEND")  # full: she waits
    assert categories(open_tournament, "Anna") == ["Damen"]
    assert categories(open_tournament, "Bernd") == ["Senioren", "Ü70"]
    assert categories(open_tournament, "Carla") == []  # unknown: left on the registration for the director
    assert Registration.objects.get(name="Carla").category == "Schachclub"
    checkin.withdraw_registration(registration=Registration.objects.get(name="Carla"))
    assert categories(open_tournament, "Dora") == ["Jugend"]  # moved up with her category
    assert waiting_list.categories_named(open_tournament, "gast / Unbekannt") == ["Gast"]


def test_the_public_form_offers_the_tournaments_categories(open_tournament):
    url = reverse("tournament:registration", args=[open_tournament.slug])
    page = Client().get(url).content.decode()
    assert '<select name="category"' in page and '<option value="Ü70">Ü70</option>' in page
    assert Client().post(url, {"name": "Anna", "category": "Ü70"}).status_code == 302
    assert categories(open_tournament, "Anna") == ["Ü70"]
    assert Client().post(url, {"name": "Bernd", "category": "Profis"}).status_code == 400
    assert not Registration.objects.filter(name="Bernd").exists()


def test_the_director_ticks_every_players_categories_in_one_change(open_tournament, director):
    for name in ("Anna", "Bernd", "Carla"):
        checkin.register(tournament=open_tournament, name=name, category="Damen" if name == "Anna" else "")
    entries = {e.player.name: e.pk for e in open_tournament.entries.select_related("player")}
    client = Client()
    client.force_login(director)
    url = reverse("tournament:player_categories", args=[open_tournament.slug])
    page = client.get(url).content.decode()
    assert f'name="c{entries["Anna"]}" value="Damen" checked' in page
    before = DataChange.objects.count()
    response = client.post(url, {"entries": list(entries.values()), f"c{entries['Bernd']}": ["Senioren", "Ü70"],
                                 f"c{entries['Carla']}": ["Damen"]})
    assert response.status_code == 302 and DataChange.objects.count() == before + 1
    assert [categories(open_tournament, n) for n in ("Anna", "Bernd", "Carla")] == [[], ["Senioren", "Ü70"],
                                                                                   ["Damen"]]
    assert Entry.history.filter(log_action="categories_changed").count() == 3
    other = make_tournament(players=1, director=director, slug="anderes").entries.get()
    assert client.post(url, {"entries": [other.pk], f"c{other.pk}": ["Damen"]}).status_code == 200  # said
    assert Entry.objects.get(pk=other.pk).categories == []  # another tournament's player: refused
    with pytest.raises(UserError):
        from tournament.services import player_details
        player_details.set_many_categories(tournament=open_tournament, chosen={entries["Anna"]: ["Profis"]})


# ---- the same person twice -----------------------------------------------------------

JUERGEN = ("Jürgen Müller", "DK Schwarze Dame Rheydt")


@pytest.mark.parametrize("places", [0, 3, 1])  # no limit, places free, full (he would wait)
def test_a_person_registered_cannot_register_again_in_any_state(open_tournament, places):
    checkin.set_registration(tournament=open_tournament, open=True, limit=0)
    checkin.register(tournament=open_tournament, name=JUERGEN[0], club=JUERGEN[1])
    checkin.set_registration(tournament=open_tournament, open=True, limit=places)
    with pytest.raises(UserError, match="Jürgen Müller .* ist schon angemeldet"):
        checkin.register(tournament=open_tournament, name="jürgen  MÜLLER", club="DK Schwarze Dame Rheydt ")
    assert Registration.objects.count() == 1


def test_a_person_waiting_or_withdrawn_cannot_register_again(open_tournament):
    for name in ("Anna", "Bernd", "Carla"):
        checkin.register(tournament=open_tournament, name=name)
    checkin.register(tournament=open_tournament, name=JUERGEN[0], club=JUERGEN[1])  # waits
    with pytest.raises(UserError, match="steht schon auf der Warteliste"):
        checkin.register(tournament=open_tournament, name=JUERGEN[0].upper(), club=JUERGEN[1])
    anna = Entry.objects.get(player__name="Anna")
    waiting_list.withdraw_player(entry=anna)  # Jürgen moves up
    with pytest.raises(UserError, match="hat sich von diesem Turnier zurückgezogen"):
        checkin.register(tournament=open_tournament, name="anna")
    bernd = Registration.objects.get(name="Bernd")
    with pytest.raises(UserError, match="ist schon angemeldet"):  # the director's correction too
        checkin.edit_registration(registration=bernd, name="Jürgen Müller", club=JUERGEN[1])


def test_a_second_registration_taken_before_is_shown_once_publicly_and_explained_to_the_director(
        open_tournament, director):
    for name in ("Anna", "Bernd", JUERGEN[0]):
        checkin.register(tournament=open_tournament, name=name, club=JUERGEN[1])
    Registration.objects.create(tournament=open_tournament, name=JUERGEN[0], club=JUERGEN[1],
                                status=Registration.Status.WAITING)  # as the old code let it in
    public = Client().get(reverse("tournament:registration", args=[open_tournament.slug])).content.decode()
    assert public.count("Jürgen Müller") == 1 and 'class="waiting"' not in public
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournament:registrations", args=[open_tournament.slug])).content.decode()
    assert "schon angemeldet: rückt nicht nach" in page


# ---- withdrawn players and a finished tournament ---------------------------------------

def test_a_withdrawn_player_is_not_shown_as_registered(open_tournament, director):
    from tournament.services import tournaments

    for name in ("Anna", "Bernd", "Carla", "Dora"):
        checkin.register(tournament=open_tournament, name=name, club="DK Nord")  # Dora waits
    anna = Entry.objects.get(player__name="Anna")
    tournaments.withdraw_player(entry=anna)  # the registration is left as it was
    assert Registration.objects.get(name="Anna").status == Registration.Status.REGISTERED
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournament:registrations", args=[open_tournament.slug])).content.decode()
    assert f"zurückgezogen ab Runde 1 · Nr. {anna.start_number}" in page
    assert f"angemeldet · Nr. {anna.start_number}" not in page
    public = Client().get(reverse("tournament:registration", args=[open_tournament.slug])).content.decode()
    assert "Anna" not in public and "Bernd" in public and "Dora" in public  # Dora still waits


def finish(tournament):
    from tournament.services import seating

    from ..factories import play_round

    tournament.rounds_planned = 1
    tournament.save()
    round = play_round(tournament, games=tournament.games_at_table(4))  # two tables of four, every game
    seating.close_round(round=round, backup=False)
    assert overview.is_finished(tournament)


def test_a_finished_tournament_takes_no_registration(director):
    tournament = make_tournament(players=8, director=director, slug="vorbei")
    finish(tournament)
    tournament = checkin.set_registration(tournament=tournament, open=True, limit=8)
    with pytest.raises(UserError, match="Das Turnier ist beendet"):
        checkin.register(tournament=tournament, name="Zu Spät")
    url = reverse("tournament:registration", args=[tournament.slug])
    page = Client().get(url).content.decode()
    assert "Das Turnier ist beendet: eine Anmeldung ist nicht mehr möglich." in page
    assert 'id="registration-form"' not in page and "rückt nach" not in page
    response = Client().post(url, {"name": "Zu Spät"})
    assert response.status_code == 400 and not Registration.objects.filter(tournament=tournament).exists()
