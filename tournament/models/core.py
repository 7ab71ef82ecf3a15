"""The tournament's data: who plays, where they sit, what they played, what it scored.

Scores are a cache of the scoring engine's output (`scoring/`): `services.results` recomputes a
table's `Score` rows in the same transaction whenever one of its games or penalties changes, and
every table of a tournament when its ruleset changes (`manage.py recompute_scores` rebuilds all).

What a person enters carries a `version` (games, tables, rounds, the tournament's settings): a form
sends the version it was loaded from, and a service that finds another version saves nothing
(`errors.Conflict`). Every change of the models with `history = HistoricalRecords(...)` is kept by
django-simple-history; `LoggedChange` adds where it happened and who did it (see `audit.py`).
"""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

import scoring
from seating import dealing

from ..vocabulary import GAME_TYPES


class LoggedChange(models.Model):
    """What every historical record (django-simple-history) holds besides the row itself: the
    tournament, round and table it belongs to, what was done, by whom and from which device, and
    the row in the words of the tournament file (player names, not database ids), so that the
    change log reads the same after a backup is restored into another database. Filled in by
    `audit.fill_record` from the service that made the change."""

    log_tournament = models.IntegerField(null=True, db_index=True)
    log_round = models.PositiveSmallIntegerField(null=True)
    log_table = models.PositiveSmallIntegerField(null=True)
    log_action = models.CharField(max_length=32, blank=True)
    log_user = models.CharField(max_length=150, blank=True)
    log_device = models.CharField(max_length=64, blank=True)
    log_detail = models.JSONField(default=dict, blank=True)

    class Meta:
        abstract = True


def kept_history(*excluded: str) -> HistoricalRecords:
    """django-simple-history for a model, with the `LoggedChange` fields; `excluded`: fields not kept
    (the cache of the engine's output)."""
    return HistoricalRecords(bases=[LoggedChange], excluded_fields=list(excluded), cascade_delete_history=False)


def default_rules():
    return scoring.DEFAULT_PRESET


