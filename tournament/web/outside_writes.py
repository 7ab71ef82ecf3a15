"""Writes outside the services count the tournament up too (docs/architecture.md, "The change
counter"): the services record every change, and their recording appends the DataChange that is the
tournament's change counter (`caching.change_counter`). A change made elsewhere (the admin, a shell, a
test that saves a model) must not leave a page that is cached or held by a phone as it was -- least of
all results the director has just hidden -- so each save or delete, outside a recording, of a model
that a tournament's pages show appends one for each tournament it shows on. Connected when the app is
ready (tournament/apps.py).

`COUNTED` are those models; `NOT_COUNTED` says for each other model of the app why no tournament's page
depends on it (tests/tournament/services/test_invalidation_contract.py fails for a new model in neither).
Writes that send no signals (`QuerySet.update`, `bulk_create`, raw SQL) are not seen here: they are
allowed only where `scripts/write_paths.py` allows them, inside a service's recording."""

from __future__ import annotations

from contextvars import ContextVar

from django.db.models.signals import post_delete, post_save, pre_delete
from django.dispatch import receiver

from ..log import audit
from ..models import (
    CorrectionRequest,
    CounterTurn,
    DataChange,
    DraftGame,
    Entry,
    Game,
    HubCorrection,
    IdempotencyRecord,
    IdentityDecision,
    Organisation,
    OutboxEntry,
    Penalty,
    Player,
    Publication,
    PublishedTournament,
    PublishingKey,
    Rangliste,
    RanglisteCount,
    RanglistePlace,
    RanglisteRatedTournament,
    RanglisteRating,
    RanglisteStanding,
    RanglisteTournament,
    Rating,
    RatingStep,
    Registration,
    RequestKey,
    Round,
    Score,
    Seat,
    Series,
    SeriesMerge,
    Table,
    Tally,
    Team,
    TeamMember,
    Tournament,
)

_deleting: ContextVar[frozenset[int]] = ContextVar("doko_tournaments_being_deleted", default=frozenset())


def _tournaments_of(instance) -> list[int]:
    if isinstance(instance, Tournament):
        return [instance.pk]
    if isinstance(instance, (Entry, Round, Team, Registration, Rating)):
        return [instance.tournament_id]
    if isinstance(instance, Player):
        return list(Entry.objects.filter(player_id=instance.pk).values_list("tournament_id", flat=True).distinct())
    if isinstance(instance, Series):
        return list(Tournament.objects.filter(series_id=instance.pk).values_list("pk", flat=True))
    if isinstance(instance, TeamMember):
        return list(Team.objects.filter(pk=instance.team_id).values_list("tournament_id", flat=True))
    if isinstance(instance, (Seat, Table, Score, Tally, RatingStep)):
        return list(Round.objects.filter(pk=instance.round_id).values_list("tournament_id", flat=True))
    if isinstance(instance, (Game, Penalty, DraftGame)):
        return list(Table.objects.filter(pk=instance.table_id).values_list("round__tournament_id", flat=True))
    return []


# what a tournament's pages show: the tournament, its players (and the organisation's records of them),
# rounds, tables, seats, games, penalties, the phones' entries, the scores and tallies, its teams, the registrations
# (the public registration page, the places left) and its series (name and link on the overview)
COUNTED = (
    Tournament,
    Entry,
    Player,
    Round,
    Table,
    Seat,
    Game,
    Penalty,
    DraftGame,
    Score,
    Tally,
    Rating,
    RatingStep,
    Team,
    TeamMember,
    Registration,
    Series,
)

NOT_COUNTED = {
    DataChange: "the change counter itself",
    CounterTurn: "the lock that orders the change counter's rows, not data",
    RequestKey: "a form's one-time key: what a repeated request is answered with, shown on no page",
    SeriesMerge: "shows only on the series' standings, which are read live, never cached under a counter",
    Rangliste: "shows only on the Rangliste's own pages, which are read live, never cached under a counter",
    RanglisteStanding: "an association's stored Rangliste: on its own pages only, never cached under a counter",
    RanglisteCount: "an association's stored Rangliste: on its own pages only, never cached under a counter",
    RanglistePlace: "an association's places over time: its own pages and the hub's person pages (which expire "
    "after HUB_TIMEOUT), never cached under a counter",
    RanglisteTournament: "an association's stored Rangliste: on its own pages only, never cached under a counter",
    RanglisteRatedTournament: "an association's stored Rangliste: on its own pages only, never cached under a counter",
    RanglisteRating: "an association's stored Rangliste: on its own pages only, never cached under a counter",
    PublishingKey: "a hub's publishing keys: shown only on the organisation's key page, read live",
    IdempotencyRecord: "the hub's stored answers to batches, shown on no page",
    PublishedTournament: "the hub's link from a venue's tournament to its own; written with the hub tournament's "
    "changes, which move its counter (services.hub_apply)",
    HubCorrection: "written only inside the hub's recording of a batch, which moves the tournament's counter",
    Publication: "the venue's publishing state, shown only on the director's publishing page, read live",
    OutboxEntry: "the venue's outbox, read by the sender only",
    CorrectionRequest: "a player's request for a correction: shown only on the tournament's correction page "
    "(its directors'), read live; written inside the tournament's recording",
    IdentityDecision: "who is the same person across clubs: shown on the organisation's page, read live; the "
    "hub's person pages expire (hub-person)",
    Organisation: "its settings (publish_member_numbers) show only on the Rangliste's pages, read live; "
    "its rating switch is written only by services.organisations.switch_rating, which moves every one of its "
    "tournaments' counters (read-only in the admin)",
}


def _count_up(instance) -> None:
    if audit.current() is not None:
        return  # a service's recording appends the DataChange when it ends
    deleting = _deleting.get()
    for tournament_id in _tournaments_of(instance):
        if tournament_id and tournament_id not in deleting:
            DataChange.objects.append(tournament_id)


@receiver(post_save)
def count_saved(sender, instance, raw=False, **kwargs):
    if isinstance(instance, COUNTED) and not raw:
        _count_up(instance)


@receiver(pre_delete, sender=Tournament)
def tournament_deleting(sender, instance, **kwargs):
    # its rows go with it (its DataChange rows too): nothing to count for them
    _deleting.set(_deleting.get() | {instance.pk})


@receiver(pre_delete, sender=Series)
def series_deleting(sender, instance, **kwargs):
    # counted before its tournaments let go of it (SET_NULL, without signals); in the delete's transaction
    _count_up(instance)


@receiver(post_delete)
def count_deleted(sender, instance, **kwargs):
    if isinstance(instance, Tournament):
        _deleting.set(_deleting.get() - {instance.pk})
    elif isinstance(instance, COUNTED) and not isinstance(instance, Series):
        _count_up(instance)
