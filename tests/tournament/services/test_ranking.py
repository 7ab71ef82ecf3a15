"""Ranking modes (Tournament.ranking): summed game points, table points by placement at the table
with game points as the tie-breaker, and the average per round played. Each with ties, and every
place the standings appear follows the mode: the page, CSV, JSON, the command, the PDF, the player's
page, the tournament file, the change log and the cached standings."""

import csv
import io
import json
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from tournament import ranking
from tournament.log import changelog
from tournament.models import Tournament
from tournament.selectors import player_record, standings, standings_history
from tournament.services import results, seating, sheet_state, tournaments
from tournament.services.exporting import export_tournament
from tournament.services.file_checks import ImportProblems
from tournament.services.importing import import_tournament

from ..factories import make_director, make_tournament, normal_game, seat_ids

pytestmark = pytest.mark.django_db

Ranking = Tournament.Ranking


def ids(tournament) -> dict[str, int]:
    return {e.player.name: e.id for e in tournament.entries.select_related("player")}


def play(tournament, tables: list[dict[str, int]]):
    """A published round seated as given, each table entered as totals: [{name: points, …}, …] in seat
    order (a table given as {} stays empty)."""
    entry = ids(tournament)
    round = seating.create_round(tournament=tournament)
    seating.place_tables(round=round, tables=[[entry[name] for name in table] for table in tables])
    seating.publish_round(round=round)
    for table, given in zip(round.tables.order_by("number"), tables, strict=True):
        if given:
            sheet_state.enter_totals(table=table, totals={entry[name]: points for name, points in given.items()})
    return round


def ranked(tournament, **kwargs) -> list[tuple]:
    return [(row.rank, row.name, row.table_points, row.points) for row in standings(tournament, **kwargs)]


@pytest.fixture
def director():
    return make_director()


@pytest.fixture
def nine(director):
    """9 players (a table of 4 and one of 5), two rounds entered as totals, ties of every kind:
    round 1: two share places 2–3 at the table of 4, three share places 1–3 at the table of 5;
    round 2: all four tied at the table of 4, two pairs tied at the table of 5."""
    tournament = make_tournament(players=9, director=director, slug="tische", ranking=Ranking.TABLE_POINTS)
    play(tournament, [{"Anna": 30, "Bernd": 10, "Carla": 10, "Dieter": -50},
                      {"Emil": 20, "Frieda": 20, "Gustav": 20, "Hanna": -20, "Ida": -40}])
    play(tournament, [{"Emil": 0, "Frieda": 0, "Anna": 0, "Ida": 0},
                      {"Bernd": 10, "Carla": 10, "Dieter": 0, "Gustav": -10, "Hanna": -10}])
    return tournament


# ---- table points ---------------------------------------------------------------------------------

def test_table_points_share_places_and_game_points_break_ties(nine):
    assert ranked(nine) == [
        (1, "Anna", 3, 30),  # 3 table points like Bernd and Carla: more game points
        (2, "Bernd", 3, 20), (2, "Carla", 3, 20),  # the same table points and game points: a shared place
        (4, "Emil", 2, 20), (4, "Frieda", 2, 20),
        (6, "Gustav", -1, 10),
        (7, "Dieter", -3, -50),
        (8, "Ida", -4, -40),
        (9, "Hanna", -5, -30),
    ]
    assert sum(row.table_points for row in standings(nine)) == 0


def test_table_points_after_each_round_and_the_placements_that_make_them(nine):
    assert ranked(nine, up_to_round=1)[:5] == [(1, "Anna", 3, 30), (2, "Emil", 2, 20), (2, "Frieda", 2, 20),
                                               (2, "Gustav", 2, 20), (5, "Bernd", 0, 10)]
    rows = {row.name: row for row in standings(nine)}
    (r1, t1, first), (r2, t2, second) = rows["Bernd"].placements
    assert (r1, t1, first.place, first.size, first.shared, first.table_points) == (1, 1, 2, 4, 2, 0)
    assert (r2, t2, second.place, second.size, second.shared, second.table_points) == (2, 2, 1, 5, 2, 3)
    with translation.override("de"):
        assert ranking.placements_text(rows["Bernd"], tables=True) == (
            "Runde 1, Tisch 1: Platz 2 von 4 (geteilt) → 0; Runde 2, Tisch 2: Platz 1 von 5 (geteilt) → +3")
        assert ranking.placements_text(rows["Hanna"], tables=False) == (
            "Runde 1: Platz 4 von 5 → −2; Runde 2: Platz 4 von 5 (geteilt) → −3")


