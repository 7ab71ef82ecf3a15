"""The hub's start page and calendar (docs/hub.md): every organisation's public tournaments, by what
they are (`KINDS`) and where they stand (`stage`), filtered by region, club, month, kind and a folded
search. Only tournaments whose overview is public (`public_overview`) are ever read here.

Each page reads in a fixed number of queries whatever the size of the hub: the start page three
(running, upcoming, finished: each a bounded slice) and the clubs of the filter; a month of the
calendar a count and one page of rows, and the clubs. The stage is computed in the query from the
rounds (`with_stage`), so no list is read whole."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import (
    Case,
    CharField,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..collation import query_forms
from ..models import Organisation, Round, Tournament

# what a tournament is, derived from its flags (the first that applies): a cup round, a league's match
# day, a tournament counting for the Rangliste, else a club evening. The order matters where flags meet:
# a cup round is played by teams too (team_match), and is a cup round first.
CUP, LEAGUE, RANGLISTE, EVENING = "pokal", "liga", "rangliste", "abend"
KINDS: dict[str, tuple] = {
    CUP: (_("Pokal"), Q(cup_advance__isnull=False)),
    LEAGUE: (_("Ligaspieltag"), Q(cup_advance__isnull=True, team_match=True)),
    RANGLISTE: (_("Ranglistenturnier"), Q(cup_advance__isnull=True, team_match=False, counts_for_rangliste=True)),
    EVENING: (_("Vereinsabend"), Q(cup_advance__isnull=True, team_match=False, counts_for_rangliste=False)),
}


def kind_of(tournament) -> str:
    """The kind of a tournament (anything with its flags), as `KINDS`' filters say."""
    if tournament.cup_advance is not None:
        return CUP
    if tournament.team_match:
        return LEAGUE
    return RANGLISTE if tournament.counts_for_rangliste else EVENING


# where a tournament stands
UPCOMING, RUNNING, FINISHED, NO_RESULTS = "upcoming", "running", "finished", "no_results"
STAGES = {UPCOMING: _("demnächst"), RUNNING: _("läuft"), FINISHED: _("beendet"),
          NO_RESULTS: _("keine Ergebnisse veröffentlicht")}

PAGE_SIZE = 60  # tournaments on one page of a month
START_ROWS = 20  # tournaments in each list of the start page


def with_stage(tournaments: QuerySet, today: datetime.date) -> QuerySet:
    """`tournaments` with `stage`: upcoming (no round published yet, today or later), running (a round
    published, not every planned round closed, dated today or yesterday: an evening goes past
    midnight), finished (every planned round closed, or a round published and the day over), no
    results (the day over and nothing published)."""
    yesterday = today - datetime.timedelta(days=1)
    started = Exists(Round.objects.filter(tournament=OuterRef("pk")).exclude(status=Round.Status.DRAFT))
    closed = Subquery(Round.objects.filter(tournament=OuterRef("pk"), status=Round.Status.CLOSED)
                      .order_by().values("tournament").annotate(n=Count("id")).values("n"), output_field=IntegerField())
    return tournaments.annotate(started=started, closed_rounds=Coalesce(closed, 0)).annotate(stage=Case(
        When(started=False, date__gte=today, then=Value(UPCOMING)),
        When(started=False, then=Value(NO_RESULTS)),
        When(closed_rounds__gte=F("rounds_planned"), then=Value(FINISHED)),
        When(date__lt=yesterday, then=Value(FINISHED)),
        default=Value(RUNNING), output_field=CharField()))


@dataclass(frozen=True)
class Filters:
    """What the reader chose (the GET parameters, checked by `forms.calendar.CalendarFilters`)."""

    region: str = ""
    club: str = ""  # an organisation's slug
    month: datetime.date | None = None  # its first day
    kind: str = ""
    q: str = ""

    def query(self) -> dict[str, str]:
        """The filters as GET parameters (for links that keep them)."""
        found = {"region": self.region, "club": self.club, "month": f"{self.month:%Y-%m}" if self.month else "",
                 "kind": self.kind, "q": self.q}
        return {key: value for key, value in found.items() if value}


@dataclass(frozen=True)
class Row:
    name: str
    slug: str
    date: datetime.date
    place: str
    club: str
    club_slug: str
    region: str
    kind: str
    stage: str
    registration: bool  # the public registration takes players now
    standings: bool  # the Tabelle is public (the link to it shown)

    @property
    def kind_text(self) -> str:
        return str(KINDS[self.kind][0])

    @property
    def stage_text(self) -> str:
        return str(STAGES[self.stage])


