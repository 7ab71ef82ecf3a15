"""The help page: in the menu of every page, in German and English, with every preset."""

import pytest
from django.urls import reverse

import scoring
from scoring import vocabulary

pytestmark = pytest.mark.django_db


def test_help_in_both_languages_with_every_preset(client):
    german = client.get(reverse("tournament:help")).content.decode()
    english = client.get(reverse("tournament:help"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Der Abend in Schritten" in german and "The evening step by step" in english
    for preset in scoring.PRESETS.values():
        assert vocabulary.ruleset_title(preset, "de") in german
        assert vocabulary.ruleset_title(preset, "en") in english
    assert "Bock (eine Runde) nach: ein Herzstich, ein verlorenes Kontra" in german
    assert "Bock (one round) after: a Herzstich, a lost Kontra" in english
    assert "<kbd>rdd kf</kbd>" in german and "<kbd>rdd kf</kbd>" in english


def test_the_menu_links_to_the_help(client):
    page = client.get(reverse("tournament:home")).content.decode()
    assert f'href="{reverse("tournament:help")}"' in page and ">Hilfe<" in page


def test_the_help_says_how_a_solo_is_typed_and_that_a_refused_enter_keeps_what_was_typed(client):
    german = client.get(reverse("tournament:help")).content.decode()
    english = client.get(reverse("tournament:help"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ("<kbd>2</kbd> <kbd>Umschalt</kbd>+<kbd>Tab</kbd> <kbd>so</kbd> <kbd>Tab</kbd> <kbd>d</kbd>" in german
            and "<kbd>d</kbd> Damensolo" in german and "auch die Platznummern der Re-Partei" in german)
    assert ("<kbd>2</kbd> <kbd>Shift</kbd>+<kbd>Tab</kbd> <kbd>so</kbd> <kbd>Tab</kbd> <kbd>q</kbd>" in english
            and "<kbd>q</kbd> Queens solo" in english and "the Re party's seat numbers too" in english)
