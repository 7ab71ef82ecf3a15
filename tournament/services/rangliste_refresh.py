"""An association's Rangliste, stored (docs/competitions.md, "The association's Rangliste"): the whole
list computed anew by a background task after a tournament arrives on the hub, and kept in
`RanglisteStanding` (each player's line), `RanglisteCount` (their tournaments) and
`RanglisteTournament` (each Ranglistenturnier of a member club, counting or not, and why), which the
pages read, and each ranked player's place of the day in `RanglistePlace` (older days kept: their
places over time). The computation is `selectors.rangliste`'s, the same that reads a Rangliste live,
so the stored list is that list (tested).

`tournament_changed` is the one place where a change of a tournament reaches the association's
Rangliste: `log.audit.recording` calls it when the change of a tournament is done (any service: a round
published or its results shown, a game saved at a table, a setting, a player's publication level, a
venue's batch applied on the hub ...). When the change is one the stored list may read (`SKIPPED`: those
it never reads; a table's change only in a round whose results are shown, of a tournament that counts
now), it marks the Ranglisten that take the tournament stale in the change's transaction and enqueues
one refresh after the commit (one at a time per Rangliste: a change while one runs enqueues the next).
`refresh_rangliste` clears the mark, computes without holding a lock (seconds at an association's size,
while changes keep coming), then writes the list in one short transaction, unless a computation started
later has already written its own."""

from __future__ import annotations

import datetime
from bisect import bisect_left

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django_tasks import task

from ..log import audit
from ..log.audit import SYSTEM
from ..models import (
    Player,
    Rangliste,
    RanglisteCount,
    RanglistePlace,
    RanglisteStanding,
    RanglisteTournament,
)
from ..selectors import identities
from ..selectors import rangliste as selectors
from . import bulk, rangliste_ratings
from .locking import lock_rangliste

QUEUED_FOR = 600  # seconds a queued refresh keeps others from being queued (a worker that died: then again)


def queued_key(rangliste_id: int) -> str:
    """The family `rangliste-queued` of `web/cache_keys.FAMILIES`."""
    return f"doko:rangliste-queued:{rangliste_id}"


# what a change did (`audit.ACTIONS`) that the association's Rangliste never reads: the registration
# before the evening, the clock, the phones' entries before the director confirms them, signatures,
# links, teams, categories, the correction requests, a venue's own publishing. Every other change of a
# Ranglistenturnier marks its Ranglisten stale (a new action too, until it is named here).
SKIPPED = frozenset(
    {
        "roles_changed",
        "registration_received",
        "registration_changed",
        "registration_withdrawn",
        "registration_moved_up",
        "registration_settings",
        "contacts_erased",
        "round_clock_started",
        "round_clock_stopped",
        "draft_entered",
        "draft_rejected",
        "draft_settled",
        "sheet_approved",
        "link_renewed",
        "link_revoked",
        "table_signed",
        "table_unlocked",
        "team_created",
        "team_changed",
        "team_deleted",
        "team_options_changed",
        "teams_taken_over",
        "categories_changed",
        "publication_started",
        "publication_stopped",
        "correction_requested",
        "correction_answered",
        "correction_declined",
    }
)


def ranglisten_reading(*, tournament_id: int, table_id: int | None) -> list[int]:
    """The association Ranglisten a change of this tournament may move, in one query. A change of one
    table (a game, a penalty, totals): those whose member clubs include the tournament's organisation,
    when the table's round shows its results and the tournament counts now (flagged "zählt für die
    Rangliste", overview and standings public, its day come): what `selectors.rangliste.read` reads.
    Anything wider (rounds, players, settings, a venue's batch): those whose member clubs include the
    organisation of a tournament flagged so, and those that checked the tournament before (its flag since
    taken off, made private, its date moved; a club evening that never was one: none). Reads."""
    if table_id is not None:  # one row of joins, from the two primary keys
        taking = Q(
            members__tournaments=tournament_id,
            members__tournaments__counts_for_rangliste=True,
            members__tournaments__public_overview=True,
            members__tournaments__public_standings=True,
            members__tournaments__date__lte=timezone.localdate(),
            members__tournaments__rounds__tables=table_id,
            members__tournaments__rounds__results_hidden=False,
        )
    else:
        members = Rangliste.members.through.objects.filter(
            organisation__tournaments=tournament_id, organisation__tournaments__counts_for_rangliste=True
        )
        checked = RanglisteTournament.objects.filter(tournament_id=tournament_id)
        taking = Q(pk__in=members.values("rangliste_id")) | Q(pk__in=checked.values("rangliste_id"))
    found = Rangliste.objects.filter(taking, source=Rangliste.Source.ASSOCIATION).order_by()
    return sorted(set(found.values_list("id", flat=True)))


