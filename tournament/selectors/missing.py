"""What is still missing before a round can close: games, signatures, tables not played out.

Reads only, in a fixed number of queries whatever the size."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ..models import Round, Table, Tournament


@dataclass
class TableResults:
    """How far one table's results are: games entered of those expected, entries from the table's
    phones that wait for confirmation, signed or not."""

    round_number: int
    table_number: int
    expected: int
    entered: int
    waiting: int
    signed: bool
    totals_only: bool
    table_id: int = 0

    @property
    def missing(self) -> int:
        return 0 if self.totals_only else max(self.expected - self.entered, 0)


@dataclass
class MissingResults:
    """What is still missing in the rounds looked at (the published ones, or the ones asked for)."""

    rounds: list[int]
    tables: list[TableResults]
    closed: set[int] = field(default_factory=set)  # of `rounds`, those closed

    @property
    def games(self) -> int:
        return sum(t.missing for t in self.tables)

    @property
    def waiting(self) -> int:
        return sum(t.waiting for t in self.tables)

    @property
    def unsigned(self) -> int:
        return sum(not t.signed for t in self.tables)

    @property
    def incomplete(self) -> list[TableResults]:
        """The tables with games missing or entries waiting, by round and number."""
        return [t for t in self.tables if t.missing or t.waiting]

    @property
    def provisional(self) -> bool:
        """Results are still to come: a round is not closed yet, or a table of a closed round has games
        missing or entries waiting (closing does not make a missing game final)."""
        return any(number not in self.closed for number in self.rounds) or bool(self.incomplete)

    def provisional_sentences(self) -> list[str]:
        """`sentences` while the standings are provisional (a round is not closed, or games are
        missing); empty when they are final."""
        return self.sentences() if self.provisional else []

    def brief_state(self) -> tuple[tuple[int, bool], ...]:
        """For a player's page: each round that is not final yet, and whether games or entries are
        still missing in it (else it only waits to be closed). Changes only when a round is complete
        or closed, not with every game at another table (so a player's page stays cached through
        them)."""
        if not self.provisional:
            return ()
        incomplete = {t.round_number for t in self.incomplete}
        return tuple((number, number in incomplete) for number in self.rounds
                     if number in incomplete or number not in self.closed)

    def brief_sentences(self) -> list[str]:
        return brief_sentences(self.brief_state())

    def sentences(self) -> list[str]:
        """What is missing, for people: "In Runde 2 fehlen noch 12 Spiele an 3 Tischen (2, 5, 7)." """
        lines = []
        incomplete = self.incomplete  # once, not once per round (750 tables at a championship)
        for number in self.rounds:
            tables = [t for t in incomplete if t.round_number == number]
            games = sum(t.missing for t in tables)
            waiting = sum(t.waiting for t in tables)
            numbers = ", ".join(str(t.table_number) for t in tables if t.missing)
            if games:
                where = ngettext("Tisch %(tables)s", "Tische %(tables)s",
                                 sum(1 for t in tables if t.missing)) % {"tables": numbers}
                lines.append(ngettext("Runde %(round)s: es fehlt noch %(games)s Spiel (%(where)s).",
                                      "Runde %(round)s: es fehlen noch %(games)s Spiele (%(where)s).",
                                      games) % {"round": number, "games": games, "where": where})
            if waiting:
                lines.append(ngettext("Runde %(round)s: %(n)s Eingabe vom Tisch wartet auf Bestätigung.",
                                      "Runde %(round)s: %(n)s Eingaben vom Tisch warten auf Bestätigung.",
                                      waiting) % {"round": number, "n": waiting})
            if not games and not waiting and number not in self.closed:
                lines.append(_("Runde %(round)s: alle Spiele sind eingetragen, die Runde ist noch nicht abgeschlossen.")
                             % {"round": number})
        return lines


def brief_sentences(state: tuple[tuple[int, bool], ...]) -> list[str]:
    """What a player's page says of the rounds that are not final (`MissingResults.brief_state`):
    which ones, not how much is missing (the standings say that)."""
    return [(_("Runde %(round)s ist noch nicht fertig: was fehlt, steht in der Tabelle.") if incomplete else
             _("Runde %(round)s: alle Spiele sind eingetragen, die Runde ist noch nicht abgeschlossen."))
            % {"round": number} for number, incomplete in state]


def missing_results(tournament: Tournament, *, rounds: list[int] | None = None,
                    include_closed: bool = True, since: MissingResults | None = None,
                    changed: set[int] | None = None) -> MissingResults:
    """The results still missing in the published and closed rounds (or in `rounds`, whatever their
    status; `include_closed=False`: the published ones only): closing a round does not make a missing game
    final. One query (the counts stored on the tables, the rows as values: 250 tables in a few
    milliseconds).

    `since` and `changed`: what was missing at an earlier change (of the published and closed rounds),
    and the ids of the tables whose sheets changed since then, and nothing else (`web/histories.py`
    knows): only those tables are read again."""
    if since is not None and changed is not None and rounds is None and include_closed:
        again = {line.table_id: line for line in _table_results(tournament, table_ids=changed)[0]}
        if set(again) == changed & {line.table_id for line in since.tables}:  # else: the rounds changed too
            return MissingResults(rounds=since.rounds, tables=[again.get(line.table_id, line) for line in since.tables],
                                  closed=since.closed)
    found, closed = _table_results(tournament, rounds=rounds, include_closed=include_closed)
    numbers = sorted({t.round_number for t in found})
    return MissingResults(rounds=numbers, tables=found, closed=closed)


def _table_results(tournament: Tournament, *, table_ids: set[int] | None = None, rounds: list[int] | None = None,
                   include_closed: bool = True) -> tuple[list[TableResults], set[int]]:
    """How far each table is (of `table_ids`, default all; in the rounds `missing_results` looks at), and
    which of their rounds are closed. One query: the games entered and the entries waiting are stored
    on the table by the writes that change them (`Table.games_entered`, `Table.drafts_waiting`), the
    seats counted."""
    tables = Table.objects.filter(round__tournament=tournament)
    if table_ids is not None:
        if not table_ids:
            return [], set()
        tables = tables.filter(id__in=table_ids)
    if rounds is None:
        statuses = [Round.Status.PUBLISHED, Round.Status.CLOSED] if include_closed else [Round.Status.PUBLISHED]
        tables = tables.filter(round__status__in=statuses)
    else:
        if not rounds:
            return [], set()
        tables = tables.filter(round__number__in=rounds)
    rows = list(tables.annotate(size=Count("seats")).order_by("round__number", "number").values_list(
        "round__number", "round__status", "number", "size", "games_entered", "drafts_waiting", "signed_at",
        "totals_only", "ended_after", "id"))
    found = []
    for round_number, _status, number, size, entered, waiting, signed_at, totals_only, ended_after, table_id in rows:
        per_table = tournament.games_at_table(size)
        found.append(TableResults(
            round_number=round_number, table_number=number,
            expected=Table.games_to_play(per_table, ended_after),
            entered=entered, waiting=waiting, signed=signed_at is not None, totals_only=totals_only,
            table_id=table_id))
    closed = {row[0] for row in rows if row[1] == Round.Status.CLOSED}
    return found, closed
