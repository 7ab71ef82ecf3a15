"""PDF printouts: score sheets (blank and filled), a round's sheets, seating plan, standings; who may
print them; the PDF cache and the process pool. PDFs are read back with pypdf."""

import re
import shutil
import subprocess
from io import BytesIO

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from pypdf import PdfReader

from seating.dealing import game_players
from tournament.log.audit import Actor
from tournament.models import Round
from tournament.printing import documents, render
from tournament.services import penalties as penalty_services
from tournament.services import results, seating, sheet_state, tournaments

from ..factories import make_director, make_tournament, normal_game, register, seat_ids, seated_round

pytestmark = pytest.mark.django_db

NAMES = ["Jürgen Größ", "Änne Özdemir", "Björn Weiß", "Anna Bäcker", "Bernd Müller", "Carla Jäger", "Dieter Schäfer",
         "Emil Köhler", "Frieda Fuß"]


@pytest.fixture(autouse=True)
def pdf_cache(settings, tmp_path):
    """Every test gets an empty PDF cache and renders in-process unless it asks for the pool."""
    settings.PDF_CACHE_DIR = tmp_path / "pdf-cache"
    settings.PDF_WORKERS = 1
    return settings.PDF_CACHE_DIR


@pytest.fixture
def tournament(director):  # `director` from conftest.py
    tournament = make_tournament(players=0, director=director, slug="herbst", name="Herbstturnier Münster",
                                 place="Köln")
    register(tournament, [(name, "DK Süd") for name in NAMES])  # 9 players: a table of 5 and a table of 4
    return tournament


@pytest.fixture
def round(tournament):
    return seated_round(tournament)


def table_of(round, size):
    return next(t for t in round.tables.order_by("number") if t.seats.count() == size)


def play(table, games, penalties=()):
    for number in range(1, games + 1):
        results.save_game(table=table, data=normal_game(table, number))
    for number in penalties:
        _dealer, _out, players = game_players(seat_ids(table), number)
        penalty_services.add_penalty(table=table, offender_id=players[0], game_number=number,
                                     note="Farbe nicht bedient")


def pages(response) -> list[str]:
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    # reading a streamed response to its end closes it (and its file); closing it by hand would also
    # close the test's database connection
    data = b"".join(response.streaming_content) if response.streaming else response.content
    return [page.extract_text() for page in PdfReader(BytesIO(data)).pages]


def get_pdf(client, director, name, *args, query=""):
    client.force_login(director)
    return pages(client.get(reverse(f"tournament:{name}", args=args) + query))


def sheet_rows(text: str) -> str:
    """The part of a sheet's text between the column heads and the totals row."""
    return text.split("Pkt. Stand\n")[-1].split("Summe")[0]


# ---- score sheets --------------------------------------------------------------------------------

def test_filled_sheet_fits_one_page_at_a_table_of_five_with_ten_games_and_penalties(client, director, round):
    table = table_of(round, 5)
    play(table, 10, penalties=(2, 5, 9, 10))
    texts = get_pdf(client, director, "table_pdf", "herbst", 1, table.number)
    assert len(texts) == 1
    assert sheet_rows(texts[0]).count("Strafe: ") == 4 and "10 von 10 Spielen eingetragen" in texts[0]


def test_sheet_prints_players_with_umlauts_and_start_numbers(client, director, round):
    table = table_of(round, 4)
    text = get_pdf(client, director, "table_pdf", "herbst", 1, table.number)[0]
    for position, seat in enumerate(table.seats.select_related("entry__player").order_by("position"), start=1):
        assert f"{position} · {seat.entry.player.name}" in text
        assert f"Nr. {seat.entry.start_number}" in text
    assert any(name in text for name in ("Jürgen Größ", "Änne Özdemir", "Björn Weiß", "Frieda Fuß", "Emil Köhler"))


def test_blank_sheet_prints_the_dealer_on_every_row(client, director, round):
    table = table_of(round, 4)
    names = [s.entry.player.name for s in table.seats.select_related("entry__player").order_by("position")]
    text = get_pdf(client, director, "table_pdf", "herbst", 1, table.number)[0]
    rows = sheet_rows(text).splitlines()
    assert rows[:8] == [f"{n} {(n - 1) % 4 + 1} {names[(n - 1) % 4]}" for n in range(1, 9)]
    assert rows[8:] == ["Strafe:", "Strafe:"]


