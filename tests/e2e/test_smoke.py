"""The start page, the login page and a director's login, in a real browser."""
import re

from playwright.sync_api import expect

from config.settings import BASE_DIR


def test_start_page_login_and_logout(live_server, page, django_user_model):
    django_user_model.objects.create_user(username="leitung", password="karo-bube-42", is_staff=True)

    page.goto(live_server.url + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Doko-Turnier")
    expect(page.get_by_text("Noch keine Turniere.")).to_be_visible()

    page.get_by_role("link", name="Einloggen").click()
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Einloggen")

    page.get_by_label("Benutzername").fill("leitung")
    page.get_by_label("Passwort").fill("falsch")
    page.get_by_role("button", name="Einloggen").click()
    expect(page.get_by_text("Bitte Benutzername und Passwort eingeben.")).to_be_visible()

    page.get_by_label("Passwort").fill("karo-bube-42")
    page.get_by_role("button", name="Einloggen").click()
    expect(page).to_have_url(live_server.url + "/")
    expect(page.get_by_text("Eingeloggt als leitung")).to_be_visible()

    page.get_by_role("button", name="Ausloggen").click()
    expect(page.get_by_role("link", name="Einloggen")).to_be_visible()


def test_language_switch_to_english(live_server, page):
    assert (BASE_DIR / "locale/en/LC_MESSAGES/django.mo").exists(), "run `make messages` (compilemessages)"

    page.goto(live_server.url + "/")
    page.get_by_role("button", name="English").click()
    expect(page.get_by_text("No tournaments yet.")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("button", name="Deutsch").click()
    expect(page.get_by_text("Noch keine Turniere.")).to_be_visible()
