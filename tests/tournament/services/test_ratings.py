"""The stored ratings (services/ratings.py, docs/rating.md): kept by the writes that change the scores,
and after every correction or deletion exactly what rating all games anew, in order, gives."""

from __future__ import annotations

import pytest

from scoring import rating
from tournament.models import Game, Rating, RatingStep, Seat
from tournament.services import ratings, results

from ..factories import make_tournament, normal_game, play_round, seat_ids, seated_round

pytestmark = pytest.mark.django_db


def stored(tournament) -> tuple[dict, dict]:
    current = {e: (mu, sigma, games) for e, mu, sigma, games in
               Rating.objects.filter(tournament=tournament).values_list("entry_id", "mu", "sigma", "games")}
    steps = {(t, e): (mu, sigma, games) for t, e, mu, sigma, games in
             RatingStep.objects.filter(round__tournament=tournament)
             .values_list("table_id", "entry_id", "mu", "sigma", "games")}
    return current, steps


def from_scratch(tournament) -> dict:
    """Every game of the tournament rated anew by the pure engine, in round, table and game order."""
    seated: dict[int, list[int]] = {}
    for table_id, entry_id in Seat.objects.filter(round__tournament=tournament).values_list("table_id", "entry_id"):
        seated.setdefault(table_id, []).append(entry_id)
    matches = []
    for game in Game.objects.filter(table__round__tournament=tournament).order_by(
            "table__round__number", "table__number", "number"):
        players = [str(e) for e in seated[game.table_id] if e != game.sitting_out_id]
        matches.append(rating.match(players=players, re=[str(e) for e in game.re], winner=game.winner,
                                    value=game.value // game.multiplier))
    return {int(k): (r.mu, r.sigma, r.games) for k, r in rating.replay(matches).items()}


def test_saving_games_rates_their_players():
    tournament = make_tournament(players=8)
    play_round(tournament, games=2)
    current, steps = stored(tournament)
    assert len(current) == 8 and all(games == 2 for _mu, _sigma, games in current.values())
    assert len(steps) == 8
    assert current == from_scratch(tournament)


def test_correction_and_deletion_in_an_earlier_round_equal_recomputation():
    tournament = make_tournament(players=9)  # a table of 5: the dealer sits out
    first = play_round(tournament, games=3)
    play_round(tournament, games=3)
    before = stored(tournament)
    table = first.tables.order_by("number").first()
    results.save_game(table=table, number=2, data=normal_game(table, 2, re_augen=60))  # Kontra wins now
    after = stored(tournament)
    assert after != before
    assert after[0] == from_scratch(tournament)
    results.delete_game(table=table, number=3)
    assert stored(tournament)[0] == from_scratch(tournament)
    once_more = stored(tournament)
    ratings.rebuild_ratings(tournament=tournament)
    assert stored(tournament) == once_more


def test_the_dealer_sitting_out_is_not_rated_for_that_game():
    tournament = make_tournament(players=5)
    round = seated_round(tournament)
    table = round.tables.get()
    results.save_game(table=table, data=normal_game(table, 1))
    out = Game.objects.get(table=table, number=1).sitting_out_id
    assert out is not None
    current, _steps = stored(tournament)
    assert out not in current and set(current) == set(seat_ids(table)) - {out}


def test_a_table_in_the_last_round_is_rated_again_alone(django_assert_max_num_queries):
    """Saving a game in the round being played rates that table again, not the tournament."""
    tournament = make_tournament(players=16)
    play_round(tournament, games=2)
    round = play_round(tournament, games=1)
    others = {t: s for t, s in stored(tournament)[1].items()}
    table = round.tables.order_by("number").last()
    results.save_game(table=table, data=normal_game(table, 2))
    _current, steps = stored(tournament)
    changed = {key for key in steps if steps[key] != others.get(key)}
    assert {t for t, _e in changed} == {table.pk}
    assert stored(tournament)[0] == from_scratch(tournament)


def test_switching_the_rating_off_is_a_logged_setting():
    from django.utils import translation

    from tournament.log import changelog
    from tournament.services import tournaments

    tournament = make_tournament(players=4)
    tournaments.update_tournament(tournament=tournament, fields={"rating_shown": False}, rules=tournament.rules)
    tournament.refresh_from_db()
    assert tournament.rating_shown is False
    entry = changelog.entries(tournament, limit=1)[0]
    with translation.override("de"):
        assert entry.action == "settings_changed"
        assert entry.record.rating_shown is False  # (the tournament file does not carry it: docs/rating.md)


def test_player_page_and_exports_show_the_rating_unless_switched_off(client):
    from tournament.services import tournaments

    tournament = make_tournament(players=4, slug="wertung")
    play_round(tournament, games=2)
    play_round(tournament, games=2)
    entry = tournament.entries.order_by("start_number").first()
    page = client.get(f"/t/wertung/players/{entry.pk}/").content.decode()
    assert "Wertungszahl" in page and "Noch unsicher: noch 36 Spiele" in page and "<svg" in page
    csv = client.get("/t/wertung/standings.csv").content.decode("utf-8-sig")
    assert "Wertungszahl;Unsicherheit;Spiele gewertet" in csv.splitlines()[0]
    rows = client.get("/t/wertung/standings.json").json()
    assert all(row["rating"]["games"] == 4 and row["rating"]["settled"] is False for row in rows)
    tournaments.update_tournament(tournament=tournament, fields={"rating_shown": False}, rules=tournament.rules)
    assert "Wertungszahl" not in client.get(f"/t/wertung/players/{entry.pk}/").content.decode()
    assert "rating" not in client.get("/t/wertung/standings.json").json()[0]


def test_a_correction_in_an_earlier_round_moves_the_version_of_players_at_other_tables():
    """A player's page is kept while its version holds (their own tables, their ranks); a correction at
    another table of an earlier round rates the later rounds again and moves the ratings of players who
    never sat at that table: their version moves with it, even where their ranks stay."""
    from django.test import RequestFactory

    from tournament.views.public import player_version

    tournament = make_tournament(players=12, slug="version")
    first = play_round(tournament, games=2)
    play_round(tournament, games=2)
    corrected = first.tables.order_by("number").first()
    others = list(Seat.objects.filter(table__round=first).exclude(table=corrected).values_list("entry_id", flat=True))
    request = RequestFactory().get("/")
    request.is_director = False

    def versions():
        return {entry_id: player_version(request, tournament, entry_id)[1] for entry_id in others}

    before = versions()
    results.save_game(table=corrected, number=1, data=normal_game(corrected, 1, re_augen=40))  # Kontra wins now
    after = versions()
    same_ranks = [e for e in others if after[e].ranks == before[e].ranks and after[e].own == before[e].own]
    assert same_ranks, "some players at other tables keep their ranks and own tables"
    assert all(after[e].text != before[e].text for e in same_ranks)


def test_the_rating_has_the_readers_decimal_mark(client):
    """27,9 ± 8,3 in German, 27.9 ± 8.3 in English (the helper saw a comma in English)."""
    import re

    tournament = make_tournament(players=4, slug="komma")
    play_round(tournament, games=2)
    entry = tournament.entries.order_by("start_number").first()
    shown = {}
    for language in ("de", "en"):
        page = client.get(f"/t/komma/players/{entry.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        shown[language] = re.search(r"<dd>(-?\d+[.,]\d) <span class=\"muted\">± (\d+[.,]\d)</span>", page).groups()
    assert all("," in value for value in shown["de"]) and all("." in value for value in shown["en"])
