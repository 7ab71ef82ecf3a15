"""Fixtures shared by the tournament tests: a director, and a tournament of 8 players they direct.
A test file may define its own `tournament` to start from something else."""

import pytest

from .factories import make_director, make_tournament


@pytest.fixture
def director():
    return make_director()


@pytest.fixture
def tournament(director):
    return make_tournament(players=8, director=director, slug="herbst")
