"""A Rangliste across tournaments: each player's rounds, recognised across the tournaments, handed
to `scoring.rangliste` (docs/competitions.md, "Rangliste in the app").

Reads only, in four queries whatever the number of tournaments, players and rounds: the tournaments,
their entries, one aggregate of the scores per player and round, the series' merges (an association's:
six, its member clubs' tournaments checked first, `checked_tournaments`, and the directors'
confirmations of who is who, `identities.confirmed_keys`)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Count, F, Max, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.crypto import salted_hmac

from scoring import rangliste as rules

from .. import names, privacy
from ..collation import name_key
from ..models import Entry, Rangliste, Score, SeriesMerge, Tournament
from .identities import confirmed_keys, member_key
from .series import resolve


def player_key(*, name: str, club: str, member_number: str) -> str:
    """The member number when there is one, else the name and club as in series (`names.identity`)."""
    return member_key(member_number) if member_number.strip() else names.identity(name, club)


def identity(*, record: int, name: str, club: str, member_number: str, organisation: str,
             confirmed: dict[int, str]) -> str:
    """Who a player of an association's Rangliste is, across its clubs: the one place that says it. A
    record that a director's confirmation joins to another is that person (`confirmed`, from
    `identities.confirmed_keys`: a guest confirmed as a member is the member); else the member number,
    else the name and the club, where a record without a club is of its organisation's club."""
    if record in confirmed:
        return confirmed[record]
    return player_key(name=name, club=club.strip() or organisation, member_number=member_number)


@dataclass(frozen=True)
class Checked:
    """A Ranglistenturnier of a member club as an association's rules find it (docs/competitions.md)."""

    tournament_id: int
    name: str
    slug: str
    date: datetime.date
    organisation: str
    players: int
    rounds: int
    reason: str  # RanglisteTournament.Reason: "" counts


def checked_tournaments(rangliste: Rangliste, *, until: datetime.date | None = None) -> list[Checked]:
    """Every public Ranglistenturnier of the association's member clubs up to `until` (today: one still
    to come has no results to count yet), each checked against its rules: standings public, at least
    `minimum_players` players, at least `minimum_tournament_rounds` rounds (the rounds planned, or
    played where more). One query."""
    from ..models import RanglisteTournament, Round

    players = Entry.objects.filter(tournament=OuterRef("pk")).order_by().values("tournament").annotate(
        n=Count("id")).values("n")
    rounds = Round.objects.filter(tournament=OuterRef("pk")).order_by().values("tournament").annotate(
        n=Count("id")).values("n")
    found = (Tournament.objects.filter(counts_for_rangliste=True, public_overview=True,
                                       date__lte=until or timezone.localdate(),
                                       organisation__in=rangliste.members.values("id"))
             .annotate(players=Coalesce(Subquery(players), 0), made=Coalesce(Subquery(rounds), 0))
             .order_by("-date", "id")
             .values_list("id", "name", "slug", "date", "organisation__name", "public_standings", "players",
                          "rounds_planned", "made"))
    result = []
    for pk, name, slug, day, organisation, public_standings, count, planned, made in found:
        rounds_count = max(planned, made)
        if not public_standings:
            reason = RanglisteTournament.Reason.STANDINGS
        elif count < rangliste.minimum_players:
            reason = RanglisteTournament.Reason.PLAYERS
        elif rounds_count < rangliste.minimum_tournament_rounds:
            reason = RanglisteTournament.Reason.ROUNDS
        else:
            reason = RanglisteTournament.Reason.COUNTS
        result.append(Checked(pk, name, slug, day, organisation, count, rounds_count, str(reason)))
    return result


@dataclass(frozen=True)
class RoundLine:
    """One player's round of one tournament: a line of the export, a record of the Rangliste."""

    key: str
    name: str
    member_number: str
    club: str
    tournament: str
    tournament_slug: str
    date: datetime.date
    round: int
    table: int | None  # None where the tournament's seating is not public
    games: int
    points: int  # penalties included
    penalties: int  # the part of `points` that are penalties (negative for the offender)
    pflichtsolo: bool | None  # None: no list with Pflichtsoli, or a table entered as totals only


def public_key(key: str) -> str:
    """What a link to a player's history carries (`?p=`): a digest of who they are, not their member
    number or name (a number must not be readable or guessable from an address)."""
    return salted_hmac("rangliste-player", key).hexdigest()[:20]


@dataclass(frozen=True)
class Person:
    key: str
    name: str  # as written at their latest tournament
    club: str
    member_number: str  # empty unless their organisation publishes member numbers
    level: str = privacy.FULL  # the strictest publication level of their records

    @property
    def link(self) -> str:
        return public_key(self.key)


@dataclass(frozen=True)
class RanglisteRow:
    person: Person
    row: rules.RanglisteRow

    @property
    def average(self):
        return rules.rounded(self.row.average)


