"""What the publishing pages read (docs/publishing.md): the venue's state of a tournament's publication
for its director, the hub's keys of an organisation, and the corrections the hub lists on a published
tournament's overview."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Min, Q

from ..models import HubCorrection, OutboxEntry, Publication, PublishingKey, Round, Tournament


@dataclass(frozen=True)
class PublicationState:
    publication: Publication | None
    waiting: int  # entries the hub has not taken yet
    waiting_since: datetime.datetime | None


def publication_state(tournament: Tournament) -> PublicationState:
    """Two queries."""
    publication = Publication.objects.filter(tournament=tournament).first()
    if publication is None:
        return PublicationState(None, 0, None)
    pending = OutboxEntry.objects.filter(publication=publication, seq__gt=publication.acked_seq).aggregate(
        n=Count("id"), since=Min("at"))
    return PublicationState(publication, pending["n"], pending["since"])


def keys_of(organisation) -> list[PublishingKey]:
    return list(PublishingKey.objects.filter(organisation=organisation).select_related("created_by"))


@dataclass(frozen=True)
class CorrectionLine:
    at: datetime.datetime
    round: int
    table: int
    game: int | None
    change: str


def corrections_of(tournament: Tournament, limit: int = 50) -> list[CorrectionLine]:
    """The corrections the hub received for a published tournament, newest first, in rounds the public may
    see (published or closed, results not hidden). On a venue (no hub): none, without a query."""
    if not settings.DOKO_HUB:
        return []
    unseen = Round.objects.filter(tournament=tournament).filter(
        Q(results_hidden=True) | Q(status=Round.Status.DRAFT)).values("number")
    rows = (HubCorrection.objects.filter(published__tournament=tournament).exclude(round__in=unseen)
            .values_list("at", "round", "table", "game", "change")[:limit])
    return [CorrectionLine(*row) for row in rows]
