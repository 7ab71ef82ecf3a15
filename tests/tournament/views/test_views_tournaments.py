"""Start page, creating a tournament, its overview (the director's dashboard) and its settings."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.models import Round, Score, Tournament
from tournament.services import editing, penalties, results, seating, sheet_state

from ..factories import make_director, make_tournament, message_texts, normal_game, seated_round

pytestmark = pytest.mark.django_db


def url(name, tournament, *extra):
    return reverse(f"tournament:{name}", args=[tournament.slug, *extra])


# ---- start page ----------------------------------------------------------------------------------

def test_start_page_lists_tournaments_with_links(client, tournament):
    make_tournament(players=0, name="Frühjahrsturnier", slug="fruehjahr", place="Kiel")
    page = client.get("/").content.decode()
    assert 'href="/t/herbst/"' in page and "Herbstturnier" in page
    assert 'href="/t/fruehjahr/"' in page and "Kiel" in page and "21.11.2026" in page
    assert "Noch keine Turniere." not in page
    assert "Neues Turnier" not in page  # only for logged-in users


def test_start_page_offers_a_new_tournament_when_logged_in(client, director):
    client.force_login(director)
    page = client.get("/").content.decode()
    assert f'href="{reverse("tournament:tournament_create")}"' in page and "Neues Turnier" in page


# ---- creating ------------------------------------------------------------------------------------

def create_data(**overrides):
    data = {"name": "Winterturnier", "date": "2026-12-12", "place": "Bremen", "slug": "", "preset": "ddv",
            "rounds_planned": "4", "games_at_table_of_4": "12", "games_at_table_of_5": "15"}
    data.update(overrides)
    return data


def test_creating_needs_a_login(client):
    response = client.get(reverse("tournament:tournament_create"))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    response = client.post(reverse("tournament:tournament_create"), create_data())
    assert response.status_code == 302 and not Tournament.objects.exists()


def test_form_has_defaults_and_the_presets_with_titles(client, director):
    client.force_login(director)
    response = client.get(reverse("tournament:tournament_create"))
    page = response.content.decode()
    assert "DDV-Turnierspielregeln (additiv)" in page and '<option value="turnier" selected>' in page
    form = response.context["form"]
    assert [form[name].initial for name in ("rounds_planned", "games_at_table_of_4", "games_at_table_of_5")] == [
        3, 8, 10]


def test_a_new_tournament_is_dated_today(client, director):
    """Today's date (in the site's time zone) is the default: most tournaments are created on the evening."""
    from django.utils import timezone

    client.force_login(director)
    page = client.get(reverse("tournament:tournament_create")).content.decode()
    today = timezone.localdate()
    assert f'name="date" value="{today.isoformat()}"' in page


def test_creator_becomes_director(client, director):
    client.force_login(director)
    response = client.post(reverse("tournament:tournament_create"), create_data())
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == url("players", tournament)
    assert tournament.slug == "winterturnier" and tournament.rules == "ddv"
    assert tournament.date == datetime.date(2026, 12, 12) and tournament.place == "Bremen"
    assert (tournament.rounds_planned, tournament.games_at_table_of_4, tournament.games_at_table_of_5) == (4, 12, 15)
    assert list(tournament.directors.all()) == [director]
    assert message_texts(response) == ["Turnier „Winterturnier“ angelegt. Als Nächstes: Spieler anmelden."]


def test_taken_or_reserved_slug_is_refused_next_to_the_field(client, director, tournament):
    client.force_login(director)
    response = client.post(reverse("tournament:tournament_create"), create_data(slug="herbst"))
    assert response.status_code == 200
    assert response.context["form"].errors["slug"] == ["Den Kurznamen herbst hat schon ein anderes Turnier."]
    response = client.post(reverse("tournament:tournament_create"), create_data(slug="new"))
    assert response.context["form"].errors["slug"] == ["Den Kurznamen new kann kein Turnier haben."]
    response = client.post(reverse("tournament:tournament_create"), create_data(slug="mit leerzeichen"))
    assert "slug" in response.context["form"].errors
    assert Tournament.objects.count() == 1


def test_missing_name_and_bad_numbers_are_form_errors(client, director):
    client.force_login(director)
    response = client.post(reverse("tournament:tournament_create"), create_data(name="", games_at_table_of_4="0"))
    errors = response.context["form"].errors
    assert set(errors) == {"name", "games_at_table_of_4"}
    assert not Tournament.objects.exists()


# ---- overview ------------------------------------------------------------------------------------

def play_some(tournament):
    """Round 1 published with one game and one signed table, round 2 a draft."""
    first = seated_round(tournament)
    table = first.tables.get(number=1)
    results.save_game(table=table, data=normal_game(table))
    sheet_state.sign_table(table=first.tables.get(number=2))
    seating.create_round(tournament=tournament)
    return first


def test_director_sees_the_dashboard(client, director, tournament):
    client.force_login(director)
    response = client.get(url("overview", tournament))
    page = response.content.decode()
    assert "Noch keine Runden." in page and "Nächste Runde anlegen" in page
    assert url("round_create", tournament) in page and url("standings", tournament) in page
    assert "8 aktiv" in page

    play_some(tournament)
    response = client.get(url("overview", tournament))
    rounds = response.context["overview"].rounds
    assert [(s.round.number, s.tables, s.games, s.games_expected, s.signed) for s in rounds] == [
        (1, 2, 1, 16, 1), (2, 0, 0, 0, 0)]
    page = response.content.decode()
    assert "1 / 16" in page and "1 / 2" in page and "veröffentlicht" in page and "Entwurf" in page
    # a draft exists: the button leads to it instead of creating another round
    assert "Nächste Runde anlegen" not in page and "Runde 2 auslosen und veröffentlichen" in page


def test_visitors_get_a_read_only_overview(client, tournament):
    play_some(tournament)
    response = client.get(url("overview", tournament))
    assert response.status_code == 200
    page = response.content.decode()
    assert "1 / 16" in page and "Herbstturnier" in page
    assert "Nächste Runde anlegen" not in page and url("round_create", tournament) not in page
    assert url("round", tournament, 1) in page and url("round", tournament, 2) not in page  # drafts stay hidden
    assert url("settings", tournament) not in page


def test_overview_counts_withdrawn_players(client, director, tournament):
    from tournament.services import tournaments

    tournaments.withdraw_player(entry=tournament.entries.first())
    client.force_login(director)
    page = client.get(url("overview", tournament)).content.decode()
    assert "7 aktiv" in page and "8 angemeldet" in page


# the director's request: the change counter by the slug (the tournament is kept in the process while it
# holds: caching.tournament_by_slug), session, user, role (a director: one query, role_of stops there);
# then rounds, games per table, tables with their sizes, player counts, rounds for the navigation
OVERVIEW_QUERIES = 9


def test_overview_queries_do_not_grow_with_the_tournament(client, director):
    small = make_tournament(players=8, director=director, slug="klein")
    large = make_tournament(players=37, director=director, slug="gross", name="Großes Turnier")
    for tournament in (small, large):
        play_some(tournament)
    client.force_login(director)
    for tournament in (small, large):
        client.get(url("overview", tournament))  # the first request may fill caches (and keep the tournament)
    counts = {}
    for tournament in (small, large):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url("overview", tournament)).status_code == 200
        counts[tournament.slug] = len(queries)
    assert counts == {"klein": OVERVIEW_QUERIES, "gross": OVERVIEW_QUERIES}


# ---- settings ------------------------------------------------------------------------------------

def settings_data(tournament, **overrides):
    data = {"name": tournament.name, "date": tournament.date.isoformat(), "place": tournament.place,
            "slug": tournament.slug, "preset": "turnier", "rule_changes": "", "rounds_planned": "3",
            "games_at_table_of_4": "8", "games_at_table_of_5": "10"}
    data.update(overrides)
    return data


def test_settings_are_for_directors_only(client, tournament):
    response = client.get(url("settings", tournament))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    response = client.post(url("settings", tournament), settings_data(tournament, name="Gekapert"))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.force_login(make_director("fremd"))
    assert client.get(url("settings", tournament)).status_code == 403
    assert client.post(url("settings", tournament), settings_data(tournament, name="Gekapert")).status_code == 403
    tournament.refresh_from_db()
    assert tournament.name == "Herbstturnier"


def test_settings_show_the_current_values(client, director, tournament):
    tournament.rules = {"preset": "ddv", "penalty_points": 3}
    tournament.tie_breakers = ["best_round"]
    tournament.save()
    client.force_login(director)
    response = client.get(url("settings", tournament))
    page = response.content.decode()
    assert '<option value="ddv" selected>' in page
    assert "{&quot;penalty_points&quot;: 3}" in page
    assert 'value="best_round" id="id_tie_breakers_1" checked' in page
    assert "bestes Rundenergebnis" in page and "mehr gewonnene Spiele" in page


def test_saving_settings(client, director, tournament):
    client.force_login(director)
    response = client.post(url("settings", tournament), settings_data(
        tournament, name="Herbstturnier 2026", slug="herbst-2026", place="Lübeck", rounds_planned="5",
        games_at_table_of_4="12", games_at_table_of_5="15", preset="ddv", rule_changes='{"penalty_points": 3}',
        tie_breakers=["best_round", "won"]))
    tournament.refresh_from_db()
    assert response.status_code == 302 and response["Location"] == "/t/herbst-2026/settings/"
    assert message_texts(response) == ["Einstellungen gespeichert."]
    assert (tournament.name, tournament.slug, tournament.place, tournament.rounds_planned) == (
        "Herbstturnier 2026", "herbst-2026", "Lübeck", 5)
    assert (tournament.games_at_table_of_4, tournament.games_at_table_of_5) == (12, 15)
    assert tournament.rules == {"preset": "ddv", "penalty_points": 3}
    assert tournament.tie_breakers == ["won", "best_round"]  # in the order of ranking.TIE_BREAKERS

    client.post(url("settings", tournament), settings_data(tournament, preset="ddv", rule_changes=""))
    tournament.refresh_from_db()
    assert tournament.rules == "ddv" and tournament.tie_breakers == []


def test_changed_rules_rescore_the_tables(client, director, tournament):
    table = seated_round(tournament).tables.get(number=1)
    offender = table.seats.get(position=1).entry_id
    penalty = penalties.add_penalty(table=table, offender_id=offender)
    assert Score.objects.get(penalty=penalty, entry_id=offender).points == -6
    client.force_login(director)
    client.post(url("settings", tournament), settings_data(tournament, rule_changes='{"penalty_points": 5}'))
    assert Score.objects.get(penalty=penalty, entry_id=offender).points == -15
    tournament.refresh_from_db()
    assert tournament.rules == {"preset": "turnier", "penalty_points": 5}


def test_rule_problems_are_shown_and_nothing_is_saved(client, director, tournament):
    client.force_login(director)
    response = client.post(url("settings", tournament), settings_data(
        tournament, name="Anders", rule_changes='{"penalty_points": 300, "bogus": 1}'))
    assert response.status_code == 200
    assert response.context["form"].errors["rule_changes"] == [
        "Regelwerk, penalty_points: Muss zwischen 0 und 100 liegen, nicht 300.", "Regelwerk, bogus: Unbekannte Option."]
    page = response.content.decode()
    assert "Regelwerk, bogus: Unbekannte Option." in page
    tournament.refresh_from_db()
    assert tournament.name == "Herbstturnier" and tournament.rules == "turnier"


def test_invalid_json_and_taken_slug_are_form_errors(client, director, tournament):
    make_tournament(players=0, slug="belegt")
    client.force_login(director)
    response = client.post(url("settings", tournament), settings_data(
        tournament, slug="belegt", rule_changes='{"penalty_points": }'))
    errors = response.context["form"].errors
    assert errors["rule_changes"] == ["Kein gültiges JSON (Zeile 1, Zeichen 20)."]
    assert errors["slug"] == ["Den Kurznamen belegt hat schon ein anderes Turnier."]
    response = client.post(url("settings", tournament), settings_data(tournament, rule_changes="[1, 2]"))
    assert response.context["form"].errors["rule_changes"][0].startswith("Erwartet ist ein JSON-Objekt")


def test_keeping_the_own_slug_is_fine(client, director, tournament):
    client.force_login(director)
    response = client.post(url("settings", tournament), settings_data(tournament, place="Kiel"))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.place == "Kiel"


# ---- creating a round (from the overview) --------------------------------------------------------

def test_creating_rounds(client, director, tournament):
    client.force_login(director)
    response = client.post(url("round_create", tournament))
    assert response.status_code == 302 and response["Location"] == url("round", tournament, 1)
    assert message_texts(response) == ["Runde 1 angelegt. Jetzt die Tische auslosen."]
    response = client.post(url("round_create", tournament), follow=True)
    assert response.redirect_chain[-1][0] == url("overview", tournament)
    assert "Runde 1 ist noch ein Entwurf: erst veröffentlichen, dann die nächste Runde anlegen." in \
        response.content.decode()
    assert list(tournament.rounds.values_list("number", "status")) == [(1, Round.Status.DRAFT)]


def test_creating_a_round_needs_the_director(client, tournament):
    response = client.post(url("round_create", tournament))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.force_login(make_director("fremd"))
    assert client.post(url("round_create", tournament)).status_code == 403
    assert client.get(url("round_create", tournament)).status_code == 405
    assert not tournament.rounds.exists()


def play_round_games(table, last: int) -> None:
    """Games up to `last` at the table (those not entered yet)."""
    for number in range(editing.next_game_number(table), last + 1):
        results.save_game(table=table, number=number, data=normal_game(table, number), version=0)


def test_a_finished_tournament_says_so_and_names_the_winners(client, director):
    """'Turnier beendet' once every planned round is closed and nothing is missing, with the first three
    of the final standings; not while a round is open or a game is missing."""
    from tournament.selectors import standings

    tournament = make_tournament(players=8, director=director, slug="fertig")
    tournament.rounds_planned = 1
    tournament.save()
    round = seated_round(tournament)
    overview = url("overview", tournament)
    for table in round.tables.all():
        play_round_games(table, 7)
    seating.close_round(round=round, backup=False)
    assert "Turnier beendet" not in client.get(overview).content.decode()  # a game per table is missing
    seating.reopen_round(round=round)
    for table in round.tables.all():
        play_round_games(table, 8)
    assert "Turnier beendet" not in client.get(overview).content.decode()  # complete, but not closed
    seating.close_round(round=round, backup=False)
    page = client.get(overview).content.decode()
    assert 'id="finished"' in page and "Turnier beendet" in page
    top = [row for row in standings(tournament) if row.rank <= 3]
    assert all(row.name in page for row in top) and f"{top[0].points} Punkte" in page
    assert "Endstand" in page
