"""The short names in addresses (`/t/<slug>/`, `/s/<slug>/`, `/r/<slug>/`) made from a name: one way for
tournaments, series, Ranglisten and organisations.

"Großes Herbstturnier der Doppelkopffreunde Mönchengladbach-Rheydt 1987" becomes
"grosses-herbstturnier-der-doppelkopffreunde-moenchengladbach-rheydt-1987": transliterated the German
way (ä -> ae, ö -> oe, ü -> ue, ß -> ss; other letters without their marks: `collation.transliterated`),
words joined by single hyphens, cut after a whole word within the field's length, never ending in a
hyphen; a short name another row has gets "-2", "-3" … within the same length (docs/tournament.md).
"""

from __future__ import annotations

import re

from .collation import transliterated

_WORD = re.compile(r"[a-z0-9]+")


def slug_from(name: str, *, most: int) -> str:
    """The words of `name` as a short name of at most `most` characters, cut after a whole word (a
    first word longer than that is cut itself); empty when the name has no letter or digit."""
    slug = ""
    for word in _WORD.findall(transliterated(name)):
        longer = f"{slug}-{word}" if slug else word
        if len(longer) > most:
            return slug or word[:most]
        slug = longer
    return slug


def unique_slug(name: str, *, model, fallback: str, reserved=frozenset()) -> str:
    """A short name from `name` (`slug_from`, `fallback` when it has no word) that no row of `model` has
    and that is not one of the `reserved` path words: "herbstturnier", "herbstturnier-2" …, each within
    the length of `model`'s slug field."""
    most = model._meta.get_field("slug").max_length
    base = slug_from(name, most=most) or fallback
    slug, n = base, 2
    while slug in reserved or model.objects.filter(slug=slug).exists():
        suffix = f"-{n}"
        slug, n = f"{slug_from(base, most=most - len(suffix)) or fallback}{suffix}", n + 1
    return slug
