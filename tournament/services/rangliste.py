"""A Rangliste across tournaments: creating one and its settings, and a player's member number
(docs/competitions.md, "Rangliste in the app").

A Rangliste's changes are kept in its own history (django-simple-history, with who did it and the
action), like a series'; a member number is a change of the tournament the director edits it in
(its change log: "Mitgliedsnummer geändert").
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from ..errors import Conflict, UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Entry, Organisation, Player, Rangliste, Series
from ..validators import checked_name
from . import organisations, rangliste_refresh, tournaments
from .locking import lock_rangliste, lock_tournaments_of_player

RESERVED_SLUGS = {"new"}
MOST_MONTHS = 120
MOST_ROUNDS = 999
MOST_CUT_LINES = 10
MOST_PLAYERS = 9999
MOST_TOURNAMENT_ROUNDS = 99


@dataclass(frozen=True, kw_only=True)
class Settings:
    """What a Rangliste is set up with (the form's fields, checked by `checked`)."""

    name: str
    slug: str = ""
    source: str = Rangliste.Source.FLAGGED
    series: Series | None = None
    months: int = 24
    minimum_rounds: int = 36
    cut_lines: tuple[tuple[int, str], ...] = ()
    public: bool = True
    # an association's (source "association"): its member clubs and what a tournament needs to count
    members: tuple[Organisation, ...] = ()
    minimum_players: int = 32
    minimum_tournament_rounds: int = 3


def parse_cut_lines(text: str) -> tuple[tuple[int, str], ...]:
    """"16 Deutsche Meisterschaft" per line (place, then the label) into (place, label) pairs."""
    lines: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = " ".join(line.split())
        if not line:
            continue
        place, _space, label = line.partition(" ")
        if not place.isdigit() or not place.isascii() or not 1 <= int(place) <= 9999 or not label:
            raise UserError(_("Zeile %(n)s: erst der letzte Platz, der sich qualifiziert, dann die Bezeichnung, z. B. "
                              "„16 Deutsche Meisterschaft“.") % {"n": number}, field="cut_lines")
        if int(place) in {p for p, _l in lines}:
            raise UserError(_("Zeile %(n)s: Platz %(place)s hat schon eine Linie.") % {"n": number, "place": place},
                            field="cut_lines")
        lines.append((int(place), label[:100]))
    if len(lines) > MOST_CUT_LINES:
        raise UserError(_("Höchstens %(n)s Linien.") % {"n": MOST_CUT_LINES}, field="cut_lines")
    return tuple(sorted(lines))


def checked(settings: Settings) -> Settings:
    name = checked_name(settings.name)
    if not name:
        raise UserError(_("Der Name fehlt."), field="name")
    if settings.source not in Rangliste.Source.values:
        raise UserError(_("Diese Auswahl der Turniere gibt es nicht."), field="source")
    if settings.source == Rangliste.Source.SERIES and settings.series is None:
        raise UserError(_("Bitte die Serie wählen, deren Turniere zählen."), field="series")
    if not 1 <= settings.months <= MOST_MONTHS:
        raise UserError(_("Der Zeitraum ist 1 bis %(n)s Monate lang.") % {"n": MOST_MONTHS}, field="months")
    if not 0 <= settings.minimum_rounds <= MOST_ROUNDS:
        raise UserError(_("Die Mindestzahl der Runden ist 0 bis %(n)s.") % {"n": MOST_ROUNDS}, field="minimum_rounds")
    if not 0 <= settings.minimum_players <= MOST_PLAYERS:
        raise UserError(_("Die Mindestzahl der Spieler eines Turniers ist 0 bis %(n)s.") % {"n": MOST_PLAYERS},
                        field="minimum_players")
    if not 0 <= settings.minimum_tournament_rounds <= MOST_TOURNAMENT_ROUNDS:
        raise UserError(_("Die Mindestzahl der Runden eines Turniers ist 0 bis %(n)s.")
                        % {"n": MOST_TOURNAMENT_ROUNDS}, field="minimum_tournament_rounds")
    if settings.source == Rangliste.Source.ASSOCIATION and not settings.members:
        raise UserError(_("Bitte die Vereine wählen, deren Ranglistenturniere zählen."), field="members")
    series = settings.series if settings.source == Rangliste.Source.SERIES else None
    members = tuple(settings.members) if settings.source == Rangliste.Source.ASSOCIATION else ()
    return Settings(name=name, slug=settings.slug, source=settings.source, series=series, months=settings.months,
                    minimum_rounds=settings.minimum_rounds, cut_lines=tuple(settings.cut_lines),
                    public=settings.public, members=members, minimum_players=settings.minimum_players,
                    minimum_tournament_rounds=settings.minimum_tournament_rounds)


def _check_series_owner(settings: Settings, organisation: Organisation) -> None:
    """A Rangliste counts a series of its own organisation only; another club's series, private or not,
    is that club's (docs/security.md, "Organisations")."""
    if settings.series is not None and settings.series.organisation_id != organisation.pk:
        raise UserError(_("Diese Serie gehört zu einer anderen Organisation."), field="series")


def _check_slug(slug: str, rangliste: Rangliste | None = None) -> None:
    taken = Rangliste.objects.filter(slug=slug)
    if rangliste is not None:
        taken = taken.exclude(pk=rangliste.pk)
    if slug in RESERVED_SLUGS or taken.exists():
        raise UserError(_("Den Kurznamen %(slug)s hat schon eine andere Rangliste.") % {"slug": slug}, field="slug")


def _apply(rangliste: Rangliste, settings: Settings) -> None:
    rangliste.name, rangliste.source, rangliste.series = settings.name, settings.source, settings.series
    rangliste.months, rangliste.minimum_rounds = settings.months, settings.minimum_rounds
    rangliste.cut_lines = [[place, label] for place, label in settings.cut_lines]
    rangliste.public = settings.public
    rangliste.minimum_players = settings.minimum_players
    rangliste.minimum_tournament_rounds = settings.minimum_tournament_rounds


def create_rangliste(*, settings: Settings, director=None, organisation: Organisation | None = None,
                     by: Actor | None = None) -> Rangliste:
    settings = checked(settings)
    organisation = organisation or organisations.home_organisation(director)
    _check_series_owner(settings, organisation)
    with transaction.atomic():
        if settings.slug:
            _check_slug(settings.slug)
        by = by or (Actor(user=director) if director is not None else SYSTEM)
        with audit.recording("rangliste_created", by=by, tournament=None):
            rangliste = Rangliste(organisation=organisation, slug=settings.slug or tournaments.unique_slug(
                settings.name, model=Rangliste, fallback="rangliste", reserved=RESERVED_SLUGS))
            _apply(rangliste, settings)
            rangliste.save()
            rangliste.members.set(settings.members)
            if director is not None:
                rangliste.directors.add(director)
            rangliste_refresh.mark_stale(rangliste=rangliste)
        return rangliste


def update_rangliste(*, rangliste: Rangliste, settings: Settings, version: int | None = None,
                     by: Actor = SYSTEM) -> Rangliste:
    """Saves the settings as loaded (`version`): a change by someone else meanwhile saves nothing. An
    empty slug keeps the one it has."""
    settings = checked(settings)
    with transaction.atomic():
        rangliste = lock_rangliste(rangliste)
        if version is not None and version != rangliste.version:
            raise Conflict(_("Die Rangliste wurde inzwischen von jemand anderem geändert."), current=rangliste,
                           version=rangliste.version)
        _check_series_owner(settings, rangliste.organisation)
        slug = settings.slug or rangliste.slug
        _check_slug(slug, rangliste)
        with audit.recording("rangliste_changed", by=by, tournament=None):
            _apply(rangliste, settings)
            rangliste.slug = slug
            rangliste.version += 1
            rangliste.save()
            rangliste.members.set(settings.members)
            rangliste_refresh.mark_stale(rangliste=rangliste)
        return rangliste


def set_member_number(*, entry: Entry, member_number: str, by: Actor = SYSTEM) -> Entry:
    """The player's member number (Mitgliedsnummer; empty: none). It belongs to the organisation's
    record of the person (`Player`): a director of a tournament of that organisation changes it (the
    view lets only directors in; another club's tournaments have records of their own), every
    tournament of that record shows it, and the change is in the change log of each of them (the
    entry's record, "Mitgliedsnummer geändert"). Another player of this tournament with the same number
    is refused."""
    number = "".join(member_number.split())
    if len(number) > 20 or (number and not number.isprintable()):
        raise UserError(_("Eine Mitgliedsnummer hat höchstens 20 Zeichen, ohne Leerzeichen."), field="member_number")
    with transaction.atomic():
        player_id = Entry.objects.filter(pk=entry.pk).values_list("player_id", flat=True).get()
        # every tournament of the record, locked: each logs the change
        touched = {t.pk: t for t in lock_tournaments_of_player(player_id)}
        tournament = touched[entry.tournament_id]
        entry = tournament.entries.select_related("player").get(pk=entry.pk)
        if entry.player_id != player_id:  # pointed at another record meanwhile: that one's tournaments
            raise Conflict(_("%(name)s wurde inzwischen von jemand anderem geändert.") % {"name": entry.player.name},
                           current=entry)
        if entry.player.member_number == number:
            return entry
        if number:
            same = (Entry.objects.filter(tournament=tournament, player__member_number__iexact=number)
                    .exclude(pk=entry.pk).select_related("player").first())
            if same is not None:
                raise UserError(_("Die Mitgliedsnummer %(number)s hat schon %(name)s.")
                                % {"number": number, "name": same.player.name}, field="member_number")
        with audit.recording("member_number_changed", by=by, tournament=tournament):
            Player.objects.filter(pk=player_id).update(member_number=number)
            entry.player.member_number = number
            entry.save()  # the entry's record in the change log, with this action
        for other in touched.values():
            if other.pk != tournament.pk:
                with audit.recording("member_number_changed", by=by, tournament=other):
                    other.entries.select_related("player").get(player_id=player_id).save()
        return entry
