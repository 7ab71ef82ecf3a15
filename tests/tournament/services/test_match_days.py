"""The next match day of a league from the last one (issue "The evening as a club meets it", 1;
docs/competitions.md, "The next match day"): "Teams des letzten Spieltags übernehmen" on the new day's
teams and players pages enters the 16 players and makes the 4 teams and the options as on the last day,
in one change of the tournament, recorded in its change log; refused where it would overwrite teams."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tournament.errors import UserError
from tournament.log import changelog
from tournament.models import DataChange, Series
from tournament.selectors.teams import last_match_day, team_members
from tournament.services import match_days, teams, tournaments
from tournament.services import series as series_services

from ..factories import make_director, message_texts, register
from .test_league import match_day

pytestmark = pytest.mark.django_db


def next_day(director, series, *, players: list[tuple[str, str]] = ()):
    day = tournaments.create_tournament(name="2. Spieltag", date=datetime.date(2026, 12, 12), director=director,
                                        slug="tag-2")
    register(day, players)
    series_services.add_tournament(series=series, tournament=day, user=director)
    day.refresh_from_db()
    return day


@pytest.fixture
def league(director):
    series = series_services.create_series(name="Liga", director=director, slug="liga", mode=Series.Mode.LEAGUE)
    first = match_day(director, slug="tag-1", name="1. Spieltag")
    teams.set_team_options(tournament=first, team_count=3, club_count=None, teams_apart=True, team_match=True)
    series_services.add_tournament(series=series, tournament=first, user=director)
    return series, first


def names_by_team(tournament):
    by_id = dict(tournament.entries.values_list("id", "player__name"))
    return {team: sorted(by_id[e] for e in ids) for team, ids in team_members(tournament).items()}


def test_the_teams_page_of_the_next_match_day_takes_the_last_days_teams(client, director, league):
    series, first = league
    day = next_day(director, series, players=[("Carla", "DK Nord")])  # one typed already
    client.force_login(director)
    page = client.get(reverse("tournament:teams", args=[day.slug])).content.decode()
    assert "Teams des letzten Spieltags übernehmen" in page and "4 Teams mit 16 Spielern" in page
    before = DataChange.objects.filter(tournament=day).count()
    response = client.post(reverse("tournament:teams_take", args=[day.slug]), {"source": first.pk}, follow=True)
    assert "4 Teams von „1. Spieltag“ übernommen, mit ihren Spielern." in message_texts(response)
    assert names_by_team(day) == names_by_team(first)
    assert day.entries.count() == 16 and day.entries.filter(player__name="Carla").count() == 1
    assert set(day.entries.values_list("player_id", flat=True)) == set(first.entries.values_list("player_id",
                                                                                               flat=True))
    day.refresh_from_db()
    assert (day.team_match, day.team_count, day.teams_apart) == (True, 3, True)
    assert DataChange.objects.filter(tournament=day).count() == before + 1  # one change
    actions = {entry.action for entry in changelog.entries(day)}
    assert {"player_registered", "team_created", "team_options_changed"} <= actions
    # offered no more: the day has teams now
    assert "Teams des letzten Spieltags übernehmen" not in client.get(
        reverse("tournament:teams", args=[day.slug])).content.decode()


def test_the_players_page_of_an_empty_match_day_offers_it(client, director, league):
    series, _first = league
    day = next_day(director, series)
    client.force_login(director)
    page = client.get(reverse("tournament:players", args=[day.slug])).content.decode()
    assert "Teams des letzten Spieltags übernehmen" in page and "16 Spielern" in page


def test_nothing_is_offered_outside_a_series_or_to_who_does_not_direct_the_last_day(director, league):
    series, first = league
    alone = tournaments.create_tournament(name="Allein", date=datetime.date(2026, 12, 12), director=director)
    assert last_match_day(alone, director) is None
    other = make_director("andere")
    day = next_day(director, series)
    day.directors.add(other)
    assert last_match_day(day, director).tournament == first
    assert last_match_day(day, other) is None


def test_a_day_with_teams_already_is_refused_and_nothing_is_saved(director, league):
    series, first = league
    day = next_day(director, series, players=[("Anna", "DK Nord"), ("Bernd", "DK Nord")])
    teams.create_team(tournament=day, name="Eigenes", members=list(day.entries.values_list("id", flat=True)))
    with pytest.raises(UserError, match="hat schon Teams"):
        match_days.take_teams(tournament=day, source=first)
    assert day.entries.count() == 2 and day.teams.count() == 1


def test_a_stale_page_is_refused_with_a_sentence(client, director, league):
    series, first = league
    day = next_day(director, series)
    client.force_login(director)
    response = client.post(reverse("tournament:teams_take", args=[day.slug]), {"source": "999999"}, follow=True)
    assert any("Bitte noch einmal ansehen" in m for m in message_texts(response))
    assert not day.teams.exists() and not day.entries.exists()
