"""Playwright fixtures: Debian's Chromium (never `playwright install`), headless.

Fixtures: `browser` (one Chromium per test session) and `page` (a fresh context per test, so no
cookies carry over, with a German Accept-Language). Use them with pytest-django's `live_server`:

    def test_something(live_server, page):
        page.goto(live_server.url + "/")

On failure a screenshot goes to var/e2e/<test name>.png. CHROMIUM overrides /usr/bin/chromium.
"""
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "var" / "e2e"


@pytest.fixture(scope="session")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} not found: run `make setup` (installs Debian's chromium)")
    # Playwright's sync API keeps an asyncio event loop running in this thread, and Django refuses
    # ORM calls from a thread with a running loop (SynchronousOnlyOperation). The tests and the
    # live server are plain synchronous code, so allow it while the browser is alive.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
    finally:
        playwright.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.e2e_failed = report.failed
    return report


@pytest.fixture
def page(browser, request):
    context = browser.new_context(locale="de-DE", timezone_id="Europe/Berlin", viewport={"width": 1000, "height": 800})
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    if getattr(request.node, "e2e_failed", False):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    context.close()


@pytest.fixture(autouse=True)
def _server_takes_entries_afterwards():
    """A test that fails while its phone is offline leaves the server refusing the table links'
    entries (tests/e2e/offline.py): the next test starts with it taking them again."""
    yield
    from .offline import server_online

    server_online()
