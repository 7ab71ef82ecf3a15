"""The rating carried across a Rangliste's tournaments (web/rating_scopes.py, docs/rating.md, "Across
tournaments"): exactly what rating all its games anew in the order of the tournaments' dates gives, after
games saved, corrected and deleted in any of them; kept per tournament, so that a change rates only that
tournament and the later ones again."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache

from scoring import rating
from tournament.models import Game, Rangliste, Seat
from tournament.selectors import rangliste as rangliste_selectors
from tournament.services import rangliste as rangliste_services
from tournament.services import results, tournaments
from tournament.web import rating_scopes

from ..factories import normal_game, play_round, player_names

pytestmark = pytest.mark.django_db

DAYS = [datetime.date(2026, 1, 9), datetime.date(2026, 2, 13), datetime.date(2026, 3, 13)]


def flagged(director, day, players, *, slug):
    tournament = tournaments.create_tournament(name=f"Abend {slug}", date=day, director=director, slug=slug,
                                               counts_for_rangliste=True)
    for name in players:
        tournaments.register_player(tournament=tournament, name=name, club="DK Nord")
    return tournament


def three_evenings(director):
    """Three evenings, not entered in the order of their dates; most players come to more than one."""
    names = player_names(10)
    march = flagged(director, DAYS[2], names[:8], slug="maerz")
    january = flagged(director, DAYS[0], names[2:10], slug="januar")
    february = flagged(director, DAYS[1], names[1:9], slug="februar")
    for tournament in (march, january, february):
        play_round(tournament, games=2)
        play_round(tournament, games=2)
    return [january, february, march]


def from_scratch(rangliste) -> dict[str, rating.Rating]:
    """Every game of the Rangliste's tournaments rated anew by the pure engine, in date, round, table and
    game order, the players recognised as the Rangliste recognises them."""
    found = rangliste_selectors.read(rangliste)
    matches = []
    for tournament in sorted(found.tournaments, key=lambda t: (t.date, t.pk)):
        seated: dict[int, list[int]] = {}
        for table_id, entry_id in (Seat.objects.filter(round__tournament=tournament).order_by("position")
                                   .values_list("table_id", "entry_id")):
            seated.setdefault(table_id, []).append(entry_id)
        for game in Game.objects.filter(table__round__tournament=tournament).order_by(
                "table__round__number", "table__number", "number"):
            players = [found.keys[e] for e in seated[game.table_id] if e != game.sitting_out_id]
            matches.append(rating.match(players=players, re=[found.keys[int(e)] for e in game.re],
                                        winner=game.winner, value=game.value // game.multiplier))
    return rating.replay(matches)


def carried(rangliste) -> dict[str, rating.Rating]:
    return rating_scopes.carried(rangliste_selectors.read(rangliste), scope=f"rangliste-{rangliste.pk}").now


def test_the_carried_rating_equals_rating_every_game_anew_after_corrections_and_deletions(director):
    january, february, march = three_evenings(director)
    rangliste = rangliste_services.create_rangliste(settings=rangliste_services.Settings(name="Nord"),
                                                    director=director)
    first = carried(rangliste)
    assert first == from_scratch(rangliste)
    assert len(first) == 10 and max(r.games for r in first.values()) == 12  # three evenings of 4 games
    # a correction in the first evening moves the ratings of every later one
    table = january.rounds.get(number=1).tables.order_by("number").first()
    results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=40))
    corrected = carried(rangliste)
    assert corrected != first and corrected == from_scratch(rangliste)
    # a deletion in the second, a game added in the last
    results.delete_game(table=february.rounds.get(number=2).tables.first(), number=2)
    assert carried(rangliste) == from_scratch(rangliste)
    table = march.rounds.get(number=2).tables.first()
    results.save_game(table=table, data=normal_game(table, 3))
    assert carried(rangliste) == from_scratch(rangliste)


def test_a_change_rates_only_its_tournament_and_the_later_ones_again(director, django_assert_num_queries):
    january, february, march = three_evenings(director)
    rangliste = rangliste_services.create_rangliste(settings=rangliste_services.Settings(name="Nord"),
                                                    director=director)
    found = rangliste_selectors.read(rangliste)
    cache.clear()
    # the counters, the kept entry (none), the seats and the games, storing it (3 in the tests' savepoint)
    with django_assert_num_queries(7):
        rating_scopes.carried(found, scope="r")
    with django_assert_num_queries(2):  # the counters and the kept entry: nothing rated again
        kept = rating_scopes.carried(found, scope="r")
    rated = []
    from tournament.selectors import ratings as rating_selectors

    real = rating_selectors.scope_games

    def counting(ids):
        rated.append(len(ids))
        return real(ids)

    rating_selectors.scope_games = counting  # (the rating of a scope: selectors.ratings.carry)
    try:
        table = march.rounds.get(number=1).tables.first()
        results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=40))
        rating_scopes.carried(rangliste_selectors.read(rangliste), scope="r")
        table = january.rounds.get(number=1).tables.first()
        results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=40))
        again = rating_scopes.carried(rangliste_selectors.read(rangliste), scope="r")
    finally:
        rating_selectors.scope_games = real
    assert rated == [1, 3]  # the newest tournament alone, then all three
    assert again.now != kept.now
    # each player's course: the rating after each tournament played
    assert sorted(len(steps) for steps in again.course.values()) == [1, 1, 2, 2, 3, 3, 3, 3, 3, 3]
    assert [t for t, _r in again.course[found.keys[march.entries.order_by("start_number").first().pk]]][-1] == march.pk


def test_a_hidden_round_is_not_rated_and_players_are_recognised_across_tournaments(director):
    from tournament.services import seating

    january, february, march = three_evenings(director)
    rangliste = rangliste_services.create_rangliste(settings=rangliste_services.Settings(name="Nord"),
                                                    director=director)
    before = carried(rangliste)
    seating.hide_results(round=march.rounds.get(number=2))
    hidden = carried(rangliste)
    assert hidden != before
    assert max(r.games for r in hidden.values()) < max(r.games for r in before.values())
    assert Rangliste.objects.count() == 1


def test_the_rangliste_shows_the_carried_rating_its_export_and_the_players_chart(director, client):
    """A WZ column beside the Schnitt, the rating after each tournament in the CSV
    and JSON, the player's page with the carried rating and its chart; a player not published has no
    public rating; the organisation's switch takes it off every page."""
    from django.urls import reverse

    from tournament import privacy
    from tournament.models import Player
    from tournament.services import organisations

    three_evenings(director)
    rangliste = rangliste_services.create_rangliste(
        settings=rangliste_services.Settings(name="Nord", slug="nord", minimum_rounds=2), director=director)
    now = from_scratch(rangliste)
    found = rangliste_selectors.read(rangliste)
    page = client.get(reverse("tournament:rangliste", kwargs={"slug": "nord"}), {"bis": "2026-06-30"}).content.decode()
    assert 'title="Wertungszahl">WZ</abbr>' in page
    from django.utils.formats import number_format

    name = player_names(10)[2]  # at all three evenings
    anna = next(key for key, person in found.people.items() if person.name == name)
    assert f">{number_format(now[anna].mu, 1)}</td>" in page
    data = client.get(reverse("tournament:rangliste_json", kwargs={"slug": "nord"}), {"bis": "2026-06-30"}).json()
    last = [line for line in data["rounds"] if line["player"] == name][-1]
    assert last["rating"] == round(now[anna].mu, 1) and last["rating_games"] == now[anna].games
    csv = client.get(reverse("tournament:rangliste_csv", kwargs={"slug": "nord"}), {"bis": "2026-06-30"})
    assert csv.content.decode("utf-8-sig").splitlines()[0].endswith(
        "Wertungszahl nach dem Turnier;Unsicherheit;Spiele gewertet")
    player = client.get(reverse("tournament:rangliste_player", kwargs={"slug": "nord"}),
                        {"p": found.people[anna].link, "bis": "2026-06-30"}).content.decode()
    assert f"Wertungszahl von {name} nach jedem Turnier" in player and "<svg" in player
    assert "Noch unsicher: noch 28 Spiele" in player  # 12 games rated in three evenings
    # the player is not published: no public rating (the director still sees it)
    Player.objects.filter(name=name).update(publication=privacy.HIDDEN)
    data = client.get(reverse("tournament:rangliste_json", kwargs={"slug": "nord"}), {"bis": "2026-06-30"}).json()
    assert all(line["rating"] is None for line in data["rounds"] if line["player"] == privacy.NO_NAME)
    assert any(line["rating"] is not None for line in data["rounds"])
    hidden = rangliste_selectors.read(rangliste, public=True).people[anna].link
    player = client.get(reverse("tournament:rangliste_player", kwargs={"slug": "nord"}),
                        {"p": hidden, "bis": "2026-06-30"}).content.decode()
    assert "Wertungszahl" not in player
    # the organisation switches the rating off: a logged settings change, no rating anywhere
    organisations.switch_rating(organisation=rangliste.organisation, enabled=False)
    page = client.get(reverse("tournament:rangliste", kwargs={"slug": "nord"}), {"bis": "2026-06-30"}).content.decode()
    assert "WZ" not in page
    assert "rating" not in client.get(reverse("tournament:rangliste_json", kwargs={"slug": "nord"})).json()["fields"]


