"""Table sizes: n players at tables of 4 and 5 (pure Python, no Django).

Table sizes
``n`` players are split into tables of 4 and 5 with as many tables of 4
as possible: ``n % 4`` tables of 5 and the rest tables of 4.  This works
for every ``n >= 4`` except 6, 7 and 11; for those (and ``n < 4``)
:class:`SeatingImpossible` is raised, naming the nearest seatable counts.
"""

from __future__ import annotations

__all__ = ["SeatingImpossible", "table_sizes"]


def _seatable(n: int) -> bool:
    """True if n players can sit at tables of 4 and 5."""
    return n >= 4 and n not in (6, 7, 11)


class SeatingImpossible(Exception):
    """``n`` players cannot be split into tables of 4 and 5.

    ``add``: players to add to reach the next seatable count.
    ``remove``: players to remove to reach the previous seatable count, or
    ``None`` if there is none (fewer than 4 players).
    """

    def __init__(self, n: int):
        if n < 0:
            raise ValueError(f"negative number of players: {n}")
        self.n = n
        self.add = next(k for k in range(1, 5) if _seatable(n + k))
        self.remove = next((k for k in range(1, n + 1) if _seatable(n - k)), None)
        super().__init__(self.message("de"))

    def message(self, lang: str = "de") -> str:
        n, add, remove = self.n, self.add, self.remove
        if lang == "de":
            verb = "lässt" if n == 1 else "lassen"
            text = f"{n} Spieler {verb} sich nicht an Tische zu 4 und 5 setzen: {add} Spieler mehr ({n + add})"
            if remove is not None:
                text += f" oder {remove} weniger ({n - remove})"
            return text + "."
        if lang == "en":
            text = (
                f"{n} {'player' if n == 1 else 'players'} cannot be seated at tables of 4 and 5: "
                f"add {add} {'player' if add == 1 else 'players'} ({n + add})"
            )
            if remove is not None:
                text += f" or remove {remove} ({n - remove})"
            return text + "."
        raise ValueError(f"unknown language {lang!r}")


def table_sizes(n_players: int) -> list[int]:
    """Table sizes for ``n_players``: as many 4s as possible, 4s first.

    >>> table_sizes(9)
    [4, 5]
    """
    if not _seatable(n_players):
        raise SeatingImpossible(n_players)
    fives = n_players % 4
    return [4] * ((n_players - 5 * fives) // 4) + [5] * fives


