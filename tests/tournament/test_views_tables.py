"""The table sheet and game entry pages: keyboard form, preview, errors next to fields, edits."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.models import Game, Penalty
from tournament.dealing import game_players
from tournament.services import results

from .factories import make_director, make_tournament, normal_game, seat_ids, seated_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(director):
    tournament = make_tournament(players=8, director=director, slug="herbst")
    return seated_round(tournament).tables.get(number=1)


def url(name, table, *extra):
    return reverse(f"tournament:{name}", args=[table.round.tournament.slug, table.round.number, table.number, *extra])


def form_data(table, number=1, **overrides):
    _dealer, _out, players = game_players(seat_ids(table), number)
    data = {"type": "normal", "solo": "", "re": [players[0], players[1]], "announce_re": "", "announce_kontra": "",
            "re_augen": "130", "re_tricks": "", "action": "preview"}
    data.update(overrides)
    return data


def test_sheet_needs_a_director(client, table):
    response = client.get(url("table", table))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    other = make_director("fremd")
    client.force_login(other)
    assert client.get(url("table", table)).status_code == 403


def test_preview_shows_scores_and_saves_nothing(client, director, table):
    client.force_login(director)
    response = client.post(url("game_new", table), form_data(table, announce_re="re"))
    assert response.status_code == 200
    content = response.content.decode()
    assert "Re gewinnt." in content and "Re angesagt" in content and "+2" in content
    assert not Game.objects.exists()


def test_save_goes_on_to_the_next_game(client, director, table):
    client.force_login(director)
    response = client.post(url("game_new", table), form_data(table, action="save"))
    assert response.status_code == 302 and response["Location"] == url("game_new", table)
    assert Game.objects.get().number == 1
    page = client.get(url("game_new", table)).content.decode()
    assert "Spiel 2" in page


def test_engine_messages_appear_next_to_the_fields(client, director, table):
    client.force_login(director)
    response = client.post(url("game_new", table), form_data(table, re_augen="250", re_fuchs="3",
                                                             announce_re="keine90"))
    form = response.context["form"]
    assert form.errors["re_augen"] == ["muss zwischen 0 und 240 liegen, nicht 250"]
    assert form.errors["re_fuchs"] == ["muss zwischen 0 und 2 liegen, nicht 3"]
    assert not Game.objects.exists()


def test_wrong_re_party_size_is_reported_on_the_re_field(client, director, table):
    client.force_login(director)
    data = form_data(table, type="solo", solo="damen")
    response = client.post(url("game_new", table), data)
    assert response.context["form"].errors["re"] == ["bei solo hat die Re-Partei 1 Spieler, nicht 2"]


def test_english_messages_when_the_browser_asks_for_english(client, director, table):
    client.force_login(director)
    response = client.post(url("game_new", table), form_data(table, re_augen="250"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.context["form"].errors["re_augen"] == ["must be between 0 and 240, got 250"]


def test_editing_an_earlier_game_recomputes_the_sheet(client, director, table):
    client.force_login(director)
    client.post(url("game_new", table), form_data(table, 1, action="save"))
    client.post(url("game_new", table), form_data(table, 2, action="save"))
    # game 1 turns into a Nullspiel: Kontra caught a Fuchs
    client.post(url("game_edit", table, 1), form_data(table, 1, action="save", kontra_fuchs="1"))
    assert Game.objects.get(number=2).multiplier == 2
    page = client.get(url("table", table)).content.decode()
    assert "(×2)" in page and "Quersumme 0" in page


def test_delete_game_and_penalty(client, director, table):
    client.force_login(director)
    results.save_game(table=table, data=normal_game(table))
    ids = seat_ids(table)
    response = client.post(url("penalty_add", table), {"offender": ids[2], "game_number": "", "note": "falsch bedient"})
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    page = client.get(url("table", table)).content.decode()
    assert "falsch bedient" in page and "−6" in page
    client.post(url("penalty_delete", table, penalty.id))
    client.post(url("game_delete", table, 1))
    assert not Penalty.objects.exists() and not Game.objects.exists()


def test_totals_only_entry_rejects_a_nonzero_sum(client, director, table):
    client.force_login(director)
    ids = seat_ids(table)
    response = client.post(url("table_totals", table), {f"p{ids[0]}": 5, f"p{ids[1]}": -5, f"p{ids[2]}": 1,
                                                        f"p{ids[3]}": 0})
    assert "ergeben zusammen 1 statt 0" in response.content.decode()
    response = client.post(url("table_totals", table), {f"p{ids[0]}": 5, f"p{ids[1]}": -5, f"p{ids[2]}": 1,
                                                        f"p{ids[3]}": -1})
    assert response.status_code == 302
    assert "Nur Endstände eingetragen" in client.get(url("table", table)).content.decode()


def test_signed_sheet_is_locked_until_unlocked(client, director, table):
    client.force_login(director)
    client.post(url("table_sign", table), {"note": "alle vier"})
    response = client.get(url("game_new", table), follow=True)
    assert "gesperrt" in response.content.decode()
    client.post(url("table_sign", table), {"action": "unlock"})
    assert client.get(url("game_new", table)).status_code == 200


def queries_for(client, path):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


def fill(table, games):
    for number in range(1, games + 1):
        results.save_game(table=table, data=normal_game(table, number, extras={"re": {"fuchs": 1}}))
    results.add_penalty(table=table, offender_id=seat_ids(table)[1], game_number=1)


def test_sheet_and_standings_run_a_fixed_number_of_queries(client, director):
    small = make_tournament(players=8, director=director, slug="klein")
    large = make_tournament(players=37, director=director, slug="gross", name="Groß")
    counts = []
    for tournament, games in ((small, 2), (large, 8)):
        round = seated_round(tournament)
        five = next((t for t in round.tables.all() if t.seats.count() == 5), round.tables.first())
        fill(five, games)
        for table in round.tables.all()[:3]:
            if table != five:
                fill(table, games)
        client.force_login(director)
        counts.append((queries_for(client, url("table", five)),
                       queries_for(client, reverse("tournament:standings", args=[tournament.slug])),
                       queries_for(client, url("game_new", five))))
    assert counts[0] == counts[1]