def test_the_rangliste_pages_with_the_rating_run_a_fixed_number_of_queries(director, client):
    """The Rangliste's page, a player's page and the JSON export read the same number of queries whatever
    the number of tournaments and players: the Rangliste's four, the Rangliste with its organisation, the
    change counters and the kept scope (and, when a tournament moved, its seats and games and storing the
    entry: 3 in the tests' savepoint)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    def counts(slug) -> tuple[int, ...]:
        cache.clear()
        rangliste = Rangliste.objects.get(slug=slug)
        link = next(iter(rangliste_selectors.read(rangliste).people.values())).link
        found = []
        # the page first (it rates every tournament: the cache is empty), then again, the JSON, a player
        for name, query in (("rangliste", {}), ("rangliste", {}), ("rangliste_json", {}),
                            ("rangliste_player", {"p": link})):
            with CaptureQueriesContext(connection) as queries:
                answer = client.get(reverse(f"tournament:{name}", kwargs={"slug": slug}),
                                    {**query, "bis": "2026-06-30"})
            assert answer.status_code == 200
            found.append(len(queries))
        return tuple(found)

    cache.clear()
    small = rangliste_services.create_rangliste(
        settings=rangliste_services.Settings(name="Klein", slug="klein"), director=director)
    flagged(director, DAYS[0], player_names(8), slug="eins")
    play_round(small.organisation.tournaments.get(slug="eins"), games=2)
    few = counts("klein")
    three_evenings(director)  # three more tournaments, ten more players
    assert counts("klein") == few == (12, 7, 7, 7)
