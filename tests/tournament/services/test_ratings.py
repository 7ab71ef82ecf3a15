"""The stored ratings (services/ratings.py, docs/rating.md): kept by the writes that change the scores,
and after every correction or deletion exactly what rating all games anew, in order, gives."""

from __future__ import annotations

import pytest
from django.test import Client

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


def test_the_standings_show_the_rating_beside_the_players_unless_switched_off(client):
    """A column "WZ" beside the players, its value the rating now; none where the
    tournament has it off."""
    from tournament.services import tournaments

    tournament = make_tournament(players=8, slug="spalte")
    play_round(tournament, games=2)
    entry = tournament.entries.order_by("start_number").first()
    page = client.get("/t/spalte/standings/").content.decode()
    assert '<th class="num rating secondary" title="Wertungszahl">' in page
    shown = Rating.objects.get(entry=entry).mu
    from django.utils.formats import number_format

    assert f'<td class="num rating secondary" title="Wertungszahl: Spielstärke aus allen Spielen (siehe Hilfe)">' \
           f'{number_format(shown, 1)}</td>' in page
    tournaments.update_tournament(tournament=tournament, fields={"rating_shown": False}, rules=tournament.rules)
    assert 'class="num rating secondary"' not in client.get("/t/spalte/standings/").content.decode()


def test_a_player_not_published_has_no_public_rating(client):
    """docs/privacy.md: no rating by name where the name is not published; a player not published has no
    public rating (standings, CSV, JSON, the player's page); the director still sees it."""
    from tournament import privacy
    from tournament.models import Player

    tournament = make_tournament(players=4, slug="verborgen")
    play_round(tournament, games=2)
    entry = tournament.entries.order_by("start_number").first()
    Player.objects.filter(pk=entry.player_id).update(publication=privacy.HIDDEN)
    table = tournament.rounds.get().tables.get()
    results.save_game(table=table, data=normal_game(table, 3))
    rows = client.get("/t/verborgen/standings.json").json()
    hidden = [row for row in rows if row["player"].startswith("Spieler/in Nr.")]
    assert len(hidden) == 1 and hidden[0]["rating"] is None
    assert all(row["rating"] is not None for row in rows if row not in hidden)
    page = client.get(f"/t/verborgen/players/{entry.pk}/").content.decode()
    assert "Wertungszahl" not in page
    csv_lines = client.get("/t/verborgen/standings.csv").content.decode("utf-8-sig").splitlines()
    assert [line for line in csv_lines if line.split(";")[1].startswith("Spieler/in")][0].endswith(";;;0")


def test_each_tables_expected_result_before_a_round_when_switched_on(client):
    """Off by default; switched on, the seating of a round shows each player's expected
    share of games won from the ratings before the round, moving with a correction of an earlier round;
    refused for a tournament that counts for the Rangliste."""
    import re

    from scoring.rating_forecast import win_shares
    from tournament.errors import UserError
    from tournament.selectors.ratings import ratings_before
    from tournament.services import tournaments

    tournament = make_tournament(players=8, slug="erwartung")
    first = play_round(tournament, games=2)
    round = seated_round(tournament, seed="r2")
    url = f"/t/erwartung/rounds/{round.number}/"
    assert "Erwartung" not in client.get(url).content.decode()
    tournaments.update_tournament(tournament=tournament, fields={"rating_forecast": True}, rules=tournament.rules)
    page = client.get(url).content.decode()
    assert "Erwartung: welcher Anteil seiner Spiele" in page
    table = round.tables.order_by("number").first()
    players = [str(e) for e in seat_ids(table)]
    shares = win_shares({str(e): r for e, r in ratings_before(tournament, 2).items()}, players)
    shown = re.findall(r'<td class="num forecast">(\d+) %</td>', page)
    assert shown[:4] == [str(int(shares[p] * 100 + 0.5)) for p in players]
    # a correction in round 1 moves the expectation (the page is kept by the change counter)
    corrected = first.tables.order_by("number").first()
    results.save_game(table=corrected, number=1, data=normal_game(corrected, 1, re_augen=40))
    shares = win_shares({str(e): r for e, r in ratings_before(tournament, 2).items()}, players)
    page = client.get(url).content.decode()
    assert re.findall(r'<td class="num forecast">(\d+) %</td>', page)[:4] != shown[:4]
    assert re.findall(r'<td class="num forecast">(\d+) %</td>', page)[:4] == [
        str(int(shares[p] * 100 + 0.5)) for p in players]
    with pytest.raises(UserError):
        tournaments.update_tournament(tournament=tournament, fields={"counts_for_rangliste": True},
                                      rules=tournament.rules)


