"""A player who withdrew or never came and has no result in any round gets no place (docs/tournament.md,
"Wer keinen Platz bekommt"): listed below the ranked players with "–" on the standings, in the CSV,
JSON, the command and the PDF, left out on the projector, no place on their page; nobody below 0
moves down a place because of him. One who played and then withdrew keeps his place."""

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from tournament.printing import documents
from tournament.selectors import standings
from tournament.services import checkin, sheet_state, tournaments
from tournament.web import caching, histories

from ..factories import make_director, make_tournament
from .test_ranking import ids, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening():
    """10 players; Jens does not come and is withdrawn before round 1; 9 play round 1 with results
    below and above 0."""
    tournament = make_tournament(players=10, director=make_director(), slug="abend")
    tournaments.withdraw_player(entry=tournament.entries.get(player__name="Jens"))
    play(tournament, [{"Anna": 30, "Bernd": 10, "Carla": -10, "Dieter": -30},
                      {"Emil": 20, "Frieda": 10, "Gustav": -5, "Hanna": -10, "Ida": -15}])
    return tournament


def test_a_withdrawn_no_show_gets_no_place_and_nobody_moves_down(evening):
    rows = [(row.rank, row.name) for row in standings(evening)]
    assert rows == [(1, "Anna"), (2, "Emil"), (3, "Bernd"), (3, "Frieda"), (5, "Gustav"), (6, "Carla"),
                    (6, "Hanna"), (8, "Ida"), (9, "Dieter"), (0, "Jens")]


def test_one_who_played_and_then_withdrew_keeps_his_place(evening):
    tournaments.withdraw_player(entry=evening.entries.get(player__name="Dieter"))
    play(evening, [{"Anna": 5, "Bernd": 5, "Carla": -5, "Emil": -5},
                   {"Frieda": 0, "Gustav": 0, "Hanna": 0, "Ida": 0}])
    rows = {row.name: row.rank for row in standings(evening)}
    assert rows["Dieter"] == 9 and rows["Jens"] == 0


def test_a_no_show_at_the_check_in_gets_no_place():
    tournament = make_tournament(players=9, director=make_director(), slug="checkin")
    for entry in tournament.entries.exclude(player__name="Ida"):
        checkin.set_present(entry=entry, present=True)
    play(tournament, [{"Anna": 30, "Bernd": -10, "Carla": -10, "Dieter": -10},
                      {"Emil": 20, "Frieda": 0, "Gustav": 0, "Hanna": -20}])
    rows = [(row.rank, row.name) for row in standings(tournament)]
    assert rows[-1] == (0, "Ida") and rows[-2] == (8, "Hanna")


def test_the_exports_the_pdf_and_the_projector_leave_the_place_empty(client, evening):
    url = reverse("tournament:standings_csv", args=[evening.slug])
    lines = list(csv.reader(io.StringIO(client.get(url).content.decode("utf-8-sig")), delimiter=";"))
    assert lines[-1][:2] == ["", "Jens"] and lines[-2][:2] == ["9", "Dieter"]
    data = json.loads(client.get(reverse("tournament:standings_json", args=[evening.slug])).content)
    assert data[-1]["player"] == "Jens" and data[-1]["rank"] is None and data[-2]["rank"] == 9

    page = client.get(reverse("tournament:standings", args=[evening.slug]) + "?all=1").content.decode()
    row = page[page.index('data-name="Jens"'):]
    assert row.index('<td class="num">–</td>') < row.index("</tr>")
    projector = client.get(reverse("tournament:projector", args=[evening.slug])).content.decode()
    assert "Dieter" in projector and "Jens" not in projector

    html = documents.standings_html(evening)
    assert "–" in html[html.index("Jens") - 200:html.index("Jens")] and "10." not in html

    out = io.StringIO()
    call_command("standings", evening.slug, format="json", stdout=out)
    assert json.loads(out.getvalue())[-1] == {"rank": None, "player": "Jens", "points": 0, "games": 0, "won": 0}


def test_the_players_page_shows_no_place(client, evening):
    page = client.get(reverse("tournament:player", args=[evening.slug, ids(evening)["Jens"]])).content.decode()
    assert "<dt>Platz</dt>" not in page and "Platz 10" not in page
    page = client.get(reverse("tournament:player", args=[evening.slug, ids(evening)["Dieter"]])).content.decode()
    assert "<dt>Platz</dt><dd>9</dd>" in page


def test_the_history_brought_up_to_date_keeps_him_without_a_place(evening):
    """A result saved later ranks the changed table's players again (`standings._moved`): still no
    place for him, and the places below 0 stay right."""
    before = histories.standings_history(evening, include_hidden=True, counter=caching.change_counter(evening))
    assert before.final()[-1].rank == 0
    table = evening.rounds.get(number=1).tables.get(number=1)
    entry = ids(evening)
    sheet_state.enter_totals(table=table, totals={entry["Anna"]: 30, entry["Bernd"]: 10, entry["Carla"]: -40,
                                                  entry["Dieter"]: 0})
    after = histories.standings_history(evening, include_hidden=True, counter=caching.change_counter(evening))
    assert [(row.rank, row.name) for row in after.final()][-3:] == [(8, "Ida"), (9, "Carla"), (0, "Jens")]
