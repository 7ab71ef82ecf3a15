"""Rate limits on the writes anyone may send without an account (docs/security.md, "Rate limits"):
the public registration per client address, a table's entry link per link, a player's private
registration link (cancelling, checking in) per link; and on the reads of the open API (docs/api.md)
per client address or per API key.

django-ratelimit counts in the shared cache (the database cache on a laptop, whose `incr` is atomic
here: `web/database_cache.py`; Redis when hosted), so the count holds across gunicorn's processes
and the app's instances. Each count lives in a fixed window (django-ratelimit's: staggered per key),
so within two neighbouring windows a client may get up to twice the rate through; what the limit
stops is a loop, not a person. A cache that cannot count lets the request through
(`RATELIMIT_FAIL_OPEN`): the cache failing must not turn away a registration or a table's game.

`client_address` is also the login lockout's address (django-axes, `AXES_CLIENT_IP_CALLABLE`)."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage


def client_address(request) -> str:
    """The client's address. Without a proxy (the venue laptop) REMOTE_ADDR. Behind
    `DJANGO_PROXY_COUNT` proxies of ours that each append the address they saw to X-Forwarded-For
    (nginx's `$proxy_add_x_forwarded_for`, docs/deploy.md), the entry the outermost of them appended:
    the n-th from the right; whatever a client wrote into the header itself stands further left and is
    ignored. A header too short or not an address: REMOTE_ADDR (not sent through our proxies)."""
    remote = request.META.get("REMOTE_ADDR", "")
    count = getattr(settings, "PROXY_COUNT", 0)
    if count:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(forwarded) >= count:
            try:
                return str(ipaddress.ip_address(forwarded[-count]))
            except ValueError:
                pass
    return remote


def _over(request, *, group: str, key, rate: str) -> int | None:
    """Counts this request; the seconds until the window ends when it is over the rate, else None."""
    usage = get_usage(request, group=group, key=key, rate=rate, increment=True)
    if usage is None or not usage["should_limit"]:
        return None
    return max(1, int(usage["time_left"]))


def registration_over(request) -> int | None:
    """A POST to a tournament's public registration from this client address (IPv6: its /64), counted
    across all tournaments: `RATE_LIMIT_REGISTRATION` (30 in 10 minutes)."""
    return _over(request, group="registration", key="ip", rate=settings.RATE_LIMIT_REGISTRATION)


def table_link_over(request, token: str) -> int | None:
    """A POST through a table's entry link (a game, a preview, a decision, "stimmt"), counted per link,
    not per address: a hall's phones may all share one address (`RATE_LIMIT_TABLE_LINK`, 240 a minute)."""
    return _over(request, group="table_link", key=lambda _group, _request: token, rate=settings.RATE_LIMIT_TABLE_LINK)


def registration_link_over(request, token: str) -> int | None:
    """A POST through a player's private registration link (cancel, check in), counted per link: the
    hall's phones share one address at the door (`RATE_LIMIT_REGISTRATION_LINK`, 20 in 10 minutes)."""
    return _over(request, group="registration_link", key=lambda _group, _request: token,
                 rate=settings.RATE_LIMIT_REGISTRATION_LINK)


def api_client(request) -> str:
    """Who an API request is counted as: "key:<name>" for a key the site gave out (`X-Api-Key`,
    settings.API_KEYS), else "ip:<address>" (an unknown key counts as no key: making one up must not
    open a fresh count)."""
    name = settings.API_KEYS.get(request.META.get("HTTP_X_API_KEY", "").strip())
    return f"key:{name}" if name else f"ip:{client_address(request)}"


def api_over(request) -> int | None:
    """A request to the open API (`RATE_LIMIT_API` per address, 120 a minute; `RATE_LIMIT_API_KEY` per
    API key, 1200 a minute)."""
    client = api_client(request)
    rate = settings.RATE_LIMIT_API_KEY if client.startswith("key:") else settings.RATE_LIMIT_API
    return _over(request, group="api", key=lambda _group, _request: client, rate=rate)


def correction_over(request) -> int | None:
    """A correction request from a player's page on the hub (docs/hub.md), per client address
    (IPv6: its /64), across all players: `RATE_LIMIT_CORRECTION` (10 in 10 minutes)."""
    return _over(request, group="correction", key="ip", rate=settings.RATE_LIMIT_CORRECTION)


def correction_message() -> str:
    return _("Von diesem Anschluss kamen in kurzer Zeit zu viele Korrekturanfragen. Bitte in einigen Minuten noch "
             "einmal versuchen.")


def registration_link_message() -> str:
    return _("Über diesen Link kamen in kurzer Zeit zu viele Anfragen. Bitte in einigen Minuten noch einmal "
             "versuchen oder an der Turnierleitung melden.")


def registration_message() -> str:
    return _("Von diesem Anschluss kamen in kurzer Zeit zu viele Anmeldungen. Bitte in einigen Minuten noch "
             "einmal versuchen; wer viele Spieler anmelden möchte, kann die Turnierleitung bitten, sie "
             "einzutragen.")


def table_link_answer(seconds: int, **extra) -> JsonResponse:
    """The phone's answer: 429 with Retry-After; the phone keeps the game and sends it again later
    (static/js/table_entry.js, design.md's offline rules)."""
    response = JsonResponse({**extra, "message": _("Zu viele Eingaben über diesen Link in kurzer Zeit; das Handy "
                                                   "versucht es gleich noch einmal.")}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def publish_over(request, key_id: int) -> int | None:
    """A venue's batch to the hub, counted per publishing key (`RATE_LIMIT_PUBLISH`, 120 a minute: a
    sender sends one batch at a time, waiting for each answer)."""
    return _over(request, group="publish", key=lambda _group, _request: str(key_id), rate=settings.RATE_LIMIT_PUBLISH)
