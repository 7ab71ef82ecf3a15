"""The pieces of the tournament file (docs/tournament-file.md), made from the models: players,
tables, game and penalty rows, named by the players' names. The export writes them, the change log
keeps them as what a record held (so that it reads the same in any database), and a restore turns
them back into data through `engine.from_engine`.

Canonical form: optional keys only when they differ from their defaults.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import scoring
from seating import dealing

from . import engine, privacy
from .models import DraftGame, Entry, Game, Penalty, Round, Series, Table, Team, TeamMember, Tournament

Names = Callable[[int], str]  # entry id -> player name

# The version of the exchange format the export writes (`format_version`, docs/tournament-file.md,
# "Versions"): a whole number, raised whenever a file of the new version could be refused or misread by
# a reader of the old one; its schema is schemas/tournament-file.v<version>.schema.json
FORMAT_VERSION = 1

TOURNAMENT_DEFAULTS = {"place": "", "rounds_planned": 3, "games_at_table_of_4": 8, "games_at_table_of_5": 10,
                       "round_minutes": 100, "tie_breakers": [], "public_overview": True, "public_standings": True,
                       "public_seating": True, "public_players": True, "pflichtsoli": "", "ranking": "points",
                       # its own categories, and the team options (docs/competitions.md); the teams: `teams_item`
                       "categories": [], "team_count": None, "club_count": None, "teams_apart": False,
                       "team_match": False, "cup_advance": None,
                       # the season across clubs it is a match day of, by the season's short name on the hub
                       "season": "",
                       # what it belongs to: it counts for the Ranglisten of flagged tournaments (the series:
                       # `series_item`, by name and short name)
                       "counts_for_rangliste": False,
                       # what each place of the prize list wins (Tournament.prizes)
                       "prizes": {}}
TEAM_KEYS = ("team_count", "club_count", "teams_apart", "team_match", "cup_advance", "season")
ROUND_DEFAULTS = {"status": Round.Status.PUBLISHED.value, "mode": Round.Mode.RANDOM.value, "seed": "",
                  "results_hidden": False}


def tournament_settings(tournament: Tournament) -> dict:
    """The tournament's own keys (no players, no rounds)."""
    data: dict[str, Any] = {"name": tournament.name, "slug": tournament.slug, "date": tournament.date.isoformat(),
                            "rules": scoring.rules_spec(tournament.scoring_rules())}
    for key, default in TOURNAMENT_DEFAULTS.items():
        value = getattr(tournament, key)
        if value != default:
            data[key] = list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value
    series = series_item(tournament)
    if series is not None:
        data["series"] = series
    return data


def series_item(tournament: Tournament) -> dict | None:
    """The series the tournament is an evening of, by name and short name (a restore attaches it to
    the series of that short name, or else of that name, in the importing organisation); None: none."""
    if tournament.series_id is None:
        return None
    name, slug = Series.objects.filter(pk=tournament.series_id).values_list("name", "slug").get()
    return {"name": name, "slug": slug}


def player_item(entry: Entry, index: int) -> dict:
    """A player of the `players` list; `index` is the place in the list (the default start number)."""
    item: dict[str, Any] = {"name": entry.player.name, "club": entry.player.club}
    if entry.start_number != index:
        item["start_number"] = entry.start_number
    if entry.joined_round != 1:
        item["joined_round"] = entry.joined_round
    if entry.withdrawn_from_round is not None:
        item["withdrawn_from_round"] = entry.withdrawn_from_round
    if entry.present:  # checked in: a draw seats only those present (docs/tournament.md)
        item["present"] = True
    if entry.player.member_number:  # the person's, shared by the tournaments of that Player row
        item["member_number"] = entry.player.member_number
    if entry.categories:
        item["categories"] = list(entry.categories)
    if entry.player.publication != privacy.FULL:  # the person's level, as the record says (docs/privacy.md)
        item["publication"] = entry.player.publication
    return item


def teams_item(tournament: Tournament) -> list[dict]:
    """The tournament's teams by name, each with its members by start number (two queries)."""
    members: dict[int, list[int]] = {}
    for team_id, number in (TeamMember.objects.filter(team__tournament=tournament)
                            .order_by("entry__start_number").values_list("team_id", "entry__start_number")):
        members.setdefault(team_id, []).append(number)
    return [{"name": team.name, "members": members.get(team.pk, [])}
            for team in Team.objects.filter(tournament=tournament).order_by("name")]


def round_item(round: Round) -> dict:
    """A round's own keys (no tables)."""
    item: dict[str, Any] = {"number": round.number}
    for key, default in ROUND_DEFAULTS.items():
        if getattr(round, key) != default:
            item[key] = getattr(round, key)
    return item


def game_row(game: Game, seated: Sequence[int], name: Names) -> dict:
    """A game as a row of the table's sheet: the 4 players who played it in seat order."""
    players = [e for e in seated if e != game.sitting_out_id]
    return engine.to_engine(engine.data_of(game), players, name)


def penalty_row(penalty: Penalty, name: Names) -> dict:
    return {"penalty": name(penalty.offender_id), "players": [name(e) for e in penalty.players]}


