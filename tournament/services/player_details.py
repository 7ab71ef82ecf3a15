"""What the player edit page saves besides name and club: the member number (for a Rangliste), the
publication level (docs/privacy.md) and the player's categories (Damen, Jugend, Senioren, Gast and the
tournament's own; the prize list). One transaction and one change of the tournament (its change log has
a record per part that changed)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from ..errors import UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Entry, Tournament
from . import privacy, rangliste, tournaments
from .locking import lock_tournament


def edit_player(*, entry: Entry, name: str, club: str, member_number: str, categories: list[str] | None = None,
                publication: str | None = None, loaded: tuple[str, str] | None = None, by: Actor = SYSTEM) -> Entry:
    """Name and club (`tournaments.edit_player`), the member number and the publication level of the
    Player the entry then points at (`privacy.set_publication`: in every tournament of that record), and
    the categories (None: unchanged, as `publication`). A refused part saves none of them."""
    with transaction.atomic():
        tournament = lock_tournament(entry.tournament_id)
        current = tournament.entries.select_related("player").get(pk=entry.pk)
        same_name = (loaded is None or tuple(loaded) == (current.player.name, current.player.club)) and \
            tournaments.clean_name(name, club) == (current.player.name, current.player.club)
        if same_name and "".join(member_number.split()) == current.player.member_number and (
                categories is None or [c for c in tournament.category_names() if c in categories] == current.categories
                and set(categories) <= set(tournament.category_names())) and (
                publication is None or publication == current.player.publication):
            return current  # nothing to save: no change of the tournament either
        with audit.recording("player_changed", by=by, tournament=tournament):
            entry = tournaments.edit_player(entry=entry, name=name, club=club, loaded=loaded, by=by)
            entry = rangliste.set_member_number(entry=entry, member_number=member_number, by=by)
            if categories is not None:
                entry = set_categories(entry=entry, categories=categories, by=by)
            if publication is not None:
                entry = privacy.set_publication(entry=entry, level=publication, by=by)
        return entry


def set_categories(*, entry: Entry, categories: list[str], by: Actor = SYSTEM) -> Entry:
    """The player's categories in this tournament, each one the tournament offers."""
    with transaction.atomic():
        tournament = lock_tournament(entry.tournament_id)
        entry = tournament.entries.select_related("player").get(pk=entry.pk)
        offered = tournament.category_names()
        unknown = [name for name in categories if name not in offered]
        if unknown:
            raise UserError(_("Die Kategorie „%(name)s“ gibt es in diesem Turnier nicht.") % {"name": unknown[0]},
                            field="categories")
        chosen = [name for name in offered if name in categories]
        if chosen == entry.categories:
            return entry
        with audit.recording("categories_changed", by=by, tournament=tournament):
            entry.categories = chosen
            entry.save(update_fields=["categories"])
        return entry


def set_many_categories(*, tournament: Tournament, chosen: dict[int, list[str]], by: Actor = SYSTEM) -> int:
    """The categories of many players at once (the director's table of boxes, "Kategorien"): for each
    entry id the categories ticked, each one the tournament offers; one change of the tournament.
    Entries of another tournament are refused; returns how many players' categories changed."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        offered = tournament.category_names()
        unknown = [name for ticked in chosen.values() for name in ticked if name not in offered]
        if unknown:
            raise UserError(_("Die Kategorie „%(name)s“ gibt es in diesem Turnier nicht.") % {"name": unknown[0]})
        entries = list(tournament.entries.filter(pk__in=list(chosen)))
        if len(entries) != len(chosen):
            raise UserError(_("Diese Spieler gibt es in diesem Turnier nicht (mehr); bitte die Seite neu laden."))
        changed = [entry for entry in entries
                   if [name for name in offered if name in chosen[entry.pk]] != entry.categories]
        if not changed:
            return 0
        with audit.recording("categories_changed", by=by, tournament=tournament):
            for entry in changed:
                entry.categories = [name for name in offered if name in chosen[entry.pk]]
                entry.save(update_fields=["categories"])
        return len(changed)
