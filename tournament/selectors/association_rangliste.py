"""An association's Rangliste as stored (`services.rangliste_refresh`): the page's lines, a player's
line with their tournaments, the tournaments that do not count and why, and the qualification tracker's
sentence (docs/competitions.md, "The association's Rangliste"). Each read is a fixed number of
queries whatever the association's size; publication levels are applied here, where lines become
output."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import rangliste as rules
from scoring import rating

from .. import privacy
from ..models import (
    Entry,
    Rangliste,
    RanglisteCount,
    RanglistePlace,
    RanglisteRating,
    RanglisteStanding,
    RanglisteTournament,
)
from .identities import confirmed_keys
from .rangliste import identity

PAGE = 100  # lines a page shows
REFUSED_SHOWN = 100  # tournaments that do not count, the newest first


@dataclass(frozen=True)
class Line:
    link: str
    name: str
    club: str
    member_number: str
    ranked: bool
    place: int
    shared: int
    rounds: int
    points: int
    tournaments: int
    qualifies: str
    minimum_rounds: int
    lines: tuple[tuple[int, str], ...]  # the cut lines
    rating: rating.Rating | None = None  # the carried rating now (None: not rated, not shown)

    @property
    def tracker(self) -> str:
        """The qualification tracker's sentence (`tracker`), worded when shown."""
        return tracker(
            ranked=self.ranked,
            place=self.place,
            rounds=self.rounds,
            minimum_rounds=self.minimum_rounds,
            lines=list(self.lines),
        )

    @property
    def average(self) -> Decimal:
        return rules.rounded(Fraction(self.points, self.rounds))

    @property
    def is_shared(self) -> bool:
        return self.shared > 1


@dataclass(frozen=True)
class Refused:
    name: str
    slug: str
    date: datetime.date
    organisation: str
    sentence: str
    reason: str = ""  # RanglisteTournament.Reason
    players: int = 0
    rounds: int = 0
    organisation_slug: str = ""


@dataclass(frozen=True)
class StoredView:
    rangliste: Rangliste
    computed_on: datetime.date | None  # None: not computed yet
    window: tuple[datetime.date, datetime.date] | None
    tournaments: int
    ranked_count: int
    below_count: int
    ranked: list[tuple[Line, list[tuple[int, str, bool]]]]  # a line and the cut lines drawn after it
    below: list[Line]
    page: int
    pages: int
    refused: list[Refused]
    refused_count: int
    rated: bool = False  # the organisation shows the rating: the page has its column


def cut_lines(rangliste: Rangliste) -> list[tuple[int, str]]:
    """The cut lines the stored list was computed with (place, label), by place."""
    return [(int(c[0]), str(c[1])) for c in rangliste.computed.get("cuts", [])]


def tracker(*, ranked: bool, place: int, rounds: int, minimum_rounds: int, lines: list[tuple[int, str]]) -> str:
    """Where a player stands towards the championships, in a sentence: their place (or the place their
    average would give while they have too few rounds), the line that matters to them, and the rounds
    they still need (docs/competitions.md, "The qualification tracker")."""
    lines = sorted(lines)
    if ranked:
        reached = [(line, label) for line, label in lines if place <= line]
        if reached and reached[0] == lines[0]:
            line, label = reached[0]
            return _("Platz %(place)s — qualifiziert für „%(label)s“ (bis Platz %(line)s).") % {
                "place": place,
                "label": label,
                "line": line,
            }
        if reached:
            line, label = reached[0]
            better_line, better = [item for item in lines if item[0] < line][-1]
            return _(
                "Platz %(place)s — qualifiziert für „%(label)s“ (bis Platz %(line)s); die Grenze für "
                "„%(better)s“ ist Platz %(better_line)s."
            ) % {"place": place, "label": label, "line": line, "better": better, "better_line": better_line}
        if lines:
            line, label = lines[-1]
            return _("Platz %(place)s — die Grenze für „%(label)s“ ist Platz %(line)s.") % {
                "place": place,
                "label": label,
                "line": line,
            }
        return _("Platz %(place)s.") % {"place": place}
    missing = max(1, minimum_rounds - rounds)
    if lines:
        line, label = next(((line, label) for line, label in lines if place <= line), lines[-1])
        return ngettext(
            "Mit diesem Schnitt wäre es Platz %(place)s — die Grenze für „%(label)s“ ist Platz %(line)s; "
            "%(n)s Runde fehlt zur Wertung.",
            "Mit diesem Schnitt wäre es Platz %(place)s — die Grenze für „%(label)s“ ist Platz %(line)s; "
            "%(n)s Runden fehlen zur Wertung.",
            missing,
        ) % {"place": place, "label": label, "line": line, "n": missing}
    return ngettext(
        "Mit diesem Schnitt wäre es Platz %(place)s; %(n)s Runde fehlt zur Wertung.",
        "Mit diesem Schnitt wäre es Platz %(place)s; %(n)s Runden fehlen zur Wertung.",
        missing,
    ) % {"place": place, "n": missing}


