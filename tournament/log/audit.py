"""Who changed what: the actor of a change, the record every write leaves, and the change counter.

django-simple-history keeps a historical record of every save and delete of the tracked models
(`models.kept_history`). A service that writes runs its changes inside `recording(action, by=...,
tournament=...)`; `fill_record`, connected to the library's `pre_create_historical_record` signal,
stamps each record with the tournament, round and table, the action, the person and device, and a
snapshot in the words of the tournament file (`fileformat`). When the recording ends without an
error it appends a `DataChange` row: the tournament's change counter.

The change log page (`selectors_log`) reads these records back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.signals import pre_create_historical_record

from .. import fileformat, names
from ..models import (
    CorrectionRequest,
    DataChange,
    DraftGame,
    Entry,
    Game,
    Penalty,
    Player,
    Registration,
    Round,
    Seat,
    Series,
    Table,
    Team,
    TeamMember,
    Tournament,
)

# What a change did, as the change log says it. The code is stored with each record.
ACTIONS = {
    "tournament_created": _("Turnier angelegt"),
    "settings_changed": _("Einstellungen geändert"),
    "rating_switched": _("Wertungszahl für die ganze Organisation ein- oder ausgeschaltet"),
    "roles_changed": _("Turnierleitung und Helfer geändert"),
    "player_registered": _("Spieler angemeldet"),
    "player_withdrawn": _("Spieler zurückgezogen"),
    "player_changed": _("Name oder Verein geändert"),
    "player_returned": _("Spieler spielt wieder mit"),
    "registration_received": _("Anmeldung eingegangen"),
    "registration_changed": _("Anmeldung geändert"),
    "registration_withdrawn": _("Anmeldung zurückgezogen"),
    "registration_moved_up": _("von der Warteliste nachgerückt"),
    "registration_settings": _("Anmeldung geöffnet, geschlossen oder Plätze geändert"),
    "contacts_erased": _("Kontaktdaten gelöscht"),
    "checked_in": _("als anwesend markiert"),
    "checked_out": _("nicht mehr als anwesend markiert"),
    "walk_in": _("Spieler an der Tür angemeldet"),
    "round_created": _("Runde angelegt"),
    "round_drawn": _("Tische ausgelost"),
    "round_seated": _("Tische eingeteilt"),
    "seats_swapped": _("Plätze getauscht"),
    "player_moved": _("Spieler an einen anderen Tisch gesetzt"),
    "round_published": _("Runde veröffentlicht"),
    "round_closed": _("Runde abgeschlossen"),
    "round_clock_started": _("Rundenuhr gestartet"),
    "round_clock_stopped": _("Rundenuhr angehalten"),
    "round_reopened": _("Runde wieder geöffnet"),
    "results_hidden": _("Ergebnisse verborgen"),
    "results_shown": _("Ergebnisse bekanntgegeben"),
    "game_saved": _("Spiel gespeichert"),
    "game_deleted": _("Spiel gelöscht"),
    "game_restored": _("Spiel wiederhergestellt"),
    "penalty_added": _("Strafe eingetragen"),
    "penalty_deleted": _("Strafe gelöscht"),
    "penalty_restored": _("Strafe wiederhergestellt"),
    "totals_entered": _("Endstände eingetragen"),
    "totals_cleared": _("Endstände gelöscht"),
    "table_signed": _("Spielzettel unterschrieben"),
    "table_unlocked": _("Spielzettel entsperrt"),
    "table_ended": _("Tisch vorzeitig beendet"),
    "table_resumed": _("beendeten Tisch wieder geöffnet"),
    "draft_entered": _("Spiel am Tisch eingegeben"),
    "draft_confirmed": _("Eingabe vom Tisch bestätigt"),
    "draft_rejected": _("Eingabe vom Tisch abgelehnt"),
    "draft_settled": _("Abgelehnte Eingabe erledigt"),
    "sheet_approved": _("„Stimmt“ getippt"),
    "link_renewed": _("Eingabelink neu erzeugt"),
    "link_revoked": _("Eingabelink gesperrt"),
    "sheets_entered": _("Ganze Spielzettel eingetragen"),
    "scores_recomputed": _("Ergebnisse neu berechnet"),
    "imported": _("Turnier eingelesen"),
    "series_created": _("Serie angelegt"),
    "series_changed": _("Serie geändert"),
    "series_joined": _("zur Serie hinzugefügt"),
    "series_left": _("aus der Serie genommen"),
    "players_merged": _("Spieler der Serie zusammengeführt"),
    "players_unmerged": _("Zusammenführung aufgehoben"),
    "team_created": _("Team angelegt"),
    "team_changed": _("Team geändert"),
    "team_deleted": _("Team gelöscht"),
    "team_options_changed": _("Team- und Vereinswertung geändert"),
    "teams_taken_over": _("Teams des letzten Spieltags übernommen"),
    "rangliste_created": _("Rangliste angelegt"),
    "rangliste_changed": _("Rangliste geändert"),
    "rangliste_refreshed": _("Rangliste des Verbands neu berechnet"),
    "member_number_changed": _("Mitgliedsnummer geändert"),
    "player_erased": _("Daten eines Spielers auf Wunsch gelöscht (Pseudonym)"),
    "publication_changed": _("Veröffentlichung geändert"),
    "categories_changed": _("Kategorien geändert"),
    "publication_started": _("Online-Veröffentlichung gestartet"),
    "publication_stopped": _("Online-Veröffentlichung beendet"),
    "published_from_venue": _("vom Turnierort übernommen (Hub)"),
    "identity_confirmed": _("als dieselbe Person bestätigt"),
    "identity_rejected": _("als andere Person vermerkt"),
    "identity_undone": _("Entscheidung über dieselbe Person zurückgenommen"),
    "correction_requested": _("Korrektur erbeten"),
    "correction_answered": _("Korrekturanfrage beantwortet"),
    "correction_declined": _("Korrekturanfrage abgelehnt"),
}


@dataclass(frozen=True)
class Actor:
    """Who makes a change: a logged-in user, or (without an account) a label such as a table's
    entry link; `device` is the random id a phone keeps for itself."""

    user: Any = None
    label: str = ""
    device: str = ""

    @property
    def name(self) -> str:
        if self.user is not None and getattr(self.user, "is_authenticated", False):
            return self.user.get_username()
        return self.label or "System"

    @classmethod
    def of(cls, request, *, device: str = "") -> Actor:
        user = getattr(request, "user", None)
        return cls(user=user if user is not None and user.is_authenticated else None, device=device)


SYSTEM = Actor(label="System")


@dataclass
class Recording:
    """The change being made: set by `recording`, read by `fill_record` for each historical record."""

    action: str
    by: Actor
    tournament_id: int | None
    # the one table whose sheet the change touched (its games, penalties, totals, signature, entries
    # from its phones); None: anything wider (seating, players, settings, several tables)
    table_id: int | None = None
    # the recording this one runs in (None: the outermost)
    within: Recording | None = None
    _names: dict[int, str] | None = None
    _seats: dict[int, list[int]] = field(default_factory=dict)
    _tables: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    _teams: dict[int, list[str]] = field(default_factory=dict)

    def name(self, entry_id: int) -> str:
        """The player as the tournament file names them (`names.references`)."""
        if self._names is None or entry_id not in self._names:  # (not read yet, or registered in this change)
            tournament_id = self.tournament_id or Entry.objects.filter(pk=entry_id).values_list(
                "tournament_id", flat=True).first() or 0
            self._names = names.references(Entry.objects.filter(tournament_id=tournament_id)
                                           .values_list("id", "player__name", "player__club"))
        return self._names.get(entry_id, f"#{entry_id}")

    def seated(self, table_id: int) -> list[int]:
        if table_id not in self._seats:
            self._seats[table_id] = list(Seat.objects.filter(table_id=table_id).order_by("position")
                                         .values_list("entry_id", flat=True))
        return self._seats[table_id]

    def table_place(self, table_id: int) -> tuple[int, int, int]:
        """(tournament id, round number, table number) of a table."""
        if table_id not in self._tables:
            place = (Table.objects.filter(pk=table_id)
                     .values_list("round__tournament_id", "round__number", "number").first())
            self._tables[table_id] = place or (self.tournament_id or 0, 0, 0)
        return self._tables[table_id]

    def team_members(self, team_id: int) -> list[str]:
        """A team's members by name, by start number; read once per recording (a deleting service
        reads them before they go with the team)."""
        if team_id not in self._teams:
            self._teams[team_id] = [self.name(e) for e in TeamMember.objects.filter(team_id=team_id)
                                    .order_by("entry__start_number").values_list("entry_id", flat=True)]
        return self._teams[team_id]

    def forget_seats(self) -> None:
        """The seating changed within this recording (a draw, a swap): read it anew."""
        self._seats.clear()

    def know_table(self, table: Table, seated: list[int]) -> None:
        """Tells the recording a table's place and seating, which spares a query per table when many
        are written at once."""
        self._seats[table.pk] = list(seated)
        self._tables[table.pk] = (table.round.tournament_id, table.round.number, table.number)


_current: ContextVar[Recording | None] = ContextVar("audit_recording", default=None)


@contextmanager
def recording(action: str, *, by: Actor, tournament: Tournament | int | None,
              table: Table | int | None = None) -> Iterator[Recording]:
    """Runs the changes of one action of one person; must be inside the action's transaction, so
    that the records and the counter are written with the change or not at all. `table`: the one
    table whose sheet the action changes and nothing else (a game, a penalty, totals, a signature, an
    entry from its phones), so that the pages that do not show that sheet stay cached
    (`web/caching.py`: `setup_counter`, `player_counters`)."""
    if not connection.in_atomic_block:
        raise RuntimeError("audit.recording() must run inside the transaction of the change")
    tournament_id = tournament.pk if isinstance(tournament, Tournament) else tournament
    table_id = table.pk if isinstance(table, Table) else table
    outer = _current.get()
    current = Recording(action=action, by=by, tournament_id=tournament_id, table_id=table_id, within=outer)
    token = _current.set(current)
    try:
        yield current
        same = _same_tournament(outer, current)
        if same is None and current.tournament_id is not None:
            for changed in TOURNAMENT_CHANGED:  # still inside this recording, before the counter's turn
                changed(current)
    finally:
        _current.reset(token)
    if same is not None:
        if same.table_id != current.table_id:
            same.table_id = None  # a step beyond the outer action's table: the change is a wide one
        return  # one step of a larger action (confirming an entry saves the game): counted once, with it
    if current.tournament_id is not None:  # (a new tournament: known once its first record is made)
        DataChange.objects.append(current.tournament_id, current.table_id)


def _same_tournament(outer: Recording | None, current: Recording) -> Recording | None:
    """The nearest recording around `current` of the same tournament (another tournament's may lie
    between: a player record's change runs one per tournament of the record, inside the edit of one of
    them); None: `current` is the whole change of its tournament."""
    same = outer
    while same is not None and (same.tournament_id is None or same.tournament_id != current.tournament_id):
        same = same.within
    return same


# called with the recording when a change of a tournament is done (the outermost recording of that
# tournament ends without an error), inside it and its transaction, before the change counter's turn is
# taken: `services.rangliste_refresh.tournament_changed` (registered when the app is ready; log imports no
# services)
TOURNAMENT_CHANGED: list[Callable[[Recording], object]] = []


def current() -> Recording | None:
    return _current.get()


def require(step: str) -> Recording:
    """The recording a step that writes runs in (a step: a public function of a service that writes
    for its caller and opens no recording of its own, e.g. `scores.write_scores`). Outside one it
    would change a tournament without moving its change counter, so it refuses: RuntimeError
    (docs/architecture.md, "The change counter")."""
    rec = _current.get()
    if rec is None:
        raise RuntimeError(f"{step}() writes a tournament's data: it must run inside audit.recording()")
    return rec


# ---- what a record holds ---------------------------------------------------------------------------

def place_of(instance, rec: Recording) -> tuple[int | None, int | None, int | None]:
    """(tournament id, round number, table number) a changed object belongs to."""
    if isinstance(instance, Tournament):
        return instance.pk, None, None
    if isinstance(instance, (Entry, Team, Registration)):
        return instance.tournament_id, None, None
    if isinstance(instance, Round):
        return instance.tournament_id, instance.number, None
    if isinstance(instance, Table):
        tournament_id, round_number, _number = rec.table_place(instance.pk)
        return tournament_id, round_number, instance.number
    if isinstance(instance, (Game, Penalty, DraftGame)):
        return rec.table_place(instance.table_id)
    return rec.tournament_id, None, None


def snapshot(instance, rec: Recording) -> dict:
    """The changed object in the words of the tournament file (names, not ids)."""
    if isinstance(instance, Game):
        row = fileformat.game_row(instance, rec.seated(instance.table_id), rec.name)
        return {"number": instance.number, "row": row}
    if isinstance(instance, Penalty):
        return {"row": fileformat.penalty_row(instance, rec.name), **fileformat.penalty_detail(instance)}
    if isinstance(instance, DraftGame):
        return fileformat.draft_item(instance, rec.seated(instance.table_id), rec.name)
    if isinstance(instance, Table):
        seated = rec.seated(instance.pk)
        detail: dict[str, Any] = {"players": [rec.name(e) for e in seated]}
        totals = fileformat.totals_item(instance, seated, rec.name)
        if totals is not None:
            detail["totals"] = totals
        signed = fileformat.signed_item(instance)
        if signed is not None:
            detail["signed"] = signed
        approved = fileformat.approved_names(instance, seated, rec.name)
        if approved:
            detail["approved"] = approved
        return detail
    if isinstance(instance, Round):
        tables: dict[int, list[str]] = {}
        for table_number, entry_id in (Seat.objects.filter(round=instance)
                                       .order_by("table__number", "position")
                                       .values_list("table__number", "entry_id")):
            tables.setdefault(table_number, []).append(rec.name(entry_id))
        return {**fileformat.round_item(instance), "tables": [{"number": n, "players": p} for n, p in tables.items()]}
    if isinstance(instance, Entry):
        return {**fileformat.player_item(instance, 0), "start_number": instance.start_number}
    if isinstance(instance, Team):
        return {"name": instance.name, "members": rec.team_members(instance.pk)}
    if isinstance(instance, CorrectionRequest):  # the contact is not logged either
        return {"player": Player.objects.filter(pk=instance.player_id).values_list("name", flat=True).first() or "",
                "text": instance.text, "status": instance.status, "answer": instance.answer}
    if isinstance(instance, Registration):  # the contact is not logged: the log is read by helpers too
        return {"name": instance.name, "club": instance.club, "category": instance.category,
                "status": instance.status, "publication": instance.publication}
    if isinstance(instance, Tournament):
        series = (Series.objects.filter(pk=instance.series_id).values_list("name", flat=True).first()
                  if instance.series_id else None)
        return {**fileformat.tournament_settings(instance), **({"series": series} if series else {}),
                "directors": sorted(u.get_username() for u in instance.directors.all()),
                "helpers": sorted(u.get_username() for u in instance.helpers.all()),
                "registration_open": instance.registration_open, "registration_limit": instance.registration_limit,
                "registration_waiting_limit": instance.registration_waiting_limit,
                "registration_deadline": (instance.registration_deadline.isoformat()
                                          if instance.registration_deadline else None),
                "self_checkin": instance.self_checkin}
    return {}


@receiver(pre_create_historical_record)
def fill_record(sender, instance, history_instance, **kwargs):
    """Stamps a historical record (django-simple-history) with where, what, who and a snapshot.
    A change made outside a service (the admin, a shell) is recorded too, without an action."""
    rec = _current.get()
    if rec is None:
        user = history_instance.history_user
        rec = Recording(action="", by=Actor(user=user, label="Admin" if user else "System"), tournament_id=None)
    stamp(history_instance, instance, rec)


def record_bulk(objects: list, history_type: str = "+") -> None:
    """The historical records of objects written in bulk (`bulk_create` sends no signals, so
    django-simple-history does not see them), stamped like `fill_record` does; one insert."""
    rec = _current.get()
    if not objects or rec is None:
        raise RuntimeError("record_bulk() needs objects and must run inside audit.recording()")
    history = type(objects[0]).history.model
    now = timezone.now()
    rows = []
    for obj in objects:
        row = history(history_date=now, history_type=history_type, history_change_reason=None,
                      **{field.attname: getattr(obj, field.attname) for field in history.tracked_fields})
        stamp(row, obj, rec)
        rows.append(row)
    history.objects.bulk_create(rows)


def stamp(history_instance, instance, rec: Recording) -> None:
    if rec.by.user is not None:
        history_instance.history_user = rec.by.user
    tournament_id, round_number, table_number = place_of(instance, rec)
    if rec.tournament_id is None:
        rec.tournament_id = tournament_id
    history_instance.log_tournament = tournament_id
    history_instance.log_round = round_number
    history_instance.log_table = table_number
    history_instance.log_action = rec.action
    history_instance.log_user = rec.by.name
    history_instance.log_device = rec.by.device
    history_instance.log_detail = snapshot(instance, rec)