def penalty_detail(penalty: Penalty) -> dict:
    """What a penalty row does not say: its game and its reason (both optional)."""
    detail: dict[str, Any] = {}
    if penalty.game_number is not None:
        detail["game"] = penalty.game_number
    if penalty.note:
        detail["note"] = penalty.note
    return detail


def totals_item(table: Table, seated: Sequence[int], name: Names) -> dict | None:
    if not table.totals_only:
        return None
    totals = table.entered_totals or {}
    return {name(e): totals.get(str(e), 0) for e in seated}


def signed_item(table: Table) -> dict | None:
    if table.signed_at is None:
        return None
    item = {"at": table.signed_at.isoformat()}
    if table.signed_note:
        item["note"] = table.signed_note
    return item


def ended_item(table: Table) -> dict | None:
    """A table that stopped before its last game: after which game, and why."""
    if table.ended_after is None:
        return None
    return {"after": table.ended_after, "note": table.ended_note}


def approved_names(table: Table, seated: Sequence[int], name: Names) -> list[str]:
    """The players who tapped "stimmt" for the sheet as it is now (an approval of an earlier version
    of the sheet no longer counts)."""
    approvals = table.approvals or {}
    return [name(e) for e in seated if approvals.get(str(e)) == table.version]


def draft_item(draft: DraftGame, seated: Sequence[int], name: Names, players: Sequence[int] | None = None) -> dict:
    """A game entered at the table, waiting or rejected: the row as the phone sent it, who and when.
    `players`: the 4 who play its game (read from the table's games when not given)."""
    if players is None:
        players = draft_players(draft.table, seated, draft.number)
    item: dict[str, Any] = {"number": draft.number, "row": engine.to_engine(draft.data, players, name),
                            "status": draft.status, "key": draft.key, "device": draft.device,
                            "at": draft.created_at.isoformat() if draft.created_at else None}
    if draft.data.get("penalty"):  # a penalty in this game, entered with it
        item["penalty"] = {"offender": name(draft.data["penalty"]["offender"]), "note": draft.data["penalty"]["note"]}
    if draft.base_version:
        item["corrects"] = True  # a correction of a game that was entered, not a new game
    if draft.entered_by_id:
        item["entered_by"] = name(draft.entered_by_id)
    if draft.decided_by:
        item["decided_by"] = draft.decided_by
    if draft.reason:
        item["reason"] = draft.reason
    return item


def draft_players(table: Table, seated: Sequence[int], number: int) -> list:
    """The 4 who play game `number` at the table (a list's deal follows its games: one query then)."""
    rule = table.round.tournament.list_rule(len(seated))
    games = {n: dealing.entered(t, re, p) for n, t, re, p in table.games.values_list("number", "type", "re",
                                                                                    "pflichtsolo")} if rule else {}
    return dealing.deal_of(list(seated), number, rule=rule, games=games).players


def table_item(table: Table, seated: Sequence[int], games: list[Game], penalties: list[Penalty], name: Names,
               drafts: Sequence[DraftGame] = (), *, link: bool = True, rule: dealing.ListRule | None = None) -> dict:
    """A table with its players in seat order and its rows. A penalty goes right after its game, or
    after the last game before it when its game is not entered (`penalty_details` says which game
    when that is not the row before it). Then what the table's phones hold: who tapped "stimmt",
    the entries waiting or rejected, the entry link. `rule`: the tournament's list with Pflichtsoli
    at this table, which says who plays a waiting entry's game."""
    item: dict[str, Any] = {"number": table.number, "players": [name(e) for e in seated]}
    numbers = [game.number for game in games]
    # slot 0: before the first game row; slot i: after the i-th game row
    slots: list[list[Penalty]] = [[] for _ in range(len(games) + 1)]
    for penalty in penalties:
        slot = 0 if penalty.game_number is None else sum(1 for n in numbers if n <= penalty.game_number)
        slots[slot].append(penalty)
    rows: list[dict] = []
    details = []
    for slot, slot_penalties in enumerate(slots):
        if slot:
            rows.append(game_row(games[slot - 1], seated, name))
        for penalty in slot_penalties:
            rows.append(penalty_row(penalty, name))
            detail: dict[str, Any] = {}
            if penalty.game_number != (numbers[slot - 1] if slot else None):
                detail["game"] = penalty.game_number
            if penalty.note:
                detail["note"] = penalty.note
            details.append(detail)
    item["rows"] = rows
    totals = totals_item(table, seated, name)
    if totals is not None:
        item["totals"] = totals
    if numbers != list(range(1, len(numbers) + 1)):
        item["game_numbers"] = numbers
    if any(details):
        item["penalty_details"] = details
    ended = ended_item(table)
    if ended is not None:
        item["ended"] = ended
    signed = signed_item(table)
    if signed is not None:
        item["signed"] = signed
    approved = approved_names(table, seated, name)
    if approved:
        item["approved"] = approved
    if drafts:
        entered = {game.number: dealing.entered(game.type, game.re, game.pflichtsolo) for game in games}
        deals = dealing.deals(list(seated), max(draft.number for draft in drafts), rule=rule, games=entered)
        item["drafts"] = [draft_item(draft, seated, name, deals[draft.number - 1].players) for draft in drafts]
    if link and table.link_token:
        item["link"] = table.link_token
    return item
