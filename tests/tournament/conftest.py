"""Fixtures shared by the tournament tests: a director, and a tournament of 8 players they direct.
A test file may define its own `tournament` to start from something else. `front_door`: requests
through the WSGI application gunicorn calls (the front door before Django, web/front.py)."""

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import RequestFactory

from tournament.web import front

from .factories import make_director, make_tournament


class Counted:
    """Django's WSGI application (or `application`), counting the requests it answers."""

    def __init__(self, application=None):
        self.application = application or WSGIHandler()
        self.calls = 0

    def __call__(self, environ, start_response):
        self.calls += 1
        return self.application(environ, start_response)


def wsgi_get(application, path, **headers):
    """(status, headers, body) of a request through a WSGI application (method: `method=`, default GET).
    As Django's test client does, the request's start and end do not close the test's connection."""
    method = headers.pop("method", "get")
    environ = getattr(RequestFactory(), method)(path, **headers).environ
    given = {}

    def start_response(status, response_headers, exc_info=None):
        given["status"], given["headers"] = status, dict(response_headers)

    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        answer = application(environ, start_response)
        body = b"".join(answer)
        if hasattr(answer, "close"):
            answer.close()
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)
    return given["status"], given["headers"], body


@pytest.fixture
def front_door():
    """(the front door around a counted Django, the counted Django), for `wsgi_get`."""
    front.forget()
    django = Counted()
    yield front.FrontDoor(django), django
    front.forget()


@pytest.fixture
def director():
    return make_director()


@pytest.fixture
def tournament(director):
    return make_tournament(players=8, director=director, slug="herbst")
