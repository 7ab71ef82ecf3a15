"""The endpoints of the open read API, /api/v1/ (docs/api.md). Thin: each one names what the public may
see (the same switches as the pages: `Tournament.public_<page>`, a Rangliste's `public`), reads through
`reading` and answers with an ETag; `answers.endpoint` counts the client's rate and reads as a visitor.
The OpenAPI description (/api/v1/openapi.json) and its page (/api/v1/docs) come from django-ninja."""

from __future__ import annotations

import logging

from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import NinjaAPI
from ninja.errors import HttpError
from ninja.errors import ValidationError as NinjaValidationError

from ..models import Rangliste
from ..selectors import association_rangliste as association
from ..services import rangliste_refresh
from ..views import query_string
from . import public_file, reading, schemas
from .answers import ApiError, by_content, by_stored, by_tournament, endpoint, error, not_found, paging

logger = logging.getLogger(__name__)

api = NinjaAPI(
    title="Doko-Turnier API", version="1", urls_namespace="api",
    description="Was Besucher sehen, als JSON: öffentliche Turniere, Runden, Spiele, Tabellen, Spieler und "
                "Ranglisten aller Organisationen, mit ETag, Seiten und einer Grenze je Besucher. What visitors see, "
                "as JSON: public tournaments, rounds, games, standings, players and Ranglisten of every "
                "organisation, with ETags, pages and a rate limit per client.",
)
ERRORS = {400: schemas.Error, 404: schemas.Error, 429: schemas.Error}


@api.exception_handler(Http404)
def _not_found(request, exc):
    return not_found()


@api.exception_handler(NinjaValidationError)
def _invalid(request, exc):
    return error(400, "bad_request", _("Die Anfrage ist so nicht lesbar."))


@api.exception_handler(HttpError)
def _http_error(request, exc):
    return error(exc.status_code, "bad_request", _("Die Anfrage ist so nicht lesbar."))


@api.exception_handler(Exception)
def _server_error(request, exc):
    logger.exception("API error at %s", request.path)
    return error(500, "server_error", _("Ein Fehler auf dem Server; er ist aufgezeichnet."))


def _shows(*pages: str):
    """The public may see the tournament's `pages` (`Tournament.public_<page>`, as the pages ask)."""
    return lambda tournament: all(getattr(tournament, f"public_{page}") for page in pages)


def _day(request, name: str):
    if not request.GET.get(name):
        return None
    day = query_string.day(request, name)
    if day is None:
        raise ApiError(400, "bad_date", _("%(name)s muss ein Datum wie 2026-11-21 sein.") % {"name": name})
    return day


@api.get("/tournaments", response={200: schemas.TournamentPage, **ERRORS}, url_name="tournaments",
         summary="Public tournaments, newest first")
@endpoint
def tournaments(request, organisation: str = "", since: str = "", until: str = "", limit: int = 50,
                offset: int = 0):
    """Every organisation's tournaments whose overview is public; `organisation` (its short name),
    `since`/`until` (dates, both included) filter; `limit` (at most 200) and `offset` page."""
    limit, offset = paging(request)
    return by_content(request, reading.tournaments(organisation=request.GET.get("organisation", ""),
                                                   since=_day(request, "since"), until=_day(request, "until"),
                                                   limit=limit, offset=offset))


@api.get("/tournaments/{slug}", response={200: schemas.TournamentDetail, **ERRORS}, url_name="tournament")
@endpoint
def tournament(request, slug: str):
    return by_tournament(request, slug, "tournament", _shows("overview"), reading.tournament)


@api.get("/tournaments/{slug}/rounds/{int:round_number}", response={200: schemas.RoundDetail, **ERRORS},
         url_name="round", summary="A published round's tables and seating")
@endpoint
def round_detail(request, slug: str, round_number: int):
    return by_tournament(request, slug, f"round-{round_number}", _shows("seating"),
                         lambda found: reading.seating(found, round_number))


@api.get("/tournaments/{slug}/rounds/{int:round_number}/tables/{int:table_number}/games",
         response={200: schemas.TableGames, **ERRORS}, url_name="table_games",
         summary="A table's games and penalties as rows of the tournament file")
@endpoint
def table_games(request, slug: str, round_number: int, table_number: int):
    # (as the table's public sheet: with the seating, since it shows who sat where)
    return by_tournament(request, slug, f"table-{round_number}-{table_number}", _shows("players", "seating"),
                         lambda found: reading.table_games(found, round_number, table_number))


