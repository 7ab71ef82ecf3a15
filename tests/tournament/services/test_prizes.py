"""Categories and the prize list (docs/competitions.md, "Categories and the prize list"): a player's
categories on the edit page, the tournament's own on the settings page, the standings of one
category, the prize list as a page and as PDF."""

from __future__ import annotations

import datetime
from io import BytesIO

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tournament.errors import UserError
from tournament.models import Entry
from tournament.selectors import prizes as selectors
from tournament.services import player_details

from .test_series import evening

pytestmark = pytest.mark.django_db

NORD = "DK Nord"
# one round, two tables of four, entered as totals: the places are 1 Anna … 8 Hanna
PLAYERS = [("Anna", NORD, 40), ("Bernd", NORD, 30), ("Carla", NORD, 20), ("Dieter", NORD, -90),
           ("Emil", NORD, 15), ("Frieda", NORD, 10), ("Gustav", NORD, 5), ("Hanna", NORD, -30)]


@pytest.fixture(autouse=True)
def pdf_cache(settings, tmp_path):
    settings.PDF_CACHE_DIR = tmp_path / "pdf-cache"
    settings.PDF_WORKERS = 1


@pytest.fixture
def tournament(director):
    tournament = evening(director, "Preisturnier", datetime.date(2026, 5, 2), PLAYERS, slug="preise")
    tournament.categories = ["Ü70"]
    tournament.save()
    for name, categories in {"Anna": ["Damen"], "Carla": ["Damen", "Senioren"], "Frieda": ["Damen"],
                             "Gustav": ["Ü70"], "Hanna": ["Jugend"]}.items():
        player_details.set_categories(entry=tournament.entries.get(player__name=name), categories=categories)
    return tournament


def groups(prizes):
    return [(g.category, [line.row.name for line in g.lines], list(g.passed_over))
            for g in prizes.groups]


def test_the_prize_list_gives_one_prize_per_player_by_default(tournament):
    prizes = selectors.prize_list(tournament, include_hidden=False)
    assert groups(prizes) == [(None, ["Anna", "Bernd", "Carla"], []), ("Damen", ["Frieda"], ["Anna", "Carla"]),
                              ("Jugend", ["Hanna"], []), ("Senioren", [], ["Carla"]), ("Gast", [], []),
                              ("Ü70", ["Gustav"], [])]
    several = selectors.prize_list(tournament, include_hidden=False, overall=1, once=False)
    assert groups(several)[:2] == [(None, ["Anna"], []), ("Damen", ["Anna"], [])]


def test_a_category_the_tournament_does_not_offer_is_refused(tournament):
    with pytest.raises(UserError) as error:
        player_details.set_categories(entry=tournament.entries.first(), categories=["Profis"])
    assert error.value.field == "categories"
    assert Entry.history.filter(log_tournament=tournament.pk, log_action="categories_changed").count() == 5


def test_the_pages_the_pdf_and_the_standings_of_one_category(client, tournament):
    page = client.get(reverse("tournament:prizes", kwargs={"slug": "preise"}))
    text = page.content.decode()
    assert page.status_code == 200 and text.index("Frieda") < text.index("Hanna") < text.index("Gustav")
    assert "Schon mit einem Preis bedacht: Anna, Carla." in text
    pdf = client.get(reverse("tournament:prizes_pdf", kwargs={"slug": "preise"}), {"plaetze": "2"})
    assert pdf.status_code == 200
    content = b"".join(pdf.streaming_content)
    words = "".join(p.extract_text() for p in PdfReader(BytesIO(content)).pages)
    assert "Preisliste" in words and "Carla" in words and "Frieda" not in words  # Carla: Damen, not 3rd overall
    standings = client.get(reverse("tournament:standings", kwargs={"slug": "preise"}), {"kategorie": "Damen"})
    text = standings.content.decode()
    assert "Frieda" in text and "Anna" in text and "Bernd" not in text
    assert 'href="?round=1&amp;kategorie=Damen"' in text  # the rounds' links keep the category


def test_the_director_sets_categories_on_the_edit_page_and_own_ones_in_the_settings(client, director, tournament):
    from tournament.forms.tournaments import SettingsForm

    client.force_login(director)
    bernd = tournament.entries.get(player__name="Bernd")
    url = reverse("tournament:player_edit", kwargs={"slug": "preise", "entry_id": bernd.pk})
    data = {"name": "Bernd", "club": NORD, "loaded_name": "Bernd", "loaded_club": NORD, "member_number": "",
            "categories": ["Senioren", "Ü70"]}
    assert client.post(url, data).status_code == 302
    assert Entry.objects.get(pk=bernd.pk).categories == ["Senioren", "Ü70"]
    assert client.post(url, {**data, "categories": ["Profis"]}).status_code == 200  # not offered: a form error
    form = SettingsForm(tournament=tournament)
    settings = {name: value for name, value in form.initial.items() if value not in (None, False)}
    settings.update(date="2026-05-02", categories="Ü70, Vereinsmeister, Damen, Ü70")
    assert client.post(reverse("tournament:settings", kwargs={"slug": "preise"}), settings).status_code == 302
    tournament.refresh_from_db()
    assert tournament.categories == ["Ü70", "Vereinsmeister"]


