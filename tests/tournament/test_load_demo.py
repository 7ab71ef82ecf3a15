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
    assert director.has_perm("tournament.organise")
    assert "http://127.0.0.1:8000/accounts/login/" in out.getvalue()
