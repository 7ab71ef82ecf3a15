"""A table enters a game on a phone at 360 px: the link comes from the QR code of the printed blank
score sheet (pdftoppm + zbarimg), the game is typed while the phone is offline, survives a reload
without Wi-Fi, is sent when the connection returns, and arrives on the director's live board, where
one click confirms it."""

from __future__ import annotations

import re
import shutil
import subprocess
import time

import pytest

from tournament.models import DraftGame, Game

from ..tournament.factories import make_director, make_tournament, seated_round
from .offline import go_offline, go_online

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "locale": "de-DE",
         "timezone_id": "Europe/Berlin"}


def login(page, base, username):
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-" + username)
    with page.expect_navigation():
        page.click("main form button[type=submit]")


def qr_link_of_blank_sheet(context, base, tmp_path) -> str:
    response = context.request.get(base + "/t/handy/rounds/1/tables/1/sheet.pdf?blank=1")
    assert response.ok
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(response.body())
    subprocess.run(["pdftoppm", "-r", "200", "-png", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "page")],
                   check=True)
    image = next(tmp_path.glob("page*.png"))
    decoded = subprocess.run(["zbarimg", "--quiet", "--raw", str(image)], capture_output=True, text=True, check=True)
    return decoded.stdout.strip()


@pytest.mark.skipif(not (shutil.which("pdftoppm") and shutil.which("zbarimg")),
                    reason="needs poppler-utils and zbar-tools (make setup installs them)")
def test_a_game_entered_offline_arrives_on_the_board(live_server, browser, tmp_path):
    director = make_director("leitung")
    tournament = make_tournament(players=8, director=director, slug="handy")
    seated_round(tournament)
    base = live_server.url

    desk = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    board = desk.new_page()
    login(board, base, "leitung")
    link = qr_link_of_blank_sheet(desk, base, tmp_path)
    assert re.fullmatch(re.escape(base) + r"/e/[\w-]{24}/", link), link

    phone_context = browser.new_context(**PHONE)
    phone = phone_context.new_page()
    phone.goto(link)
    phone.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null || "
                            "navigator.serviceWorker.ready.then(() => true)")
    phone.evaluate("navigator.serviceWorker.ready")
    phone.get_by_role("button", name=re.compile(r"^1 ")).first.click()  # "Wer bist du?": the player in seat 1
    phone.reload()  # once under the service worker, so that the page is kept for offline use
    assert "Spiel 1 eintragen" in phone.inner_text("#entry-heading")

    go_offline(phone_context, phone)
    started = time.perf_counter()
    re_buttons = phone.locator("#re-buttons button")
    re_buttons.nth(0).click()
    re_buttons.nth(1).click()
    phone.fill("#re-augen", "131")
    phone.click("#save")
    typed = time.perf_counter() - started
    phone.wait_for_selector("#queue:not([hidden])")
    assert "1 Eingabe(n) warten auf Verbindung" in phone.inner_text("#queue")
    assert "Keine Verbindung" in phone.inner_text("#net")
    phone.screenshot(path=str(tmp_path / "phone-offline.png"), full_page=True)

    phone.reload()  # no Wi-Fi: the service worker serves the page, the queue is still on the phone
    assert "1 Eingabe(n) warten auf Verbindung" in phone.inner_text("#queue")
    assert not DraftGame.objects.exists()

    go_online(phone_context, phone)
    phone.wait_for_selector("#queue", state="hidden")
    arrived = time.perf_counter() - started
    assert DraftGame.objects.get().data["re_augen"] == 131
    phone.screenshot(path=str(tmp_path / "phone-sent.png"), full_page=True)

    board.goto(base + "/t/handy/rounds/1/board/")
    assert "Spiel 1 wartet" in board.inner_text("#board")
    board.screenshot(path=str(tmp_path / "board.png"), full_page=True)
    board.click("#board button[value=confirm]")
    board.wait_for_selector("text=Spiel 1 ist bestätigt")
    assert Game.objects.get().re_augen == 131
    print(f"\nphone: typing one game {typed:.2f} s, until it arrived after going online {arrived:.2f} s")
    desk.close()
    phone_context.close()