def test_table_of_five_shows_who_sits_out(client, director, round):
    five, four = table_of(round, 5), table_of(round, 4)
    rows = sheet_rows(get_pdf(client, director, "table_pdf", "herbst", 1, five.number)[0])
    assert rows.count("sitzt aus") == 10  # one per game: the dealer
    assert "sitzt aus" not in get_pdf(client, director, "table_pdf", "herbst", 1, four.number)[0]


def test_filled_sheet_shows_points_running_totals_and_a_zero_sum(client, director, round):
    table = table_of(round, 4)
    play(table, 2)  # Re (the first two players) wins 1 point twice
    text = get_pdf(client, director, "table_pdf", "herbst", 1, table.number)[0]
    rows = sheet_rows(text).splitlines()
    assert rows[0].endswith("+1 1 +1 1 −1 −1 −1 −1")
    assert rows[1].endswith("+1 2 +1 2 −1 −2 −1 −2")
    assert "alle Spieler zusammen: 0 ✓" in text
    assert re.search(r"Summe .*\n?.*2 2 −2 −2", text)


def test_filled_sheet_prints_penalties_with_their_points(client, director, round):
    table = table_of(round, 4)
    play(table, 1, penalties=(1,))
    rows = sheet_rows(get_pdf(client, director, "table_pdf", "herbst", 1, table.number)[0]).splitlines()
    assert rows[1].startswith("Strafe: ") and "(Farbe nicht bedient)" in rows[1]
    assert "−6" in rows[1] and rows[1].count("+2") == 3


def test_an_unsigned_sheet_keeps_empty_penalty_rows_to_write_in(client, director, round):
    table = table_of(round, 4)
    play(table, 3, penalties=(2,))
    rows = sheet_rows(get_pdf(client, director, "table_pdf", "herbst", 1, table.number)[0]).splitlines()
    assert rows[-2:] == ["Strafe:", "Strafe:"] and len(rows) == 8 + 1 + 2
    for number in range(4, 9):
        results.save_game(table=table, data=normal_game(table, number))
    sheet_state.sign_table(table=table, by=Actor(user=director))
    rows = sheet_rows(get_pdf(client, director, "table_pdf", "herbst", 1, table.number)[0]).splitlines()
    assert "Strafe:" not in rows and len(rows) == 8 + 1  # signed: what was written is all there is


def test_signed_sheet_prints_that_it_is_signed_and_locked(client, director, round):
    table = table_of(round, 4)
    play(table, 8)
    assert "Noch nicht unterschrieben" in get_pdf(client, director, "table_pdf", "herbst", 1, table.number)[0]
    sheet_state.sign_table(table=table, by=Actor(user=director), note="alle vier")
    text = get_pdf(client, director, "table_pdf", "herbst", 1, table.number)[0]
    assert "Unterschrieben und gesperrt am" in text and "alle vier" in text
    assert text.count("Unterschrift ") == 4  # a signature line per player


def test_blank_sheet_on_request_has_no_points(client, director, round):
    table = table_of(round, 4)
    play(table, 3, penalties=(2,))
    text = get_pdf(client, director, "table_pdf", "herbst", 1, table.number, query="?blank=1")[0]
    assert "Spielzettel (leer)" in text
    assert not re.search(r"[+−]\d", sheet_rows(text))
    assert "eingetragen" not in text and "Normalspiel" not in sheet_rows(text)


def test_sheet_has_the_legend_and_the_zero_sum_reminder(client, director, round):
    text = " ".join(get_pdf(client, director, "table_pdf", "herbst", 1, table_of(round, 4).number)[0].split())
    assert "die Summen aller Spieler ergeben zusammen 0" in text
    assert "k90/k60/k30 = keine 90/60/30" in text and "F Fuchs gefangen" in text and "×2 Bock" in text