def test_the_same_results_ranked_by_game_points_as_before(nine):
    nine.ranking = Ranking.POINTS
    nine.save()
    assert [(rank, name, points) for rank, name, _tp, points in ranked(nine)] == [
        (1, "Anna", 30), (2, "Bernd", 20), (2, "Carla", 20), (2, "Emil", 20), (2, "Frieda", 20),
        (6, "Gustav", 10), (7, "Hanna", -30), (8, "Ida", -40), (9, "Dieter", -50)]


def test_after_game_points_the_tournaments_tie_breakers_decide(director):
    tournament = make_tournament(players=8, director=director, slug="gleich", ranking=Ranking.TABLE_POINTS)
    play(tournament, [{"Anna": 10, "Bernd": 5, "Carla": -5, "Dieter": -10},
                      {"Emil": 10, "Frieda": 0, "Gustav": 0, "Hanna": -10}])
    play(tournament, [{"Anna": 10, "Emil": 5, "Frieda": -5, "Bernd": -10},
                      {"Gustav": 10, "Dieter": 5, "Carla": 0, "Hanna": -15}])
    rows = {row.name: row for row in standings(tournament)}
    # Bernd +1 −3, Carla −1 −1: both −2 table points and −5 game points; Bernd's best round is +5, Carla's 0
    assert (rows["Bernd"].table_points, rows["Bernd"].points) == (rows["Carla"].table_points, rows["Carla"].points)
    # Dieter too (−3 then +1; −10 then +5), with a best round of +5 like Bernd's
    assert [rows[name].rank for name in ("Bernd", "Dieter", "Carla")] == [5, 5, 5]
    tournament.tie_breakers = ["best_round"]
    tournament.save()
    rows = {row.name: row for row in standings(tournament)}
    assert [rows[name].rank for name in ("Bernd", "Dieter", "Carla")] == [5, 5, 7]


def test_a_table_of_5_counts_the_player_who_sat_out_every_game_entered(director):
    tournament = make_tournament(players=5, director=director, slug="fuenf", ranking=Ranking.TABLE_POINTS)
    round = seating.create_round(tournament=tournament)
    seating.seat_round(round=round, seed="x")
    seating.publish_round(round=round)
    table = round.tables.get()
    results.save_game(table=table, data=normal_game(table, 1, re_augen=150))  # the dealer sits out
    rows = {row.entry_id: row for row in standings(tournament)}
    dealer = seat_ids(table)[0]
    placement = rows[dealer].placements[0][2]
    assert placement.size == 5 and placement.points == 0 and placement.table_points == 0  # place 3 of 5
    assert sorted(row.table_points for row in rows.values()) == [-3, -3, 0, 3, 3]


def test_a_table_without_results_gives_no_table_points(director):
    tournament = make_tournament(players=8, director=director, slug="leer", ranking=Ranking.TABLE_POINTS)
    play(tournament, [{"Anna": 10, "Bernd": 5, "Carla": -5, "Dieter": -10}, {}])
    rows = {row.name: row for row in standings(tournament)}
    assert rows["Emil"].placements == () and rows["Emil"].table_points == 0
    assert rows["Anna"].table_points == 3


def test_hidden_rounds_stay_out_of_the_public_table_points(nine):
    seating.hide_results(round=nine.rounds.get(number=2))
    public = {row.name: row.table_points for row in standings_history(nine, include_hidden=False).final()}
    assert public["Bernd"] == 0 and public["Emil"] == 2  # round 1 only
    assert {row.name: row.table_points for row in standings(nine)}["Bernd"] == 3


# ---- the average per round ------------------------------------------------------------------------

