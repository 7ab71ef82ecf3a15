"""Every family of cache keys (`web/cache_keys.FAMILIES`) walked through a write of each kind: the pages
are read as a visitor and a director read them, the keys they store are caught, a write is made, and the
pages are read again. A family moves to new keys exactly when its `moved_by` says it must, so nothing
cached can outlive a write that changes it, and a game saved at one table leaves what does not show it."""

from __future__ import annotations

import datetime
import re
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournament.services import results, seating, tournaments
from tournament.web import cache_keys, caching

from ..conftest import wsgi_get
from ..factories import make_director, make_tournament, normal_game, seated_round

pytestmark = pytest.mark.django_db

# what moves each kind of key: every write; the setup only; the player's own tables (and the setup)
MOVES = {
    "change": {"game elsewhere", "game at own table", "setup", "results hidden"},
    "setup": {"setup", "results hidden"},
    "own tables": {"game at own table", "setup", "results hidden"},
    "job": {"game elsewhere", "game at own table", "setup", "results hidden"},
    # a digest of the own tables, the player's ranks and what is still missing: the game elsewhere is
    # too small to move the player's rank (they lead by far), so it rightly stays
    "version": {"game at own table", "setup", "results hidden"},
    "in place": set(),  # one key; what it holds is brought up to the new counter (checked below)
    "release": set(),  # a static file as sent (tests/tournament/web/test_front_door.py; no write moves it)
    "timeout": set(),  # the hub's pages across all tournaments: they expire (test_hub_pages_expire_and_move_by_day)
    # a series' league table or cup: every write to one of its days, and the series' settings
    # (test_a_season_moves_when_a_day_arrives_is_corrected_or_the_season_changes)
    "days": {"game elsewhere", "game at own table", "setup", "results hidden"},
    # an association's stored Rangliste: its refresh, its stale mark, its settings, the day
    # (tests/tournament/views/test_rangliste_polls.py)
    "stored": set(),
}


def family_of(key) -> str | None:
    if isinstance(key, tuple) and str(key[0]).startswith("front-"):
        return key[0]  # the front door's (web/front.py)
    found = re.match(r"doko:([a-z-]+):", str(key))
    if found:
        return {"pdfjob": "pdf-job", "pdf": "pdf-job"}.get(found.group(1), found.group(1))
    return "round-tables" if "round-tables" in key else None


@pytest.fixture
def caught(monkeypatch):
    """The keys written to the shared cache and to the process's own copies, by family."""
    seen: dict[str, set[str]] = {}

    def note(key):
        family = family_of(key)
        if family is not None:
            seen.setdefault(family, set()).add(str(key))

    for name in ("set", "add"):
        real = getattr(cache, name)

        def spy(key, *args, _real=real, **kwargs):
            note(key)
            return _real(key, *args, **kwargs)

        monkeypatch.setattr(cache, name, spy)
    real_put = caching.Recent.put

    def put(self, key, value):
        note(key)
        return real_put(self, key, value)

    monkeypatch.setattr(caching.Recent, "put", put)
    return seen


def test_every_family_of_keys_moves_with_exactly_the_writes_it_depends_on(caught, settings, front_door):
    settings.PDF_INLINE_PLAYERS = 0  # the standings PDF as a background job (its key holds the counter)
    director = make_director()
    tournament = make_tournament(players=8, director=director, slug="schluessel")
    round = seated_round(tournament)
    own, other = round.tables.order_by("number")
    player = own.seats.order_by("position").first().entry
    results.save_game(table=own, number=1, data=normal_game(own, 1, re_augen=240, re_seats=(0, 1)))
    results.save_game(table=other, number=1, data=normal_game(other, 1))
    visitor, boss = Client(), Client()
    boss.force_login(director)
    slug = tournament.slug

    def read_pages() -> dict[str, set[str]]:
        cache.clear()
        caching.forget_kept()
        caught.clear()
        for client in (visitor, boss):
            for url in (reverse("tournament:standings", args=[slug]),
                        reverse("tournament:standings", args=[slug]) + "?partial=1",
                        reverse("tournament:standings", args=[slug]) + f"?partial=1&me={player.pk}",
                        reverse("tournament:standings_json", args=[slug]),
                        reverse("tournament:round", args=[slug, round.number]),
                        reverse("tournament:player", args=[slug, player.pk]),
                        reverse("tournament:player", args=[slug, player.pk]) + "?partial=1"):
                assert client.get(url).status_code == 200, url
                if client is visitor:  # and through the front door, as gunicorn calls it
                    assert wsgi_get(front_door[0], url)[0].startswith("200"), url
        assert boss.get(reverse("tournament:standings_pdf", args=[slug])).status_code in (200, 202)
        return {family: set(keys) for family, keys in caught.items()}

    writes = {
        "game elsewhere": lambda: results.save_game(table=other, number=2, data=normal_game(other, 2, re_augen=121)),
        "game at own table": lambda: results.save_game(table=own, number=2, data=normal_game(own, 2)),
        "setup": lambda: tournaments.edit_player(entry=tournament.entries.exclude(pk=player.pk).first(),
                                                 name="Neuer Name", club="DK Süd"),
        "results hidden": lambda: seating.hide_results(round=round),
    }
    before = read_pages()
    unread = {family for family, described in cache_keys.FAMILIES.items()
              if described.moved_by in ("release", "timeout", "days", "stored")  # (read by other pages: tests below)
              or described.made_in == "web/rating_scopes.py"}  # (the Rangliste's: test_rating_scopes.py)
    assert set(before) == set(cache_keys.FAMILIES) - unread, "every family is read by these pages"
    for kind, write in writes.items():
        write()
        after = read_pages()
        for family, described in cache_keys.FAMILIES.items():
            if family in unread:
                continue
            moved = not (before[family] & after[family])
            assert moved == (kind in MOVES[described.moved_by]), (kind, family, before[family], after[family])
        (sums,) = after["score-sums"]
        assert cache.get(sums)[0] == caching.change_counter(tournament), kind
        before = after


