"""Reading the change log: the historical records django-simple-history keeps of the tracked models
(see `audit.py`), newest first, per tournament, round or table, each with what it was before.

A page of the log costs two queries per tracked model, whatever the tournament's size: one for the
newest records, one for the records before them of the same objects.
"""

from __future__ import annotations

import datetime
import functools
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from .. import privacy, ranking, vocabulary
from ..models import CorrectionRequest, DraftGame, Entry, Game, Penalty, Registration, Round, Table, Team, Tournament
from .audit import ACTIONS

# the tracked models, by the name the log and the export use for them
KINDS: dict[str, Any] = {"tournament": Tournament, "player": Entry, "round": Round, "table": Table, "game": Game,
                         "penalty": Penalty, "draft": DraftGame, "team": Team, "registration": Registration}
TABLE_KINDS = ("table", "game", "penalty", "draft")  # the records that belong to one table
# what the log shows: the tracked models of the file, and the players' correction requests with their
# answers (docs/hub.md, "Corrections"; not in the tournament file, which holds the tournament's own records)
LOG_KINDS: dict[str, Any] = {**KINDS, "correction": CorrectionRequest}


@functools.cache
def history_model(kind: str):
    """The historical model of a kind of record. Kept once looked up: django-simple-history builds a
    new manager class on every `Model.history` (0.2 ms, and a tournament file's check asks once for
    each of its 7,000 log records)."""
    return LOG_KINDS[kind].history.model


def subject_key(kind: str, record) -> tuple:
    """What makes two records versions of the same thing: a game is its number at its table (also
    after it was deleted and entered again), a table its number in its round."""
    if kind == "game":
        return (record.log_round, record.log_table, record.number)
    if kind == "table":
        return (record.log_round, record.log_table)
    if kind == "round":
        return (record.log_round,)
    return (record.id,)


@dataclass
class LogEntry:
    kind: str
    record: Any  # the historical record
    before: dict | None  # the snapshot before the change (None: it did not exist)
    after: dict | None  # the snapshot after the change (None: deleted)
    newest: bool = False  # the newest record of its game, penalty, … (what is stored now)

    @property
    def at(self) -> datetime.datetime:
        return self.record.history_date

    @property
    def user(self) -> str:
        return self.record.log_user

    @property
    def device(self) -> str:
        return self.record.log_device

    @property
    def action(self) -> str:
        return self.record.log_action

    @property
    def round(self) -> int | None:
        return self.record.log_round

    @property
    def table(self) -> int | None:
        return self.record.log_table

    @property
    def deleted(self) -> bool:
        return self.record.history_type == "-"

    @property
    def label(self) -> str:
        if self.action in ACTIONS:
            return str(ACTIONS[self.action])
        return {"+": _("angelegt"), "~": _("geändert"), "-": _("gelöscht")}[self.record.history_type]

    @property
    def subject(self) -> str:
        detail = self.after or self.before or {}
        if self.kind == "game":
            return _("Spiel %(number)s") % {"number": self.record.number}
        if self.kind == "penalty":
            return _("Strafe")
        if self.kind == "draft":
            return _("Eingabe für Spiel %(number)s") % {"number": self.record.number}
        if self.kind == "table":
            return _("Tisch %(table)s") % {"table": self.record.log_table}
        if self.kind == "round":
            return _("Runde %(round)s") % {"round": self.record.log_round}
        if self.kind in ("player", "registration"):
            return detail.get("name", "")
        if self.kind == "team":
            return _("Team %(name)s") % {"name": detail.get("name", "")}
        if self.kind == "correction":
            return _("Korrekturanfrage von %(name)s") % {"name": detail.get("player", "")}
        return _("Einstellungen")

    @property
    def before_text(self) -> str:
        return describe(self.kind, self.before, self.after) if self.before is not None else ""

    @property
    def after_text(self) -> str:
        return describe(self.kind, self.after, self.before) if self.after is not None else ""

    @property
    def restorable(self) -> bool:
        """An earlier version of a game or penalty can be put back, and a deleted one undeleted (the
        newest version of a game is what is stored: nothing to put back)."""
        if self.kind == "penalty":
            return self.deleted
        return self.kind == "game" and (self.deleted or not self.newest)


