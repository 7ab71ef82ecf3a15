"""Tournaments and their players: creating a tournament, registering, withdrawing and late entries."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.text import slugify
from django.utils.translation import gettext as _

import scoring

from ..errors import EntryProblems, UserError
from ..models import Entry, Player, Round, Tournament
from . import results


RESERVED_SLUGS = {"new"}  # /t/new/ creates a tournament


def unique_slug(name: str) -> str:
    base = slugify(name)[:70] or "turnier"
    slug, n = base, 2
    while slug in RESERVED_SLUGS or Tournament.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def create_tournament(*, name: str, date, director=None, place: str = "", slug: str = "", rules=scoring.DEFAULT_PRESET,
                      rounds_planned: int = 3, games_at_table_of_4: int = 8, games_at_table_of_5: int = 10,
                      tie_breakers: list | None = None) -> Tournament:
    try:
        checked = scoring.parse_rules(rules)
    except scoring.InvalidInput as error:
        raise EntryProblems(error.problems) from None
    if slug and (slug in RESERVED_SLUGS or Tournament.objects.filter(slug=slug).exists()):
        raise UserError(_("Den Kurznamen %(slug)s hat schon ein anderes Turnier.") % {"slug": slug}, field="slug")
    tournament = Tournament.objects.create(
        name=name, date=date, place=place, slug=slug or unique_slug(name), rules=scoring.rules_spec(checked),
        rounds_planned=rounds_planned, games_at_table_of_4=games_at_table_of_4,
        games_at_table_of_5=games_at_table_of_5, tie_breakers=tie_breakers or [])
    if director is not None:
        tournament.directors.add(director)
    return tournament


def first_open_round(tournament: Tournament) -> int:
    """The first round whose tables are not published yet: where a late player can start."""
    published = tournament.rounds.exclude(status=Round.Status.DRAFT).aggregate(n=Max("number"))["n"]
    return (published or 0) + 1


@transaction.atomic
def register_player(*, tournament: Tournament, name: str, club: str = "", start_number: int | None = None) -> Entry:
    """Enters a player (found by name and club, or new). Once rounds are published, the player joins
    from the next round that is not."""
    name, club = " ".join(name.split()), " ".join(club.split())
    if not name:
        raise UserError(_("Der Name fehlt."), field="name")
    if any(e.player.name == name for e in tournament.entries.select_related("player")):
        raise UserError(_("%(name)s ist schon angemeldet.") % {"name": name}, field="name")
    player = Player.objects.filter(name=name, club=club).first() or Player.objects.create(name=name, club=club)
    if start_number is None:
        start_number = (tournament.entries.aggregate(n=Max("start_number"))["n"] or 0) + 1
    elif tournament.entries.filter(start_number=start_number).exists():
        raise UserError(_("Die Startnummer %(n)s ist schon vergeben.") % {"n": start_number}, field="start_number")
    return Entry.objects.create(tournament=tournament, player=player, start_number=start_number,
                                joined_round=first_open_round(tournament))


@transaction.atomic
def register_players(*, tournament: Tournament, lines: str) -> list[Entry]:
    """Several players at once, one per line: "Name" or "Name; Verein" (or a tab or comma)."""
    entries = []
    for number, line in enumerate(lines.splitlines(), start=1):
        if not line.strip():
            continue
        for separator in (";", "\t", ","):
            if separator in line:
                name, club = line.split(separator, 1)
                break
        else:
            name, club = line, ""
        try:
            entries.append(register_player(tournament=tournament, name=name, club=club))
        except UserError as error:
            raise UserError(_("Zeile %(line)s: %(message)s") % {"line": number, "message": error.message}) from None
    return entries


@transaction.atomic
def withdraw_player(*, entry: Entry) -> None:
    """The player is not seated from the next round whose tables are not published; results stay."""
    entry.withdrawn_from_round = first_open_round(entry.tournament)
    entry.save(update_fields=["withdrawn_from_round"])


@transaction.atomic
def return_player(*, entry: Entry) -> None:
    """A withdrawn player is seated again from the next draw on."""
    entry.withdrawn_from_round = None
    entry.save(update_fields=["withdrawn_from_round"])


@transaction.atomic
def update_tournament(*, tournament: Tournament, fields: dict, rules) -> None:
    """Saves the tournament's settings; a changed ruleset recomputes every table (see
    results.change_rules), and a game it cannot score rolls the whole change back."""
    if "slug" in fields and fields["slug"] != tournament.slug and (
            fields["slug"] in RESERVED_SLUGS or Tournament.objects.filter(slug=fields["slug"]).exists()):
        raise UserError(_("Den Kurznamen %(slug)s hat schon ein anderes Turnier.") % {"slug": fields["slug"]},
                        field="slug")
    for name, value in fields.items():
        setattr(tournament, name, value)
    tournament.save()
    if rules != tournament.rules:
        results.change_rules(tournament=tournament, rules=rules)
