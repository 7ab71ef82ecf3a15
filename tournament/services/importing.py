"""Writing a checked tournament file (`file_checks.check_file`: the models' own validation, the
scoring engine and the references between the file's parts) through the same services the pages
use: the tournament, its players, each round seated, published, its sheets entered, signed and
closed. Then the file's change log replaces the records the import itself made, so that a backup
restored into an empty database shows the same log as before; a file without a log keeps them.

All in one transaction: a file is imported completely or not at all.
"""

from __future__ import annotations

from typing import Any

from django.db import models, transaction
from django.utils.translation import gettext as _

from .. import engine, names, privacy
from ..fileformat import TEAM_KEYS, TOURNAMENT_DEFAULTS
from ..log import audit
from ..log.audit import Actor
from ..log.changelog import KINDS, history_model
from ..models import DraftGame, Entry, Game, Organisation, Round, Series, Table, Team, Tournament
from ..selectors.access import is_series_director
from . import bulk, locking, rangliste, results, seating, sheet_state, table_links, teams, tournaments
from . import privacy as privacy_services
from . import series as series_services
from .file_checks import PUBLIC_KEYS, Plan, check_file


def import_tournament(data: Any, *, director=None, slug: str | None = None, organisation: Organisation | None = None,
                      by: Actor | None = None, notes: list[str] | None = None) -> Tournament:
    """Creates the tournament of a file (docs/tournament-file.md) in `organisation` (none: the
    director's first); `slug` replaces the file's. Its players are the organisation's records
    (`tournaments.find_or_create_players`: a file never changes a record that exists). Checks
    everything first: raises ImportProblems listing every problem, and then writes nothing. `notes`
    gets what the file says that was not taken over (a series the importer cannot add it to), in
    sentences for the page or the command."""
    plan = check_file(data, slug=slug)
    by = by or (Actor(user=director) if director is not None else Actor(label="Import"))
    with transaction.atomic():
        tournament = _write(plan, director, by, organisation)
        said = join_series(tournament, plan.series, director=director, by=by) if plan.series else []
        if plan.log is not None:
            with audit.recording("imported", by=by, tournament=tournament):
                replace_log(tournament, plan.log)
    if notes is not None:
        notes.extend(said)
    return tournament


def join_series(tournament: Tournament, wanted: dict[str, str], *, director, by: Actor) -> list[str]:
    """The tournament joins the series the file names: the series of that short name in the
    tournament's organisation, else the one of that name. Only a director of that series may add
    to it (on the command line, the site's administrator: `director` None). Returns what could not be
    done, in sentences; then the tournament is imported without a series."""
    found = Series.objects.filter(organisation_id=tournament.organisation_id)
    series = (found.filter(slug=wanted["slug"]).first() if wanted.get("slug") else None) \
        or found.filter(name=wanted["name"]).order_by("id").first()
    if series is None:
        return [_("Die Serie „%(name)s“ gibt es in dieser Organisation nicht: das Turnier ist ohne Serie eingespielt. "
                  "Wird die Serie angelegt, lässt es sich auf ihrer Seite hinzufügen.") % {"name": wanted["name"]}]
    if director is not None and not is_series_director(director, series):
        return [_("Die Serie „%(name)s“ leiten Sie nicht: das Turnier ist ohne Serie eingespielt. Wer die Serie "
                  "leitet, kann es auf ihrer Seite hinzufügen.") % {"name": series.name}]
    if director is not None:
        series_services.add_tournament(series=series, tournament=tournament, user=director, by=by)
        tournament.series = series  # (the service saved its own locked copy)
    else:
        with audit.recording("series_joined", by=by, tournament=tournament):
            tournament.series = series
            tournament.save(update_fields=["series"])
    return []


def _write(plan: Plan, director, by: Actor, organisation: Organisation | None) -> Tournament:
    checked = plan.tournament
    tournament = tournaments.create_tournament(
        name=checked.name, date=checked.date, director=director, place=checked.place, slug=checked.slug,
        rules=checked.rules, rounds_planned=checked.rounds_planned, games_at_table_of_4=checked.games_at_table_of_4,
        games_at_table_of_5=checked.games_at_table_of_5, tie_breakers=checked.tie_breakers,
        counts_for_rangliste=bool(checked.counts_for_rangliste),
        round_minutes=checked.round_minutes, pflichtsoli=checked.pflichtsoli, ranking=checked.ranking,
        public={key: getattr(checked, key) for key in PUBLIC_KEYS}, categories=checked.categories,
        prizes=checked.prizes, organisation=organisation, by=by)
    return _write_contents(plan, tournament, by)