class Series(models.Model):
    """Tournaments that belong together (a club's monthly evenings), with standings over all of them
    (`selectors.series_standings`, docs/series.md). Not part of a tournament's file."""

    class Mode(models.TextChoices):
        SUM = "sum", _("Summe aller Abende")
        BEST = "best", _("Summe der besten Abende")
        AVERAGE = "average", _("Durchschnitt je gespieltem Abend")

    name = models.CharField(_("Name"), max_length=200)
    slug = models.SlugField(_("Kurzname"), max_length=80, unique=True)
    mode = models.CharField(_("Wertung"), max_length=8, choices=Mode.choices, default=Mode.SUM)
    # with Mode.BEST: how many evenings count (the best k of the n a player played)
    best_of = models.PositiveSmallIntegerField(_("beste Abende, die zählen"), default=0)
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="directed_series", blank=True)
    public = models.BooleanField(_("Serienwertung öffentlich"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    version = models.PositiveIntegerField(default=1)
    history = kept_history("created_at")

    class Meta:
        ordering = ["name"]
        verbose_name = _("Serie")
        verbose_name_plural = _("Serien")

    def __str__(self):
        return self.name


class SeriesMerge(models.Model):
    """The director's word that two players of a series are the same person, although their names
    or clubs differ (a typo, a change of club): `alias` counts as `same_as`. Both are identities as
    `selectors.identity_key` makes them from name and club; undone by deleting the row."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="merges")
    alias = models.CharField(max_length=250)
    same_as = models.CharField(max_length=250)
    history = kept_history()

    class Meta:
        ordering = ["series", "id"]
        constraints = [models.UniqueConstraint(fields=["series", "alias"], name="series_merge_alias_once")]

    def __str__(self):
        return f"{self.alias} = {self.same_as}"


class Tournament(models.Model):
    name = models.CharField(_("Name"), max_length=200)
    slug = models.SlugField(_("Kurzname"), max_length=80, unique=True)
    date = models.DateField(_("Datum"))
    place = models.CharField(_("Ort"), max_length=200, blank=True)
    # a preset id ("turnier") or {"preset": id, option: value, …} with the changed options
    rules = models.JSONField(_("Regelwerk"), default=default_rules)
    rounds_planned = models.PositiveSmallIntegerField(_("Runden"), default=3)
    games_at_table_of_4 = models.PositiveSmallIntegerField(_("Spiele am 4er-Tisch"), default=8)
    games_at_table_of_5 = models.PositiveSmallIntegerField(_("Spiele am 5er-Tisch"), default=10)
    # the round timer: how long a round lasts; 0: no timer
    round_minutes = models.PositiveSmallIntegerField(_("Spielzeit je Runde (Minuten)"), default=100)
    class Pflichtsoli(models.TextChoices):
        NONE = "", _("ohne Pflichtsoli")
        SAME_DEALER = "same_dealer", _("mit Pflichtsoli; nach einem gibt derselbe Geber noch einmal (DDV)")
        NEXT_DEALER = "next_dealer", _("mit Pflichtsoli; nach einem gibt der Nächste")

    # each round a list with one Pflichtsolo per player, and who deals after one (dealing.py,
    # docs/pflichtsolo.md); "": no Pflichtsoli
    pflichtsoli = models.CharField(_("Pflichtsoli"), max_length=12, choices=Pflichtsoli.choices, blank=True,
                                   default=Pflichtsoli.NONE)
    class Ranking(models.TextChoices):
        POINTS = "points", _("Summe der Spielpunkte")
        TABLE_POINTS = "table_points", _("Tischpunkte nach Platz am Tisch, dann Spielpunkte")
        AVERAGE = "average", _("Durchschnitt der Spielpunkte je gespielter Runde")

    # how the standings rank the players (tournament/ranking.py, scoring/ranking.py, docs/tournament.md)
    ranking = models.CharField(_("Wertung"), max_length=12, choices=Ranking.choices, default=Ranking.POINTS)
    # secondary ordering of the standings, in order, from selectors.TIE_BREAKERS; ties left share a rank
    tie_breakers = models.JSONField(_("Gleichstand-Regeln"), default=list, blank=True)
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="directed_tournaments", blank=True)
    # "Turnierhelfer": enter and correct games, penalties and totals, nothing else
    helpers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="helped_tournaments", blank=True)
    # the series it is an evening of (at most one; docs/series.md)
    series = models.ForeignKey(Series, on_delete=models.SET_NULL, null=True, blank=True, related_name="tournaments",
                               verbose_name=_("Serie"))
    class Confirmation(models.TextChoices):
        IMMEDIATE = "immediate", _("sofort, ohne Bestätigung")
        SECOND_PLAYER = "second_player", _("von einem zweiten Spieler des Tisches, auf einem anderen Gerät")
        DIRECTOR = "director", _("von der Turnierleitung")

    # how a game entered at the table through its link becomes a game (see services/table_links.py)
    confirmation = models.CharField(_("Eingaben vom Tisch bestätigt"), max_length=16, choices=Confirmation.choices,
                                    default=Confirmation.SECOND_PLAYER)
    # which pages the public (players on their phones) may see without logging in
    public_overview = models.BooleanField(_("Übersicht öffentlich"), default=True)
    public_standings = models.BooleanField(_("Rangliste öffentlich"), default=True)
    public_seating = models.BooleanField(_("Tischeinteilung öffentlich"), default=True)
    public_players = models.BooleanField(_("Spielerseiten öffentlich"), default=True)
    # the public registration page (models/registration.py); 0 places: no limit
    registration_open = models.BooleanField(_("Anmeldung online offen"), default=False)
    registration_limit = models.PositiveSmallIntegerField(_("Plätze (0: unbegrenzt)"), default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    version = models.PositiveIntegerField(default=1)  # of the settings
    history = kept_history("created_at")

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("Turnier")
        verbose_name_plural = _("Turniere")
        # "organiser": the site's administrator grants it (docs/security.md); directing a tournament does not
        permissions = [("organise", "Veranstalter: darf Turniere und Serien anlegen und Sicherungen einspielen")]

    def __str__(self):
        return f"{self.name} ({self.date:%d.%m.%Y})"

    def scoring_rules(self) -> scoring.Rules:
        return scoring.rules_from(self.rules)

    def games_at_table(self, size: int) -> int:
        return self.games_at_table_of_5 if size == 5 else self.games_at_table_of_4

    def list_rule(self, size: int) -> dealing.ListRule | None:
        """The list with Pflichtsoli at a table of `size` (`seating.dealing`), or None without one."""
        if not self.pflichtsoli:
            return None
        return dealing.ListRule(games=self.games_at_table(size),
                                same_dealer=self.pflichtsoli == self.Pflichtsoli.SAME_DEALER)


class Player(models.Model):
    """A person; takes part in tournaments through an Entry."""

    name = models.CharField(_("Name"), max_length=120)
    club = models.CharField(_("Verein"), max_length=120, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = pgettext_lazy("one player", "Spieler")
        verbose_name_plural = _("Spieler")

    def __str__(self):
        return f"{self.name} ({self.club})" if self.club else self.name


class Entry(models.Model):
    """A player's entry in one tournament: start number, and from which round they play."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    start_number = models.PositiveIntegerField(_("Startnummer"))
    joined_round = models.PositiveSmallIntegerField(_("dabei ab Runde"), default=1)
    # withdrawn: not seated from this round on; null while active
    withdrawn_from_round = models.PositiveSmallIntegerField(_("zurückgezogen ab Runde"), null=True, blank=True)
    # checked in at the door; once anyone is, a draw seats only those present (services/checkin.py)
    present = models.BooleanField(_("anwesend"), default=False)
    history = kept_history()

    class Meta:
        ordering = ["start_number"]
        verbose_name = _("Teilnahme")
        verbose_name_plural = _("Teilnahmen")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_once_per_tournament"),
            models.UniqueConstraint(fields=["tournament", "start_number"], name="entry_unique_start_number"),
        ]

    def __str__(self):
        return f"{self.start_number}. {self.player.name}"

    @property
    def name(self) -> str:
        return self.player.name

    def plays_in(self, round_number: int) -> bool:
        return self.joined_round <= round_number and (
            self.withdrawn_from_round is None or round_number < self.withdrawn_from_round)


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Entwurf")
        PUBLISHED = "published", _("veröffentlicht")
        CLOSED = "closed", _("abgeschlossen")

    class Mode(models.TextChoices):
        RANDOM = "random", _("Zufall, möglichst ohne Wiederbegegnung")
        STANDINGS = "standings", _("nach Tabellenstand")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("Runde"))
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
        minutes = self.tournament.round_minutes if minutes is None else minutes
        if self.started_at is None or not minutes:
            return None
        return self.started_at + datetime.timedelta(minutes=minutes)


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("Tisch"))
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
    history = kept_history("link_token")

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


