"""The standings of every round kept across changes (tournament/web/histories.py): after a
game saved at one table, only the rounds from that table's round on are ranked again, and the history
is the one computed anew, whatever changes come in between."""

from __future__ import annotations

import importlib
import random

import pytest
from django.core.cache import cache

from tournament import selectors
from tournament.models import Table, Tournament
from tournament.services import penalties, results, seating, sheet_state, table_links, tournaments
from tournament.web import cache_keys, caching, histories, score_sums

from ..factories import make_tournament, normal_game, play_round, seat_ids

pytestmark = pytest.mark.django_db

Ranking = Tournament.Ranking
# the module (`tournament.selectors.standings` is also the name of one of its functions)
standings_module = importlib.import_module("tournament.selectors.standings")
missing_module = importlib.import_module("tournament.selectors.missing")


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def kept(tournament: Tournament, include_hidden: bool = True) -> selectors.StandingsHistory:
    """The history as the pages get it (computed from the one before when this process keeps it)."""
    return histories.standings_history(tournament, include_hidden=include_hidden,
                                       counter=caching.change_counter(tournament))


def assert_as_anew(tournament: Tournament) -> None:
    for include_hidden in (True, False):
        history = kept(tournament, include_hidden)
        anew = selectors.standings_history(tournament, include_hidden=include_hidden)
        assert (history.rounds, history.after, history.before) == (anew.rounds, anew.after, anew.before)
        assert history.missing == selectors.missing_results(tournament)


def ranked(monkeypatch) -> list[int]:
    """How many rows each ranking of the standings ranks, from now on."""
    calls: list[int] = []
    real = standings_module.rank_rows

    def spy(rows, *args, **kwargs):
        calls.append(len(rows))
        return real(rows, *args, **kwargs)

    monkeypatch.setattr(standings_module, "rank_rows", spy)
    return calls


def test_a_game_saved_in_the_last_round_moves_only_its_players(monkeypatch):
    tournament = make_tournament(players=12, slug="verlauf")
    for _ in range(3):
        play_round(tournament, games=1)
    before = kept(tournament)
    calls = ranked(monkeypatch)
    read: list[int] = []  # how many tables each look at what is missing reads
    real = missing_module._table_results

    def spy(*args, **kwargs):
        found, closed = real(*args, **kwargs)
        read.append(len(found))
        return found, closed

    monkeypatch.setattr(missing_module, "_table_results", spy)
    shared: list[int] = []  # reads of the score sums kept in the shared cache
    real_tables = score_sums.tables

    def shared_spy(*args, **kwargs):
        shared.append(1)
        return real_tables(*args, **kwargs)

    monkeypatch.setattr(score_sums, "tables", shared_spy)
    table = tournament.rounds.get(number=3).tables.order_by("number").last()
    results.save_game(table=table, data=normal_game(table, re_augen=200))
    after = kept(tournament)
    assert calls == []  # nothing sorted again: not the start, not a round, not round 3 either
    assert after.after[1] is before.after[1] and after.after[2] is before.after[2]
    assert after.after[3] != before.after[3]
    assert after.after[3] == selectors.standings_history(tournament).after[3]
    # round 3's rows: the table's players new, the others the same rows unless their rank changed
    was = {row.entry_id: row for row in before.after[3]}
    players = set(seat_ids(table))
    assert all((row is was[row.entry_id]) == (row.entry_id not in players and row.rank == was[row.entry_id].rank)
               for row in after.after[3])
    assert any(row is was[row.entry_id] for row in after.after[3])
    assert read == [1]  # what is missing: that table read again, not all 9
    assert shared == []  # the sums: those kept with the history, that table summed again
    assert after.missing == selectors.missing_results(tournament) != before.missing


def test_a_game_saved_in_an_earlier_round_ranks_that_round_and_the_later_ones_again(monkeypatch):
    tournament = make_tournament(players=8, slug="frueher")
    for _ in range(3):
        play_round(tournament, games=1)
    kept(tournament)
    calls = ranked(monkeypatch)
    table = tournament.rounds.get(number=2).tables.order_by("number").first()
    results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=60))
    kept(tournament)
    assert calls == [8, 8]
    assert_as_anew(tournament)


@pytest.mark.parametrize("ranking", [Ranking.POINTS, Ranking.TABLE_POINTS, Ranking.AVERAGE])
def test_the_kept_history_follows_every_kind_of_change(ranking, monkeypatch):
    tournament = make_tournament(players=13, slug=f"folgen-{ranking}", ranking=ranking)
    round1 = play_round(tournament, games=3)
    assert_as_anew(tournament)
    first, second, *_ = round1.tables.order_by("number")
    round2 = play_round(tournament, games=2)
    assert_as_anew(tournament)
    results.save_game(table=first, number=1, data=normal_game(first, 1, re_augen=40))  # in round 1
    assert_as_anew(tournament)
    penalties.add_penalty(table=second, offender_id=seat_ids(second)[0], game_number=2, note="Test")
    assert_as_anew(tournament)
    results.delete_game(table=first, number=3)
    assert_as_anew(tournament)
    seating.hide_results(round=round2)  # a wider change: everything anew
    assert_as_anew(tournament)
    table = round2.tables.order_by("number").last()
    results.save_game(table=table, data=normal_game(table, re_augen=100))  # in a hidden round
    assert_as_anew(tournament)
    seating.show_results(round=round2)
    tournaments.withdraw_player(entry=tournament.entries.order_by("start_number").first())
    assert_as_anew(tournament)
    for number in (3, 2, 1):  # the table has no score left in round 2
        results.delete_game(table=table, number=number)
        assert_as_anew(tournament)
    round3 = play_round(tournament, games=1)
    assert_as_anew(tournament)
    table, other = round3.tables.order_by("number")[:2]
    results.save_game(table=table, data=normal_game(table, re_augen=150))
    assert_as_anew(tournament)
    # an entry from the table's phone waits for confirmation (publishing made the links)
    table_links.enter_game(token=Table.objects.get(pk=other.pk).link_token, number=2, data=normal_game(other, 2),
                           key="k1", device="d" * 16, version=0, player_id=seat_ids(other)[0])
    assert_as_anew(tournament)
    sheet_state.end_table(table=table, note="Zeit")
    assert_as_anew(tournament)
    sheet_state.sign_table(table=table)
    assert_as_anew(tournament)


