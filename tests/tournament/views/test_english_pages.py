"""The players' and the director's pages in English carry no German words of the interface
(docs/accessibility.md). The game's own terms stay German on purpose, as English-speaking Doppelkopf
players use them (the help page says so): Re, Kontra, Augen, Hochzeit, Armut, Fuchs, Karlchen,
Doppelkopf, Bock and the names of the solos. Player and tournament names are data, not interface."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client

from tournament.models import Table
from tournament.services import penalties, table_links, tournaments

from ..factories import make_tournament, normal_game, play_round, seated_round

pytestmark = pytest.mark.django_db

# German words of the interface (whole words, as they would stand on a page), and phrases
GERMAN = ["Tisch", "Tische", "Runde", "Runden", "Spieler", "Spiel", "Spiele", "Punkte", "Rangliste", "Turnier",
          "Turnierleitung", "Turnierhelfer", "Serie", "Verein", "Startnummer", "Platz", "gewonnen", "verloren",
          "eintragen", "Übersicht", "Einstellungen", "Protokoll", "Speichern", "Strafe", "Geber", "Stand", "und",
          "oder", "nicht", "noch", "keine 120", "Wertung", "Summe", "Sprache", "Hilfe", "Anmelden", "Abmelden",
          "Einloggen", "Ausloggen", "bestätigt", "Bestätigen", "Ablehnen", "Gerät", "Name suchen", "Zum Inhalt",
          "alle Spieler", "ja", "nein",
          "Datum", "Ort", "Regelwerk", "Kurzname", "abgelehnt", "wartet", "Eingabe", "Eingaben", "gefangen"]
WORDS = re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in GERMAN) + r")(?![\w-])")


def interface_text(page: str) -> str:
    """What a reader sees and hears: the text outside scripts and styles, attributes that are read out
    (aria-label, title, placeholder, alt), and the phone's words (its JSON "texts")."""
    said = re.findall(r'(?:aria-label|title|placeholder|alt)="([^"]*)"', page)
    texts = re.search(r'<script id="texts" type="application/json">(.*?)</script>', page, re.S)
    if texts:
        said += json.loads(texts.group(1)).values()
    visible = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    visible = re.sub(r"<[^>]+>", " ", visible)
    return html.unescape(" ".join([visible, *said]))


def german_words(page: str) -> list[str]:
    text = interface_text(page)
    text = " ".join(text.split())
    return sorted({f"{m.group(1)!r} in …{text[max(0, m.start() - 40):m.end() + 40]}…" for m in WORDS.finditer(text)})


@pytest.fixture
def evening(director):  # noqa: ARG001 (the director of the tournament)
    tournament = make_tournament(players=8, director=director, slug="cup", name="Autumn Cup")
    play_round(tournament, games=2)
    round2 = seated_round(tournament, seed="r2")
    table = round2.tables.get(number=1)
    penalties.add_penalty(table=table, offender_id=table.seats.first().entry_id, note="revoke")
    token = Table.objects.get(pk=table.pk).link_token
    entry = tournament.entries.first()
    table_links.enter_game(token=token, number=1, data=normal_game(table, 1), key="k1", device="d" * 16,
                           version=0, player_id=entry.pk)
    tournaments.edit_player(entry=entry, name="Anna", club="Eastside")  # the log: club and start number
    tournaments.set_role(tournament=tournament, username=director.username, role="helper", add=False)
    return tournament, token


def test_the_pages_in_english_have_no_german_interface_words(evening, director):
    tournament, token = evening
    entry = tournament.entries.first()
    t = f"/t/{tournament.slug}/"
    public = [t, t + "standings/", t + f"players/{entry.pk}/", t + "rounds/1/", t + "rounds/2/",
              t + "rounds/1/tables/1/zettel/", f"/e/{token}/", "/hilfe/", "/"]
    directors = [t, t + "players/", t + "rounds/2/", t + "rounds/2/tables/1/", t + "rounds/2/tables/1/games/new/",
                 t + "rounds/1/tables/1/games/1/", t + "rounds/2/board/", t + "rounds/2/links/", t + "settings/",
                 t + "log/", t + "standings/", t + f"players/{entry.pk}/edit/"]
    found = []
    for path, client in [(p, Client()) for p in public] + [(p, None) for p in directors]:
        if client is None:
            client = Client()
            client.force_login(director)
        client.cookies["django_language"] = "en"
        response = client.get(path)
        assert response.status_code == 200, path
        found += [f"{path}: {word}" for word in german_words(response.content.decode())]
    assert "stay German on purpose" in Client(HTTP_ACCEPT_LANGUAGE="en").get("/hilfe/").content.decode()
    phone = Client()
    phone.cookies["django_language"] = "en"
    table = Table.objects.get(link_token=token)
    preview = phone.post(f"/e/{token}/preview.json", json.dumps({"number": 2, "data": normal_game(table, 2)}),
                         content_type="application/json")
    words = " ".join(str(item[0]) for item in preview.json()["breakdown"])
    found += [f"the phone's preview: {word}" for word in german_words(words)]
    assert not found, "\n".join(found)
