import pytest

pytestmark = pytest.mark.django_db


def test_start_page_is_german(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="de">' in html
    assert "Doko-Turnier" in html
    assert "Noch keine Turniere." in html


def test_start_page_in_english_when_the_browser_asks(client):
    response = client.get("/", headers={"accept-language": "en"})
    assert '<html lang="en">' in response.content.decode()
