"""What was played at a table: games, entries from the phones waiting, penalties, the stored scores and
each player's tally at a table."""


from django.db import models
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from ..vocabulary import GAME_TYPES
from .changes import kept_history
from .players import Entry
from .rounds import Round, Table


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


def drafts_waiting():
    """A table's entries waiting for confirmation, counted, as an expression of the table (for
    `Table.objects….update(drafts_waiting=drafts_waiting())`: the stored count, written again)."""
    waiting = (DraftGame.objects.filter(table_id=OuterRef("pk"), status=DraftGame.Status.WAITING).order_by()
               .values("table_id").annotate(n=Count("pk")).values("n"))
    return Coalesce(Subquery(waiting), 0)


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

    Rebuilt with the rest of the table's cache; standings sum these.

    Derived rows: `scores.write_scores` alone writes them, under the table's lock, from the table's
    games and penalties, and Django's cascade deletes them with their table, round, game or penalty
    (on_delete works without a database constraint). So the database checks only the player
    (`entry`): its checks of the four derived references at each commit were 0.6 s of a 1,000-player
    import on PostgreSQL (24,000 rows; docs/performance.md), and test_score_references.py checks that
    no row outlives what it refers to."""

    class Kind(models.TextChoices):
        GAME = "game", _("Spiel")
        PENALTY = "penalty", _("Strafe")
        TOTAL = "total", _("Endstand")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="scores", db_constraint=False)
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+", db_constraint=False)
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="scores")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True, related_name="scores",
                             db_constraint=False)
    penalty = models.ForeignKey(Penalty, on_delete=models.CASCADE, null=True, blank=True, related_name="scores",
                                db_constraint=False)
    points = models.IntegerField()
    won = models.BooleanField(default=False)  # on the winning side of a game
    solo = models.BooleanField(default=False)  # was the soloist of a game scored as a solo
    games = models.PositiveSmallIntegerField(default=0)  # games this row stands for: 1, 0 for a penalty, n for totals

    class Meta:
        indexes = [models.Index(fields=["round", "entry"])]

    def __str__(self):
        return f"{self.kind} {self.points:+d}"



class Tally(models.Model):
    """One player's scores at one table, summed: what the standings read (`selectors.score_sums`).
    Written with the table's `Score` rows by `services.scores.write_scores`, in the same transaction
    (a number stored where it is read, kept by the write that changes it); `manage.py
    recompute_scores` writes them again."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="tallies")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="tallies")
    points = models.IntegerField(default=0)
    games = models.PositiveSmallIntegerField(default=0)  # the games played, or the totals' games
    won = models.PositiveSmallIntegerField(default=0)  # games on the winning side
    solos = models.PositiveSmallIntegerField(default=0)  # games played as the soloist of a solo
    totals_only = models.BooleanField(default=False)  # entered as final totals (marked * in the standings)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "entry"], name="tally_unique_entry")]
        # a player's page across clubs sums every entry's points in 300 tournaments' rounds (`selectors.people`):
        # read from this index alone (docs/performance.md, the hub)
        indexes = [models.Index(fields=["round", "entry", "points"], name="tally_round_entry_points")]

    def __str__(self):
        return f"{self.points:+d}"
