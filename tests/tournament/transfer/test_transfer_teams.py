"""The tournament file with teams and categories (docs/tournament-file.md): the teams, the team
options, the tournament's own categories, the players' categories and member numbers go out and come
back; a file without them imports as before; the checks name where a team or a player is wrong; a
backup keeps the team records of the change log."""

import copy

import pytest

from tournament.log import changelog
from tournament.models import Team
from tournament.services import player_details, teams, tournaments
from tournament.services.exporting import export_tournament
from tournament.services.importing import import_tournament

from ..factories import make_tournament, play_round
from .test_transfer import CANONICAL, canonical, problems_of, without_links

pytestmark = pytest.mark.django_db


def ids(tournament, *numbers):
    by_number = dict(tournament.entries.values_list("start_number", "id"))
    return [by_number[n] for n in numbers]


def league_day():
    """A tournament with everything the file now holds about teams and categories, and a round played."""
    tournament = make_tournament(players=8, slug="spieltag")
    tournaments.update_tournament(tournament=tournament, fields={"categories": ["Ü70", "Vereinsmeister"]},
                                  rules=tournament.rules)
    first, second = tournament.entries.order_by("start_number")[:2]
    player_details.edit_player(entry=first, name=first.player.name, club=first.player.club, member_number="DK 123",
                               categories=["Damen", "Ü70"])
    player_details.edit_player(entry=second, name=second.player.name, club=second.player.club,
                               member_number="X-9", categories=["Vereinsmeister"])
    teams.set_team_options(tournament=tournament, team_count=3, club_count=0, teams_apart=True, team_match=True,
                           cup_advance=2)
    # a match day: four teams of two, one of each at every table
    teams.create_team(tournament=tournament, name="Die Asse", members=ids(tournament, 1, 5))
    team = teams.create_team(tournament=tournament, name="Füchse", members=ids(tournament, 2, 7))
    teams.update_team(team=team, name="Die Füchse", members=ids(tournament, 2, 6), version=team.version)
    teams.create_team(tournament=tournament, name="Kreuz", members=ids(tournament, 3, 7))
    teams.create_team(tournament=tournament, name="Pik", members=ids(tournament, 4, 8))
    play_round(tournament)
    tournament.refresh_from_db()
    return tournament


def test_teams_options_categories_and_member_numbers_go_out_and_come_back():
    tournament = league_day()
    exported = export_tournament(tournament, backup=False)
    assert exported["teams"] == [{"name": "Die Asse", "members": [1, 5]}, {"name": "Die Füchse", "members": [2, 6]},
                                 {"name": "Kreuz", "members": [3, 7]}, {"name": "Pik", "members": [4, 8]}]
    assert {key: exported[key] for key in ("team_count", "club_count", "teams_apart", "team_match", "cup_advance",
                                           "categories")} == {
        "team_count": 3, "club_count": 0, "teams_apart": True, "team_match": True, "cup_advance": 2,
        "categories": ["Ü70", "Vereinsmeister"]}
    assert exported["players"][0]["member_number"] == "DK123"  # spaces dropped, as the page stores it
    assert exported["players"][0]["categories"] == ["Damen", "Ü70"]
    assert exported["players"][1]["categories"] == ["Vereinsmeister"] and "categories" not in exported["players"][2]

    copy_ = import_tournament(copy.deepcopy(exported), slug="kopie")
    assert export_tournament(copy_, backup=False) == {**exported, "slug": "kopie"}
    assert (copy_.team_count, copy_.club_count, copy_.teams_apart, copy_.team_match, copy_.cup_advance) == (
        3, 0, True, True, 2)
    assert sorted(Team.objects.filter(tournament=copy_).values_list("name", flat=True)) == [
        "Die Asse", "Die Füchse", "Kreuz", "Pik"]
    first = copy_.entries.select_related("player").get(start_number=1)
    assert first.categories == ["Damen", "Ü70"] and first.player.member_number == "DK123"


