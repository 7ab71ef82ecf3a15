"""Registration and check-in (docs/tournament.md "Anmeldung und Check-in"): the public
registration with a limit and a waiting list that moves up, the director's list, the check-in list,
and a draw that seats only those present; late arrivals and withdrawals."""

import pytest
from django.test import Client
from django.urls import reverse

from tournament.errors import UserError
from tournament.log import changelog
from tournament.models import DataChange, Entry, Registration, Seat
from tournament.services import checkin, seating, tournaments
from tournament.services.exporting import export_tournament
from tournament.services.importing import import_tournament

from ..factories import make_tournament, play_round, seated_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_tournament(director):
    tournament = make_tournament(players=0, director=director, slug="offen")
    return checkin.set_registration(tournament=tournament, open=True, limit=3)


def names_of(tournament, status):
    return list(tournament.registrations.filter(status=status).values_list("name", flat=True))


def test_registration_fills_the_places_then_the_waiting_list(open_tournament):
    for name in ("Anna", "Bernd", "Carla", "Dieter", "Emil"):
        checkin.register(tournament=open_tournament, name=name, club="DK Nord", contact=f"{name}@example.org")
    assert names_of(open_tournament, Registration.Status.REGISTERED) == ["Anna", "Bernd", "Carla"]
    assert names_of(open_tournament, Registration.Status.WAITING) == ["Dieter", "Emil"]
    assert sorted(open_tournament.entries.values_list("player__name", flat=True)) == ["Anna", "Bernd", "Carla"]


def test_a_withdrawal_lets_the_first_waiting_move_up(open_tournament):
    registered = [checkin.register(tournament=open_tournament, name=n) for n in ("Anna", "Bernd", "Carla", "Dieter",
                                                                                 "Emil")]
    checkin.withdraw_registration(registration=registered[1])
    assert names_of(open_tournament, Registration.Status.REGISTERED) == ["Anna", "Carla", "Dieter"]
    assert names_of(open_tournament, Registration.Status.WAITING) == ["Emil"]
    assert not open_tournament.entries.filter(player__name="Bernd").exists()  # never seated: gone
    actions = [e.action for e in changelog.entries(open_tournament)]
    assert "registration_moved_up" in actions and "registration_withdrawn" in actions


def test_more_places_move_the_waiting_list_up(open_tournament):
    for name in ("Anna", "Bernd", "Carla", "Dieter"):
        checkin.register(tournament=open_tournament, name=name)
    checkin.set_registration(tournament=open_tournament, open=True, limit=0)
    assert names_of(open_tournament, Registration.Status.WAITING) == []


def test_closed_registration_and_duplicates_are_refused(open_tournament):
    checkin.register(tournament=open_tournament, name="Anna", club="DK Nord")
    with pytest.raises(UserError, match="schon angemeldet"):
        checkin.register(tournament=open_tournament, name="anna", club="DK Nord")
    for name in ("Bernd", "Carla", "Dieter"):
        checkin.register(tournament=open_tournament, name=name)
    with pytest.raises(UserError, match="Warteliste"):
        checkin.register(tournament=open_tournament, name="Dieter")
    checkin.set_registration(tournament=open_tournament, open=False, limit=3)
    with pytest.raises(UserError, match="geschlossen"):
        checkin.register(tournament=open_tournament, name="Xaver")


def test_the_draw_seats_only_those_present_once_checkin_is_used(tournament):
    entries = list(tournament.entries.order_by("start_number"))  # 8 players
    seated_round(tournament, publish=False).delete()  # without check-in: everybody
    for entry in entries[:4]:
        checkin.set_present(entry=entry, present=True)
    walk_in = checkin.add_walk_in(tournament=tournament, name="Zora Spät", club="SG West")
    round = seated_round(tournament, publish=True)
    seated = set(Seat.objects.filter(round=round).values_list("entry_id", flat=True))
    assert seated == {e.id for e in entries[:4]} | {walk_in.id}


def test_late_arrivals_join_from_the_next_round_and_withdrawals_keep_their_rounds(tournament):
    entries = list(tournament.entries.order_by("start_number"))
    for entry in entries[:4]:
        checkin.set_present(entry=entry, present=True)
    first = play_round(tournament)
    late = checkin.set_present(entry=entries[4], present=True)
    assert late.joined_round == 2
    for entry in entries[5:8]:
        checkin.set_present(entry=entry, present=True)
    tournaments.withdraw_player(entry=entries[0])
    walk_in = checkin.add_walk_in(tournament=tournament, name="Zora Spät")
    second = seated_round(tournament, seed="r2", publish=True)
    seated = set(Seat.objects.filter(round=second).values_list("entry_id", flat=True))
    assert seated == {e.id for e in entries[1:8]} | {walk_in.id}
    assert Seat.objects.filter(round=first, entry=entries[0]).exists()  # the round played stays
    # one who played keeps their round 1 when marked absent and present again
    checkin.set_present(entry=entries[1], present=False)
    assert checkin.set_present(entry=entries[1], present=True).joined_round == 1


