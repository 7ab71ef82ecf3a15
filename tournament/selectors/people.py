"""Players across clubs on the hub (docs/hub.md, "Players across clubs"): one person's page over every
club's published tournaments, the suggestions a club's director confirms or rejects for its guests,
and the correction requests a tournament's directors answer.

Who is the same person: `selectors/identities.py`. What the page shows of them: only their records at
the full name's level (`privacy.FULL`); a record a club publishes by initials or not at all is never
joined to a name (it keeps its own page in its tournament, with its initials). Tournaments: those whose
overview is public; points and places where the standings are public, without rounds whose results
are hidden (what the public sees on the standings anyway).

The page in a fixed number of queries: the identity (`identities.same_person`: two, or four with a
member number), the entries with their tournaments, one aggregate of every entry's points in those
tournaments (the places), their places over time in the association's Ranglisten
(`association_rangliste.places_by_name`)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Count, Exists, Max, OuterRef, Q, Sum
from django.utils import timezone

from scoring import rangliste as rules

from .. import collation, privacy
from ..log.audit import ACTIONS
from ..models import CorrectionRequest, Entry, IdentityDecision, Organisation, Player, Tally
from . import association_rangliste, identities
from .rangliste import player_key, public_key

CLOSE_DAYS = 366  # tournaments this close count as "close dates" for a suggestion
MOST_GUESTS = 50  # guests of one organisation with suggestions on its page at a time
MOST_DECIDED = 100


@dataclass(frozen=True)
class HistoryRow:
    tournament: str
    slug: str
    date: datetime.date
    club: str  # the organisation that ran it
    place: int | None  # by points, ties share a place; None: standings not public or nothing played
    players: int
    rounds: int
    points: int | None
    entry_id: int | None  # the tournament's own player page (None: not public)
    tournament_id: int
    player_id: int  # the club's record that played it
    standings_public: bool = True  # False: the "–" is a private Tabelle, not a tournament without results

    @property
    def average(self):
        return None if not self.rounds or self.points is None else rules.rounded(Fraction(self.points, self.rounds))


@dataclass(frozen=True)
class PersonPage:
    record: int  # the record the address names
    name: str
    club: str
    clubs: list[str]  # the organisations they played at
    rows: list[HistoryRow]  # newest first
    rounds: int
    points: int
    ranglisten: list[association_rangliste.Places]  # their places over time in the association's Ranglisten

    @property
    def average(self):
        return rules.rounded(Fraction(self.points, self.rounds)) if self.rounds else None

    @property
    def places(self) -> list[HistoryRow]:
        """The tournaments with a place, oldest first (the chart)."""
        return [row for row in reversed(self.rows) if row.place is not None]


def shown_records(record_id: int) -> tuple[str, list[identities.Record]] | None:
    """Who the person is (`identities.same_person`'s key) and their records that the page may join to a
    name (None: the address names no record the public may see by name)."""
    person = identities.same_person(record_id)
    if person is None:
        return None
    key, records = person
    shown = [r for r in records if r.publication == privacy.FULL]
    return (key, shown) if any(r.id == record_id for r in shown) else None


def rangliste_links(key: str, records: list[identities.Record], organisation: str) -> set[str]:
    """The links (`rangliste.public_key`) under which an association's Rangliste keeps this person's
    places: their key (a member number, or a confirmed group: `selectors.rangliste.identity` reads the
    same), and for a guest whom no confirmation joins, their name and club as the Rangliste reads them."""
    links = {public_key(key)}
    if key.startswith("g") and len(records) == 1:
        record = records[0]
        links.add(public_key(player_key(name=record.name, club=record.club.strip() or organisation, member_number="")))
    return links


def person_page(record_id: int, *, today: datetime.date | None = None) -> PersonPage | None:
    """The person's history: their tournaments up to `today` (a tournament still to come is not history:
    the page would open with rows of nothing played)."""
    today = today or timezone.localdate()
    found = shown_records(record_id)
    if found is None:
        return None
    key, records = found
    entries = list(
        Entry.objects.filter(
            player_id__in=[r.id for r in records], tournament__public_overview=True, tournament__date__lte=today
        )
        .order_by("-tournament__date", "-id")
        .values_list(
            "id",
            "player_id",
            "tournament_id",
            "tournament__name",
            "tournament__slug",
            "tournament__date",
            "tournament__organisation__name",
            "tournament__public_standings",
            "tournament__public_players",
            "player__organisation__name",
        )
    )
    if not entries:
        return None
    counted = [e[2] for e in entries if e[7]]
    sums: dict[int, dict[int, tuple[int, int]]] = {}
    for tournament_id, entry_id, points, rounds in (
        Tally.objects.filter(round__tournament_id__in=counted, round__results_hidden=False)
        .order_by()
        .values("round__tournament_id", "entry_id")
        .annotate(sum_points=Sum("points"), rounds=Count("round_id", distinct=True))
        .values_list("round__tournament_id", "entry_id", "sum_points", "rounds")
    ):
        sums.setdefault(tournament_id, {})[entry_id] = (points or 0, rounds)
    rows = []
    for entry_id, _player, tournament_id, name, slug, date, club, standings, players_public, _org in entries:
        mine = sums.get(tournament_id, {}).get(entry_id) if standings else None
        place = None
        if mine is not None:
            place = 1 + sum(1 for points, _r in sums[tournament_id].values() if points > mine[0])
        rows.append(
            HistoryRow(
                tournament=name,
                slug=slug,
                date=date,
                club=club,
                place=place,
                players=len(sums.get(tournament_id, {})),
                rounds=mine[1] if mine else 0,
                points=mine[0] if mine else None,
                entry_id=entry_id if players_public else None,
                tournament_id=tournament_id,
                player_id=_player,
                standings_public=standings,
            )
        )
    newest = next(r for r in records if r.id == entries[0][1])
    clubs = sorted({row.club for row in rows}, key=collation.name_key)
    organisation = next((e[9] for e in entries if e[1] == record_id), "")
    ranglisten = association_rangliste.places_by_name(rangliste_links(key, records, organisation))
    return PersonPage(
        record=record_id,
        name=newest.name,
        club=newest.club,
        clubs=clubs,
        rows=rows,
        rounds=sum(row.rounds for row in rows),
        points=sum(row.points or 0 for row in rows),
        ranglisten=ranglisten,
    )


# ---- the suggestions a director decides -----------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    id: int
    name: str
    club: str
    organisation: str
    latest: datetime.date | None
    shared_club: bool
    close_dates: bool
    linked: bool  # the public may see the record by name: its person page shows its tournaments


@dataclass(frozen=True)
class Guest:
    id: int
    name: str
    club: str
    latest: datetime.date | None
    candidates: list[Candidate]


@dataclass(frozen=True)
class Decided:
    id: int
    guest: str  # the name and the club (`identities.Link`'s labels)
    other: str
    same: bool
    at: datetime.datetime


@dataclass(frozen=True)
class Decision:
    """A line of the change log of the organisation's decisions (`IdentityDecision`'s history)."""

    at: datetime.datetime
    user: str
    action: str
    guest: str  # the name and the club
    other: str


@dataclass(frozen=True)
class IdentityPage:
    guests: list[Guest]  # with at least one suggestion not decided yet
    decided: list[Decided]
    history: list[Decision]


def _latest(queryset, *, public: bool, today: datetime.date):
    """`latest`: the last tournament played (one still to come is not "zuletzt"); `shown`: one public."""
    shown = Entry.objects.filter(player=OuterRef("pk"), tournament__date__lte=today)
    if public:
        shown = shown.filter(tournament__public_overview=True, tournament__public_players=True)
    played = Q(entries__tournament__date__lte=today)
    return queryset.annotate(latest=Max("entries__tournament__date", filter=played), shown=Exists(shown))


def identity_page(organisation: Organisation, *, today: datetime.date | None = None) -> IdentityPage:
    """The organisation's guests (its records without a member number) with the records elsewhere that
    may be the same person: the same name folded the German way, each with whether they share a club
    and whether their tournaments are close in time; then the decisions and their history. Another
    organisation's record is suggested only as the public sees it: at the full name's level, with an
    entry in a tournament whose player pages are public; a record already decided about, or already
    the same person as the guest (`identities.identity_keys`), is not suggested again. Only tournaments
    played count (up to `today`): a guest or a record with nothing but registrations for tournaments to
    come is not suggested yet. Seven queries."""
    today = today or timezone.localdate()
    decisions = list(
        IdentityDecision.objects.filter(organisation=organisation)
        .order_by("-decided_at", "-id")
        .values_list(
            "id",
            "player_id",
            "player__name",
            "player__club",
            "organisation__name",
            "other_id",
            "other__name",
            "other__club",
            "other__organisation__name",
            "same",
            "decided_at",
        )
    )
    decided_pairs = {(d[1], d[5]) for d in decisions}
    guests = list(
        _latest(Player.objects.filter(organisation=organisation, member_number=""), public=False, today=today)
        .filter(latest__isnull=False)
        .order_by("-latest", "id")
        .values_list("id", "name", "club", "latest")[:MOST_GUESTS]
    )
    # the name folded the German way (Krämer = Kraemer): the first form of the stored search key
    guests = [(*g, collation.transliterated(" ".join(g[1].split()))) for g in guests]
    keys = {g[4] for g in guests if g[4]}
    candidates: dict[str, list[tuple]] = {}
    if keys:
        same_name = Q()
        for key in keys:
            same_name |= Q(search_key=key) | Q(search_key__startswith=key + collation.KEY_SEPARATOR)
        found = (
            _latest(Player.objects.filter(same_name), public=True, today=today)
            .filter(Q(organisation=organisation) | Q(publication=privacy.FULL, shown=True))
            .filter(latest__isnull=False)
            .values_list(
                "id",
                "name",
                "club",
                "organisation_id",
                "organisation__name",
                "latest",
                "search_key",
                "publication",
                "shown",
            )
        )
        for row in found:
            candidates.setdefault(row[6].split(collation.KEY_SEPARATOR)[0], []).append(row)
    # who is already who: a record the guest already is (a confirmation, a chain of them) is no suggestion
    keys_of = identities.identity_keys(
        {g[0] for g in guests} | {row[0] for rows in candidates.values() for row in rows}
    )
    result = []
    own_name = collation.name_key(organisation.name)[0]
    for guest_id, name, club, latest, key in guests:
        folded_club = collation.name_key(club)[0] if club.strip() else ""
        found_for = []
        for row in candidates.get(key, []):
            other_id, other_name, other_club, org_id, org_name, other_latest, _key, publication, shown = row
            if other_id == guest_id or (guest_id, other_id) in decided_pairs:
                continue
            if keys_of.get(guest_id) is not None and keys_of.get(guest_id) == keys_of.get(other_id):
                continue
            other_club_folded = collation.name_key(other_club)[0] if other_club.strip() else ""
            shared = (
                org_id == organisation.pk
                or (folded_club and folded_club in {other_club_folded, collation.name_key(org_name)[0]})
                or (other_club_folded == own_name)
            )
            close = bool(latest and other_latest and abs((latest - other_latest).days) <= CLOSE_DAYS)
            found_for.append(
                Candidate(
                    id=other_id,
                    name=other_name,
                    club=other_club,
                    organisation=org_name,
                    latest=other_latest,
                    shared_club=bool(shared),
                    close_dates=close,
                    linked=publication == privacy.FULL and shown,
                )
            )
        if found_for:
            found_for.sort(key=lambda c: (not c.shared_club, not c.close_dates, c.organisation, c.id))
            result.append(Guest(id=guest_id, name=name, club=club, latest=latest, candidates=found_for))
    decided = [
        Decided(
            id=d[0],
            guest=identities.label(d[2], d[3], d[4]),
            other=identities.label(d[6], d[7], d[8]),
            same=d[9],
            at=d[10],
        )
        for d in decisions[:MOST_DECIDED]
    ]
    history = [
        Decision(
            at=row[0],
            user=row[1],
            action=str(ACTIONS.get(row[2], row[2])),
            guest=identities.label(row[3], row[4], row[5]) if row[3] else "?",
            other=identities.label(row[6], row[7], row[8]) if row[6] else "?",
        )
        for row in IdentityDecision.history.filter(organisation_id=organisation.pk)
        .order_by("-history_date", "-history_id")
        .values_list("history_date", "log_user", "log_action", *identities.BOTH_LABELS)[:MOST_DECIDED]
    ]
    return IdentityPage(guests=result, decided=decided, history=history)


# ---- correction requests --------------------------------------------------------------------------


@dataclass(frozen=True)
class Correction:
    id: int
    player_id: int  # the player's page on the hub (`/spieler/<record>/`)
    player: str
    text: str
    contact: str
    status: str
    answer: str
    created_at: datetime.datetime


def corrections(tournament_id: int) -> list[Correction]:
    """A tournament's correction requests, open ones first (its directors' page; one query)."""
    rows = (
        CorrectionRequest.objects.filter(tournament_id=tournament_id)
        .order_by("-created_at", "-id")
        .values_list("id", "player_id", "player__name", "text", "contact", "status", "answer", "created_at")
    )
    found = [Correction(*row) for row in rows]
    return sorted(found, key=lambda c: c.status != CorrectionRequest.Status.OPEN)


def open_corrections(tournament_id: int) -> int:
    """How many of the tournament's correction requests wait for an answer (one query)."""
    return CorrectionRequest.objects.filter(tournament_id=tournament_id, status=CorrectionRequest.Status.OPEN).count()


def open_corrections_of(user) -> dict[int, int]:
    """The open correction requests of the tournaments `user` directs, by tournament id ("Meine
    Turniere" on a hub; one query). Helpers do not read requests: their tournaments are not in it."""
    if not user.is_authenticated:
        return {}
    found = CorrectionRequest.objects.filter(status=CorrectionRequest.Status.OPEN)
    if not user.is_superuser:
        found = found.filter(tournament__directors=user)
    rows = found.values("tournament_id").annotate(n=Count("id", distinct=True)).values_list("tournament_id", "n")
    return dict(rows)