def _records(kind: str, tournament: Tournament, round_number: int | None, table_number: int | None):
    records = history_model(kind).objects.filter(log_tournament=tournament.pk)
    if round_number is not None:
        if kind in ("tournament", "player", "team", "correction"):
            return records.none()
        records = records.filter(log_round=round_number)
    if table_number is not None:
        if kind not in TABLE_KINDS:
            return records.none()
        records = records.filter(log_table=table_number)
    return records


def entries(tournament: Tournament, *, round_number: int | None = None, table_number: int | None = None,
            until: datetime.datetime | None = None, limit: int = 100) -> list[LogEntry]:
    """The newest `limit` changes (before `until`), newest first. Two queries per tracked model."""
    page: list[tuple[str, Any]] = []
    for kind in LOG_KINDS:
        records = _records(kind, tournament, round_number, table_number)
        if until is not None:
            records = records.filter(history_date__lt=until)
        page += [(kind, r) for r in records.order_by("-history_date", "-history_id")[:limit]]
    page.sort(key=lambda item: (item[1].history_date, item[1].history_id), reverse=True)
    page = page[:limit]
    previous = _previous_records(tournament, page)
    result = []
    seen: set[tuple] = set()
    for kind, record in page:
        key = (kind, *subject_key(kind, record))
        newest = until is None and key not in seen  # the first page starts with the newest records
        seen.add(key)
        before = previous.get((kind, record.history_id))
        if record.history_type == "-":
            entry = LogEntry(kind, record, before=record.log_detail, after=None)
        else:
            shown_before = before.log_detail if before is not None and before.history_type != "-" else None
            entry = LogEntry(kind, record, before=shown_before, after=record.log_detail)
        entry.newest = newest
        result.append(entry)
    return result


def _previous_records(tournament: Tournament, page: list[tuple[str, Any]]) -> dict[tuple[str, int], Any]:
    """For each record of the page, the record before it of the same object, by (kind, history id)."""
    found: dict[tuple[str, int], Any] = {}
    for kind in LOG_KINDS:
        mine = [record for k, record in page if k == kind]
        if not mine:
            continue
        keys = {subject_key(kind, record) for record in mine}
        newest = max(record.history_id for record in mine)
        candidates = history_model(kind).objects.filter(log_tournament=tournament.pk, history_id__lt=newest)
        if kind == "game":
            candidates = candidates.filter(number__in={key[2] for key in keys},
                                           log_table__in={key[1] for key in keys})
        elif kind in ("table", "round"):
            candidates = candidates.filter(log_round__in={key[0] for key in keys})
        else:
            candidates = candidates.filter(id__in={key[0] for key in keys})
        latest: dict[tuple, list] = {}
        for record in candidates.order_by("history_id"):
            latest.setdefault(subject_key(kind, record), []).append(record)
        for record in mine:
            earlier = [r for r in latest.get(subject_key(kind, record), []) if r.history_id < record.history_id]
            if earlier:
                found[(kind, record.history_id)] = earlier[-1]
    return found


def record(tournament: Tournament, kind: str, history_id: int):
    """One record of this tournament's log, or None."""
    if kind not in LOG_KINDS:
        return None
    return history_model(kind).objects.filter(log_tournament=tournament.pk, history_id=history_id).first()


# ---- the newest change of one thing (shown when a form comes too late) ---------------------------

def latest_for_game(table: Table, number: int) -> LogEntry | None:
    record = (Game.history.filter(log_tournament=table.round.tournament_id, log_round=table.round.number,
                                  log_table=table.number, number=number)
              .order_by("-history_id").first())
    if record is None:
        return None
    return LogEntry("game", record, before=None, after=None if record.history_type == "-" else record.log_detail)


