"""The tournament's data: who plays, where they sit, what they played, what it scored.

Scores are a cache of the scoring engine's output (`scoring/`): `services.results` recomputes a
table's `Score` rows in the same transaction whenever one of its games or penalties changes, and
every table of a tournament when its ruleset changes (`manage.py recompute_scores` rebuilds all).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

import scoring


def default_rules():
    return scoring.DEFAULT_PRESET


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
    # secondary ordering of the standings, in order, from selectors.TIE_BREAKERS; ties left share a rank
    tie_breakers = models.JSONField(_("Gleichstand-Regeln"), default=list, blank=True)
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="directed_tournaments", blank=True)
    # which pages the public (players on their phones) may see without logging in
    public_overview = models.BooleanField(_("Übersicht öffentlich"), default=True)
    public_standings = models.BooleanField(_("Rangliste öffentlich"), default=True)
    public_seating = models.BooleanField(_("Tischeinteilung öffentlich"), default=True)
    public_players = models.BooleanField(_("Spielerseiten öffentlich"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("Turnier")
        verbose_name_plural = _("Turniere")

    def __str__(self):
        return f"{self.name} ({self.date:%d.%m.%Y})"

    def scoring_rules(self) -> scoring.Rules:
        return scoring.rules_from(self.rules)

    def games_at_table(self, size: int) -> int:
        return self.games_at_table_of_5 if size == 5 else self.games_at_table_of_4


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

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")]

    def __str__(self):
        return _("%(tournament)s, Runde %(round)s") % {"tournament": self.tournament.name, "round": self.number}

    @property
    def is_draft(self) -> bool:
        return self.status == self.Status.DRAFT


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("Tisch"))
    # entered as final totals from a paper sheet summed at the table, not game by game
    totals_only = models.BooleanField(_("nur Endstände"), default=False)
    signed_at = models.DateTimeField(_("unterschrieben am"), null=True, blank=True)
    signed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")
    signed_note = models.CharField(_("Unterschriften"), max_length=300, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_unique_number")]

    def __str__(self):
        return _("Tisch %(n)s") % {"n": self.number}

    @property
    def is_locked(self) -> bool:
        return self.signed_at is not None


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


class Game(models.Model):
    class Type(models.TextChoices):
        NORMAL = "normal", _("Normalspiel")
        HOCHZEIT = "hochzeit", _("Hochzeit")
        STILLE_HOCHZEIT = "stille_hochzeit", _("Stille Hochzeit")
        ARMUT = "armut", _("Armut")
        SOLO = "solo", _("Solo")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("Spiel"))
    dealer = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    sitting_out = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    type = models.CharField(_("Spielart"), max_length=16, choices=Type.choices, default=Type.NORMAL)
    solo = models.CharField(_("Solo"), max_length=12, blank=True)
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

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="game_unique_number")]

    def __str__(self):
        return _("Spiel %(number)s") % {"number": self.number}


class Penalty(models.Model):
    """A penalty (rule 20): the offender pays, the other three players of that game get points."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="penalties")
    offender = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    # the game it happened in, by number: it may be a game that is replayed and not entered yet
    game_number = models.PositiveSmallIntegerField(_("im Spiel"), null=True, blank=True)
    # the 4 players of that game (entry ids): the whole table at a table of 4
    players = models.JSONField()
    note = models.CharField(_("Grund"), max_length=200, blank=True)

    class Meta:
        ordering = ["table", "id"]


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
