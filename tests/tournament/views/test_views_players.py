"""The player list: registering one or many, the seating check, withdrawing and returning."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.errors import UserError
from tournament.models import Entry
from tournament.services import tournaments

from ..factories import make_director, make_tournament, message_texts, seated_round

pytestmark = pytest.mark.django_db


def url(name, tournament, *extra):
    return reverse(f"tournament:{name}", args=[tournament.slug, *extra])


def test_player_pages_are_for_directors_only(client, tournament):
    entry = tournament.entries.first()
    requests = [("get", url("players", tournament), {}),
                ("post", url("players", tournament), {"one-name": "Eindringling"}),
                ("post", url("player_withdraw", tournament, entry.id), {}),
                ("post", url("player_return", tournament, entry.id), {})]
    for method, address, data in requests:
        response = getattr(client, method)(address, data)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/"), address
    client.force_login(make_director("fremd"))
    for method, address, data in requests:
        assert getattr(client, method)(address, data).status_code == 403, address
    assert tournament.entries.count() == 8
    entry.refresh_from_db()
    assert entry.withdrawn_from_round is None


def test_list_shows_players_status_and_seating(client, director, tournament):
    client.force_login(director)
    response = client.get(url("players", tournament))
    assert response.status_code == 200
    page = response.content.decode()
    assert "8 Spieler angemeldet" in page and "DK Nord" in page and "aktiv" in page
    assert "Für Runde 1: 8 Spieler: 2 Vierertische" in " ".join(page.split())
    assert url("player_withdraw", tournament, tournament.entries.first().id) in page


def test_adding_one_player(client, director, tournament):
    client.force_login(director)
    response = client.post(url("players", tournament), {"one-name": " Zora  Zett ", "one-club": "Kreuz Ass",
                                                        "one-start_number": ""})
    assert response.status_code == 302 and response["Location"] == url("players", tournament)
    assert message_texts(response) == ["Zora Zett ist angemeldet, Startnummer 9."]
    entry = tournament.entries.get(start_number=9)
    assert (entry.player.name, entry.player.club) == ("Zora Zett", "Kreuz Ass")


def test_adding_one_player_with_a_start_number(client, director, tournament):
    client.force_login(director)
    client.post(url("players", tournament), {"one-name": "Ole", "one-start_number": "42"})
    assert tournament.entries.get(player__name="Ole").start_number == 42


def test_problems_adding_a_player_are_shown_next_to_the_field(client, director, tournament):
    client.force_login(director)
    response = client.post(url("players", tournament), {"one-name": " ANNA ", "one-club": "dk  nord"})
    assert response.status_code == 200  # the same name and club, ignoring case and spaces: the same person
    assert response.context["player_form"].errors == {"name": ["Anna (DK Nord) ist schon angemeldet."]}
    response = client.post(url("players", tournament), {"one-name": "Ole", "one-start_number": "3"})
    assert response.context["player_form"].errors == {"start_number": ["Die Startnummer 3 ist schon vergeben."]}
    assert "Die Startnummer 3 ist schon vergeben." in response.content.decode()
    response = client.post(url("players", tournament), {"one-name": "   "})
    assert "name" in response.context["player_form"].errors
    assert tournament.entries.count() == 8


def test_adding_many_players(client, director, tournament):
    client.force_login(director)
    response = client.post(url("players", tournament), {"many-lines": "Ole; Pik Dame\n\nPia\nQuentin, Karo 10\n"})
    assert response.status_code == 302
    assert message_texts(response) == ["3 Spieler angemeldet."]
    added = list(tournament.entries.filter(start_number__gt=8).values_list("start_number", "player__name",
                                                                           "player__club"))
    assert added == [(9, "Ole", "Pik Dame"), (10, "Pia", ""), (11, "Quentin", "Karo 10")]


def test_a_bad_line_adds_nobody_and_names_the_line(client, director, tournament):
    client.force_login(director)
    response = client.post(url("players", tournament), {"many-lines": "Ole\nAnna; " + "x" * 130 + "\nPia"})
    assert response.status_code == 200
    assert response.context["list_form"].errors == {"lines": ["Zeile 2: Der Verein ist zu lang: höchstens 120 "
                                                              "Zeichen."]}
    assert "Ole\nAnna; " in response.content.decode()
    assert tournament.entries.count() == 8


def test_a_list_with_players_registered_already_takes_the_rest_and_lists_them(client, director, tournament):
    """One duplicate no longer refuses the whole list; the same name with another club
    is another person."""
    client.force_login(director)
    response = client.post(url("players", tournament), {
        "many-lines": "Ole\n anna ;  DK  NORD \nPia\nAnna; SG West\nole\nBernd; DK Nord"})
    assert response.status_code == 302
    assert message_texts(response) == [
        "3 Spieler angemeldet.",
        "Nicht angemeldet (3): Zeile 2: Anna (DK Nord) ist schon angemeldet. Zeile 5: Ole ist schon angemeldet. "
        "Zeile 6: Bernd (DK Nord) ist schon angemeldet."]
    added = list(tournament.entries.filter(start_number__gt=8).values_list("start_number", "player__name",
                                                                           "player__club"))
    assert added == [(9, "Ole", ""), (10, "Pia", ""), (11, "Anna", "SG West")]


def test_the_same_name_with_another_club_is_another_player(client, director, tournament):
    client.force_login(director)
    response = client.post(url("players", tournament), {"one-name": "Anna", "one-club": "SG West"})
    assert response.status_code == 302
    assert message_texts(response) == ["Anna ist angemeldet, Startnummer 9."]
    assert sorted(tournament.entries.filter(player__name="Anna").values_list("player__club", flat=True)) == [
        "DK Nord", "SG West"]
    with pytest.raises(UserError, match="nicht zu unterscheiden"):  # would read like Anna of SG West
        tournaments.register_player(tournament=tournament, name="Anna (SG West)")


@pytest.mark.parametrize("players, text", [
    (37, "37 Spieler: 8 Vierertische, 1 Fünfertisch"),
    (9, "9 Spieler: 1 Vierertisch, 1 Fünfertisch"),
    (15, "15 Spieler: 3 Fünfertische"),
    (7, "7 Spieler lassen sich nicht an Tische zu 4 und 5 setzen: 1 Spieler mehr (8) oder 2 weniger (5)."),
    (11, "11 Spieler lassen sich nicht an Tische zu 4 und 5 setzen: 1 Spieler mehr (12) oder 1 weniger (10)."),
    (0, "Noch keine Spieler: tragen Sie sie unten ein."),  # a new tournament, not "0 Spieler lassen sich nicht …"
])
def test_seating_check(client, director, players, text):
    tournament = make_tournament(players=players, director=director)
    client.force_login(director)
    response = client.get(url("players", tournament))
    assert response.context["seating"] == text
    assert text in response.content.decode()
    assert response.context["seatable"] == (players not in (0, 6, 7, 11))


def test_withdrawing_and_returning(client, director, tournament):
    seated_round(tournament)  # round 1 published: changes apply from round 2
    entry = tournament.entries.get(start_number=3)
    client.force_login(director)
    response = client.post(url("player_withdraw", tournament, entry.id), {"confirm": "yes"})
    assert response.status_code == 302 and response["Location"] == url("players", tournament)
    assert message_texts(response) == [
        f"{entry.player.name} hat sich zurückgezogen und wird ab Runde 2 nicht mehr gesetzt; die Ergebnisse bleiben."]
    entry.refresh_from_db()
    assert entry.withdrawn_from_round == 2
    response = client.get(url("players", tournament))
    page = " ".join(response.content.decode().split())
    assert "zurückgezogen ab Runde 2" in page and url("player_return", tournament, entry.id) in page
    assert "Für Runde 2: 7 Spieler lassen sich nicht" in page

    response = client.post(url("player_return", tournament, entry.id))
    assert message_texts(response) == [f"{entry.player.name} spielt wieder mit, ab der nächsten Auslosung."]
    entry.refresh_from_db()
    assert entry.withdrawn_from_round is None


def test_late_players_join_from_the_next_round(client, director, tournament):
    seated_round(tournament)
    client.force_login(director)
    client.post(url("players", tournament), {"one-name": "Spät"})
    assert tournament.entries.get(player__name="Spät").joined_round == 2
    page = client.get(url("players", tournament)).content.decode()
    assert "dabei ab Runde 2" in page


def test_entries_of_another_tournament_are_not_found(client, director, tournament):
    other = make_tournament(players=4, director=make_director("fremd"), slug="anders")
    client.force_login(director)
    response = client.post(url("player_withdraw", tournament, other.entries.first().id))
    assert response.status_code == 404
    assert not Entry.objects.filter(withdrawn_from_round__isnull=False).exists()


def test_withdraw_is_post_only(client, director, tournament):
    client.force_login(director)
    assert client.get(url("player_withdraw", tournament, tournament.entries.first().id)).status_code == 405


# the director's request: tournament, session, user, role (a director: one query, role_of stops there);
# then the entries with their players, the last round played, rounds for the navigation
PLAYERS_QUERIES = 7


def test_player_list_queries_do_not_grow_with_the_tournament(client, director):
    small = make_tournament(players=8, director=director, slug="klein")
    large = make_tournament(players=37, director=director, slug="gross", name="Großes Turnier")
    for tournament in (small, large):
        seated_round(tournament)
        tournaments.withdraw_player(entry=tournament.entries.first())
        tournaments.register_player(tournament=tournament, name="Spät")
    client.force_login(director)
    client.get(url("players", small))  # the first request may fill caches
    counts = {}
    for tournament in (small, large):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url("players", tournament)).status_code == 200
        counts[tournament.slug] = len(queries)
    assert counts == {"klein": PLAYERS_QUERIES, "gross": PLAYERS_QUERIES}


def test_a_players_name_and_club_are_corrected_here_only(client, director, tournament):
    entry = tournament.entries.select_related("player").first()
    other = make_tournament(players=0, slug="anderes")
    kept = tournaments.register_player(tournament=other, name=entry.player.name, club=entry.player.club)
    assert kept.player_id == entry.player_id  # the same person
    client.force_login(director)
    page = client.get(url("player_edit", tournament, entry.id)).content.decode()
    assert f'value="{entry.player.name}"' in page
    response = client.post(url("player_edit", tournament, entry.id), {
        "name": "Anna  Schmidt", "club": "DK Süd", "loaded_name": entry.player.name,
        "loaded_club": entry.player.club})
    assert response.status_code == 302
    assert message_texts(response) == [f"Gespeichert: Anna Schmidt (Startnummer {entry.start_number})."]
    entry.refresh_from_db()
    kept.refresh_from_db()
    assert (entry.player.name, entry.player.club) == ("Anna Schmidt", "DK Süd")
    assert kept.player.name == "Anna" and kept.player.club == "DK Nord"  # the other tournament keeps it
    log = client.get(url("log", tournament)).content.decode()
    assert "Name oder Verein geändert" in log and "Anna Schmidt" in log


def test_a_name_taken_or_changed_meanwhile_saves_nothing(client, director, tournament):
    first, second = tournament.entries.select_related("player")[:2]
    client.force_login(director)
    response = client.post(url("player_edit", tournament, first.id), {
        "name": second.player.name.upper(), "club": "DK Nord", "loaded_name": first.player.name,
        "loaded_club": first.player.club})
    assert response.status_code == 200
    assert response.context["form"].errors["name"] == [f"{second.player.name} (DK Nord) ist schon angemeldet."]
    tournaments.edit_player(entry=first, name="Anders", club="")
    response = client.post(url("player_edit", tournament, first.id), {
        "name": "Meins", "club": "", "loaded_name": first.player.name, "loaded_club": first.player.club})
    assert response.status_code == 409 and "von jemand anderem geändert" in response.content.decode()
    first.refresh_from_db()
    assert first.player.name == "Anders"
    # the form now holds what is stored as loaded: saving again saves this input
    form = response.context["form"]
    response = client.post(url("player_edit", tournament, first.id), {**form.data.dict()})
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.player.name == "Meins"