def test_the_english_prize_list_names_the_places_it_gives(client, tournament):
    """A walk-through found "Overall: place 3" over three places (the plural's translation)."""
    page = client.get(reverse("tournament:prizes", kwargs={"slug": "preise"}), {"plaetze": "3"},
                      HTTP_ACCEPT_LANGUAGE="en")
    assert "Overall: places 1 to 3" in page.content.decode()


def pdf_words(client, **query) -> str:
    pdf = client.get(reverse("tournament:prizes_pdf", kwargs={"slug": "preise"}), query)
    assert pdf.status_code == 200
    return "".join(p.extract_text() for p in PdfReader(BytesIO(b"".join(pdf.streaming_content))).pages)


def test_the_prize_list_says_it_is_provisional_while_a_round_is_open(client, tournament):
    """The standings said "vorläufig" while the round was open, the prize list's PDF did not."""
    from tournament.services import seating

    words = pdf_words(client)
    assert "Vorläufige Preisliste nach Runde 1" in words and "vorläufig" in words
    assert "Runde 1: alle Spiele sind eingetragen, die Runde ist noch nicht abgeschlossen." in words
    page = client.get(reverse("tournament:prizes", kwargs={"slug": "preise"})).content.decode()
    assert "Preisliste – vorläufig" in page and "Vorläufige Preisliste nach Runde 1" in page
    seating.close_round(round=tournament.rounds.get(number=1), backup=False)
    words = pdf_words(client)  # (the PDF cache is keyed by the document's content)
    assert "Preisliste" in words and "orläufig" not in words and "nach Runde" not in words
    page = client.get(reverse("tournament:prizes", kwargs={"slug": "preise"})).content.decode()
    assert "orläufig" not in page


# ---- prize amounts (issue "The evening as a club meets it", 6) -------------------------------------------

def settings_post(client, tournament, prizes: str):
    from tournament.forms.tournaments import SettingsForm

    form = SettingsForm(tournament=tournament)
    data = {name: value for name, value in form.initial.items() if value not in (None, False)}
    data.update(date=tournament.date.isoformat(), prizes=prizes)
    return client.post(reverse("tournament:settings", kwargs={"slug": tournament.slug}), data)


def pdf_text(client, query=None) -> str:
    pdf = client.get(reverse("tournament:prizes_pdf", kwargs={"slug": "preise"}), query or {})
    data = b"".join(pdf.streaming_content) if pdf.streaming else pdf.content
    return " ".join(page.extract_text() for page in PdfReader(BytesIO(data)).pages)


def test_the_director_writes_what_each_place_wins_and_the_list_and_its_pdf_show_it(client, director, tournament):
    client.force_login(director)
    response = settings_post(client, tournament, "Gesamt: 1. 50 €; 2. 30 €; 3. 20 €; 4. Gutschein\n"
                                                 "damen: Präsentkorb; Pralinen\nÜ70: Weinflasche")
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.prizes == {"": ["50 €", "30 €", "20 €", "Gutschein"], "Damen": ["Präsentkorb", "Pralinen"],
                                 "Ü70": ["Weinflasche"]}
    # without ?plaetze: as many places as prizes, overall 4, per category 2
    prizes = selectors.prize_list(tournament, include_hidden=True, overall=4, per_category=2)
    assert [(line.row.name, line.prize) for line in prizes.groups[0].lines] == [
        ("Anna", "50 €"), ("Bernd", "30 €"), ("Carla", "20 €"), ("Emil", "Gutschein")]
    page = client.get(reverse("tournament:prizes", kwargs={"slug": "preise"})).content.decode()
    # Anna and Carla have an overall prize: the Damen's first place goes to Frieda, nobody is left for the second
    assert "Gewinn" in page and "Gutschein" in page and "Präsentkorb" in page and "Pralinen" not in page
    assert "Weinflasche" in page and "Plätze 1 bis 4" in page
    text = pdf_text(client)
    assert "Gewinn" in text and "50 €" in text and "Gutschein" in text and "Präsentkorb" in text
    # the settings page shows them as written, one list a line
    settings = client.get(reverse("tournament:settings", kwargs={"slug": "preise"})).content.decode()
    assert "Gesamt: 50 €; 30 €; 20 €; Gutschein\nDamen: Präsentkorb; Pralinen\nÜ70: Weinflasche" in settings


def test_a_prize_line_for_no_category_of_the_tournament_is_refused_with_its_line(client, director, tournament):
    client.force_login(director)
    response = settings_post(client, tournament, "Gesamt: 50 €\nProfis: Pokal")
    assert response.status_code == 200
    assert "Zeile 2: erst „Gesamt“ oder eine Kategorie dieses Turniers" in response.content.decode()
    response = settings_post(client, tournament, "Gesamt: " + "x" * 61)
    assert "ein Preis hat höchstens 60 Zeichen" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.prizes == {}


def test_the_prizes_go_into_the_tournament_file_and_come_back(director, tournament):
    from tournament.services.exporting import export_tournament
    from tournament.services.importing import import_tournament

    tournament.prizes = {"": ["50 €", "30 €"], "Ü70": ["Weinflasche"]}
    tournament.save()
    exported = export_tournament(tournament, backup=False)
    assert exported["prizes"] == {"": ["50 €", "30 €"], "Ü70": ["Weinflasche"]}
    copy = import_tournament({**exported, "slug": "preise-kopie"}, director=director)
    assert copy.prizes == {"": ["50 €", "30 €"], "Ü70": ["Weinflasche"]}
