"""`manage.py generate_association` (docs/hub.md): a bounded, reproducible association of clubs, people
with a record at every club they play at, and tournaments of every kind and stage, that the hub's
pages read."""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import Count, Sum

from tournament.models import Entry, Organisation, Player, Rangliste, RanglisteStanding, Round, Score, Tournament
from tournament.selectors import calendar, hub_search
from tournament.selectors import rangliste as rangliste_selectors
from tournament.services import rangliste as services
from tournament.services import rangliste_refresh
from tournament.services.association import add_regular, generate_association

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


def test_the_ranglistenturniere_have_round_results_an_association_rangliste_ranks():
    made = generate_association(clubs=6, tournaments=120, players=400, seed="r", today=TODAY)
    ranglistenturniere = Tournament.objects.filter(counts_for_rangliste=True, date__lt=TODAY)
    closed = Round.objects.filter(tournament__in=ranglistenturniere, status=Round.Status.CLOSED)
    # every player of every closed round has one result, at a table of 4 or 5 whose totals sum to zero
    assert made.scores == Score.objects.count() == sum(r.tournament.entries.count() for r in closed)
    sums = Score.objects.values("table").annotate(n=Count("id"), points=Sum("points")).order_by()
    assert {row["n"] for row in sums} <= {4, 5} and {row["points"] for row in sums} == {0}
    assert not Score.objects.exclude(round__tournament__counts_for_rangliste=True).exists()
    rangliste = services.create_rangliste(settings=services.Settings(
        name="Verband", source=Rangliste.Source.ASSOCIATION, members=tuple(Organisation.objects.all()),
        minimum_rounds=6, cut_lines=((10, "DEM"),)))
    rangliste_refresh.refresh_rangliste(rangliste=rangliste, today=TODAY)
    rangliste.refresh_from_db()
    assert rangliste.computed["ranked"] > 10 and rangliste.computed["tournaments"] > 5
    fresh = rangliste_selectors.rangliste_view(rangliste, until=TODAY)
    stored = RanglisteStanding.objects.filter(rangliste=rangliste, ranked=True).order_by("position")
    assert [(s.key, s.place, s.rounds, s.points) for s in stored] == [
        (r.person.key, r.row.place, r.row.rounds, r.row.points) for r in fresh.rows]


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


def test_a_regular_with_many_tournaments_for_the_player_page(settings):
    """`add_regular`: one person at every club of their tournaments (one member number), with everyone's
    points round by round: the hub's player page benchmark (scripts/bench_hub.py) reads a full page."""
    from tournament.selectors import people

    generate_association(clubs=6, tournaments=120, players=300, seed="r", today=TODAY)
    record = add_regular(tournaments=30, today=TODAY)
    page = people.person_page(record, today=TODAY)  # the history is the tournaments up to today
    assert page is not None and len(page.rows) == 30
    assert len(page.clubs) > 1 and all(row.place is not None and row.rounds >= 2 for row in page.rows)
    assert page.rounds == sum(row.rounds for row in page.rows) and page.average is not None