def tournament_changed(rec: audit.Recording) -> list[int]:
    """A change of a tournament is done (`audit.TOURNAMENT_CHANGED`, called by every service's recording
    as it ends, inside it): the association Ranglisten that take the tournament are marked stale and a
    refresh of each is enqueued after the commit, unless the change is one they never read (`SKIPPED`,
    or a table's in a round whose results are hidden, or of a tournament that does not count). A club
    evening costs one query; a Ranglistenturnier's change one more (the mark). Returns the Ranglisten's
    ids."""
    if rec.action in SKIPPED or rec.tournament_id is None:
        return []
    ids = ranglisten_reading(tournament_id=rec.tournament_id, table_id=rec.table_id)
    _stale(ids)
    return ids


audit.TOURNAMENT_CHANGED.append(tournament_changed)


def association_ranglisten_of_people(player_ids: list[int]) -> list[int]:
    """The association Ranglisten that may hold the people these records are (every record of each:
    the same member number, the confirmed group; `identities.same_person`): those whose member clubs
    include the organisation of one of their records. Reads."""
    organisations: set[int] = set()
    for player_id in player_ids:
        person = identities.same_person(player_id)
        records = person[1] if person is not None else []
        organisations |= {record.organisation_id for record in records}
    organisations |= set(Player.objects.filter(pk__in=player_ids).values_list("organisation_id", flat=True))
    return sorted(
        set(
            Rangliste.objects.filter(
                source=Rangliste.Source.ASSOCIATION, members__in=sorted(organisations)
            ).values_list("id", flat=True)
        )
    )


def identities_changed(*, player_ids: list[int]) -> list[int]:
    """A director confirmed that two records are one person, or took a confirmation back
    (`services.identities`): the association Ranglisten that hold them are stale and a refresh of each
    is enqueued after the commit, as for a batch. Call it before the decision changes (the people as
    they were: a confirmation joins both, an undo splits the group). A step of the caller's recording.
    Returns the Ranglisten's ids."""
    audit.require("rangliste_refresh.identities_changed")
    ids = association_ranglisten_of_people(player_ids)
    _stale(ids)
    return ids


def mark_stale(*, rangliste: Rangliste) -> None:
    """A Rangliste's rules changed: computed anew after the commit (a step of the caller's recording)."""
    audit.require("rangliste_refresh.mark_stale")
    if rangliste.source == Rangliste.Source.ASSOCIATION:
        _stale([rangliste.pk])


def _stale(ids: list[int]) -> None:
    """These Ranglisten are behind: marked so, and a refresh of each enqueued once the commit is done.
    Only a Rangliste not marked yet is written: a mark locks its row until the commit, and every game
    saved at any member club's Ranglistenturnier comes here, so that once marked the others pass without
    waiting for each other (the refresh clears the mark when it begins)."""
    audit.require("rangliste_refresh._stale")
    if ids:
        Rangliste.objects.filter(pk__in=ids, stale=False).update(stale=True)
        transaction.on_commit(lambda: enqueue_refresh(ids))


def enqueue_refresh(ids: list[int]) -> None:
    """Enqueues a refresh of each Rangliste unless one is queued and not started yet."""
    for pk in ids:
        if cache.add(queued_key(pk), 1, QUEUED_FOR):
            try:
                refresh_task.enqueue(pk)
            except Exception:
                cache.delete(queued_key(pk))
                raise


