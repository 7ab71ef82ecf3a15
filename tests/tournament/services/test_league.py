"""League match days, team cups and leagues in the app (docs/competitions.md "In the app:
match days, league, cup"): the team match's draw, its refusals, the options in the change log, the
match day's Siegpunkte and the cup group on the team standings (page, CSV, JSON), and the league
table on a series' page."""

from __future__ import annotations

import json
from itertools import combinations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.errors import UserError
from tournament.log import changelog
from tournament.models import Round, Series
from tournament.selectors import standings
from tournament.selectors import teams as team_selectors
from tournament.selectors.league import league_standings
from tournament.services import seating, sheet_state, teams, tournaments
from tournament.services import series as series_services

from ..factories import make_tournament, seated_round

pytestmark = pytest.mark.django_db


def ids(tournament, *numbers):
    by_number = dict(tournament.entries.values_list("start_number", "id"))
    return [by_number[n] for n in numbers]


def match_day(director=None, *, slug="spieltag", teams_of=4, size=4, name="Spieltag", **options):
    """A tournament of `teams_of` teams of `size` players (start numbers team by team), a team match."""
    tournament = make_tournament(players=teams_of * size, director=director, slug=slug, name=name)
    for i in range(teams_of):
        teams.create_team(tournament=tournament, name=f"Team {'ABCDE'[i]}",
                          members=ids(tournament, *range(size * i + 1, size * i + size + 1)))
    teams.set_team_options(tournament=tournament, team_count=None, club_count=None, teams_apart=False,
                           team_match=True, **options)
    tournament.refresh_from_db()
    return tournament


def tables_of(round):
    return [[s.entry_id for s in table.seats.order_by("position")] for table in round.tables.order_by("number")]


# ---- the draw ------------------------------------------------------------------------------------------

def test_four_rounds_of_four_teams_of_four_meet_every_opponent_once(director):
    tournament = match_day(director)
    team_of = {e: t for t, es in team_selectors.team_members(tournament).items() for e in es}
    met = set()
    for number in range(1, 5):
        round = seated_round(tournament, seed=f"s{number}", mode=Round.Mode.STANDINGS if number > 1 else
                             Round.Mode.RANDOM)
        assert round.repeat_meetings == 0
        for table in tables_of(round):
            assert sorted(team_of[e] for e in table) == ["Team A", "Team B", "Team C", "Team D"]
            for pair in combinations(table, 2):
                assert frozenset(pair) not in met
                met.add(frozenset(pair))
    assert len(met) == 16 * 12 // 2  # every player met all twelve opponents


def test_five_teams_sit_at_tables_of_five(director):
    tournament = match_day(director, teams_of=5, size=5)
    round = seated_round(tournament)
    assert [len(t) for t in tables_of(round)] == [5] * 5


def test_a_team_match_whose_teams_do_not_fit_is_refused_with_the_reason(director):
    tournament = match_day(director, teams_of=3, size=4)
    round = seating.create_round(tournament=tournament)
    with pytest.raises(UserError, match="braucht 4 oder 5 Teams .*dabei sind 3 Teams"):
        seating.seat_round(round=round)
    assert not round.tables.exists()


def test_unequal_teams_and_players_without_a_team_are_named(director):
    tournament = match_day(director, slug="ungleich")
    tournaments.register_player(tournament=tournament, name="Zoe Ohneteam", club="")
    round = seating.create_round(tournament=tournament)
    with pytest.raises(UserError, match="ohne Team: Zoe Ohneteam"):
        seating.seat_round(round=round)
    zoe = tournament.entries.get(player__name="Zoe Ohneteam")
    team_a = tournament.teams.get(name="Team A")
    teams.set_members(team=team_a, members=[*ids(tournament, 1, 2, 3, 4), zoe.pk], version=team_a.version)
    with pytest.raises(UserError, match="gleich viele Spieler; da sind: Team A 5, Team B 4, Team C 4, Team D 4"):
        seating.seat_round(round=round)


def test_the_option_is_in_the_change_log(director):
    tournament = make_tournament(players=8, director=director, slug="log")
    teams.set_team_options(tournament=tournament, team_count=None, club_count=None, teams_apart=False,
                           team_match=True, cup_advance=2, version=tournament.version)
    entry = changelog.entries(tournament)[0]
    assert entry.action == "team_options_changed"
    assert "Mannschaftskampf (Ligaspieltag): ja" in entry.after_text
    assert "Pokal: es kommen weiter: die besten 2 Teams" in entry.after_text
    tournament.refresh_from_db()
    teams.set_team_options(tournament=tournament, team_count=None, club_count=None, teams_apart=False,
                           version=tournament.version)
    entry = changelog.entries(tournament)[0]
    assert "Mannschaftskampf (Ligaspieltag): nein" in entry.after_text and "kein Pokal" in entry.after_text
    with pytest.raises(UserError, match="1 bis 99 Teams"):
        teams.set_team_options(tournament=tournament, team_count=None, club_count=None, teams_apart=False,
                               cup_advance=0)


