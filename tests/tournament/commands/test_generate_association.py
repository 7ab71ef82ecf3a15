"""`manage.py generate_association` (docs/hub.md): a bounded, reproducible association of clubs, people
with a record at every club they play at, and tournaments of every kind and stage, that the hub's
pages read."""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import Count

from tournament.models import Entry, Organisation, Player, Round, Tournament
from tournament.selectors import calendar, hub_search
from tournament.services.association import generate_association

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2027, 3, 15)


def test_an_association_of_every_kind_and_stage():
    made = generate_association(clubs=12, tournaments=300, players=600, seed="t", today=TODAY)
    assert Organisation.objects.filter(slug__startswith="v-verein-").count() == 12
    assert len(set(Organisation.objects.values_list("region", flat=True))) > 3
    assert Tournament.objects.count() == 300 and Entry.objects.count() == made.entries > 300 * 4
    assert Player.objects.count() == made.player_records > 600  # some play at more than one club
    people = Player.objects.values("member_number").annotate(clubs=Count("organisation")).order_by()
    assert people.filter(clubs__gt=1).count() > 60
    stages = dict(calendar.with_stage(Tournament.objects.all(), TODAY).values("stage").annotate(n=Count("id"))
                  .values_list("stage", "n"))
    assert set(stages) >= {calendar.UPCOMING, calendar.FINISHED}, stages
    kinds = {calendar.kind_of(t) for t in Tournament.objects.all()}
    assert kinds == set(calendar.KINDS)
    assert Tournament.objects.filter(public_overview=False).exists()
    dates = Tournament.objects.order_by("date").values_list("date", flat=True)
    assert dates.first() >= TODAY - datetime.timedelta(days=3 * 365)
    assert dates.last() <= TODAY + datetime.timedelta(days=92)
    assert not Round.objects.filter(tournament__date__gt=TODAY).exists()
    # the search keys are written: the search finds its people
    someone = Player.objects.filter(publication="full", entries__tournament__public_overview=True,
                                    entries__tournament__public_players=True).first()
    assert someone.search_key and someone.name in {p.name for p in hub_search.search(someone.name).players}


def test_the_same_seed_gives_the_same_association():
    generate_association(clubs=3, tournaments=20, players=50, seed="gleich", prefix="a", today=TODAY)
    generate_association(clubs=3, tournaments=20, players=50, seed="gleich", prefix="b", today=TODAY)
    first = list(Tournament.objects.filter(slug__startswith="a-").order_by("id").values_list("name", "date"))
    second = list(Tournament.objects.filter(slug__startswith="b-").order_by("id").values_list("name", "date"))
    assert first == second and len(first) == 20


def test_the_command_is_bounded_and_refuses_a_second_run_with_the_same_prefix():
    out = StringIO()
    call_command("generate_association", "--clubs", "2", "--tournaments", "5", "--players", "20", stdout=out)
    assert "2 Vereine, 20 Personen" in out.getvalue()
    with pytest.raises(CommandError, match="gibt es schon"):
        call_command("generate_association", "--clubs", "2", "--tournaments", "5", "--players", "20")
    with pytest.raises(CommandError, match="1 bis 200000"):
        call_command("generate_association", "--tournaments", "999999", "--prefix", "x")
    assert not Organisation.objects.filter(slug__startswith="x-").exists()