def refusal(*, reason: str, players: int, rounds: int, rangliste: Rangliste) -> str:
    """Why a tournament does not count, in a sentence ("zählt nicht: 24 Spieler, mindestens 32")."""
    if reason == RanglisteTournament.Reason.PLAYERS:
        return _("zählt nicht: %(players)s Spieler, mindestens %(minimum)s") % {
            "players": players,
            "minimum": rangliste.minimum_players,
        }
    if reason == RanglisteTournament.Reason.ROUNDS:
        return ngettext(
            "zählt nicht: %(rounds)s Runde, mindestens %(minimum)s",
            "zählt nicht: %(rounds)s Runden, mindestens %(minimum)s",
            rounds,
        ) % {"rounds": rounds, "minimum": rangliste.minimum_tournament_rounds}
    return _("zählt nicht: die Tabelle des Turniers ist nicht öffentlich")


def rated(rangliste: Rangliste) -> bool:
    """The association's organisation shows the rating (its switch, docs/rating.md)."""
    return rangliste.organisation.rating_enabled


def ratings_now(rangliste: Rangliste, rows: list[RanglisteStanding], *, public: bool) -> dict[str, rating.Rating]:
    """The carried rating now of the players of `rows`, by link, as the reader may see it: the public none
    of a player who is not published (the strictest level of their records). One query."""
    links = [row.link for row in rows if not (public and row.publication == privacy.HIDDEN)]
    return {link: rating.Rating(mu=mu, sigma=sigma, games=games) for link, mu, sigma, games in
            RanglisteRating.objects.filter(rangliste=rangliste, latest=True, link__in=links)
            .values_list("link", "mu", "sigma", "games")} if links else {}


def _line(row: RanglisteStanding, rangliste: Rangliste, *, public: bool,
          rated_now: rating.Rating | None = None) -> Line:
    name, club, number = row.name, row.club, row.member_number
    if public:
        name, club = privacy.shown_name(name, row.publication), privacy.shown_club(club, row.publication)
        number = privacy.shown_member_number(number, row.publication)
    return Line(
        link=row.link,
        name=name,
        club=club,
        member_number=number,
        ranked=row.ranked,
        place=row.place,
        shared=row.shared,
        rounds=row.rounds,
        points=row.points,
        tournaments=row.tournaments,
        qualifies=row.qualifies,
        minimum_rounds=rangliste.minimum_rounds,
        lines=tuple(cut_lines(rangliste)),
        rating=rated_now,
    )


def window(rangliste: Rangliste) -> tuple[datetime.date, datetime.date] | None:
    found = rangliste.computed.get("window")
    return (datetime.date.fromisoformat(found[0]), datetime.date.fromisoformat(found[1])) if found else None