def latest_for_table(table: Table) -> LogEntry | None:
    """The newest change of anything on the table's sheet: a game, a penalty, totals or signature."""
    newest = None
    for kind in TABLE_KINDS:
        found = (history_model(kind).objects.filter(log_tournament=table.round.tournament_id,
                                                    log_round=table.round.number, log_table=table.number)
                 .order_by("-history_date", "-history_id").first())
        if found is not None and (newest is None or found.history_date > newest[1].history_date):
            newest = (kind, found)
    if newest is None:
        return None
    kind, found = newest
    return LogEntry(kind, found, before=None, after=None if found.history_type == "-" else found.log_detail)


def latest_for_round(round: Round) -> LogEntry | None:
    found = (Round.history.filter(log_tournament=round.tournament_id, log_round=round.number)
             .order_by("-history_id").first())
    return LogEntry("round", found, before=None, after=found.log_detail) if found is not None else None


def latest_for_tournament(tournament: Tournament) -> LogEntry | None:
    found = Tournament.history.filter(id=tournament.pk).order_by("-history_id").first()
    return LogEntry("tournament", found, before=None, after=found.log_detail) if found is not None else None


def latest_for_entry(entry: Entry) -> LogEntry | None:
    found = Entry.history.filter(id=entry.pk).order_by("-history_id").first()
    return LogEntry("player", found, before=None, after=found.log_detail) if found is not None else None



# ---- a record in words -------------------------------------------------------------------------------

def describe(kind: str, detail: dict, other: dict | None) -> str:
    """What a snapshot holds, in a line for people; for settings, rounds and players only what
    differs from `other` (the state on the other side of the change)."""
    if kind == "game":
        return game_text(detail.get("row") or {})
    if kind == "penalty":
        return penalty_text(detail)
    if kind == "draft":
        return draft_text(detail)
    if kind == "table":
        return table_text(detail)
    if kind == "round":
        return round_text(detail, other)
    if kind == "team":
        return team_text(detail)
    if kind == "correction":
        return correction_text(detail)
    labels = {"player": PLAYER_LABELS, "registration": REGISTRATION_LABELS}.get(kind, SETTINGS_LABELS)
    return fields_text(detail, other, labels)


def game_text(row: dict) -> str:
    announced = row.get("announcements") or {}
    game = Game(type=row.get("type") or "normal", solo=row.get("solo") or "", re=row.get("re") or [],
                re_augen=row.get("re_augen") or 0, announce_re=announced.get("re") or "",
                announce_kontra=announced.get("kontra") or "", extras=row.get("extras") or {},
                pflichtsolo=row.get("pflichtsolo"))
    mark = f" ({vocabulary.solo_mark(game)})" if vocabulary.solo_mark(game) else ""  # Pflicht- or Lustsolo
    parts = [f"{vocabulary.game_type(game)}{mark} · Re: {', '.join(row.get('re') or [])} · "
             + _("%(augen)s Augen") % {"augen": game.re_augen}]
    if row.get("re_tricks") is not None:
        parts[0] += " (" + _("%(n)s Stiche") % {"n": row["re_tricks"]} + ")"
    if vocabulary.announcements(game):
        parts.append(_("Ansagen") + ": " + vocabulary.announcements(game))
    if vocabulary.sonderpunkte(game):
        parts.append(_("Sonderpunkte") + ": " + vocabulary.sonderpunkte(game))
    return "; ".join(parts)


def team_text(detail: dict) -> str:
    """A team's record: its members."""
    return _("Mitglieder: %(members)s") % {"members": ", ".join(detail.get("members") or []) or "–"}


CORRECTION_STATUS = {value: label for value, label in CorrectionRequest.Status.choices}