@pytest.fixture
def missed(director):
    """Hanna withdraws after round 1, Ida joins for round 2, Jens registers but is never seated."""
    tournament = make_tournament(players=8, director=director, slug="schnitt", ranking=Ranking.AVERAGE)
    play(tournament, [{"Anna": 30, "Bernd": 10, "Carla": -10, "Dieter": -30},
                      {"Emil": 20, "Frieda": 0, "Gustav": 0, "Hanna": -20}])
    tournaments.withdraw_player(entry=tournament.entries.get(player__name="Hanna"))
    tournaments.register_player(tournament=tournament, name="Ida")
    play(tournament, [{"Anna": 0, "Emil": 10, "Bernd": -20, "Ida": 10},
                      {"Carla": 5, "Frieda": 5, "Gustav": -5, "Dieter": -5}])
    tournaments.register_player(tournament=tournament, name="Jens")
    return tournament


def test_average_per_round_played_with_ties_late_entries_and_withdrawals(missed):
    rows = [(row.rank, row.name, row.average, row.rounds_played) for row in standings(missed)]
    assert rows == [
        (1, "Anna", 15, 2), (1, "Emil", 15, 2),
        (3, "Ida", 10, 1),  # joined in round 2: one round played
        (4, "Frieda", Fraction(5, 2), 2),
        (5, "Carla", Fraction(-5, 2), 2), (5, "Gustav", Fraction(-5, 2), 2),
        (7, "Bernd", -5, 2),
        (8, "Dieter", Fraction(-35, 2), 2),
        (9, "Hanna", -20, 1),  # withdrew after round 1: stays ranked by that round
        (10, "Jens", None, 0),  # no round played: after everyone who played
    ]


def test_average_shown_with_one_decimal_in_the_readers_format():
    with translation.override("de"):
        assert [ranking.average_text(v) for v in (Fraction(20, 3), Fraction(-5, 2), Fraction(1, 20), Fraction(15),
                                                  Fraction(-1, 20), Fraction(-1, 30))
                ] == ["6,7", "−2,5", "0,1", "15,0", "−0,1", "0,0"]  # a real minus sign, as for points
        assert ranking.average_text(None) == "–"
        assert ranking.average_explained(37, 3) == "37 Punkte in 3 Runden"
        assert ranking.average_explained(-35, 2) == "−35 Punkte in 2 Runden"
    with translation.override("en"):
        assert ranking.average_text(Fraction(20, 3)) == "6.7"


def test_average_compares_exactly_not_as_shown(director):
    # 20/3 and 27/4 both show as 6,7: the higher one is ahead
    tournament = make_tournament(players=8, director=director, slug="genau", ranking=Ranking.AVERAGE)
    play(tournament, [{"Anna": 7, "Bernd": 7, "Carla": -7, "Dieter": -7}, {"Emil": 6, "Frieda": 6, "Gustav": -6,
                                                                        "Hanna": -6}])
    tournaments.withdraw_player(entry=tournament.entries.get(player__name="Anna"))
    tournaments.withdraw_player(entry=tournament.entries.get(player__name="Bernd"))
    rows = {row.name: row for row in standings(tournament)}
    assert rows["Anna"].average == 7 and rows["Emil"].average == 6 and rows["Anna"].rank < rows["Emil"].rank


# ---- the pages, exports and printouts follow the mode -----------------------------------------------------

def test_standings_page_ranks_by_table_points_and_explains_them(client, nine):
    page = client.get(reverse("tournament:standings", args=[nine.slug])).content.decode()
    assert "Wertung: Tischpunkte (+3/+1/−1/−3, am Fünfertisch +4/+2/0/−2/−4, Gleichstand teilt), " \
           "bei Gleichstand Spielpunkte." in page
    assert ">Tischpunkte<" in page and ">Spielpunkte<" in page
    assert 'title="Runde 1, Tisch 1: Platz 2 von 4 (geteilt) → 0; Runde 2, Tisch 2: Platz 1 von 5 (geteilt) → +3"' \
           in page
    assert page.index('data-name="Anna"') < page.index('data-name="Bernd"') < page.index('data-name="Emil"')
    assert "Tischpunkte der ersten 10" in page


def test_standings_page_in_average_mode(client, missed):
    page = client.get(reverse("tournament:standings", args=[missed.slug])).content.decode()
    assert "Wertung: Durchschnitt der Spielpunkte je gespielter Runde" in page
    assert ">Schnitt<" in page and ">Runden<" in page
    assert 'title="−35 Punkte in 2 Runden">−17,5</td>' in page  # real minus signs, as for points


