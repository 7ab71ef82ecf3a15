"""The standings of every round (`selectors.standings_history`) once per change of the tournament and
process, for every page that needs them (the standings, every player's page, the projector, the
exports), brought up to date from the change before (a game saved at one table should not rank
1,000 players once for every round; `selectors.standings._moved` moves its players;
docs/performance.md, "Histories kept per process").

A process keeps the newest histories it computed or read (`kept`). For a newer counter it looks at
the changes in between (`score_sums.changed_tables`): when each
of them touched one table, the rounds before the first of those tables' rounds are taken over as
they are and only the rounds from there on are summed and ranked again; any wider change (seating,
players, rules, hidden results, a whole round) computes everything anew, as does a process that
keeps no earlier history of the tournament.

Two views, two histories: the director's (`include_hidden`: hidden rounds counted, the full names) and
the public's (only announced rounds, the names each player's publication level allows:
`privacy.shown_name`); helpers read the public one. Nothing of a hidden name is in the public one, so
every page made from it (the standings, the exports, the projector, the overview) can be shared by
every visitor.

Only a history computed anew goes into the shared cache (its ranked lists as tuples of the rows'
fields: `selectors.row_values`), for the processes that keep no earlier one. One brought up to date
stays in its process: storing it took as long as computing it (pickling and writing 1,000 rows,
about 4 ms, against 2 ms to move a table's players: `selectors.standings._moved`), and every other
process brings its own kept history up to date the same way.

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
from . import cache_keys, caching, score_sums

# the newest histories: a MiB or two each at 1,000 players, so only a few (the public one and the
# director's, each with the one before while the next is computed); right after the standings, the
# players' ranks come from here without reading the history back from the cache
kept = caching.Recent(4)


@dataclass
class KeptHistory(selectors.StandingsHistory):
    """A history with what it is the history of: the tournament, the view, the change counter and the
    code's release (the parts of its key)."""

    tournament_id: int = 0
    include_hidden: bool = False
    counter: int = 0
    release: str = ""
    # the score sums it was ranked from, by table: in this process only (not in the cache)
    sums: dict[int, list[ScoreSum]] | None = None


def _key(tournament: Tournament, include_hidden: bool, counter: int) -> str:
    return cache_keys.history(tournament.pk, counter, include_hidden=include_hidden)


def _earlier(tournament: Tournament, include_hidden: bool, counter: int) -> tuple[KeptHistory, set[int]] | None:
    """The newest history of the tournament before `counter` that this process keeps, and the tables
    whose results may differ since; None: none kept, or something wider changed since."""
    with kept.lock:
        candidates = [history for history in kept.items.values()
                      if (history.tournament_id, history.include_hidden, history.release)
                      == (tournament.pk, include_hidden, cache_keys.release()) and history.counter < counter]
    if not candidates:
        return None
    newest = max(candidates, key=lambda history: history.counter)
    changed = score_sums.changed_tables(tournament, since=newest.counter, counter=counter)
    return (newest, changed) if changed is not None and newest.missing is not None else None


def _compute(tournament: Tournament, include_hidden: bool, counter: int,
             earlier: tuple[KeptHistory, set[int]] | None) -> KeptHistory:
    """The history as of `counter`: from `earlier` (`_earlier`) when there is one, else anew."""
    if earlier is None:
        by_table = score_sums.tables(tournament, counter=counter)
        history = selectors.standings_history(tournament, include_hidden=include_hidden, public=not include_hidden,
                                              sums=score_sums.lines_of(by_table))
        missing = selectors.missing_results(tournament)
    else:
        since, changed = earlier
        entries: set[int] | None = None  # the players of the tables whose sums changed, before and now
        if since.sums is not None:  # the changed tables summed again
            by_table = {table: lines for table, lines in since.sums.items() if table not in changed}
            by_table.update(score_sums.by_table(selectors.score_sums(table_ids=changed)))
            # (a table whose sums came out as they were moves nobody)
            moved = [table for table in changed if sorted(since.sums.get(table, ())) != sorted(by_table.get(table, ()))]
            entries = {line[1] for table in moved for sums in (since.sums, by_table) for line in sums.get(table, ())}
        else:  # read from the cache, without its sums: those kept in the shared cache
            by_table = score_sums.tables(tournament, counter=counter)
        rounds = Table.objects.filter(id__in=changed).values_list("round__number", flat=True)
        history = selectors.standings_history(tournament, include_hidden=include_hidden, public=not include_hidden,
                                              sums=score_sums.lines_of(by_table), since=since, entries=entries,
                                              from_round=min(rounds, default=max(since.rounds, default=0) + 1))
        missing = selectors.missing_results(tournament, since=since.missing, changed=changed)
    return KeptHistory(rounds=history.rounds, after=history.after, before=history.before, missing=missing,
                       tournament_id=tournament.pk, include_hidden=include_hidden, counter=counter,
                       release=cache_keys.release(), sums=by_table)


def _store(key: str, history: KeptHistory) -> None:
    lists: list[tuple[str | int, list[selectors.StandingRow]]] = [("before", history.before), *history.after.items()]
    cache.set(key, {"rounds": history.rounds, "missing": history.missing,
                    "lists": {part: selectors.row_values(rows) for part, rows in lists}}, cache_keys.TIMEOUT)


def _read(tournament: Tournament, include_hidden: bool, counter: int) -> KeptHistory | None:
    stored = cache.get(_key(tournament, include_hidden, counter))
    if stored is None:
        return None
    lists = {part: selectors.rows_from(values) for part, values in stored["lists"].items()}
    return KeptHistory(rounds=stored["rounds"], after={n: lists[n] for n in stored["rounds"]},
                       before=lists["before"], missing=stored["missing"], tournament_id=tournament.pk,
                       include_hidden=include_hidden, counter=counter, release=cache_keys.release())


def standings_history(tournament: Tournament, *, include_hidden: bool, counter: int) -> selectors.StandingsHistory:
    """`selectors.standings_history` as of change `counter`, computed once per change, with what is
    still missing (`selectors.missing_results`: the pages' "vorläufig")."""
    key = _key(tournament, include_hidden, counter)

    def read():  # kept in this process (also by another thread meanwhile), or stored by another one
        history = kept.get(key)
        if history is None:
            history = _read(tournament, include_hidden, counter)
            if history is not None:
                kept.put(key, history)
        return history

    def store():
        earlier = _earlier(tournament, include_hidden, counter)
        history = _compute(tournament, include_hidden, counter, earlier)
        if earlier is None:  # computed anew: for the processes that keep no earlier history
            _store(key, history)
        kept.put(key, history)
        return history

    return read() or caching.once(key, read, store)


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
    key = cache_keys.ranks(tournament.pk, counter, include_hidden=include_hidden)

    def compute():
        history = standings_history(tournament, include_hidden=include_hidden, counter=counter)
        return Ranks(rounds=history.rounds, after={}, before=[], missing=None,
                     by_round={number: history.ranks(number) for number in history.rounds},
                     brief=history.missing.brief_state() if history.missing is not None else ())

    return caching.cached(key, compute, keep=True)