def test_fonts_are_embedded(client, director, round):
    client.force_login(director)
    response = client.get(reverse("tournament:table_pdf", args=["herbst", 1, 1]))
    reader = PdfReader(BytesIO(response.content))
    fonts = reader.pages[0]["/Resources"]["/Font"]
    assert fonts
    for font in fonts.values():
        font = font.get_object()  # a composite font (WeasyPrint) or a TrueType subset (the sheets)
        described = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        assert "/FontFile2" in described["/FontDescriptor"].get_object()


# ---- a round's sheets ----------------------------------------------------------------------------

def test_round_pdf_has_one_page_per_table_in_table_order(client, director, round):
    play(table_of(round, 5), 3)
    texts = get_pdf(client, director, "round_sheets_pdf", "herbst", 1)
    assert len(texts) == round.tables.count() == 2
    for number, text in enumerate(texts, start=1):
        assert re.search(rf"Runde 1 · Tisch {number}\b", text)
    played = table_of(round, 5).number
    assert "3 von 10 Spielen eingetragen" in texts[played - 1]
    assert "Spielzettel (leer)" in texts[2 - played]


def test_tournament_name_and_footer_on_every_page(client, director, tournament, round):
    seated_round(tournament)  # a second round, so the standings have two columns
    footer = "Herbstturnier Münster · 21. November 2026 · Köln "
    sheets = get_pdf(client, director, "round_sheets_pdf", "herbst", 1)
    for number, text in enumerate(sheets, start=1):
        assert text.endswith(footer + f"Runde 1 · Tisch {number} von 2 Spielzettel · Doko-Turnier")
    seating = get_pdf(client, director, "round_seating_pdf", "herbst", 1)
    standings = get_pdf(client, director, "standings_pdf", "herbst")
    assert len(seating) == 2  # the tables, then the alphabetical list, counted through
    assert seating[0].endswith(footer + "Sitzplan Runde 1 Seite 1 von 2")
    assert seating[1].endswith(footer + "Sitzplan Runde 1 Seite 2 von 2")
    for number, text in enumerate(standings, start=1):
        assert text.endswith(footer + f"Tabelle Seite {number} von {len(standings)}")


# ---- seating plan and standings ------------------------------------------------------------------

def test_seating_plan_lists_tables_and_everyone_alphabetically(client, director, round):
    by_table, alphabetical = get_pdf(client, director, "round_seating_pdf", "herbst", 1)
    assert "nach Tischen" in by_table and "Wer sitzt wo? (alphabetisch)" in alphabetical
    for table in round.tables.all():
        assert f"Tisch {table.number}" in by_table
        for position, seat in enumerate(table.seats.select_related("entry__player").order_by("position"), start=1):
            assert f"{position} {seat.entry.player.name}" in by_table
            assert f"{seat.entry.player.name} Nr. {seat.entry.start_number} Tisch {table.number} · Platz {position}" \
                in alphabetical
    order = [alphabetical.index(name) for name in  # by surname (docs/printing.md)
             ("Anna Bäcker", "Frieda Fuß", "Jürgen Größ", "Carla Jäger", "Bernd Müller", "Änne Özdemir", "Björn Weiß")]
    assert order == sorted(order)  # Ö files under O


def test_standings_say_they_are_provisional_and_what_is_missing(client, director, tournament, round):
    five, four = table_of(round, 5), table_of(round, 4)
    play(four, 8)
    play(five, 7)
    text = get_pdf(client, director, "standings_pdf", "herbst")[0]
    assert "Tabelle – vorläufig" in text and "Vorläufige Tabelle: noch nicht alle Ergebnisse sind da." in text
    assert f"Runde 1: es fehlen noch 3 Spiele (Tisch {five.number})." in text
    for number in (8, 9, 10):
        results.save_game(table=five, data=normal_game(five, number))
    text = get_pdf(client, director, "standings_pdf", "herbst")[0]
    assert "Runde 1: alle Spiele sind eingetragen, die Runde ist noch nicht abgeschlossen." in text
    seating.close_round(round=round, backup=False)
    text = get_pdf(client, director, "standings_pdf", "herbst")[0]
    assert "vorläufig" not in text and "Vorläufig" not in text