def test_hub_pages_expire_and_move_by_day(caught, settings, client, monkeypatch):
    """The hub's pages (`hub-page`, docs/hub.md) hold no tournament's counter: a write leaves their key,
    they expire, and the day, the language and the parameters are in the key."""
    settings.DOKO_HUB = True
    tournament = make_tournament(players=8, director=make_director(), slug="hub-seite")
    urls = ["/", "/?kind=abend", reverse("tournament:calendar"), reverse("tournament:hub_search") + "?q=herbst"]

    def read() -> set[str]:
        cache.clear()
        caught.clear()
        for url in urls:
            assert client.get(url).status_code == 200, url
        return caught["hub-page"]

    before = read()
    assert len(before) == len(urls) + 1  # and the clubs of the filter
    # (kept HUB_TIMEOUT seconds: test_calendar.test_the_pages_are_cached_whole_for_a_short_time)
    tournaments.edit_player(entry=tournament.entries.first(), name="Neuer Name", club="DK Süd")
    assert read() == before  # a write moves nothing: the pages expire
    from django.utils import timezone

    monkeypatch.setattr(timezone, "localdate", lambda *args: datetime.date(2031, 1, 2))
    assert not read() & before - {cache_keys.hub_page("clubs")}  # a new day: new pages


def test_a_season_moves_when_a_day_arrives_is_corrected_or_the_season_changes(caught, client):
    """A series' league table for the public (`season`, docs/competitions.md "A season across clubs") is
    kept under the change counters of its days: a day that arrives (names the season), a game saved or
    corrected at one of them, a change of the series' clubs each give a new key; a write elsewhere none."""
    from tournament.models import Series
    from tournament.services import series as series_services
    from tournament.services import teams

    director = make_director()
    series = series_services.create_series(name="Liga", director=director, slug="liga-saison", mode=Series.Mode.LEAGUE)
    day = make_tournament(players=8, director=director, slug="saison-tag")
    other = make_tournament(players=8, director=director, slug="anderswo")
    round = seated_round(day)
    table = round.tables.order_by("number").first()
    url = reverse("tournament:series", args=[series.slug])

    def read() -> set[str]:
        cache.clear()
        caught.clear()
        assert client.get(url).status_code == 200
        return caught["season"]

    before = read()
    assert read() == before  # nothing written: the same key
    teams.set_team_options(tournament=day, team_count=None, club_count=None, teams_apart=False, team_match=True,
                           season=series.slug)  # a day arrives
    after = read()
    assert after != before
    before = after
    results.save_game(table=table, number=1, data=normal_game(table, 1))  # a game at the day
    after = read()
    assert after != before
    before = after
    results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=200))  # corrected
    after = read()
    assert after != before
    before = after
    tournaments.edit_player(entry=other.entries.first(), name="Neuer Name", club="DK Süd")  # elsewhere
    assert read() == before
    series_services.update_series(series=series, name=series.name, slug=series.slug, mode=series.mode, best_of=0,
                                  public=True, clubs=["verein"])
    assert read() != before


def test_the_mark_of_a_queued_rangliste_refresh_is_a_listed_family(caught, monkeypatch):
    """Not a page, but a key of the shared cache all the same: listed with the others."""
    from tournament.services import rangliste_refresh

    queued = []
    monkeypatch.setattr(rangliste_refresh, "refresh_task", SimpleNamespace(enqueue=queued.append))
    rangliste_refresh.enqueue_refresh([4711])
    rangliste_refresh.enqueue_refresh([4711])  # queued once while the first waits
    assert queued == [4711] and set(caught) == {"rangliste-queued"}
    assert "rangliste-queued" in cache_keys.FAMILIES
