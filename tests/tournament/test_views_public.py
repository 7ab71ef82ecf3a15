"""Public pages players check on their phones: standings and a player's page, visibility switches,
hidden rounds, translations, exports and query counts."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.services import results

from .factories import make_director, make_tournament, normal_game, seat_ids, seated_round

pytestmark = pytest.mark.django_db


def play_round(tournament, games=2):
    round = seated_round(tournament, seed=f"r{tournament.rounds.count() + 1}")
    for table in round.tables.all():
        for number in range(1, games + 1):
            results.save_game(table=table, data=normal_game(table, number, re_augen=130 + number))
    return round


@pytest.fixture
def tournament():
    director = make_director()
    tournament = make_tournament(players=8, director=director, slug="offen")
    play_round(tournament)
    return tournament


def standings_url(tournament, suffix="standings", **query):
    url = reverse(f"tournament:{suffix}", args=[tournament.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_public_standings_without_login(client, tournament):
    response = client.get(standings_url(tournament))
    assert response.status_code == 200
    content = response.content.decode()
    assert "Rangliste" in content and "Anna" in content and "aktualisiert sich selbst" in content


def test_each_public_page_can_be_switched_off(client, tournament):
    entry = tournament.entries.first()
    player_url = reverse("tournament:player", args=[tournament.slug, entry.id])
    tournament.public_standings = False
    tournament.public_players = False
    tournament.save()
    assert client.get(standings_url(tournament)).status_code == 404
    assert client.get(standings_url(tournament, "standings_csv")).status_code == 404
    assert client.get(player_url).status_code == 404
    client.force_login(tournament.directors.get())
    assert client.get(standings_url(tournament)).status_code == 200
    assert client.get(player_url).status_code == 200


def test_hidden_round_results_stay_off_the_public_pages(client, tournament):
    second = play_round(tournament, games=1)
    public_before = json.loads(client.get(standings_url(tournament, "standings_json")).content)
    second.results_hidden = True
    second.save()
    public = json.loads(client.get(standings_url(tournament, "standings_json")).content)
    assert sum(row["games"] for row in public) == 8 * 2  # round 1 only: 2 games for each of 8 players
    assert public != public_before
    entry_id = seat_ids(second.tables.first())[0]
    page = client.get(reverse("tournament:player", args=[tournament.slug, entry_id])).content.decode()
    assert "werden noch bekanntgegeben" in page
    client.force_login(tournament.directors.get())
    director = json.loads(client.get(standings_url(tournament, "standings_json")).content)
    assert sum(row["games"] for row in director) == 8 * 3
    assert "noch verborgen" in client.get(standings_url(tournament)).content.decode()


def test_standings_after_a_round_and_movement(client, tournament):
    play_round(tournament, games=1)
    content = client.get(standings_url(tournament, round=1)).content.decode()
    assert "Rangliste nach Runde 1" in content
    latest = client.get(standings_url(tournament)).content.decode()
    assert "▲" in latest or "▼" in latest or "unverändert" in latest


def test_csv_is_semicolon_separated_with_a_bom(client, tournament):
    response = client.get(standings_url(tournament, "standings_csv"))
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeffPlatz;Spieler;Verein;Punkte;Spiele;gewonnen;Soli\r\n")
    assert len(text.strip().splitlines()) == 9
    assert "text/csv" in response["Content-Type"]


def test_json_lists_rank_player_points(client, tournament):
    data = json.loads(client.get(standings_url(tournament, "standings_json")).content)
    assert len(data) == 8 and sum(row["points"] for row in data) == 0
    assert set(data[0]) == {"rank", "player", "club", "points", "games", "won", "solos"}


def test_partial_fragment_for_the_self_updating_page(client, tournament):
    response = client.get(standings_url(tournament, partial=1))
    content = response.content.decode()
    assert "<html" not in content and 'id="standings-table"' in content


def test_english_when_the_browser_asks_for_it(client, tournament):
    content = client.get(standings_url(tournament), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Standings" in content and "Rangliste" not in content
    entry = tournament.entries.first()
    page = client.get(reverse("tournament:player", args=[tournament.slug, entry.id]),
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Points" in page and "Punkte" not in page


def test_dates_follow_the_language(client, tournament):
    assert "21.11.2026" in client.get(standings_url(tournament)).content.decode()
    assert "11/21/2026" in client.get(standings_url(tournament), HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_public_round_page_says_who_sits_where(client, tournament):
    page = client.get(reverse("tournament:round", args=[tournament.slug, 1])).content.decode()
    assert "Wer sitzt wo? (alphabetisch)" in page and "Platz 1 gibt das erste Spiel" in page
    assert "Auslosen" not in page  # no director forms for the public


def test_player_page_lists_every_game_with_points_and_breakdown(client, tournament):
    table = tournament.rounds.get(number=1).tables.first()
    entry_id = seat_ids(table)[0]
    content = client.get(reverse("tournament:player", args=[tournament.slug, entry_id])).content.decode()
    assert "Runde 1: Tisch 1" in content
    assert content.count("keine 120") == 2  # two games, each with its breakdown
    assert "Punktestand nach jedem Spiel" in content and "<svg" in content


def test_sortable_by_points(client, tournament):
    content = client.get(standings_url(tournament, sort="-points")).content.decode()
    assert "standings-table" in content


def queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_public_pages_run_a_fixed_number_of_queries(client):
    counts = []
    for players, slug in ((8, "klein"), (37, "gross")):
        tournament = make_tournament(players=players, slug=slug, name=slug)
        play_round(tournament, games=3)
        play_round(tournament, games=2)
        entry_id = seat_ids(tournament.rounds.get(number=2).tables.first())[0]
        counts.append((
            queries(client, standings_url(tournament)),
            queries(client, standings_url(tournament, round=1)),
            queries(client, standings_url(tournament, "standings_csv")),
            queries(client, reverse("tournament:player", args=[tournament.slug, entry_id])),
        ))
    assert counts[0] == counts[1]


def test_director_switches_public_pages_in_the_settings(client, tournament):
    director = tournament.directors.get()
    client.force_login(director)
    page = client.get(reverse("tournament:settings", args=[tournament.slug])).content.decode()
    assert "Öffentlich sichtbar" in page
    data = {"name": tournament.name, "date": "2026-11-21", "place": "", "slug": tournament.slug, "preset": "turnier",
            "rule_changes": "", "rounds_planned": 3, "games_at_table_of_4": 8, "games_at_table_of_5": 10,
            "public_overview": "on", "public_players": "on"}  # seating and standings off
    assert client.post(reverse("tournament:settings", args=[tournament.slug]), data).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.public_overview, tournament.public_seating, tournament.public_standings,
            tournament.public_players) == (True, False, False, True)
    client.logout()
    assert client.get(reverse("tournament:round", args=[tournament.slug, 1])).status_code == 404
    assert client.get(standings_url(tournament)).status_code == 404
    assert client.get(reverse("tournament:overview", args=[tournament.slug])).status_code == 200


def test_public_overview_can_be_switched_off(client, tournament):
    tournament.public_overview = False
    tournament.save()
    assert client.get(reverse("tournament:overview", args=[tournament.slug])).status_code == 404


def test_director_hides_and_announces_a_rounds_results(client, tournament):
    client.force_login(tournament.directors.get())
    status_url = reverse("tournament:round_status", args=[tournament.slug, 1])
    client.post(status_url, {"action": "hide"})
    assert tournament.rounds.get(number=1).results_hidden
    client.logout()
    assert json.loads(client.get(standings_url(tournament, "standings_json")).content)[0]["points"] == 0
    client.force_login(tournament.directors.get())
    client.post(status_url, {"action": "show"})
    assert not tournament.rounds.get(number=1).results_hidden
