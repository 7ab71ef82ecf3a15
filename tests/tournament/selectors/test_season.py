"""A league season and a cup across clubs on the hub (docs/competitions.md, "A season
across clubs"): match days run by different clubs, each published to the hub with its venue's key, join
the association's season by its short name; the table counts each day when it arrives and moves when a
day is corrected; a day of a club outside the season is listed as not counting, with the reason."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournament.errors import UserError
from tournament.models import PublishedTournament, Series
from tournament.selectors import season as season_selectors
from tournament.selectors.league import league_standings
from tournament.services import outbox, sheet_state, teams
from tournament.services import series as series_services
from tournament.services.exporting import export_tournament
from tournament.services.importing import import_tournament
from tournament.services.publishing_keys import issue_key
from tournament.web import publish_sender

from ..factories import make_director, make_organisation
from ..services.test_league import match_day, play

pytestmark = pytest.mark.django_db
SEASON = "bezirksliga-2027"


@pytest.fixture
def clubs(settings):
    """The association (whose season it is) and three clubs, each with its venue's publishing key; the
    season counts the days of the first two."""
    settings.DOKO_HUB = True
    association = make_organisation("Doppelkopf-Verband Nord", "verband-nord")
    keys = {}
    for name, slug in (("DK Kreuz-Asse", "kreuz-asse"), ("DK Pik-Dame", "pik-dame"), ("DK Fremd", "fremd")):
        keys[slug] = issue_key(organisation=make_organisation(name, slug), label="Vereinsheim")[1]
    keeper = make_director("ligaleitung", organisation=association)
    return association, keys, keeper


def season(clubs, mode=Series.Mode.LEAGUE) -> Series:
    association, _keys, keeper = clubs
    return series_services.create_series(name="Bezirksliga 2027", director=keeper, slug=SEASON, mode=mode,
                                         organisation=association, clubs="kreuz-asse, pik-dame")


def venue_day(number: int, values: dict[str, int], **options):
    """A match day played at a venue (this same database): four teams of four, one round with totals."""
    tournament = match_day(slug=f"venue-tag-{number}", name=f"{number}. Spieltag", **options)
    play(tournament, values)
    return tournament


def publish(tournament, secret: str, *, seq: int = 1, venue: str = "", payload: dict | None = None):
    """The venue's whole file as one `file` entry of its outbox, through the hub's endpoint, naming the
    season as the venue's director would have set it."""
    body = {"format_version": 1, "venue_tournament": venue or f"00000000-0000-4000-8000-{tournament.pk:012d}",
            "entries": [{"seq": seq, "at": "2027-03-06T21:14:00+01:00", "kind": "file",
                         "payload": payload or dict(outbox.file_payload(tournament), season=SEASON)}]}
    response = Client().post(publish_sender.PATH, data=json.dumps(body), content_type="application/json",
                             headers={"Authorization": f"Bearer {secret}",
                                      "Idempotency-Key": f"k-{tournament.pk}-{seq}"})
    assert response.status_code == 200, response.content
    return PublishedTournament.objects.get(venue_tournament=body["venue_tournament"]).tournament


def table_of(series) -> list[tuple]:
    return [(r.name, r.club, r.siegpunkte_text, r.spielpunkte) for r in league_standings(series).rows]


