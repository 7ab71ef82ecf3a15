"""A tournament with its settings and rules, and a series of tournaments."""

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

import scoring
from seating import dealing

from .. import names
from ..validators import SMALL, Between, VisibleName
from .changes import kept_history
from .organisations import Organisation
from .search_keys import SearchKeyField

# the usual categories of a player (Entry.categories): stored in German, shown in the reader's language
CATEGORIES = {"Damen": _("Damen"), "Jugend": _("Jugend"), "Senioren": _("Senioren"), "Gast": _("Gast")}
MOST_CATEGORIES = 10  # a tournament's own categories


def own_categories(parts) -> list[str]:
    """A tournament's own categories (`Tournament.categories`) from what the settings page or the
    tournament file gives: cleaned, each once, the usual ones left out (they are always there).
    Raises ValidationError for one longer than 30 characters or more than ten."""
    result: list[str] = []
    for part in parts:
        name = names.clean(part)
        if not name or name in CATEGORIES or name in result:
            continue
        if len(name) > 30:
            raise ValidationError(_("Eine Kategorie hat höchstens 30 Zeichen: „%(name)s“."), params={"name": name[:30]})
        result.append(name)
    if len(result) > MOST_CATEGORIES:
        raise ValidationError(_("Höchstens %(n)s eigene Kategorien."), params={"n": MOST_CATEGORIES})
    return result


OVERALL = ""  # the key of the overall prizes in Tournament.prizes
OVERALL_WORDS = ("gesamt", "gesamtwertung", "overall")  # how a line of the settings names them
MOST_PRIZES = {OVERALL: 100, None: 20}  # places with a prize overall, and in a category (as the prize list shows)
PRIZE_LENGTH = 60


