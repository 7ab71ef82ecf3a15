"""What a phone sends through a table's entry link (JSON), put into the shapes the services take.
Anything of the wrong shape gets a message instead of an error page; what the game may hold is then
checked by the scoring engine, as for every entry."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _

from ..errors import UserError

PARTIES = ("re", "kontra")
ASCII_INTEGER = re.compile(r"-?[0-9]{1,12}")


def clean_int(value, *, low: int, high: int, required: bool = True) -> Any:
    if value in (None, "") and not required:
        return None
    if isinstance(value, str) and ASCII_INTEGER.fullmatch(value.strip()):
        value = int(value)  # ASCII digits only: "²" or "٣" are digits to str.isdigit(), but no number here
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise UserError(_("Eine Zahl der Eingabe fehlt oder liegt außerhalb von %(low)s bis %(high)s.")
                        % {"low": low, "high": high})
    return value


def clean_text(value, most: int, *, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()) or "\x00" in value:
        raise UserError(_("Ein Text der Eingabe fehlt oder ist unlesbar; bitte die Seite neu laden."))
    return value.strip()[:most]


def clean_game(raw) -> dict:
    """A game as the phone's form sends it: {"type", "solo", "pflichtsolo", "re": [entry ids],
    "re_augen", "re_tricks", "announcements": {"re", "kontra"}, "extras": {party: {kind: n}}}
    ("pflichtsolo": true/false, a solo's mark in a list with Pflichtsoli; null: as the rule gives it)."""
    if not isinstance(raw, dict):
        raise UserError(_("Das Spiel kam unvollständig an; bitte noch einmal senden."))
    re = raw.get("re")
    if not isinstance(re, list) or len(re) > 4:
        re = []
    announcements = raw.get("announcements")
    if not isinstance(announcements, dict):
        announcements = {}
    extras: dict[str, dict[str, int]] = {}
    raw_extras = raw.get("extras")
    if not isinstance(raw_extras, dict):
        raw_extras = {}
    for party in PARTIES:
        counts = raw_extras.get(party)
        if isinstance(counts, dict):
            extras[party] = {str(kind)[:20]: clean_int(n, low=0, high=9) for kind, n in list(counts.items())[:10]
                             if n not in (None, "", 0)}
    return {
        "type": raw.get("type") if isinstance(raw.get("type"), str) else None,
        "solo": raw.get("solo") if isinstance(raw.get("solo"), str) and raw.get("solo") else None,
        "pflichtsolo": raw.get("pflichtsolo") if isinstance(raw.get("pflichtsolo"), bool) else None,
        "re": [clean_int(p, low=1, high=2**62) for p in re],
        "re_augen": clean_int(raw.get("re_augen"), low=-(2**31), high=2**31, required=False),
        "re_tricks": clean_int(raw.get("re_tricks"), low=-(2**31), high=2**31, required=False),
        "announcements": {party: announcements.get(party) if isinstance(announcements.get(party), str) else None
                          for party in PARTIES},
        "extras": {party: counts for party, counts in extras.items() if counts},
    }


def clean_penalty(raw) -> dict | None:
    """A penalty in the game a phone sends (rare): {"offender": entry id, "note": text}; None without one."""
    if raw in (None, "", {}) or (isinstance(raw, dict) and raw.get("offender") in (None, "")):
        return None
    if not isinstance(raw, dict):
        raise UserError(_("Die Strafe kam unlesbar an; bitte noch einmal senden."), field="penalty")
    return {"offender": clean_int(raw.get("offender"), low=1, high=2**62),
            "note": clean_text(raw.get("note"), 200, required=False)}
