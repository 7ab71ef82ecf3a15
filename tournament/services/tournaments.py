"""Tournaments and their players: creating a tournament, its settings and who directs it,
registering, withdrawing and late entries.

Every change locks the tournament's row (`locking.lock_tournament`) and records itself
(`audit.recording`); the settings carry a version like a game does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

import scoring

from .. import names, privacy, slugs
from ..errors import Conflict, EntryProblems, UserError
from ..log import audit, changelog
from ..log.audit import SYSTEM, Actor
from ..models import Entry, Organisation, Player, Round, Tournament
from ..validators import MOST_START_NUMBER, checked_name
from . import organisations, scores
from . import privacy as privacy_services
from .locking import lock_tournament

RESERVED_SLUGS = {"new"}  # /t/new/ creates a tournament
NAME_LENGTH = 120  # Player.name
CLUB_LENGTH = 120  # Player.club


@dataclass
class NewPlayer:
    """A player to register; `where` names the line of a pasted list in messages ("Zeile 3: ")."""

    name: str
    club: str = ""
    start_number: int | None = None  # None: the next free one
    joined_round: int | None = None  # None: the first round not published yet
    withdrawn_from_round: int | None = None
    where: str = ""
    present: bool = False  # checked in (services/checkin.py)
    # from a tournament file: the person's member number (empty: the Player's stays) and the categories
    member_number: str = ""
    categories: list[str] = field(default_factory=list)
    # how much of the person the public sees (privacy.py); for a record that exists, only ever stricter
    publication: str = privacy.FULL


def unique_slug(name: str, *, model=Tournament, fallback: str = "turnier", reserved=RESERVED_SLUGS) -> str:
    """A short name for the address from `name` that no other row of `model` (a tournament, a
    series, a Rangliste) has and that is not one of the `reserved` path words: "herbstturnier",
    "herbstturnier-2" (`slugs.unique_slug`: "Großes Turnier" -> "grosses-turnier")."""
    return slugs.unique_slug(name, model=model, fallback=fallback, reserved=reserved)


def create_tournament(*, name: str, date, director=None, place: str = "", slug: str = "", rules=scoring.DEFAULT_PRESET,
                      rounds_planned: int = 3, games_at_table_of_4: int = 8, games_at_table_of_5: int = 10,
                      tie_breakers: list | None = None, public: dict[str, bool] | None = None,
                      round_minutes: int = 100, pflichtsoli: str = "", ranking: str = Tournament.Ranking.POINTS,
                      categories: list[str] | None = None, organisation: Organisation | None = None,
                      counts_for_rangliste: bool = False, by: Actor | None = None,
                      prizes: dict[str, list[str]] | None = None) -> Tournament:
    """A new tournament of `organisation` (none given: the director's first, `organisations.home_organisation`)."""
    try:
        checked = scoring.parse_rules(rules)
    except scoring.InvalidInput as error:
        raise EntryProblems(error.problems) from None
    check_list_games(pflichtsoli, games_at_table_of_4, games_at_table_of_5)
    organisation = organisation or organisations.home_organisation(director)
    name = checked_name(name)
    with transaction.atomic():
        if slug and (slug in RESERVED_SLUGS or Tournament.objects.filter(slug=slug).exists()):
            raise _slug_taken(slug)
        by = by or (Actor(user=director) if director is not None else SYSTEM)
        with audit.recording("tournament_created", by=by, tournament=None):
            tournament = Tournament(
                organisation=organisation, name=name, date=date, place=place, slug=slug or unique_slug(name),
                rules=scoring.rules_spec(checked),
                rounds_planned=rounds_planned, games_at_table_of_4=games_at_table_of_4,
                games_at_table_of_5=games_at_table_of_5, tie_breakers=tie_breakers or [], round_minutes=round_minutes,
                pflichtsoli=pflichtsoli, ranking=ranking, categories=list(categories or []),
                counts_for_rangliste=counts_for_rangliste, prizes=dict(prizes or {}), **(public or {}))
            _save_new(tournament, chosen=bool(slug), name=name)
            if director is not None:
                tournament.directors.add(director)
        return tournament


def _slug_taken(slug: str) -> UserError:
    return UserError(_("Den Kurznamen %(slug)s hat schon ein anderes Turnier.") % {"slug": slug}, field="slug")


def _save_new(tournament: Tournament, *, chosen: bool, name: str) -> None:
    """Saves a new tournament. Two at once with the same short name both pass the check above (on
    PostgreSQL; SQLite lets one writer in at a time): the database refuses the second. A chosen short
    name (a form's, a restored file's) is then taken, and its creator is told; a name made up here
    from the tournament's name gets the next free one."""
    for _attempt in range(10):
        try:
            with transaction.atomic():  # a savepoint: the surrounding transaction goes on
                tournament.save()
            return
        except IntegrityError:
            if not Tournament.objects.filter(slug=tournament.slug).exists():
                raise  # not the short name
            if chosen:
                raise _slug_taken(tournament.slug) from None
            tournament.slug = unique_slug(name)
    raise _slug_taken(tournament.slug)


def check_list_games(pflichtsoli: str, games_at_table_of_4: int, games_at_table_of_5: int) -> None:
    """A list with Pflichtsoli has at least one game per player (the model's rule, `Tournament.clean`)."""
    try:
        Tournament(pflichtsoli=pflichtsoli, games_at_table_of_4=games_at_table_of_4,
                   games_at_table_of_5=games_at_table_of_5).clean()
    except ValidationError as error:
        field, [message, *_more] = next(iter(error.message_dict.items()))
        raise UserError(message, field=field) from None


def first_open_round(tournament: Tournament) -> int:
    """The first round whose tables are not published yet: where a late player can start."""
    published = tournament.rounds.exclude(status=Round.Status.DRAFT).aggregate(n=Max("number"))["n"]
    return (published or 0) + 1


def clean_name(name: str, club: str) -> tuple[str, str]:
    """A player's name and club as stored (`validators.checked_name`); refused when empty, invisible, mixing
    scripts in a word, or too long."""
    name, club = checked_name(name), checked_name(club, field="club", what="club")
    if not name:
        raise UserError(_("Der Name fehlt."), field="name")
    if len(name) > NAME_LENGTH:
        raise UserError(_("Der Name ist zu lang: höchstens %(n)s Zeichen.") % {"n": NAME_LENGTH}, field="name")
    if len(club) > CLUB_LENGTH:
        raise UserError(_("Der Verein ist zu lang: höchstens %(n)s Zeichen.") % {"n": CLUB_LENGTH}, field="club")
    return name, club


def register_player(*, tournament: Tournament, name: str, club: str = "", start_number: int | None = None,
                    publication: str = privacy.FULL, by: Actor = SYSTEM) -> Entry:
    """Enters a player (found by name and club, or new). Once rounds are published, the player joins
    from the next round that is not. `publication`: the level of a new record; a record found gets it
    only where it shows less (`services.privacy.at_least`)."""
    return register_players_checked(tournament=tournament, by=by,
                                    players=[NewPlayer(name, club, start_number, publication=publication)])[0]


@dataclass
class Registered:
    """What a pasted list registered, and the lines left out because that player is registered already
    ("Zeile 3: Anna Alt (DK Nord) ist schon angemeldet.")."""

    entries: list[Entry]
    skipped: list[str]


def register_players(*, tournament: Tournament, lines: str, by: Actor = SYSTEM) -> Registered:
    """Several players at once, one per line: "Name" or "Name; Verein" (or a tab or comma). A player
    registered already (or twice in the list) is left out and listed, the rest is registered; any other
    problem of a line saves nothing and says which line it is."""
    players = []
    for number, line in enumerate(lines.splitlines(), start=1):
        if not line.strip():
            continue
        for separator in (";", "\t", ","):
            if separator in line:
                name, club = line.split(separator, 1)
                break
        else:
            name, club = line, ""
        players.append(NewPlayer(name, club, where=_("Zeile %(line)s: ") % {"line": number}))
    return _register(tournament=tournament, players=players, by=by, skip_registered=True)


def register_players_checked(*, tournament: Tournament, players: list[NewPlayer], by: Actor = SYSTEM) -> list[Entry]:
    """Enters players in one transaction: all or none. A problem names its player by `where`
    ("Zeile 3: "); a player registered already (the same `names.identity`) is one. A handful of
    queries however many players."""
    return _register(tournament=tournament, players=players, by=by, skip_registered=False).entries


def _register(*, tournament: Tournament, players: list[NewPlayer], by: Actor, skip_registered: bool) -> Registered:
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        registered = list(tournament.entries.values_list("player_id", "player__name", "player__club"))
        # who is registered, as written: a player with the same identity is refused naming them
        taken = {names.identity(name, club): names.person_text(name, club) for _id, name, club in registered}
        taken_numbers = set(tournament.entries.values_list("start_number", flat=True))
        next_number = max(taken_numbers, default=0) + 1
        joined = first_open_round(tournament)
        wanted, skipped = [], []
        for new in players:
            where, start_number = new.where, new.start_number
            try:
                name, club = clean_name(new.name, new.club)
            except UserError as error:
                raise UserError(where + str(error.message), field=error.field) from None
            if names.identity(name, club) in taken:
                problem = where + _("%(name)s ist schon angemeldet.") % {"name": taken[names.identity(name, club)]}
                if skip_registered:
                    skipped.append(problem)
                    continue
                raise UserError(problem, field="name")
            if start_number is None:
                start_number = next_number
            elif not 1 <= start_number <= MOST_START_NUMBER:
                raise UserError(where + _("Startnummern gehen von 1 bis %(n)s.") % {"n": MOST_START_NUMBER},
                                field="start_number")
            elif start_number in taken_numbers:
                raise UserError(where + _("Die Startnummer %(n)s ist schon vergeben.") % {"n": start_number},
                                field="start_number")
            wanted.append((name, club, start_number, new.joined_round or joined, new.withdrawn_from_round, new.present,
                           new))
            taken[names.identity(name, club)] = names.person_text(name, club)
            taken_numbers.add(start_number)
            next_number = max(next_number, start_number + 1)
        _check_references([(name, club) for _id, name, club in registered], [(n, c) for n, c, *_r in wanted])
        with audit.recording("player_registered", by=by, tournament=tournament):
            people = find_or_create_players(tournament.organisation_id, [
                (name, club, new.member_number) for name, club, *_rest, new in wanted],
                levels={(name, club, new.member_number): new.publication for name, club, *_rest, new in wanted})
            entries = Entry.objects.bulk_create(
                Entry(tournament=tournament, player=people[(name, club, new.member_number)], start_number=number,
                      joined_round=joined_round, withdrawn_from_round=withdrawn, present=present,
                      categories=list(new.categories))
                for name, club, number, joined_round, withdrawn, present, new in wanted)
            if entries:
                audit.record_bulk(entries)
        for entry, (*_rest, new) in zip(entries, wanted, strict=True):
            if privacy.strictest([entry.player.publication, new.publication]) != entry.player.publication:
                privacy_services.at_least(entry=entry, level=new.publication, by=by)  # a record found
        return Registered(entries=entries, skipped=skipped)


def _check_references(registered: list[tuple[str, str]], new: list[tuple[str, str]]) -> None:
    """Refuses a new player whose name, with the club where two share a name, would read like another's
    (`names.references`: "Anna Alt (DK Nord)" without a club next to Anna Alt of DK Nord and another)."""
    people = registered + new
    seen: dict[str, int] = {}
    for index, reference in sorted(names.references((i, n, c) for i, (n, c) in enumerate(people)).items()):
        if names.folded(reference) in seen and index >= len(registered):
            name, club = people[index]
            raise UserError(_("%(name)s ist von einem anderen Spieler dieses Turniers nicht zu unterscheiden "
                              "(„%(reference)s“); bitte den Namen ergänzen.")
                            % {"name": names.person_text(name, club), "reference": reference}, field="name")
        seen.setdefault(names.folded(reference), index)


def find_or_create_players(organisation_id: int, wanted: list[tuple[str, str, str]],
                           levels: dict[tuple[str, str, str], str] | None = None
                           ) -> dict[tuple[str, str, str], Player]:
    """The organisation's Player for each (name, club, member number): without a number, the first
    record with that name and club; with one, the record with that name, club and number. Else a new
    record. A record found is never changed: a member number from a tournament file does not land on
    another record (two members of one name and club stay two people, and an earlier tournament's
    backup stays as it was); another organisation's records are never looked at. Two queries however
    many. `levels`: the publication level of a new record (default: the full name). Inside the caller's
    recording (new records are made with `bulk_create`, which sends no signals)."""
    audit.require("tournaments.find_or_create_players")
    found: dict[tuple[str, str, str], Player] = {}
    keys = list(dict.fromkeys(wanted))
    records = Player.objects.filter(organisation_id=organisation_id, name__in={name for name, *_rest in keys})
    for person in records.order_by("id"):
        found.setdefault((person.name, person.club, ""), person)
        if person.member_number:
            found.setdefault((person.name, person.club, person.member_number), person)
    missing = [Player(organisation_id=organisation_id, name=name, club=club, member_number=number,
                      publication=(levels or {}).get((name, club, number), privacy.FULL))
               for name, club, number in keys if (name, club, number) not in found]
    for person in Player.objects.bulk_create(missing):
        found[(person.name, person.club, person.member_number)] = person
    return {key: found[key] for key in keys}


def edit_player(*, entry: Entry, name: str, club: str, loaded: tuple[str, str] | None = None,
                by: Actor = SYSTEM) -> Entry:
    """Corrects a player's name or club in this tournament: a typo, a club change. `loaded` is the
    (name, club) the form showed; if someone changed them meanwhile, nothing is saved (Conflict).

    The entry is pointed at the Player with the new name and club (found or new), not the Player
    renamed: the same person's earlier tournaments keep what was written there, and the change log
    records the change as the entry's."""
    with transaction.atomic():
        tournament = lock_tournament(entry.tournament_id)
        entry = tournament.entries.select_related("player").get(pk=entry.pk)
        current = (entry.player.name, entry.player.club)
        if loaded is not None and tuple(loaded) != current:
            raise Conflict(_("%(name)s wurde inzwischen von jemand anderem geändert.") % {"name": loaded[0]},
                           current=entry, change=changelog.latest_for_entry(entry))
        name, club = clean_name(name, club)
        if (name, club) == current:
            return entry
        others = list(tournament.entries.exclude(pk=entry.pk).values_list("player__name", "player__club"))
        same = [other for other in others if names.identity(*other) == names.identity(name, club)]
        if same:
            raise UserError(_("%(name)s ist schon angemeldet.") % {"name": names.person_text(*same[0])}, field="name")
        _check_references(others, [(name, club)])
        number = entry.player.member_number  # the person's number stays with the corrected name
        # and so does their publication level, on a new record (a record found keeps its own)
        with audit.recording("player_changed", by=by, tournament=tournament):
            person = find_or_create_players(tournament.organisation_id, [(name, club, number)],
                                            levels={(name, club, number): entry.player.publication})[
                (name, club, number)]
            entry.player = person
            entry.save(update_fields=["player"])
        return entry


def withdraw_player(*, entry: Entry, by: Actor = SYSTEM) -> Entry:
    """The player is not seated from the next round whose tables are not published; results stay."""
    with transaction.atomic():
        tournament = lock_tournament(entry.tournament_id)
        entry = tournament.entries.select_related("player").get(pk=entry.pk)
        if entry.withdrawn_from_round is not None:
            return entry
        with audit.recording("player_withdrawn", by=by, tournament=tournament):
            entry.withdrawn_from_round = max(first_open_round(tournament), entry.joined_round)
            entry.save(update_fields=["withdrawn_from_round"])
        return entry


def return_player(*, entry: Entry, by: Actor = SYSTEM) -> Entry:
    """A withdrawn player is seated again from the next draw on."""
    with transaction.atomic():
        tournament = lock_tournament(entry.tournament_id)
        entry = tournament.entries.select_related("player").get(pk=entry.pk)
        if entry.withdrawn_from_round is None:
            return entry
        with audit.recording("player_returned", by=by, tournament=tournament):
            entry.withdrawn_from_round = None
            entry.save(update_fields=["withdrawn_from_round"])
        return entry


def update_tournament(*, tournament: Tournament, fields: dict, rules, version: int | None = None,
                      by: Actor = SYSTEM) -> Tournament:
    """Saves the tournament's settings as loaded (`version`); a changed ruleset recomputes every
    table (see scores.change_rules), and a game it cannot score rolls the whole change back. Games
    per table cannot go below a game already entered."""
    if "name" in fields:
        fields = {**fields, "name": checked_name(fields["name"])}
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        if version is not None and version != tournament.version:
            raise Conflict(_("Die Einstellungen wurden inzwischen geändert."), current=tournament,
                           version=tournament.version, change=changelog.latest_for_tournament(tournament))
        if "slug" in fields and fields["slug"] != tournament.slug and (
                fields["slug"] in RESERVED_SLUGS or Tournament.objects.filter(slug=fields["slug"]).exists()):
            raise UserError(_("Den Kurznamen %(slug)s hat schon ein anderes Turnier.") % {"slug": fields["slug"]},
                            field="slug")
        if fields.get("rating_forecast", tournament.rating_forecast) and fields.get(
                "counts_for_rangliste", tournament.counts_for_rangliste):
            raise UserError(_("Die Erwartung je Tisch gibt es nur bei Turnieren, die nicht für die Rangliste zählen: "
                              "dort soll keine Vorhersage am Tisch liegen."), field="rating_forecast")
        highest = scores.highest_game_numbers(tournament)
        pflichtsoli = fields.get("pflichtsoli", tournament.pflichtsoli)
        check_list_games(pflichtsoli, fields.get("games_at_table_of_4", tournament.games_at_table_of_4),
                         fields.get("games_at_table_of_5", tournament.games_at_table_of_5))
        if pflichtsoli != tournament.pflichtsoli and any(highest.values()):
            raise UserError(_("Ob mit Pflichtsoli gespielt wird und wer nach einem Pflichtsolo gibt, lässt sich nur "
                              "ändern, solange noch kein Spiel eingetragen ist."), field="pflichtsoli")
        for size, name in ((4, "games_at_table_of_4"), (5, "games_at_table_of_5")):
            changed = fields.get(name, getattr(tournament, name)) != getattr(tournament, name)
            if pflichtsoli and highest[size] and changed:
                raise UserError(_("Die Liste am %(size)ser-Tisch hat schon Spiele; ihre Länge (und damit, wann "
                                  "vorgeführt wird) lässt sich nicht mehr ändern.") % {"size": size}, field=name)
            if name in fields and fields[name] < highest[size]:
                raise UserError(_("An einem %(size)ser-Tisch ist schon Spiel %(number)s eingetragen; es können nicht "
                                  "weniger Spiele sein.") % {"size": size, "number": highest[size]}, field=name)
        with audit.recording("settings_changed", by=by, tournament=tournament):
            for name, value in fields.items():
                setattr(tournament, name, value)
            if rules != tournament.rules:
                scores.change_rules(tournament=tournament, rules=rules)
            tournament.version += 1
            tournament.save()
        return tournament


def set_role(*, tournament: Tournament, username: str, role: str, add: bool, by: Actor = SYSTEM) -> None:
    """Makes an existing account a director ("director") or helper ("helper") of the tournament, or
    takes that away. The last director cannot be removed."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise UserError(_("Ein Benutzerkonto „%(name)s“ gibt es nicht.") % {"name": username}, field="username")
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        group = tournament.directors if role == "director" else tournament.helpers
        present = group.filter(pk=user.pk).exists()
        if present == add:
            return
        if role == "director" and not add and tournament.directors.count() == 1:
            raise UserError(_("Ein Turnier braucht mindestens eine Turnierleitung."))
        with audit.recording("roles_changed", by=by, tournament=tournament):
            if add:
                group.add(user)
                (tournament.helpers if role == "director" else tournament.directors).remove(user)
            else:
                group.remove(user)
            tournament.version += 1
            tournament.save(update_fields=["version"])


def create_helper_account(*, tournament: Tournament, username: str, password: str, by: Actor = SYSTEM):
    """A new account that helps at this tournament only (a "Turnierhelfer" at the venue)."""
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    User = get_user_model()
    username = username.strip()
    if not username or len(username) > 150:
        raise UserError(_("Bitte einen Benutzernamen mit höchstens 150 Zeichen angeben."), field="username")
    if User.objects.filter(username=username).exists():
        raise UserError(_("Den Benutzernamen „%(name)s“ gibt es schon.") % {"name": username}, field="username")
    try:
        validate_password(password, User(username=username))
    except ValidationError as error:
        raise UserError(" ".join(error.messages), field="password") from None
    with transaction.atomic():
        User.objects.create_user(username=username, password=password)
        set_role(tournament=tournament, username=username, role="helper", add=True, by=by)