@api.get("/tournaments/{slug}/standings", response={200: schemas.Standings, **ERRORS}, url_name="standings",
         summary="The Tabelle: ranked rows with their breakdown")
@endpoint
def standings(request, slug: str, round: int | None = None, limit: int = 50, offset: int = 0):
    """After the round `round` (else after the last); `limit` and `offset` page the rows."""
    limit, offset = paging(request)
    return by_tournament(request, slug, "standings", _shows("standings"),
                         lambda found: reading.standings(request, found, limit=limit, offset=offset))


@api.get("/tournaments/{slug}/players/{int:entry_id}", response={200: schemas.PlayerRecord, **ERRORS},
         url_name="player", summary="A player's record in the tournament")
@endpoint
def player(request, slug: str, entry_id: int):
    return by_tournament(request, slug, f"player-{entry_id}", _shows("players"),
                         lambda found: reading.player(request, found, entry_id))


@api.get("/tournaments/{slug}/file", response={200: schemas.TournamentFile, **ERRORS}, url_name="file",
         summary="The tournament file (exchange format, docs/tournament-file.md) as the public sees it")
@endpoint
def tournament_file(request, slug: str):
    """Only while the standings, the seating and the players' pages are all public: the file holds all of it."""
    return by_tournament(request, slug, "file", _shows("overview", "standings", "seating", "players"),
                         public_file.public_file)


@api.get("/ranglisten", response={200: schemas.RanglistePage, **ERRORS}, url_name="ranglisten",
         summary="Public Ranglisten")
@endpoint
def ranglisten(request, organisation: str = "", limit: int = 50, offset: int = 0):
    limit, offset = paging(request)
    return by_content(request, reading.ranglisten(organisation=request.GET.get("organisation", ""), limit=limit,
                                                  offset=offset))


def _stored(found: Rangliste) -> bool:
    """An association's Rangliste on today is read as stored, asking for a new computation when it is
    behind (as its page does)."""
    if found.source != Rangliste.Source.ASSOCIATION:
        return False
    if association.wants_refresh(found):
        rangliste_refresh.enqueue_refresh([found.pk])
    return True


@api.get("/ranglisten/{slug}", response={200: schemas.RanglisteDetail, **ERRORS}, url_name="rangliste", by_alias=True,
         summary="A Rangliste on a day, its rows paged")
@endpoint
def rangliste(request, slug: str, until: str = "", limit: int = 50, offset: int = 0):
    """On the day `until` (YYYY-MM-DD, else today). An association's Rangliste on today is read as
    stored (its rows: the ranked, then those below the minimum of rounds); on another day, and every
    other Rangliste, computed for the answer (its rows: the ranked)."""
    limit, offset = paging(request)
    found = reading.public_rangliste(slug)
    day = _day(request, "until")
    if day is None and _stored(found):
        return by_stored(request, found, "rangliste",
                         lambda stored: reading.stored_rangliste(stored, limit=limit, offset=offset))
    return by_content(request, reading.rangliste(found, until=day or timezone.localdate(), limit=limit,
                                                 offset=offset))


@api.get("/ranglisten/{slug}/refused", response={200: schemas.RefusedPage, **ERRORS}, url_name="rangliste_refused",
         summary="An association's Rangliste: the tournaments that do not count, and why")
@endpoint
def rangliste_refused(request, slug: str, limit: int = 50, offset: int = 0):
    """The member clubs' Ranglistenturniere that the association's rules refuse, newest first (only an
    association's Rangliste checks them: another answers 404)."""
    limit, offset = paging(request)
    found = reading.public_rangliste(slug)
    if not _stored(found):
        raise Http404
    return by_stored(request, found, "refused", lambda stored: reading.refused(stored, limit=limit, offset=offset))


@api.get("/people/{int:record}", response={200: schemas.Person, **ERRORS}, url_name="person",
         summary="A player across clubs: history, average, clubs (as /spieler/{record}/)")
@endpoint
def person(request, record: int, limit: int = 50, offset: int = 0):
    """The person whose club record is `record`, with every record of theirs at other clubs (same member
    number, or confirmed by a director) that is published under the full name; a record at another
    publication level answers 404, as the page."""
    limit, offset = paging(request)
    return by_content(request, reading.person(record, limit=limit, offset=offset))