def correction_text(detail: dict) -> str:
    """A correction request's record: what the player wrote, its state and the directors' answer (the
    contact the player left is not in the log)."""
    status = detail.get("status", CorrectionRequest.Status.OPEN)
    text = _("„%(text)s“ (%(status)s)") % {"text": detail.get("text", ""),
                                            "status": CORRECTION_STATUS.get(status, status)}
    if detail.get("answer"):
        text += "; " + _("Antwort: %(answer)s") % {"answer": detail["answer"]}
    return text


def club_count_text(value) -> str:
    """The club ranking setting in words (Tournament.club_count)."""
    if value is None:
        return _("keine")
    return _("alle zählen") if value == 0 else _("die besten %(k)s zählen") % {"k": value}


DRAFT_STATUS = {value: label for value, label in DraftGame.Status.choices}


def draft_text(detail: dict) -> str:
    status = str(DRAFT_STATUS.get(detail.get("status", ""), ""))
    who = detail.get("entered_by")
    text = game_text(detail.get("row") or {}) + f" ({status}"
    if who:
        text += ", " + _("eingegeben von %(name)s") % {"name": who}
    if detail.get("reason"):
        text += ", " + _("Grund: %(reason)s") % {"reason": detail["reason"]}
    return text + ")"


def penalty_text(detail: dict) -> str:
    row = detail.get("row") or {}
    text = _("Strafe gegen %(name)s") % {"name": row.get("penalty", "?")}
    if detail.get("game"):
        text += ", " + _("in Spiel %(n)s") % {"n": detail["game"]}
    if detail.get("note"):
        text += f" ({detail['note']})"
    return text


def table_text(detail: dict) -> str:
    parts = []
    if detail.get("totals"):
        totals = ", ".join(f"{name} {ranking.signed(points)}" for name, points in detail["totals"].items())
        parts.append(_("Endstände") + ": " + totals)
    if detail.get("approved"):
        parts.append(_("„stimmt“: %(names)s") % {"names": ", ".join(detail["approved"])})
    if detail.get("ended"):
        parts.append(_("vorzeitig beendet nach Spiel %(after)s: %(note)s") % detail["ended"])
    if detail.get("signed"):
        signed = _("unterschrieben")
        if detail["signed"].get("note"):
            signed += f" ({detail['signed']['note']})"
        parts.append(signed)
    return "; ".join(parts) or _("offen, keine Endstände")


STATUS_LABELS = {value: label for value, label in Round.Status.choices}


def round_text(detail: dict, other: dict | None) -> str:
    parts = []
    other = other or {}
    status = detail.get("status", "published")
    if status != other.get("status", "published") or not other:
        parts.append(_("Status") + ": " + str(STATUS_LABELS.get(status, status)))
    if bool(detail.get("results_hidden")) != bool(other.get("results_hidden")):
        parts.append(_("Ergebnisse verborgen") if detail.get("results_hidden") else _("Ergebnisse sichtbar"))
    tables = {name: table["number"] for table in detail.get("tables", []) for name in table["players"]}
    before = {name: table["number"] for table in other.get("tables", []) for name in table["players"]}
    if tables != before:
        if before and len(tables) == len(before):
            moved = [f"{name}: " + _("Tisch %(n)s") % {"n": tables[name]} for name in sorted(tables)
                     if before.get(name) != tables[name]]
            parts.append(", ".join(moved[:12]) + (" …" if len(moved) > 12 else ""))
        elif tables:
            parts.append(_("%(tables)s Tische, %(players)s Spieler")
                         % {"tables": len(detail.get("tables", [])), "players": len(tables)})
    return "; ".join(parts)


# worded lazily: in the language of the page that shows the log, not the one the server started in
PLAYER_LABELS = {"name": _l("Name"), "club": _l("Verein"), "start_number": _l("Startnummer"),
                 "joined_round": _l("dabei ab Runde"), "withdrawn_from_round": _l("zurückgezogen ab Runde"),
                 "present": _l("anwesend"), "member_number": _l("Mitgliedsnummer"), "categories": _l("Kategorien"),
                 "publication": _l("Veröffentlichung")}
