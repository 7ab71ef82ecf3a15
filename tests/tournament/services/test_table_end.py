"""A table that stops early because a player has to leave: the games so far count, no more are
expected (missing results, the sheet, the next game), the sheet says why, the director can let it
play on, and the tournament file keeps it."""

import pytest
from django.urls import reverse

from tournament import selectors
from tournament.errors import UserError
from tournament.printing import documents
from tournament.services import results, sheet_state
from tournament.services.exporting import export_tournament
from tournament.services.importing import import_tournament

from ..factories import make_director, make_tournament, message_texts, normal_game, seated_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    tournament = make_tournament(players=8, director=make_director())
    table = seated_round(tournament).tables.get(number=1)
    for number in (1, 2, 3):
        results.save_game(table=table, data=normal_game(table, number))
    table.refresh_from_db()
    return table


def test_an_ended_table_counts_its_games_and_expects_no_more(table):
    tournament = table.round.tournament
    assert selectors.missing_results(tournament).games == 5 + 8  # table 2 has not started
    sheet_state.end_table(table=table, note="Dieter musste gehen", version=table.version)
    table.refresh_from_db()
    assert table.ended_after == 3 and table.ended_note == "Dieter musste gehen"
    missing = selectors.missing_results(tournament)
    assert missing.games == 8 and [t.table_number for t in missing.incomplete] == [2]
    sheet = selectors.table_sheet(table)
    assert [line.number for line in sheet.lines] == [1, 2, 3]
    with pytest.raises(UserError) as error:
        results.save_game(table=table, data=normal_game(table, 4))
    assert "nach Spiel 3 beendet" in str(error.value.message)


def test_the_table_plays_on_after_all(table):
    sheet_state.end_table(table=table, note="Dieter musste gehen")
    sheet_state.resume_table(table=table)
    table.refresh_from_db()
    assert table.ended_after is None and table.ended_note == ""
    results.save_game(table=table, data=normal_game(table, 4))
    assert selectors.missing_results(table.round.tournament).games == 4 + 8


def test_ending_needs_a_reason_and_an_open_sheet(table):
    with pytest.raises(UserError) as error:
        sheet_state.end_table(table=table, note="  ")
    assert error.value.field == "note"
    sheet_state.sign_table(table=table)
    with pytest.raises(UserError):
        sheet_state.end_table(table=table, note="zu spät")
    table.refresh_from_db()
    assert table.ended_after is None


def test_the_sheet_page_and_the_printed_sheet_say_why(client, table):
    tournament = table.round.tournament
    client.force_login(tournament.directors.get())
    url = reverse("tournament:table_end", args=[tournament.slug, 1, 1])
    response = client.post(url, {"version": table.version, "note": "Dieter musste gehen"})
    assert message_texts(response) == ["Tisch nach Spiel 3 beendet; weitere Spiele werden nicht erwartet."]
    page = client.get(reverse("tournament:table", args=[tournament.slug, 1, 1])).content.decode()
    assert "Vorzeitig beendet nach Spiel 3: Dieter musste gehen" in page and "Spiel 4 eintragen" not in page
    assert "3 von 3 Spielen eingetragen" in page
    table.refresh_from_db()
    html = documents.sheet_document(table=table, entries=selectors.seated_entries(table), table_count=2,
                                sheet=selectors.table_sheet(table))
    assert "Vorzeitig beendet nach Spiel 3: Dieter musste gehen" in html
    response = client.post(url, {"version": table.version, "action": "resume"})
    assert message_texts(response) == ["Der Tisch spielt weiter."]


def test_the_tournament_file_keeps_an_ended_table(table):
    sheet_state.end_table(table=table, note="Dieter musste gehen")
    data = export_tournament(table.round.tournament)
    assert data["rounds"][0]["tables"][0]["ended"] == {"after": 3, "note": "Dieter musste gehen"}
    copy = import_tournament(data, slug="kopie")
    copied = copy.rounds.get().tables.get(number=1)
    assert (copied.ended_after, copied.ended_note) == (3, "Dieter musste gehen")
    assert export_tournament(copy)["rounds"][0]["tables"][0]["ended"] == data["rounds"][0]["tables"][0]["ended"]


def test_the_round_page_and_the_overview_expect_no_more_games_of_an_ended_table(client, table):
    tournament = table.round.tournament
    sheet_state.end_table(table=table, note="Dieter musste gehen")
    client.force_login(tournament.directors.get())
    round_page = client.get(reverse("tournament:round", args=[tournament.slug, 1])).content.decode()
    assert "3 / 3 Spiele" in round_page and "3 / 8 Spiele" not in round_page
    overview = selectors.tournament_overview(tournament)
    assert (overview.rounds[0].games, overview.rounds[0].games_expected) == (3, 3 + 8)