def refresh_rangliste(*, rangliste: Rangliste, today: datetime.date | None = None) -> int:
    """Computes the association's Rangliste on `today` and stores it whole; returns its lines."""
    today = today or timezone.localdate()
    started = timezone.now()
    cache.delete(queued_key(rangliste.pk))
    with transaction.atomic(), audit.recording("rangliste_refreshed", by=SYSTEM, tournament=None):
        Rangliste.objects.filter(pk=rangliste.pk).update(stale=False)
    checked = selectors.checked_tournaments(rangliste, until=today)
    found = selectors.read(rangliste, until=today)
    lines, count = found.lines, len(found.tournaments)
    rated = rangliste_ratings.compute(rangliste=rangliste, found=found)  # the carried rating (docs/rating.md)
    view = selectors.view_from_lines(rangliste, today, found)
    ranked_averages = sorted(row.row.average for row in view.rows)  # ascending, for the places of those below
    standings = []
    for position, entry in enumerate([*view.rows, *view.below]):
        row, person = entry.row, entry.person
        if row.place is not None:
            place = row.place
        else:  # the place its average would have: behind every ranked player with as good an average
            place = len(ranked_averages) - bisect_left(ranked_averages, row.average) + 1
        standings.append(
            {
                "rangliste_id": rangliste.pk,
                "position": position,
                "key": person.key[:400],
                "link": person.link,
                "name": person.name,
                "club": person.club[:200],
                "member_number": person.member_number[:40],
                "publication": person.level,
                "ranked": row.place is not None,
                "place": place,
                "shared": row.shared,
                "rounds": row.rounds,
                "points": row.points,
                "tournaments": row.tournaments,
                "qualifies": (row.qualifies or "")[:100],
            }
        )
    places = [  # the place of the day of each ranked player (older days kept: their places over time)
        {
            "rangliste_id": rangliste.pk,
            "link": line["link"],
            "day": today,
            "place": line["place"],
            "publication": line["publication"],
        }
        for line in standings
        if line["ranked"]
    ]
    by_tournament: dict[tuple[str, int], list[int]] = {}
    slugs = {c.slug: c.tournament_id for c in checked}
    for line in lines:
        if line.date <= today:
            sums = by_tournament.setdefault((selectors.public_key(line.key), slugs[line.tournament_slug]), [0, 0])
            sums[0] += 1
            sums[1] += line.points
    counts = [
        {"rangliste_id": rangliste.pk, "link": link, "tournament_id": tournament, "rounds": rounds, "points": points}
        for (link, tournament), (rounds, points) in by_tournament.items()
    ]
    tournaments = [
        {
            "rangliste_id": rangliste.pk,
            "tournament_id": c.tournament_id,
            "reason": c.reason,
            "players": c.players,
            "rounds": c.rounds,
        }
        for c in checked
    ]
    window = view.result.window
    computed = {
        "ranked": len(view.rows),
        "below": len(view.below),
        "tournaments": count,
        "refused": sum(1 for c in checked if c.reason and window.start <= c.date <= window.end),
        "window": [window.start.isoformat(), window.end.isoformat()],
        "cuts": [[c.place, c.label, c.rows_above, c.moved_by_tie] for c in view.result.cut_lines],
        "version": rangliste.version,  # the settings it was computed for (`association_rangliste.behind`)
    }
    with transaction.atomic(), audit.recording("rangliste_refreshed", by=SYSTEM, tournament=None):
        current = lock_rangliste(rangliste)
        if current.computed_at is not None and current.computed_at > started:
            return len(standings)  # a computation started later has stored a newer list
        RanglisteStanding.objects.filter(rangliste=rangliste)._raw_delete(RanglisteStanding.objects.db)
        RanglisteCount.objects.filter(rangliste=rangliste)._raw_delete(RanglisteCount.objects.db)
        RanglisteTournament.objects.filter(rangliste=rangliste)._raw_delete(RanglisteTournament.objects.db)
        RanglistePlace.objects.filter(rangliste=rangliste, day=today)._raw_delete(RanglistePlace.objects.db)
        bulk.insert_dicts(RanglisteStanding, standings)
        bulk.insert_dicts(RanglistePlace, places)
        bulk.insert_dicts(RanglisteCount, counts)
        bulk.insert_dicts(RanglisteTournament, tournaments)
        rangliste_ratings.store(rangliste=rangliste, rated=rated)
        Rangliste.objects.filter(pk=rangliste.pk).update(computed_on=today, computed_at=started, computed=computed)
    return len(standings)


@task()
def refresh_task(rangliste_id: int) -> int:
    """The background task: computes and stores the Rangliste (gone meanwhile: nothing); its lines."""
    rangliste = Rangliste.objects.filter(pk=rangliste_id).first()
    if rangliste is None:
        return 0
    return refresh_rangliste(rangliste=rangliste)