def test_the_organisation_switches_the_rating_off_everywhere_a_logged_change(client):
    """Players decide: the organisation's switch takes the rating off every tournament's pages
    and exports at once (each tournament's counter moves, so no cached page keeps it), whatever the
    tournament's own switch says; the organisation's history records who did it."""
    from tournament.models import Organisation

    from ..factories import make_director

    director = make_director()
    tournament = make_tournament(players=4, slug="verband", director=director)
    play_round(tournament, games=2)
    entry = tournament.entries.order_by("start_number").first()
    assert 'class="num rating secondary"' in client.get("/t/verband/standings/").content.decode()
    assert "Wertungszahl" in client.get(f"/t/verband/players/{entry.pk}/").content.decode()
    organiser = Client()
    organiser.force_login(director)
    url = f"/o/{tournament.organisation.slug}/einstellungen/"
    assert organiser.get(url).status_code == 200
    assert organiser.post(url, {}).status_code == 302  # the box unticked: off
    organisation = Organisation.objects.get(pk=tournament.organisation_id)
    assert organisation.rating_enabled is False
    newest = organisation.history.order_by("-history_id").first()
    assert newest.log_action == "rating_switched" and newest.history_user == director
    assert 'class="num rating secondary"' not in client.get("/t/verband/standings/").content.decode()
    assert "Wertungszahl" not in client.get(f"/t/verband/players/{entry.pk}/").content.decode()
    assert "rating" not in client.get("/t/verband/standings.json").json()[0]
    assert "Wertungszahl" not in client.get("/t/verband/standings.csv").content.decode("utf-8-sig")
    organiser.post(url, {"rating_enabled": "on"})
    assert 'class="num rating secondary"' in client.get("/t/verband/standings/").content.decode()



def test_a_round_whose_results_are_hidden_does_not_show_through_the_rating(client):
    """A hidden round's games must not show on the public pages: the public's rating is the one after the
    newest round whose results are out (standings, exports, the player's page); the director's is now."""
    import re

    from django.utils.formats import number_format

    from tournament.services import seating

    tournament = make_tournament(players=4, slug="geheim")
    first = play_round(tournament, games=2)
    second = play_round(tournament, games=2)
    seating.hide_results(round=second)
    entry = tournament.entries.order_by("start_number").first()
    after_first = RatingStep.objects.get(table__round=first, entry=entry)
    now = Rating.objects.get(entry=entry)
    assert number_format(after_first.mu, 1) != number_format(now.mu, 1)
    assert {r["rating"]["games"] for r in client.get("/t/geheim/standings.json").json()} == {2}  # round 1's
    page = client.get(f"/t/geheim/players/{entry.pk}/").content.decode()
    assert re.search(r"<dd>(-?\d+,\d) <span", page).group(1) == number_format(after_first.mu, 1)
    seating.show_results(round=second)
    page = client.get(f"/t/geheim/players/{entry.pk}/").content.decode()
    assert re.search(r"<dd>(-?\d+,\d) <span", page).group(1) == number_format(now.mu, 1)


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_ratings_of_the_standings_are_formatted_as_one_rating_is(language):
    """`selectors.ratings.mu_text` (the standings' column, written out row by row, the number format read
    once per call) gives what Django's `number_format` gives: the same digits (cut, not rounded), the same
    marks; so does the standings' rating cell, and nothing for a player without a rating or not published."""
    from types import SimpleNamespace

    from django.utils import translation
    from django.utils.formats import number_format

    from tournament.selectors.ratings import mu_text, rating_text
    from tournament.views.standings import RowTexts, rating_cell

    mus = [27.96, -0.04, 0.0, 1234.56, 25.0, 31.449, -12.35, 1e-7]
    with translation.override(language):
        assert [mu_text(mu) for mu in mus] == [number_format(mu, 1) for mu in mus]
        assert [rating_text(rating.Rating(mu=mu, sigma=8.0, games=3)) for mu in mus] == [mu_text(mu) for mu in mus]
        texts = RowTexts(lambda entry_id: None, ratings=dict(enumerate(mus)))

        def shown(entry_id, hidden=False):
            cell = rating_cell(SimpleNamespace(entry_id=entry_id, hidden=hidden), texts)
            return cell.rsplit('">', 1)[1].removesuffix("</td>")

        assert [shown(n) for n in range(len(mus) + 1)] == [number_format(mu, 1) for mu in mus] + [""]
        assert shown(0) == ("27,9" if language == "de" else "27.9") and shown(0, hidden=True) == ""


def test_the_publics_rating_is_the_newest_visible_step_read_from_the_ratings_now(django_assert_num_queries):
    """`selectors.ratings.ratings_of` for the public: while no round is hidden it reads the ratings now (one
    row a player) in one query, equal to each player's newest rating step, also after a correction in an
    earlier round and a round begun; with a round hidden, the newest step of the rounds that are out."""
    from tournament.selectors.ratings import _visible_steps, ratings_of
    from tournament.services import seating

    tournament = make_tournament(players=9)  # a table of 5: the dealer sits out
    first = play_round(tournament, games=3)
    second = play_round(tournament, games=3)
    table = first.tables.order_by("number").first()
    results.save_game(table=table, number=2, data=normal_game(table, 2, re_augen=60))
    play_round(tournament, games=1)
    with django_assert_num_queries(1):
        public = ratings_of(tournament, include_hidden=False)
    assert public == _visible_steps(tournament) == ratings_of(tournament) and len(public) == 9
    seating.hide_results(round=second)
    with django_assert_num_queries(2):
        hidden = ratings_of(tournament, include_hidden=False)
    assert hidden == _visible_steps(tournament)
    seating.hide_results(round=tournament.rounds.get(number=3))
    assert ratings_of(tournament, include_hidden=False) == _visible_steps(tournament) != ratings_of(tournament)
