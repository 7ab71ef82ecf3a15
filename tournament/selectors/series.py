"""A series of tournaments: its standings over the evenings, with players recognised across them.

Reads only, in a fixed number of queries whatever the size."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.db.models import Count, Exists, OuterRef, Q, Sum, Value

from .. import names, privacy
from ..collation import name_key
from ..models import Entry, Round, Score, Series, SeriesMerge, Tournament

# who a player is within a series, as within a tournament: the same name and club (names.identity)
identity_key = names.identity
person_text = names.person_text



@dataclass
class SeriesEvening:
    """One tournament of a series, a column of its standings."""

    tournament_id: int
    name: str
    slug: str
    date: datetime.date
    public_standings: bool
    directed: bool  # the viewer directs it: its hidden results count for them
    hidden: bool = False  # some of its rounds' results are hidden from the public
    joined: bool = False  # not an evening of the series: it names the series' short name (a season across clubs)


@dataclass
class SeriesCell:
    points: int | None  # None: not played (or nothing of it is visible)
    counts: bool = False  # part of the total (best k: one of the best evenings)


@dataclass
class SeriesRow:
    key: str  # the identity (`identity_key`) the row stands for
    name: str
    club: str
    cells: list[SeriesCell]  # one per evening, in the evenings' order
    played: int = 0
    points: int = 0  # the sum of the evenings that count
    value: Fraction = Fraction(0)  # what ranks: the sum, the best k's sum, or the average
    rank: int | None = None  # None: no evening played yet
    merged: list[str] = field(default_factory=list)  # "Name (Verein)" of the identities merged into this one
    evenings: set[int] = field(default_factory=set)  # tournament ids with an entry (for merging)

    @property
    def shown_value(self) -> int | Decimal:
        """What the table shows as the result: a whole number, an average to one decimal."""
        if self.value.denominator == 1:
            return int(self.value)
        return (Decimal(self.value.numerator) / Decimal(self.value.denominator)).quantize(
            Decimal("0.1"), rounding=ROUND_HALF_UP)


@dataclass
class SeriesStandings:
    series: Series
    evenings: list[SeriesEvening]
    rows: list[SeriesRow]  # ranked first, then those who have not played yet, by name
    merges: list[tuple[SeriesMerge, str, str]]  # each merge with the shown names of both sides
    # merges that do not count, by id: the two played one evening (an evening added after the merge),
    # with that evening's name
    blocked: dict[int, str] = field(default_factory=dict)


def resolve(merges: dict[str, str], key: str) -> str:
    """The identity `key` counts as, following merges (a merge into a merged identity goes on)."""
    seen = {key}
    while key in merges and merges[key] not in seen:
        key = merges[key]
        seen.add(key)
    return key


def joined_days(series: Series, *, members_only: bool) -> Q:
    """The tournaments of a season across clubs (docs/competitions.md, "A season across clubs"): the
    series' own evenings, and the public tournaments that name its short name (`Tournament.season`),
    all of them (`members_only` False: those of other clubs are listed as not counting) or only those of
    its organisation and its clubs (`Series.clubs`)."""
    named = Q(season=series.slug, public_overview=True)
    if members_only:
        named &= Q(organisation_id=series.organisation_id) | Q(organisation__slug__in=list(series.clubs))
    return Q(series=series) | named


def series_tournaments(series: Series, *, user=None, joined: bool = False, members_only: bool = True):
    """The series' tournaments in date order, each annotated `directed`: whether `user` directs it
    (a superuser every one), which decides what of its results they may see (not evaluated here).
    `joined`: with the tournaments that join it by its short name (`joined_days`)."""
    superuser = bool(user is not None and user.is_authenticated and user.is_superuser)
    tournaments = Tournament.objects.filter(
        joined_days(series, members_only=members_only) if joined else Q(series=series)).order_by("date", "name", "id")
    if user is not None and user.is_authenticated and not superuser:
        return tournaments.annotate(directed=Exists(
            Tournament.directors.through.objects.filter(tournament_id=OuterRef("pk"), user_id=user.pk)))
    return tournaments.annotate(directed=Value(superuser))


def series_standings(series: Series, *, user=None, public: bool = False) -> SeriesStandings:
    """The standings of a series: each player's total game points per evening, ranked by the
    series' mode. Results hidden from the public (a hidden round, a tournament whose standings are
    not public) count only for a director of that tournament (`user`). Four queries whatever the
    size: the evenings, their entries, one aggregate of the scores of all evenings, the merges.

    `public`: each row with the name and club the public sees (`privacy`: the strictest level of the
    person's records at the evenings, "—" for a hidden one: a series has no start number), and the
    names merged into it only when all of them are published in full."""
    tournaments = series_tournaments(series, user=user, joined=True).annotate(
        hidden=Exists(Round.objects.filter(tournament_id=OuterRef("pk"), results_hidden=True)))
    evenings = [SeriesEvening(tournament_id=t.pk, name=t.name, slug=t.slug, date=t.date,
                              public_standings=t.public_standings, directed=t.directed, hidden=t.hidden,
                              joined=t.series_id != series.pk)
                for t in tournaments.only("id", "name", "slug", "date", "public_standings", "series_id")]
    column = {evening.tournament_id: index for index, evening in enumerate(evenings)}
    shown = [e.tournament_id for e in evenings if e.public_standings or e.directed]
    full = [e.tournament_id for e in evenings if e.directed]
    level_of: dict[int, str] = {}
    entries: list[tuple[int, int, str, str]] = []
    for entry_id, tournament_id, name, club, level in (
            Entry.objects.filter(tournament_id__in=list(column)).order_by()
            .values_list("id", "tournament_id", "player__name", "player__club", "player__publication")):
        level_of[entry_id] = level
        entries.append((entry_id, tournament_id, name, club))
    points: dict[int, tuple[int, int]] = {
        entry_id: (total or 0, count) for entry_id, total, count in
        Score.objects.filter(round__tournament_id__in=shown).filter(
            Q(round__results_hidden=False) | Q(round__tournament_id__in=full))
        .order_by().values("entry_id").annotate(total=Sum("points"), count=Count("id"))
        .values_list("entry_id", "total", "count")}
    merge_rows = list(series.merges.all())

    # who each entry is; two entries of one evening are never one person (two of one identity there,
    # entered before names were checked, each keep a row of their own)
    keys: dict[int, str] = {}
    played: dict[str, set[int]] = {}  # identity -> its evenings
    for entry_id, tournament_id, name, club in sorted(entries, key=lambda e: (e[1], e[0])):
        key = identity_key(name, club)
        if tournament_id in played.get(key, ()):
            key = f"{key}\n#{entry_id}"
        keys[entry_id] = key
        played.setdefault(key, set()).add(tournament_id)
    merges, blocked = _merges(merge_rows, played, {e.tournament_id: e.name for e in evenings})

    # each identity's name and club as written at its latest evening
    latest: dict[str, tuple[int, str, str]] = {}
    rows: dict[str, SeriesRow] = {}
    members: dict[str, set[str]] = {}
    levels: dict[str, list[str]] = {}  # root -> the publication levels of its entries
    for entry_id, tournament_id, name, club in entries:
        key = keys[entry_id]
        where = column[tournament_id]
        if key not in latest or latest[key][0] <= where:
            latest[key] = (where, name, club)
        root = resolve(merges, key)
        members.setdefault(root, set()).add(key)
        levels.setdefault(root, []).append(level_of[entry_id])
        row = rows.get(root)
        if row is None:
            row = rows[root] = SeriesRow(key=root, name="", club="", cells=[SeriesCell(None) for _e in evenings])
        row.evenings.add(tournament_id)
        if entry_id in points:
            total, _count = points[entry_id]
            cell = row.cells[where]
            cell.points = (cell.points or 0) + total
    for root, row in rows.items():
        own = latest.get(root) or max(latest[k] for k in members[root])
        row.name, row.club = own[1], own[2]
        row.merged = sorted((person_text(latest[k][1], latest[k][2]) for k in members[root] if k != root),
                            key=name_key)
        level = privacy.strictest(levels[root])
        if public and level != privacy.FULL:
            row.name, row.club = privacy.shown_name(row.name, level), privacy.shown_club(row.club, level)
            row.merged = []
        _score(row, series)
    ranked = rank_series_rows([row for row in rows.values() if row.played])
    waiting = sorted((row for row in rows.values() if not row.played),
                     key=lambda row: (name_key(row.name), name_key(row.club)))
    shown_merges = [(m, person_text(*latest[m.alias][1:]) if m.alias in latest else m.alias.replace("\n", " · "),
                     person_text(*latest[m.same_as][1:]) if m.same_as in latest else m.same_as.replace("\n", " · "))
                    for m in merge_rows]
    return SeriesStandings(series=series, evenings=evenings, rows=ranked + waiting,
                           merges=[] if public else shown_merges,
                           blocked=blocked)


def _merges(merge_rows: list[SeriesMerge], played: dict[str, set[int]],
            evening_names: dict[int, str]) -> tuple[dict[str, str], dict[int, str]]:
    """The merges that count (alias -> same as), oldest first, and those that do not: a merge that
    would make one person of two who played one evening (by id, with that evening's name)."""
    merges: dict[str, str] = {}
    blocked: dict[int, str] = {}
    evenings = {key: set(ids) for key, ids in played.items()}
    for merge in merge_rows:
        alias, same_as = resolve(merges, merge.alias), resolve(merges, merge.same_as)
        if alias == same_as:
            continue
        both = evenings.get(alias, set()) & evenings.get(same_as, set())
        if both:
            blocked[merge.pk] = next(name for tid, name in evening_names.items() if tid in both)
            continue
        merges[alias] = same_as
        evenings.setdefault(same_as, set()).update(evenings.pop(alias, set()))
    return merges, blocked


def _score(row: SeriesRow, series: Series) -> None:
    """A row's evenings that count, its points and the value it is ranked by."""
    played = [(index, cell) for index, cell in enumerate(row.cells) if cell.points is not None]
    row.played = len(played)
    if series.mode == Series.Mode.BEST:
        # the best k; of equal results the earlier evening counts
        counting = sorted(played, key=lambda item: (-(item[1].points or 0), item[0]))[:max(series.best_of, 1)]
    else:
        counting = played
    for _index, cell in counting:
        cell.counts = True
    row.points = sum(cell.points or 0 for _index, cell in counting)
    if series.mode == Series.Mode.AVERAGE:
        row.value = Fraction(row.points, row.played) if row.played else Fraction(0)
    else:
        row.value = Fraction(row.points)


def rank_series_rows(rows: list[SeriesRow]) -> list[SeriesRow]:
    """Best value first; of equal values, more evenings played first; still equal, they share the
    place and are listed by name."""
    rows.sort(key=lambda row: (-row.value, -row.played, name_key(row.name), name_key(row.club)))
    previous_key, previous_rank = None, 0
    for index, row in enumerate(rows, start=1):
        this = (row.value, row.played)
        row.rank = previous_rank if this == previous_key else index
        previous_key, previous_rank = this, row.rank
    return rows