def test_only_a_history_computed_anew_goes_into_the_shared_cache(monkeypatch):
    """A history computed anew is stored for the processes that keep none; one brought up to date from
    an earlier one stays in its process (another process brings its own up to date, or reads the
    last one computed anew and brings that up to date)."""
    tournament = make_tournament(players=8, slug="anderer")
    for _ in range(3):
        play_round(tournament, games=1)
    first = kept(tournament)
    stored: dict[str, object] = {}
    real = cache.set

    def spy(key, value, *args, **kwargs):
        stored[key] = value
        return real(key, value, *args, **kwargs)

    monkeypatch.setattr(cache, "set", spy)
    caching.forget_kept()  # as in another process: it reads the one computed anew
    assert parts(kept(tournament)) == parts(first) and stored == {}
    table = tournament.rounds.get(number=3).tables.order_by("number").last()
    results.save_game(table=table, data=normal_game(table, re_augen=200))
    history = kept(tournament)
    assert histories_stored(stored) == []  # brought up to date: kept here
    caching.forget_kept()  # another process that keeps none computes it anew, and stores it
    again = kept(tournament)
    key = cache_keys.history(tournament.pk, caching.change_counter(tournament), include_hidden=True)
    assert histories_stored(stored) == [key] and sorted(stored[key]["lists"], key=str) == [1, 2, 3, "before"]
    assert again is not history and parts(again) == parts(history)
    caching.forget_kept()
    assert parts(kept(tournament)) == parts(again)  # read back
    assert histories_stored(stored) == [key]


def histories_stored(stored: dict[str, object]) -> list[str]:
    return [key for key in stored if key.startswith("doko:history:")]


def parts(history: selectors.StandingsHistory) -> tuple:
    return history.rounds, history.after, history.before, history.missing


def test_rows_become_values_for_the_cache_and_rows_again():
    tournament = make_tournament(players=9, slug="werte", ranking=Ranking.TABLE_POINTS)
    play_round(tournament, games=2)
    play_round(tournament, games=1)
    history = selectors.standings_history(tournament)
    for rows in (history.before, *history.after.values()):
        again = selectors.rows_from(selectors.row_values(rows))
        assert again == rows and [row.placements for row in again] == [row.placements for row in rows]
    assert any(row.placements for row in history.after[2])


@pytest.mark.parametrize("ranking,tie_breakers", [(Ranking.POINTS, []), (Ranking.POINTS, ["won", "best_round"]),
                                                   (Ranking.AVERAGE, ["best_round"])])
def test_players_moved_in_the_last_round_land_where_a_new_ranking_puts_them(ranking, tie_breakers, monkeypatch):
    """Many games in the last round, each at a table drawn at random, with many ties (24 players, few
    points): after each, the kept history equals the one computed anew, and it was moved, not
    ranked again (`_moved`)."""
    tournament = make_tournament(players=24, slug=f"bewegt-{ranking}-{len(tie_breakers)}", ranking=ranking,
                                 tie_breakers=tie_breakers)
    play_round(tournament, games=1)
    round2 = play_round(tournament, games=1)
    tables = list(round2.tables.order_by("number"))
    moved: list[bool] = []
    real = standings_module._moved

    def spy(*args, **kwargs):
        rows = real(*args, **kwargs)
        moved.append(rows is not None)
        return rows

    monkeypatch.setattr(standings_module, "_moved", spy)
    draw = random.Random(f"bewegt-{ranking}")
    history = kept(tournament)
    for step in range(24):
        earlier = history
        was = [(row.entry_id, row.rank, row.points) for row in earlier.after[2]]
        table = draw.choice(tables)
        number = draw.randint(1, 3)
        if step % 7 == 6 and table.games.filter(number=number).exists():
            results.delete_game(table=table, number=table.games.order_by("-number").first().number)
        else:
            data = normal_game(table, number, re_augen=draw.choice([0, 60, 90, 119, 121, 151, 181, 240]),
                               re_seats=draw.choice([(0, 1), (0, 2), (1, 3)]))
            results.save_game(table=table, number=min(number, table.games.count() + 1), data=data)
        history = kept(tournament)
        anew = selectors.standings_history(tournament)
        assert (history.rounds, history.after, history.before) == (anew.rounds, anew.after, anew.before), step
        assert [(row.entry_id, row.rank, row.points) for row in earlier.after[2]] == was, step  # not changed
    assert moved.count(True) >= 20, moved