class Game(models.Model):
    class Type(models.TextChoices):
        NORMAL = "normal", GAME_TYPES["normal"]
        HOCHZEIT = "hochzeit", GAME_TYPES["hochzeit"]
        STILLE_HOCHZEIT = "stille_hochzeit", GAME_TYPES["stille_hochzeit"]
        ARMUT = "armut", GAME_TYPES["armut"]
        SOLO = "solo", GAME_TYPES["solo"]

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("Spiel"))
    dealer = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    sitting_out = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    type = models.CharField(_("Spielart"), max_length=16, choices=Type.choices, default=Type.NORMAL)
    solo = models.CharField(_("Solo"), max_length=12, blank=True)
    # a solo in a list with Pflichtsoli: True the soloist's Pflichtsolo, False a Lustsolo; None otherwise
    pflichtsolo = models.BooleanField(_("Pflichtsolo"), null=True, blank=True)
    re = models.JSONField(_("Re"))  # entry ids of the Re party
    re_augen = models.PositiveSmallIntegerField(_("Augen Re"))
    re_tricks = models.PositiveSmallIntegerField(_("Stiche Re"), null=True, blank=True)
    announce_re = models.CharField(_("Ansage Re"), max_length=8, blank=True)
    announce_kontra = models.CharField(_("Ansage Kontra"), max_length=8, blank=True)
    extras = models.JSONField(_("Sonderpunkte"), default=dict)  # {"re": {kind: n}, "kontra": {…}}
    # the engine's output, rewritten by services.results whenever the table changes
    winner = models.CharField(max_length=6, blank=True)
    value = models.IntegerField(default=0)
    multiplier = models.PositiveSmallIntegerField(default=1)
    breakdown = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=1)
    history = kept_history("winner", "value", "multiplier", "breakdown")

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="game_unique_number")]

    def __str__(self):
        return _("Spiel %(number)s") % {"number": self.number}