REGISTRATION_LABELS = {"name": _l("Name"), "club": _l("Verein"), "category": _l("Kategorie"), "status": _l("Status"),
                       "publication": _l("Veröffentlichung")}
SETTINGS_LABELS = {"name": _l("Name"), "slug": _l("Kurzname"), "date": _l("Datum"), "place": _l("Ort"),
                   "rules": _l("Regelwerk"), "rounds_planned": _l("Runden"),
                   "games_at_table_of_4": _l("Spiele am 4er-Tisch"),
                   "games_at_table_of_5": _l("Spiele am 5er-Tisch"), "tie_breakers": _l("Gleichstand-Regeln"),
                   "round_minutes": _l("Spielzeit je Runde (Minuten)"), "pflichtsoli": _l("Pflichtsoli"),
                   "ranking": _l("Wertung"), "categories": _l("Eigene Kategorien"),
                   "public_overview": _l("Übersicht öffentlich"), "public_standings": _l("Tabelle öffentlich"),
                   "public_seating": _l("Tischeinteilung öffentlich"), "public_players": _l("Spielerseiten öffentlich"),
                   "directors": _l("Turnierleitung"), "helpers": _l("Turnierhelfer"),
                   "series": _l("Serie"), "team_count": _l("In einem Team zählen"),
                   "club_count": _l("Vereinswertung"),
                   "teams_apart": _l("Mitglieder eines Teams bei der Auslosung trennen"),
                   "team_match": _l("Mannschaftskampf (Ligaspieltag)"),
                   "cup_advance": _l("Pokal: es kommen weiter"),
                   "season": _l("Saison (Kurzname auf dem Hub)"),
                   "registration_open": _l("Anmeldung online offen"),
                   "registration_limit": _l("Plätze (0: unbegrenzt)"),
                   "registration_waiting_limit": _l("Plätze auf der Warteliste (leer: so viele wie Plätze)"),
                   "registration_deadline": _l("Anmeldeschluss"), "self_checkin": _l("Selbst-Check-in per Handy")}


# fields whose values are codes, worded by their choices
CHOICE_LABELS = {"pflichtsoli": dict(Tournament.Pflichtsoli.choices), "ranking": dict(Tournament.Ranking.choices),
                 "status": dict(Registration.Status.choices), "publication": dict(privacy.CHOICES)}
# what a choice is when the record leaves it out (the tournament file leaves out defaults)
CHOICE_DEFAULTS = {"pflichtsoli": Tournament.Pflichtsoli.NONE.value, "ranking": Tournament.Ranking.POINTS.value,
                   "teams_apart": False, "team_match": False, "publication": privacy.FULL}


def fields_text(detail: dict, other: dict | None, labels: dict) -> str:
    """`label: value` for each field, only those that differ from `other` when there is one."""
    parts = []
    for key, label in labels.items():
        value = detail.get(key, CHOICE_DEFAULTS.get(key))
        if other is not None and other.get(key, CHOICE_DEFAULTS.get(key)) == value:
            continue
        if other is None and (value in (None, "", []) or value == CHOICE_DEFAULTS.get(key)):
            continue
        if key == "club_count":
            shown = club_count_text(value)
        elif key == "team_count":
            shown = _("alle") if value is None else _("die besten %(k)s") % {"k": value}
        elif key == "cup_advance":
            shown = _("kein Pokal") if value is None else _("die besten %(k)s Teams") % {"k": value}
        elif key in CHOICE_LABELS:
            shown = str(CHOICE_LABELS[key].get(str(value), value))
        elif isinstance(value, bool):
            shown = _("ja") if value else _("nein")
        elif isinstance(value, list):
            shown = ", ".join(map(str, value)) or "–"
        elif isinstance(value, dict):
            shown = ", ".join(f"{k}={v}" for k, v in value.items())
        else:
            shown = "–" if value in (None, "") else str(value)
        parts.append(f"{label}: {shown}")
    return "; ".join(parts)