def stored_view(rangliste: Rangliste, *, public: bool, page: int = 1) -> StoredView:
    """One page of the stored list and the tournaments that do not count. Two queries; with the rating
    shown (`rated`), one more: the page's carried ratings."""
    computed = rangliste.computed
    total = int(computed.get("ranked", 0)) + int(computed.get("below", 0))
    pages = max(1, -(-total // PAGE))
    page = min(max(1, page), pages)
    start = (page - 1) * PAGE
    rows = list(
        RanglisteStanding.objects.defer("key")
        .filter(rangliste=rangliste, position__gte=start, position__lt=start + PAGE)
        .order_by("position")
    )
    cuts: dict[int, list[tuple[int, str, bool]]] = {}
    for place, label, rows_above, moved in computed.get("cuts", []):
        if rows_above:
            cuts.setdefault(rows_above - 1, []).append((place, label, moved))
    shows_rating = rated(rangliste)
    now = ratings_now(rangliste, rows, public=public) if shows_rating else {}
    ranked, below = [], []
    for row in rows:
        line = _line(row, rangliste, public=public, rated_now=now.get(row.link))
        if row.ranked:
            ranked.append((line, cuts.get(row.position, [])))
        else:
            below.append(line)
    refused = refused_tournaments(rangliste, start=0, stop=REFUSED_SHOWN)
    return StoredView(
        rangliste=rangliste,
        computed_on=rangliste.computed_on,
        window=window(rangliste),
        tournaments=int(computed.get("tournaments", 0)),
        ranked_count=int(computed.get("ranked", 0)),
        below_count=int(computed.get("below", 0)),
        ranked=ranked,
        below=below,
        page=page,
        pages=pages,
        refused=refused,
        refused_count=int(computed.get("refused", 0)),
        rated=shows_rating,
    )


def refused_tournaments(rangliste: Rangliste, *, start: int, stop: int) -> list[Refused]:
    """The tournaments inside the window that do not count, the newest first, from `start` to before
    `stop`; the count is `computed["refused"]`. One query. A tournament before the window's first day
    would not count whatever its reason, so naming one as refused would mislead."""
    found = RanglisteTournament.objects.filter(rangliste=rangliste).exclude(reason="")
    span = window(rangliste)
    if span is not None:
        found = found.filter(tournament__date__gte=span[0], tournament__date__lte=span[1])
    return [
        Refused(
            name=name,
            slug=slug,
            date=day,
            organisation=organisation,
            sentence=refusal(reason=reason, players=players, rounds=rounds, rangliste=rangliste),
            reason=reason,
            players=players,
            rounds=rounds,
            organisation_slug=organisation_slug,
        )
        for name, slug, day, organisation, organisation_slug, reason, players, rounds in (
            found.order_by("-tournament__date", "tournament_id")
            .values_list(
                "tournament__name",
                "tournament__slug",
                "tournament__date",
                "tournament__organisation__name",
                "tournament__organisation__slug",
                "reason",
                "players",
                "rounds",
            )[start:stop]
        )
    ]


def stored_lines(rangliste: Rangliste, *, public: bool, start: int, stop: int) -> list[Line]:
    """The stored list's lines from position `start` to before `stop` (the page's order: the ranked by
    place, then those below the minimum of rounds); how many there are is in `computed`. One query."""
    return [
        _line(row, rangliste, public=public)
        for row in RanglisteStanding.objects.defer("key")
        .filter(rangliste=rangliste, position__gte=start, position__lt=stop)
        .order_by("position")
    ]


@dataclass(frozen=True)
class Played:
    name: str
    slug: str
    date: datetime.date
    rounds: int
    points: int
    counted: bool  # in the window
    rating: rating.Rating | None = None  # the carried rating after this tournament
    club: str = ""  # the organisation that ran it

    @property
    def average(self) -> Decimal:
        return rules.rounded(Fraction(self.points, self.rounds))


@dataclass(frozen=True)
class StoredPlayer:
    line: Line
    tournaments: list[Played]
    places: Places | None  # their places over time (None: never ranked)
    rated: bool = False  # the organisation shows the rating
    course: tuple[tuple[datetime.date, rating.Rating], ...] = ()  # the rating after each tournament rated
    record: int | None = None  # their person page across clubs (`people.person_page`; None: not by name)


def stored_player(rangliste: Rangliste, *, link: str, public: bool) -> StoredPlayer | None:
    """A player's line (with the tracker), their tournaments and their places over time, found by their
    link. Three queries; with the rating shown, one more: its course; when every record of theirs is
    published by full name, two more: the record their person page across clubs is found by
    (`person_record`)."""
    row = RanglisteStanding.objects.filter(rangliste=rangliste, link=link).first()
    if row is None:
        return None
    span = window(rangliste)
    shows_rating = rated(rangliste)
    course: list[tuple[str, datetime.date, rating.Rating]] = []
    if shows_rating and not (public and row.publication == privacy.HIDDEN):
        course = [(slug, day, rating.Rating(mu=mu, sigma=sigma, games=games)) for slug, day, mu, sigma, games in
                  RanglisteRating.objects.filter(rangliste=rangliste, link=link).order_by("position")
                  .values_list("tournament__slug", "tournament__date", "mu", "sigma", "games")]
    after = {slug: value for slug, _day, value in course}
    counts = list(
        RanglisteCount.objects.filter(rangliste=rangliste, link=link)
        .order_by("-tournament__date", "tournament_id")
        .values_list(
            "tournament__name",
            "tournament__slug",
            "tournament__date",
            "rounds",
            "points",
            "tournament__organisation__name",
            "tournament_id",
        )
    )
    played = [
        Played(
            name=name,
            slug=slug,
            date=day,
            rounds=rounds,
            points=points,
            counted=span is not None and span[0] <= day <= span[1],
            rating=after.get(slug),
            club=club,
        )
        for name, slug, day, rounds, points, club, _id in counts
    ]
    record = person_record(row.key, [c[6] for c in counts]) if row.publication == privacy.FULL else None
    return StoredPlayer(line=_line(row, rangliste, public=public, rated_now=course[-1][2] if course else None),
                        tournaments=played, places=places(rangliste, link=link), rated=shows_rating,
                        course=tuple((day, value) for _slug, day, value in course), record=record)


def person_record(key: str, tournament_ids: list[int]) -> int | None:
    """The record of the person `key` (a line's key, `selectors.rangliste.identity`) in their newest
    tournament of `tournament_ids` (newest first) that the public sees by full name: the hub's person
    page across clubs is found by it. Two queries: the confirmations' keys and the entries."""
    if not tournament_ids:
        return None
    confirmed = confirmed_keys()
    order = {tournament_id: index for index, tournament_id in enumerate(tournament_ids)}
    found = [
        (order[tournament_id], record)
        for tournament_id, record, name, club, number, organisation in Entry.objects.filter(
            tournament_id__in=tournament_ids, player__publication=privacy.FULL
        )
        .order_by()
        .values_list(
            "tournament_id",
            "player_id",
            "player__name",
            "player__club",
            "player__member_number",
            "player__organisation__name",
        )
        if identity(
            record=record, name=name, club=club, member_number=number, organisation=organisation, confirmed=confirmed
        )
        == key
    ]
    return min(found)[1] if found else None


LISTED_CHANGES = 12  # the list beside the places chart: the newest changes of place


@dataclass(frozen=True)
class Places:
    """A player's places in an association's Rangliste over time (`RanglistePlace`: one a day of a
    refresh while they were ranked), oldest first."""

    rangliste: str  # its name
    slug: str
    link: str
    days: list[tuple[datetime.date, int]]

    @property
    def changes(self) -> list[tuple[datetime.date, int]]:
        """The days their place changed (and the first), newest first, at most `LISTED_CHANGES`."""
        found = [
            (day, place)
            for index, (day, place) in enumerate(self.days)
            if index == 0 or self.days[index - 1][1] != place
        ]
        return found[::-1][:LISTED_CHANGES]

    @property
    def best(self) -> int:
        return min(place for _day, place in self.days)


def places(rangliste: Rangliste, *, link: str) -> Places | None:
    """A player's places over time in this Rangliste, found by their link (None: never ranked). One
    query. The page that shows it already shows the player as their publication level allows."""
    days = list(
        RanglistePlace.objects.filter(rangliste=rangliste, link=link).order_by("day").values_list("day", "place")
    )
    return Places(rangliste.name, rangliste.slug, link, days) if days else None


def places_by_name(links: set[str]) -> list[Places]:
    """A person's places over time in every public association Rangliste, for a page that shows them
    by name (the hub's person page): only the days on which every record of theirs that the Rangliste
    counts was published by full name, and none at all when it is not so on the newest day (who is
    shown by initials there is not joined to a name here). One query."""
    found: dict[tuple[int, str], tuple[str, str, list[tuple[datetime.date, int, str]]]] = {}
    for rangliste_id, name, slug, link, day, place, level in (
        RanglistePlace.objects.filter(
            link__in=sorted(links), rangliste__public=True, rangliste__source=Rangliste.Source.ASSOCIATION
        )
        .order_by("rangliste__name", "rangliste_id", "link", "day")
        .values_list("rangliste_id", "rangliste__name", "rangliste__slug", "link", "day", "place", "publication")
    ):
        found.setdefault((rangliste_id, link), (name, slug, []))[2].append((day, place, level))
    result = []
    for (_id, link), (name, slug, rows) in found.items():
        if rows[-1][2] != privacy.FULL:
            continue
        result.append(Places(name, slug, link, [(day, place) for day, place, level in rows if level == privacy.FULL]))
    return result


def wants_refresh(rangliste: Rangliste, today: datetime.date | None = None) -> bool:
    """The stored list is behind: a tournament arrived since, the rules changed, or the day moved on."""
    return rangliste.stale or rangliste.computed_on != (today or timezone.localdate())


def behind(rangliste: Rangliste, today: datetime.date | None = None) -> str:
    """Why the stored list is behind, for the sentence over it: "" (it is not), "rules" (the keeper
    saved other settings since it was computed: `computed["version"]` is an older `Rangliste.version`),
    "results" (a tournament or a confirmation arrived since) or "day" (the day moved on)."""
    if not wants_refresh(rangliste, today):
        return ""
    computed_for = (rangliste.computed or {}).get("version")
    if computed_for is not None and computed_for != rangliste.version:
        return "rules"
    return "results" if rangliste.stale else "day"