def test_standings_overall_and_after_a_round(client, director, tournament, round):
    play(table_of(round, 4), 1)
    second = seated_round(tournament)
    play(table_of(second, 4), 2)
    overall = "\n".join(get_pdf(client, director, "standings_pdf", "herbst"))
    after_one = "\n".join(get_pdf(client, director, "standings_pdf", "herbst", query="?round=1"))
    assert "Tabelle – vorläufig\n" in overall and "R1 R2" in overall  # games are missing
    assert "Tabelle nach Runde 1" in after_one and "R2" not in after_one
    assert "Summe aller Punkte: 0" in overall
    for name in NAMES:
        assert name in overall and name in after_one
    # below zero with a real minus sign, in each round's column as in the total
    assert re.search(r"−\d+ −\d+", overall) and not re.search(r"(^|\s)-\d", overall)


def test_standings_ignore_an_unknown_round(client, director, round):
    text = get_pdf(client, director, "standings_pdf", "herbst", query="?round=7")[0]
    assert "Tabelle\n" in text and "nach Runde" not in text


# ---- who may print -------------------------------------------------------------------------------

PDF_URLS = [("table_pdf", ["herbst", 1, 1]), ("round_sheets_pdf", ["herbst", 1]),
            ("round_seating_pdf", ["herbst", 1]), ("standings_pdf", ["herbst"])]


@pytest.mark.parametrize("name, args", PDF_URLS)
def test_printouts_need_the_tournaments_director(client, round, name, args):
    url = reverse(f"tournament:{name}", args=args)
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(make_director("fremd"))
    assert client.get(url).status_code == 403


def test_unknown_table_is_404(client, director, round):
    client.force_login(director)
    assert client.get(reverse("tournament:table_pdf", args=["herbst", 1, 9])).status_code == 404
    assert client.get(reverse("tournament:round_sheets_pdf", args=["herbst", 5])).status_code == 404


# ---- speed: cache and pool -----------------------------------------------------------------------

@pytest.fixture
def layouts(monkeypatch):
    """Counts the documents WeasyPrint lays out."""
    calls = []
    real = render.html_to_pdf

    def counting(html):
        calls.append(html)
        return real(html)

    monkeypatch.setattr(render, "html_to_pdf", counting)
    return calls


def test_an_unchanged_sheet_is_laid_out_once(client, director, round, layouts):
    first = get_pdf(client, director, "table_pdf", "herbst", 1, 1)
    second = get_pdf(client, director, "table_pdf", "herbst", 1, 1)
    assert first == second and len(layouts) == 1


def test_a_round_lays_out_again_only_the_changed_table(client, director, round, layouts, monkeypatch):
    monkeypatch.setattr(render, "SHEETS_PER_FILE", 1)  # a file per sheet (groups: the test below)
    get_pdf(client, director, "round_sheets_pdf", "herbst", 1)
    assert len(layouts) == 2
    get_pdf(client, director, "round_sheets_pdf", "herbst", 1)
    assert len(layouts) == 2
    play(table_of(round, 4), 1)
    texts = get_pdf(client, director, "round_sheets_pdf", "herbst", 1)
    assert len(layouts) == 3 and any("1 von 8 Spielen eingetragen" in text for text in texts)
    get_pdf(client, director, "table_pdf", "herbst", 1, table_of(round, 4).number)  # the same sheet: cached
    assert len(layouts) == 3


def test_a_round_draws_its_sheets_in_groups_and_again_only_the_changed_tables_group(tournament, monkeypatch):
    """Score sheets `SHEETS_PER_FILE` to a file (one font subset, few files to merge); a change at one
    table draws its group again, the others stay cached; the pages are those drawn one by one."""
    monkeypatch.setattr(render, "SHEETS_PER_FILE", 2)
    rounds = [seated_round(tournament) for _ in range(2)]
    htmls = [html for round in rounds for html in documents.round_sheet_documents(round)]
    htmls.append(documents.round_sheet_documents(rounds[0], blank=True)[0])
    drawn: list[int] = []
    real = render.group_pdf

    def counting(group):
        drawn.append(len(group))
        return real(group)

    monkeypatch.setattr(render, "group_pdf", counting)
    merged = PdfReader(render.merged_pdf_file(htmls, workers=1))
    assert drawn == [2, 2, 1]
    singles = [PdfReader(path).pages[0].extract_text() for path in render.pdf_files(htmls, workers=1)]
    assert [page.extract_text() for page in merged.pages] == singles
    assert [item.title for item in merged.outline] == [
        "Runde 1 · Tisch 1", "Runde 1 · Tisch 2", "Runde 2 · Tisch 1", "Runde 2 · Tisch 2", "Runde 1 · Tisch 1"]
    drawn.clear()
    play(table_of(rounds[1], 4), 1)
    htmls = [html for round in rounds for html in documents.round_sheet_documents(round)] + htmls[-1:]
    render.merged_pdf_file(htmls, workers=1)
    assert drawn == [2]  # round 2's two sheets, one of them changed