def test_the_director_sets_the_options_on_the_teams_page(director):
    tournament = make_tournament(players=8, director=director, slug="seite")
    client = Client()
    client.force_login(director)
    url = reverse("tournament:team_options", args=[tournament.slug])
    response = client.post(url, {"team_count": "", "club_ranking": "none", "club_best": "4", "team_match": "on",
                                 "cup_advance": "2", "version": str(tournament.version)})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.team_match and tournament.cup_advance == 2
    page = client.get(reverse("tournament:teams", args=[tournament.slug])).content.decode()
    assert "Mannschaftskampf (Ligaspieltag)" in page and "Pokal: es kommen weiter" in page


# ---- the match day and the cup on the team standings ------------------------------------------------

def play(tournament, values: dict[str, int]):
    """A published round of the team match with every table's totals by team (`values`: team name ->
    each of its players' points at their table; they sum to 0)."""
    round = seated_round(tournament, seed=f"p{tournament.rounds.count() + 1}")
    team_of = {e: t for t, es in team_selectors.team_members(tournament).items() for e in es}
    for table in round.tables.all():
        sheet_state.enter_totals(table=table, totals={s.entry_id: values[team_of[s.entry_id]]
                                                      for s in table.seats.all()})
    return round


def test_the_match_day_gives_siegpunkte_and_explains_a_shared_place(director):
    tournament = match_day(director)
    play(tournament, {"Team A": 30, "Team B": 30, "Team C": -20, "Team D": -40})
    found = team_selectors.team_standings(tournament, standings(tournament)).match
    assert found is not None
    assert [(d.name, d.place, d.spielpunkte, d.siegpunkte_text) for d in found.rows] == [
        ("Team A", 1, 120, "3½"), ("Team B", 1, 120, "3½"), ("Team C", 3, -80, "2"), ("Team D", 4, -160, "1")]
    assert found.rows[0].why == "Plätze 1–2 geteilt: (4 + 3) / 2 = 3½" and found.rows[2].why == ""
    assert "4/3/2/1 Siegpunkte" in found.rule
    client = Client()
    page = client.get(reverse("tournament:team_standings", args=[tournament.slug])).content.decode()
    assert "Spieltag: Siegpunkte" in page and "3½" in page and "Plätze 1–2 geteilt" in page
    data = json.loads(client.get(reverse("tournament:team_standings_json", args=[tournament.slug])).content)
    assert data["match"]["rows"][0]["siegpunkte"] == 3.5 and data["match"]["rows"][0]["siegpunkte_text"] == "3½"
    assert data["cup"] is None
    text = client.get(reverse("tournament:team_standings_csv", args=[tournament.slug])).content.decode("utf-8-sig")
    day_lines = [line for line in text.splitlines() if line.startswith("Spieltag;")]
    assert day_lines[0].split(";")[:4] == ["Spieltag", "1", "Team A", "120"] and day_lines[0].split(";")[8] == "3,5"


def test_without_the_option_there_is_no_match_day(director):
    tournament = match_day(director)
    play(tournament, {"Team A": 30, "Team B": 10, "Team C": -20, "Team D": -20})
    teams.set_team_options(tournament=tournament, team_count=None, club_count=None, teams_apart=False)
    tournament.refresh_from_db()
    found = team_selectors.team_standings(tournament, standings(tournament))
    assert found.match is None and found.cup is None


def test_the_cup_group_says_who_goes_on_and_leaves_a_tie_across_the_line_to_the_director(director):
    tournament = match_day(director, cup_advance=2)
    play(tournament, {"Team A": 40, "Team B": -10, "Team C": -10, "Team D": -20})
    cup = team_selectors.team_standings(tournament, standings(tournament)).cup
    assert cup is not None and cup.advance == 2
    assert [(c.name, c.place, c.advances) for c in cup.rows] == [
        ("Team A", 1, True), ("Team B", 2, None), ("Team C", 2, None), ("Team D", 4, False)]
    assert cup.undecided == ("Team B", "Team C") and "die Turnierleitung entscheidet" in cup.rule
    page = Client().get(reverse("tournament:team_standings", args=[tournament.slug])).content.decode()
    assert "Pokalgruppe" in page and "unentschieden: die Turnierleitung entscheidet" in page
    data = json.loads(Client().get(reverse("tournament:team_standings_json", args=[tournament.slug])).content)
    assert [row["advances"] for row in data["cup"]["rows"]] == [True, None, None, False]


