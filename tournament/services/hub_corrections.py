"""What a published entry corrects (docs/publishing.md, "Corrections"): the games and penalties that
were on the hub and that an entry changes or deletes, found by comparing the venue's file before and
after the entry. Only in rounds the public could see: published or closed, results not hidden."""

from __future__ import annotations

from dataclasses import dataclass

from ..models import Round

Place = tuple[int, int]  # (round number, table number)


@dataclass(frozen=True)
class Correction:
    round: int
    table: int
    game: int | None  # None: a penalty
    change: str  # "changed" or "deleted"


def tables_of(data: dict | None) -> dict[Place, dict]:
    """The tables of a file the public could see, by (round, table)."""
    found: dict[Place, dict] = {}
    for round_item in (data or {}).get("rounds", []):
        if round_item.get("status", Round.Status.PUBLISHED) == Round.Status.DRAFT or round_item.get("results_hidden"):
            continue
        for table in round_item.get("tables", []):
            found[(round_item.get("number"), table.get("number"))] = table
    return found


def sheet_of(table: dict) -> tuple[dict[int, dict], list]:
    """A table piece's games by number, and its penalties (each with its detail)."""
    rows = table.get("rows", [])
    game_rows = [row for row in rows if "penalty" not in row]
    numbers = table.get("game_numbers") or list(range(1, len(game_rows) + 1))
    games = dict(zip(numbers, game_rows, strict=False))
    details = table.get("penalty_details") or []
    penalty_rows = [row for row in rows if "penalty" in row]
    penalties = [(row, details[i] if i < len(details) else {}) for i, row in enumerate(penalty_rows)]
    return games, penalties


def corrections(before: dict | None, after: dict) -> list[Correction]:
    """The games and penalties of `before` (a file, or a round with one table) that `after` changes or deletes."""
    old, new = tables_of(before), tables_of(after)
    found: list[Correction] = []
    for (round_number, table_number), table in old.items():
        old_games, old_penalties = sheet_of(table)
        new_games, new_penalties = sheet_of(new.get((round_number, table_number), {}))
        for number, row in old_games.items():
            if number not in new_games:
                found.append(Correction(round_number, table_number, number, "deleted"))
            elif new_games[number] != row:
                found.append(Correction(round_number, table_number, number, "changed"))
        for penalty in old_penalties:
            if penalty not in new_penalties:
                change = "changed" if len(new_penalties) >= len(old_penalties) else "deleted"
                found.append(Correction(round_number, table_number, None, change))
    return found