def test_the_pool_renders_the_same_pages_as_in_process(settings, tmp_path, tournament):
    rounds = [seated_round(tournament) for _ in range(2)]
    play(table_of(rounds[0], 5), 4, penalties=(3,))
    htmls = [html for round in rounds for html in documents.round_sheet_documents(round)]
    htmls.append(documents.round_sheet_documents(rounds[0], blank=True)[0])

    def texts(paths):
        return [PdfReader(path).pages[0].extract_text() for path in paths]

    settings.PDF_CACHE_DIR = tmp_path / "serial"
    serial = texts(render.pdf_files(htmls, workers=1))
    settings.PDF_CACHE_DIR = tmp_path / "pool"
    pooled = texts(render.pdf_files(htmls, workers=2, parallel_min=1))
    assert len(pooled) == 5 and pooled == serial


def test_a_round_is_merged_from_per_table_pdfs_in_order(tournament):
    round = seated_round(tournament)
    htmls = documents.round_sheet_documents(round)
    merged = PdfReader(render.merged_pdf_file(htmls))
    singles = [PdfReader(path).pages[0].extract_text() for path in render.pdf_files(htmls)]
    assert [page.extract_text() for page in merged.pages] == singles
    assert [item.title for item in merged.outline] == ["Runde 1 · Tisch 1", "Runde 1 · Tisch 2"]


def test_draft_round_seating_plan_says_draft(client, director, tournament):
    draft = seated_round(tournament, publish=False)
    assert draft.status == Round.Status.DRAFT
    text = get_pdf(client, director, "round_seating_pdf", "herbst", draft.number)[0]
    assert "Entwurf" in text


def test_print_buttons_link_to_the_pdfs(tournament, round):
    table = round.tables.get(number=1)
    context = {"tournament": tournament, "round": round, "table": table, "after_round": 1}
    html = "".join(render_to_string(f"print/_buttons_{kind}.html", context) for kind in ("round", "table", "standings"))
    for name, args, query in [("round_sheets_pdf", ["herbst", 1], ""), ("round_sheets_pdf", ["herbst", 1], "?blank=1"),
                              ("round_seating_pdf", ["herbst", 1], ""), ("table_pdf", ["herbst", 1, 1], ""),
                              ("table_pdf", ["herbst", 1, 1], "?blank=1"), ("standings_pdf", ["herbst"], "?round=1")]:
        assert f'href="{reverse(f"tournament:{name}", args=args)}{query}"' in html


def test_a_new_version_of_a_round_pdf_replaces_the_old_merged_copy(client, director, round, pdf_cache):
    get_pdf(client, director, "round_sheets_pdf", "herbst", 1)
    play(table_of(round, 4), 1)
    get_pdf(client, director, "round_sheets_pdf", "herbst", 1)
    get_pdf(client, director, "round_sheets_pdf", "herbst", 1, query="?blank=1")
    assert sorted(path.name.rsplit("-", 1)[0] for path in pdf_cache.glob("merged-*.pdf")) == [
        "merged-herbst-r1-blank", "merged-herbst-r1-sheets"]


