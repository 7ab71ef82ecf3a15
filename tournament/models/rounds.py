"""A round, its tables and who sits where."""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ..validators import SMALL, Between
from .changes import kept_history
from .players import Entry
from .tournaments import Tournament


def clock_end(started_at: datetime.datetime | None, minutes: int) -> datetime.datetime | None:
    """When a round's time is up: its clock's start plus the tournament's `round_minutes` (None: the
    clock was not started, or there is no time limit)."""
    if started_at is None or not minutes:
        return None
    return started_at + datetime.timedelta(minutes=minutes)


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Entwurf")
        PUBLISHED = "published", _("veröffentlicht")
        CLOSED = "closed", _("abgeschlossen")

    class Mode(models.TextChoices):
        RANDOM = "random", _("Zufall, möglichst ohne Wiederbegegnung")
        STANDINGS = "standings", _("nach Tabellenstand")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("Runde"), validators=[Between(1, SMALL)])
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    mode = models.CharField(_("Auslosung"), max_length=10, choices=Mode.choices, default=Mode.RANDOM)
    seed = models.CharField(_("Startwert der Auslosung"), max_length=40, blank=True)
    repeat_meetings = models.PositiveIntegerField(default=0)  # pairs who met in an earlier round
    repeated_five = models.PositiveIntegerField(default=0)  # players at a table of 5 a second time
    # results of this round stay off the public pages until the director announces them
    results_hidden = models.BooleanField(_("Ergebnisse verborgen"), default=False)
    # when the director started the round's clock (null: not started); it ends `round_minutes` later
    started_at = models.DateTimeField(_("Runde gestartet um"), null=True, blank=True)
    version = models.PositiveIntegerField(default=1)  # of the seating and the status
    history = kept_history()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")]

    def __str__(self):
        return _("%(tournament)s, Runde %(round)s") % {"tournament": self.tournament.name, "round": self.number}

    @property
    def is_draft(self) -> bool:
        return self.status == self.Status.DRAFT

    def clock_end(self, minutes: int | None = None) -> datetime.datetime | None:
        """When the round's time is up (None: the clock was not started or there is no time limit).
        `minutes`: the tournament's `round_minutes`, when the caller holds the tournament already."""
        return clock_end(self.started_at, self.tournament.round_minutes if minutes is None else minutes)


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("Tisch"), validators=[Between(1, SMALL)])
    # entered as final totals from a paper sheet summed at the table, not game by game
    totals_only = models.BooleanField(_("nur Endstände"), default=False)
    signed_at = models.DateTimeField(_("unterschrieben am"), null=True, blank=True)
    signed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")
    signed_note = models.CharField(_("Unterschriften"), max_length=300, blank=True)
    # the totals of a totals-only table, {entry id (str): points}; the Score rows are made from them
    entered_totals = models.JSONField(_("Endstände"), null=True, blank=True)
    # of the whole sheet: any change of its games, penalties, totals or signature counts it up
    version = models.PositiveIntegerField(default=1)
    # the secret of the table's entry link (/e/<token>/) for the players' phones; null: no link
    link_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    # players who tapped "stimmt" on the table's page: {entry id (str): the sheet version they saw}
    approvals = models.JSONField(default=dict, blank=True)
    # a table that stopped before its last game (a player had to leave): the games up to this one
    # count, no more are expected (docs/tournament.md, "Wenn jemand gehen muss"); null: plays on
    ended_after = models.PositiveSmallIntegerField(_("beendet nach Spiel"), null=True, blank=True)
    ended_note = models.CharField(_("Grund"), max_length=300, blank=True)
    # numbers the pages read, kept by the writes that change them (in the same transaction): the games
    # entered (`services.scores.write_scores`, with the table's scores) and the phones' entries waiting
    # for confirmation (`services.table_links.count_drafts`); not in the history (they follow from it)
    games_entered = models.PositiveSmallIntegerField(default=0, editable=False)
    drafts_waiting = models.PositiveSmallIntegerField(default=0, editable=False)
    history = kept_history("link_token", "games_entered", "drafts_waiting")

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_unique_number")]

    def __str__(self):
        return _("Tisch %(n)s") % {"n": self.number}

    @property
    def is_locked(self) -> bool:
        return self.signed_at is not None

    def expected_games(self, per_table: int) -> int:
        """The games this table plays: `per_table` (the tournament's number for its size), fewer when
        it ended early."""
        return Table.games_to_play(per_table, self.ended_after)

    @staticmethod
    def games_to_play(per_table: int, ended_after: int | None) -> int:
        """`expected_games` from the stored values, for reads that fetch no model instance."""
        return per_table if ended_after is None else min(ended_after, per_table)


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")  # for the constraint below
    # 1..5; seat 1 deals the first game
    position = models.PositiveSmallIntegerField(pgettext_lazy("seat at a table", "Platz"))
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["round", "entry"], name="seat_once_per_round"),
            models.CheckConstraint(condition=Q(position__gte=1, position__lte=5), name="seat_position_1_to_5"),
        ]

    def __str__(self):
        return _("Platz %(position)s an %(table)s") % {"position": self.position, "table": self.table}

