"""What every endpoint of the API shares (docs/api.md): the visitor's view, errors as JSON in the
reader's language (Accept-Language), the rate limit per client, pagination and the ETags."""

from __future__ import annotations

import json
from functools import wraps

from django.http import Http404, HttpResponse, HttpResponseNotModified, JsonResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..views import errors
from ..web import cache_keys, caching, rate_limits

LIMIT_DEFAULT = 50  # rows of a list when the request names no `limit`
LIMIT_MOST = 200  # the most a request may ask for


class ApiError(Exception):
    """An answer other than 200, with a sentence the reader understands."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


error = errors.json_error  # `{"error": {"code": ..., "message": ...}}`: code for programs, message for people


def not_found() -> JsonResponse:
    return errors.api_not_found()


def as_visitor(request) -> None:
    """The API shows what a visitor sees, whoever asks (a director's own view is the site's pages and
    the backup): the role the public pages' helpers read."""
    request.role = None
    request.is_director = False
    request.can_enter = False


def endpoint(view):
    """Every endpoint: counted against the client's rate (429 with Retry-After when over it), read as a
    visitor, an `ApiError` answered as JSON."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        seconds = rate_limits.api_over(request)
        if seconds is not None:
            response = error(429, "rate_limited", _("Zu viele Anfragen in kurzer Zeit. Bitte in %(seconds)s "
                                                     "Sekunden noch einmal versuchen.") % {"seconds": seconds})
            response["Retry-After"] = str(seconds)
            return response
        as_visitor(request)
        try:
            return view(request, *args, **kwargs)
        except ApiError as problem:
            return error(problem.status, problem.code, problem.message)

    return wrapper


def paging(request) -> tuple[int, int]:
    """(limit, offset) from `?limit=` (1 to LIMIT_MOST, default LIMIT_DEFAULT) and `?offset=` (0 or more)."""
    try:
        limit = int(request.GET.get("limit", LIMIT_DEFAULT))
        offset = int(request.GET.get("offset", 0))
    except ValueError:
        raise ApiError(400, "bad_paging", _("limit und offset müssen ganze Zahlen sein.")) from None
    if not 1 <= limit <= LIMIT_MOST:
        raise ApiError(400, "bad_paging", _("limit muss zwischen 1 und %(most)s liegen.") % {"most": LIMIT_MOST})
    if not 0 <= offset <= 10**9:
        raise ApiError(400, "bad_paging", _("offset darf nicht negativ sein."))
    return limit, offset


def page(items: list, count: int, limit: int, offset: int) -> dict:
    return {"count": count, "limit": limit, "offset": offset, "items": items}


def data_response(data) -> HttpResponse:
    response = JsonResponse(data, safe=False, json_dumps_params={"ensure_ascii": False})
    patch_vary_headers(response, ("Accept-Language",))
    return response


def by_tournament(request, slug: str, page: str, allowed, build) -> HttpResponse:
    """An answer about one tournament, with its change counter in the ETag (`caching.etag`: also the
    endpoint, its query, the language and the code's release). A reader whose `If-None-Match` still
    matches gets 304 from one query (the counter by the slug), before the tournament is read: whatever
    could change the answer, a switch of the public pages included, is a write that moves the counter,
    as for the polled pages (`caching.answers_unchanged_polls`). Otherwise the tournament, 404 unless
    `allowed(tournament)`, and `build(tournament)` as JSON."""
    found = caching.request_counter_by_slug(request, slug)
    if found is None:
        raise Http404
    variant = (sorted(request.GET.items()),)
    tag = caching.etag(found[0], found[1], "api-" + page, variant)
    if any(caching.same_counter(presented, tag) for presented in caching.presented_etags(request)):
        answer = HttpResponseNotModified()
        answer["ETag"] = tag
        patch_cache_control(answer, private=True, no_cache=True)
        return answer
    tournament = caching.tournament_by_slug(request, slug)
    if not allowed(tournament):
        raise Http404
    poll = caching.Poll(request, tournament, page="api-" + page, variant=variant)
    return poll.finish(data_response(build(tournament)))


def by_content(request, data) -> HttpResponse:
    """An answer that spans tournaments (the list, a Rangliste): its ETag is a digest of the JSON it
    sends, so an unchanged answer costs the reading but not the sending."""
    body = json.dumps(data, ensure_ascii=False, sort_keys=True)
    tag = f'W/"{cache_keys.digest(cache_keys.release(), body)}"'
    response = get_conditional_response(request, etag=tag) or data_response(data)
    response["ETag"] = tag
    patch_cache_control(response, private=True, no_cache=True)
    return response


def by_stored(request, rangliste, page: str, build) -> HttpResponse:
    """An answer read from an association's stored Rangliste (`services.rangliste_refresh`), with an
    ETag of what moves it: the stored list (when its computation began, its day, whether it is stale),
    the Rangliste's settings (`version`, a change of which makes it stale too) and name, the day (the
    list is behind once the day turns), the endpoint, its query, the language and the code's release.
    A reader whose `If-None-Match` still matches gets 304 from the one query that found the Rangliste,
    before a line is read. What a list that is behind asks for, as its page does: a refresh."""
    variant = (page, sorted(request.GET.items()), get_language(), cache_keys.stored_rangliste(rangliste))
    tag = f'W/"{cache_keys.digest(cache_keys.release(), *map(str, variant))}"'
    response = get_conditional_response(request, etag=tag) or data_response(build(rangliste))
    response["ETag"] = tag
    patch_cache_control(response, private=True, no_cache=True)
    return response
