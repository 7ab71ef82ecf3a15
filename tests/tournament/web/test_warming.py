"""A published round's visitor pages are rendered by the background worker before the phones come
(`tournament/web/warming.py`): the director's publication queues the job, and after it a phone's first
request for the seating, the standings or its player's page renders nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django_tasks import task_backends

from tournament.web import caching, warming

from ..factories import seated_round

pytestmark = pytest.mark.django_db


class Queue:
    """Stands for the task: records what would be queued."""

    def __init__(self, queued: list, backend: str = "default"):
        self.enqueue = lambda *args: queued.append(args)
        self.get_backend = lambda: task_backends[backend]


def test_publishing_a_round_queues_the_warming_of_its_pages(
    client, director, tournament, monkeypatch, django_capture_on_commit_callbacks
):
    round = seated_round(tournament, publish=False)
    queued = []
    monkeypatch.setattr(warming, "warm_round", Queue(queued))
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("tournament:round_status", args=[tournament.slug, round.number]), {"action": "publish"}
        )
    assert response.status_code == 302
    round.refresh_from_db()
    assert round.status == round.Status.PUBLISHED
    assert queued == [(tournament.pk, round.number)]


def test_closing_a_round_queues_no_warming(
    client, director, tournament, monkeypatch, django_capture_on_commit_callbacks
):
    round = seated_round(tournament)
    queued = []
    monkeypatch.setattr(warming, "warm_round", Queue(queued))
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("tournament:round_status", args=[tournament.slug, round.number]),
            {"action": "close", "confirm": "yes"},
        )
    assert queued == []


def _no_render(*args, **kwargs):
    raise AssertionError("a phone's first request rendered a page the warming should have rendered")


def test_after_the_warming_a_phones_first_requests_render_nothing(client, tournament, monkeypatch):
    round = seated_round(tournament)
    done = warming.warm_round.call(tournament.pk, round.number)
    shared, players = warming.paths(tournament, round.number)
    assert len(players) == 8
    assert done == 2 * 2 + 8  # the seating and the standings in German and English, every player's page
    caching.forget_kept()  # the phones' requests come to other processes than the worker's
    monkeypatch.setattr("tournament.views.rounds.round_page", _no_render)
    monkeypatch.setattr("tournament.views.standings.live_fragment", _no_render)
    monkeypatch.setattr("tournament.views.public.render_to_string", _no_render)
    for path in shared + players:
        response = client.get(path, HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
        assert response.status_code == 200, path
    seating = client.get(shared[0], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # the English seating, warmed in English: its frame and its words (not German words with English dates)
    assert ">Help<" in seating and ">Overview<" in seating
    assert ">Hilfe<" not in seating and ">Übersicht<" not in seating


def test_pages_visitors_may_not_see_are_not_warmed(tournament):
    round = seated_round(tournament)
    tournament.public_overview = False
    tournament.public_seating = False
    tournament.public_standings = False
    tournament.public_players = False
    tournament.save()
    caching.forget_kept()
    assert warming.warm_round.call(tournament.pk, round.number) == 0


def test_without_a_background_worker_nothing_is_queued(
    client, director, tournament, monkeypatch, django_capture_on_commit_callbacks
):
    """DJANGO_TASKS_BACKEND=immediate: the warming would run in the director's request and keep it waiting."""
    round = seated_round(tournament, publish=False)
    queued = []
    monkeypatch.setattr(warming, "warm_round", Queue(queued, backend="immediate"))
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("tournament:round_status", args=[tournament.slug, round.number]), {"action": "publish"})
    round.refresh_from_db()
    assert round.status == round.Status.PUBLISHED
    assert queued == []
