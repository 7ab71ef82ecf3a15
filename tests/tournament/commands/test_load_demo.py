"""`manage.py load_demo`, run twice: the demo director, Rangliste and league are there once, and the demo
evening ranks the clubs. The two runs are made once for the module, in a transaction rolled back at its
end (each test's own transaction is a savepoint inside it); `test_commands.py` checks one run's
tournament and that a second run leaves it as it is."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction


@pytest.fixture(scope="module")
def demo_twice(django_db_setup, django_db_blocker):
    """What `load_demo` printed, run twice."""
    with django_db_blocker.unblock(), transaction.atomic():
        out = StringIO()
        call_command("load_demo", stdout=out)
        call_command("load_demo", stdout=out)
        yield out.getvalue()
        transaction.set_rollback(True)


@pytest.fixture
def out(demo_twice, db):
    return demo_twice


def test_load_demo_creates_the_director_once(out):
    director = get_user_model().objects.get(username="turnierleitung")
    assert director.is_staff
    assert director.check_password("doppelkopf")
    assert get_user_model().objects.count() == 1
    # the demo director is an organiser: creates tournaments and series, restores backups
    assert director.organisations.filter(slug="verein").exists()
    assert "http://127.0.0.1:8000/accounts/login/" in out


def test_load_demo_builds_a_rangliste_over_three_tournaments_once(out):
    import datetime

    from tournament.models import Rangliste, Tournament
    from tournament.selectors import rangliste as selectors

    demo = Rangliste.objects.get(slug="demo-rangliste")
    assert Tournament.objects.filter(counts_for_rangliste=True).count() == 3
    view = selectors.rangliste_view(demo, until=datetime.date.today())
    assert len(view.rows) == 13 and [(r.person.name, r.row.rounds) for r in view.below] == [("Nina Neumann", 3)]
    assert [line.place for line in view.result.cut_lines] == [3]


def test_load_demo_builds_a_league_of_two_match_days_once(out):
    from tournament.models import Series
    from tournament.selectors.league import league_standings

    league = Series.objects.get(slug="demo-liga")
    found = league_standings(league)
    assert len(found.counted) == 2 and len(found.rows) == 4
    assert sum(row.siegpunkte for row in found.rows) == 20  # 10 a day


def test_the_demo_evening_ranks_the_clubs(out, client):
    """The demo shows a club evening with a club ranking."""
    from tournament.models import Tournament

    demo = Tournament.objects.get(slug="demo-doko-abend")
    assert demo.club_count == 2
    page = client.get(f"/t/{demo.slug}/standings/teams/")
    assert page.status_code == 200 and "Vereinswertung" in page.content.decode()
    assert "Fuchsjagd Kiel" in page.content.decode()