def test_a_backup_keeps_the_team_records_of_the_change_log():
    tournament = league_day()
    team = Team.objects.get(tournament=tournament, name="Die Asse")
    teams.delete_team(team=team)
    backup = export_tournament(tournament)
    kinds = [record["kind"] for record in backup["log"]]
    assert kinds.count("team") == 6  # four created, one changed (renamed), one deleted
    restored = import_tournament(copy.deepcopy(backup), slug="kopie")
    assert without_links(export_tournament(restored)) == without_links({**backup, "slug": "kopie"})
    shown = [(e.action, e.subject, e.before_text, e.after_text) for e in changelog.entries(restored)
             if e.kind == "team"]
    original = [(e.action, e.subject, e.before_text, e.after_text) for e in changelog.entries(tournament)
                if e.kind == "team"]
    assert shown == original and ("team_deleted", "Team Die Asse") in [s[:2] for s in shown]
    renamed = next(e for e in changelog.entries(restored) if e.action == "team_changed")
    assert renamed.before["name"] == "Füchse" and renamed.after["name"] == "Die Füchse"  # one team across the rename


def test_a_file_without_teams_and_categories_imports_as_before():
    tournament = import_tournament(canonical())
    assert not Team.objects.filter(tournament=tournament).exists()
    assert tournament.categories == [] and tournament.team_count is None and tournament.club_count is None
    assert not tournament.team_match and tournament.cup_advance is None and not tournament.teams_apart
    assert all(entry.categories == [] for entry in tournament.entries.all())
    assert export_tournament(tournament, backup=False) == CANONICAL


def with_teams(*teams_, **changes):
    data = canonical()
    data["teams"] = [{"name": name, "members": members} for name, members in teams_]
    data.update(changes)
    return data


@pytest.mark.parametrize(("data", "line"), [
    (with_teams(("Nord", [1, 2, 12])), "Team 1: members: 12 ist keine Startnummer der Spielerliste"),
    (with_teams(("Nord", [1, 2]), ("Süd", [2, 3])), "Team 2: members: Bernd ist schon im Team „Nord“."),
    (with_teams(("Nord", [1])), "Team 1: members: Ein Team hat 2 bis 6 Mitglieder, nicht 1."),
    (with_teams(("Nord", [1, 2, 3, 4, 5, 6, 7])), "Team 1: members: Ein Team hat 2 bis 6 Mitglieder, nicht 7."),
    (with_teams(("Nord", [1, 1])), "Team 1: members: Ein Spieler steht zweimal in der Liste."),
    (with_teams(("Nord", [1, 2]), ("Nord", [3, 4])), "Team 2: name: Ein Team „Nord“ gibt es schon."),
    (with_teams(("Nord", [1, 2]), ("NORD", [3, 4])), "Team 2: name: Ein Team „Nord“ gibt es schon; „NORD“ "
     "unterscheidet sich davon nur in Groß- und Kleinschreibung oder Leerzeichen, und die Liga zählt beide als "
     "ein Team."),
    # (a member given by name is a problem of form: the schema's line, which says which entry)
    (with_teams(("Nord", ["Anna", 2])), "Team 1: members[1]: muss eine ganze Zahl sein, nicht „Anna“"),
    (with_teams(team_count=7), "team_count: muss eine ganze Zahl von 1 bis 6 sein, nicht 7"),
    (with_teams(team_count=0), "team_count: muss eine ganze Zahl von 1 bis 6 sein, nicht 0"),
    (with_teams(cup_advance=100), "cup_advance: muss eine ganze Zahl von 1 bis 99 sein, nicht 100"),
    (with_teams(categories=["x" * 31]), "categories: Eine Kategorie hat höchstens 30 Zeichen: „" + "x" * 30 + "“."),
], ids=["not-a-player", "two-teams", "one-member", "seven-members", "twice", "same-name", "same-name-in-capitals",
        "a-name", "count-7", "count-0", "cup-100", "category-long"])
def test_a_wrong_team_or_option_is_a_problem_line_saying_where(data, line):
    assert problems_of(data) == [line]


def test_a_players_unknown_category_and_a_member_number_twice_are_problem_lines():
    data = canonical()
    data["categories"] = ["Ü70"]
    data["players"][0].update(categories=["Damen", "Ü80"], member_number="77")
    data["players"][2].update(member_number=" 7 7", categories=["Ü70"])
    assert problems_of(data) == ["Spieler 1: categories: Die Kategorie „Ü80“ gibt es in diesem Turnier nicht.",
                                 "Spieler 3: member_number: Die Mitgliedsnummer 77 hat schon Anna."]
    data["players"][2]["member_number"] = "78"
    data["players"][0]["categories"] = ["Ü70", "Damen"]  # written in another order: stored in the tournament's
    tournament = import_tournament(data)
    assert tournament.entries.get(start_number=1).categories == ["Damen", "Ü70"]
