"""The addresses a phone opens (the registration, the check-in, a player's private link): from
DJANGO_SITE_URL when set (`make serve` sets it to the hall's address; behind a proxy), else from the
address the page was asked for. An address on 127.0.0.1 or localhost reaches no phone: the pages
that show one as a QR code say so (README, "make run" and "make serve")."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from django.conf import settings


def phone_url(request, path: str) -> str:
    base = getattr(settings, "SITE_URL", "")
    return base.rstrip("/") + path if base else request.build_absolute_uri(path)


def unreachable_from_phones(url: str) -> bool:
    """The address names this computer only (loopback): no phone in the hall can open it."""
    host = (urlsplit(url).hostname or "").strip("[]")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
