"""A Score row never outlives what it refers to. Its table, round, game and penalty are derived
references without a database constraint (models/games.py, `Score`): Django's cascade deletes the
rows with them, and `scores.write_scores` writes them under the table's lock. Here every way a game,
a penalty or a round goes away (a tournament with games
cannot be deleted: its entries are protected), each followed by the check the constraints made."""

from __future__ import annotations

import pytest

from tournament.models import Game, Penalty, Round, Score, Table
from tournament.services import penalties, results, scores

from ..factories import make_tournament, play_round, seat_ids

pytestmark = pytest.mark.django_db


def dangling() -> dict[str, int]:
    """Score rows whose table, round, game or penalty is gone."""
    rows = Score.objects.all()
    return {
        "table": rows.exclude(table_id__in=Table.objects.values("pk")).count(),
        "round": rows.exclude(round_id__in=Round.objects.values("pk")).count(),
        "game": rows.filter(game__isnull=False).exclude(game_id__in=Game.objects.values("pk")).count(),
        "penalty": rows.filter(penalty__isnull=False).exclude(penalty_id__in=Penalty.objects.values("pk")).count(),
    }


NONE = {"table": 0, "round": 0, "game": 0, "penalty": 0}


def test_no_score_row_outlives_its_game_penalty_or_round(director):
    tournament = make_tournament(players=8, director=director, slug="verweise")
    other = make_tournament(players=8, director=director, slug="bleibt")
    first = play_round(tournament, games=3)
    play_round(tournament, games=2)
    play_round(other, games=2)
    table = first.tables.get(number=1)
    penalty = penalties.add_penalty(table=table, offender_id=seat_ids(table)[0], note="Kartenfehler")
    assert Score.objects.filter(penalty=penalty).exists() and dangling() == NONE

    results.delete_game(table=table, number=3)
    assert not Score.objects.filter(table=table, game__number=3).exists() and dangling() == NONE
    penalties.delete_penalty(table=table, penalty_id=penalty.pk)
    assert not Score.objects.filter(kind=Score.Kind.PENALTY).exists() and dangling() == NONE
    scores.rebuild_scores(tournament=tournament)
    assert dangling() == NONE

    Game.objects.filter(table=table).delete()  # Django's cascade, as a round's or a tournament's deletion runs it
    assert not Score.objects.filter(table=table).exists() and dangling() == NONE
    Round.objects.filter(pk=first.pk).delete()  # as the hub replaces a tournament's rounds (importing.replace_contents)
    assert dangling() == NONE and Score.objects.filter(round__tournament=tournament).exists()
    Round.objects.filter(tournament=tournament).delete()
    assert dangling() == NONE and not Score.objects.filter(entry__tournament=tournament).exists()
    assert Score.objects.filter(round__tournament=other).count() == 2 * 2 * 4  # the other tournament's stay
