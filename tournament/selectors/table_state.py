"""What the phones of a table and the director's live board read: a table's sheet with its games,
the drafts waiting, who tapped "stimmt" (for the entry link), and every table of a round at a
glance (the board). Reads only, in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from seating import dealing

from .. import engine, vocabulary
from ..errors import UserError
from ..log import changelog
from ..models import DraftGame, Game, Round, Seat, Table
from ..vocabulary import ANNOUNCE_KONTRA, ANNOUNCE_RE, SOLOS, SONDERPUNKTE
from .sheets import table_sheet

# ---- the phone page --------------------------------------------------------------------------------


def form_spec(table: Table) -> dict:
    """The choices of the game form in the reader's language, for the phone's script."""
    rules = table.round.tournament.scoring_rules()
    pflichtsolo = None
    if table.round.tournament.pflichtsoli:  # a list with Pflichtsoli: a solo is marked (null: as the rule gives it)
        pflichtsolo = {"label": str(_("Pflicht- oder Lustsolo")),
                       "choices": [["", str(_("von selbst"))],
                                   ["pflicht", vocabulary.label("pflichtsolo", "pflicht")],
                                   ["lust", vocabulary.label("pflichtsolo", "lust")]],
                       "open": str(_("Pflichtsolo noch offen: %(names)s")),
                       "vorgefuehrt": str(_("%(name)s wird vorgeführt: dieses Spiel ist das Pflichtsolo von "
                                            "%(name)s."))}
    return {
        "types": [[value, str(label)] for value, label in Game.Type.choices],
        "solos": [[kind, str(SOLOS[kind])] for kind in SOLOS if kind in rules.solo_kinds],
        "announce_re": [[value, str(label)] for value, label in ANNOUNCE_RE],
        "announce_kontra": [[value, str(label)] for value, label in ANNOUNCE_KONTRA],
        "sonderpunkte": [[kind, str(SONDERPUNKTE[kind])] for kind in SONDERPUNKTE if kind in rules.sonderpunkte],
        "tricks": rules.tricks,
        "pflichtsolo": pflichtsolo,
    }


def draft_conflicts(draft: DraftGame, games: dict[int, Game]) -> bool:
    """A draft no longer fits: its game was entered or changed since the draft was made."""
    game = games.get(draft.number)
    return (game.version if game is not None else 0) != draft.base_version


def stored_games(draft: DraftGame) -> dict[int, Game]:
    """The stored game a draft is for, by number (empty when there is none yet)."""
    return {game.number: game for game in draft.table.games.filter(number=draft.number)}


def phone_state(table: Table, *, device: str = "") -> dict:
    """Everything the table's phones show: players, games with points and running totals, drafts
    (with the points each would give, and whether `device` entered it), approvals, what the next
    game is and who deals it. Plain JSON."""
    sheet = table_sheet(table)
    entries = sheet.entries
    ids = [e.id for e in entries]
    names = {e.id: e.player.name for e in entries}
    games = {line.number: line.game for line in sheet.lines if line.game is not None}
    rows = []
    line_texts: dict[int, str] = {}
    for line in sheet.lines:
        row: dict[str, Any] = {"number": line.number, "dealer": line.dealer.id,
                               "out": line.sitting_out.id if line.sitting_out else None}
        if line.game is not None:
            line_texts[line.number] = changelog.game_text(_row(line.game, ids, names))
            row.update(summary=line_texts[line.number], value=line.game.value,
                       multiplier=line.game.multiplier, version=line.game.version,
                       points=[p for p in line.points], running=list(line.running),
                       breakdown=[list(item) for item in vocabulary.breakdown(line.game.breakdown)])
        rows.append(row)
    tournament = table.round.tournament
    shown = list(table.drafts.filter(status__in=[DraftGame.Status.WAITING, DraftGame.Status.REJECTED])
                 .order_by("number", "created_at"))
    # who deals each game (a list's deal follows its games' Pflichtsoli), for the form and the drafts
    rule = tournament.list_rule(len(ids))
    dealt = dealing.deals(ids, max([tournament.games_at_table(len(ids))] + [d.number for d in shown]), rule=rule,
                          games={n: dealing.entered(g.type, g.re, g.pflichtsolo) for n, g in games.items()})
    drafts = []
    stored = {number: engine.data_of(game) for number, game in games.items()}
    for draft in shown:
        players = dealt[draft.number - 1].players
        conflict = draft.status == DraftGame.Status.WAITING and draft_conflicts(draft, games)
        drafts.append({
            "id": draft.pk, "number": draft.number, "status": draft.status,
            "own": bool(device) and draft.device == device, "entered_by": draft.entered_by_id,
            "reason": draft.reason, "version": draft.base_version, "data": draft.data,
            "summary": draft_text(draft.data, players, names),
            "conflict": conflict,
            "stored": line_texts.get(draft.number) if conflict else None,
            "points": (_draft_points(table, ids, stored, draft)
                       if draft.status == DraftGame.Status.WAITING and not conflict else None),
        })
    approvals = table.approvals or {}
    expected = table.expected_games(table.round.tournament.games_at_table(len(ids)))
    waiting = {d["number"] for d in drafts if d["status"] == DraftGame.Status.WAITING}
    next_number = next((n for n in range(1, expected + 1) if n not in games and n not in waiting), None)
    end = table.round.clock_end()
    return {
        "tournament": table.round.tournament.name, "round": table.round.number, "table": table.number,
        "clock_end": end.isoformat() if end is not None else None,
        "clock_end_text": timezone.localtime(end).strftime("%H:%M") if end is not None else None,  # the hall's time
        "version": table.version, "confirmation": table.round.tournament.confirmation,
        "players": [{"id": e.id, "name": names[e.id], "seat": seat} for seat, e in enumerate(entries, start=1)],
        "dealing": {deal.number: _dealing(deal, rule) for deal in dealt[:expected]},
        "games_expected": expected, "next_number": next_number, "lines": rows, "drafts": drafts,
        "totals": list(sheet.totals), "totals_only": table.totals_only,
        "approved": [e for e in ids if approvals.get(str(e)) == table.version],
        "complete": table.totals_only or (len(games) >= expected and not waiting),
        "signed": table.is_locked,
    }


def _draft_points(table: Table, ids: list[int], stored: dict[int, dict], draft: DraftGame) -> list[int | None]:
    """The points each player of the table (in seat order) would get for the draft's game, as the sheet
    would score it once confirmed (Bock and a Nullspiel before it included): what the player who
    confirms sees. No query: the engine only."""
    from .. import engine

    games = [(number, data) for number, data in stored.items() if number != draft.number]
    games.append((draft.number, draft.data))
    try:
        _sheet, result = engine.score_table(table, games, [], table.round.tournament.scoring_rules(), entries=ids)
    except UserError:
        return [None] * len(ids)
    row = result.rows[sorted(number for number, _data in games).index(draft.number)]
    return [row.scores.get(str(e)) for e in ids]


def _dealing(deal: dealing.Deal, rule: dealing.ListRule | None) -> dict:
    """Who deals a game, sits out and plays it; in a list also whether that is sure yet (the games
    before it entered), who is vorgeführt in it and whose Pflichtsolo is open before it."""
    item = {"dealer": deal.dealer, "out": deal.sitting_out, "players": deal.players}
    if rule is not None:
        item.update(known=deal.known, vorgefuehrt=deal.vorgefuehrt, open=list(deal.open_pflichtsoli))
    return item


def _row(game: Game, ids: list[int], names: dict[int, str]) -> dict:
    from ..fileformat import game_row

    return game_row(game, ids, lambda e: names.get(e, "?"))


def draft_text(data: dict, players: list[int], names: dict[int, str]) -> str:
    """An entry from the table in words: the game, and the penalty entered with it."""
    text = changelog.game_text(_engine_row(data, players, names))
    penalty = data.get("penalty")
    if penalty:
        text += " · " + _("Strafe: %(name)s") % {"name": names.get(penalty["offender"], "?")}
        if penalty.get("note"):
            text += f" ({penalty['note']})"
    return text


def _engine_row(data: dict, players: list[int], names: dict[int, str]) -> dict:
    from ..engine import to_engine

    return to_engine(data, players, lambda e: names.get(int(e), "?"))


# ---- the director's live board ---------------------------------------------------------------------

@dataclass
class Waiting:
    """A table's entry waiting to be confirmed, as the board shows it."""

    draft: DraftGame
    summary: str  # the game in words
    conflict: bool  # it no longer fits: its game was entered or changed since
    stored: str = ""  # in a conflict: the game as it is stored now, in words (beside the table's version)
    points: list[tuple[str, int]] = field(default_factory=list)  # (name, points) the entry would give