def replace_contents(*, tournament: Tournament, data: Any, by: Actor) -> Tournament:
    """Replaces the tournament's settings, players, teams and rounds with the file's; the tournament keeps
    its row, short name, organisation and series. The hub's way of taking a venue's published file
    (`hub_apply`, docs/publishing.md). Checks the file first (ImportProblems); the change log of the
    tournament is emptied (the venue keeps it)."""
    plan = check_file({k: v for k, v in data.items() if k != "slug"} if isinstance(data, dict) else data,
                      slug=tournaments.unique_slug(str(data.get("name", "")) if isinstance(data, dict) else ""))
    with transaction.atomic():
        with audit.recording("published_from_venue", by=by, tournament=tournament):
            tournament = locking.lock_tournament(tournament)
            Round.objects.filter(tournament=tournament).delete()  # its tables, seats, games, penalties, scores
            Team.objects.filter(tournament=tournament).delete()
            kept = _kept_entries(tournament, plan)
            Entry.objects.filter(tournament=tournament).exclude(pk__in=[e.pk for e in kept.values()]).delete()
            for field in ("name", "date", "place", "rules", *TOURNAMENT_DEFAULTS):
                setattr(tournament, field, getattr(plan.tournament, field))
            tournament.version += 1
            tournament.save()
        _update_kept(plan, kept, by)
        tournament = _write_contents(plan, tournament, by, kept=kept)
        with audit.recording("published_from_venue", by=by, tournament=tournament):
            replace_log(tournament, [])
    return tournament


def _kept_entries(tournament: Tournament, plan: Plan) -> dict[int, Entry]:
    """The tournament's entries that stay when its contents are replaced, by start number: a player
    with the same start number is the same entry (so that a player's page, whose address holds the
    entry's id, stays where it is when a venue publishes its next round)."""
    existing = {e.start_number: e for e in Entry.objects.filter(tournament=tournament).select_related("player")}
    identities = {names.identity(e.player.name, e.player.club): e.start_number for e in existing.values()}
    kept = {}
    for planned in plan.players:
        entry = existing.get(planned.entry.start_number)
        holder = identities.get(names.identity(planned.entry.player.name, planned.entry.player.club))
        if entry is not None and holder in (None, entry.start_number):  # (a name another entry holds: made anew)
            kept[entry.start_number] = entry
    return kept


def _update_kept(plan: Plan, kept: dict[int, Entry], by: Actor) -> None:
    """The kept entries as the file has them: the person (a changed name or club through the players'
    page's own service), the rounds played, checked in, categories and member number, publication."""
    for planned in plan.players:
        entry = kept.get(planned.entry.start_number)
        if entry is None:
            continue
        file_player = planned.entry.player
        if names.identity(entry.player.name, entry.player.club) != names.identity(file_player.name, file_player.club):
            entry = kept[entry.start_number] = tournaments.edit_player(
                entry=entry, name=file_player.name, club=file_player.club, by=by)
        if planned.member_number and planned.member_number != entry.player.member_number:
            entry = rangliste.set_member_number(entry=entry, member_number=planned.member_number, by=by)
        with audit.recording("published_from_venue", by=by, tournament=entry.tournament):
            for field in ("joined_round", "withdrawn_from_round", "present"):
                setattr(entry, field, getattr(planned.entry, field))
            entry.categories = list(planned.categories)
            entry.save()
        if privacy.strictest([entry.player.publication, file_player.publication]) != entry.player.publication:
            privacy_services.at_least(entry=entry, level=file_player.publication, by=by)


