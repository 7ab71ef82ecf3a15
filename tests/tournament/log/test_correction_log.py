"""A player's correction request and the directors' answer in the tournament's change log (docs/hub.md,
"Corrections"): the Protokoll shows both, without the contact the player left."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tournament.log import changelog
from tournament.services import corrections, tournaments

from ..factories import make_director, play_round

pytestmark = pytest.mark.django_db


def test_request_and_answer_are_in_the_protokoll(client):
    director = make_director("leitung")
    tournament = tournaments.create_tournament(name="Herbstturnier", date=datetime.date(2026, 10, 3), director=director)
    for name in ["Anna Krämer", "Bernd Brandt", "Carla Clausen", "Dora Dahl"]:
        tournaments.register_player(tournament=tournament, name=name, club="")
    play_round(tournament)
    anna = tournament.entries.get(player__name="Anna Krämer").player_id
    request = corrections.request_correction(
        tournament=tournament, player_id=anna, text="In Runde 1 fehlt ein Solo.", contact="anna@example.org"
    )
    corrections.answer_correction(
        tournament=tournament, request_id=request.pk, status="answered", answer="Das Solo ist nachgetragen."
    )
    found = [entry for entry in changelog.entries(tournament) if entry.kind == "correction"]
    assert [entry.action for entry in found] == ["correction_answered", "correction_requested"]
    assert found[0].subject == "Korrekturanfrage von Anna Krämer"
    assert "fehlt ein Solo" in found[0].before_text and "offen" in found[0].before_text
    assert "Das Solo ist nachgetragen." in found[0].after_text and "beantwortet" in found[0].after_text
    # the page: both lines, never the contact (helpers read the log too)
    client.force_login(director)
    page = client.get(reverse("tournament:log", args=[tournament.slug])).content.decode()
    assert "Korrektur erbeten" in page and "Korrekturanfrage beantwortet" in page
    assert "Das Solo ist nachgetragen." in page and "anna@example.org" not in page
    # a round's log has no tournament-wide records
    assert not [e for e in changelog.entries(tournament, round_number=1) if e.kind == "correction"]
