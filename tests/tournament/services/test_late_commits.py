"""No page is stale after concurrent writes have committed (docs/architecture.md, "The change counter").

Two tables save at once in a round's last minutes: writer A has saved game 1 at table 1 and not yet
committed, writer B saves at table 2 and commits, a visitor reads the standings (which are cached under
the tournament's change counter), then A commits. The next read must show both games, without waiting
for some later write. Real threads with their own database connections; on SQLite the writers are
serialised by the database's write lock, so the test runs on PostgreSQL, where they are not."""

from __future__ import annotations

import threading

import pytest
from django.db import connections, transaction
from django.test import Client
from django.urls import reverse

from tournament.services import results

from ..factories import make_tournament, normal_game, seated_round


def games_in(client: Client, slug: str) -> int:
    rows = client.get(reverse("tournament:standings_json", args=[slug])).json()
    return sum(row["games"] for row in rows)


@pytest.mark.only_database("postgresql")
@pytest.mark.django_db(transaction=True)
def test_a_write_that_commits_late_is_on_the_next_read():
    tournament = make_tournament(players=8, slug="spaet")
    round = seated_round(tournament)
    table_1, table_2 = round.tables.get(number=1), round.tables.get(number=2)
    a_saved, a_may_commit, b_done = threading.Event(), threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def writer_a():
        try:
            with transaction.atomic():
                results.save_game(table=table_1, number=1, data=normal_game(table_1, 1))
                a_saved.set()
                a_may_commit.wait(30)
        except BaseException as error:  # noqa: BLE001 - reported by the test
            failures.append(error)
            a_saved.set()
        finally:
            connections.close_all()

    def writer_b():
        try:
            results.save_game(table=table_2, number=1, data=normal_game(table_2, 1))
        except BaseException as error:  # noqa: BLE001
            failures.append(error)
        finally:
            b_done.set()
            connections.close_all()

    visitor = Client()
    assert games_in(visitor, "spaet") == 0
    a = threading.Thread(target=writer_a)
    a.start()
    assert a_saved.wait(30)
    b = threading.Thread(target=writer_b)
    b.start()
    b_done.wait(3)  # B commits now, or waits for A (either is right; what a reader then sees must hold)
    seen_meanwhile = games_in(visitor, "spaet")  # cached under the counter of this moment
    a_may_commit.set()
    a.join(30)
    b.join(30)
    assert not failures, failures
    assert seen_meanwhile in (0, 4, 8)
    assert games_in(visitor, "spaet") == 8  # both games, 4 players each
    assert games_in(Client(), "spaet") == 8