@dataclass(frozen=True)
class RanglisteView:
    rangliste: Rangliste
    until: datetime.date
    tournaments: int  # tournaments that feed it
    result: rules.Rangliste
    rows: list[RanglisteRow]  # ranked
    below: list[RanglisteRow]  # below the minimum of rounds
    lines: list[RoundLine]  # every round in the window (the export)
    cut_after: dict[int, list[rules.CutLine]]  # index of the ranked row a cut line follows -> its lines
    people: dict[str, Person]
    read: Read  # what it was read from (the carried rating: web/rating_scopes.py)


def _tournaments(rangliste: Rangliste, until: datetime.date | None = None):
    tournaments = Tournament.objects.filter(public_standings=True)
    if rangliste.source == Rangliste.Source.ASSOCIATION:
        return tournaments.filter(pk__in=[c.tournament_id for c in checked_tournaments(rangliste, until=until)
                                          if not c.reason])
    if rangliste.source == Rangliste.Source.SERIES:
        return tournaments.filter(series_id=rangliste.series_id) if rangliste.series_id else tournaments.none()
    return tournaments.filter(counts_for_rangliste=True)


def round_lines(rangliste: Rangliste, *, public: bool = False,
                until: datetime.date | None = None) -> tuple[list[RoundLine], dict[str, Person], int]:
    """Every round a player played in the Rangliste's tournaments, with who they are (`read`)."""
    found = read(rangliste, public=public, until=until)
    return found.lines, found.people, len(found.tournaments)


@dataclass(frozen=True)
class Read:
    lines: list[RoundLine]
    people: dict[str, Person]
    tournaments: list[Tournament]  # in the order of their dates (then ids)
    keys: dict[int, str]  # entry id -> who the entry is across the tournaments (`Person.key`)
    tournament_of: dict[int, int]  # entry id -> its tournament's id


def read(rangliste: Rangliste, *, public: bool = False, until: datetime.date | None = None) -> Read:
    """Every round a player played in the Rangliste's tournaments, with who they are across them.
    Counted: the tournaments whose standings are public, their rounds whose results are not hidden
    (what the public sees anyway). Who is who goes by the member number; the number itself is shown
    only where the player's organisation publishes member numbers, and the table only where the
    tournament's seating is public (docs/security.md). Four queries (an association's: six).

    `public`: names, clubs and member numbers as the public sees them (`privacy`, the strictest level
    of the person's records; "—" for a hidden one: the Rangliste has no start number). `until`: an
    association's Ranglistenturniere up to that day (today when None; `checked_tournaments`)."""
    tournaments = {t.pk: t for t in _tournaments(rangliste, until).only("id", "name", "slug", "date", "pflichtsoli",
                                                                        "public_seating", "rating_shown")
                   .annotate(organisation_rating=F("organisation__rating_enabled"))}
    entries = list(Entry.objects.filter(tournament_id__in=list(tournaments)).order_by()
                   .values_list("id", "tournament_id", "player__name", "player__club", "player__member_number",
                                "player__organisation__publish_member_numbers", "player__publication",
                                "player__organisation__name", "player_id"))
    sums = list(Score.objects.filter(round__tournament_id__in=list(tournaments), round__results_hidden=False)
                .order_by().values("entry_id", "round__number")
                .annotate(sum_points=Sum("points"), sum_games=Sum("games"), table_number=Max("table__number"),
                          sum_penalties=Sum("points", filter=Q(kind=Score.Kind.PENALTY)),
                          totals=Count("id", filter=Q(kind=Score.Kind.TOTAL)),
                          pflichtsoli=Count("id", filter=Q(kind=Score.Kind.GAME, solo=True, game__pflichtsolo=True)))
                .values_list("entry_id", "round__number", "sum_points", "sum_games", "table_number", "sum_penalties",
                             "totals", "pflichtsoli"))
    merges = {m.alias: m.same_as for m in SeriesMerge.objects.filter(
        series_id=(rangliste.series_id or 0) if rangliste.source == Rangliste.Source.SERIES else 0).order_by("id")}

    # who each entry is; two entries of one tournament are never one person
    keys: dict[int, str] = {}
    seen: set[tuple[str, int]] = set()
    latest: dict[str, tuple[datetime.date, int, str, str, str]] = {}
    by_entry = {}
    levels: dict[str, list[str]] = {}
    association = rangliste.source == Rangliste.Source.ASSOCIATION
    confirmed = confirmed_keys() if association else {}
    for entry_id, tournament_id, name, club, number, published, level, organisation, record in sorted(
            entries, key=lambda e: (e[1], e[0])):
        if association:
            key = identity(record=record, name=name, club=club, member_number=number, organisation=organisation,
                           confirmed=confirmed)
            club = club.strip() or organisation  # shown as the key reads it
        else:
            key = player_key(name=name, club=club, member_number=number)
        number = number if published else ""
        if not number.strip():
            key = resolve(merges, key)
        if (key, tournament_id) in seen:
            key = f"{key}\n#{entry_id}"
        seen.add((key, tournament_id))
        keys[entry_id] = key
        levels.setdefault(key, []).append(level)
        by_entry[entry_id] = (tournament_id, name, club, number)
        day = tournaments[tournament_id].date
        if key not in latest or latest[key][:2] <= (day, entry_id):
            latest[key] = (day, entry_id, name, club, number)
    strictest = {key: privacy.strictest(found) for key, found in levels.items()}

    def shown(key: str, name: str, club: str, number: str) -> tuple[str, str, str]:
        if not public:
            return name, club, number
        level = strictest[key]
        return (privacy.shown_name(name, level), privacy.shown_club(club, level),
                privacy.shown_member_number(number, level))

    people = {key: Person(key, *shown(key, name, club, number.strip()), level=strictest[key])
              for key, (_day, _id, name, club, number) in latest.items()}
    lines = []
    for entry_id, round_number, points, games, table, penalties, totals, pflichtsoli in sums:
        tournament_id, name, club, number = by_entry[entry_id]
        name, club, number = shown(keys[entry_id], name, club, number)
        tournament = tournaments[tournament_id]
        lines.append(RoundLine(
            key=keys[entry_id], name=name, member_number=number.strip(), club=club, tournament=tournament.name,
            tournament_slug=tournament.slug, date=tournament.date, round=round_number,
            table=(table or 0) if tournament.public_seating else None,
            games=games or 0, points=points or 0, penalties=penalties or 0,
            pflichtsolo=None if not tournament.pflichtsoli or totals else pflichtsoli > 0))
    lines.sort(key=lambda line: (name_key(line.name), line.key, line.date, line.tournament_slug, line.round))
    ordered = sorted(tournaments.values(), key=lambda t: (t.date, t.pk))
    return Read(lines=lines, people=people, tournaments=ordered, keys=keys,
                tournament_of={entry_id: found[0] for entry_id, found in by_entry.items()})


