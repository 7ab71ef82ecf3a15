"""How names are put in order for people: the German way, DIN 5007-1 (as in a dictionary).

Case does not count; Ä, Ö and Ü sort as A, O and U, ß as ss, and other accented letters (é, ç, å …)
as their plain letters. Names that are then equal keep a fixed order, by their exact spelling
("Muller" before "Müller"). Every list of players sorted by name for display uses `name_key`: the
standings' ties, the round page's list A–Z, the series' lists and selects, a click on the standings'
name column. The printed seating plan's list is by surname, as German lists on a wall are
(`surname_key`, docs/printing.md).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache


@lru_cache(maxsize=16384)  # the standings sort 1,000 names after every round, on every change
def name_key(name: str) -> tuple[str, str]:
    """The sort key of a name (or a club): `sorted(names, key=name_key)`."""
    return _strip_marks(name.strip().casefold()), name  # casefold: ß -> ss; then ä -> a (`_strip_marks`)


def surname_key(name: str) -> tuple[str, str, tuple[str, str]]:
    """The sort key of a person's name by surname, then first names (each compared as `name_key`).
    Names are entered as "Vorname Nachname": the surname is the last word (the last one with a letter,
    so "Anna Alt 2" is an Alt), and "Friedrich von der Heide" files under H, as in a German telephone
    book. A name written "Nachname, Vorname" has its surname before the comma. A double surname written
    with a space ("Eva Müller Lüdenscheidt") files under its last part: nothing tells it apart from a
    second first name."""
    if "," in name:
        surname, _comma, rest = name.partition(",")
    else:
        words = name.split()
        last = max((i for i, word in enumerate(words) if any(char.isalpha() for char in word)), default=len(words) - 1)
        surname, rest = " ".join(words[last:last + 1]), " ".join(words[:last] + words[last + 1:])
    return name_key(surname)[0], name_key(rest)[0], name_key(name)


# letters NFKD does not take apart into a plain letter and its marks: the German way for the umlauts
# and ß (ä -> ae, as a German writes a name without them), the usual Latin letter for the others
_LETTERS = {"ß": "ss", "ẞ": "ss", "ı": "i", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d",
            "þ": "th", "ŀ": "l"}
_PLAIN = str.maketrans(_LETTERS)
_SPELLED_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", **_LETTERS})


def _strip_marks(text: str) -> str:
    return "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char))


@lru_cache(maxsize=16384)
def transliterated(text: str) -> str:
    """`text` in lower case without diacritics, the German way: "Großes Mönchengladbach" ->
    "grosses moenchengladbach", "Yılmaz" -> "yilmaz", "Çelik" -> "celik". For addresses (`slugs`) and
    the search's first form (`search_forms`)."""
    lowered = unicodedata.normalize("NFC", text).lower()  # (lower, not casefold: ä stays one letter)
    return _strip_marks(lowered.translate(_SPELLED_OUT))


@lru_cache(maxsize=16384)
def search_forms(text: str) -> tuple[str, ...]:
    """The forms a name is found by (and a search is made into): the German transliteration ("kraemer")
    and the letters without their marks ("kramer"), so that "kraemer", "kramer" and "Krämer" all find
    Krämer, "oss" Oßenbrügge and "yilmaz" Yılmaz. A search matches where one of its forms is part of
    one of the name's (`matches`)."""
    lowered = unicodedata.normalize("NFC", text).lower()
    german, plain = transliterated(text), _strip_marks(lowered.translate(_PLAIN))
    return (german,) if german == plain else (german, plain)


def matches(query: str, name: str) -> bool:
    """Whether a search `query` finds `name` (`search_forms`; an empty query finds everyone)."""
    wanted = [form for form in search_forms(" ".join(query.split())) if form]
    if not wanted:
        return True
    forms = search_forms(name)
    return any(w in form for w in wanted for form in forms)


KEY_SEPARATOR = "|"  # between the forms of a stored search key (never part of a folded search)


def search_key(*texts: str) -> str:
    """What a row stores to be found by a search in the database (`Player.search_key`, the hub's
    calendar and search, docs/hub.md): every form of every text (`search_forms`), joined by "|". A
    search finds the row where one of its forms (`query_forms`) is part of the key, which is what
    `matches` says of one name, so the database and `matches` fold the same way."""
    forms = [form for text in texts if text for form in search_forms(" ".join(text.split()))]
    return KEY_SEPARATOR.join(dict.fromkeys(forms))


def query_forms(query: str) -> list[str]:
    """The forms of a search to look for in a stored `search_key` (none: an empty search)."""
    cleaned = " ".join(query.replace(KEY_SEPARATOR, " ").split())
    return [form for form in dict.fromkeys(search_forms(cleaned)) if form] if cleaned else []
