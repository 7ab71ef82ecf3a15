"""A person's data on request (GDPR Art. 15 and 17; docs/security.md, "Personal data"): everything an
organisation holds of one of its player records, and erasing it.

What erasing keeps, and why: the games, scores and penalties of every table the person sat at stay,
under a pseudonym ("Gelöscht 17"), because the other players' results are computed from them
(every table sums to zero; a standings place depends on everyone's points). What goes: the name,
the club, the member number, the registrations' contact, category and name, and the same in the
change log's records (their snapshots name players as the tournament file does), and what they wrote
in a correction request on the hub (its text, contact and the answer, also in the log)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Sum

from ..collation import search_key
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..log.changelog import LOG_KINDS, history_model
from ..models import CorrectionRequest, Entry, Player, Registration, Score
from .locking import lock_tournaments_of_player


def pseudonym(player: Player) -> str:
    return f"Gelöscht {player.pk}"


def player_report(player: Player) -> dict[str, Any]:
    """Art. 15: what is stored of the person, as JSON-ready data. A handful of queries."""
    entries = list(Entry.objects.filter(player=player).select_related("tournament").order_by("tournament__date"))
    points = dict(Score.objects.filter(entry__in=entries).order_by().values("entry_id").annotate(total=Sum("points"))
                  .values_list("entry_id", "total"))
    registrations = Registration.objects.filter(entry__player=player).order_by("created_at")
    return {
        "organisation": player.organisation.name,
        "player": {"name": player.name, "club": player.club, "member_number": player.member_number,
                   "publication": player.publication},
        "tournaments": [{"tournament": e.tournament.name, "slug": e.tournament.slug,
                         "date": e.tournament.date.isoformat(), "start_number": e.start_number,
                         "categories": list(e.categories), "present": e.present,
                         "withdrawn_from_round": e.withdrawn_from_round, "points": points.get(e.pk, 0)}
                        for e in entries],
        "registrations": [{"tournament": r.tournament.name, "name": r.name, "club": r.club, "category": r.category,
                           "contact": r.contact, "status": r.status, "registered_at": r.created_at.isoformat()}
                          for r in registrations.select_related("tournament")],
        "correction_requests": [{"tournament": c.tournament.name, "text": c.text, "contact": c.contact,
                                 "status": c.status, "answer": c.answer, "sent_at": c.created_at.isoformat()}
                                for c in CorrectionRequest.objects.filter(player=player).select_related("tournament")
                                .order_by("created_at")],
        "kept_for_the_results": "Spiele, Punkte und Strafen bleiben unter einem Pseudonym, weil die Ergebnisse "
                                "der Mitspieler davon abhängen (docs/security.md).",
    }


def _replaced(value, names: dict[str, str], numbers: set[str]):
    """`value` (a record's snapshot) with every string that names the person replaced."""
    if isinstance(value, str):
        if value in numbers:
            return ""
        return names.get(value, value)
    if isinstance(value, list):
        return [_replaced(item, names, numbers) for item in value]
    if isinstance(value, dict):
        replaced = {key: _replaced(item, names, numbers) for key, item in value.items()}
        if value.get("name") in names:  # the person's own item (a player of the file): no club, no number
            replaced.pop("member_number", None)
            if "club" in replaced:
                replaced["club"] = ""
        return replaced
    return value


def erase_player(*, player: Player, by: Actor = SYSTEM) -> Player:
    """Art. 17: the person's name, club, member number and registration data are erased everywhere,
    the change log included; their results stay under `pseudonym(player)`. One transaction, the
    tournaments locked; each tournament's change log records the erasure (without the name)."""
    with transaction.atomic():
        touched = lock_tournaments_of_player(player.pk)
        player = Player.objects.get(pk=player.pk)
        alias = pseudonym(player)
        # what the change log's snapshots may call them: the name alone, with the club (two of one
        # name), with a start number in brackets is not used by the file format
        names = {player.name: alias}
        if player.club:
            names[f"{player.name} ({player.club})"] = alias
        numbers = {player.member_number} if player.member_number else set()
        # the change log's rewritten snapshots and the record itself (`update`: no signals) inside the
        # erasure's recording; each tournament's own recording moves its counter
        with audit.recording("player_erased", by=by, tournament=None):
            ids = [t.pk for t in touched]
            for kind in LOG_KINDS:
                history = history_model(kind)
                for record in history.objects.filter(log_tournament__in=ids).only("pk", "log_detail"):
                    detail = _replaced(record.log_detail, names, numbers)
                    if detail != record.log_detail:
                        history.objects.filter(pk=record.pk).update(log_detail=detail)
            registrations = Registration.objects.filter(entry__player=player)
            registration_ids = list(registrations.values_list("pk", flat=True))
            # (the contact is never in the history: models/registration.py)
            Registration.history.model.objects.filter(id__in=registration_ids).update(name=alias, club="", category="")
            for tournament in touched:
                with audit.recording("player_erased", by=by, tournament=tournament):
                    Registration.objects.filter(pk__in=registration_ids, tournament=tournament).update(
                        name=alias, club="", contact="", category="")
            # their correction requests: what they wrote, how to reach them, the answer to it (the log's
            # snapshots hold the text and the answer too)
            corrections = list(CorrectionRequest.objects.filter(player=player).values_list("pk", flat=True))
            asked = history_model("correction").objects.filter(id__in=corrections)
            asked.update(text="", answer="")
            for record in asked.only("pk", "log_detail"):
                detail = {**(record.log_detail or {}), "text": "", "answer": ""}
                asked.filter(pk=record.pk).update(log_detail=detail)
            for tournament in touched:
                with audit.recording("player_erased", by=by, tournament=tournament):
                    CorrectionRequest.objects.filter(pk__in=corrections, tournament=tournament).update(
                        text="", contact="", answer="")
            Player.objects.filter(pk=player.pk).update(name=alias, club="", member_number="",
                                                       search_key=search_key(alias))  # (the search finds the alias)
        player.refresh_from_db()
        return player
