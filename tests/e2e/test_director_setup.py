"""A director sets up an evening in the browser: tournament, 37 players, round 1 drawn and published."""
import re

from playwright.sync_api import expect

from tests.tournament.factories import player_names
from tournament.services.organisations import default_organisation


def test_director_sets_up_a_tournament(live_server, page, django_user_model):
    director = django_user_model.objects.create_user(username="leitung", password="karo-bube-42")
    default_organisation().organisers.add(director)  # an organiser creates tournaments (docs/security.md)

    page.goto(live_server.url + "/accounts/login/?next=/")
    page.get_by_label("Benutzername").fill("leitung")
    page.get_by_label("Passwort").fill("karo-bube-42")
    page.get_by_role("button", name="Einloggen").click()
    expect(page.get_by_text("Eingeloggt als leitung")).to_be_visible()

    page.get_by_role("link", name="Neues Turnier").click()
    page.get_by_label("Name:", exact=True).fill("Herbstturnier")
    page.get_by_label("Datum").fill("2026-11-21")
    page.get_by_label("Ort").fill("Kiel")
    page.get_by_label("Regelwerk:", exact=True).select_option("turnier")
    page.get_by_role("button", name="Turnier anlegen").click()
    expect(page).to_have_url(re.compile(r"/t/herbstturnier/players/$"))
    expect(page.get_by_text("Turnier „Herbstturnier“ angelegt.")).to_be_visible()

    lines = "\n".join(f"{name}; DK Kiel" for name in player_names(37))
    page.get_by_label("Mehrere Spieler").fill(lines)
    page.get_by_role("button", name="Alle anmelden").click()
    expect(page.get_by_text("37 Spieler angemeldet.")).to_be_visible()
    expect(page.locator("#seating-check")).to_contain_text("37 Spieler: 8 Vierertische, 1 Fünfertisch")
    expect(page.locator("table.players tbody tr")).to_have_count(37)

    page.get_by_role("link", name="Übersicht").click()
    page.get_by_role("button", name="Nächste Runde anlegen").click()
    expect(page).to_have_url(re.compile(r"/t/herbstturnier/rounds/1/$"))
    expect(page.get_by_text("Noch nicht ausgelost.")).to_be_visible()

    page.get_by_label("Startwert").fill("e2e")
    page.get_by_role("button", name="Auslosen", exact=True).click()
    expect(page.get_by_text("Runde 1 ausgelost: 9 Tische, 0 Wiederbegegnungen.")).to_be_visible()
    expect(page.locator('.table-card[data-size="4"]')).to_have_count(8)
    expect(page.locator('.table-card[data-size="5"]')).to_have_count(1)
    expect(page.locator("#round-facts")).to_contain_text("8 Vierertische")
    expect(page.locator("#round-facts")).to_contain_text("1 Fünfertisch")
    expect(page.locator("#repeat-meetings")).to_have_text("0")
    expect(page.locator(".table-card tbody tr")).to_have_count(37)

    page.get_by_role("button", name="Veröffentlichen").click()
    expect(page.get_by_text("Runde 1 ist veröffentlicht: die Tische stehen fest.")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_contain_text("veröffentlicht")
    expect(page.get_by_role("button", name="Abschließen")).to_be_visible()
    expect(page.get_by_role("button", name="Tauschen")).to_have_count(0)