def test_the_table_counts_each_clubs_day_when_it_arrives(clubs):
    _association, keys, _keeper = clubs
    liga = season(clubs)
    first = venue_day(1, {"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30})
    second = venue_day(2, {"Team A": -10, "Team B": 20, "Team C": 10, "Team D": -20})
    assert league_standings(liga).rows == ()  # (the venues' own copies do not name the season)
    hub_first = publish(first, keys["kreuz-asse"])
    assert hub_first.season == SEASON and hub_first.organisation.slug == "kreuz-asse"
    # after the first day: 4/3/2/1 by its Spielpunkte (each team's four players' totals)
    assert table_of(liga) == [("Team A", "DK Nord", "4", 120), ("Team B", "DK Nord", "3", 40),
                              ("Team C", "DK Nord", "2", -40), ("Team D", "DK Nord", "1", -120)]
    publish(second, keys["pik-dame"])
    # day 2: B 4, C 3, A 2, D 1; A 6 (80), B 7 (120), C 5 (0), D 2 (-200)
    assert table_of(liga) == [("Team B", "DK Nord", "7", 120), ("Team A", "DK Nord", "6", 80),
                              ("Team C", "DK Nord", "5", 0), ("Team D", "DK Nord", "2", -200)]
    found = league_standings(liga)
    assert [(d.name, d.club, d.counts) for d in found.days] == [
        ("1. Spieltag", "DK Kreuz-Asse", True), ("2. Spieltag", "DK Pik-Dame", True)]


def test_a_correction_of_a_published_day_changes_the_table(clubs):
    _association, keys, _keeper = clubs
    liga = season(clubs)
    first = venue_day(1, {"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30})
    publish(first, keys["kreuz-asse"])
    assert table_of(liga)[0][:3] == ("Team A", "DK Nord", "4")
    # the venue corrects every table's totals: D won the day; the next file entry carries it
    round = first.rounds.get()
    team_of = {m.entry_id: m.team.name for m in teams.TeamMember.objects.filter(team__tournament=first)
               .select_related("team")}
    values = {"Team A": -30, "Team B": -10, "Team C": 10, "Team D": 30}
    for table in round.tables.all():
        sheet_state.enter_totals(table=table,
                                 totals={s.entry_id: values[team_of[s.entry_id]] for s in table.seats.all()})
    publish(first, keys["kreuz-asse"], seq=2)
    assert table_of(liga) == [("Team D", "DK Nord", "4", 120), ("Team C", "DK Nord", "3", 40),
                              ("Team B", "DK Nord", "2", -40), ("Team A", "DK Nord", "1", -120)]


def test_a_day_of_a_club_outside_the_season_does_not_count_and_says_why(clubs):
    _association, keys, _keeper = clubs
    liga = season(clubs)
    publish(venue_day(1, {"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30}), keys["kreuz-asse"])
    publish(venue_day(2, {"Team A": -30, "Team B": -10, "Team C": 10, "Team D": 30}), keys["fremd"])
    found = league_standings(liga)
    assert [(d.name, d.counts, d.note) for d in found.days] == [
        ("1. Spieltag", True, ""),
        ("2. Spieltag", False, "ausgerichtet von „DK Fremd“, der nicht zu den Vereinen dieser Saison gehört")]
    assert table_of(liga)[0][:3] == ("Team A", "DK Nord", "4")  # only the first day counts
    page = Client().get(reverse("tournament:series", args=[SEASON])).content.decode()
    assert "2. Spieltag zählt nicht: ausgerichtet von „DK Fremd“, der nicht zu den Vereinen dieser Saison gehört." \
        in page
    # the association adds the club: its day counts from now on
    series_services.update_series(series=liga, name=liga.name, slug=SEASON, mode=liga.mode, best_of=0, public=True,
                                  clubs=["kreuz-asse", "pik-dame", "fremd"])
    liga.refresh_from_db()
    assert [d.counts for d in league_standings(liga).days] == [True, True]


def test_teams_are_recognised_by_name_and_club(clubs):
    _association, keys, _keeper = clubs
    liga = season(clubs)
    first = venue_day(1, {"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30})
    publish(first, keys["kreuz-asse"])
    second = venue_day(2, {"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30})
    payload = outbox.file_payload(second)
    for index in range(4):  # the second day's "Team A" (start numbers 1-4) plays for another club: another team
        payload["players"][index]["club"] = "DK Süd"
    publish(second, keys["pik-dame"], payload=dict(payload, season=SEASON))
    rows = {(name, club): sieg for name, club, sieg, _points in table_of(liga)}
    assert rows[("Team A", "DK Nord")] == "4" and rows[("Team A", "DK Süd")] == "4"
    assert rows[("Team B", "DK Nord")] == "6"


def test_the_cup_across_clubs_shows_each_round_and_who_goes_on(clubs):
    _association, keys, _keeper = clubs
    pokal = season(clubs, mode=Series.Mode.CUP)
    publish(venue_day(1, {"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30}, cup_advance=2),
            keys["kreuz-asse"])
    found = season_selectors.cup_standings(pokal)
    assert [(t.name, t.verdict) for t in found.teams] == [
        ("Team A", "weiter"), ("Team B", "weiter"), ("Team C", "ausgeschieden"), ("Team D", "ausgeschieden")]
    # the next round, at another club: A and B meet two others; B goes on, A is out
    second = match_day(slug="venue-runde-2", name="Pokal Runde 2", cup_advance=1)
    play(second, {"Team A": -30, "Team B": 30, "Team C": 10, "Team D": -10})
    payload = outbox.file_payload(second)
    payload["teams"] = [dict(team, name={"Team C": "Team E", "Team D": "Team F"}.get(team["name"], team["name"]))
                        for team in payload["teams"]]
    publish(second, keys["pik-dame"], payload=dict(payload, season=SEASON))
    publish(venue_day(3, {"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30}, cup_advance=2), keys["fremd"])
    found = season_selectors.cup_standings(pokal)
    assert [(t.name, t.verdict, t.last) for t in found.teams] == [
        ("Team B", "weiter", "Pokal Runde 2"), ("Team A", "ausgeschieden", "Pokal Runde 2"),
        ("Team C", "ausgeschieden", "1. Spieltag"), ("Team D", "ausgeschieden", "1. Spieltag"),
        ("Team E", "ausgeschieden", "Pokal Runde 2"), ("Team F", "ausgeschieden", "Pokal Runde 2")]
    assert [(d.name, d.note) for d in found.days if not d.counts] == [
        ("3. Spieltag", "ausgerichtet von „DK Fremd“, der nicht zu den Vereinen dieser Saison gehört")]
    page = Client().get(reverse("tournament:series", args=[SEASON])).content.decode()
    assert "Stand der Teams" in page and "Pokal Runde 2" in page and "3. Spieltag zählt nicht" in page


def test_the_league_page_reads_in_a_fixed_number_of_queries_and_moves_when_a_day_arrives(
        clubs, django_assert_num_queries):
    _association, keys, _keeper = clubs
    season(clubs)
    url = reverse("tournament:series", args=[SEASON])
    publish(venue_day(1, {"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30}), keys["kreuz-asse"])
    cache.clear()
    # the series; the players' standings 4; the season's version; the cache (the test settings' is the
    # database: a read, and a write of three); the league 3 (tournaments, members, points)
    with django_assert_num_queries(13):
        first = Client().get(url).content.decode()
    with django_assert_num_queries(7):  # kept: the version says nothing changed
        assert Client().get(url).content.decode() == first
    for number in (2, 3):
        publish(venue_day(number, {"Team A": -30, "Team B": -10, "Team C": 10, "Team D": 30}), keys["pik-dame"])
    with django_assert_num_queries(13):  # a day arrived: read anew, whatever the number of days
        page = Client().get(url).content.decode()
    assert page != first and "3. Spieltag" in page


def test_the_season_travels_in_the_tournament_file_and_is_checked(director):
    tournament = match_day(director, slug="mit-saison")
    teams.set_team_options(tournament=tournament, team_count=None, club_count=None, teams_apart=False,
                           team_match=True, season=SEASON)
    tournament.refresh_from_db()
    data = export_tournament(tournament)
    assert data["season"] == SEASON
    copy = import_tournament(dict(data, slug="kopie"), director=director)
    assert copy.season == SEASON
    with pytest.raises(UserError, match="Kurzname der Saison"):
        teams.set_team_options(tournament=tournament, team_count=None, club_count=None, teams_apart=False,
                               season="Bezirksliga 2027!")
    problems = None
    try:
        import_tournament(dict(data, slug="falsch", season="a b"), director=director)
    except Exception as error:  # ImportProblems
        problems = str(error)
    assert problems and "season: Der Kurzname der Saison" in problems


def test_a_season_names_only_clubs_there_are(clubs):
    with pytest.raises(UserError, match="„gibtsnicht“ gibt es hier nicht"):
        series_services.create_series(name="Pokal", director=clubs[2], organisation=clubs[0],
                                      clubs="kreuz-asse gibtsnicht")


def test_the_keepers_page_lists_joined_days_without_a_button_that_could_not_take_them_out(clubs):
    _association, keys, keeper = clubs
    liga = season(clubs)
    hub_day = publish(venue_day(1, {"Team A": 30, "Team B": 10, "Team C": -10, "Team D": -30}), keys["kreuz-asse"])
    client = Client()
    client.force_login(keeper)
    page = client.get(reverse("tournament:series_manage", args=[liga.slug])).content.decode()
    assert "1. Spieltag" in page and "gehört über den Kurznamen der Saison dazu" in page
    assert reverse("tournament:series_tournament_remove", args=[liga.slug, hub_day.pk]) not in page
