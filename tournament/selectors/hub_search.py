"""The hub's search (docs/hub.md): tournaments, clubs and players across every organisation, folded the
German way on both sides (`collation.search_key` stored, `collation.query_forms` asked: Krämer =
Kraemer, Oßenbrügge = Ossenbruegge).

What is found is what the public may see: tournaments whose overview is public; players only at the
full name's level (privacy.py: a player shown by initials or not published is never found by their
name) and only with an entry in a tournament whose player pages are public, linked to the newest such
entry; the records of one member number found at several clubs are one result (linked to the person's
page across clubs, selectors/people.py). Four queries whatever the size: tournaments, clubs, players,
and the players' newest tournaments."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, IntegerField, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from .. import privacy
from ..collation import query_forms
from ..models import Entry, Organisation, Player, Region, Tournament
from .identities import member_key

MOST = 20  # results of each kind
SHORTEST_PLAYER_SEARCH = 3  # letters (folded) before players are searched: "a" would find everyone


@dataclass(frozen=True)
class FoundTournament:
    name: str
    slug: str
    date: datetime.date
    place: str
    club: str


@dataclass(frozen=True)
class FoundClub:
    name: str
    slug: str
    region: str  # its code ("NI"), "" for none

    @property
    def region_name(self) -> str:
        """The region as a reader reads it ("Niedersachsen")."""
        return Region(self.region).label if self.region in Region.values else self.region


@dataclass(frozen=True)
class FoundPlayer:
    name: str
    club: str
    organisation: str
    tournaments: int  # public tournaments played
    latest_name: str
    latest_slug: str
    latest_date: datetime.date
    latest_entry: int
    record: int  # the player record: their page across clubs (`/spieler/<record>/`, docs/hub.md)
    clubs: int = 1  # the clubs whose records of the same person (one member number) are in this result


@dataclass(frozen=True)
class SearchResults:
    query: str
    tournaments: list[FoundTournament]
    clubs: list[FoundClub]
    players: list[FoundPlayer]
    players_searched: bool  # False: the search is too short for players
    # more found than shown (MOST of each): the page says so and how to narrow the search; read as one row
    # more than MOST in the same query, so no count query (a count of 6,518 Krämer records is not cheap)
    more_tournaments: bool = False
    more_clubs: bool = False
    more_players: bool = False

    @property
    def empty(self) -> bool:
        return not (self.tournaments or self.clubs or self.players)


def _matching(forms: list[str], column: str = "search_key") -> Q:
    found = Q()
    for form in forms:
        found |= Q(**{f"{column}__contains": form})
    return found


def search(query: str, *, today: datetime.date | None = None) -> SearchResults:
    """What `query` finds (nothing for an empty one). A player's tournaments are those played up to
    `today`: one still to come is not their "zuletzt"."""
    today = today or timezone.localdate()
    forms = query_forms(query)
    if not forms:
        return SearchResults(query=query, tournaments=[], clubs=[], players=[], players_searched=False)
    tournaments = [FoundTournament(name=v["name"], slug=v["slug"], date=v["date"], place=v["place"],
                                   club=v["organisation__name"])
                   for v in Tournament.objects.filter(_matching(forms), public_overview=True)
                   .order_by("-date", "name").values("name", "slug", "date", "place", "organisation__name")[:MOST + 1]]
    clubs = [FoundClub(name=name, slug=slug, region=region)
             for name, slug, region in Organisation.objects.filter(_matching(forms)).order_by("name")
             .values_list("name", "slug", "region")[:MOST + 1]]
    searched = min(len(form) for form in forms) >= SHORTEST_PLAYER_SEARCH
    players, more_players = _players(forms, today) if searched else ([], False)
    return SearchResults(query=query, tournaments=tournaments[:MOST], clubs=clubs[:MOST], players=players,
                         players_searched=searched, more_tournaments=len(tournaments) > MOST,
                         more_clubs=len(clubs) > MOST, more_players=more_players)


def _players(forms: list[str], today: datetime.date) -> tuple[list[FoundPlayer], bool]:
    """The first MOST player records found (by name) as people, and whether there were more."""
    shown = Entry.objects.filter(player=OuterRef("pk"), tournament__public_overview=True,
                                 tournament__public_players=True, tournament__date__lte=today)
    latest = shown.order_by("-tournament__date", "-id").values("id")[:1]
    count = shown.order_by().values("player").annotate(n=Count("id")).values("n")
    found = list(Player.objects.filter(_matching(forms), publication=privacy.FULL)
                 .annotate(latest_entry=Subquery(latest),
                           tournaments=Coalesce(Subquery(count, output_field=IntegerField()), 0))
                 .filter(latest_entry__isnull=False).order_by("name", "id")
                 .values("id", "name", "club", "member_number", "organisation__name", "latest_entry",
                         "tournaments")[:MOST + 1])
    more = len(found) > MOST
    found = found[:MOST]
    latest_of = {entry_id: (name, slug, date) for entry_id, name, slug, date in Entry.objects.filter(
        id__in=[row["latest_entry"] for row in found]).values_list("id", "tournament__name", "tournament__slug",
                                                                    "tournament__date")}
    # one result per person: the records of one member number found at several clubs (all at the full
    # name's level, or they would not be found) are one line, linked to the newest (docs/hub.md)
    people: dict[str, list] = {}
    for row in found:
        key = member_key(row["member_number"]) if row["member_number"].strip() else f"r{row['id']}"
        people.setdefault(key, []).append(row)
    result = []
    for rows in people.values():
        newest = max(rows, key=lambda r: (latest_of[r["latest_entry"]][2], r["latest_entry"]))
        name, slug, date = latest_of[newest["latest_entry"]]
        result.append(FoundPlayer(name=newest["name"], club=newest["club"], organisation=newest["organisation__name"],
                                  tournaments=sum(r["tournaments"] for r in rows), latest_name=name, latest_slug=slug,
                                  latest_date=date, latest_entry=newest["latest_entry"], record=newest["id"],
                                  clubs=len(rows)))
    return result, more