def test_a_member_who_has_not_played_does_not_decide_a_cup_tie(director):
    """Teams B and C are level on points across the cup's line; C's best who played has -5, B's -2. A
    member of C who joined after the round (no round played) must not count as C's best player with 0."""
    tournament = match_day(director, cup_advance=2)
    round = seated_round(tournament, seed="p1")
    team_of = {e: t for t, es in team_selectors.team_members(tournament).items() for e in es}
    per_table = {"Team A": [20, 20, 20, 20], "Team B": [-2, -6, -6, -6], "Team C": [-5, -5, -5, -5]}
    for index, table in enumerate(round.tables.order_by("number")):
        totals = {s.entry_id: per_table[team_of[s.entry_id]][index] for s in table.seats.all()
                  if team_of[s.entry_id] != "Team D"}
        totals.update({s.entry_id: -sum(totals.values()) for s in table.seats.all() if team_of[s.entry_id] == "Team D"})
        sheet_state.enter_totals(table=table, totals=totals)
    late = tournaments.register_player(tournament=tournament, name="Zora Spät", club="DK Nord")
    team_c = tournament.teams.get(name="Team C")
    teams.set_members(team=team_c, members=[*team_of_ids(tournament, "Team C"), late.id])
    cup = team_selectors.team_standings(tournament, standings(tournament)).cup
    assert cup is not None
    assert [(c.name, c.points, c.best_player, c.advances) for c in cup.rows] == [
        ("Team A", 80, 20, True), ("Team B", -20, -2, True), ("Team C", -20, -5, False), ("Team D", -40, -9, False)]
    assert "Zora Spät" not in [name for name, _ in cup.rows[2].players]
    assert cup.rows[2].tie == "gleich viele Punkte wie Team B; bestes Einzelergebnis: −5 gegen −2"


def team_of_ids(tournament, name):
    return team_selectors.team_members(tournament)[name]


def test_a_cup_asking_for_more_teams_than_it_has_sends_all_on(director):
    tournament = match_day(director, cup_advance=6)
    play(tournament, {"Team A": 40, "Team B": -10, "Team C": -10, "Team D": -20})
    cup = team_selectors.team_standings(tournament, standings(tournament)).cup
    assert cup is not None and cup.advance == 4 and all(c.advances for c in cup.rows)
    page = Client().get(reverse("tournament:team_standings", args=[tournament.slug])).content.decode()
    assert "Es sollen 6 Teams weiterkommen, die Gruppe hat nur 4" in page


@pytest.mark.parametrize("size", [4, 6])
def test_the_team_standings_with_match_day_and_cup_still_take_one_query(director, size,
                                                                        django_assert_num_queries):
    tournament = match_day(director, slug=f"q{size}", size=size, cup_advance=2)
    play(tournament, {"Team A": 40, "Team B": -10, "Team C": -10, "Team D": -20})
    rows = standings(tournament)
    with django_assert_num_queries(1):
        found = team_selectors.team_standings(tournament, rows)
    assert found.match is not None and found.cup is not None


@pytest.mark.parametrize("size", [4, 6])
def test_the_team_standings_page_runs_a_fixed_number_of_queries(director, size, django_assert_num_queries):
    tournament = match_day(director, slug=f"page{size}", size=size, cup_advance=2)
    play(tournament, {"Team A": 40, "Team B": -10, "Team C": -10, "Team D": -20})
    play(tournament, {"Team A": -40, "Team B": 10, "Team C": 10, "Team D": 20})
    url = reverse("tournament:team_standings", args=[tournament.slug])
    client = Client()
    client.get(url)  # the first view fills the standings' cache
    # the tournament, its change counter, the teams' members, the rounds of the menu (the standings are
    # kept in the process: histories.kept): the match day and the cup group read nothing of their own
    with django_assert_num_queries(4):
        assert client.get(url).status_code == 200


# ---- a league: a series of match days ------------------------------------------------------------------