@dataclass
class BoardTable:
    table: Table
    size: int
    games: int = 0
    games_expected: int = 0
    waiting: list[Waiting] = field(default_factory=list)
    rejected: list[DraftGame] = field(default_factory=list)
    conflicts: int = 0
    approved: int = 0
    last_activity: Any = None
    behind: int = 0  # games behind the round clock's pace (0: on time, or no clock)

    @property
    def signed(self) -> bool:
        return self.table.is_locked

    @property
    def complete(self) -> bool:
        return self.table.totals_only or self.games >= self.games_expected

    @property
    def late(self) -> bool:
        """The table runs late: more than `LATE_BY` games behind the clock's pace, or time is up and
        games are missing."""
        return self.behind > LATE_BY


LATE_BY = 1  # games behind the pace before the board says so (a game takes about 6 minutes)


def games_behind(row: BoardTable, *, start: Any, end: Any, now: Any) -> int:
    """How many games the table is behind an even pace from the clock's start to its end (the games
    entered and waiting count; after the end, every game missing counts)."""
    if row.complete or row.signed or start is None or end is None or now <= start:
        return 0
    done = row.games + len({w.draft.number for w in row.waiting if not w.conflict})  # a conflict's game is in
    share = min(1.0, (now - start) / (end - start))
    due = int(share * row.games_expected) if share < 1 else row.games_expected
    return max(0, due - done)


