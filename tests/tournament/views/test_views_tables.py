"""The table sheet and game entry pages: keyboard form, preview, errors next to fields, edits."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.models import Game, Penalty, Score
from tournament.services import penalties, results

from ..factories import make_director, make_tournament, normal_game, re_seats, seat_ids, seated_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(director):
    tournament = make_tournament(players=8, director=director, slug="herbst")
    return seated_round(tournament).tables.get(number=1)


def url(name, table, *extra):
    return reverse(f"tournament:{name}", args=[table.round.tournament.slug, table.round.number, table.number, *extra])


def form_data(table, number=1, **overrides):
    data = {"type": "normal", "solo": "", "re_seats": re_seats(table, number), "announcements": "",
            "re_augen": "130", "re_tricks": "", "extras": "", "action": "preview"}
    data.update(overrides)
    return data


def test_sheet_needs_a_director(client, table):
    response = client.get(url("table", table))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    other = make_director("fremd")
    client.force_login(other)
    assert client.get(url("table", table)).status_code == 403


def test_preview_shows_scores_and_saves_nothing(client, director, table):
    client.force_login(director)
    response = client.post(url("game_new", table), form_data(table, announcements="r"))
    assert response.status_code == 200
    content = response.content.decode()
    assert "Re gewinnt." in content and "Re angesagt" in content and "+2" in content
    assert not Game.objects.exists()


def test_save_goes_on_to_the_next_game(client, director, table):
    client.force_login(director)
    response = client.post(url("game_new", table), form_data(table, action="save"))
    assert response.status_code == 302 and response["Location"] == url("game_new", table)
    assert Game.objects.get().number == 1
    page = client.get(url("game_new", table)).content.decode()
    assert "Spiel 2" in page


def test_engine_messages_appear_next_to_the_fields(client, director, table):
    client.force_login(director)
    response = client.post(url("game_new", table), form_data(table, re_augen="250", extras="rfff",
                                                             announcements="r9"))
    form = response.context["form"]
    assert form.errors["re_augen"] == ["Muss zwischen 0 und 240 liegen, nicht 250."]
    assert form.errors["extras"] == ["Re, Fuchs gefangen: Muss zwischen 0 und 2 liegen, nicht 3."]
    assert not Game.objects.exists()


def test_wrong_re_party_size_is_reported_on_the_re_field(client, director, table):
    client.force_login(director)
    data = form_data(table, type="solo", solo="damen")
    response = client.post(url("game_new", table), data)
    assert response.context["form"].errors["re_seats"] == ["Solo: die Re-Partei hat 1 Spieler, nicht 2."]


def test_english_messages_when_the_browser_asks_for_english(client, director, table):
    client.force_login(director)
    response = client.post(url("game_new", table), form_data(table, re_augen="250"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.context["form"].errors["re_augen"] == ["Must be between 0 and 240, got 250."]


def test_editing_an_earlier_game_recomputes_the_sheet(client, director, table):
    client.force_login(director)
    client.post(url("game_new", table), form_data(table, 1, action="save"))
    client.post(url("game_new", table), form_data(table, 2, action="save"))
    # game 1 turns into a Nullspiel: Kontra caught a Fuchs
    client.post(url("game_edit", table, 1), form_data(table, 1, action="save", extras="kf",
                                                      version=Game.objects.get(number=1).version))
    assert Game.objects.get(number=2).multiplier == 2
    page = client.get(url("table", table)).content.decode()
    assert "(×2)" in page and "Quersumme 0" in page


def test_delete_game_and_penalty(client, director, table):
    client.force_login(director)
    results.save_game(table=table, data=normal_game(table))
    ids = seat_ids(table)
    response = client.post(url("penalty_add", table), {"offender": ids[2], "game_number": "", "note": "falsch bedient"})
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    page = client.get(url("table", table)).content.decode()
    assert "falsch bedient" in page and "−6" in page
    # each asks first: the first post shows what would be deleted, and deletes nothing
    page = client.post(url("penalty_delete", table, penalty.id)).content.decode()
    assert "Strafe an Tisch 1, Runde 1 löschen?" in page and Penalty.objects.exists()
    page = client.post(url("game_delete", table, 1), {"version": 1}).content.decode()
    assert "Spiel 1 an Tisch 1, Runde 1 löschen?" in page and Game.objects.exists()
    client.post(url("penalty_delete", table, penalty.id), {"confirm": "yes"})
    client.post(url("game_delete", table, 1), {"confirm": "yes", "version": 1})
    assert not Penalty.objects.exists() and not Game.objects.exists()


def test_totals_only_entry_rejects_a_nonzero_sum(client, director, table):
    client.force_login(director)
    ids = seat_ids(table)
    response = client.post(url("table_totals", table), {f"p{ids[0]}": 5, f"p{ids[1]}": -5, f"p{ids[2]}": 1,
                                                        f"p{ids[3]}": 0})
    assert "ergeben zusammen 1 statt 0" in response.content.decode()
    response = client.post(url("table_totals", table), {f"p{ids[0]}": 5, f"p{ids[1]}": -5, f"p{ids[2]}": 1,
                                                        f"p{ids[3]}": -1})
    assert response.status_code == 302
    assert "Nur Endstände eingetragen" in client.get(url("table", table)).content.decode()


def test_signed_sheet_is_locked_until_unlocked(client, director, table):
    client.force_login(director)
    client.post(url("table_sign", table), {"note": "alle vier"})
    response = client.get(url("game_new", table), follow=True)
    assert "gesperrt" in response.content.decode()
    client.post(url("table_sign", table), {"action": "unlock"})
    assert client.get(url("game_new", table)).status_code == 200


def queries_for(client, path):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


def fill(table, games):
    for number in range(1, games + 1):
        results.save_game(table=table, data=normal_game(table, number, extras={"re": {"fuchs": 1}}))
    penalties.add_penalty(table=table, offender_id=seat_ids(table)[1], game_number=1)


# Each of a director's requests starts with tournament, session, user, role (a director: one query,
# role_of stops there) and ends with the rounds for the navigation. The sheet: the table, seats, games,
# penalties, scores, the next game number (games and waiting drafts), the entries from the table's
# phones, and six for its change log (tables, games, penalties, drafts and the records before them);
# the standings (the first request after a change: tournament/web/caching.py): the change counter, the
# cached table and standings (two misses), the rounds, the scores summed, the entries, storing both
# in the database cache (web/database_cache.py: one insert and the tests' savepoints: 3 each), the kept
# score sums (web/score_sums.py: a miss, the rounds' ids, storing them: 5; they replace the scores' own
# query), what is still missing (one query), whether the tournament has teams (the link to the team
# standings), the hidden round numbers; a new game: the table, the next game number (games and drafts),
# its seat count, seats, the game itself. The standings +1: the ratings of the column beside the players
# (cached with the table, as in tests/tournament/views/test_views_public.py).
TABLE_QUERIES = {"sheet": 19, "standings": 26, "new game": 11}


def test_sheet_and_standings_run_a_fixed_number_of_queries(client, director):
    small = make_tournament(players=8, director=director, slug="klein")
    large = make_tournament(players=37, director=director, slug="gross", name="Groß")
    counts = {}
    for tournament, games in ((small, 2), (large, 8)):
        round = seated_round(tournament)
        five = next((t for t in round.tables.all() if t.seats.count() == 5), round.tables.first())
        fill(five, games)
        for table in round.tables.all()[:3]:
            if table != five:
                fill(table, games)
        client.force_login(director)
        counts[tournament.slug] = {
            "sheet": queries_for(client, url("table", five)),
            "standings": queries_for(client, reverse("tournament:standings", args=[tournament.slug])),
            "new game": queries_for(client, url("game_new", five))}
    assert counts == {"klein": TABLE_QUERIES, "gross": TABLE_QUERIES}


# ---- the form at the speed of the paper sheet -------------------------------------------------------

def test_the_re_party_is_typed_as_seat_numbers(client, director, table):
    client.force_login(director)
    ids = seat_ids(table)
    for typed in ("13", "1+3", "3 1", "1, 3"):
        response = client.post(url("game_new", table), form_data(table, re_seats=typed))
        assert response.context["form"].game_data()["re"] == [ids[0], ids[2]] or \
            sorted(response.context["form"].game_data()["re"]) == sorted([ids[0], ids[2]])
    response = client.post(url("game_new", table), form_data(table, re_seats="17"))
    assert response.context["form"].errors["re_seats"] == ["Platz 7 gibt es an diesem Tisch nicht (Plätze 1 bis 4)."]
    response = client.post(url("game_new", table), form_data(table, re_seats="11"))
    assert response.context["form"].errors["re_seats"] == ["Ein Platz steht zweimal in der Re-Partei."]


def test_at_a_table_of_five_the_dealer_cannot_be_in_the_re_party(client, director):
    tournament = make_tournament(players=9, director=director, slug="fuenf")
    table = next(t for t in seated_round(tournament).tables.all() if t.seats.count() == 5)
    client.force_login(director)
    name = tournament.entries.get(pk=seat_ids(table)[0]).player.name
    response = client.post(url("game_new", table), form_data(table, re_seats="12"))  # seat 1 deals game 1
    assert response.context["form"].errors["re_seats"] == [f"Platz 1 ({name}) gibt in diesem Spiel und sitzt aus."]


def test_sonderpunkte_in_the_sheets_short_notation(client, director, table):
    client.force_login(director)
    response = client.post(url("game_new", table), form_data(table, extras="rdd kf"))
    assert response.context["form"].game_data()["extras"] == {"re": {"doppelkopf": 2}, "kontra": {"fuchs": 1}}
    response = client.post(url("game_new", table), form_data(table, extras="r2d, K f"))
    assert response.context["form"].game_data()["extras"] == {"re": {"doppelkopf": 2}, "kontra": {"fuchs": 1}}
    response = client.post(url("game_new", table), form_data(table, extras="xf"))
    assert "„xf“ ist unklar" in response.context["form"].errors["extras"][0]
    response = client.post(url("game_new", table), form_data(table, extras="rh"))  # no Herzstich in turnier
    assert response.context["form"].errors["extras"] == [
        "„h“ ist in diesem Regelwerk kein Sonderpunkt; es gibt: f Fuchs gefangen, d Doppelkopf, k Karlchen."]


def test_an_edited_game_shows_seats_and_sonderpunkte_as_typed(client, director, table):
    client.force_login(director)
    client.post(url("game_new", table), form_data(table, re_seats="24", extras="rdd kf", action="save"))
    form = client.get(url("game_edit", table, 1)).context["form"]
    assert form.initial["re_seats"] == "24" and form.initial["extras"] == "rdd kf"


def test_the_cursor_starts_at_the_re_party_and_goes_to_the_first_field_in_error(client, director, table):
    client.force_login(director)
    page = client.get(url("game_new", table)).content.decode()
    assert re.search(r'<input[^>]*name="re_seats"[^>]*autofocus', page)
    page = client.post(url("game_new", table), form_data(table, re_seats="", re_augen="x")).content.decode()
    assert re.search(r'<input[^>]*name="re_seats"[^>]*autofocus', page)
    page = client.post(url("game_new", table), form_data(table, re_augen="250")).content.decode()
    assert re.search(r'<input[^>]*name="re_augen"[^>]*autofocus', page)
    assert not re.search(r'<input[^>]*name="re_seats"[^>]*autofocus', page)


def test_the_live_scores_while_typing(client, director, table):
    client.force_login(director)
    response = client.post(url("game_preview", table, 1), form_data(table, re_augen="140", announcements="r"))
    page = response.content.decode()
    assert response.status_code == 200 and "Re gewinnt." in page and "Spielwert 2." in page
    assert "<html" not in page and not Game.objects.exists()
    response = client.post(url("game_preview", table, 1), form_data(table, re_seats=""))
    assert "Re-Partei (Plätze)" in response.content.decode() and "Wertung" not in response.content.decode()


def test_announcements_in_the_sheets_short_notation(client, director, table):
    client.force_login(director)
    for typed, said in (("r", {"re": "re", "kontra": None}), ("k", {"re": None, "kontra": "kontra"}),
                        ("r9 k", {"re": "keine90", "kontra": "kontra"}), ("Re, Ko6", {"re": "re", "kontra": "keine60"}),
                        ("rk3", {"re": "re", "kontra": "keine30"}), ("rs", {"re": "schwarz", "kontra": None}),
                        ("", {"re": None, "kontra": None})):
        form = client.post(url("game_new", table), form_data(table, announcements=typed)).context["form"]
        assert form.game_data()["announcements"] == said, typed
    form = client.post(url("game_new", table), form_data(table, announcements="r r9")).context["form"]
    assert form.errors["announcements"] == ["Für jede Partei nur ihre höchste Ansage angeben."]
    form = client.post(url("game_new", table), form_data(table, announcements="x")).context["form"]
    assert "„x“ ist unklar" in form.errors["announcements"][0]


def test_the_breakdown_and_the_ruleset_in_the_readers_language(client, director, table):
    client.force_login(director)
    results.save_game(table=table, data=normal_game(table, re_augen=200, extras={"kontra": {"fuchs": 1}},
                                                    announcements={"re": "keine90", "kontra": None}))
    german = client.get(url("table", table)).content.decode()
    english = client.get(url("table", table), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for words in ("keine 90 angesagt", "Fuchs gefangen (Kontra)", "Regelwerk Doppelkopfturnier"):
        assert words in german and words not in english
    for words in ("no 90 announced", "Fuchs caught (Kontra)", "Doppelkopf tournament rules"):
        assert words in english and words not in german


@pytest.mark.parametrize(("augen", "tricks", "message"), [
    ("0", "5", "Re kann in 5 Stich(en) nicht nur 0 Augen haben: 5 Stich(e) haben 28 bis 184 Augen."),
    ("240", "9", "Re kann in 9 Stich(en) keine 240 Augen haben: 9 Stich(e) haben 112 bis 232 Augen."),
])
def test_augen_and_stiche_that_cannot_go_together_are_refused_at_the_field(client, director, table, augen,
                                                                          tricks, message):
    """The keyboard form kept a stale Stiche value when the Augen were changed: the server refuses the
    pair, next to the Augen, and saves nothing."""
    client.force_login(director)
    response = client.post(url("game_new", table), form_data(table, re_augen=augen, re_tricks=tricks, action="save"))
    assert response.status_code == 200
    assert response.context["form"].errors["re_augen"][0].startswith(message.rstrip("."))
    assert not Game.objects.exists()


def test_the_saved_games_scores_are_in_the_message(client, director):
    """After a keyboard save the message echoes the game's scores, so that they can be checked against
    the sheet without opening it; at a table of 5 without who sat out."""
    from ..factories import message_texts

    tournament = make_tournament(players=9, director=director, slug="funf")
    table = next(t for t in seated_round(tournament).tables.all() if t.seats.count() == 5)
    client.force_login(director)
    response = client.post(url("game_new", table), form_data(table, re_augen="130", action="save"))
    game = Game.objects.get()
    names = {s.entry_id: s.entry.player.name for s in table.seats.select_related("entry__player")}
    players = [e for e in seat_ids(table) if e != game.sitting_out_id]
    expected = ", ".join(f"{names[e]} {'+1' if e in game.re else '−1'}" for e in players)
    assert message_texts(response) == [f"Spiel 1 gespeichert: {expected}."]


def test_totals_below_zero_have_the_same_minus_sign_as_the_points(client, director, table):
    """The sheet (running totals, sums), a player's page (running totals, total) and the standings
    write a total below zero as "−8", like a game's points, not "-8" with a hyphen next to them."""
    results.save_game(table=table, data=normal_game(table, 1, re_augen=200))
    loser = Score.objects.filter(table=table, points__lt=0).first().entry_id  # Kontra: Re won
    slug = table.round.tournament.slug
    client.force_login(director)
    sheet = client.get(url("table", table)).content.decode()
    running = re.findall(r'<span class="running">([^<]*)</span>', sheet)
    sums = re.findall(r'<td class="num total">([^<]*)</td>', sheet)
    for texts in (running, sums):
        assert any(text.startswith("−") for text in texts) and not any("-" in text for text in texts)
    page = client.get(reverse("tournament:player", args=[slug, loser])).content.decode()
    cells = re.findall(r'<td class="num">([^<]*)</td></tr>', page)  # the running total ends each game's row
    assert cells and cells[0].startswith("−") and not any("-" in cell for cell in cells)
    assert re.search(r"<dd>−\d+</dd>", page)  # the total at the top
    standings = client.get(reverse("tournament:standings", args=[slug])).content.decode()
    points = re.findall(r'<td class="num">([−-]?\d+)</td><td class="num secondary">', standings)
    assert any(text.startswith("−") for text in points) and not any("-" in text for text in points)
    chart = standings[standings.index('class="chart"'):]  # the top 10's chart and its table of numbers
    numbers = re.findall(r'<td class="num">([^<]*)</td>', chart) + re.findall(r'fill="#444">([^<]*)</text>', chart)
    assert any(text.startswith("−") for text in numbers) and not any(re.match(r"-\d", text) for text in numbers)