def test_filled_sheet_prints_a_doubling_after_a_nullspiel(client, director, round):
    table = table_of(round, 4)
    # game 1: Re wins 1, Kontra's Fuchs takes it back: a Nullspiel, so game 2 counts double
    results.save_game(table=table, data=normal_game(table, 1, extras={"kontra": {"fuchs": 1}}))
    results.save_game(table=table, data=normal_game(table, 2))
    rows = sheet_rows(get_pdf(client, director, "table_pdf", "herbst", 1, table.number)[0]).splitlines()
    assert "Ko F Re 0" in rows[0] and "×2" not in rows[0]
    assert "Re 2 ×2 Null +2 2 +2 2 −2 −2 −2 −2" in rows[1]


def test_totals_only_sheet_prints_the_entered_totals(client, director, round):
    table = table_of(round, 4)
    ids = seat_ids(table)
    sheet_state.enter_totals(table=table, totals=dict(zip(ids, [12, 3, -5, -10], strict=True)))
    text = get_pdf(client, director, "table_pdf", "herbst", 1, table.number)[0]
    assert "Nur Endstände eingetragen." in text
    assert re.search(r"alle Spieler zusammen: 0 ✓ \(Nullsumme\)\s+12 3 −5 −10", text)


def test_a_round_reads_its_sheets_in_a_fixed_number_of_queries(director):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for players, slug in ((9, "neun"), (37, "siebenunddreissig")):
        tournament = make_tournament(players=players, director=director, slug=slug, name=slug)
        round = seated_round(tournament)
        for table in round.tables.all():
            play(table, 2)
        with CaptureQueriesContext(connection) as captured:
            htmls = documents.round_sheet_documents(round)
        assert len(htmls) == round.tables.count()
        counts.append(len(captured))
    assert counts == [6, 6]  # the same whatever the number of tables


def test_pdfs_of_a_generated_tournament_have_the_right_pages_and_text(client, director):
    from tournament.services.generate import generate_tournament

    tournament = generate_tournament(players=41, rounds=2, seed="druck", slug="generiert")
    tournament.directors.add(director)
    round = tournament.rounds.get(number=2)
    tables = list(round.tables.order_by("number"))
    assert len(tables) == 10  # 41 players: nine tables of 4, one of 5
    sheets = get_pdf(client, director, "round_sheets_pdf", "generiert", 2)
    assert len(sheets) == len(tables)
    for table, text in zip(tables, sheets, strict=True):
        assert f"Tisch {table.number}" in text
        assert "alle Spieler zusammen: 0 ✓" in text  # filled, and zero-sum
        for seat in table.seats.select_related("entry__player"):
            assert seat.entry.player.name in text
    names = list(tournament.entries.values_list("player__name", flat=True))
    standings_text = "\n".join(get_pdf(client, director, "standings_pdf", "generiert"))
    assert all(name in standings_text for name in names)
    seating_text = "\n".join(get_pdf(client, director, "round_seating_pdf", "generiert", 2))
    assert all(name in seating_text for name in names)


def test_a_sheet_with_long_names_stays_on_one_page(client, director):
    """Long names and clubs at a table of 5 make no row taller: the blank and the filled sheet are one
    page each."""
    tournament = make_tournament(players=0, director=director, slug="lang")
    for name in ("Maximilian-Alexander von Hohenzollern-Sigmaringen", "Anna-Katharina Schmidt-Rottluff-Brandenburg",
                 "Bernd", "Carla Ödegaard-Jürgensen", "Dieter Müller-Lüdenscheidt-Wanne-Eickel"):
        tournaments.register_player(tournament=tournament, name=name, club="Doppelkopfclub Herz-Dame e.V.")
    table = seated_round(tournament).tables.get()
    blank = get_pdf(client, director, "table_pdf", "lang", 1, table.number, query="?blank=1")
    assert len(blank) == 1
    play(table, 10)
    filled = get_pdf(client, director, "table_pdf", "lang", 1, table.number)
    assert len(filled) == 1 and "Summe" in filled[0]