def test_standings_page_in_points_mode_says_so(client, director):
    tournament = make_tournament(players=8, director=director, slug="punkte", tie_breakers=["won"])
    play(tournament, [{"Anna": 10, "Bernd": 5, "Carla": -5, "Dieter": -10}, {}])
    page = client.get(reverse("tournament:standings", args=[tournament.slug])).content.decode()
    assert ("Wertung: Summe der Spielpunkte; danach entscheidet: mehr gewonnene Spiele. "
            "Wer dann noch gleich steht, teilt sich den Platz.") in page
    assert "Tischpunkte" not in page and "Schnitt" not in page


def test_the_own_row_below_the_top_places_has_the_modes_columns(client, nine, settings):
    settings.STANDINGS_TOP = 2
    hanna = ids(nine)["Hanna"]
    part = client.get(reverse("tournament:standings", args=[nine.slug]) + f"?partial=1&me={hanna}").content.decode()
    assert '<td colspan="9">…</td>' in part and f'data-entry="{hanna}"' in part


def test_csv_and_json_follow_the_mode(client, nine, missed):
    def csv_rows(tournament):
        text = client.get(reverse("tournament:standings_csv", args=[tournament.slug])).content.decode("utf-8-sig")
        return list(csv.reader(io.StringIO(text), delimiter=";"))

    lines = csv_rows(nine)
    assert lines[0] == ["Platz", "Spieler", "Verein", "Tischpunkte", "Punkte", "Spiele", "gewonnen", "Soli",
                        "nur Endstand", "R1", "R2", "Wertungszahl", "Unsicherheit", "Spiele gewertet"]
    assert lines[2][:5] == ["2", "Bernd", "DK Nord", "3", "20"]
    assert lines[2][-5:-3] == ["0", "3"]  # the table points of each round, as the printed standings
    data = client.get(reverse("tournament:standings_json", args=[nine.slug])).json()
    assert data[1]["table_points"] == 3 and data[1]["points"] == 20
    assert data[1]["placements"] == [
        {"round": 1, "table": 1, "place": 2, "of": 4, "shared": 2, "points": 10, "table_points": 0},
        {"round": 2, "table": 2, "place": 1, "of": 5, "shared": 2, "points": 10, "table_points": 3}]

    lines = csv_rows(missed)
    assert lines[0][3:6] == ["Schnitt", "Runden", "Punkte"]
    assert lines[8][:6] == ["8", "Dieter", "DK Nord", "-17,5", "2", "-35"]
    data = client.get(reverse("tournament:standings_json", args=[missed.slug])).json()
    assert (data[7]["average"], data[7]["rounds"]) == (-17.5, 2) and data[9]["average"] is None


def test_json_leaves_out_the_tables_when_the_seating_is_not_public(client, nine):
    nine.public_seating = False
    nine.save()
    data = client.get(reverse("tournament:standings_json", args=[nine.slug])).json()
    assert "table" not in data[0]["placements"][0]


def test_the_command_follows_the_mode(nine, missed):
    out, err = io.StringIO(), io.StringIO()
    call_command("standings", nine.slug, "--format", "json", stdout=out)
    assert json.loads(out.getvalue())[0] == {
        "rank": 1, "player": "Anna", "table_points": 3, "placements": [
            {"round": 1, "table": 1, "place": 1, "of": 4, "shared": 1, "points": 30, "table_points": 3},
            {"round": 2, "table": 1, "place": 1, "of": 4, "shared": 4, "points": 0, "table_points": 0}],
        "points": 30, "games": 16, "won": 0}
    out = io.StringIO()
    with translation.override("de"):
        call_command("standings", missed.slug, stdout=out, stderr=err)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["Platz", "Spieler", "Schnitt", "Runden", "Punkte", "Spiele", "gewonnen"]
    assert lines[1].split() == ["1.", "Anna", "15,0", "2", "30", "16", "0"]
    assert "Wertung: Durchschnitt" in err.getvalue()


