"""The scores summed per table, kept across changes (tournament/web/score_sums.py): after a
game saved at one table only that table is summed again, and the standings are the same as when
everything is summed anew, whatever changes come in between, also a write that commits late."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tournament import selectors
from tournament.models import Tournament
from tournament.services import penalties, results, sheet_state, tournaments
from tournament.web import caching, histories, score_sums

from ..factories import make_tournament, normal_game, play_round, seat_ids

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def kept(tournament: Tournament) -> list:
    """The standings as the pages get them: through the kept sums."""
    counter = caching.change_counter(tournament)
    return sorted(score_sums.lines_of(score_sums.tables(tournament, counter=counter)))


def anew(tournament: Tournament) -> list:
    return sorted(selectors.score_sums(round_ids=tournament.rounds.values_list("id", flat=True)))


def summed_calls(monkeypatch) -> list[dict]:
    calls: list[dict] = []
    real = selectors.score_sums

    def spy(**options):
        calls.append(options)
        return real(**options)

    monkeypatch.setattr(selectors, "score_sums", spy)
    return calls


def test_a_game_saved_at_one_table_sums_only_that_table_again(monkeypatch):
    tournament = make_tournament(players=12, slug="summen")
    round = play_round(tournament, games=2)
    kept(tournament)  # the first time: everything
    calls = summed_calls(monkeypatch)
    table = round.tables.order_by("number").last()
    results.save_game(table=table, data=normal_game(table, re_augen=200))
    assert kept(tournament) == anew(tournament)
    assert [set(call) for call in calls[:1]] == [{"table_ids"}]  # not the whole tournament
    assert table.id in calls[0]["table_ids"]


def test_the_kept_sums_follow_every_kind_of_change():
    tournament = make_tournament(players=13, slug="folgen")
    round1 = play_round(tournament, games=3)
    assert kept(tournament) == anew(tournament)
    first, second, *_ = round1.tables.order_by("number")
    results.save_game(table=first, number=1, data=normal_game(first, 1, re_augen=40))
    assert kept(tournament) == anew(tournament)
    penalties.add_penalty(table=second, offender_id=seat_ids(second)[0], game_number=2, note="Test")
    assert kept(tournament) == anew(tournament)
    results.delete_game(table=first, number=3)
    assert kept(tournament) == anew(tournament)
    round2 = play_round(tournament, games=2)  # a new round: a wider change, summed anew
    assert kept(tournament) == anew(tournament)
    tournaments.withdraw_player(entry=tournament.entries.order_by("start_number").first())
    table = round2.tables.order_by("number").first()
    results.save_game(table=table, data=normal_game(table, re_augen=100))
    assert kept(tournament) == anew(tournament)
    last = round2.tables.order_by("number").last()
    for number in (2, 1):  # the table has no score left: its lines go
        results.delete_game(table=last, number=number)
        assert kept(tournament) == anew(tournament)
    # and the standings built from them are those of the selector itself
    history = histories.standings_history(tournament, include_hidden=True, counter=caching.change_counter(tournament))
    assert history.after == selectors.standings_history(tournament).after


def test_a_change_sums_only_its_own_table(monkeypatch):
    """A tournament's changes commit in the order of their ids (`models.CounterTurn`), on both
    databases: a game saved at one table sums that table again, and no other."""
    tournament = make_tournament(players=8, slug="rueckblick")
    round = play_round(tournament, games=2)
    first, second = round.tables.order_by("number")
    kept(tournament)
    results.save_game(table=first, data=normal_game(first, re_augen=200))
    kept(tournament)
    calls = summed_calls(monkeypatch)
    results.save_game(table=second, data=normal_game(second, re_augen=100))
    sums = kept(tournament)
    assert [set(call["table_ids"]) for call in calls] == [{second.id}]
    assert sums == anew(tournament)


def test_the_stored_sums_are_djangos_aggregation():
    """`selectors.score_sums` reads the stored tallies: the same lines as Django's own aggregation of
    the scores, by rounds, by tables, with penalties, a solo, totals only and a player who won nothing."""
    from django.db.models import Count, Q, Sum

    from tournament.models import Score

    tournament = make_tournament(players=9, slug="sql")
    round1 = play_round(tournament, games=3)
    first, second = round1.tables.order_by("number")[:2]
    results.save_game(table=first, number=4, data={"type": "solo", "solo": "damen", "re": [seat_ids(first)[0]],
                                                  "re_augen": 200, "announcements": {"re": None, "kontra": None},
                                                  "extras": {}})
    penalties.add_penalty(table=second, offender_id=seat_ids(second)[1], game_number=1, note="Test")
    round2 = play_round(tournament, games=1)
    totals_table = round2.tables.order_by("number").last()
    results.delete_game(table=totals_table, number=1)
    seated = seat_ids(totals_table)
    sheet_state.enter_totals(table=totals_table, totals=dict(zip(seated, [3, -3, 5, -5, 0][:len(seated)],
                                                                 strict=False)))

    def django(**filters):
        return sorted(Score.objects.filter(**filters).order_by().values("round_id", "entry_id", "table_id")
                      .annotate(points=Sum("points"), games=Sum("games"), won=Count("id", filter=Q(won=True)),
                                solos=Count("id", filter=Q(solo=True)),
                                totals=Count("id", filter=Q(kind=Score.Kind.TOTAL)))
                      .values_list("round_id", "entry_id", "points", "games", "won", "solos", "totals", "table_id"))

    rounds = [round1.pk, round2.pk]
    lines = sorted(selectors.score_sums(round_ids=rounds))
    assert lines == django(round_id__in=rounds) and len(lines) == 18
    assert any(line[5] for line in lines) and any(line[6] for line in lines) and any(line[2] < 0 for line in lines)
    tables = [first.pk, totals_table.pk]
    assert sorted(selectors.score_sums(table_ids=tables)) == django(table_id__in=tables)
    assert sorted(selectors.score_sums(round_ids=[round2.pk], table_ids=tables)) == django(
        round_id=round2.pk, table_id__in=tables)
    assert selectors.score_sums(table_ids=[]) == []