def qr_width_mm(pdf: bytes, tmp_path, dpi: int = 300) -> float:
    """The width of the QR code printed in the top right corner of a sheet's first page, measured on
    the page rendered by pdftoppm: the dark pixels of its top 4 mm (the two upper finder patterns)."""
    import subprocess

    from PIL import Image

    (tmp_path / "sheet.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(dpi), "-f", "1", "-l", "1", "-gray", "-png", str(tmp_path / "sheet.pdf"),
                    str(tmp_path / "sheet")], check=True)
    image = Image.open(next(tmp_path.glob("sheet*.png"))).convert("L")
    mm = dpi / 25.4
    left, top, right, bottom = int(250 * mm), int(8 * mm), image.width, int(45 * mm)  # landscape A4: 297 mm
    dark = [(x, y) for y in range(top, bottom) for x in range(left, right) if image.getpixel((x, y)) < 128]
    first = min(y for _x, y in dark)
    xs = [x for x, y in dark if y < first + 4 * mm]
    image.save(tmp_path / "measured.png")
    return (max(xs) - min(xs) + 1) / mm


@pytest.mark.parametrize("pflichtsoli", [False, True])
def test_the_qr_code_on_a_blank_sheet_is_at_least_20_mm_and_the_sheet_one_page(tmp_path, tournament, pflichtsoli):
    """A phone's camera reads the code from across the table (20 mm at least); the sheet with the most
    rows (a table of 5 in a list with Pflichtsoli, 30 games) still fits one page."""
    if pflichtsoli:
        tournament.pflichtsoli = tournament.Pflichtsoli.SAME_DEALER
        tournament.games_at_table_of_4, tournament.games_at_table_of_5 = 24, 30
        tournament.save()
    round = seated_round(tournament)
    htmls = documents.round_sheet_documents(round, blank=True, link_base="http://192.168.1.20:8000")
    table = table_of(round, 5)
    assert table.link_token and "Spiele per Handy eintragen" in htmls[table.number - 1]
    pdf = render.pdf_file(htmls[table.number - 1]).read_bytes()
    assert len(PdfReader(BytesIO(pdf)).pages) == 1
    assert qr_width_mm(pdf, tmp_path) >= 20


# ---- every phone and every eye reads it ---------------------------------------

def pdf_of(client, director, name, *args, query="", language="de") -> bytes:
    client.force_login(director)
    response = client.get(reverse(f"tournament:{name}", args=args) + query, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return b"".join(response.streaming_content) if response.streaming else response.content


def text_sizes(pdf: bytes) -> dict[str, float]:
    """Every piece of text on the first page with the smallest size it is printed in (pt)."""
    sizes: dict[str, float] = {}

    def visit(text, cm, tm, _font, size):
        if text.strip():
            printed = size * abs(tm[3]) * abs(cm[3])
            sizes[text.strip()] = min(sizes.get(text.strip(), printed), printed)

    PdfReader(BytesIO(pdf)).pages[0].extract_text(visitor_text=visit)
    return sizes


@pytest.mark.skipif(not (shutil.which("pdftoppm") and shutil.which("zbarimg")),
                    reason="needs poppler-utils and zbar-tools (make setup installs them)")
@pytest.mark.parametrize("filled", [False, True])
def test_the_qr_code_reads_at_100_dpi_on_blank_and_filled_sheets(client, director, round, tmp_path, filled):
    table = table_of(round, 4)
    if filled:
        play(table, 2)
    pdf = pdf_of(client, director, "table_pdf", "herbst", 1, table.number)
    assert ("2 von 8 Spielen eingetragen" in PdfReader(BytesIO(pdf)).pages[0].extract_text()) == filled
    (tmp_path / "sheet.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "100", "-png", "-f", "1", "-l", "1", str(tmp_path / "sheet.pdf"),
                    str(tmp_path / "page")], check=True)
    decoded = subprocess.run(["zbarimg", "--quiet", "--raw", str(next(tmp_path.glob("page*.png")))],
                             capture_output=True, text=True)
    table.refresh_from_db()
    assert decoded.stdout.strip() == "http://testserver" + reverse("table_link", args=[table.link_token])
    assert qr_width_mm(pdf, tmp_path) >= 20


def test_round_and_table_are_one_line_on_the_sheet(client, director, round):
    text = get_pdf(client, director, "table_pdf", "herbst", 1, 1, query="?blank=1")[0]
    assert re.search(r"Runde 1 · Tisch 1(?!\d)", text) and "Tisch\n" not in text


