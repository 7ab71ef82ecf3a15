"""How a tournament ranks its players (`Tournament.ranking`), in words and as the order of the rows.

The rules themselves (table points by placement, the average per round) are pure functions in
`scoring/ranking.py`; `selectors.standings_history` applies them. This module says what decides a
place in each mode (`row_key`) and gives every page, export and PDF the same sentences: how the
standings are ranked (`sentence`) and where a number comes from (`placement_text`, `average_text`).
docs/tournament.md, "Ranking modes / Wertung", has the choices.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.ranking import Placement

from .models import Tournament

# Secondary orderings of the standings a director can choose, in order (Tournament.tie_breakers).
TIE_BREAKERS = {
    "won": gettext_lazy("mehr gewonnene Spiele"),
    "best_round": gettext_lazy("bestes Rundenergebnis"),
}

Ranking = Tournament.Ranking

def row_key(row, ranking: str, tie_breakers: list[str]) -> tuple:
    """What decides the row's place, most important first (higher is better); rows with equal keys
    share a place. `tie_breakers`: the tournament's chosen ones, in their fixed order. A row without a
    place (`StandingRow.ranked`: withdrew or never came, and no result) comes after every ranked one."""
    after = tuple(getattr(row, name) or 0 for name in tie_breakers)
    ranked = (bool(getattr(row, "ranked", True)),)
    if ranking == Ranking.TABLE_POINTS:
        return ranked + (row.table_points, row.points) + after
    if ranking == Ranking.AVERAGE:
        average = row.average
        # nobody without a round played is ahead of someone with one, whatever their average
        return ranked + (average is not None, average if average is not None else 0) + after
    return ranked + (row.points,) + after


def signed(value: int) -> str:
    """+3, 0, −1 (a real minus sign), as the rule is written: a game's or a round's points."""
    return f"+{value}" if value > 0 else total_text(value)


def total_text(value: int) -> str:
    """3, 0, −1: a total or a running total, with the same real minus sign as `signed`."""
    return f"−{-value}" if value < 0 else str(value)


def average_text(value: Fraction | None, *, minus: str = "−") -> str:
    """An average with one decimal in the reader's format ("12,3" in German), rounded half up, below
    zero with the real minus sign of `total_text` ("−2,5"; what rounds to zero is "0,0"); "–" without
    a round played. `minus="-"`: for a spreadsheet, which reads "-2,5" as a number."""
    if value is None:
        return "–"
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    shown = exact.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    text = number_format(abs(shown), decimal_pos=1)
    return f"{minus}{text}" if shown < 0 else text


def average_explained(points: int, rounds: int) -> str:
    """"37 Punkte in 3 Runden", what an average is made of."""
    if not rounds:
        return _("noch keine Runde gespielt")
    return ngettext("%(points)s Punkte in %(rounds)s Runde", "%(points)s Punkte in %(rounds)s Runden",
                    rounds) % {"points": total_text(points), "rounds": rounds}


def place_text(placement: Placement) -> str:
    """"Platz 2 von 4 (geteilt) → +1"."""
    text = _("Platz %(place)s von %(size)s") % {"place": placement.place, "size": placement.size}
    if placement.is_shared:
        text += " " + _("(geteilt)")
    return f"{text} → {signed(placement.table_points)}"


def placements_text(row, *, tables: bool) -> str:
    """All of a row's placements, one per round: "Runde 1, Tisch 3: Platz 1 von 4 → +3; …"."""
    return "; ".join(placement_text(p, round_number=r, table_number=t if tables else None)
                     for r, t, p in row.placements)


def placement_text(placement: Placement, *, round_number: int, table_number: int | None = None) -> str:
    """"Runde 2, Tisch 3: Platz 2 von 4 (geteilt) → +1" (without the table where the seating is not
    public)."""
    if table_number is None:
        where = _("Runde %(round)s") % {"round": round_number}
    else:
        where = _("Runde %(round)s, Tisch %(table)s") % {"round": round_number, "table": table_number}
    return f"{where}: {place_text(placement)}"


def sentence(tournament: Tournament) -> str:
    """How the tournament is ranked, in one sentence for every page and printout that ranks."""
    breakers = [str(TIE_BREAKERS[name]) for name in tournament.tie_breakers if name in TIE_BREAKERS]
    if tournament.ranking == Ranking.TABLE_POINTS:
        text = _("Wertung: Tischpunkte (+3/+1/−1/−3, am Fünfertisch +4/+2/0/−2/−4, Gleichstand teilt), "
                 "bei Gleichstand Spielpunkte")
    elif tournament.ranking == Ranking.AVERAGE:
        text = _("Wertung: Durchschnitt der Spielpunkte je gespielter Runde (mit einer Nachkommastelle gezeigt, "
                 "genau verglichen)")
    else:
        text = _("Wertung: Summe der Spielpunkte")
    if breakers:
        text += "; " + _("danach entscheidet: %(breakers)s") % {"breakers": ", ".join(breakers)}
    return text + ". " + _("Wer dann noch gleich steht, teilt sich den Platz.")


def main_label(ranking: str) -> str:
    """The heading of the column that ranks."""
    if ranking == Ranking.TABLE_POINTS:
        return _("Tischpunkte")
    if ranking == Ranking.AVERAGE:
        return _("Schnitt")
    return _("Punkte")


# ---- the columns of the exports (CSV, JSON, manage.py standings) ---------------------------------------

def export_labels(mode: str) -> dict[str, str]:
    """The columns a ranking mode adds to an export, before the game points: key -> heading."""
    if mode == Ranking.TABLE_POINTS:
        return {"table_points": _("Tischpunkte")}
    if mode == Ranking.AVERAGE:
        return {"average": _("Schnitt"), "rounds": _("Runden")}
    return {}


def export_values(row, mode: str, *, as_text: bool, tables: bool = True) -> dict:
    """The values of `export_labels` for a row: numbers for JSON (with the placements that make up
    the table points; `tables`: with the table numbers, where the seating may be seen), text for a
    spreadsheet or a terminal (an average as "12,3")."""
    if mode == Ranking.TABLE_POINTS:
        values: dict = {"table_points": row.table_points}
        if not as_text:
            values["placements"] = [
                {"round": round_number, **({"table": table_number} if tables else {}), "place": p.place,
                 "of": p.size, "shared": p.shared, "points": p.points, "table_points": p.table_points}
                for round_number, table_number, p in row.placements]
        return values
    if mode == Ranking.AVERAGE:
        average = row.average
        if as_text:
            return {"average": average_text(average, minus="-"), "rounds": row.rounds_played}
        return {"average": None if average is None else round(float(average), 3), "rounds": row.rounds_played}
    return {}
