"""`bulk.insert_dicts` sends a plain value (an int to an integer field, a text to a text field, None) as
it is, and everything else through the field's own `get_db_prep_save`: the same rows as before."""

from __future__ import annotations

import datetime

import pytest
from django.apps import apps
from django.db import connection, models
from django.utils import timezone

from tournament.log import audit
from tournament.log.audit import SYSTEM
from tournament.log.changelog import history_model
from tournament.models import Tournament
from tournament.services import bulk, importing

from ..factories import make_tournament

pytestmark = pytest.mark.django_db

SAMPLES = {int: [0, 7, -3, 2**40], str: ["", "Anna Müller", "ä\u200b"], bool: [True, False], float: [0.0, 1.5, -2.25]}


def test_every_field_sent_as_it_is_would_have_sent_the_value_unchanged():
    """For every field of the app's models (their change log's too) that `as_is` names a type for, the
    field's own preparation gives back each value of that type, and None where the field may be empty."""
    checked = 0
    for model in apps.get_app_config("tournament").get_models():
        for field in model._meta.concrete_fields:
            kind = bulk.as_is(field)
            if kind is None:
                continue
            for value in SAMPLES[kind] + ([None] if field.null else []):
                prepared = field.get_db_prep_save(value, connection)
                assert prepared == value and type(prepared) in (type(value), *_wrappers(kind)), (model, field, value)
                checked += 1
    assert checked > 500


def _wrappers(kind: type) -> tuple[type, ...]:
    """psycopg's integer types (Int4, Int8, ...): PostgreSQL's `adapt_integerfield_value` names the column's
    size for server-side binding; COPY writes them as the same digits."""
    if kind is not int or connection.vendor != "postgresql":
        return ()
    from psycopg.types import numeric

    return (numeric.Int2, numeric.Int4, numeric.Int8)


def test_only_values_that_need_it_are_prepared_and_the_rows_read_back_the_same(monkeypatch):
    tournament = make_tournament(players=0, slug="bulk")
    history = history_model("game")
    at = timezone.make_aware(datetime.datetime(2026, 11, 21, 20, 15))
    row = {**importing._tracked_defaults(history, {"at": at}, tournament), "id": 9,
           "history_date": at, "history_type": "+", "history_user_id": None, "history_change_reason": None,
           "log_tournament": tournament.pk, "log_round": 1, "log_table": 2, "log_action": "game_saved",
           "log_user": "Anna", "log_device": "", "log_detail": {"re": 120}, "table_id": 0, "number": 3}
    prepared = []
    real = models.Field.get_db_prep_save

    def counted(self, value, connection):
        if self.model is history:  # (not the recording's own change row)
            prepared.append(self.attname)
        return real(self, value, connection)

    monkeypatch.setattr(models.Field, "get_db_prep_save", counted)
    with audit.recording("imported", by=SYSTEM, tournament=tournament):
        bulk.insert_dicts(history, [row, {**row, "number": 4, "log_user": "Ben"}])
    monkeypatch.undo()
    plain = {f.attname for f in history._meta.concrete_fields if bulk.as_is(f) is not None}
    assert {"log_tournament", "number", "log_user", "history_type"} <= plain
    assert set(prepared) & plain == {"type"}, "only the game type, a TextChoices member, is prepared of these"
    assert {"history_date", "log_detail"} <= set(prepared)
    stored = list(history.objects.filter(log_tournament=tournament.pk).order_by("number")
                  .values_list("number", "log_user", "log_round", "log_detail", "history_date"))
    assert stored == [(3, "Anna", 1, {"re": 120}, at), (4, "Ben", 1, {"re": 120}, at)]
    assert Tournament.objects.filter(pk=tournament.pk).exists()


def test_objects_inserted_get_their_ids_and_are_stored_as_bulk_create_would():
    from tournament.models import Game

    from ..factories import seat_ids, seated_round

    tournament = make_tournament(players=8, slug="bulk-objekte")
    tables = list(seated_round(tournament).tables.order_by("number"))
    games = [Game(table=table, number=number, dealer_id=seat_ids(table)[0], re=seat_ids(table)[:2], re_augen=121,
                  extras={"re": {"fuchs": 1}}, breakdown=[["Gewonnen", 1]], value=2, winner="re")
             for table in tables for number in (2, 1)]
    with audit.recording("imported", by=SYSTEM, tournament=tournament):
        bulk.insert_objects(games, key=("table_id", "number"))
    assert all(not game._state.adding for game in games)
    stored = {game.pk: game for game in Game.objects.filter(table__in=tables)}
    assert set(stored) == {game.pk for game in games} and len(stored) == 4
    for game in games:
        again = stored[game.pk]
        assert (again.table_id, again.number, again.re, again.extras, again.breakdown, again.value) == (
            game.table_id, game.number, game.re, game.extras, game.breakdown, game.value)
