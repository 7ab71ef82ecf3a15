"""A tournament's prize list and its players' categories (docs/competitions.md, "Categories and the
prize list"): the standings handed to `scoring.prizes`.

Reads only: the standings (`standings`: a fixed number of queries), one query of the categories and one
of what is still missing (the list is "vorläufig" while results are to come)."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring import prizes as rules

from ..models import Entry, Tournament
from ..models.tournaments import OVERALL
from .missing import missing_results
from .standings import StandingRow, standings


@dataclass(frozen=True)
class PrizeLine:
    rank: int  # within its list
    row: StandingRow
    prize: str = ""  # what the place wins, as the director wrote it (`Tournament.prizes`); "": not said


@dataclass(frozen=True)
class PrizeGroup:
    category: str | None  # None: overall
    label: str
    lines: list[PrizeLine]
    passed_over: list[str]  # names: of the category, better placed, but with a prize already

    @property
    def has_prizes(self) -> bool:
        return any(line.prize for line in self.lines)


@dataclass(frozen=True)
class PrizeList:
    tournament: Tournament
    groups: list[PrizeGroup]  # overall first, then each category in the tournament's order
    overall: int
    per_category: int
    once: bool
    # while results are still to come, what is missing ("vorläufig", as the standings say it), and the
    # last round with a result in the list ("nach Runde 2"); empty and None once the list is final
    provisional: list[str] = field(default_factory=list)
    after_round: int | None = None


def prize_counts(tournament: Tournament) -> tuple[int, int]:
    """How many places the list shows unless the reader asks for another number: overall as many as have a
    prize written (else 3), in each category as many as the category with the most prizes (else 1)."""
    prizes = tournament.prizes or {}
    overall = len(prizes.get(OVERALL, ())) or 3
    per_category = max((len(texts) for key, texts in prizes.items() if key != OVERALL), default=0) or 1
    return overall, per_category


def prize_of(prizes: dict[str, list[str]], key: str, rank: int) -> str:
    """The prize of place `rank` of list `key` (a place shared: each who share it, as the director said)."""
    texts = prizes.get(key) or []
    return texts[rank - 1] if 0 < rank <= len(texts) else ""


def categories_of(tournament: Tournament) -> dict[int, list[str]]:
    """entry id -> its categories. One query."""
    return dict(Entry.objects.filter(tournament=tournament).values_list("id", "categories"))


def category_label(name: str) -> str:
    return str(Entry.CATEGORIES.get(name, name))


def prize_list(tournament: Tournament, *, include_hidden: bool, overall: int = 3, per_category: int = 1,
               once: bool = True) -> PrizeList:
    """The prizes after all rounds shown to this reader (`include_hidden`: the director's view, with the
    full names; else the names the public sees)."""
    rows = [row for row in standings(tournament, include_hidden=include_hidden, public=not include_hidden)
            if row.games or row.points]
    by_id = {str(row.entry_id): row for row in rows}
    categories = categories_of(tournament)
    order = tournament.category_names()
    result = rules.prize_list(
        standings=[(str(row.entry_id), row.rank) for row in rows],
        categories={key: set(categories.get(row.entry_id) or ()) for key, row in by_id.items()},
        order=order, overall=overall, per_category=per_category, once=once)
    texts = tournament.prizes or {}
    groups = [PrizeGroup(category=None, label="", passed_over=[],
                         lines=[PrizeLine(rank=p.rank, row=by_id[p.player], prize=prize_of(texts, OVERALL, p.rank))
                                for p in result.overall])]
    passed: dict[str, list[str]] = {}
    for category, player in result.passed_over:
        passed.setdefault(category, []).append(by_id[player].name)
    for category, prizes in result.categories:
        groups.append(PrizeGroup(category=category, label=category_label(category),
                                 passed_over=passed.get(category, []),
                                 lines=[PrizeLine(rank=p.rank, row=by_id[p.player],
                                                  prize=prize_of(texts, category, p.rank)) for p in prizes]))
    missing = missing_results(tournament)  # the published and closed rounds (one query)
    provisional = missing.provisional_sentences()
    after_round = max((t.round_number for t in missing.tables if t.entered or t.totals_only), default=None)
    return PrizeList(tournament=tournament, groups=groups, overall=overall, per_category=per_category, once=once,
                     provisional=provisional, after_round=after_round if provisional else None)