def board(round: Round) -> list[BoardTable]:
    """Every table of the round: games entered, drafts waiting (with their conflicts), rejected
    entries, players who tapped "stimmt", last activity, signed. Eight queries whatever the size; the
    games entered are the table's stored count (`Table.games_entered`, kept by the writes)."""
    tournament = round.tournament
    tables = {t.id: t for t in round.tables.annotate(size=Count("seats")).order_by("number")}
    sizes = {tid: t.size for tid, t in tables.items()}
    games: dict[int, dict[int, Game]] = {}
    for game in Game.objects.filter(table__round=round):
        games.setdefault(game.table_id, {})[game.number] = game
    result = {tid: BoardTable(table=t, size=sizes.get(tid, 0), games=t.games_entered,
                              games_expected=t.expected_games(tournament.games_at_table(sizes.get(tid, 4))))
              for tid, t in tables.items()}
    seated: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for seat_table, entry_id, name in (Seat.objects.filter(round=round).order_by("position")
                                       .values_list("table_id", "entry_id", "entry__player__name")):
        seated.setdefault(seat_table, []).append(entry_id)
        names[entry_id] = name
    # who deals each game of each table (a list's deal follows its games' Pflichtsoli)
    dealt = {tid: dealing.deals(seated.get(tid, []), tournament.games_at_table(sizes.get(tid, 4)),
                                rule=tournament.list_rule(sizes.get(tid, 4)),
                                games={n: dealing.entered(g.type, g.re, g.pflichtsolo)
                                       for n, g in games.get(tid, {}).items()})
             for tid in tables}
    for draft in (DraftGame.objects.filter(table__round=round)
                  .filter(Q(status=DraftGame.Status.WAITING) | Q(status=DraftGame.Status.REJECTED))
                  .select_related("entered_by__player").order_by("number", "created_at")):
        row = result[draft.table_id]
        if draft.status == DraftGame.Status.WAITING:
            players = dealt[draft.table_id][draft.number - 1].players
            stored = games.get(draft.table_id, {})
            conflict = draft_conflicts(draft, stored)
            seats = seated.get(draft.table_id, [])
            item = Waiting(draft, draft_text(draft.data, players, names), conflict)
            if conflict and draft.number in stored:
                item.stored = changelog.game_text(_row(stored[draft.number], seats, names))
            elif not conflict:
                points = _draft_points(row.table, seats, {n: engine.data_of(g) for n, g in stored.items()}, draft)
                item.points = [(names[e], p) for e, p in zip(seats, points, strict=True) if p is not None]
            row.waiting.append(item)
            row.conflicts += conflict
        else:
            row.rejected.append(draft)
    by_number = {row.table.number: row for row in result.values()}
    for kind in ("game", "draft", "table", "penalty"):  # the newest change at each table
        for item in (changelog.history_model(kind).objects
                     .filter(log_tournament=tournament.pk, log_round=round.number)
                     .values("log_table").annotate(at=Max("history_date"))):
            found = by_number.get(item["log_table"])
            if found is not None and (found.last_activity is None or item["at"] > found.last_activity):
                found.last_activity = item["at"]
    end, now = round.clock_end(), timezone.now()
    for row in result.values():
        row.approved = sum(1 for version in (row.table.approvals or {}).values() if version == row.table.version)
        row.behind = games_behind(row, start=round.started_at, end=end, now=now)
    return list(result.values())


def board_alerts(rows: list[BoardTable]) -> list[str]:
    """What the director should look at first, in words: conflicts, rejected entries, tables late."""
    alerts = []
    conflicts = [str(r.table.number) for r in rows if r.conflicts]
    if conflicts:
        alerts.append(ngettext("Konflikt an Tisch %(tables)s: eine Eingabe passt nicht zum gespeicherten Spiel.",
                               "Konflikte an den Tischen %(tables)s: Eingaben passen nicht zu gespeicherten Spielen.",
                               len(conflicts)) % {"tables": ", ".join(conflicts)})
    rejected = [str(r.table.number) for r in rows if r.rejected]
    if rejected:
        alerts.append(ngettext("Abgelehnte Eingabe an Tisch %(tables)s.", "Abgelehnte Eingaben an den Tischen "
                               "%(tables)s.", len(rejected)) % {"tables": ", ".join(rejected)})
    for row in rows:
        if row.late:
            alerts.append(ngettext("Tisch %(table)s liegt %(n)s Spiel hinter der Zeit.",
                                   "Tisch %(table)s liegt %(n)s Spiele hinter der Zeit.", row.behind)
                          % {"table": row.table.number, "n": row.behind})
    return alerts
