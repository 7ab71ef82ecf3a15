"""Small factory helpers for tournament tests (no fixture files)."""

import datetime

from django.contrib.auth import get_user_model

from seating.dealing import game_players
from tournament.models import Round
from tournament.services import editing, organisations, results, seating, tournaments

NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Emil", "Frieda", "Gustav", "Hanna", "Ida", "Jens", "Karl", "Lena",
         "Marta", "Nils", "Olga", "Paul", "Quirin", "Rita", "Sven", "Tina", "Uwe", "Vera", "Willi", "Xenia",
         "Yvonne", "Zoran"]


def player_names(n):
    return [NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else f" {i // len(NAMES) + 1}") for i in range(n)]


def make_director(username="leitung", *, organiser=True, organisation=None):
    """An account that may create tournaments (an organiser of `organisation`, else of the default
    organisation "verein": docs/security.md) unless `organiser=False`."""
    user = get_user_model().objects.create_user(username=username, password="pw-" + username)
    if organiser:
        (organisation or organisations.default_organisation()).organisers.add(user)
    return user


def make_organisation(name="DK Zweiter Verein", slug="zweiter-verein"):
    return organisations.create_organisation(name=name, slug=slug)


def make_tournament(*, players=8, rules="turnier", director=None, slug="", **kwargs):
    tournament = tournaments.create_tournament(name=kwargs.pop("name", "Herbstturnier"),
                                               date=datetime.date(2026, 11, 21),
                                               director=director, rules=rules, slug=slug, **kwargs)
    if players:
        register(tournament, [(name, "DK Nord") for name in player_names(players)])
    return tournament


def register(tournament, people):
    """Registers (name, club) pairs in one registration (one change), as a pasted list does: a test of
    registering one player calls `tournaments.register_player`. Returns the entries, in that order."""
    return tournaments.register_players_checked(
        tournament=tournament, players=[tournaments.NewPlayer(name, club) for name, club in people])


def seated_round(tournament, *, seed="test", publish=True, mode=Round.Mode.RANDOM):
    round = seating.create_round(tournament=tournament)
    seating.seat_round(round=round, mode=mode, seed=seed)
    if publish:
        seating.publish_round(round=round)
    return round


def play_round(tournament, games=2):
    """A new round, drawn and published, with `games` normal games entered at every table: all sheets
    at once (`results.enter_sheets`, the same checks as game by game, one change), as an import does;
    a test of entering games one by one calls `results.save_game`."""
    round = seated_round(tournament, seed=f"r{tournament.rounds.count() + 1}")
    sheets = []
    for table in round.tables.order_by("number"):
        seats = seat_ids(table)
        sheets.append((table, [(number, normal_game(table, number, re_augen=130 + number, seats=seats))
                               for number in range(1, games + 1)], []))
    results.enter_sheets(sheets=sheets)
    return round


def seat_ids(table):
    return [s.entry_id for s in table.seats.order_by("position")]


def normal_game(table, number=None, *, re_augen=130, re_seats=(0, 1), seats=None, **extra):
    """A normal game data dict for game `number` of `table`: Re are the given players of that game
    (`seats`: the table's entries in seat order, when the caller has read them)."""
    number = number or editing.next_game_number(table)
    _dealer, _out, players = game_players(seats or seat_ids(table), number)
    data = {"type": "normal", "re": [players[i] for i in re_seats], "re_augen": re_augen,
            "announcements": {"re": None, "kontra": None}, "extras": {}}
    data.update(extra)
    return data


def message_texts(response):
    """The django.contrib.messages a response set, as text."""
    from django.contrib.messages import get_messages

    return [str(m) for m in get_messages(response.wsgi_request)]


def re_seats(table, number, which=(0, 1)) -> str:
    """The game form's Re party ("13": seat numbers) for the given players of game `number` (indexes
    into the four who play it)."""
    seats = seat_ids(table)
    _dealer, _out, players = game_players(seats, number)
    return "".join(str(seats.index(players[i]) + 1) for i in which)
