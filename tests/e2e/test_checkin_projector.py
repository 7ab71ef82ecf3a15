"""Registration -> check-in -> draw, the projector page paging by itself, and the phone's notice of
where its player sits, in Chromium. With SHOTS=<folder> the pages are
also photographed at 360 and 1280 px."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.tournament.factories import make_director, make_tournament, play_round, seated_round
from tournament.models import Seat
from tournament.services import checkin, round_clock, seating

from .test_evening import login

SHOTS = os.environ.get("SHOTS")


def shoot(page, name):
    """Screenshots at 360 and 1280 px wide, when SHOTS names a folder."""
    if not SHOTS:
        return
    size = page.viewport_size
    for width in (360, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        page.screenshot(path=str(Path(SHOTS) / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size(size)


def test_registration_checkin_and_draw(live_server, page, browser):
    director = make_director("leitung")
    tournament = make_tournament(players=0, director=director, slug="offen")
    checkin.set_registration(tournament=tournament, open=True, limit=9)
    # the players register on their phones: nine places, the tenth waits
    phone = browser.new_context(locale="de-DE", viewport={"width": 360, "height": 740}).new_page()
    names = ["Anna Alt", "Bernd Bach", "Carla Christ", "Dieter Dorn", "Emil Eck", "Frieda Fuchs", "Gustav Gans",
             "Hanna Horn", "Ida Igel", "Jan Jäger"]
    for number, name in enumerate(names):
        phone.goto(f"{live_server.url}/t/offen/anmeldung/")
        phone.get_by_role("textbox", name="Name").fill(name)
        phone.get_by_label("Verein").fill("DK Nord")
        phone.get_by_label("Kontakt (E-Mail oder Telefon)").fill(f"spieler{number}@example.org")
        phone.get_by_role("button", name="Anmelden").click()
    # the last lands on the private page of a waiting registration (its confirmation)
    expect(phone.get_by_text("Jan Jäger steht auf der Warteliste")).to_be_visible()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Auf der Warteliste: Platz 1")
    assert "@example.org" not in phone.content()
    phone.goto(f"{live_server.url}/t/offen/anmeldung/")
    expect(phone.locator("ol.waiting")).to_contain_text("Jan Jäger")
    assert "@example.org" not in phone.content()
    shoot(phone, "registration")

    login(page, live_server, "leitung")
    page.goto(f"{live_server.url}/t/offen/anmeldungen/")
    expect(page.locator("table.registrations")).to_contain_text("spieler0@example.org")  # the director's list
    shoot(page, "registrations")
    page.locator("tr", has_text="Bernd Bach").get_by_role("button", name="Anmeldung streichen").click()
    expect(page.get_by_text("Jan Jäger rückt von der Warteliste nach.")).to_be_visible()

    # the evening: six of nine come, two walk in -> eight at two tables
    page.goto(f"{live_server.url}/t/offen/checkin/")
    page.get_by_label("Name suchen").fill("ann")
    expect(page.locator("#checkin-list li:visible")).to_have_count(2)  # Anna Alt, Hanna Horn
    for name in ["Anna Alt", "Carla Christ", "Dieter Dorn", "Emil Eck", "Frieda Fuchs", "Jan Jäger"]:
        page.get_by_label("Name suchen").fill(name.split()[0])
        page.locator("#checkin-list li:visible", has_text=name).get_by_role("button").click()
        expect(page.locator("#checkin-list li.present", has_text=name)).to_have_count(1)
    for name in ["Zora Zeh", "Yusuf Ypsilon"]:
        page.locator("#walk-in").get_by_label("Name").fill(name)
        page.get_by_role("button", name="Anmelden und anwesend").click()
        expect(page.get_by_text(f"{name} ist angemeldet und anwesend")).to_be_visible()
    expect(page.locator("#checkin-count")).to_contain_text("8 von 11 Spielern anwesend")
    page.get_by_label("Name suchen").fill("")
    shoot(page, "checkin")

    page.goto(f"{live_server.url}/t/offen/")
    page.get_by_role("button", name="Nächste Runde anlegen").click()
    page.get_by_role("button", name="Auslosen", exact=True).click()
    seated = set(Seat.objects.filter(round__tournament=tournament).values_list("entry__player__name", flat=True))
    assert seated == {"Anna Alt", "Carla Christ", "Dieter Dorn", "Emil Eck", "Frieda Fuchs", "Jan Jäger", "Zora Zeh",
                      "Yusuf Ypsilon"}


@pytest.mark.browser_only  # the page turning its pages by itself: what the browser does
def test_projector_pages_by_itself(live_server, page):
    director = make_director("beamer")
    tournament = make_tournament(players=60, director=director, slug="beamer")
    round = play_round(tournament)
    round_clock.start_clock(round=round)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{live_server.url}/t/beamer/beamer/?seconds=1")
    expect(page.locator("#beamer-title")).to_have_text("Runde 1: Wer sitzt wo")
    expect(page.locator("#beamer-page")).to_have_text(re.compile(r"Seite 1 / [2-9]"))
    expect(page.locator(".beamer-clock .clock-left")).to_have_text(re.compile(r"noch \d+ Min\."))
    first = page.locator("#beamer-seating li:visible").first.inner_text()
    shoot(page, "projector-seating")
    expect(page.locator("#beamer-page")).to_have_text(re.compile(r"Seite 2 / "), timeout=5000)
    assert page.locator("#beamer-seating li:visible").first.inner_text() != first
    expect(page.locator("#beamer-title")).to_have_text("Tabelle", timeout=15000)
    expect(page.locator("#beamer-standings li:visible").first).to_contain_text("1.")
    shoot(page, "projector-standings")


def test_phone_shows_the_seat_when_the_round_is_published(live_server, page):
    director = make_director("handy")
    tournament = make_tournament(players=8, director=director, slug="handy")
    play_round(tournament)
    seating.close_round(round=tournament.rounds.get(number=1))
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server.url}/t/handy/standings/")
    row = page.locator("tr", has_text="Carla")
    row.locator(".me-toggle").click()  # "Das bin ich"
    expect(page.locator("#seat-notice")).to_be_empty()  # round 1 is over, round 2 not out yet
    round = seated_round(tournament, seed="zwei", publish=False)
    seating.publish_round(round=round)
    round_clock.start_clock(round=round)
    seat = Seat.objects.select_related("table").get(round=round, entry__player__name__startswith="Carla")
    page.evaluate("window.dokoRefreshStandings()")  # the page's poll, without waiting 30 s
    notice = page.locator("#seat-notice .seat-notice")
    expect(notice).to_contain_text(f"Runde 2: dein Platz ist Tisch {seat.table.number}, Platz {seat.position}")
    expect(notice.locator(".clock-left")).to_have_text(re.compile(r"noch \d+ Min\."))
    assert page.locator("#seat-notice").bounding_box()["y"] < page.locator("h1").bounding_box()["y"]
    shoot(page, "seat-notice")
    # the player's page shows it too
    page.locator("#standings-live").get_by_role("link", name=re.compile("Carla")).first.click()
    expect(page.locator("#seat-notice .seat-notice")).to_contain_text("Runde 2")
