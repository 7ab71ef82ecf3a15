"""The draw of a tournament's rounds: following the schedule planned for all its rounds, keeping
clubs apart in round 1 and chosen pairs apart, and the lower bound beside the repeat meetings."""

from itertools import combinations

import pytest
from django.urls import reverse

from tournament.forms.rounds import DrawForm
from tournament.models import Round
from tournament.services import seating

from ..factories import make_tournament, message_texts, register, seat_ids, seated_round

pytestmark = pytest.mark.django_db


def tables_of(round):
    return [seat_ids(table) for table in round.tables.order_by("number")]


def entry_id(tournament, name):
    return tournament.entries.get(player__name=name).id


def url(name, round):
    return reverse(f"tournament:{name}", args=[round.tournament.slug, round.number])


def club_tournament(director, clubs, per_club):
    tournament = make_tournament(players=0, director=director, slug="vereine")
    register(tournament, [(f"{club} {number}", club) for number in range(per_club) for club in clubs])
    return tournament


def test_a_tournament_follows_its_plan_without_repeats(director):
    tournament = make_tournament(players=16, director=director, rounds_planned=5)
    met = set()
    for number in range(1, 6):
        round = seated_round(tournament, seed=f"runde-{number}")
        assert round.repeat_meetings == 0
        pairs = {frozenset(pair) for table in tables_of(round) for pair in combinations(table, 2)}
        assert not pairs & met  # recounted from the tables: nobody met before
        met |= pairs
    assert len(met) == 120  # 16 players, 5 rounds: everybody met everybody once


def test_players_of_one_club_sit_apart_in_round_one(director):
    tournament = club_tournament(director, ["Nord", "Süd", "West", "Ost"], 4)
    round = seating.create_round(tournament=tournament)
    result = seating.seat_round(round=round, seed="vereine", separate_clubs=True)
    club = {e.id: e.player.club for e in tournament.entries.select_related("player")}
    assert all(len({club[p] for p in table}) == 4 for table in tables_of(round))
    assert result.club_pairs == 0


def test_pairs_are_kept_apart_in_a_later_round(director):
    tournament = make_tournament(players=13, director=director, rounds_planned=4)
    seated_round(tournament, seed="eins")
    round = seating.create_round(tournament=tournament)
    seating.seat_round(round=round, seed="zwei")
    apart = [tuple(table[:2]) for table in tables_of(round)[:2]]  # two pairs this seed seats together
    result = seating.seat_round(round=round, seed="zwei", apart=apart)  # drawn again, with the pairs
    assert result.apart_together == 0
    assert not any({a, b} <= set(table) for a, b in apart for table in tables_of(round))


def test_separate_clubs_is_offered_for_round_one_only(director):
    tournament = make_tournament(players=8, director=director)
    first = seated_round(tournament)
    assert "separate_clubs" in DrawForm(round=first).fields
    second = seating.create_round(tournament=tournament)
    assert "separate_clubs" not in DrawForm(round=second).fields and "apart" in DrawForm(round=second).fields


def test_pairs_to_keep_apart_by_name_or_start_number(director):
    tournament = make_tournament(players=8, director=director)
    round = seating.create_round(tournament=tournament)
    anna, bernd, carla = (tournament.entries.get(player__name=name) for name in ("Anna", "Bernd", "Carla"))
    form = DrawForm({"mode": "random", "apart": f" anna ;BERND\n\n{carla.start_number}; Bernd "}, round=round)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["apart"] == [(anna.id, bernd.id), (carla.id, bernd.id)]


@pytest.mark.parametrize("text, error", [
    ("Anna", "Zeile 1: bitte zwei Spieler, getrennt durch „;“."),
    ("Anna; Bernd; Carla", "Zeile 1: bitte zwei Spieler, getrennt durch „;“."),
    ("Anna;", "Zeile 1: bitte zwei Spieler, getrennt durch „;“."),
    ("Anna; Bernd\nAnna; Zacharias", "Zeile 2: „Zacharias“ spielt in diesem Turnier nicht mit."),
    ("Anna; 99", "Zeile 1: „99“ spielt in diesem Turnier nicht mit."),
    ("Anna; anna", "Zeile 1: zweimal derselbe Spieler."),
])
def test_wrong_pairs_to_keep_apart_are_named_by_line(director, text, error):
    tournament = make_tournament(players=8, director=director)
    form = DrawForm({"mode": "random", "apart": text}, round=seating.create_round(tournament=tournament))
    assert not form.is_valid()
    assert form.errors["apart"] == [error]


def test_the_draw_page_passes_the_options(client, director):
    tournament = club_tournament(director, ["Nord", "Süd"], 4)
    round = seating.create_round(tournament=tournament)
    client.force_login(director)
    response = client.post(url("round_draw", round), {"mode": "random", "seed": "x", "separate_clubs": "on",
                                                      "apart": "Nord 0; Süd 0\nNord 1; Süd 1"})
    assert message_texts(response) == ["Runde 1 ausgelost: 2 Tische, 0 Wiederbegegnungen.",
                                       "Spieler desselben Vereins am selben Tisch: 4 Paare."]  # the fewest
    club = {e.id: e.player.club for e in tournament.entries.select_related("player")}
    tables = tables_of(round)
    assert all(sorted(club[p] for p in table) == ["Nord", "Nord", "Süd", "Süd"] for table in tables)
    for a, b in (("Nord 0", "Süd 0"), ("Nord 1", "Süd 1")):
        assert not any({entry_id(tournament, a), entry_id(tournament, b)} <= set(table) for table in tables)


def test_the_draw_page_refuses_unknown_players_to_keep_apart(client, director):
    tournament = make_tournament(players=8, director=director)
    round = seating.create_round(tournament=tournament)
    client.force_login(director)
    response = client.post(url("round_draw", round), {"mode": "random", "seed": "x", "apart": "Anna; Niemand"})
    assert message_texts(response) == ["Zeile 1: „Niemand“ spielt in diesem Turnier nicht mit."]
    assert not round.tables.exists()


def test_the_draw_page_says_when_clubs_share_tables(client, director):
    tournament = club_tournament(director, ["Nord"], 8)  # one club: every pair at a table is a club pair
    round = seating.create_round(tournament=tournament)
    client.force_login(director)
    response = client.post(url("round_draw", round), {"mode": "random", "seed": "x", "separate_clubs": "on"})
    assert message_texts(response)[1:] == ["Spieler desselben Vereins am selben Tisch: 12 Paare."]


def test_the_draw_names_the_lower_bound_beside_the_repeats(client, director):
    tournament = make_tournament(players=8, director=director)
    seated_round(tournament, seed="eins")
    second = seating.create_round(tournament=tournament)
    client.force_login(director)
    response = client.post(url("round_draw", second), {"mode": "random", "seed": "zwei"})
    assert message_texts(response) == [  # 8 players: two tables of 4 from two tables of 4
        "Runde 2 ausgelost: 2 Tische, 4 Wiederbegegnungen.",
        "Untergrenze der Wiederbegegnungen: 4 (weniger geht mit diesen Spielern nach den bisherigen Runden nicht)."]


def test_standings_rounds_keep_their_behaviour(director):
    tournament = make_tournament(players=8, director=director)
    seated_round(tournament, seed="eins")
    round = seated_round(tournament, mode=Round.Mode.STANDINGS, publish=False)
    assert round.mode == Round.Mode.STANDINGS and round.seed == ""
