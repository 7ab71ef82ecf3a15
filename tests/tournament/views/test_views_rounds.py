"""A round's seating page: the draw, swaps, moves, publishing, closing, and who may do what."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.models import Round, Seat
from tournament.services import results, seating, sheet_state, tournaments

from ..factories import make_director, make_tournament, message_texts, normal_game, seat_ids, seated_round

pytestmark = pytest.mark.django_db

POSTS = ["round_draw", "round_swap", "round_move", "round_status"]


@pytest.fixture
def tournament(director):
    return make_tournament(players=9, director=director, slug="herbst")


@pytest.fixture
def draft(tournament):
    return seated_round(tournament, publish=False)


def url(name, round, *extra):
    return reverse(f"tournament:{name}", args=[round.tournament.slug, round.number, *extra])


def seating_of(round):
    return [seat_ids(table) for table in round.tables.order_by("number")]


def table_with(round, size):
    return next(t for t in round.tables.order_by("number") if t.seats.count() == size)


# ---- who may see and do what ---------------------------------------------------------------------

def test_a_draft_round_is_for_directors_only(client, draft):
    response = client.get(url("round", draft))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.force_login(make_director("fremd"))
    assert client.get(url("round", draft)).status_code == 403


def test_every_post_needs_the_director(client, draft):
    before = seating_of(draft)
    data = {"mode": "random", "seed": "x", "first": before[0][0], "second": before[1][0], "entry": before[1][0],
            "table": "1", "action": "publish"}
    for name in POSTS:
        response = client.post(url(name, draft), data)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/"), name
    client.force_login(make_director("fremd"))
    for name in POSTS:
        assert client.post(url(name, draft), data).status_code == 403, name
        assert client.get(url(name, draft)).status_code == 405, name
    draft.refresh_from_db()
    assert seating_of(draft) == before and draft.is_draft and draft.seed == "test"


def test_a_published_round_can_be_read_by_everyone_without_the_forms(client, tournament):
    round = seated_round(tournament)
    response = client.get(url("round", round))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Tisch 1" in page and "Tisch 2" in page and "veröffentlicht" in page
    for name in POSTS:
        assert url(name, round) not in page


def test_director_sees_the_draft_with_its_forms(client, director, draft):
    client.force_login(director)
    response = client.get(url("round", draft))
    page = response.content.decode()
    for name in POSTS:
        assert url(name, draft) in page
    assert "Veröffentlichen" in page and 'value="test"' in page  # the seed field shows the current seed
    # round 1: only the random draw
    assert response.context["draw_form"].fields["mode"].choices == [("random", Round.Mode.RANDOM.label)]


# ---- what the page shows -------------------------------------------------------------------------

def test_tables_in_seat_order_with_start_numbers_sizes_and_sheet_links(client, director, draft):
    client.force_login(director)
    response = client.get(url("round", draft))
    page = response.content.decode()
    assert response.context["tables_of_4"] == 1 and response.context["tables_of_5"] == 1
    assert "1 Vierertisch" in page and "1 Fünfertisch" in page and "4er-Tisch" in page and "5er-Tisch" in page
    for table in draft.tables.all():
        assert url("table", draft, table.number) in page
    rows = response.context["tables"]
    assert [[e.id for e in row["seated"].entries] for row in rows] == seating_of(draft)
    # seat order: the names appear in the order of the seats
    entries = rows[1]["seated"].entries
    positions = [page.index(f'<td class="num">{e.start_number}</td>') for e in entries]
    assert positions == sorted(positions)


def test_progress_per_table_in_a_published_round(client, director, tournament):
    round = seated_round(tournament)
    table = table_with(round, 4)
    results.save_game(table=table, data=normal_game(table))
    sheet_state.sign_table(table=table_with(round, 5))
    client.force_login(director)
    page = " ".join(client.get(url("round", round)).content.decode().split())
    assert "1 / 8 Spiele" in page and "0 / 10 Spiele · <strong>unterschrieben</strong>" in page


def test_an_empty_round_says_so(client, director, tournament):
    round = seating.create_round(tournament=tournament)
    client.force_login(director)
    page = client.get(url("round", round)).content.decode()
    assert "Noch nicht ausgelost." in page and url("round_draw", round) in page
    assert "Veröffentlichen" not in page


def test_a_draw_that_no_longer_fits_the_players_is_flagged(client, director, tournament, draft):
    tournaments.register_player(tournament=tournament, name="Spät")
    client.force_login(director)
    page = client.get(url("round", draft)).content.decode()
    assert "Die Tische passen nicht mehr zur Spielerliste (10 Spieler spielen in dieser Runde)" in page


# ---- the draw ------------------------------------------------------------------------------------

def test_drawing(client, director, tournament):
    round = seating.create_round(tournament=tournament)
    client.force_login(director)
    response = client.post(url("round_draw", round), {"mode": "random", "seed": "abc"})
    assert response.status_code == 302 and response["Location"] == url("round", round)
    assert message_texts(response) == ["Runde 1 ausgelost: 2 Tische, 0 Wiederbegegnungen."]
    round.refresh_from_db()
    assert round.seed == "abc" and round.tables.count() == 2
    first = seating_of(round)
    client.post(url("round_draw", round), {"mode": "random", "seed": "abc"})
    assert seating_of(round) == first  # same seed, same tables
    client.post(url("round_draw", round), {"mode": "random", "seed": "abc", "new_seed": "1"})
    round.refresh_from_db()
    assert round.seed not in ("abc", "")


def test_drawing_seven_players_shows_why_not(client, director):
    tournament = make_tournament(players=7, director=director)
    round = seating.create_round(tournament=tournament)
    client.force_login(director)
    response = client.post(url("round_draw", round), {"mode": "random", "seed": ""}, follow=True)
    assert "7 Spieler lassen sich nicht an Tische zu 4 und 5 setzen: 1 Spieler mehr (8) oder 2 weniger (5)." in \
        response.content.decode()
    assert not round.tables.exists()


def test_second_round_by_standings(client, director, tournament):
    seated_round(tournament)
    round = seating.create_round(tournament=tournament)
    client.force_login(director)
    assert ("standings", Round.Mode.STANDINGS.label) in \
        client.get(url("round", round)).context["draw_form"].fields["mode"].choices
    client.post(url("round_draw", round), {"mode": "standings", "seed": ""})
    round.refresh_from_db()
    assert round.mode == "standings" and round.tables.count() == 2


def test_a_published_round_is_not_drawn_again(client, director, tournament):
    round = seated_round(tournament)
    before = seating_of(round)
    client.force_login(director)
    response = client.post(url("round_draw", round), {"mode": "random", "seed": "neu"}, follow=True)
    assert "Runde 1 ist veröffentlicht; ihre Tische stehen fest." in response.content.decode()
    assert seating_of(round) == before


def test_round_one_cannot_be_drawn_by_standings(client, director, tournament):
    round = seating.create_round(tournament=tournament)
    client.force_login(director)
    response = client.post(url("round_draw", round), {"mode": "standings"})
    assert response.status_code == 302 and len(message_texts(response)) == 1
    assert not round.tables.exists()


# ---- swap and move -------------------------------------------------------------------------------

def test_swapping_two_players(client, director, draft):
    (a, *rest_a), (b, *rest_b) = seating_of(draft)
    client.force_login(director)
    response = client.post(url("round_swap", draft), {"first": a, "second": b})
    assert message_texts(response) == ["Plätze getauscht."]
    assert seating_of(draft) == [[b, *rest_a], [a, *rest_b]]


def test_swapping_a_player_with_himself_is_refused(client, director, draft):
    a = seating_of(draft)[0][0]
    client.force_login(director)
    response = client.post(url("round_swap", draft), {"first": a, "second": a})
    assert message_texts(response) == ["Bitte zwei verschiedene Spieler wählen."]


def test_swapping_in_a_published_round_is_refused(client, director, tournament):
    round = seated_round(tournament)
    before = seating_of(round)
    client.force_login(director)
    response = client.post(url("round_swap", round), {"first": before[0][0], "second": before[1][0]}, follow=True)
    assert "Runde 1 ist veröffentlicht; ihre Tische stehen fest." in response.content.decode()
    assert seating_of(round) == before


def test_moving_a_player_from_the_table_of_five(client, director, draft):
    five, four = table_with(draft, 5), table_with(draft, 4)
    mover = seat_ids(five)[2]
    client.force_login(director)
    response = client.post(url("round_move", draft), {"entry": mover, "table": four.number})
    assert message_texts(response) == [f"Spieler an Tisch {four.number} gesetzt."]
    assert Seat.objects.get(round=draft, entry_id=mover).table == four and four.seats.count() == 5


def test_moving_is_offered_only_from_a_table_of_five(client, director, draft):
    client.force_login(director)
    form = client.get(url("round", draft)).context["move_form"]
    assert len(form.fields["entry"].choices) == 1 + 5 and len(form.fields["table"].choices) == 1 + 1
    four = table_with(draft, 4)
    response = client.post(url("round_move", draft), {"entry": seat_ids(four)[0], "table": four.number})
    assert len(message_texts(response)) == 1 and four.seats.count() == 4


def test_moving_in_a_published_round_is_refused(client, director, tournament):
    round = seated_round(tournament)
    five, four = table_with(round, 5), table_with(round, 4)
    client.force_login(director)
    response = client.post(url("round_move", round), {"entry": seat_ids(five)[0], "table": four.number}, follow=True)
    assert "Runde 1 ist veröffentlicht; ihre Tische stehen fest." in response.content.decode()
    assert five.seats.count() == 5


# ---- publish, close, reopen ----------------------------------------------------------------------

def test_publish_close_and_reopen(client, director, draft):
    client.force_login(director)
    for action, status, text in [
        ("publish", "published", "Runde 1 ist veröffentlicht: die Tische stehen fest."),
        ("close", "closed", "Runde 1 ist abgeschlossen."),
        ("reopen", "published", "Runde 1 ist wieder offen. Jeder Tisch hat einen neuen Eingabelink: die neuen "
                                "QR-Codes drucken oder zeigen."),
    ]:
        response = client.post(url("round_status", draft), {"action": action, "confirm": "yes"})
        assert response.status_code == 302 and response["Location"] == url("round", draft)
        assert message_texts(response)[-1] == text  # (messages pile up until a page shows them)
        draft.refresh_from_db()
        assert draft.status == status
    page = client.get(url("round", draft)).content.decode()
    assert "Abschließen" in page and "Veröffentlichen" not in page


def test_status_errors_are_shown(client, director, tournament):
    round = seating.create_round(tournament=tournament)
    client.force_login(director)
    assert message_texts(client.post(url("round_status", round), {"action": "publish"})) == [
        "Runde 1 hat noch keine Tische: erst auslosen."]
    assert message_texts(client.post(url("round_status", round), {"action": "close"}))[-1] == \
        "Nur eine veröffentlichte Runde kann abgeschlossen werden."
    assert message_texts(client.post(url("round_status", round), {"action": "reopen"}))[-1] == \
        "Die Runde ist nicht abgeschlossen."
    assert message_texts(client.post(url("round_status", round), {"action": "explode"}))[-1] == \
        "Diese Aktion gibt es nicht."
    round.refresh_from_db()
    assert round.is_draft


@pytest.mark.parametrize("number", ["0", "-1", "-32769"])
def test_creating_round_zero_or_a_negative_round_says_which_comes_next(client, director, tournament, number):
    """Found by a tester: `rounds/new/` with number 0 or below was a 500 once a round existed."""
    seated_round(tournament)
    client.force_login(director)
    response = client.post(reverse("tournament:round_create", args=[tournament.slug]), {"number": number})
    assert response.status_code == 302
    assert message_texts(response) == ["Als Nächstes kommt Runde 2."]
    assert list(tournament.rounds.values_list("number", flat=True)) == [1]


def test_reopening_a_round_gives_every_table_a_new_entry_link(client, director, tournament):
    """A photo of an old QR code must not enter into a reopened round (docs/tournament.md)."""
    round = seated_round(tournament)
    old = dict(round.tables.values_list("number", "link_token"))
    assert all(old.values())
    client.force_login(director)
    client.post(url("round_status", round), {"action": "close", "confirm": "yes"})
    response = client.post(url("round_status", round), {"action": "reopen"})
    assert message_texts(response)[-1].startswith("Runde 1 ist wieder offen.")
    new = dict(round.tables.values_list("number", "link_token"))
    assert new.keys() == old.keys() and all(new.values())
    assert not set(new.values()) & set(old.values())
    for token in old.values():  # the old link says it is closed; the new one is the table's
        assert client.get(reverse("table_link", args=[token])).status_code == 410
    for token in new.values():
        assert client.get(reverse("table_link", args=[token])).status_code == 200


def test_unknown_round_is_404(client, director, tournament):
    client.force_login(director)
    assert client.get(reverse("tournament:round", args=[tournament.slug, 7])).status_code == 404
    assert client.post(reverse("tournament:round_draw", args=[tournament.slug, 7])).status_code == 404


# ---- queries -------------------------------------------------------------------------------------

# the director's request: tournament, session, user, role (a director: one query, role_of stops there);
# then the round, its tables, seats, entries, rounds for the navigation; a draft one more (what is
# missing in the rounds before), a published round one more (its progress); with repeat meetings one
# more (who meets again, tested with the names in test_the_round_page_names_who_meets_again);
# and two for the tables and the list of names, which are rendered once per change of the tournament
# (the change counter, and the rendered part from the shared cache: templates/tournament/round.html)
ROUND_QUERIES = {False: 12, True: 12}


@pytest.mark.parametrize("publish", [False, True], ids=["draft", "published"])
def test_round_page_queries_do_not_grow_with_the_tournament(client, director, publish):
    rounds = []
    for players, slug in ((8, "klein"), (37, "gross")):
        tournament = make_tournament(players=players, director=director, slug=slug)
        round = seated_round(tournament, publish=publish)
        if publish:
            table = round.tables.get(number=1)
            results.save_game(table=table, data=normal_game(table))
        rounds.append(round)
    client.force_login(director)
    for round in rounds:
        client.get(url("round", round))  # the first request may fill caches
    counts = {}
    for round in rounds:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url("round", round)).status_code == 200
        counts[round.tournament.slug] = len(queries)
    assert counts == {"klein": ROUND_QUERIES[publish], "gross": ROUND_QUERIES[publish]}


# ---- what is missing, and who meets again ---------------------------------------------------------

def test_closing_asks_first_and_names_the_tables_with_games_missing(client, director, tournament):
    round = seated_round(tournament)
    four, five = table_with(round, 4), table_with(round, 5)
    for number in range(1, 9):
        results.save_game(table=four, data=normal_game(four, number))
    results.save_game(table=five, data=normal_game(five, 1))
    client.force_login(director)
    page = client.post(url("round_status", round), {"action": "close"}).content.decode()
    assert "Runde 1 abschließen?" in page and "Es fehlen noch 9 Spiele." in page
    assert f"Runde 1: es fehlen noch 9 Spiele (Tisch {five.number})." in page
    assert "0 von 2 Spielzetteln" not in page and "2 von 2 Spielzetteln sind nicht unterschrieben." in page
    round.refresh_from_db()
    assert round.status == "published"  # nothing closed before the answer


def test_a_draft_round_says_what_is_missing_in_the_rounds_before(client, director, tournament):
    first = seated_round(tournament)
    table = first.tables.first()
    results.save_game(table=table, data=normal_game(table, 1))
    second = seated_round(tournament, seed="zwei", publish=False)
    client.force_login(director)
    page = client.get(url("round", second)).content.decode()
    assert 'id="earlier-missing"' in page and "Vor dem Auslosen und Veröffentlichen:" in page
    assert "Runde 1: es fehlen noch 17 Spiele (Tische 1, 2)." in page
    seating.close_round(round=first, backup=False)
    assert 'id="earlier-missing"' not in client.get(url("round", second)).content.decode()


def test_the_round_page_names_who_meets_again(client, director):
    tournament = make_tournament(players=8, director=director, slug="acht")
    first = seated_round(tournament)
    second = seated_round(tournament, seed="zwei", publish=False)
    second.refresh_from_db()
    assert second.repeat_meetings >= 2  # 8 players at two tables of 4 cannot avoid it
    names = {seat.entry_id: seat.entry.player.name for seat in Seat.objects.select_related("entry__player")}
    table_of = {entry: table.number for table in first.tables.all() for entry in seat_ids(table)}
    expected = []
    for table in second.tables.order_by("number"):
        ids = seat_ids(table)
        for a in ids:
            for b in ids:
                if names[a] < names[b] and table_of[a] == table_of[b]:
                    expected.append(f"Tisch {table.number}: {names[a]} und {names[b]} (schon in Runde 1)")
    assert len(expected) == second.repeat_meetings
    client.force_login(director)
    page = client.get(url("round", second)).content.decode()
    assert f"Wer sich wieder begegnet ({second.repeat_meetings} Paare)" in page
    for line in expected:
        assert line in page
    client.logout()
    seating.publish_round(round=second)
    assert "Wer sich wieder begegnet" not in client.get(url("round", second)).content.decode()  # the director's
