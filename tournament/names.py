"""A player's name: how it is written down and who it stands for (docs/tournament.md, "Players").

One normalisation everywhere a name comes in (the player form, the pasted list, the registration, a
walk-in, a team, the tournament file, the series): `clean` is the name as it is stored and shown,
`identity` who the player is. Within a tournament one identity is registered once; the same name with
another club is another person, and `references` tells the two apart wherever a name alone must say
who is meant (the file, the change log, the sheets). `problem` says why a text cannot be a name at all
(nothing visible left, or letters of two scripts in one word: a Cyrillic "а" in "Mаx"), `printable`
makes a stored text safe for a terminal. Pure Python, no Django.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import TypeVar

Key = TypeVar("Key", bound=Hashable)

# characters that show nothing, removed from every name: the control and format characters (Cc, Cf:
# zero-width spaces and joiners, right-to-left overrides, the soft hyphen, tags), surrogates and private
# use (Cs, Co), and letters and marks that only fill space: the Braille blank, the Hangul fillers
# (NFKC makes U+3164 and U+FFA0 the filler U+1160), Khmer's inherent vowels, the grapheme joiner and
# the variation selectors
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co"})
FILLERS = frozenset("\u2800\u3164\u115f\u1160\uffa0\u17b4\u17b5\u034f"
                    + "".join(map(chr, range(0xFE00, 0xFE10))) + "".join(map(chr, range(0xE0100, 0xE01F0))))
# the alphabets whose letters look alike ("a" and Cyrillic "а", "o" and Greek "ο"): one word of a name
# is written in one of them
SCRIPTS = {"LATIN": "latin", "GREEK": "greek", "CYRILLIC": "cyrillic", "ARMENIAN": "armenian",
           "GEORGIAN": "georgian", "CHEROKEE": "cherokee", "COPTIC": "coptic"}


def is_invisible(char: str) -> bool:
    return char in FILLERS or unicodedata.category(char) in INVISIBLE_CATEGORIES


def clean(text: str) -> str:
    """A name or club as it is stored and shown: Unicode NFKC (a composed and a decomposed "ü" are
    one, and fullwidth "Ｍａｘ" is "Max"), characters that show nothing removed (`is_invisible`; a tab or
    a line break is a space), runs of whitespace made one space, none around."""
    if text.isprintable() and unicodedata.is_normalized("NFKC", text) and FILLERS.isdisjoint(text):
        # the usual name, at C speed: printable means no character of INVISIBLE_CATEGORIES and no
        # whitespace but the space, so only the spaces are left to tidy (an NFKC text is NFC too)
        return " ".join(text.split())
    return _cleaned_char_by_char(text)


def _cleaned_char_by_char(text: str) -> str:
    """`clean` of any text (the rule itself)."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(" " if char.isspace() else "" if is_invisible(char) else char for char in text)
    return " ".join(unicodedata.normalize("NFC", text).split())


def printable(text: str) -> str:
    """A text for a terminal: `clean`, so that no control character (an escape sequence, a carriage
    return) of a name stored before names were cleaned reaches it."""
    return clean(text)


@dataclass(frozen=True)
class Problem:
    """Why a text cannot be a name: `invisible` (nothing visible is left after `clean`) or `scripts`
    (`word` mixes the letters of `scripts`, codes of `SCRIPTS`)."""

    kind: str
    word: str = ""
    scripts: tuple[str, ...] = ()


def script(char: str) -> str | None:
    """The alphabet of a letter among `SCRIPTS` (None: another script, or no letter)."""
    if not char.isalpha():
        return None
    return SCRIPTS.get(unicodedata.name(char, "").split(" ", 1)[0])


def words(text: str) -> list[str]:
    """The runs of letters and marks of a text (a hyphen, an apostrophe or a dot separates words)."""
    found, current = [], []
    for char in text:
        if char.isalpha() or unicodedata.category(char).startswith("M"):
            current.append(char)
        elif current:
            found.append("".join(current))
            current = []
    if current:
        found.append("".join(current))
    return found


def problem(text: str) -> Problem | None:
    """Why `text` cannot be a name once cleaned (None: it can; an empty text is the caller's matter)."""
    cleaned = clean(text)
    if not cleaned:
        return Problem("invisible") if text.strip() else None
    for word in words(cleaned):
        found = tuple(dict.fromkeys(s for s in map(script, word) if s is not None))
        if len(found) > 1:
            return Problem("scripts", word=word, scripts=found)
    return None


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
