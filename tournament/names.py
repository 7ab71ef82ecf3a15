"""A player's name: how it is written down and who it stands for (docs/tournament.md, "Players").

One normalisation everywhere a name comes in (the player form, the pasted list, the tournament file,
the series): `clean` is the name as it is stored and shown, `identity` who the player is. Within a
tournament one identity is registered once; the same name with another club is another person, and
`references` tells the two apart wherever a name alone must say who is meant (the file, the change
log, the sheets). Pure Python, no Django.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Hashable, Iterable
from typing import TypeVar

Key = TypeVar("Key", bound=Hashable)


def clean(text: str) -> str:
    """A name or club as it is stored and shown: Unicode NFC (a composed and a decomposed "ü" are
    one), runs of whitespace made one space, none around."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def folded(text: str) -> str:
    """`clean`, with case folded ("ANNA" = "anna", "ß" = "ss"): how names are compared."""
    return unicodedata.normalize("NFC", clean(text).casefold())


def identity(name: str, club: str) -> str:
    """Who a player is: the same name and the same club after `folded`. The same name with another
    club (or without one) is another person."""
    return f"{folded(name)}\n{folded(club)}"


def person_text(name: str, club: str) -> str:
    """"Name (Verein)", or the name alone without a club."""
    return f"{name} ({club})" if club else name


def references(people: Iterable[tuple[Key, str, str]]) -> dict[Key, str]:
    """How each of the (key, name, club) of one tournament is referred to by a name alone: the name,
    or "Name (Verein)" when another player of the tournament has the same name (ignoring case and
    spaces) with another club."""
    people = list(people)
    count: dict[str, int] = {}
    for _key, name, _club in people:
        count[folded(name)] = count.get(folded(name), 0) + 1
    return {key: person_text(name, club) if count[folded(name)] > 1 else name for key, name, club in people}
