"""The players' ratings (scoring/rating.py, docs/rating.md), kept with the scores: derived data, like
`Tally`, written by `scores.write_scores` in the same transaction whenever a table's scores change.

Exactly what replaying every game of the tournament would give, in its order (round, table, game):
the tables of one round share no player, so a change at a table of round r changes the ratings of
round r at that table only, and those of every later round. `refresh` therefore rates again the changed
tables and every table of a later round, starting from each player's rating after his last table
before (his `RatingStep`); saving a game in the round being played rates that table's games again,
nothing else. A table entered as totals only has no games and rates nobody."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db.models import Q

from scoring import rating

from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Game, Rating, RatingStep, Seat, Table, Tournament
from . import bulk
from .locking import lock_tables, lock_tournament

STEP_COLUMNS = ("table_id", "round_id", "entry_id", "mu", "sigma", "games")
RATING_COLUMNS = ("tournament_id", "entry_id", "mu", "sigma", "games")
CHUNK = 500  # ids per IN (...), as in scores.py


def refresh(table_ids: Iterable[int]) -> None:
    """The ratings after the scores of `table_ids` changed (inside `scores.write_scores`' recording)."""
    audit.require("ratings.refresh")
    ids = list(table_ids)
    if not ids:
        return
    first: dict[int, int] = {}
    for tournament_id, number in Table.objects.filter(pk__in=ids).values_list("round__tournament_id",
                                                                              "round__number"):
        first[tournament_id] = min(number, first.get(tournament_id, number))
    for tournament_id, number in first.items():
        _rate_from(tournament_id, number, ids)


def rebuild_ratings(*, tournament: Tournament, by: Actor = SYSTEM) -> None:
    """Every rating of the tournament computed anew from its first game (`manage.py recompute_scores`)."""
    from django.db import transaction

    with transaction.atomic():
        lock_tournament(tournament)
        for round in tournament.rounds.all():
            lock_tables(round)
        with audit.recording("scores_recomputed", by=by, tournament=tournament):
            _rate_from(tournament.pk, 0, [])


def _rate_from(tournament_id: int, first: int, changed: list[int]) -> None:
    """Rates again the `changed` tables of round `first` and every table of the later rounds (`first`
    0: every table)."""
    later = Q(round__tournament_id=tournament_id, round__number__gt=first)
    now = Q(round__tournament_id=tournament_id, round__number=first, table_id__in=changed)
    seated: dict[int, list[int]] = defaultdict(list)
    for table_id, entry_id in Seat.objects.filter(later | now).values_list("table_id", "entry_id"):
        seated[table_id].append(entry_id)
    again = list(seated)
    entries = {e for people in seated.values() for e in people}
    start: dict[str, rating.Rating] = {}
    # each player's rating before: his newest step of the rounds before, or of round `first` at a table
    # not rated again (he may play there and in a later round)
    before = (RatingStep.objects.filter(round__tournament_id=tournament_id, round__number__lte=first,
                                        entry_id__in=entries).exclude(table_id__in=changed)
              .order_by("round__number").values_list("entry_id", "mu", "sigma", "games"))
    for entry_id, mu, sigma, count in before:
        start[str(entry_id)] = rating.Rating(mu=mu, sigma=sigma, games=count)
    rows = ((Game.objects.filter(table_id__in=again) if len(again) <= CHUNK
              else Game.objects.filter(table__round__tournament_id=tournament_id, table__round__number__gte=first))
             .order_by("table__round__number", "table__number", "number")
             .values_list("table_id", "table__round_id", "re", "winner", "value", "multiplier", "sitting_out_id"))
    ratings = dict(start)
    steps: dict[tuple[int, int], tuple] = {}  # (table, entry) -> the step, in the order rated
    for table_id, round_id, re, winner, value, multiplier, sitting_out in rows:
        if table_id not in seated:
            continue
        players = [str(e) for e in seated[table_id] if e != sitting_out]
        match = rating.match(players=players, re=[str(e) for e in re], winner=winner,
                             value=value // (multiplier or 1))
        ratings.update(rating.after(ratings, match))
        for player in match.re + match.kontra:
            after = ratings[player]
            steps[(table_id, int(player))] = (table_id, round_id, int(player), after.mu, after.sigma, after.games)
    for chunk in _chunks(again):
        RatingStep.objects.filter(table_id__in=chunk).delete()
    bulk.insert_rows(RatingStep._meta.db_table, _columns(RatingStep, STEP_COLUMNS), list(steps.values()))
    for chunk in _chunks(sorted(entries)):
        Rating.objects.filter(entry_id__in=chunk).delete()
    bulk.insert_rows(Rating._meta.db_table, _columns(Rating, RATING_COLUMNS),
                     [(tournament_id, int(key), r.mu, r.sigma, r.games) for key, r in ratings.items()
                      if int(key) in entries])


def _chunks(items: list[int]):
    for start in range(0, len(items), CHUNK):
        yield items[start:start + CHUNK]


def _columns(model, names: tuple[str, ...]) -> list[str]:
    column_of = {field.attname: str(field.column) for field in model._meta.concrete_fields}
    return [column_of[name] for name in names]