class DraftGame(models.Model):
    """A game entered at the table through its entry link, waiting to be confirmed (by a second
    player of the table, or the director, as the tournament says). Confirming it saves the game
    through `services.results.save_game`; until then it counts nowhere."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("wartet auf Bestätigung")
        CONFIRMED = "confirmed", _("bestätigt")
        REJECTED = "rejected", _("abgelehnt")
        SETTLED = "settled", _("erledigt")  # a rejected entry dealt with: corrected, or cleared by the director

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="drafts")
    number = models.PositiveSmallIntegerField(_("Spiel"))
    data = models.JSONField()  # the game as services take it (engine.GameData), checked by the engine
    base_version = models.PositiveIntegerField(default=0)  # of the game it corrects; 0: a new game
    key = models.CharField(max_length=64, unique=True)  # the phone's one-time key: sent twice, entered once
    device = models.CharField(max_length=64)  # the random id the phone keeps for itself
    entered_by = models.ForeignKey(Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.CharField(max_length=150, blank=True)  # a player's name or a director's account
    decided_device = models.CharField(max_length=64, blank=True)
    reason = models.CharField(_("Grund"), max_length=200, blank=True)
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    history = kept_history()

    class Meta:
        ordering = ["table", "number", "created_at"]

    def __str__(self):
        return _("Eingabe für Spiel %(number)s") % {"number": self.number}


class Penalty(models.Model):
    """A penalty (rule 20): the offender pays, the other three players of that game get points."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="penalties")
    offender = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    # the game it happened in, by number: it may be a game that is replayed and not entered yet
    game_number = models.PositiveSmallIntegerField(_("im Spiel"), null=True, blank=True)
    # the 4 players of that game (entry ids): the whole table at a table of 4
    players = models.JSONField()
    note = models.CharField(_("Grund"), max_length=200, blank=True)
    history = kept_history()

    class Meta:
        ordering = ["table", "id"]

    def __str__(self):
        return _("Strafe in Spiel %(number)s") % {"number": self.game_number or "–"}


class Score(models.Model):
    """One player's points from one row of a table's sheet: a game, a penalty, or entered totals.

    Rebuilt with the rest of the table's cache; standings sum these."""

    class Kind(models.TextChoices):
        GAME = "game", _("Spiel")
        PENALTY = "penalty", _("Strafe")
        TOTAL = "total", _("Endstand")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="scores")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="scores")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True, related_name="scores")
    penalty = models.ForeignKey(Penalty, on_delete=models.CASCADE, null=True, blank=True, related_name="scores")
    points = models.IntegerField()
    won = models.BooleanField(default=False)  # on the winning side of a game
    solo = models.BooleanField(default=False)  # was the soloist of a game scored as a solo
    games = models.PositiveSmallIntegerField(default=0)  # games this row stands for: 1, 0 for a penalty, n for totals

    class Meta:
        indexes = [models.Index(fields=["round", "entry"])]

    def __str__(self):
        return f"{self.kind} {self.points:+d}"


class DataChange(models.Model):
    """One row per write to a tournament (appended by `audit.recording`): the newest id is the
    tournament's change counter, which tells a poll in one indexed query whether anything changed.
    Appending instead of counting up a column keeps concurrent writers from waiting on one row."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["tournament", "id"], name="datachange_tournament_id")]

    def __str__(self):
        return f"{self.tournament_id}#{self.pk}"


class RequestKey(models.Model):
    """A form's or a phone's one-time key: a request sent twice (double click, a retry after the
    Wi-Fi dropped) finds its key here and is answered with the first result instead of being
    carried out again."""

    key = models.CharField(max_length=64, unique=True)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    result = models.JSONField(default=dict, blank=True)  # what the first request made, e.g. {"game": 3}
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.key
