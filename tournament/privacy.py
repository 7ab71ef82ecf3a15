"""How much of a player the public sees: their publication level (docs/privacy.md).

The level belongs to the organisation's record of the person (`Player.publication`), so it holds in
every tournament, series and Rangliste of that organisation. This module owns the rule; the selectors
build the public rows through it (the standings' rows, a player's page, the seating, the sheets, the
teams, the prize list, the series and the Rangliste), so that HTML, CSV, JSON, PDF and the projector
say the same. Directors keep the full names on their pages (the selectors' `public=False`).

- **full** ("voller Name", the default): name, club and (where the organisation publishes them) the
  member number;
- **initials** ("Initialen"): "Anna Kreuz" -> "A. K.", the club stays (a club of many members does
  not say who "A. K." is), no member number (it names the person at the association);
- **hidden** ("nicht veröffentlicht"): "Spieler/in Nr. 12" with the start number, "—" where there is
  none (the series, the Rangliste across tournaments), no club and no member number.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .names import clean

FULL, INITIALS, HIDDEN = "full", "initials", "hidden"
LEVELS = (FULL, INITIALS, HIDDEN)  # from the most to the least shown
CHOICES = [(FULL, gettext_lazy("voller Name")), (INITIALS, gettext_lazy("Initialen")),
           (HIDDEN, gettext_lazy("nicht veröffentlicht"))]
NO_NAME = "—"  # a hidden player where there is no start number


def initials(name: str) -> str:
    """"Anna Kreuz" -> "A. K.", "Anna-Lena von Berg" -> "A.-L. v. B."."""
    words = []
    for word in clean(name).split(" "):
        words.append("-".join(f"{part[0]}." if part else "" for part in word.split("-")))
    return " ".join(word for word in words if word.strip("-"))


def shown_name(name: str, level: str, start_number: int | None = None) -> str:
    """The name the public sees of a player at `level`: the name, its initials, or "Spieler/in Nr. 12"
    (with the start number; "—" without one)."""
    if level == INITIALS:
        return initials(name)
    if level == HIDDEN:
        return _("Spieler/in Nr. %(number)s") % {"number": start_number} if start_number else NO_NAME
    return name


def shown_club(club: str, level: str) -> str:
    """The club the public sees: none for a hidden player (with a rare club it would say who it is)."""
    return "" if level == HIDDEN else club


def shown_member_number(number: str, level: str) -> str:
    """A member number names a person at the association: only with the full name (and only where the
    organisation publishes member numbers at all, which the caller checks)."""
    return number if level == FULL else ""


def strictest(levels: Iterable[str]) -> str:
    """The level of one person who has several records (a series' evenings, a Rangliste's rounds, a
    registration of an existing record): the one that shows least."""
    return LEVELS[max((LEVELS.index(level) if level in LEVELS else len(LEVELS) - 1 for level in levels), default=0)]


def level_text(level: str) -> str:
    return str(dict(CHOICES).get(level, level))


def for_public(entry):
    """An `Entry` (with its player) read for a public page, with the name and club the public sees in
    place of the player's own: for reading only (`Player.save` refuses it). Returns the entry."""
    player = entry.player
    if not getattr(player, "shown_to_public", False):
        player.name = shown_name(player.name, player.publication, entry.start_number)
        player.club = shown_club(player.club, player.publication)
        player.member_number = shown_member_number(player.member_number, player.publication)
        player.shown_to_public = True
    return entry