def test_a_withdrawn_player_is_not_marked_present(tournament):
    entry = tournaments.withdraw_player(entry=tournament.entries.first())
    with pytest.raises(UserError, match="zurückgezogen"):
        checkin.set_present(entry=entry, present=True)


# ---- the pages -------------------------------------------------------------------------------------

def test_public_registration_page_shows_no_contact(open_tournament, django_assert_num_queries):
    client = Client()
    url = reverse("tournament:registration", args=[open_tournament.slug])
    response = client.post(url, {"name": "Anna Alt", "club": "DK Nord", "category": "Damen",
                                 "contact": "anna@example.org"}, follow=True)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Anna Alt" in text and "Damen" in text and "anna@example.org" not in text
    for n in range(6):
        checkin.register(tournament=open_tournament, name=f"Spieler {n}", contact=f"{n}@example.org")
    with django_assert_num_queries(5):  # the tournament, the list, the places taken, finished?, the menu's rounds
        text = client.get(url).content.decode()
    assert "@example.org" not in text and "Warteliste" in text


def test_registration_page_is_404_while_closed(tournament):
    assert Client().get(reverse("tournament:registration", args=[tournament.slug])).status_code == 404


def test_registration_form_errors_are_said(open_tournament):
    response = Client().post(reverse("tournament:registration", args=[open_tournament.slug]), {"name": "  "})
    assert response.status_code == 400
    assert not Registration.objects.exists()


def test_director_sees_contact_and_checks_in(open_tournament, director, django_assert_num_queries):
    checkin.register(tournament=open_tournament, name="Anna Alt", contact="anna@example.org")
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournament:registrations", args=[open_tournament.slug]))
    assert "anna@example.org" in page.content.decode()
    entry = Entry.objects.get(player__name="Anna Alt")
    before = DataChange.objects.count()
    response = client.post(reverse("tournament:checkin_mark", args=[open_tournament.slug, entry.id]), {"present": "1"})
    assert response.status_code == 302 and DataChange.objects.count() == before + 1
    entry.refresh_from_db()
    assert entry.present
    for n in range(5):
        checkin.add_walk_in(tournament=open_tournament, name=f"Gast {n}")
    url = reverse("tournament:checkin", args=[open_tournament.slug])
    with django_assert_num_queries(6):  # session, user, tournament, role, the list, the rounds of the menu
        response = client.get(url + "?q=anna")
    text = response.content.decode()
    assert 'aria-pressed="true"' in text and "1 von 1" not in text


def test_walk_in_form(tournament, director):
    client = Client()
    client.force_login(director)
    response = client.post(reverse("tournament:checkin", args=[tournament.slug]), {"name": "Zora", "club": ""})
    assert response.status_code == 302
    assert Entry.objects.get(player__name="Zora").present


def test_round_page_counts_only_present_players(tournament, director):
    entries = list(tournament.entries.order_by("start_number"))
    for entry in entries[:4]:
        checkin.set_present(entry=entry, present=True)
    assert len(seating.playing_entries(tournament, 1)) == 4


@pytest.mark.parametrize("players", [4, 30])
def test_the_pages_run_a_fixed_number_of_queries(director, players, django_assert_num_queries):
    tournament = make_tournament(players=players, director=director, slug=f"t{players}")
    checkin.set_registration(tournament=tournament, open=True, limit=players)
    for n in range(3):
        checkin.register(tournament=tournament, name=f"Wartend {n}", contact="x@example.org")
    for entry in tournament.entries.all()[:2]:
        checkin.set_present(entry=entry, present=True)
    director_client = Client()
    director_client.force_login(director)
    with django_assert_num_queries(5):  # the tournament, the list, the places taken, finished?, the menu's rounds
        assert Client().get(reverse("tournament:registration", args=[tournament.slug])).status_code == 200
    with django_assert_num_queries(6):  # session, user, tournament, role, the list, the rounds of the menu
        assert director_client.get(reverse("tournament:checkin", args=[tournament.slug])).status_code == 200
    with django_assert_num_queries(7):  # session, user, tournament, role, the list, the places taken, the menu
        assert director_client.get(reverse("tournament:registrations", args=[tournament.slug])).status_code == 200


def test_who_is_present_is_kept_in_the_tournament_file(tournament):
    for entry in tournament.entries.order_by("start_number")[:4]:
        checkin.set_present(entry=entry, present=True)
    data = export_tournament(tournament)
    assert [p.get("present", False) for p in data["players"]] == [True] * 4 + [False] * 4
    copy = import_tournament(data, slug="kopie")
    assert sorted(copy.entries.filter(present=True).values_list("start_number", flat=True)) == [1, 2, 3, 4]
    assert len(seating.playing_entries(copy, 1)) == 4