def public_tournaments(filters: Filters) -> QuerySet:
    """Every organisation's public tournaments that pass `filters` (the month aside: the pages choose
    their dates)."""
    found = Tournament.objects.filter(public_overview=True)
    if filters.region:
        found = found.filter(organisation__region=filters.region)
    if filters.club:
        found = found.filter(organisation__slug=filters.club)
    if filters.kind in KINDS:
        found = found.filter(KINDS[filters.kind][1])
    forms = query_forms(filters.q)
    if forms:
        matching = Q()
        for form in forms:
            matching |= Q(search_key__contains=form) | Q(organisation__search_key__contains=form)
        found = found.filter(matching)
    return found


FIELDS = ("name", "slug", "date", "place", "organisation__name", "organisation__slug", "organisation__region",
          "cup_advance", "team_match", "counts_for_rangliste", "stage", "registration_open", "registration_deadline",
          "public_standings")


def rows_of(tournaments: QuerySet, now: datetime.datetime) -> list[Row]:
    """The rows of `tournaments` (annotated `with_stage`), read in one query."""
    rows = []
    for values in tournaments.values(*FIELDS):
        flags = _Flags(values["cup_advance"], values["team_match"], values["counts_for_rangliste"])
        deadline = values["registration_deadline"]
        rows.append(Row(
            name=values["name"], slug=values["slug"], date=values["date"], place=values["place"],
            club=values["organisation__name"], club_slug=values["organisation__slug"],
            region=values["organisation__region"], kind=kind_of(flags), stage=values["stage"],
            registration=(values["registration_open"] and values["stage"] == UPCOMING
                          and (deadline is None or deadline > now)),
            standings=values["public_standings"]))
    return rows


@dataclass(frozen=True)
class _Flags:
    cup_advance: int | None
    team_match: bool
    counts_for_rangliste: bool


@dataclass(frozen=True)
class StartPage:
    running: list[Row]
    upcoming: list[Row]
    finished: list[Row]


def start_page(filters: Filters, *, today: datetime.date | None = None,
               now: datetime.datetime | None = None) -> StartPage:
    """What runs now, what comes next and what finished last (`START_ROWS` each), in three queries.
    A month among the filters keeps each list within that month."""
    today = today or timezone.localdate()
    now = now or timezone.now()
    found = with_stage(public_tournaments(filters), today)
    if filters.month:
        found = found.filter(date__gte=filters.month, date__lt=next_month(filters.month))
    yesterday = today - datetime.timedelta(days=1)
    running = found.filter(date__gte=yesterday, date__lte=today, stage=RUNNING).order_by("date", "name")
    upcoming = found.filter(date__gte=today, stage=UPCOMING).order_by("date", "name")
    finished = found.filter(date__lte=today, stage=FINISHED).order_by("-date", "name")
    return StartPage(running=rows_of(running[:START_ROWS], now), upcoming=rows_of(upcoming[:START_ROWS], now),
                     finished=rows_of(finished[:START_ROWS], now))


def next_month(month: datetime.date) -> datetime.date:
    return (month.replace(day=28) + datetime.timedelta(days=4)).replace(day=1)


def previous_month(month: datetime.date) -> datetime.date:
    return (month - datetime.timedelta(days=1)).replace(day=1)


@dataclass(frozen=True)
class MonthPage:
    month: datetime.date
    days: list[tuple[datetime.date, list[Row]]]  # the days with tournaments, in order
    count: int  # tournaments in the month that pass the filters
    page: int
    pages: int

    @property
    def previous(self) -> datetime.date:
        return previous_month(self.month)

    @property
    def next(self) -> datetime.date:
        return next_month(self.month)


def month_page(filters: Filters, *, month: datetime.date, page: int = 1, today: datetime.date | None = None,
               now: datetime.datetime | None = None) -> MonthPage:
    """One month of the calendar, `PAGE_SIZE` tournaments a page (a page past the last shows the last),
    by date and name: a count and one query for the page."""
    today = today or timezone.localdate()
    now = now or timezone.now()
    found = public_tournaments(filters).filter(date__gte=month, date__lt=next_month(month))
    count = found.count()
    pages = max(1, -(-count // PAGE_SIZE))
    page = min(max(1, page), pages)
    start = (page - 1) * PAGE_SIZE
    rows = rows_of(with_stage(found, today).order_by("date", "name", "id")[start:start + PAGE_SIZE], now)
    days: list[tuple[datetime.date, list[Row]]] = []
    for row in rows:
        if not days or days[-1][0] != row.date:
            days.append((row.date, []))
        days[-1][1].append(row)
    return MonthPage(month=month, days=days, count=count, page=page, pages=pages)


def clubs() -> list[tuple[str, str]]:
    """The organisations for the club filter: (slug, name), by name; one query."""
    return list(Organisation.objects.order_by("name", "slug").values_list("slug", "name"))
