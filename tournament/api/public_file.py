"""The tournament file (docs/tournament-file.md, the exchange format) as the public may see it: the
export's pieces (`fileformat`), with each player's name, club and member number at their publication
level (`privacy`, as the public pages show them), without the rounds not published yet (drafts),
without the results of rounds whose results are hidden, without what only the director's phones and
a restore need (waiting entries, entry links, the change log). Valid against the format's schema.

A fixed number of queries whatever the size."""

from __future__ import annotations

from .. import names, privacy
from ..fileformat import FORMAT_VERSION, player_item, round_item, table_item, teams_item, tournament_settings
from ..models import Entry, Game, Organisation, Penalty, Round, Seat, Table, Tournament


def shown_entries(tournament: Tournament) -> list[Entry]:
    """The tournament's players by start number, read for the public (`privacy.for_public`), member
    numbers only where the organisation publishes them. Two queries."""
    publish = Organisation.objects.filter(pk=tournament.organisation_id).values_list(
        "publish_member_numbers", flat=True).first()
    entries = [privacy.for_public(entry) for entry in
               tournament.entries.select_related("player").order_by("start_number")]
    if not publish:
        for entry in entries:
            entry.player.member_number = ""
    return entries


def references(entries: list[Entry]) -> dict[int, str]:
    """Entry id -> how the file names the player: the shown name, "Name (Verein)" where two share a
    name, and the start number added where shown names still meet (two players "A. K." of one club)."""
    refs = names.references((entry.id, entry.player.name, entry.player.club) for entry in entries)
    count: dict[str, int] = {}
    for ref in refs.values():
        count[names.folded(ref)] = count.get(names.folded(ref), 0) + 1
    return {entry.id: refs[entry.id] if count[names.folded(refs[entry.id])] == 1
            else f"{refs[entry.id]} (Nr. {entry.start_number})" for entry in entries}


def public_table(table: Table, tournament: Tournament, refs: dict[int, str], seated: list[int],
                 games: list[Game], penalties: list[Penalty]) -> dict:
    """A table in the file's words: its players in seat order and, unless its round's results are
    hidden, its rows (games and penalties), totals, end and signature."""
    if table.round.results_hidden:
        return {"number": table.number, "players": [refs[e] for e in seated], "rows": []}
    item = table_item(table, seated, games, penalties, refs.__getitem__, (), link=False,
                      rule=tournament.list_rule(len(seated)))
    return item


def table_parts(tournament: Tournament, table_ids: list[int] | None = None):
    """Seats, games and penalties by table id (of the tables named, or all of the tournament). Three queries."""
    where = {"table__in": table_ids} if table_ids is not None else {"table__round__tournament": tournament}
    seats: dict[int, list[int]] = {}
    for table_id, entry_id in Seat.objects.filter(**where).order_by("position").values_list("table_id", "entry_id"):
        seats.setdefault(table_id, []).append(entry_id)
    games: dict[int, list[Game]] = {}
    for game in Game.objects.filter(**where).order_by("number"):
        games.setdefault(game.table_id, []).append(game)
    penalties: dict[int, list[Penalty]] = {}
    for penalty in Penalty.objects.filter(**where).order_by("id"):
        penalties.setdefault(penalty.table_id, []).append(penalty)
    return seats, games, penalties


def public_file(tournament: Tournament) -> dict:
    """The whole tournament as the public sees it, in the exchange format (format_version first)."""
    data = {"format_version": FORMAT_VERSION, **tournament_settings(tournament)}
    entries = shown_entries(tournament)
    refs = references(entries)
    data["players"] = [player_item(entry, index) for index, entry in enumerate(entries, start=1)]
    teams = teams_item(tournament)
    if teams:
        data["teams"] = teams
    seats, games, penalties = table_parts(tournament)
    rounds = {r.id: r for r in tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("number")}
    tables: dict[int, list[Table]] = {}
    for table in Table.objects.filter(round_id__in=list(rounds)).order_by("number"):
        table.round = rounds[table.round_id]
        tables.setdefault(table.round_id, []).append(table)
    data["rounds"] = []
    for round in rounds.values():
        item = round_item(round)
        item["tables"] = [public_table(table, tournament, refs, seats.get(table.id, []), games.get(table.id, []),
                                       penalties.get(table.id, [])) for table in tables.get(round.id, [])]
        data["rounds"].append(item)
    return data