def prize_texts(text: str, categories: list[str]) -> dict[str, list[str]]:
    """A tournament's prizes (`Tournament.prizes`) from the settings page: one line per list, "Gesamt:"
    or a category of `categories` (the tournament's, as stored; its shown name counts too), then the
    prize of each place, separated by semicolons ("Gesamt: 50 €; 30 €; 20 €", "Damen: Präsentkorb"; a
    "1." before a prize is left out). The overall prizes first, then the categories in `categories`'
    order. Raises ValidationError with the line it is about."""
    by_name = {names.folded(word): OVERALL for word in OVERALL_WORDS}
    for name in categories:
        by_name.setdefault(names.folded(name), name)
        by_name.setdefault(names.folded(str(CATEGORIES.get(name, name))), name)
    found: dict[str, list[str]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        label, colon, rest = line.partition(":")
        key = by_name.get(names.folded(label))
        if not colon or key is None:
            raise ValidationError(
                _("Zeile %(n)s: erst „Gesamt“ oder eine Kategorie dieses Turniers (%(names)s), dann ein Doppelpunkt "
                  "und die Preise, z. B. „Gesamt: 50 €; 30 €; 20 €“."),
                params={"n": number, "names": ", ".join(str(CATEGORIES.get(n, n)) for n in categories)})
        if key in found:
            raise ValidationError(_("Zeile %(n)s: die Preise für „%(label)s“ stehen schon in einer Zeile davor."),
                                  params={"n": number, "label": label.strip()})
        texts = checked_list(key, rest.split(";"), _("Zeile %(n)s: ") % {"n": number})
        if texts:
            found[key] = texts
    order = [OVERALL, *categories]
    return {key: found[key] for key in order if key in found}


def checked_list(key: str, parts: list[str], where: str) -> list[str]:
    """One list of prizes, cleaned ("1. 50 €" is "50 €"; empty ones at the end left out) and checked:
    at most `MOST_PRIZES` of at most `PRIZE_LENGTH` characters. `where` starts a message."""
    texts = [re.sub(r"^\d+\.\s*", "", names.clean(part)) for part in parts]
    while texts and not texts[-1]:
        texts.pop()
    most = MOST_PRIZES[OVERALL if key == OVERALL else None]
    if len(texts) > most:
        raise ValidationError(where + _("höchstens %(most)s Preise, nicht %(count)s.")
                              % {"most": most, "count": len(texts)})
    long = next((text for text in texts if len(text) > PRIZE_LENGTH), None)
    if long is not None:
        raise ValidationError(where + _("ein Preis hat höchstens %(most)s Zeichen: „%(text)s…“.")
                              % {"most": PRIZE_LENGTH, "text": long[:PRIZE_LENGTH]})
    return texts


def checked_prizes(data, categories: list[str]) -> dict[str, list[str]]:
    """`Tournament.prizes` from a tournament file: {"": [overall …], "Damen": […]}, each key "" or one of
    `categories`, checked as the settings page checks them. Raises ValidationError."""
    if not isinstance(data, dict) or not all(
            isinstance(key, str) and isinstance(texts, list) and all(isinstance(text, str) for text in texts)
            for key, texts in data.items()):
        raise ValidationError(_("erwartet: je Liste („“ für die Gesamtwertung oder eine Kategorie) ihre Preise als "
                                "Texte, z. B. {\"\": [\"50 €\", \"30 €\"], \"Damen\": [\"Präsentkorb\"]}."))
    found = {}
    for key, texts in data.items():
        if key != OVERALL and key not in categories:
            raise ValidationError(_("Die Kategorie „%(name)s“ gibt es in diesem Turnier nicht.") % {"name": key})
        checked = checked_list(key, texts, f"{key or 'Gesamt'}: ")
        if checked:
            found[key] = checked
    return {key: found[key] for key in [OVERALL, *categories] if key in found}


def prizes_text(prizes: dict[str, list[str]], categories: list[str]) -> str:
    """The settings page's lines of `prize_texts`, from what is stored: the overall prizes first, then
    the categories in the tournament's order (PostgreSQL's jsonb keeps a dict's keys in an order of its
    own, so the stored order is not the one to show)."""
    order = [OVERALL, *categories, *sorted(key for key in prizes if key != OVERALL and key not in categories)]
    return "\n".join(f"{_('Gesamt') if key == OVERALL else CATEGORIES.get(key, key)}: " + "; ".join(prizes[key])
                     for key in order if key in prizes)


def default_rules():
    return scoring.DEFAULT_PRESET


class Series(models.Model):
    """Tournaments that belong together (a club's monthly evenings), with standings over all of them
    (`selectors.series_standings`, docs/series.md). Not part of a tournament's file."""

    class Mode(models.TextChoices):
        SUM = "sum", _("Summe aller Abende")
        BEST = "best", _("Summe der besten Abende")
        AVERAGE = "average", _("Durchschnitt je gespieltem Abend")
        # its tournaments are match days of teams (Tournament.team_match); docs/competitions.md
        LEAGUE = "league", _("Liga: Siegpunkte, dann Spielpunkte der Teams")
        # its tournaments are cup rounds (Tournament.cup_advance): each one a group, the best go on
        CUP = "cup", _("Pokal: je Spieltag eine Gruppe, die Besten kommen weiter")

    organisation = models.ForeignKey(Organisation, on_delete=models.PROTECT, related_name="series",
                                     verbose_name=_("Organisation"))
    name = models.CharField(_("Name"), max_length=200, validators=[VisibleName()])
    slug = models.SlugField(_("Kurzname"), max_length=80, unique=True)
    mode = models.CharField(_("Wertung"), max_length=8, choices=Mode.choices, default=Mode.SUM)
    # with Mode.BEST: how many evenings count (the best k of the n a player played)
    best_of = models.PositiveSmallIntegerField(_("beste Abende, die zählen"), default=0)
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="directed_series", blank=True)
    public = models.BooleanField(_("Serienwertung öffentlich"), default=True)
    # a season across clubs (docs/competitions.md, "A season across clubs"): the short names of the
    # organisations whose tournaments count when they name this series' short name (Tournament.season);
    # its own organisation's always do. Short names, not rows: kept in the series' history as they were
    clubs = models.JSONField(_("Vereine der Saison"), default=list, blank=True)
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
    organisation = models.ForeignKey(Organisation, on_delete=models.PROTECT, related_name="tournaments",
                                     verbose_name=_("Organisation"))
    name = models.CharField(_("Name"), max_length=200, validators=[VisibleName()])
    slug = models.SlugField(_("Kurzname"), max_length=80, unique=True, error_messages={
        "invalid": _('"%(value)s" ist kein gültiger Kurzname (nur Buchstaben, Ziffern, - und _)')})
    date = models.DateField(_("Datum"))
    place = models.CharField(_("Ort"), max_length=200, blank=True)
    # a preset id ("turnier") or {"preset": id, option: value, …} with the changed options
    rules = models.JSONField(_("Regelwerk"), default=default_rules)
    rounds_planned = models.PositiveSmallIntegerField(_("Runden"), default=3, validators=[Between(1, SMALL)])
    games_at_table_of_4 = models.PositiveSmallIntegerField(_("Spiele am 4er-Tisch"), default=8,
                                                           validators=[Between(1, SMALL)])
    games_at_table_of_5 = models.PositiveSmallIntegerField(_("Spiele am 5er-Tisch"), default=10,
                                                           validators=[Between(1, SMALL)])
    # the round timer: how long a round lasts; 0: no timer
    round_minutes = models.PositiveSmallIntegerField(_("Spielzeit je Runde (Minuten)"), default=100,
                                                     validators=[Between(0, 600)])
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
    # its results count for every Rangliste that takes the flagged tournaments (docs/competitions.md)
    counts_for_rangliste = models.BooleanField(_("zählt für die Rangliste"), default=False)
    # categories of this tournament besides the usual ones (CATEGORIES), for the prize list
    categories = models.JSONField(_("weitere Kategorien"), default=list, blank=True)
    # what each place wins, overall ("") and per category: {"": ["50 €", "30 €"], "Damen": ["Präsentkorb"]}
    # (`prize_texts`; shown on the prize list and its PDF)
    prizes = models.JSONField(_("Preise"), default=dict, blank=True)
    class Confirmation(models.TextChoices):
        IMMEDIATE = "immediate", _("sofort, ohne Bestätigung")
        SECOND_PLAYER = "second_player", _("von einem zweiten Spieler des Tisches, auf einem anderen Gerät")
        DIRECTOR = "director", _("von der Turnierleitung")

    # how a game entered at the table through its link becomes a game (see services/table_links.py)
    confirmation = models.CharField(_("Eingaben vom Tisch bestätigt"), max_length=16, choices=Confirmation.choices,
                                    default=Confirmation.SECOND_PLAYER)
    # which pages the public (players on their phones) may see without logging in
    public_overview = models.BooleanField(_("Übersicht öffentlich"), default=True)
    public_standings = models.BooleanField(_("Tabelle öffentlich"), default=True)
    public_seating = models.BooleanField(_("Tischeinteilung öffentlich"), default=True)
    public_players = models.BooleanField(_("Spielerseiten öffentlich"), default=True)
    # the rating (docs/rating.md): always computed, shown only when switched on
    rating_shown = models.BooleanField(_("Wertungszahl zeigen"), default=True)
    # each table's expected result before a round, from the ratings (docs/rating.md): off by default, and
    # not for a tournament that counts for the Rangliste (services.tournaments refuses both on)
    rating_forecast = models.BooleanField(_("Erwartung je Tisch zeigen"), default=False)
    # the public registration page (models/registration.py); 0 places: no limit
    registration_open = models.BooleanField(_("Anmeldung online offen"), default=False)
    registration_limit = models.PositiveSmallIntegerField(_("Plätze (0: unbegrenzt)"), default=0)
    # how many may wait once the places are taken (services/waiting_list.py); null: as many as the places
    registration_waiting_limit = models.PositiveSmallIntegerField(
        _("Plätze auf der Warteliste (leer: so viele wie Plätze)"), null=True, blank=True)
    # the public registration takes nobody after this moment (null: until the director closes it)
    registration_deadline = models.DateTimeField(_("Anmeldeschluss"), null=True, blank=True)
    # players check themselves in with their private link on the tournament's day, before round 1 is
    # drawn (services/registration_links.py)
    self_checkin = models.BooleanField(_("Selbst-Check-in per Handy"), default=False)
    # teams and clubs (docs/competitions.md, "In the app"): how many of a team's members count (null:
    # all; k: the best k, the same for every team), the clubs ranked as teams (null: no club ranking;
    # 0: all players count; k: the best k), and members of a team kept apart in the draw
    team_count = models.PositiveSmallIntegerField(_("Es zählen die besten"), null=True, blank=True)
    club_count = models.PositiveSmallIntegerField(_("Vereinswertung"), null=True, blank=True)
    teams_apart = models.BooleanField(_("Mitglieder eines Teams bei der Auslosung trennen"), default=False)
    # a league's match day (docs/competitions.md, "In the app: match days, league, cup"): 4 or 5 teams of
    # equal size, one player of each team at every table (seating/team_match.py), Siegpunkte 4/3/2/1
    team_match = models.BooleanField(_("Mannschaftskampf (Ligaspieltag)"), default=False)
    # a team cup round: the teams form one group, the best `cup_advance` go on (null: not a cup)
    cup_advance = models.PositiveSmallIntegerField(_("Pokal: es kommen weiter"), null=True, blank=True)
    # the short name of the season (a series, usually the association's on the hub) this tournament is a
    # match day or cup round of, set by the venue's director and carried in the tournament file; it counts
    # there when its organisation is one of the season's clubs (docs/competitions.md)
    season = models.CharField(_("Saison (Kurzname auf dem Hub)"), max_length=80, blank=True, default="",
                              db_index=True)
    # name and place folded, for the hub's calendar and search (docs/hub.md)
    search_key = SearchKeyField(sources=("name", "place"))
    created_at = models.DateTimeField(auto_now_add=True)
    version = models.PositiveIntegerField(default=1)  # of the settings
    history = kept_history("created_at", "search_key")

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("Turnier")
        verbose_name_plural = _("Turniere")
        # the hub's start page and calendar read the public tournaments by date (docs/hub.md)
        indexes = [models.Index(fields=["date"], name="tournament_date")]
        constraints = [models.CheckConstraint(
            condition=Q(team_count__isnull=True) | Q(team_count__gte=1, team_count__lte=6),
            name="tournament_team_count_1_to_6"),
            models.CheckConstraint(condition=Q(cup_advance__isnull=True) | Q(cup_advance__gte=1),
                                   name="tournament_cup_advance_at_least_1")]

    def __str__(self):
        return f"{self.name} ({self.date:%d.%m.%Y})"

    def clean(self):
        """A list with Pflichtsoli has at least one game per player: their Pflichtsoli (docs/pflichtsolo.md)."""
        if self.pflichtsoli:
            errors = {f"games_at_table_of_{size}": _("Eine Liste mit Pflichtsoli hat am %(size)ser-Tisch mindestens "
                                                     "%(size)s Spiele, eines je Pflichtsolo.") % {"size": size}
                      for size in (4, 5) if self.games_at_table(size) < size}
            if errors:
                raise ValidationError(errors)

    def unique_error_message(self, model_class, unique_check):
        if tuple(unique_check) == ("slug",):
            return ValidationError(_("Den Kurznamen %(slug)s hat schon ein anderes Turnier."), code="unique",
                                   params={"slug": self.slug})
        return super().unique_error_message(model_class, unique_check)

    @property
    def rating_on(self) -> bool:
        """The rating is shown: switched on here and by the organisation (`Organisation.rating_enabled`;
        the public pages read the organisation with the tournament's row: web/caching.tournament_by_slug)."""
        return self.rating_shown and self.organisation.rating_enabled

    def scoring_rules(self) -> scoring.Rules:
        return scoring.rules_from(self.rules)

    def games_at_table(self, size: int) -> int:
        return self.games_at_table_of_5 if size == 5 else self.games_at_table_of_4

    def category_names(self) -> list[str]:
        """The categories a player of this tournament can have: the usual ones, then its own."""
        return self.category_names_of(self.categories)

    @staticmethod
    def category_names_of(own: list[str]) -> list[str]:
        """The usual categories, then `own` (a tournament's own categories)."""
        return [*CATEGORIES, *(name for name in own if name not in CATEGORIES)]

    def list_rule(self, size: int) -> dealing.ListRule | None:
        """The list with Pflichtsoli at a table of `size` (`seating.dealing`), or None without one."""
        if not self.pflichtsoli:
            return None
        return dealing.ListRule(games=self.games_at_table(size),
                                same_dealer=self.pflichtsoli == self.Pflichtsoli.SAME_DEALER)

