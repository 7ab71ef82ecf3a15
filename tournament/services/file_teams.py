"""What a tournament file says about teams and categories (docs/tournament-file.md): the
tournament's own categories and team options, each player's member number and categories, and the
teams with their members by start number. Called by `file_checks.check_file`; each value is checked
where its rule lives (the tournament's categories by `models.tournaments.own_categories`, a team's
name and a member number by their models, the team options' ranges and a team's size as the teams
page has them, `services.teams`); only the references are the file's own: a member is a start number
of the player list, a player is in one team.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .. import privacy
from ..errors import UserError
from ..models import Entry, Player, Team
from ..models.teams import MAX_MEMBERS, MIN_MEMBERS
from ..models.tournaments import checked_prizes, own_categories
from ..names import clean, folded
from ..validators import SMALL
from .file_reading import Checker, Plan, PlannedPlayer, PlannedTeam, is_int, shown
from .teams import MOST_CUP_ADVANCE, checked_season, clash_sentence

TEAM_KEYS = ("name", "members")


def check_tournament(c: Checker, data: dict, plan: Plan) -> None:
    """The tournament's own categories and its team options, set on the plan's unsaved tournament."""
    tournament = plan.tournament
    parts = c.listed("", data, "categories")
    if parts is not None:
        if any(not isinstance(part, str) for part in parts):
            wrong = next(part for part in parts if not isinstance(part, str))
            c.add("", "categories: " + _("muss ein Text sein, nicht %(value)s") % {"value": shown(wrong)})
        else:
            try:
                tournament.categories = own_categories(parts)
            except ValidationError as error:
                c.add("", "categories: " + " ".join(error.messages))
    if data.get("prizes"):
        try:
            tournament.prizes = checked_prizes(data["prizes"], tournament.category_names())
        except ValidationError as error:
            c.add("", "prizes: " + " ".join(error.messages))
    tournament.team_count = c.number("", data, "team_count", low=1, high=MAX_MEMBERS)
    tournament.club_count = c.number("", data, "club_count", low=0, high=SMALL)
    tournament.cup_advance = c.number("", data, "cup_advance", low=1, high=MOST_CUP_ADVANCE)
    tournament.teams_apart = bool(c.flag("", data, "teams_apart", False))
    tournament.team_match = bool(c.flag("", data, "team_match", False))
    season = c.text("", data, "season") or ""
    try:
        tournament.season = checked_season(season)
    except UserError as error:
        c.add("", "season: " + error.message)


def check_player(c: Checker, where: str, item: dict, person: Player, entry: Entry, plan: Plan,
                 numbers: dict[str, str]) -> tuple[str, list[str]]:
    """A player's member number (spaces dropped, at most 20 characters, once in the file: `numbers`,
    folded number -> name), publication level (set on `person`) and categories (each one the tournament
    offers, in its order)."""
    number = c.text(where, item, "member_number")
    number = "".join(number.split()) if number else ""
    if number and not number.isprintable():
        c.add(where, "member_number: " + _("Eine Mitgliedsnummer hat höchstens 20 Zeichen, ohne Leerzeichen."))
        number = ""
    elif number and c.model(where, person, {"member_number": number}):
        number = ""
    elif number:
        if number.casefold() in numbers:
            c.add(where, "member_number: " + _("Die Mitgliedsnummer %(number)s hat schon %(name)s.")
                  % {"number": number, "name": numbers[number.casefold()]})
        numbers.setdefault(number.casefold(), person.name or "")
    # the publication level (docs/privacy.md; older files have none: the full name); a refused one is
    # reported, and the player is then planned as not published
    if c.model(where, person, {"publication": c.text(where, item, "publication", default=privacy.FULL)},
               fallback={"publication": privacy.HIDDEN}):
        person.publication = privacy.HIDDEN
    chosen = c.listed(where, item, "categories") or []
    offered = plan.tournament.category_names()
    for name in chosen:
        if not isinstance(name, str) or name not in offered:
            c.add(where, "categories: " + _("Die Kategorie „%(name)s“ gibt es in diesem Turnier nicht.")
                  % {"name": name if isinstance(name, str) else shown(name)})
    entry.categories = [name for name in offered if name in chosen]
    return number, entry.categories


def check_teams(c: Checker, data: dict, plan: Plan) -> None:
    """The teams (optional): a name once, 2 to 6 members given by their start numbers in the player
    list, a player in one team."""
    players: dict[int, PlannedPlayer] = {p.entry.start_number: p for p in plan.players if p.entry.start_number}
    names: dict[str, str] = {}  # folded name (as the league compares them) -> the name as written
    team_of: dict[int, str] = {}  # start number -> the team it is in
    for index, item in enumerate(c.listed("", data, "teams") or [], start=1):
        where = _("Team %(index)s") % {"index": index}
        if not isinstance(item, dict):
            c.engine(where, "team", "not_object")
            continue
        c.unknown(where, item, TEAM_KEYS)
        name = c.text(where, item, "name", required=True)
        if name and c.model(where, Team(), {"name": name}):  # (nothing visible, scripts mixed: the model's rule)
            name = None
        name = clean(name) if name else None  # as the teams page stores it (`names.clean`)
        if name is not None and folded(name) in names:
            other = names[folded(name)]
            c.add(where, "name: " + (_("Ein Team „%(name)s“ gibt es schon.") % {"name": name} if other == name
                                     else clash_sentence(name, other)))
        members = c.listed(where, item, "members", required=True)
        if members is None:
            continue
        ok = name is not None
        if len(set(map(shown, members))) != len(members):
            c.add(where, "members: " + _("Ein Spieler steht zweimal in der Liste."))
            ok = False
        elif not MIN_MEMBERS <= len(members) <= MAX_MEMBERS:
            c.add(where, "members: " + _("Ein Team hat %(min)s bis %(max)s Mitglieder, nicht %(n)s.")
                  % {"min": MIN_MEMBERS, "max": MAX_MEMBERS, "n": len(members)})
            ok = False
        for index_, number in enumerate(members):
            if number in members[:index_]:
                continue  # said above
            if not is_int(number, high=2**31) or number not in players:
                c.add(where, "members: " + _("%(value)s ist keine Startnummer der Spielerliste")
                      % {"value": shown(number)})
                ok = False
            elif number in team_of:
                c.add(where, "members: " + _("%(name)s ist schon im Team „%(team)s“.")
                      % {"name": players[number].ref, "team": team_of[number]})
                ok = False
            else:
                team_of[number] = name or where
        if name is not None:
            names.setdefault(folded(name), name)
        if ok and name is not None:
            plan.teams.append(PlannedTeam(name, sorted(members)))
