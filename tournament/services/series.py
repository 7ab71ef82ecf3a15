"""Series of tournaments (a club's monthly evenings): creating one and its settings, which evenings
belong to it, and merging two players who are the same person (docs/series.md).

Every change locks the series' row first (`locking.lock_series`), then a tournament's; a
tournament joining or leaving a series is in that tournament's change log (`audit.recording`), and
the series and its merges keep their own history (django-simple-history).
"""

from __future__ import annotations

import re

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import selectors
from ..errors import Conflict, UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Organisation, Series, SeriesMerge, Tournament
from ..validators import checked_name
from . import organisations, tournaments
from .locking import lock_series, lock_tournament

RESERVED_SLUGS = {"new"}  # /s/new/ creates a series
MOST_BEST_OF = 99


def unique_slug(name: str) -> str:
    return tournaments.unique_slug(name, model=Series, fallback="serie", reserved=RESERVED_SLUGS)


def _check(*, name: str, mode: str, best_of: int) -> str:
    name = checked_name(name)
    if not name:
        raise UserError(_("Der Name fehlt."), field="name")
    if mode not in Series.Mode.values:
        raise UserError(_("Diese Wertung gibt es nicht."), field="mode")
    if mode == Series.Mode.BEST and not 1 <= best_of <= MOST_BEST_OF:
        raise UserError(_("Bei der Wertung der besten Abende zählen 1 bis %(n)s Abende.") % {"n": MOST_BEST_OF},
                        field="best_of")
    return name


def _check_slug(slug: str, series: Series | None = None) -> None:
    taken = Series.objects.filter(slug=slug)
    if series is not None:
        taken = taken.exclude(pk=series.pk)
    if slug in RESERVED_SLUGS or taken.exists():
        raise UserError(_("Den Kurznamen %(slug)s hat schon eine andere Serie.") % {"slug": slug}, field="slug")


def checked_clubs(clubs: list[str] | str) -> list[str]:
    """The clubs of a season across clubs (`Series.clubs`): organisations' short names, given as a list
    or as text separated by commas, spaces or lines; each once, in the order given. Raises UserError
    naming a short name no organisation of the site has (one query)."""
    parts = re.split(r"[\s,;]+", clubs) if isinstance(clubs, str) else [str(part) for part in clubs]
    wanted = list(dict.fromkeys(part.strip() for part in parts if part.strip()))
    if not wanted:
        return []
    known = set(Organisation.objects.filter(slug__in=wanted).values_list("slug", flat=True))
    unknown = [slug for slug in wanted if slug not in known]
    if unknown:
        raise UserError(ngettext("Einen Verein mit dem Kurznamen %(slugs)s gibt es hier nicht.",
                                 "Vereine mit den Kurznamen %(slugs)s gibt es hier nicht.", len(unknown))
                        % {"slugs": ", ".join(f"„{slug}“" for slug in unknown)}, field="clubs")
    return wanted


def create_series(*, name: str, director=None, slug: str = "", mode: str = Series.Mode.SUM, best_of: int = 0,
                  public: bool = True, organisation: Organisation | None = None, by: Actor | None = None,
                  clubs: list[str] | str = "") -> Series:
    """A new series (`clubs`: for a season across clubs, the organisations whose tournaments count when
    they name its short name; `checked_clubs`)."""
    name = _check(name=name, mode=mode, best_of=best_of)
    clubs = checked_clubs(clubs)
    organisation = organisation or organisations.home_organisation(director)
    with transaction.atomic():
        if slug:
            _check_slug(slug)
        by = by or (Actor(user=director) if director is not None else SYSTEM)
        with audit.recording("series_created", by=by, tournament=None):
            series = Series.objects.create(organisation=organisation, name=name, slug=slug or unique_slug(name),
                                           mode=mode,
                                           best_of=best_of if mode == Series.Mode.BEST else 0, public=public,
                                           clubs=clubs)
            if director is not None:
                series.directors.add(director)
        return series