def test_no_text_on_a_sheet_is_smaller_than_8_pt(client, director, round):
    """The head, the QR code's caption, the legend, signatures and footer included (a list of up to 21
    games; a longer one prints its rows in 7.5 pt)."""
    play(table_of(round, 4), 2, penalties=(1,))
    for table, query in ((table_of(round, 4), ""), (table_of(round, 5), "?blank=1")):
        sizes = text_sizes(pdf_of(client, director, "table_pdf", "herbst", 1, table.number, query=query))
        assert "Spiele per Handy eintragen" in " ".join(sizes) and any("k90/k60/k30" in text for text in sizes)
        small = {text: size for text, size in sizes.items() if size < 7.99}
        assert not small


def test_titles_and_footers_of_seating_and_standings_do_not_break_mid_phrase(client, director):
    tournament = make_tournament(players=8, director=director, slug="lang",
                                 name="Doppelkopf-Vereinsmeisterschaft des DK Herz-Dame Münster-Hiltrup 2026",
                                 place="Bürgerhaus Münster-Hiltrup, Großer Saal")
    seated_round(tournament)
    seating = "\n".join(get_pdf(client, director, "round_seating_pdf", "lang", 1))
    standings = "\n".join(get_pdf(client, director, "standings_pdf", "lang"))
    for text in (seating, standings):
        assert "21. November 2026" in text and "Bürgerhaus Münster-Hiltrup, Großer Saal" in text
        assert "Seite 1 von " in text
    assert "Sitzplan Runde 1 Seite 1 von 2" in seating
    for pdf in (pdf_of(client, director, "round_seating_pdf", "lang", 1),
                pdf_of(client, director, "standings_pdf", "lang")):
        assert min(text_sizes(pdf).values()) >= 7.99


def test_english_printouts_keep_no_german_words_of_the_interface(client, director, tournament, round):
    play(table_of(round, 4), 1)
    sheet = PdfReader(BytesIO(pdf_of(client, director, "table_pdf", "herbst", 1, table_of(round, 4).number,
                                     language="en"))).pages[0].extract_text()
    assert "Round 1 · Table" in sheet and "k90/k60/k30 = no 90/60/30" in " ".join(sheet.split())
    assert "keine" not in sheet
    standings = PdfReader(BytesIO(pdf_of(client, director, "standings_pdf", "herbst", language="en"))).pages[0]
    heads = standings.extract_text().split("\n")
    assert any(line.startswith("Rank No. Player Club") for line in heads), heads[:8]


# ---- teams in the standings ------------------------------------------------------------

def test_standings_pdf_has_the_teams_the_clubs_the_match_day_and_the_cup_after_the_players(client, director):
    from tournament.services import teams

    tournament = make_tournament(players=8, director=director, slug="spieltag")
    by_number = dict(tournament.entries.values_list("start_number", "id"))
    for name, members in (("Die Asse", (1, 5)), ("Füchse", (2, 6)), ("Kreuz Dame", (3, 7)), ("Pik Sieben", (4, 8))):
        teams.create_team(tournament=tournament, name=name, members=[by_number[n] for n in members])
    teams.set_team_options(tournament=tournament, team_count=None, club_count=0, teams_apart=False, team_match=True,
                           cup_advance=2)
    round = seated_round(tournament)
    for table in round.tables.all():
        play(table, 2)
    text = " ".join(" ".join(get_pdf(client, director, "standings_pdf", "spieltag")).split())
    players_at = text.index("Summe aller Punkte")
    assert text.index("Teamwertung") > players_at
    assert "Spieltag: Siegpunkte" in text and "Siegpunkte" in text and "Pokalgruppe" in text
    assert "weiter" in text and "ausgeschieden" in text
    assert "Vereinswertung" in text and "DK Nord" in text
    for name in ("Die Asse", "Füchse", "Kreuz Dame", "Pik Sieben"):
        assert text.count(name) >= 3  # the match day, the cup, the teams


def test_standings_pdf_without_teams_or_club_ranking_has_no_team_standings(client, director, round):
    play(table_of(round, 4), 2)
    text = "\n".join(get_pdf(client, director, "standings_pdf", "herbst"))
    assert "Teamwertung" not in text and "Vereinswertung" not in text
