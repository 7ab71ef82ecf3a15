"""The standings of every round (`selectors.standings_history`) once per change of the tournament,
shared through the cache by every page, worker and machine that needs them (the standings, every
player's page, the projector, the exports), and brought up to date from the change before (issue
18.3: a game saved at one table should not rank 1,000 players once for every round).

A process keeps the newest histories it computed or read (`kept`). For a newer counter it looks at
the changes in between (`score_sums.changed_tables`, with its look-back for late commits): when each
of them touched one table, the rounds before the first of those tables' rounds are taken over as
they are and only the rounds from there on are summed and ranked again; any wider change (seating,
players, rules, hidden results, a whole round) computes everything anew, as does a process that
keeps no earlier history of the tournament.

In the shared cache, a history holds the ranked lists it ranked itself (as tuples of the rows'
fields: `selectors.row_values`), and for each list it took over the key of the history that holds
it: a change in the last round stores that round's list, not all of them again (pickling 1,000 rows
costs about as much as ranking them). Reading it back is one more read of the cache (the histories
it took lists from, at once). A history whose earlier history is gone from the cache is computed
anew.

The score sums a history was ranked from stay with it in the process (`KeptHistory.sums`): the next
change sums its tables again in one small query, without reading and writing all of them in the
shared cache (`web/score_sums.py`, which a history computed without an earlier one uses).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.cache import cache

from .. import selectors
from ..models import Table, Tournament
from ..selectors.missing import brief_sentences
from ..selectors.standings import ScoreSum
from . import caching, score_sums

# the newest histories: a MiB or two each at 1,000 players, so only a few (the public one and the
# director's, each with the one before while the next is computed); right after the standings, the
# players' ranks come from here without reading the history back from the cache
kept = caching.Recent(4)


@dataclass
class KeptHistory(selectors.StandingsHistory):
    """A history with what it is the history of (the tournament, the view, the change counter and the
    code's release: the parts of its key) and, for each of its ranked lists ("before", or a round's
    number), the key of the history in the cache that holds it (`lists`)."""

    tournament_id: int = 0
    include_hidden: bool = False
    counter: int = 0
    release: str = ""
    lists: dict[str | int, str] = field(default_factory=dict)
    # the score sums it was ranked from, by table: in this process only (not in the cache)
    sums: dict[int, list[ScoreSum]] | None = None


def _key(tournament: Tournament, include_hidden: bool, counter: int) -> str:
    return f"doko:history:{tournament.pk}:{counter}:{int(include_hidden)}:{caching.release()}"


def _earlier(tournament: Tournament, include_hidden: bool, counter: int) -> tuple[KeptHistory, set[int]] | None:
    """The newest history of the tournament before `counter` that this process keeps, and the tables
    whose results may differ since; None: none kept, or something wider changed since."""
    with kept.lock:
        candidates = [history for history in kept.items.values()
                      if (history.tournament_id, history.include_hidden, history.release)
                      == (tournament.pk, include_hidden, caching.release()) and history.counter < counter]
    if not candidates:
        return None
    newest = max(candidates, key=lambda history: history.counter)
    changed = score_sums.changed_tables(tournament, since=newest.counter, counter=counter)
    return (newest, changed) if changed is not None and newest.missing is not None else None


def _compute(tournament: Tournament, include_hidden: bool, counter: int) -> KeptHistory:
    """The history as of `counter`: from the newest one kept before it when each change since touched
    one table, else anew."""
    key = _key(tournament, include_hidden, counter)
    earlier = _earlier(tournament, include_hidden, counter)
    if earlier is None:
        by_table = score_sums.tables(tournament, counter=counter, release=caching.release())
        history = selectors.standings_history(tournament, include_hidden=include_hidden,
                                              sums=score_sums.lines_of(by_table))
        missing = selectors.missing_results(tournament)
        lists: dict[str | int, str] = {}
    else:
        since, changed = earlier
        entries: set[int] | None = None  # the players of the changed tables, before and now
        if since.sums is not None:  # the changed tables summed again
            by_table = {table: lines for table, lines in since.sums.items() if table not in changed}
            by_table.update(score_sums.by_table(selectors.score_sums(table_ids=changed)))
            entries = {line[1] for table in changed for sums in (since.sums, by_table) for line in sums.get(table, ())}
        else:  # read from the cache, without its sums: those kept in the shared cache
            by_table = score_sums.tables(tournament, counter=counter, release=caching.release())
        rounds = Table.objects.filter(id__in=changed).values_list("round__number", flat=True)
        history = selectors.standings_history(tournament, include_hidden=include_hidden,
                                              sums=score_sums.lines_of(by_table), since=since, entries=entries,
                                              from_round=min(rounds, default=max(since.rounds, default=0) + 1))
        missing = selectors.missing_results(tournament, since=since.missing, changed=changed)
        # the lists taken over are where they were
        lists = {part: holder for part, holder in since.lists.items()
                 if part in ("before", *history.rounds) and _list(history, part) is _list(since, part)}
    parts: list[str | int] = ["before", *history.rounds]
    for part in parts:
        lists.setdefault(part, key)
    return KeptHistory(rounds=history.rounds, after=history.after, before=history.before, missing=missing,
                       tournament_id=tournament.pk, include_hidden=include_hidden, counter=counter,
                       release=caching.release(), lists=lists, sums=by_table)


def _list(history: selectors.StandingsHistory, part: str | int) -> list[selectors.StandingRow]:
    return history.before if part == "before" else history.after[int(part)]


def _store(key: str, history: KeptHistory) -> None:
    own = {part: selectors.row_values(_list(history, part)) for part, holder in history.lists.items() if holder == key}
    cache.set(key, {"rounds": history.rounds, "missing": history.missing, "lists": history.lists, "own": own},
              caching.TIMEOUT)


def _read(tournament: Tournament, include_hidden: bool, counter: int) -> KeptHistory | None:
    key = _key(tournament, include_hidden, counter)
    stored = cache.get(key)
    if stored is None:
        return None
    holders = {holder for holder in stored["lists"].values() if holder != key}
    found = {key: stored, **cache.get_many(list(holders))} if holders else {key: stored}
    try:
        parts = {part: selectors.rows_from(found[holder]["own"][part]) for part, holder in stored["lists"].items()}
    except KeyError:
        return None  # an earlier history is gone from the cache: computed anew
    return KeptHistory(rounds=stored["rounds"], after={n: parts[n] for n in stored["rounds"]},
                       before=parts["before"], missing=stored["missing"], tournament_id=tournament.pk,
                       include_hidden=include_hidden, counter=counter, release=caching.release(),
                       lists=stored["lists"])


def standings_history(tournament: Tournament, *, include_hidden: bool, counter: int) -> selectors.StandingsHistory:
    """`selectors.standings_history` as of change `counter`, computed once per change, with what is
    still missing (`selectors.missing_results`: the pages' "vorläufig")."""
    key = _key(tournament, include_hidden, counter)

    def read():
        history = _read(tournament, include_hidden, counter)
        if history is not None:
            kept.put(key, history)
        return history

    def store():
        history = _compute(tournament, include_hidden, counter)
        _store(key, history)
        kept.put(key, history)
        return history

    return kept.get(key) or read() or caching.once(key, read, store)


@dataclass
class Ranks(selectors.StandingsHistory):
    """Only everyone's rank after each round: what a player's page needs from the standings, in a
    hundredth of their size (so that reading it from the cache costs next to nothing)."""

    by_round: dict[int, dict[int, int]] = field(default_factory=dict)
    brief: tuple[tuple[int, bool], ...] = ()  # `MissingResults.brief_state`, instead of all that is missing

    def ranks(self, round_number: int) -> dict[int, int]:
        return self.by_round.get(round_number, {})

    def brief_provisional_sentences(self) -> list[str]:
        return brief_sentences(self.brief)


def ranks(tournament: Tournament, *, include_hidden: bool, counter: int) -> Ranks:
    key = f"doko:ranks:{tournament.pk}:{counter}:{int(include_hidden)}:{caching.release()}"

    def compute():
        history = standings_history(tournament, include_hidden=include_hidden, counter=counter)
        return Ranks(rounds=history.rounds, after={}, before=[], missing=None,
                     by_round={number: history.ranks(number) for number in history.rounds},
                     brief=history.missing.brief_state() if history.missing is not None else ())

    return caching.cached(key, compute, keep=True)