def _write_contents(plan: Plan, tournament: Tournament, by: Actor, *, kept: dict[int, Entry] | None = None
                    ) -> Tournament:
    """Writes the file's players, teams and rounds into `tournament` (which has none but the `kept`
    entries, by start number, already as the file has them)."""
    kept = kept or {}
    new = [p for p in plan.players if p.entry.start_number not in kept]
    created = iter(tournaments.register_players_checked(
        tournament=tournament, by=by,
        players=[tournaments.NewPlayer(p.entry.player.name, p.entry.player.club, p.entry.start_number,
                                       p.entry.joined_round, p.entry.withdrawn_from_round, present=p.entry.present,
                                       member_number=p.member_number, categories=p.categories,
                                       publication=p.entry.player.publication)
                 for p in new]) if new else [])
    entries = [kept.get(p.entry.start_number) or next(created) for p in plan.players]
    # the file names players by their reference, as written there (the stored names are cleaned)
    entry = {planned.ref: e.id for planned, e in zip(plan.players, entries, strict=True)}
    tournament = _write_teams(plan, tournament, entries, by)

    for planned in plan.rounds:
        file_round = planned.round
        round = seating.create_round(tournament=tournament, number=file_round.number, by=by)
        seating.place_tables(round=round, tables=[[entry[n] for n in t.players] for t in planned.tables],
                             numbers=[t.number for t in planned.tables], mode=file_round.mode, seed=file_round.seed,
                             links=[t.link for t in planned.tables], by=by)
        if file_round.is_draft:
            continue
        seating.publish_round(round=round, by=by)
        tables = {table.number: table for table in round.tables.select_related("round__tournament")}
        sheets = []
        for t in planned.tables:
            if t.games or t.penalties:
                sheets.append((tables[t.number],
                               [(number, _data(game, entry)) for number, game in t.games],
                               [{"offender_id": entry[p.offender], "game_number": p.game_number,
                                 "players": [entry[n] for n in p.players], "note": p.note} for p in t.penalties]))
        # with the file's own log, the records the import would make are replaced anyway (replace_log)
        results.enter_sheets(sheets=sheets, by=by, rules=plan.rules, history=plan.log is None)
        for t in planned.tables:
            if t.totals is not None:
                sheet_state.enter_totals(table=tables[t.number], totals={entry[n]: pts for n, pts in t.totals.items()},
                                         version=None, by=by)
        for t in planned.tables:  # before the phones' waiting entries: ending a table needs none
            if t.ended_after is not None:
                sheet_state.end_table(table=tables[t.number], note=t.ended_note, version=None, by=by)
        with audit.recording("imported", by=by, tournament=tournament):
            _write_phones(planned, tables, entry)
        if file_round.results_hidden:
            seating.hide_results(round=round, by=by)
        for t in planned.tables:  # signing locks a table: only once everything is entered
            if t.signed_at is not None:
                sheet_state.sign_table(table=tables[t.number], version=None, by=by, note=t.signed_note, at=t.signed_at)
        if file_round.status == Round.Status.CLOSED:
            seating.close_round(round=round, by=by, backup=False)
    return tournament


def _write_teams(plan: Plan, tournament: Tournament, entries: list, by: Actor) -> Tournament:
    """The team options (where they differ from the defaults) and the teams, members by start number.
    Returns the tournament as it is then."""
    checked = plan.tournament
    options = {key: getattr(checked, key) for key in TEAM_KEYS}
    if any(value != TOURNAMENT_DEFAULTS[key] for key, value in options.items()):
        tournament = teams.set_team_options(tournament=tournament, **options, by=by)
    by_number = {e.start_number: e.id for e in entries}
    for team in plan.teams:
        teams.create_team(tournament=tournament, name=team.name, members=[by_number[n] for n in team.members], by=by)
    return tournament


def _write_phones(planned, tables: dict[int, Table], entry: dict[str, int]) -> None:
    """What the tables' phones held: entries waiting or rejected, "stimmt" of the sheet as it is now
    (the entry links came with the tables: `seating.place_tables`). Inside the import's recording
    (`update` sends no signals)."""
    audit.require("importing._write_phones")
    # the tables as they are now, read once for the round (not per table)
    fresh = Table.objects.in_bulk([table.pk for table in tables.values()])
    for t in planned.tables:
        table = tables[t.number]
        for field in Table._meta.concrete_fields:  # what refresh_from_db() did, from the one query
            setattr(table, field.attname, getattr(fresh[table.pk], field.attname))
        changed = []
        for draft in t.drafts:
            if DraftGame.objects.filter(key=draft["key"]).exists():
                continue  # imported next to its original (a copy): the key stays with the original
            made = DraftGame.objects.create(
                table=table, number=draft["number"], key=draft["key"], data=_draft_data(draft, entry),
                device=draft["device"], entered_by_id=entry.get(draft["entered_by"]) if draft["entered_by"] else None,
                status=draft["status"], decided_by=draft["decided_by"], reason=draft["reason"],
                base_version=(table.games.filter(number=draft["number"]).values_list("version", flat=True).first() or 0)
                if draft["corrects"] else 0)
            if draft["at"] is not None:  # when the phone sent it, not when it was imported
                DraftGame.objects.filter(pk=made.pk).update(created_at=draft["at"])
        if t.drafts:
            table_links.count_drafts(table.pk)
        if t.approved:
            table.approvals = {str(entry[name]): table.version for name in t.approved}
            changed.append("approvals")
        if changed:
            Table.objects.filter(pk=table.pk).update(**{name: getattr(table, name) for name in changed})


def _data(game, entry: dict[str, int]) -> dict:
    return engine.from_engine(game, key=entry.__getitem__)


# ---- the change log of the file --------------------------------------------------------------------