def league(director, days: list[dict[str, int]], *, renamed: dict[str, str] | None = None):
    """A series in mode Liga of one match day per entry of `days` (as `play`'s values); `renamed`: the
    teams of the last day written so (same name but case and spaces)."""
    series = series_services.create_series(name="Bundesliga", director=director, slug="liga",
                                           mode=Series.Mode.LEAGUE)
    for number, values in enumerate(days, start=1):
        tournament = match_day(director, slug=f"tag-{number}", name=f"{number}. Spieltag")
        if renamed and number == len(days):
            for team in tournament.teams.all():
                if team.name in renamed:
                    teams.update_team(team=team, name=renamed[team.name],
                                      members=list(team.members.values_list("entry_id", flat=True)))
        play(tournament, {(renamed or {}).get(t, t) if number == len(days) else t: v for t, v in values.items()})
        series_services.add_tournament(series=series, tournament=tournament, user=director)
    return series


def test_the_league_table_adds_siegpunkte_then_spielpunkte_and_says_why(director):
    series = league(director, [{"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30},
                               {"Team A": -30, "Team B": -10, "Team C": 10, "Team D": 30}],
                    renamed={"Team A": "TEAM A"})
    found = league_standings(series)
    # day 1: A 4, B 3, C 2, D 1; day 2: D 4, C 3, B 2, A 1: all 5 Siegpunkte, all 0 Spielpunkte, one win
    # each for A and D: A and D share place 1, B and C place 3
    assert [(r.name, r.place, r.siegpunkte_text, r.spielpunkte, r.wins) for r in found.rows] == [
        ("TEAM A", 1, "5", 0, 1), ("Team D", 1, "5", 0, 1), ("Team B", 3, "5", 0, 0), ("Team C", 3, "5", 0, 0)]
    assert found.rows[1].tie == "gleich mit TEAM A in allem: geteilter Platz"
    assert found.rows[2].tie == "gleich viele Siegpunkte wie Team D; gewonnene Spieltage: 0 gegen 1"
    assert [len([c for c in r.cells if c]) for r in found.rows] == [2, 2, 2, 2]  # recognised by name


def test_spielpunkte_decide_equal_siegpunkte_and_a_shared_day_gives_halves(director):
    series = league(director, [{"Team A": 30, "Team B": 30, "Team C": -20, "Team D": -40},
                               {"Team A": 10, "Team B": 20, "Team C": -10, "Team D": -20}])
    rows = league_standings(series).rows
    # day 1: A, B 3½ each, C 2, D 1; day 2: B 4, A 3, C 2, D 1
    assert [(r.name, r.siegpunkte_text, r.spielpunkte) for r in rows] == [
        ("Team B", "7½", 200), ("Team A", "6½", 160), ("Team C", "4", -120), ("Team D", "2", -240)]
    assert rows[0].cells[0] is not None and rows[0].cells[0].siegpunkte_text == "3½"


def test_the_series_page_shows_the_league_and_days_that_do_not_count(client, director):
    series = league(director, [{"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30}])
    waiting = match_day(director, slug="tag-2", name="2. Spieltag")  # no results yet
    series_services.add_tournament(series=series, tournament=waiting, user=director)
    page = client.get(reverse("tournament:series", args=[series.slug])).content.decode()
    assert "Ligatabelle" in page and "Siegpunkte, dann der Spielpunkte" in page.replace("\n", " ")
    assert "2. Spieltag zählt nicht: noch keine Ergebnisse." in page
    assert "Einzelwertung" in page


def test_a_series_in_another_mode_shows_no_league(client, director):
    series = league(director, [{"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30}])
    series_services.update_series(series=series, name=series.name, slug=series.slug, mode=Series.Mode.SUM,
                                  best_of=0, public=True)
    assert "Ligatabelle" not in client.get(reverse("tournament:series", args=[series.slug])).content.decode()


def test_the_league_reads_in_three_queries_whatever_the_size(director, django_assert_num_queries):
    small = league(director, [{"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30}])
    with django_assert_num_queries(3):  # the tournaments, the teams' members, the points
        assert len(league_standings(small).rows) == 4
    for number in range(2, 4):
        tournament = match_day(director, slug=f"mehr-{number}", name=f"{number}. Spieltag", size=5)
        play(tournament, {"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30})
        series_services.add_tournament(series=small, tournament=tournament, user=director)
    with django_assert_num_queries(3):
        assert len(league_standings(small).counted) == 3


def test_the_league_page_costs_three_queries_more_than_the_series_page(client, director):
    series = league(director, [{"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30}])
    url = reverse("tournament:series", args=[series.slug])
    # the series; 4 for the players' standings; for the public the league is kept (docs/competitions.md, "A
    # season across clubs"): its version 1, the cache's read 1, then the league's 3 and the cache's write 3
    # (the tests' cache is the database), and when kept only the version and the read
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    assert len(captured) == 13
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    assert len(captured) == 7


def test_the_round_page_says_how_a_team_match_is_drawn(director):
    tournament = match_day(director, slug="runde")
    round = seating.create_round(tournament=tournament)
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournament:round", args=[tournament.slug, round.number])).content.decode()
    assert "Mannschaftskampf: an jedem Tisch sitzt einer je Team" in page


# ---- the league table as CSV ------------------------------------------------------------------------------

def csv_lines(response) -> list[list[str]]:
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return [line.split(";") for line in text[1:].strip().split("\r\n")]


def test_the_league_table_as_csv_beside_the_players(client, director):
    series = league(director, [{"Team A": 30, "Team B": 30, "Team C": -20, "Team D": -40},
                               {"Team A": 10, "Team B": 20, "Team C": -10, "Team D": -20}])
    page = client.get(reverse("tournament:series", args=[series.slug])).content.decode()
    url = reverse("tournament:series_league_csv", args=[series.slug])
    assert f'href="{url}"' in page and reverse("tournament:series_csv", args=[series.slug]) in page
    lines = csv_lines(client.get(url))
    assert lines[0][:5] == ["Platz", "Team", "Siegpunkte", "Spielpunkte", "Siege"]
    assert lines[0][5:8] == ["1. Spieltag (21.11.2026): Siegpunkte", "1. Spieltag (21.11.2026): Platz",
                             "1. Spieltag (21.11.2026): Spielpunkte"] and lines[0][-1] == "Gleichstand"
    # day 1: A, B 3½ each (places 1–2 shared: a day won for both), C 2, D 1; day 2: B 4, A 3, C 2, D 1
    assert [line[:5] for line in lines[1:]] == [["1", "Team B", "7,5", "200", "2"], ["2", "Team A", "6,5", "160", "1"],
                                                ["3", "Team C", "4", "-120", "0"], ["4", "Team D", "2", "-240", "0"]]
    assert lines[1][5:11] == ["3,5", "1", "120", "4", "1", "80"]


def test_the_league_csv_guards_a_team_name_a_spreadsheet_would_run(client, director):
    series = league(director, [{"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30}])
    team = series.tournaments.get().teams.get(name="Team A")
    teams.update_team(team=team, name="=HYPERLINK(1)", members=list(team.members.values_list("entry_id", flat=True)))
    lines = csv_lines(client.get(reverse("tournament:series_league_csv", args=[series.slug])))
    assert lines[1][1] == "'=HYPERLINK(1)"


def test_a_series_in_another_mode_has_no_league_csv(client, director):
    series = league(director, [{"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30}])
    series_services.update_series(series=series, name=series.name, slug=series.slug, mode=Series.Mode.SUM,
                                  best_of=0, public=True)
    assert client.get(reverse("tournament:series_league_csv", args=[series.slug])).status_code == 404


def test_the_league_csv_runs_a_fixed_number_of_queries(client, director, django_assert_num_queries):
    series = league(director, [{"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30}])
    url = reverse("tournament:series_league_csv", args=[series.slug])
    with django_assert_num_queries(4):  # the series; the league's three (tournaments, members, points)
        assert client.get(url).status_code == 200
    for number in range(2, 4):
        tournament = match_day(director, slug=f"mehr-{number}", name=f"{number}. Spieltag", size=5)
        play(tournament, {"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30})
        series_services.add_tournament(series=series, tournament=tournament, user=director)
    with django_assert_num_queries(4):
        assert len(csv_lines(client.get(url))) == 5


def test_the_league_table_as_pdf_linked_from_the_series_page(client, director):
    from io import BytesIO

    from pypdf import PdfReader

    series = league(director, [{"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30},
                               {"Team A": 10, "Team B": 20, "Team C": -10, "Team D": -20}])
    url = reverse("tournament:series_league_pdf", args=[series.slug])
    assert f'href="{url}"' in client.get(reverse("tournament:series", args=[series.slug])).content.decode()
    response = client.get(url)
    assert response["Content-Type"] == "application/pdf"
    text = " ".join(page.extract_text() for page in PdfReader(BytesIO(response.content)).pages)
    assert "Ligatabelle" in text and "Bundesliga" in text
    assert "1. Spieltag" in text and "2. Spieltag" in text
    # A and B 7 Siegpunkte each, A ahead on Spielpunkte (160 to 120); D last with −200 (the real minus sign)
    assert "−200" in text and "160" in text
    assert text.index("Team A") < text.index("Team B") < text.index("Team C") < text.index("Team D")
    assert "4/3/2/1 Siegpunkte" in text
