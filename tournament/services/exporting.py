"""A whole tournament as one JSON document (docs/tournament-file.md): the lossless export, which is
also the backup. Players by name, rounds with their tables in seat order, each table's games and
penalties as rows of the scoring engine's sheet format, and the change log.

Canonical form: optional keys only when they differ from their defaults; importing a canonical file
and exporting it again gives the same JSON.
"""

from __future__ import annotations

from .. import names
from ..fileformat import FORMAT_VERSION, player_item, round_item, table_item, teams_item, tournament_settings
from ..log.changelog import KINDS, history_model
from ..models import DraftGame, Game, Penalty, Seat, Table, Tournament

LOG_ORDER = {kind: index for index, kind in enumerate(KINDS)}
# the kinds of log records the tournament file holds: all of them (teams too, since the file has them)
FILE_KINDS = tuple(KINDS)


def export_tournament(tournament: Tournament, *, backup: bool = True) -> dict:
    """The tournament in the file format, canonical form, with the format's version first. As a backup
    (the default) also with what only a restore needs: the change log and the tables' entry links.
    Eleven queries, and one more per kind of log record."""
    # the format's version first: what a reader checks before anything else
    data = {"format_version": FORMAT_VERSION, **tournament_settings(tournament)}
    entries = list(tournament.entries.select_related("player").order_by("start_number"))
    # who is who in the rounds: the name, or "Name (Verein)" where two players share a name
    refs = names.references((entry.id, entry.player.name, entry.player.club) for entry in entries)
    data["players"] = [player_item(entry, index) for index, entry in enumerate(entries, start=1)]
    teams = teams_item(tournament)
    if teams:  # optional: a file without teams has none
        data["teams"] = teams

    seats: dict[int, list[int]] = {}
    for table_id, entry_id in (Seat.objects.filter(round__tournament=tournament)
                               .order_by("position").values_list("table_id", "entry_id")):
        seats.setdefault(table_id, []).append(entry_id)
    games: dict[int, list[Game]] = {}
    for game in Game.objects.filter(table__round__tournament=tournament).order_by("number"):
        games.setdefault(game.table_id, []).append(game)
    penalties: dict[int, list[Penalty]] = {}
    for penalty in Penalty.objects.filter(table__round__tournament=tournament).order_by("id"):
        penalties.setdefault(penalty.table_id, []).append(penalty)
    drafts: dict[int, list[DraftGame]] = {}
    for draft in (DraftGame.objects.filter(table__round__tournament=tournament)
                  .filter(status__in=[DraftGame.Status.WAITING, DraftGame.Status.REJECTED])  # not yet dealt with
                  .order_by("number", "created_at", "id")):
        drafts.setdefault(draft.table_id, []).append(draft)
    tables_of: dict[int, list[Table]] = {}
    for table in Table.objects.filter(round__tournament=tournament).order_by("number"):
        tables_of.setdefault(table.round_id, []).append(table)

    data["rounds"] = []
    for round in tournament.rounds.order_by("number"):
        item = round_item(round)
        item["tables"] = [table_item(table, seats.get(table.id, []), games.get(table.id, []),
                                     penalties.get(table.id, []), refs.__getitem__, drafts.get(table.id, []),
                                     link=backup, rule=tournament.list_rule(len(seats.get(table.id, []))))
                          for table in tables_of.get(round.id, [])]
        data["rounds"].append(item)
    if backup:
        data["log"] = export_log(tournament)
    return data


def export_log(tournament: Tournament) -> list[dict]:
    """Every change log record of the tournament, oldest first, in the file's words."""
    records = []
    for kind in FILE_KINDS:
        for record in history_model(kind).objects.filter(log_tournament=tournament.pk).order_by("history_id"):
            records.append((record.history_date, LOG_ORDER[kind], record.history_id, kind, record))
    records.sort(key=lambda item: item[:3])
    numbers: dict[tuple[str, int], int] = {}
    for _at, _order, _id, kind, record in records:
        if kind in NUMBERED_KINDS:
            numbers.setdefault((kind, record.id), len(numbers) + 1)
    return [log_item(kind, record, numbers) for _at, _order, _id, kind, record in records]


# told apart by their database id: numbered in the file by first record (a team is renamed, deleted and
# made again under its old name: its records stay apart)
NUMBERED_KINDS = ("penalty", "draft", "team")


def log_item(kind: str, record, numbers: dict[tuple[str, int], int]) -> dict:
    item = {"at": record.history_date.isoformat(), "kind": kind, "type": record.history_type}
    if record.log_action:
        item["action"] = record.log_action
    item["user"] = record.log_user
    if record.log_device:
        item["device"] = record.log_device
    if record.log_round is not None:
        item["round"] = record.log_round
    if record.log_table is not None:
        item["table"] = record.log_table
    if kind in ("game", "draft"):
        item["number"] = record.number
    if kind in NUMBERED_KINDS:
        item["id"] = numbers[(kind, record.id)]  # which records are of the same penalty or draft
    item["detail"] = record.log_detail
    return item