def update_series(*, series: Series, name: str, slug: str, mode: str, best_of: int, public: bool,
                  version: int | None = None, by: Actor = SYSTEM, clubs: list[str] | str | None = None) -> Series:
    """Saves the settings as loaded (`version`): a change by someone else meanwhile saves nothing. An
    empty `slug` keeps the one it has; `clubs` None keeps the season's clubs."""
    name = _check(name=name, mode=mode, best_of=best_of)
    checked = None if clubs is None else checked_clubs(clubs)
    with transaction.atomic():
        series = lock_series(series)
        slug = slug or series.slug
        if version is not None and version != series.version:
            raise Conflict(_("Die Serie wurde inzwischen von jemand anderem geändert."), current=series,
                           version=series.version)
        _check_slug(slug, series)
        with audit.recording("series_changed", by=by, tournament=None):
            series.name, series.slug, series.mode, series.public = name, slug, mode, public
            series.best_of = best_of if mode == Series.Mode.BEST else 0
            if checked is not None:
                series.clubs = checked
            series.version += 1
            series.save()
        # its name and whether it is public show on each of its tournaments' pages: each one's counter
        # moves (in the order of their ids, so that two such writes take the turns in the same order)
        for tournament_id in series.tournaments.order_by("pk").values_list("pk", flat=True):
            with audit.recording("series_changed", by=by, tournament=tournament_id):
                pass
        return series


def add_tournament(*, series: Series, tournament: Tournament, user, by: Actor = SYSTEM) -> Tournament:
    """The tournament becomes an evening of the series; only its director may add it, and a tournament
    belongs to one series at most."""
    with transaction.atomic():
        series = lock_series(series)
        tournament = lock_tournament(tournament)
        if not selectors.is_director(user, tournament):
            raise UserError(_("Nur wer das Turnier „%(name)s“ leitet, kann es einer Serie hinzufügen.")
                            % {"name": tournament.name})
        if tournament.series_id == series.pk:
            return tournament
        if tournament.organisation_id != series.organisation_id:
            raise UserError(_("Das Turnier „%(name)s“ gehört zu einer anderen Organisation als die Serie.")
                            % {"name": tournament.name})
        if tournament.series_id is not None:
            other = Series.objects.get(pk=tournament.series_id)
            raise UserError(_("Das Turnier „%(name)s“ gehört schon zur Serie „%(series)s“.")
                            % {"name": tournament.name, "series": other.name})
        with audit.recording("series_joined", by=by, tournament=tournament):
            tournament.series = series
            tournament.save(update_fields=["series"])
        return tournament


def remove_tournament(*, series: Series, tournament: Tournament, by: Actor = SYSTEM) -> Tournament:
    """The tournament is no longer an evening of the series (the tournament itself stays as it is)."""
    with transaction.atomic():
        series = lock_series(series)
        tournament = lock_tournament(tournament)
        if tournament.series_id != series.pk:
            return tournament
        with audit.recording("series_left", by=by, tournament=tournament):
            tournament.series = None
            tournament.save(update_fields=["series"])
        return tournament


def merge_players(*, series: Series, alias: str, same_as: str, by: Actor = SYSTEM) -> SeriesMerge:
    """From now on the player `alias` counts as the player `same_as` in this series (both identities
    as `selectors.identity_key` makes them). Two players who both played one evening cannot be the
    same person."""
    with transaction.atomic():
        series = lock_series(series)
        standings = selectors.series_standings(series)
        known = {row.key: row for row in standings.rows}
        merges = {m.alias: m.same_as for m, _a, _b in standings.merges if m.pk not in standings.blocked}
        alias_root, target_root = selectors.resolve(merges, alias), selectors.resolve(merges, same_as)
        if alias_root not in known or target_root not in known:
            raise UserError(_("Diesen Spieler gibt es in der Serie nicht (mehr)."))
        one, other = known[alias_root], known[target_root]
        if alias_root == target_root:
            raise UserError(_("%(name)s und %(other)s sind schon dieselbe Person.")
                            % {"name": selectors.person_text(one.name, one.club),
                               "other": selectors.person_text(other.name, other.club)})
        both = one.evenings & other.evenings
        if both:
            evening = next(e for e in standings.evenings if e.tournament_id in both)
            raise UserError(_("%(name)s und %(other)s haben beide beim Turnier „%(evening)s“ gespielt; das können "
                              "nicht dieselben Personen sein.")
                            % {"name": selectors.person_text(one.name, one.club),
                               "other": selectors.person_text(other.name, other.club), "evening": evening.name})
        with audit.recording("players_merged", by=by, tournament=None):
            merge = SeriesMerge.objects.create(series=series, alias=alias_root, same_as=target_root)
            series.version += 1
            series.save(update_fields=["version"])
        return merge


def unmerge_players(*, series: Series, merge_id: int, by: Actor = SYSTEM) -> None:
    """Undoes a merge: the two count as two players again (merges into either stay)."""
    with transaction.atomic():
        series = lock_series(series)
        merge = series.merges.filter(pk=merge_id).first()
        if merge is None:
            return
        with audit.recording("players_unmerged", by=by, tournament=None):
            merge.delete()
            series.version += 1
            series.save(update_fields=["version"])
