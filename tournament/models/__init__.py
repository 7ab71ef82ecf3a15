"""The tournament's data: who plays, where they sit, what they played, what it scored.

Scores are a cache of the scoring engine's output (`scoring/`): `services.results` recomputes a
table's `Score` rows in the same transaction whenever one of its games or penalties changes, and
every table of a tournament when its ruleset changes (`manage.py recompute_scores` rebuilds all).

What a person enters carries a `version` (games, tables, rounds, the tournament's settings): a form
sends the version it was loaded from, and a service that finds another version saves nothing
(`errors.Conflict`). Every change of the models with `history = HistoricalRecords(...)` is kept by
django-simple-history; `LoggedChange` adds where it happened and who did it (see `audit.py`).

One module per family; import from the package (`from tournament.models import Game`):
- `changes`: the change log's records (`LoggedChange`), `DataChange` and its `CounterTurn`, `RequestKey`
- `organisations`: a club or an association, its organisers and its region (`Organisation`, `Region`)
- `search_keys`: the folded copy of names a search in the database reads (`SearchKeyField`)
- `tournaments`: a tournament and its settings, a series of tournaments (`Tournament`, `Series`, `SeriesMerge`)
- `players`: a person as an organisation knows them, and their entry in a tournament (`Player`, `Entry`)
- `registration`: a registration on the tournament's public page (`Registration`)
- `rounds`: rounds, their tables and the seats at them (`Round`, `Table`, `Seat`)
- `games`: games, the phones' entries waiting (`DraftGame`), penalties, the stored scores (`Score`)
  and each player's sums at a table (`Tally`)
- `ratings`: each player's rating in a tournament and its course (`Rating`, `RatingStep`)
- `teams`: a tournament's teams and their members (`Team`, `TeamMember`)
- `rangliste`: a Rangliste across tournaments (`Rangliste`) and an association's stored list
  (`RanglisteStanding`, `RanglisteCount`, `RanglisteTournament`) with its places over time (`RanglistePlace`)
- `rangliste_ratings`: the rating carried across an association's stored Rangliste
  (`RanglisteRatedTournament`, `RanglisteRating`)
- `people`: players across clubs on the hub: a director's decision that two records are one person,
  a player's request for a correction (`IdentityDecision`, `CorrectionRequest`)
- `publishing`: publishing from a venue to a hub: keys, published tournaments, corrections, the
  venue's outbox (`PublishingKey`, `PublishedTournament`, `HubCorrection`, `IdempotencyRecord`,
  `Publication`, `OutboxEntry`)"""

from .changes import CounterTurn, DataChange, LoggedChange, RequestKey, kept_history
from .games import DraftGame, Game, Penalty, Score, Tally
from .organisations import Organisation, Region
from .people import CorrectionRequest, IdentityDecision
from .players import Entry, Player
from .publishing import (
    HubCorrection,
    IdempotencyRecord,
    OutboxEntry,
    Publication,
    PublishedTournament,
    PublishingKey,
)
from .rangliste import Rangliste, RanglisteCount, RanglistePlace, RanglisteStanding, RanglisteTournament
from .rangliste_ratings import RanglisteRatedTournament, RanglisteRating
from .ratings import Rating, RatingStep
from .registration import Registration
from .rounds import Round, Seat, Table
from .teams import Team, TeamMember
from .tournaments import Series, SeriesMerge, Tournament, default_rules

__all__ = [
    "CorrectionRequest",
    "IdentityDecision",
    "HubCorrection",
    "IdempotencyRecord",
    "OutboxEntry",
    "Publication",
    "PublishedTournament",
    "PublishingKey",
    "Rangliste",
    "RanglisteCount",
    "RanglistePlace",
    "RanglisteRatedTournament",
    "RanglisteRating",
    "RanglisteStanding",
    "RanglisteTournament",
    "Registration",
    "Team",
    "TeamMember",
    "CounterTurn",
    "DataChange",
    "DraftGame",
    "Entry",
    "Game",
    "LoggedChange",
    "Organisation",
    "Region",
    "Penalty",
    "Player",
    "RequestKey",
    "Round",
    "Score",
    "Rating",
    "RatingStep",
    "Tally",
    "Seat",
    "Series",
    "SeriesMerge",
    "Table",
    "Tournament",
    "default_rules",
    "kept_history",
]
