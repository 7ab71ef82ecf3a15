from io import StringIO

from django.contrib.auth import get_user_model
from django.core.management import call_command


def test_load_demo_creates_the_director_once(db):
    out = StringIO()
    call_command("load_demo", stdout=out)
    call_command("load_demo", stdout=out)

    director = get_user_model().objects.get(username="turnierleitung")
    assert director.is_staff
    assert director.check_password("doppelkopf")
    assert get_user_model().objects.count() == 1
    # the demo director is an organiser: creates tournaments and series, restores backups
    assert director.organisations.filter(slug="verein").exists()
    assert "http://127.0.0.1:8000/accounts/login/" in out.getvalue()


def test_load_demo_builds_a_rangliste_over_three_tournaments_once(db):
    import datetime

    from tournament.models import Rangliste, Tournament
    from tournament.selectors import rangliste as selectors

    call_command("load_demo", stdout=StringIO())
    call_command("load_demo", stdout=StringIO())
    demo = Rangliste.objects.get(slug="demo-rangliste")
    assert Tournament.objects.filter(counts_for_rangliste=True).count() == 3
    view = selectors.rangliste_view(demo, until=datetime.date.today())
    assert len(view.rows) == 13 and [(r.person.name, r.row.rounds) for r in view.below] == [("Nina Neumann", 3)]
    assert [line.place for line in view.result.cut_lines] == [3]


def test_load_demo_builds_a_league_of_two_match_days_once(db):
    from tournament.models import Series
    from tournament.selectors.league import league_standings

    call_command("load_demo", stdout=StringIO())
    call_command("load_demo", stdout=StringIO())
    league = Series.objects.get(slug="demo-liga")
    found = league_standings(league)
    assert len(found.counted) == 2 and len(found.rows) == 4
    assert sum(row.siegpunkte for row in found.rows) == 20  # 10 a day


def test_the_demo_evening_ranks_the_clubs(db, client):
    """Issue 17: the demo shows a club evening with a club ranking."""
    from tournament.models import Tournament

    call_command("load_demo", stdout=StringIO())
    demo = Tournament.objects.get(slug="demo-doko-abend")
    assert demo.club_count == 2
    page = client.get(f"/t/{demo.slug}/standings/teams/")
    assert page.status_code == 200 and "Vereinswertung" in page.content.decode()
    assert "Fuchsjagd Kiel" in page.content.decode()
