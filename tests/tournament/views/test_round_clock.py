"""The round clock: the director starts it, the round pages show until when the round is played
(for the public too), it can be started again or stopped; no clock without a length or in a draft."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tournament.errors import UserError
from tournament.services import round_clock, seating, tournaments

from ..factories import make_director, make_tournament, message_texts, seated_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def round():
    tournament = make_tournament(players=8, director=make_director())
    return seated_round(tournament)


def url(name, round):
    return reverse(f"tournament:{name}", args=[round.tournament.slug, round.number])


def test_the_director_starts_the_clock_and_everyone_sees_it(client, round):
    client.force_login(round.tournament.directors.get())
    page = client.get(url("round", round)).content.decode()
    assert "Uhr starten (100 Minuten)" in page and "data-clock-end" not in page
    response = client.post(url("round_clock", round), {"action": "start"})
    round.refresh_from_db()
    end = timezone.localtime(round.started_at + datetime.timedelta(minutes=100))
    assert message_texts(response) == [f"Die Rundenuhr läuft: 100 Minuten, bis {end:%H:%M} Uhr."]
    page = client.get(url("round", round)).content.decode()
    assert f"Spielzeit bis {end:%H:%M} Uhr" in page and "Uhr anhalten" in page
    client.logout()
    public = client.get(url("round", round)).content.decode()
    assert f"Spielzeit bis {end:%H:%M} Uhr" in public and 'data-clock-end="' in public
    assert "Uhr anhalten" not in public and "Uhr starten" not in public


def test_time_up_and_stopping(client, round):
    round_clock.start_clock(round=round, at=timezone.now() - datetime.timedelta(minutes=101))
    client.force_login(round.tournament.directors.get())
    page = client.get(url("round", round)).content.decode()
    assert 'class="round-clock over"' in page and "Zeit ist um" in page
    client.post(url("round_clock", round), {"action": "stop"})
    round.refresh_from_db()
    assert round.started_at is None
    assert "Spielzeit bis" not in client.get(url("round", round)).content.decode()


def test_no_clock_without_a_length_or_in_a_draft(round):
    tournament = round.tournament
    tournaments.update_tournament(tournament=tournament, fields={"round_minutes": 0}, rules=tournament.rules)
    round.refresh_from_db()
    with pytest.raises(UserError) as error:
        round_clock.start_clock(round=round)
    assert "keine Spielzeit je Runde" in str(error.value.message)
    draft = seating.create_round(tournament=tournament)
    tournaments.update_tournament(tournament=tournament, fields={"round_minutes": 90}, rules=tournament.rules)
    with pytest.raises(UserError):
        round_clock.start_clock(round=draft)