def test_the_standings_pdf_follows_the_mode(client, nine, tmp_path, settings):
    from ..printing.test_printing import get_pdf

    settings.PDF_CACHE_DIR = tmp_path / "pdf-cache"
    settings.PDF_WORKERS = 1
    text = " ".join(" ".join(get_pdf(client, nine.directors.get(), "standings_pdf", nine.slug)).split())
    assert "Tischp." in text and "Tischpunkte je Runde" in text
    assert "bei Gleichstand Spielpunkte" in text
    # Bernd: round 1 0, round 2 +3, 3 table points, 20 game points
    assert "2. 2 Bernd * DK Nord 0 3 3 20" in text  # * totals only


def test_the_player_page_shows_the_placement_of_each_round(client, nine, missed):
    url = reverse("tournament:player", args=[nine.slug, ids(nine)["Bernd"]])
    page = client.get(url).content.decode()
    assert "Platz 2 von 4 (geteilt) → 0" in page and "Platz 1 von 5 (geteilt) → +3" in page
    assert "<dt>Tischpunkte</dt><dd>3</dd>" in page
    assert "Wertung: Tischpunkte" in page
    record = player_record(nine, ids(nine)["Bernd"], include_hidden=False)
    assert record.table_points == 3 and [p.placement.table_points for p in record.rounds] == [0, 3]

    page = client.get(reverse("tournament:player", args=[missed.slug, ids(missed)["Ida"]])).content.decode()
    assert "<dt>Schnitt</dt>" in page and ">10,0</dd>" in page and "Hier: 10 Punkte in 1 Runde." in page


def test_the_player_page_keeps_a_hidden_rounds_placement_from_the_public(client, nine):
    seating.hide_results(round=nine.rounds.get(number=2))
    page = client.get(reverse("tournament:player", args=[nine.slug, ids(nine)["Bernd"]])).content.decode()
    assert "Platz 2 von 4 (geteilt) → 0" in page and "Platz 1 von 5" not in page
    assert "<dt>Tischpunkte</dt><dd>0</dd>" in page


# ---- settings, the file, the change log, the cache -----------------------------------------------------

def settings_data(tournament, **changes):
    data = {"name": tournament.name, "date": "2026-11-21", "place": "", "slug": tournament.slug, "preset": "turnier",
            "rule_changes": "", "rounds_planned": 3, "games_at_table_of_4": 8, "games_at_table_of_5": 10,
            "version": tournament.version, "public_overview": "on", "public_players": "on",
            "public_seating": "on", "public_standings": "on", "ranking": tournament.ranking}
    data.update(changes)
    return data


