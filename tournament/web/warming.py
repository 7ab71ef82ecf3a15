"""A published round's visitor pages rendered before the phones come (docs/performance.md, "The
announcement burst").

When the director publishes a round and announces it, every player's phone opens the round's seating,
the standings and the player's own page within the same second. Each of those pages is new (a
publication moves the setup counter, docs/architecture.md), and a page's first render is what the
phones wait for: the seating of 500 players takes 90–150 ms of a core in each process, a player's page
5–15 ms, 200 of them two seconds of the two cores exactly when 200 phones want an answer.

So publishing (the director's button, `views.rounds.round_status`) queues `warm_round` after the
publication is committed; the background worker (`manage.py db_worker`, the one that builds the PDFs)
asks for the round's seating and the standings in every language and for the page of each player
seated in the round in the site's language, as an anonymous visitor would, through Django's own
request handling (`django.test.Client`: no network, the real middleware and views). Their answers land
in the shared cache under the very keys the phones' requests will ask for, so a phone's first request
is a read of the shared cache. Nothing is written but the cache; a page that changes before the phones
come (a game saved, a player moved) has new keys and is rendered on demand as before."""

from __future__ import annotations

import logging
import time
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django_tasks import task
from django_tasks.backends.immediate import ImmediateBackend

from ..models import Round, Seat, Tournament

logger = logging.getLogger(__name__)


def after_publish(round: Round) -> None:
    """Queues the warming of `round`'s pages once the transaction that published it has committed;
    not without a background worker (DJANGO_TASKS_BACKEND=immediate), where it would keep the director's
    click waiting for every page."""
    if isinstance(warm_round.get_backend(), ImmediateBackend):
        return
    tournament_id, number = round.tournament_id, round.number
    transaction.on_commit(lambda: warm_round.enqueue(tournament_id, number))


def _host() -> str:
    """A host name the site answers to (the phones' address when DJANGO_SITE_URL names it)."""
    if settings.SITE_URL:
        return urlsplit(settings.SITE_URL).netloc
    for host in settings.ALLOWED_HOSTS:
        if host and host != "*" and not host.startswith("."):
            return host
    return "localhost"


def paths(tournament: Tournament, round_number: int) -> tuple[list[str], list[str]]:
    """The pages everyone opens (the seating, the standings) and the pages of the round's players."""
    with translation.override(settings.LANGUAGE_CODE):
        shared = [
            reverse("tournament:round", args=[tournament.slug, round_number]),
            reverse("tournament:standings", args=[tournament.slug]),
        ]
        entries = (
            Seat.objects.filter(round__tournament=tournament, round__number=round_number)
            .order_by("entry_id")
            .values_list("entry_id", flat=True)
        )
        players = [reverse("tournament:player", args=[tournament.slug, entry_id]) for entry_id in entries]
    return shared, players


@task()
def warm_round(tournament_id: int, round_number: int) -> int:
    """Renders the round's visitor pages into the shared cache; returns how many answered 200."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    started = time.perf_counter()
    shared, players = paths(tournament, round_number)
    client = Client(HTTP_HOST=_host(), HTTP_ACCEPT_ENCODING="gzip")
    secure = settings.SECURE_SSL_REDIRECT
    asked = [(path, language) for path in shared for language, _name in settings.LANGUAGES]
    asked += [(path, settings.LANGUAGE_CODE) for path in players]
    done = 0
    for path, language in asked:
        client.cookies.clear()  # every request a first visitor's: no cookie, or the page is not everybody's
        response = client.get(path, HTTP_ACCEPT_LANGUAGE=language, secure=secure)
        done += response.status_code == 200  # a page visitors may not see (404, 403) is not stored
    logger.info(
        "warmed %s of %s pages of round %s of %s in %.1f s",
        done,
        len(asked),
        round_number,
        tournament.slug,
        time.perf_counter() - started,
    )
    return done
