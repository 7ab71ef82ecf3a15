"""Public pages players check on their phones: standings and a player's page, visibility switches,
hidden rounds, translations, exports and query counts."""

import datetime
import gzip
import json
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django_tables2.data import TableListData

from tournament.models import Player
from tournament.services import results, sheet_state
from tournament.web import caching, frames

from ..factories import make_director, make_tournament, normal_game, play_round, seat_ids, seated_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    director = make_director()
    tournament = make_tournament(players=8, director=director, slug="offen")
    play_round(tournament)
    return tournament


def standings_url(tournament, suffix="standings", **query):
    url = reverse(f"tournament:{suffix}", args=[tournament.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_public_standings_without_login(client, tournament):
    response = client.get(standings_url(tournament))
    assert response.status_code == 200
    content = response.content.decode()
    assert "Tabelle" in content and "Anna" in content and "aktualisiert sich selbst" in content


def test_each_public_page_can_be_switched_off(client, tournament):
    entry = tournament.entries.first()
    player_url = reverse("tournament:player", args=[tournament.slug, entry.id])
    tournament.public_standings = False
    tournament.public_players = False
    tournament.save()
    assert client.get(standings_url(tournament)).status_code == 404
    assert client.get(standings_url(tournament, "standings_csv")).status_code == 404
    assert client.get(player_url).status_code == 404
    client.force_login(tournament.directors.get())
    assert client.get(standings_url(tournament)).status_code == 200
    assert client.get(player_url).status_code == 200


def test_hidden_round_results_stay_off_the_public_pages(client, tournament):
    second = play_round(tournament, games=1)
    public_before = json.loads(client.get(standings_url(tournament, "standings_json")).content)
    second.results_hidden = True
    second.save()
    public = json.loads(client.get(standings_url(tournament, "standings_json")).content)
    assert sum(row["games"] for row in public) == 8 * 2  # round 1 only: 2 games for each of 8 players
    assert public != public_before
    entry_id = seat_ids(second.tables.first())[0]
    page = client.get(reverse("tournament:player", args=[tournament.slug, entry_id])).content.decode()
    assert "werden noch bekanntgegeben" in page
    client.force_login(tournament.directors.get())
    director = json.loads(client.get(standings_url(tournament, "standings_json")).content)
    assert sum(row["games"] for row in director) == 8 * 3
    assert "noch verborgen" in client.get(standings_url(tournament)).content.decode()


STANDINGS_ROW = re.compile(r'<tr data-entry="\d+" data-name="([^"]*)"[^>]*><td class="num">(\d+)</td>'
                           r'<td class="movement">(?:<span class="(\w+)" title="([^"]*)">([^<]*)</span>)?</td>')


def standings_rows(content):
    """The rows of the standings table in page order: (name, rank, movement class, title, text); the
    movement is ("", "", "") where there is nothing to compare with."""
    rows = STANDINGS_ROW.findall(content)
    assert len(rows) == content.count("<tr data-entry=")  # every row matched
    return [(name, int(rank), *movement) for name, rank, *movement in rows]


def test_standings_after_a_round_and_movement(client, tournament):
    # round 1 (the fixture): Anna, Carla, Frieda, Hanna +2 share rank 1; Bernd, Dieter, Emil, Gustav -2 rank 5.
    # Rounds 2 and 3: Kontra wins the one game at each table.
    for number in (2, 3):
        later = seated_round(tournament, seed=f"r{number}")
        for table in later.tables.all():
            results.save_game(table=table, data=normal_game(table, 1, re_augen=90))

    def rows(**query):
        return standings_rows(client.get(standings_url(tournament, **query)).content.decode())

    same = ("same", "unverändert", "–")

    def up(n):
        return ("up", f"{n} Plätze besser", f"▲{n}")

    def down(n):
        return ("down", f"{n} Plätze schlechter", f"▼{n}")

    new = ("", "", "")  # after round 1 there is nothing to compare with: no movement, not "unchanged"
    content = client.get(standings_url(tournament, round=1)).content.decode()
    assert "Tabelle nach Runde 1" in content
    assert {name: (rank, *movement) for name, rank, *movement in standings_rows(content)} == {
        "Anna": (1, *new), "Carla": (1, *new), "Frieda": (1, *new), "Hanna": (1, *new),
        "Bernd": (5, *new), "Dieter": (5, *new), "Emil": (5, *new), "Gustav": (5, *new)}
    assert rows(round=2) == [  # since round 1
        ("Frieda", 1, *same), ("Hanna", 1, *same),
        ("Anna", 3, *down(2)), ("Bernd", 3, *up(2)), ("Carla", 3, *down(2)), ("Emil", 3, *up(2)),  # from 1 or 5
        ("Dieter", 7, *down(2)), ("Gustav", 7, *down(2))]
    assert rows() == [  # after round 3, since round 2 (not since round 1: Anna 1 → 4 would be ▼3)
        ("Hanna", 1, *same), ("Bernd", 2, *up(1)), ("Frieda", 2, *down(1)),
        ("Anna", 4, *down(1)), ("Carla", 4, *down(1)), ("Dieter", 4, *up(3)), ("Emil", 4, *down(1)),
        ("Gustav", 4, *up(3))]


def test_csv_is_semicolon_separated_with_a_bom(client, tournament):
    response = client.get(standings_url(tournament, "standings_csv"))
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeffPlatz;Spieler;Verein;Punkte;Spiele;gewonnen;Soli;nur Endstand;R1;"
                           "Wertungszahl;Unsicherheit;Spiele gewertet\r\n")
    assert len(text.strip().splitlines()) == 9
    assert "text/csv" in response["Content-Type"]
    # the tournament's standings are its "Tabelle" (the Rangliste is the list across tournaments)
    assert f'filename="{tournament.slug}-tabelle.csv"' in response["Content-Disposition"]


def test_csv_has_each_rounds_points_and_marks_totals_only(client):
    """The CSV has what the page and the printed standings have: the points of each round (empty for a
    round not played) and the "*" of points entered as a table's final totals only."""
    import csv
    import io

    from tournament.services import tournaments

    tournament = make_tournament(players=8, director=make_director(), slug="runden")
    play_round(tournament, games=1)
    tournaments.register_player(tournament=tournament, name="Zoe")  # plays from round 2
    second = seated_round(tournament, seed="r2")
    first_table, other_table = second.tables.order_by("number")
    results.save_game(table=first_table, data=normal_game(first_table, 1, re_augen=150))
    ids = seat_ids(other_table)
    sheet_state.enter_totals(table=other_table, totals={ids[0]: 6, ids[1]: -6, **{e: 0 for e in ids[2:]}})
    text = client.get(standings_url(tournament, "standings_csv")).content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert lines[0][-7:] == ["Soli", "nur Endstand", "R1", "R2", "Wertungszahl", "Unsicherheit", "Spiele gewertet"]
    by_name = {line[1]: line for line in lines[1:]}  # the last three columns: the rating
    assert all(int(line[3]) == int(line[-5] or 0) + int(line[-4]) for line in by_name.values())  # Punkte = R1 + R2
    names = {e.pk: e.player.name for e in tournament.entries.select_related("player")}
    assert by_name[names[ids[0]]][-6] == "*" and by_name[names[ids[1]]][-6] == "*"
    assert {line[-6] for name, line in by_name.items() if name not in {names[e] for e in ids}} == {""}
    assert by_name["Zoe"][-5] == ""  # no result in round 1
    # after round 1 only: its column alone, nothing entered as totals yet
    text = client.get(standings_url(tournament, "standings_csv", round=1)).content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert lines[0][-5:-3] == ["nur Endstand", "R1"] and {line[-5] for line in lines[1:]} == {""}


def test_json_lists_rank_player_points(client, tournament):
    data = json.loads(client.get(standings_url(tournament, "standings_json")).content)
    assert len(data) == 8 and sum(row["points"] for row in data) == 0
    assert set(data[0]) == {"rank", "player", "club", "points", "games", "won", "solos", "rating"}


def test_partial_fragment_for_the_self_updating_page(client, tournament):
    response = client.get(standings_url(tournament, partial=1))
    content = response.content.decode()
    assert "<html" not in content and 'id="standings-table"' in content


def test_english_when_the_browser_asks_for_it(client, tournament):
    content = client.get(standings_url(tournament), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Standings" in content and "Rangliste" not in content
    entry = tournament.entries.first()
    page = client.get(reverse("tournament:player", args=[tournament.slug, entry.id]),
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Points" in page and "Punkte" not in page


def test_dates_follow_the_language(client, tournament):
    assert "21.11.2026" in client.get(standings_url(tournament)).content.decode()
    assert "21/11/2026" in client.get(standings_url(tournament), HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_public_round_page_says_who_sits_where(client, tournament):
    page = client.get(reverse("tournament:round", args=[tournament.slug, 1])).content.decode()
    assert "Wer sitzt wo? (alphabetisch)" in page and "Platz 1 gibt das erste Spiel" in page
    assert "Auslosen" not in page  # no director forms for the public


def test_player_page_lists_every_game_with_points_and_breakdown(client, tournament):
    table = tournament.rounds.get(number=1).tables.first()
    entry_id = seat_ids(table)[0]
    content = client.get(reverse("tournament:player", args=[tournament.slug, entry_id])).content.decode()
    assert "Runde 1: Tisch 1" in content
    assert content.count("keine 120") == 2  # two games, each with its breakdown
    assert "Punktestand nach jedem Spiel" in content and "<svg" in content


def test_sortable_by_points(client, tournament):
    # points after a second round as in the movement test: Frieda, Hanna 4; Anna, Bernd, Carla, Emil 0;
    # Dieter, Gustav -4
    second = seated_round(tournament, seed="r2")
    for table in second.tables.all():
        results.save_game(table=table, data=normal_game(table, 1, re_augen=90))

    def order(**query):
        return [(name, rank) for name, rank, *_movement in
                standings_rows(client.get(standings_url(tournament, **query)).content.decode())]

    by_rank = order()
    assert [rank for _name, rank in by_rank] == [1, 1, 3, 3, 3, 3, 7, 7]
    assert order(sort="-points") == by_rank  # most points first: the ranking itself
    assert order(sort="points") == [("Dieter", 7), ("Gustav", 7), ("Anna", 3), ("Bernd", 3), ("Carla", 3),
                                    ("Emil", 3), ("Frieda", 1), ("Hanna", 1)]
    page = client.get(standings_url(tournament, sort="points")).content.decode()
    assert 'href="?sort=-points"' in page  # the header sorts the other way next


def test_the_ranked_rows_are_not_sorted_again(client, tournament, monkeypatch):
    """The rows arrive ranked: in that order they skip django-tables2's sort (7 ms at 1,000 players);
    any other order goes through it."""
    sorted_by = []
    sort = TableListData.order_by
    monkeypatch.setattr(TableListData, "order_by",
                        lambda data, aliases: (sorted_by.append(tuple(aliases)), sort(data, aliases))[1])
    assert client.get(standings_url(tournament)).status_code == 200
    assert client.get(standings_url(tournament, sort="rank")).status_code == 200
    assert sorted_by == []
    assert client.get(standings_url(tournament, sort="-name")).status_code == 200
    assert sorted_by == [("-name",)]


def queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


# Queries of each public page for a visitor (no login: no session, user or role queries), whatever the
# tournament's size, each the first request after the data changed (the shared cache is empty for it;
# tournament/web/caching.py). Every page: the tournament's change counter by its slug, and the tournament
# once per change (then kept in the process: "after round 1" and the CSV read it no more). The standings: the cached
# table (a miss), the cached standings (a miss), then the rounds, the scores summed by round and player,
# the entries, storing both in the cache (web/database_cache.py: one insert each, 6 with the two
# savepoints of the tests' transaction), the kept score sums (web/score_sums.py: a miss, the rounds' ids
# and storing them: 5; the sums then replace the standings' own query), what is still missing
# (one query, "vorläufig", cached with the standings), and the rounds for the navigation. After round 1:
# the standings (and what is missing) kept in the process (`histories.kept`). The CSV: the same. A
# player's page: the tournament's, the setup's and the player's tables' newest changes (one query), the
# cached ranks (a miss), the standings kept in the process, storing the ranks, its page's cache (a
# miss), the player's kept games (a miss), their entry, everyone seated at their tables (with the
# rounds), their scores and the games they sat out at a table of five, storing them, storing the page,
# the navigation. The standings' table also asks whether the tournament has teams (the link to the
# team standings; cached with the table). The standings then store the whole page for every visitor
# (a look-up and a store: 4). Each store is one query in the tests' savepoint (3); the database cache
# also counts its table on every 50th write of a process, which tests/conftest.py turns off so that
# these counts do not depend on the order of the tests. Unchanged polls: tests/tournament/web/test_polling.py.
# +1: the rating's course (its newest step, in the page's version, is read with the player's counters
# since 2026-11-29: one query fewer); the standings +1: the ratings of the column beside the players
# (cached with the table). The player's page -1: the change counter by the slug is read with the
# player's counters (`caching.reads_player_counters`), not in a query of its own. The standings +1: a
# visitor's page is filled into its frame, kept under the setup counter (read for it; its first render
# here, so the navigation's rounds are read as before; after a game saved they are not: web/frames.py).
# The standings -1: that setup counter is the one read with the tournament by its slug, not read again.
PUBLIC_QUERIES = {"standings": 26, "standings after round 1": 12, "standings.csv": 2, "player": 19}
# the next visitor of the same page gets it whole from the shared cache: the change counter by the slug,
# the tournament (kept in the process while the counter holds), the cached page (the round's seating is
# keyed by the setup counter, read with the change counter by the slug: no query of its own)
WHOLE_PAGE_QUERIES = 3


def public_query_counts(client, **options) -> dict[str, dict[str, int]]:
    """The queries of each public page (`PUBLIC_QUERIES`) for a tournament of 8 and one of 37 players
    (`options`: more fields of the tournament), two rounds played."""
    counts = {}
    for players, slug in ((8, "klein"), (37, "gross")):
        tournament = make_tournament(players=players, slug=slug, name=slug, **options)
        play_round(tournament, games=3)
        play_round(tournament, games=2)
        entry_id = seat_ids(tournament.rounds.get(number=2).tables.first())[0]
        counts[slug] = {
            "standings": queries(client, standings_url(tournament)),
            "standings after round 1": queries(client, standings_url(tournament, round=1)),
            "standings.csv": queries(client, standings_url(tournament, "standings_csv")),
            "player": queries(client, reverse("tournament:player", args=[tournament.slug, entry_id])),
        }
    return counts


def test_public_pages_run_a_fixed_number_of_queries(client):
    assert public_query_counts(client) == {"klein": PUBLIC_QUERIES, "gross": PUBLIC_QUERIES}


def test_the_next_visitor_gets_the_whole_page_from_the_shared_cache(client, monkeypatch):
    """A visitor's page holds nothing personal (no CSRF token: the language switch needs none), so the
    second visitor gets the first one's page whole, in a few queries, compressed (docs/performance.md,
    "Whole pages in the cache")."""
    tournament = make_tournament(players=9, slug="ganz")
    play_round(tournament, games=2)
    round_url = reverse("tournament:round", args=[tournament.slug, 1])
    for url in (standings_url(tournament), round_url):
        first = client.get(url)
        assert first.status_code == 200 and "csrfmiddlewaretoken" not in first.content.decode()
        assert not first.cookies  # nothing of the visitor in it
        caching.forget_kept()  # as in another worker process: from the shared cache
        assert queries(client, url) == WHOLE_PAGE_QUERIES, url
        if url != round_url:  # the same process again: the standings page and the tournament kept in it,
            assert queries(client, url) == WHOLE_PAGE_QUERIES - 2, url  # only the counter (caching.recent)
        zipped = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert zipped["Content-Encoding"] == "gzip"
        assert gzip.decompress(zipped.content) == client.get(url).content
        assert "<!--now-->" not in first.content.decode()
    monkeypatch.setattr(timezone, "now", lambda: datetime.datetime(2026, 11, 21, 21, 40, tzinfo=datetime.UTC))
    page = gzip.decompress(client.get(standings_url(tournament), HTTP_ACCEPT_ENCODING="gzip").content).decode()
    assert '<span class="now">22:40</span>' in page  # the time it is sent (Berlin), not the time it was stored


def test_visitors_get_the_players_pages_in_one_frame_as_if_each_were_rendered(client, monkeypatch):
    """The site's frame of a visitor's player page is rendered once per change (web/frames.py)
    and filled in with each player's name, path, content and ETag: the pages are those rendered one
    by one, down to the byte, and the second needs no query for the frame (the rounds of the navigation)."""
    tournament = make_tournament(players=9, slug="rahmen", name="Abend <&> \"Kreuz\"")
    play_round(tournament, games=2)
    first, second = list(tournament.entries.order_by("start_number").values_list("id", flat=True))[:2]
    Player.objects.filter(entries__id=second).update(name="O'Brien & <Söhne>")
    urls = [reverse("tournament:player", args=[tournament.slug, entry]) for entry in (first, second)]
    framed = [client.get(url) for url in urls]
    kept = queries(client, urls[1])
    monkeypatch.setattr(frames, "fill", lambda *args, **kwargs: None)  # each rendered on its own
    assert queries(client, urls[1]) == kept + 1  # the rounds of the navigation
    rendered = [client.get(url) for url in urls]
    assert [page.content for page in framed] == [page.content for page in rendered]
    page = framed[1].content.decode()
    assert "<title>O&#x27;Brien &amp; &lt;Söhne&gt; – Abend &lt;&amp;&gt; &quot;Kreuz&quot;</title>" in page
    assert f'value="/t/rahmen/players/{second}/"' in page and f"?next=/t/rahmen/players/{second}/" in page
    assert "dokomark" not in page
    logged_in = client.get(urls[0] + "?x=1")  # an address with a query: rendered as usual
    assert logged_in.status_code == 200 and "dokomark" not in logged_in.content.decode()



def frame_drawn(drawn: list, args: tuple) -> None:
    """Counts a frame drawn by `frames.fill` (its context holds the marks), not a page rendered as usual."""
    if frames.mark("live") in args[1].values():
        drawn.append(1)


def test_a_game_saved_at_the_players_table_keeps_the_frame_of_the_players_pages(client, monkeypatch):
    """The frame shows the setup only (the tournament, its rounds): a game saved at the player's own
    table leaves it as it was rendered, and the page is still the one rendered on its own; a new round
    (the setup) renders it again."""
    tournament = make_tournament(players=8, slug="rahmen-spiel")
    table = seated_round(tournament).tables.order_by("number").first()
    url = reverse("tournament:player", args=[tournament.slug, seat_ids(table)[0]])
    drawn = []
    real = frames.render_to_string
    monkeypatch.setattr(frames, "render_to_string", lambda *a, **k: frame_drawn(drawn, a) or real(*a, **k))
    assert client.get(url).status_code == 200 and len(drawn) == 1
    results.save_game(table=table, data=normal_game(table))
    framed = client.get(url).content
    assert len(drawn) == 1
    monkeypatch.setattr(frames, "fill", lambda *args, **kwargs: None)  # rendered on its own
    assert client.get(url).content == framed
    monkeypatch.undo()
    monkeypatch.setattr(frames, "render_to_string", lambda *a, **k: frame_drawn(drawn, a) or real(*a, **k))
    seated_round(tournament, seed="r2")
    assert b">2</a>" in client.get(url).content and len(drawn) == 2



def test_a_visitors_standings_come_in_a_frame_kept_while_games_are_saved(client, monkeypatch):
    """A visitor's standings page is filled into the site's frame, kept under the setup counter: a game
    saved leaves the frame as it was rendered (only the table and the rounds' links are new), and the
    page is the one rendered on its own, down to the byte; a director's page is rendered as before."""
    monkeypatch.setattr(timezone, "now", lambda: datetime.datetime(2026, 11, 21, 21, 40, tzinfo=datetime.UTC))
    tournament = make_tournament(players=9, slug="rahmen-tabelle", name="Abend <&> \"Kreuz\"")
    play_round(tournament, games=1)
    table = seated_round(tournament, seed="r2").tables.order_by("number").first()
    url = standings_url(tournament)
    drawn = []
    real = frames.render_to_string
    monkeypatch.setattr(frames, "render_to_string", lambda *a, **k: frame_drawn(drawn, a) or real(*a, **k))
    assert client.get(url).status_code == 200 and len(drawn) == 1
    results.save_game(table=table, data=normal_game(table))  # round 2's first result: a new link
    with CaptureQueriesContext(connection) as asked:
        framed = client.get(url).content
    assert len(drawn) == 1 and b"?round=2" in framed
    assert not [q for q in asked if "tournament_team" in q["sql"]], "whether there are teams: the frame's"
    monkeypatch.setattr(frames, "fill", lambda *args, **kwargs: None)  # rendered on its own
    caching.recent.clear()
    cache.clear()
    assert client.get(url).content == framed
    assert "dokomark" not in framed.decode()


def test_a_game_saved_leaves_the_seating_as_it_was(client):
    """A visitor's seating shows who sits where, not how far the tables are, so a game
    saved changes neither its ETag nor the page; a swap (the setup) does."""
    tournament = make_tournament(players=8, slug="sitzplan")
    round = seated_round(tournament)
    table = round.tables.order_by("number").first()
    url = reverse("tournament:round", args=[tournament.slug, 1])
    before = client.get(url)
    results.save_game(table=table, data=normal_game(table))
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 304
    assert client.get(url).content == before.content


def test_a_game_at_another_table_leaves_a_players_games_as_they_were_computed(client):
    """A game saved at table 2 changes a table-1 player's ranks, not their games: the page
    is built again from their kept games (no queries for them); a game at their own table rebuilds them."""
    tournament = make_tournament(players=8, slug="zwei-tische")
    round = seated_round(tournament)
    first, second = round.tables.order_by("number")
    results.save_game(table=first, data=normal_game(first))
    entry_id = seat_ids(first)[0]
    url = reverse("tournament:player", args=[tournament.slug, entry_id])
    assert client.get(url).status_code == 200
    results.save_game(table=second, data=normal_game(second, re_augen=200))
    other = queries(client, url)
    results.save_game(table=first, data=normal_game(first, re_augen=100))
    own = queries(client, url)
    assert other < own
    page = client.get(url).content.decode()
    assert "Re 100 Augen" in page and "Re 130 Augen" in page  # both of the player's games, the new one too


def test_a_players_poll_stays_unchanged_while_a_game_elsewhere_moves_neither_their_games_nor_rank(
        client, monkeypatch):
    """A player's page depends on their own tables, the setup and their rank after each
    round, not on every game: a game at another table that leaves their rank as it was answers their
    poll 304 without rendering anything; one that moves their rank brings the new page."""
    tournament = make_tournament(players=8, slug="zwei-tische")
    round = seated_round(tournament)
    first, second = round.tables.order_by("number")
    game = normal_game(first, re_augen=150)  # Re wins with "keine 90": +2 each
    results.save_game(table=first, data=game)
    leader = game["re"][0]
    url = reverse("tournament:player", args=[tournament.slug, leader]) + "?partial=1"
    page = client.get(url)
    assert page.status_code == 200 and "Platz 1" in page.content.decode()
    results.save_game(table=second, data=normal_game(second, re_augen=130))  # +1 there: still behind

    def no_rendering(*args, **kwargs):
        raise AssertionError("rendered although the player's page did not change")

    with monkeypatch.context() as patched:
        patched.setattr("tournament.views.public.render_to_string", no_rendering)
        unchanged = client.get(url, HTTP_IF_NONE_MATCH=page["ETag"])
    assert unchanged.status_code == 304
    assert unchanged["ETag"] != page["ETag"]  # the tournament's counter moved on
    # a phone that kept its old validator, or took the new one, is answered 304 as well
    assert client.get(url, HTTP_IF_NONE_MATCH=unchanged["ETag"]).status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304
    results.save_game(table=second, data=normal_game(second, re_augen=240))  # now ahead of the leader
    moved = client.get(url, HTTP_IF_NONE_MATCH=page["ETag"])
    assert moved.status_code == 200 and "Platz 3" in moved.content.decode()


def test_director_switches_public_pages_in_the_settings(client, tournament):
    director = tournament.directors.get()
    client.force_login(director)
    page = client.get(reverse("tournament:settings", args=[tournament.slug])).content.decode()
    assert "Öffentlich sichtbar" in page
    data = {"name": tournament.name, "date": "2026-11-21", "place": "", "slug": tournament.slug, "preset": "turnier",
            "rule_changes": "", "rounds_planned": 3, "games_at_table_of_4": 8, "games_at_table_of_5": 10,
            "public_overview": "on", "public_players": "on"}  # seating and standings off
    assert client.post(reverse("tournament:settings", args=[tournament.slug]), data).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.public_overview, tournament.public_seating, tournament.public_standings,
            tournament.public_players) == (True, False, False, True)
    client.logout()
    assert client.get(reverse("tournament:round", args=[tournament.slug, 1])).status_code == 404
    assert client.get(standings_url(tournament)).status_code == 404
    assert client.get(reverse("tournament:overview", args=[tournament.slug])).status_code == 200


def test_public_overview_can_be_switched_off(client, tournament):
    tournament.public_overview = False
    tournament.save()
    assert client.get(reverse("tournament:overview", args=[tournament.slug])).status_code == 404


def test_director_hides_and_announces_a_rounds_results(client, tournament):
    client.force_login(tournament.directors.get())
    status_url = reverse("tournament:round_status", args=[tournament.slug, 1])
    client.post(status_url, {"action": "hide"})
    assert tournament.rounds.get(number=1).results_hidden
    client.logout()
    assert json.loads(client.get(standings_url(tournament, "standings_json")).content)[0]["points"] == 0
    client.force_login(tournament.directors.get())
    client.post(status_url, {"action": "show"})
    assert not tournament.rounds.get(number=1).results_hidden


def test_standings_and_player_pages_say_what_is_still_missing(client, tournament):
    from tournament.services import seating

    entry = tournament.entries.first()
    player_url = reverse("tournament:player", args=[tournament.slug, entry.id])
    content = client.get(standings_url(tournament)).content.decode()
    assert "Vorläufig:" in content
    assert "Runde 1: es fehlen noch 12 Spiele (Tische 1, 2)." in content  # 2 of 8 games at both tables
    # a player's page says which round is not final, not how much is missing (that changes with every
    # game at every table, and the page would have to be sent again to every phone each time)
    content = client.get(player_url).content.decode()
    assert "Vorläufig:" in content and "Runde 1 ist noch nicht fertig: was fehlt, steht in der Tabelle." in content
    assert "fehlen noch" not in content
    english = client.get(standings_url(tournament), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Provisional:" in english and "Round 1: 12 games are still missing (tables 1, 2)." in english
    seating.close_round(round=tournament.rounds.get(number=1), backup=False)
    # closed, but the games are still missing: not final
    content = client.get(standings_url(tournament)).content.decode()
    assert "Vorläufig:" in content and "Runde 1: es fehlen noch 12 Spiele (Tische 1, 2)." in content
    assert "Runde 1 ist noch nicht fertig" in client.get(player_url).content.decode()
    seating.reopen_round(round=tournament.rounds.get(number=1))
    for table in tournament.rounds.get(number=1).tables.all():  # the tables ended early: nothing is missing
        sheet_state.end_table(table=table, note="Spieler musste gehen")
    seating.close_round(round=tournament.rounds.get(number=1), backup=False)
    for url in (standings_url(tournament), player_url):
        assert "Vorläufig" not in client.get(url).content.decode()


def test_the_public_reads_a_tables_sheet_where_the_players_pages_are_public(client, tournament):
    from tournament.services import seating, tournaments

    round = tournament.rounds.get(number=1)
    table = round.tables.get(number=1)
    sheet_url = reverse("tournament:table_public", args=[tournament.slug, 1, 1])
    round_page = client.get(reverse("tournament:round", args=[tournament.slug, 1])).content.decode()
    assert f'href="{sheet_url}"' in round_page  # not the director's sheet behind a login
    page = client.get(sheet_url).content.decode()
    names = [s.entry.player.name for s in table.seats.select_related("entry__player")]
    assert all(name in page for name in names) and "2 von 8 Spielen eingetragen." in page
    assert "keine 120" in page and "Quersumme 0" in page  # the games with their breakdown
    assert "ändern" not in page and "Strafe eintragen" not in page and "Unterschriften" not in page
    assert "Änderungen an diesem Tisch" not in page
    seating.hide_results(round=round)
    hidden = client.get(sheet_url).content.decode()
    assert "Die Ergebnisse dieser Runde sind noch verborgen" in hidden and "keine 120" not in hidden
    seating.show_results(round=round)
    tournaments.update_tournament(tournament=tournament, fields={"public_players": False}, rules=tournament.rules)
    assert client.get(sheet_url).status_code == 404
    assert sheet_url not in client.get(reverse("tournament:round", args=[tournament.slug, 1])).content.decode()


def test_a_players_games_are_worded_and_their_partners_names_escaped(client):
    """The rows of a player's games are written in Python (views/player_rows.py): the same words as
    on the sheet, and a name is text, never markup."""
    from tournament.models import Entry

    tournament = make_tournament(players=4, slug="namen")
    table = seated_round(tournament).tables.get()
    game = normal_game(table, re_augen=151)
    results.save_game(table=table, data=game)
    partner = Entry.objects.get(pk=game["re"][1]).player
    partner.name = '<b>Anna</b> & "Co"'
    partner.save()
    page = client.get(reverse("tournament:player", args=[tournament.slug, game["re"][0]])).content.decode()
    assert 'Re mit &lt;b&gt;Anna&lt;/b&gt; &amp; &quot;Co&quot; · gewonnen</span>' in page
    assert "<b>Anna</b>" not in page
    assert '<p class="muted">Re 151 Augen</p>' in page
    assert '<li>keine 90 <span class="num">+1</span></li></ul>' in page
    assert '<td class="num">+2</td><td class="num">2</td></tr>' in page  # the game's points, the running total


def test_a_player_sees_the_games_they_sat_out_at_a_table_of_five(client):
    """At a table of five the dealer sits out each game with 0 points (rules.md, 9): their page lists
    that game too, in its place, so that no number is missing from the list."""
    tournament = make_tournament(players=5, slug="fuenf")
    table = seated_round(tournament).tables.get()
    for number in (1, 2, 3):
        results.save_game(table=table, data=normal_game(table, number, re_augen=151))
    out = table.games.get(number=2).sitting_out_id
    page = client.get(reverse("tournament:player", args=[tournament.slug, out])).content.decode()
    rows = re.findall(r'<tr[^>]*><th scope="row">(\d+)</th>(.*?)</tr>', page)
    assert [number for number, _cells in rows] == ["1", "2", "3"]
    assert ('<td class="muted">ausgesetzt (am Fünfertisch, 0 Punkte)</td><td class="num">0</td>'
            in rows[1][1])
    running = [re.findall(r'<td class="num">([^<]*)</td>', cells)[-1] for _number, cells in rows]
    assert running[1] == running[0]  # the total stays
