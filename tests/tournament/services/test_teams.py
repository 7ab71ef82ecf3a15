"""Teams and club ranking (docs/competitions.md "In the app"): the services (refusals, the
change log), the standings from the standings' rows in a fixed number of queries, the pages and
exports, `manage.py standings --teams`, and team members kept apart in the draw."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tournament.errors import UserError
from tournament.log import changelog
from tournament.models import DataChange, Entry, Team
from tournament.selectors import standings
from tournament.selectors import teams as team_selectors
from tournament.services import seating, teams, tournaments

from ..factories import make_tournament, play_round, seated_round

pytestmark = pytest.mark.django_db


def ids(tournament, *numbers):
    by_number = dict(tournament.entries.values_list("start_number", "id"))
    return [by_number[n] for n in numbers]


def director_client(director):
    client = Client()
    client.force_login(director)
    return client


# ---- services -----------------------------------------------------------------------------------------

def test_create_change_delete_are_in_the_change_log(tournament):
    before = DataChange.objects.count()
    team = teams.create_team(tournament=tournament, name="Die Asse", members=ids(tournament, 1, 2, 3))
    assert sorted(team.members.values_list("entry__start_number", flat=True)) == [1, 2, 3]
    teams.update_team(team=team, name="Die Asse", members=ids(tournament, 1, 4), version=team.version)
    teams.delete_team(team=team, version=team.version + 1)
    assert DataChange.objects.count() == before + 3  # one change counter row per action
    log = changelog.entries(tournament)
    team_entries = [e for e in log if e.kind == "team"]
    assert [e.action for e in team_entries] == ["team_deleted", "team_changed", "team_created"]
    created = team_entries[-1]
    assert created.label == "Team angelegt" and created.subject == "Team Die Asse"
    assert "Mitglieder: " in created.after_text and len(created.after["members"]) == 3
    assert len(team_entries[1].after["members"]) == 2
    assert len(team_entries[0].before["members"]) == 2  # the deleted team's record still names its members


@pytest.mark.parametrize(("members", "message"), [
    ((1,), "2 bis 6 Mitglieder"),
    ((1, 2, 3, 4, 5, 6, 7), "2 bis 6 Mitglieder"),
])
def test_team_size_is_refused(tournament, members, message):
    with pytest.raises(UserError, match=message):
        teams.create_team(tournament=tournament, name="X", members=ids(tournament, *members))
    assert not Team.objects.exists()


def test_a_player_in_two_teams_and_a_name_twice_are_refused(tournament):
    teams.create_team(tournament=tournament, name="A", members=ids(tournament, 1, 2))
    changes = DataChange.objects.filter(tournament=tournament).count()
    with pytest.raises(UserError, match="schon im Team „A“"):
        teams.create_team(tournament=tournament, name="B", members=ids(tournament, 2, 3))
    with pytest.raises(UserError, match="Ein Team „A“ gibt es schon"):
        teams.create_team(tournament=tournament, name="A", members=ids(tournament, 3, 4))
    other = make_tournament(players=4, slug="anders", name="Anderes")
    with pytest.raises(UserError, match="spielt in diesem Turnier"):
        teams.create_team(tournament=tournament, name="C", members=[*ids(tournament, 5), *ids(other, 1)])
    assert Team.objects.count() == 1 and DataChange.objects.filter(tournament=tournament).count() == changes


CLASH = ("Ein Team „Kreuz-Asse“ gibt es schon; „KREUZ-ASSE“ unterscheidet sich davon nur in Groß- und "
         "Kleinschreibung oder Leerzeichen, und die Liga zählt beide als ein Team.")


@pytest.mark.parametrize("second", ["KREUZ-ASSE", "kreuz-asse", " Kreuz-Asse "])
def test_a_name_that_differs_only_in_case_is_refused_as_the_league_counts_them_as_one(tournament, second):
    """Found by a tester: "KREUZ-ASSE" beside "Kreuz-Asse" was accepted, and the
    league (which compares names without case) made one team of the two."""
    first = teams.create_team(tournament=tournament, name="Kreuz-Asse", members=ids(tournament, 1, 2))
    changes = DataChange.objects.filter(tournament=tournament).count()
    with pytest.raises(UserError) as error:
        teams.create_team(tournament=tournament, name=second, members=ids(tournament, 3, 4))
    assert error.value.field == "name"
    assert "Kreuz-Asse" in error.value.message and "gibt es schon" in error.value.message
    other = teams.create_team(tournament=tournament, name="Pik", members=ids(tournament, 3, 4))
    with pytest.raises(UserError, match="nur in Groß- und Kleinschreibung"):
        teams.update_team(team=other, name="KREUZ-ASSE", members=ids(tournament, 3, 4))
    # the team itself may change the case of its own name
    teams.update_team(team=first, name="KREUZ-ASSE", members=ids(tournament, 1, 2))
    assert sorted(Team.objects.values_list("name", flat=True)) == ["KREUZ-ASSE", "Pik"]
    assert DataChange.objects.filter(tournament=tournament).count() == changes + 2


def test_the_teams_page_names_the_clash_at_the_name(tournament, director):
    client = director_client(director)
    url = reverse("tournament:teams", args=[tournament.slug])
    assert client.post(url, {"new-name": "Kreuz-Asse", "new-members": "1, 2"}).status_code == 302
    response = client.post(url, {"new-name": "KREUZ-ASSE", "new-members": "3, 4"})
    assert response.status_code == 200 and CLASH in response.content.decode()
    assert Team.objects.count() == 1


def test_team_options_are_in_the_change_log(tournament):
    teams.set_team_options(tournament=tournament, team_count=2, club_count=0, teams_apart=True,
                           version=tournament.version)
    entry = changelog.entries(tournament)[0]
    assert entry.action == "team_options_changed"
    assert "Vereinswertung: alle zählen" in entry.after_text and "die besten 2" in entry.after_text
    with pytest.raises(UserError):
        teams.set_team_options(tournament=tournament, team_count=7, club_count=None, teams_apart=False)


# ---- standings ------------------------------------------------------------------------------------------

def test_team_standings_count_the_best_k_and_say_why(tournament):
    play_round(tournament)
    teams.create_team(tournament=tournament, name="A", members=ids(tournament, 1, 2, 3))
    teams.create_team(tournament=tournament, name="B", members=ids(tournament, 4, 5, 6))
    teams.set_team_options(tournament=tournament, team_count=2, club_count=None, teams_apart=False)
    tournament.refresh_from_db()
    rows = standings(tournament)
    points = {r.entry_id: r.points for r in rows}
    found = team_selectors.team_standings(tournament, rows).teams
    assert found is not None and found.count == 2
    for line in found.rows:
        counted = [m for m in line.members if m.counts]
        assert len(counted) == 2 and line.value == sum(m.value for m in counted)
        assert all(m.value == points[e] for m in line.members for e, p in points.items()
                   if Entry.objects.get(pk=e).player.name == m.name)
        assert {m.why for m in line.members} <= {"zählt (unter den Besten)", "zählt nicht (nicht unter den Besten)",
                                                  "zählt nicht (gleich viel wie der Letzte, der zählt; an der "
                                                  "Summe ändert das nichts)"}
    assert [line.value for line in found.rows] == sorted((line.value for line in found.rows), reverse=True)
    assert "besten 2" in found.rule


def test_club_ranking_lists_a_small_club_apart(director):
    tournament = make_tournament(players=0, director=director, slug="vereine")
    for number in range(1, 9):
        tournaments.register_player(tournament=tournament, name=f"Spieler {number}",
                                    club="Klein" if number == 8 else "Groß")
    play_round(tournament)
    teams.set_team_options(tournament=tournament, team_count=None, club_count=2, teams_apart=False)
    tournament.refresh_from_db()
    clubs = team_selectors.team_standings(tournament, standings(tournament)).clubs
    assert clubs is not None
    assert [line.name for line in clubs.rows] == ["Groß"] and [line.name for line in clubs.apart] == ["Klein"]


def build(players: int, team_count: int):
    tournament = make_tournament(players=players, slug=f"t{players}", name=f"T{players}")
    play_round(tournament, games=1)
    numbers = list(range(1, players + 1))
    for i in range(team_count):
        teams.create_team(tournament=tournament, name=f"Team {i + 1}",
                          members=ids(tournament, *numbers[4 * i:4 * i + 4]))
    teams.set_team_options(tournament=tournament, team_count=3, club_count=0, teams_apart=False)
    tournament.refresh_from_db()
    return tournament


@pytest.mark.parametrize(("players", "team_count"), [(8, 2), (40, 10)])
def test_team_standings_take_one_query_whatever_the_size(players, team_count, django_assert_num_queries):
    tournament = build(players, team_count)
    rows = standings(tournament)
    with django_assert_num_queries(1):
        found = team_selectors.team_standings(tournament, rows)
    assert found.teams is not None and len(found.teams.rows) == team_count
    assert found.clubs is not None


# ---- pages and exports -------------------------------------------------------------------------------

def test_director_creates_a_team_on_the_page(tournament, director):
    client = director_client(director)
    url = reverse("tournament:teams", args=[tournament.slug])
    assert client.get(url).status_code == 200
    names = list(tournament.entries.order_by("start_number").values_list("player__name", flat=True))
    response = client.post(url, {"new-name": "Kreuz", "new-members": f"{names[0]}, 2\n3"})
    assert response.status_code == 302
    assert Team.objects.get().members.count() == 3
    response = client.post(url, {"new-name": "Pik", "new-members": "1, Niemand"})
    assert response.status_code == 200 and "„Niemand“ spielt in diesem Turnier nicht mit." in response.content.decode()
    assert Team.objects.count() == 1


def test_public_team_page_csv_json_and_the_link(tournament):
    play_round(tournament)
    teams.create_team(tournament=tournament, name="Kreuz", members=ids(tournament, 1, 2))
    teams.create_team(tournament=tournament, name="Pik", members=ids(tournament, 3, 4))
    client = Client()
    standings_page = client.get(reverse("tournament:standings", args=[tournament.slug])).content.decode()
    page_url = reverse("tournament:team_standings", args=[tournament.slug])
    assert page_url in standings_page
    page = client.get(page_url).content.decode()
    assert "Kreuz" in page and "Pik" in page and "zählt (alle zählen)" in page
    data = json.loads(client.get(reverse("tournament:team_standings_json", args=[tournament.slug])).content)
    assert {row["name"] for row in data["teams"]["rows"]} == {"Kreuz", "Pik"} and data["clubs"] is None
    text = client.get(reverse("tournament:team_standings_csv", args=[tournament.slug])).content.decode("utf-8-sig")
    assert text.splitlines()[0].startswith("Wertung;Platz;Team") and len(text.splitlines()) == 3


def test_standings_page_has_no_team_link_without_teams(tournament):
    page = Client().get(reverse("tournament:standings", args=[tournament.slug])).content.decode()
    assert reverse("tournament:team_standings", args=[tournament.slug]) not in page


def test_command_prints_team_standings(tournament):
    play_round(tournament)
    teams.create_team(tournament=tournament, name="Kreuz", members=ids(tournament, 1, 2))
    out = io.StringIO()
    call_command("standings", tournament.slug, "--teams", "--format", "json", stdout=out)
    assert json.loads(out.getvalue())["teams"]["rows"][0]["name"] == "Kreuz"
    out = io.StringIO()
    call_command("standings", tournament.slug, "--teams", stdout=out, stderr=io.StringIO())
    assert "Kreuz" in out.getvalue()


# ---- seating -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", ["a", "b", "c", "d"])
def test_team_members_sit_apart_when_the_option_is_on(director, seed):
    tournament = make_tournament(players=16, director=director, slug=f"apart-{seed}")
    for i in range(4):  # four teams of four: one of each team at every table is possible
        teams.create_team(tournament=tournament, name=f"T{i}", members=ids(tournament, *range(4 * i + 1, 4 * i + 5)))
    teams.set_team_options(tournament=tournament, team_count=None, club_count=None, teams_apart=True)
    tournament.refresh_from_db()
    round = seated_round(tournament, seed=seed, publish=False)
    team_of = {e: t for t, es in team_selectors.team_members(tournament).items() for e in es}
    for table in round.tables.all():
        seated = [team_of[s.entry_id] for s in table.seats.all()]
        assert len(set(seated)) == len(seated)
    seating.seat_round(round=round, seed=seed)  # drawn again: still apart


def test_the_english_rule_says_game_points_in_lower_case_inside_its_sentence():
    """A walk-through found "A team counts the Game points of …": the column head inside a sentence."""
    from django.utils import translation

    from tournament.selectors import teams as team_selectors

    with translation.override("en"):
        text = team_selectors.rule_text("teams", "points", 2)
    assert "game points" in text and "Game points" not in text
