"""The seating plan for the wall (`seating.pdf`, docs/printing.md) on a realistic evening: 23 players
with long German names and long club names, five tables. The tables start on page 1 and take at most
two pages; the alphabetical list goes by surname, and no row of it is split between two columns or
pages (the name at the top of one, its "Nr. … Tisch … · Platz …" at the bottom of the other).
Read back with pypdf, with where each piece of text is printed."""

from io import BytesIO

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tournament.services import tournaments

from ..factories import make_tournament, seated_round

pytestmark = pytest.mark.django_db

NAMES = ["Hans-Joachim Brinkmann-Oberdieck", "Anna Alt", "Karl-Heinz Schulze-Westerhoff", "Maria Überall",
         "Friedrich Wilhelm von der Heide", "Ulrike Zimmermann-Kötter", "Bernd Müller", "Gisela Hoffmann",
         "Wolfgang Kleinschmidt", "Elisabeth Dörnbrack-Rautenberg", "Jürgen Größ", "Heike Sonnenschein",
         "Klaus-Dieter Vogelsang", "Renate Baumgärtner", "Peter Ostendorf", "Christa Lüdenscheidt-Brauer",
         "Manfred Esser", "Ingrid Kuhlmann", "Dieter Schäfer", "Hannelore Nießen-Pohlmann", "Rolf Terhorst",
         "Waltraud Quast", "Egon Yildirim"]  # every first word differs: it finds the name's first line
CLUBS = ["Doppelkopfclub Herz-Dame Münster-Hiltrup 1987 e. V.", "DK Kreuz-Bube Recklinghausen-Süd",
         "Doko-Freunde Gelsenkirchen-Buer von 1968"]
BY_SURNAME = ["Anna Alt", "Renate Baumgärtner", "Hans-Joachim Brinkmann-Oberdieck", "Elisabeth Dörnbrack-Rautenberg",
              "Manfred Esser", "Jürgen Größ", "Friedrich Wilhelm von der Heide", "Gisela Hoffmann",
              "Wolfgang Kleinschmidt", "Ingrid Kuhlmann", "Christa Lüdenscheidt-Brauer", "Bernd Müller",
              "Hannelore Nießen-Pohlmann", "Peter Ostendorf", "Waltraud Quast", "Dieter Schäfer",
              "Karl-Heinz Schulze-Westerhoff", "Heike Sonnenschein", "Rolf Terhorst", "Maria Überall",
              "Klaus-Dieter Vogelsang", "Egon Yildirim", "Ulrike Zimmermann-Kötter"]


def printed(pdf: bytes) -> list[list[tuple[float, float, str]]]:
    """Per page, every piece of text with where it starts on the page (x from the left, y from the top,
    in pt)."""
    pages = []
    for page in PdfReader(BytesIO(pdf)).pages:
        height = float(page.mediabox.height)
        pieces: list[tuple[float, float, str]] = []

        def visit(text, cm, tm, _font, _size, pieces=pieces, height=height):
            if text.strip():
                x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
                y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
                pieces.append((x, height - y, text.strip()))

        page.extract_text(visitor_text=visit)
        pages.append(pieces)
    return pages


@pytest.fixture(autouse=True)
def pdf_cache(settings, tmp_path):
    settings.PDF_CACHE_DIR = tmp_path / "pdf-cache"
    settings.PDF_WORKERS = 1


# a big evening of double first names and double surnames: every row of the list is two or three lines
# high, so that some column break of the list falls where a row would be split
LONG = [f"{first} {last}" for first in ("Hans-Joachim", "Karl-Heinz", "Klaus-Dieter", "Anna-Lena", "Eva-Maria",
                                        "Hans-Peter", "Marie-Luise", "Franz-Josef", "Rosemarie", "Hannelore",
                                        "Wolfgang", "Friedrich")
        for last in ("Brinkmann-Oberdieck", "Schulze-Westerhoff", "Lüdenscheidt-Brauer", "Nießen-Pohlmann",
                     "Dörnbrack-Rautenberg")]


def make_evening(director, names):
    tournament = make_tournament(players=0, director=director, slug="abend", name="Herbstturnier Münster",
                                 place="Köln")
    for number, name in enumerate(names):
        tournaments.register_player(tournament=tournament, name=name, club=CLUBS[number % len(CLUBS)])
    return seated_round(tournament)


@pytest.fixture
def evening(director):
    round = make_evening(director, NAMES)
    assert sorted(t.seats.count() for t in round.tables.all()) == [4, 4, 5, 5, 5]
    return round


def seating_pdf(client, director) -> bytes:
    client.force_login(director)
    response = client.get(reverse("tournament:round_seating_pdf", args=["abend", 1]))
    assert response.status_code == 200
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_five_tables_start_on_page_one_and_take_at_most_two_pages(client, director, evening):
    pages = [[text for _x, _y, text in page] for page in printed(seating_pdf(client, director))]
    list_page = next(i for i, page in enumerate(pages) if any("Wer sitzt wo?" in text for text in page))
    assert 1 <= list_page <= 2, f"the tables take {list_page} pages"
    assert {"Tisch 1", "Tisch 2"} <= set(pages[0]), pages[0]  # page 1 is not its heading alone
    boxes = [text for page in pages[:list_page] for text in page]
    assert [f"Tisch {n}" for n in range(1, 6)] == [text for text in boxes if text.startswith("Tisch ")]
    for name in NAMES:
        assert any(text.startswith(name.split()[0]) for text in boxes), name
    assert len(pages) == list_page + 1  # 23 players: the list is one page


def spelled(stream, name):
    """Where the run of pieces of text that spells `name` starts (a name wraps at a space or after a
    hyphen): (page, right column, x, y)."""
    for i, (place, text) in enumerate(stream):
        for _place, piece in stream[i + 1:i + 4]:
            if text == name or not name.startswith(text):
                break
            text += piece if text.endswith("-") else " " + piece
        if text == name:
            return place
    raise AssertionError(f"{name} is not in the list")


@pytest.mark.parametrize("names", [NAMES, LONG], ids=["23 players", "60 long names"])
def test_the_list_goes_by_surname_and_keeps_each_row_in_one_column(client, director, names):
    round = make_evening(director, names)
    pages = printed(seating_pdf(client, director))
    list_page = next(i for i, page in enumerate(pages) if any("Wer sitzt wo?" in text for _x, _y, text in page))
    middle = 595.28 / 2  # A4: the column gap is in the middle
    stream = [((number, x >= middle, x, y), text)
              for number, page in enumerate(pages[list_page:], start=list_page) for x, y, text in page]
    found: dict[str, list] = {}
    for place, text in stream:
        found.setdefault(text, []).append(place)
    order = []
    for seat in round.tables.all().values_list("number", "seats__position", "seats__entry__start_number",
                                               "seats__entry__player__name"):
        table, position, start_number, name = seat
        (nr,) = found[f"Nr. {start_number}"]
        (where,) = found[f"Tisch {table} · Platz {position}"]
        first = spelled(stream, name)
        # the name, its number and its table on one page, in one column, the name's first line at most
        # a few lines above the number (a long name wraps; the row's cells are aligned in its middle)
        assert first[:2] == nr[:2] == where[:2], (name, first, nr, where)
        assert 0 <= nr[3] - first[3] + 3 < 60, (name, first, nr)
        order.append((first[0], first[1], first[3], name))
    by_surname = BY_SURNAME if names is NAMES else sorted(
        LONG, key=lambda name: (name.split()[1].replace("ü", "u").replace("ö", "o").replace("ß", "ss"), name))
    assert [name for *_where, name in sorted(order)] == by_surname
