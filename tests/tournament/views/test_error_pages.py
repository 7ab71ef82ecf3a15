"""Every error page in the site's frame and the reader's language, with DEBUG on (`make run`) and off
(found by a tester: under `make run` a 403 was a bare English page, a 405 empty, a 404 Django's
debug page)."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from config import urls as root_urls
from tournament.views import errors

from ..factories import make_director

pytestmark = pytest.mark.django_db

FRAME = "language-switch"  # the header of base.html
TEXTS = {
    403: ("Kein Zugriff", "Access denied"),
    404: ("Seite nicht gefunden", "Page not found"),
    405: ("Aktion nicht möglich", "Action not possible"),
    "csrf": ("Formular abgelaufen", "Form expired"),
    500: ("Fehler auf dem Server", "Server error"),
}
LANGUAGES = [("de", 0), ("en", 1)]


def page_of(response, status, key, index):
    """The page has the status, the site's frame and the heading, in the language asked for. (The
    English headings come from locale/en once their translations are filled in: the heading is
    checked as the catalogue translates it, the language by the frame's own words.)"""
    assert response.status_code == status
    page = response.content.decode()
    assert FRAME in page, "in the site's frame"
    language = ("de", "en")[index]
    with translation.override(language):
        heading = translation.gettext(TEXTS[key][0])
    assert f"<h1>{heading}</h1>" in page, page[:2000]
    assert f'<html lang="{language}">' in page
    assert ("Zur Startseite", "To the home page")[index] in page
    return page


@pytest.fixture(params=[True, False], ids=["debug", "production"])
def debug(request, settings):
    settings.DEBUG = request.param
    return request.param


@pytest.mark.parametrize("language, index", LANGUAGES)
def test_403(client, tournament, debug, language, index):
    client.force_login(make_director("fremd"))
    response = client.get(reverse("tournament:settings", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE=language)
    page_of(response, 403, 403, index)


@pytest.mark.parametrize("language, index", LANGUAGES)
@pytest.mark.parametrize("url", ["/t/gibt-es-nicht/", "/gibt/es/nicht/"], ids=["a view's 404", "no such address"])
def test_404(client, debug, language, index, url):
    page = page_of(client.get(url, HTTP_ACCEPT_LANGUAGE=language), 404, 404, index)
    assert "URLconf" not in page and "technical" not in page


@pytest.mark.parametrize("language, index", LANGUAGES)
def test_405_has_a_page_and_keeps_the_allow_header(client, tournament, debug, language, index):
    response = client.get(reverse("tournament:round_create", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE=language)
    page_of(response, 405, 405, index)
    assert response["Allow"] == "POST"


@pytest.mark.parametrize("language, index", LANGUAGES)
def test_a_refused_csrf_token(director, tournament, debug, language, index):
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    response = client.post(reverse("tournament:settings", args=[tournament.slug]), {}, HTTP_ACCEPT_LANGUAGE=language)
    page_of(response, 403, "csrf", index)


@pytest.mark.parametrize("language, index", LANGUAGES)
def test_500(language, index, db):
    assert root_urls.handler500 == "tournament.views.errors.server_error"
    request = RequestFactory().get("/")
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    with translation.override(language):
        page_of(errors.server_error(request), 500, 500, index)


def test_500_without_the_database(monkeypatch):
    """When the frame cannot be rendered (the user's session needs the database), the page alone."""
    request = RequestFactory().get("/")

    class Broken:
        def __getattr__(self, name):
            raise RuntimeError("database down")

    request.user = Broken()
    response = errors.server_error(request)
    assert response.status_code == 500 and "Fehler auf dem Server" in response.content.decode()


def test_the_phones_json_404_stays_json(client, debug):
    response = client.get("/e/nichtda/state.json")
    assert response["Content-Type"].startswith("application/json")