def records(lines: list[RoundLine]) -> list[rules.RoundRecord]:
    return [rules.RoundRecord(player=line.key, day=line.date, tournament=line.tournament_slug, round=line.round,
                              points=line.points) for line in lines]


def rangliste_view(rangliste: Rangliste, *, until: datetime.date, public: bool = False) -> RanglisteView:
    """The Rangliste on `until`: ranked, below the minimum, the cut lines; and every round in the window.
    `public`: with the names the public sees (`round_lines`)."""
    return _view(rangliste, until, read(rangliste, public=public, until=until))


def view_from_lines(rangliste: Rangliste, until: datetime.date, found: Read) -> RanglisteView:
    """The Rangliste on `until` from what `read` found (the association's stored list computes it so)."""
    return _view(rangliste, until, found)


def _view(rangliste: Rangliste, until: datetime.date, found: Read) -> RanglisteView:
    lines, people, count = found.lines, found.people, len(found.tournaments)
    result = rules.rangliste(records=records(lines), until=until, months=rangliste.months,
                             minimum_rounds=rangliste.minimum_rounds, cut_lines=rangliste.cut_line_pairs())
    rows = [RanglisteRow(person=people[row.player], row=row) for row in result.rows]
    below = [RanglisteRow(person=people[row.player], row=row) for row in result.below_minimum]
    cut_after: dict[int, list[rules.CutLine]] = {}
    for line in result.cut_lines:
        if line.rows_above:
            cut_after.setdefault(line.rows_above - 1, []).append(line)
    window_lines = [line for line in lines if line.date in result.window]
    return RanglisteView(rangliste=rangliste, until=until, tournaments=count, result=result, rows=rows, below=below,
                         lines=window_lines, cut_after=cut_after, people=people, read=found)


@dataclass(frozen=True)
class PlayerHistory:
    rangliste: Rangliste
    person: Person
    history: rules.History
    lines: list[RoundLine]  # every round up to `until`
    names: dict[str, tuple[str, datetime.date]]  # tournament slug -> name, date
    row: rules.RanglisteRow | None  # the player's row of the Rangliste (None: no round in the window)
    read: Read | None = None  # what it was read from (the carried rating: web/rating_scopes.py)

    @property
    def average(self):
        average = self.history.average
        return None if average is None else rules.rounded(average)

    def tournament_average(self, line: rules.TournamentLine):
        return rules.rounded(Fraction(line.points, line.rounds))


def player_history(rangliste: Rangliste, *, link: str, until: datetime.date,
                   public: bool = False) -> PlayerHistory | None:
    """A player's tournaments in the Rangliste, found by their link (`Person.link`; None: nobody)."""
    found = read(rangliste, public=public, until=until)
    lines, people = found.lines, found.people
    view = _view(rangliste, until, found)
    key = next((person.key for person in people.values() if person.link == link), None)
    if key is None:
        return None
    own = [line for line in lines if line.key == key and line.date <= until]
    history = rules.history(records=records(own), player=key, until=until, months=rangliste.months)
    row = next((r.row for r in [*view.rows, *view.below] if r.person.key == key), None)
    return PlayerHistory(rangliste=rangliste, person=people[key], history=history, lines=own,
                         names={line.tournament_slug: (line.tournament, line.date) for line in own}, row=row,
                         read=found)