def replace_log(tournament: Tournament, records: list[dict]) -> None:
    """Replaces the tournament's change log by the file's records, oldest first, so that the
    records keep their order. Each record also gets the row it describes, as far as that still
    exists (the log reads only its own fields; the row keeps django-simple-history's tables whole).
    Inside the import's recording."""
    audit.require("importing.replace_log")
    for kind in KINDS:
        history_model(kind).objects.filter(log_tournament=tournament.pk).delete()
    rows: dict[str, list] = {kind: [] for kind in KINDS}
    current = _current_objects(tournament)
    for record in sorted(records, key=lambda r: r["at"]):
        kind = record["kind"]
        history = history_model(kind)
        fields = _tracked_defaults(history, record, tournament)
        fields.update(_current_fields(kind, record, current, tournament))
        rows[kind].append(dict(
            history_date=record["at"], history_type=record["type"], history_user_id=None, history_change_reason=None,
            log_tournament=tournament.pk, log_round=record["round"], log_table=record["table"],
            log_action=record["action"], log_user=record["user"], log_device=record["device"],
            log_detail=record["detail"], **fields))
    for kind, history_rows in rows.items():
        bulk.insert_dicts(history_model(kind), history_rows)  # (bulk_create without its per-row cost)


def _draft_data(draft: dict, entry: dict[str, int]) -> dict:
    """A waiting entry's data as the phone's service stores it: the game, and a penalty entered with it."""
    data = _data(draft["game"], entry)
    if draft["penalty"]:
        data["penalty"] = {"offender": entry[draft["penalty"]["offender"]], "note": draft["penalty"]["note"]}
    return data


def _current_objects(tournament: Tournament) -> dict[str, dict]:
    return {
        "player": {(e.player.name, e.player.club): e for e in tournament.entries.select_related("player")},
        "round": {r.number: r for r in tournament.rounds.all()},
        "table": {(t.round.number, t.number): t for t in Table.objects.filter(round__tournament=tournament)
                  .select_related("round")},
        # the games as the values of their tracked fields (thousands: no model instances)
        "game": {(values.pop("_round"), values.pop("_table"), values["number"]): values
                 for values in Game.objects.filter(table__round__tournament=tournament)
                 .values(*(field.attname for field in history_model("game").tracked_fields),
                         _round=models.F("table__round__number"), _table=models.F("table__number"))},
    }


def _current_fields(kind: str, record: dict, current: dict[str, dict], tournament: Tournament) -> dict:
    """The tracked fields of the object a record is about, where it still exists."""
    found: models.Model | dict | None = None
    if kind == "tournament":
        found = tournament
    elif kind == "player":
        found = current["player"].get((record["detail"].get("name"), record["detail"].get("club", "")))
    elif kind == "round":
        found = current["round"].get(record["round"])
    elif kind == "table":
        found = current["table"].get((record["round"], record["table"]))
    elif kind == "game":
        found = current["game"].get((record["round"], record["table"], record["number"]))
        if found is None:
            table = current["table"].get((record["round"], record["table"]))
            return {"table_id": table.pk if table else 0, "number": record["number"]}
    elif kind == "team":  # told apart by the file's number, as penalties (exporting.NUMBERED_KINDS)
        return {"id": -(record["id"] or 0), "name": str(record["detail"].get("name", ""))[:80]}
    elif kind in ("penalty", "draft"):
        table = current["table"].get((record["round"], record["table"]))
        fields = {"id": -(record["id"] or 0), "table_id": table.pk if table else 0}
        if kind == "draft":
            fields["number"] = record["number"] or 0
        return fields
    if found is None:
        return {}
    if isinstance(found, dict):
        return dict(found)
    return {field.attname: getattr(found, field.attname) for field in history_model(kind).tracked_fields}


def _tracked_defaults(history, record: dict, tournament: Tournament) -> dict:
    """A value for every tracked field that may not be empty, for records of objects that no longer
    exist (a deleted game, the tables of an earlier draw)."""
    values: dict[str, Any] = {}
    for field in history.tracked_fields:
        if field.null:
            values[field.attname] = None
        elif field.has_default():
            values[field.attname] = field.get_default()
        elif isinstance(field, models.DateTimeField):
            values[field.attname] = record["at"]
        elif isinstance(field, models.DateField):
            values[field.attname] = tournament.date
        elif isinstance(field, (models.CharField, models.TextField)):
            values[field.attname] = ""
        elif isinstance(field, models.JSONField):
            values[field.attname] = []
        elif isinstance(field, models.BooleanField):
            values[field.attname] = False
        else:  # numbers and references
            values[field.attname] = 0
    if "tournament_id" in values:
        values["tournament_id"] = tournament.pk
    if "number" in values and record.get("round") is not None and history is history_model("round"):
        values["number"] = record["round"]
    if "number" in values and record.get("table") is not None and history is history_model("table"):
        values["number"] = record["table"]
    if history is history_model("player"):
        values["start_number"] = record["detail"].get("start_number", 0)
    return values
