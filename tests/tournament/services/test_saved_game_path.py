"""One path for a saved game (docs/architecture.md): form -> service -> the bridge -> the
engine -> scores, with the deal computed once and the game read by the engine once."""

import pytest

import scoring
from seating import dealing
from tournament.models import Score
from tournament.services import results

from ..factories import make_tournament, normal_game, seated_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    tournament = make_tournament(players=4)
    round = seated_round(tournament)
    return round.tables.get()


def counting(monkeypatch, module, name):
    calls = []
    original = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)
    monkeypatch.setattr(module, name, counted)
    return calls


def test_saving_a_game_lets_the_engine_read_each_game_of_the_table_once(table, monkeypatch):
    results.save_game(table=table, data=normal_game(table))
    data = normal_game(table, re_augen=150)
    parsed = counting(monkeypatch, scoring, "parse_game")
    results.save_game(table=table, data=data)
    # game 1 (stored before) and game 2 (the new one): each read once, not the new one twice
    assert len(parsed) == 2
    assert Score.objects.filter(table=table).count() == 8


def test_saving_a_game_works_out_the_deal_once(table, monkeypatch):
    data = normal_game(table)
    deals = counting(monkeypatch, dealing, "deals")
    results.save_game(table=table, data=data)
    assert len(deals) == 1
