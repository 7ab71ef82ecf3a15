"""How names are put in order for people: the German way, DIN 5007-1 (as in a dictionary).

Case does not count; Ä, Ö and Ü sort as A, O and U, ß as ss, and other accented letters (é, ç, å …)
as their plain letters. Names that are then equal keep a fixed order, by their exact spelling
("Muller" before "Müller"). Every list of players sorted by name for display uses `name_key`: the
standings' ties, the round page's list A–Z, the printed seating plan, the series' lists and selects,
a click on the standings' name column.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache


@lru_cache(maxsize=16384)  # the standings sort 1,000 names after every round, on every change
def name_key(name: str) -> tuple[str, str]:
    """The sort key of a name (or a club): `sorted(names, key=name_key)`."""
    folded = unicodedata.normalize("NFKD", name.strip().casefold())  # casefold: ß -> ss; NFKD: ä -> a + ¨
    return "".join(char for char in folded if not unicodedata.combining(char)), name