def test_changing_the_mode_in_the_settings_refreshes_the_cached_standings_and_is_logged(client, nine):
    url = reverse("tournament:standings", args=[nine.slug])
    first = client.get(url + "?partial=1")
    assert ">Tischpunkte<" in first.content.decode()
    assert client.get(url + "?partial=1", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    client.force_login(nine.directors.get())
    settings_url = reverse("tournament:settings", args=[nine.slug])
    page = client.get(settings_url).content.decode()
    assert "Wertung nach" in page and 'value="table_points" id="id_ranking_1" checked>' in page
    assert client.post(settings_url, settings_data(nine, ranking="average")).status_code == 302
    nine.refresh_from_db()
    assert nine.ranking == Ranking.AVERAGE
    client.logout()
    again = client.get(url + "?partial=1", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert ">Schnitt<" in again.content.decode() and ">Tischpunkte<" not in again.content.decode()
    entry = changelog.entries(nine, limit=1)[0]
    with translation.override("de"):
        assert entry.action == "settings_changed"
        assert "Wertung: Durchschnitt der Spielpunkte je gespielter Runde" in entry.after_text
        assert "Wertung: Tischpunkte nach Platz am Tisch, dann Spielpunkte" in entry.before_text


def test_a_settings_form_without_the_field_keeps_the_mode(client, nine):
    client.force_login(nine.directors.get())
    data = settings_data(nine)
    del data["ranking"]
    assert client.post(reverse("tournament:settings", args=[nine.slug]), data).status_code == 302
    nine.refresh_from_db()
    assert nine.ranking == Ranking.TABLE_POINTS


def test_a_new_tournament_chooses_its_mode(client, director):
    client.force_login(director)
    page = client.get(reverse("tournament:tournament_create")).content.decode()
    assert "Tischpunkte nach Platz am Tisch, dann Spielpunkte" in page
    response = client.post(reverse("tournament:tournament_create"), {
        "name": "Tischpunkte-Cup", "date": "2026-12-05", "preset": "turnier", "rounds_planned": 3,
        "games_at_table_of_4": 8, "games_at_table_of_5": 10, "ranking": "table_points"})
    assert response.status_code == 302
    assert Tournament.objects.get(name="Tischpunkte-Cup").ranking == Ranking.TABLE_POINTS
    client.post(reverse("tournament:tournament_create"), {
        "name": "Ohne Wahl", "date": "2026-12-05", "preset": "turnier", "rounds_planned": 3,
        "games_at_table_of_4": 8, "games_at_table_of_5": 10})
    assert Tournament.objects.get(name="Ohne Wahl").ranking == Ranking.POINTS


def test_the_tournament_file_keeps_the_mode_and_old_files_rank_by_points(nine):
    data = export_tournament(nine, backup=False)
    assert data["ranking"] == "table_points"
    copy = import_tournament(data, slug="kopie")
    assert copy.ranking == Ranking.TABLE_POINTS
    assert ranked(copy) == ranked(nine)
    assert export_tournament(copy, backup=False) == {**data, "slug": "kopie"}
    del data["ranking"]
    assert import_tournament(data, slug="alt").ranking == Ranking.POINTS
    points = export_tournament(Tournament.objects.get(slug="alt"), backup=False)
    assert "ranking" not in points  # the default is left out (canonical form)
    with pytest.raises(ImportProblems) as problems:
        import_tournament({**data, "ranking": "elo"}, slug="falsch")
    assert any("ranking" in line and "elo" in line for line in problems.value.lines)


# ---- a fixed number of queries ----------------------------------------------------------------------

def test_table_points_pages_run_a_fixed_number_of_queries(client):
    """As tests/tournament/views/test_views_public.py pins for summed points, with one query more for the
    standings (who sits at which table) and one more for a player's page (everyone's points at the
    player's tables)."""
    from ..views.test_views_public import PUBLIC_QUERIES, public_query_counts

    expected = {**PUBLIC_QUERIES, "standings": PUBLIC_QUERIES["standings"] + 1, "player": PUBLIC_QUERIES["player"] + 1}
    counts = public_query_counts(client, ranking=Ranking.TABLE_POINTS)
    assert counts == {"klein": expected, "gross": expected}


def test_the_standings_read_table_points_from_the_stored_tallies_in_one_query(nine):
    with CaptureQueriesContext(connection) as captured:
        standings_history(nine)
    assert len(captured) == 4  # rounds, the tallies per table and player, players, seats
    assert sum("_tally" in q["sql"] for q in captured.captured_queries) == 1  # (models.Tally: stored sums)
    assert sum("GROUP BY" in q["sql"] for q in captured.captured_queries) == 0  # nothing summed again


def test_the_standings_pdf_prints_a_dash_for_a_missed_round_and_table_points_for_one_who_sat_out(
        client, director, tmp_path, settings):
    from ..printing.test_printing import get_pdf

    settings.PDF_CACHE_DIR = tmp_path / "pdf-cache"
    settings.PDF_WORKERS = 1
    tournament = make_tournament(players=5, director=director, slug="fuenf", ranking=Ranking.TABLE_POINTS)
    round = seating.create_round(tournament=tournament)
    seating.seat_round(round=round, seed="x")
    seating.publish_round(round=round)
    table = round.tables.get()
    results.save_game(table=table, data=normal_game(table, 1, re_augen=150))  # the dealer sits out
    dealer = tournament.entries.get(pk=seat_ids(table)[0])
    tournaments.register_player(tournament=tournament, name="Zoe")  # from round 2: nothing in round 1
    text = " ".join(" ".join(get_pdf(client, director, "standings_pdf", tournament.slug)).split())
    # place 3 of 5 with 0 points: 0 table points in R1, 0 in all, 0 game points
    assert f"{dealer.start_number} {dealer.player.name} DK Nord 0 0 0" in text
    assert "6 Zoe – 0 0" in text
