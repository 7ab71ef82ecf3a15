"""Who deals and who sits out (pure Python, no Django), and in a list with Pflichtsoli who must play one.

Dealing goes round the table in seat order from seat 1; at a table of 5 the dealer sits out that game.

A tournament can play each round as a **list with Pflichtsoli** (the DDV's
way, docs/pflichtsolo.md): a list of `games` games at a table is its Normalspiele plus one
Pflichtsolo per player. The first solo a player plays in the list is their Pflichtsolo, every further
one a Lustsolo. Under the DDV rule (`same_dealer`) the same dealer deals again after a Pflichtsolo,
so the deal of a game depends on the games before it. Once the Normalspiele are played, the players
whose Pflichtsolo is still open are *vorgeführt*: each remaining game is the Pflichtsolo of the one
sitting next after its dealer, and the deal passes on after it.

`deals` works all of that out from the games entered so far: it is the only place that says who
deals a game. Callers pass the seat order, the tournament's `ListRule` for the table (`Tournament.list_rule`;
None: no list, the deal goes round as it always did) and what they know of the entered games
(`entered`). `list_problems` says what is wrong with a list's games (as `ListProblem`s; the app words
them in the reader's language: `tournament.vocabulary.list_problems`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ListRule:
    """A tournament's list with Pflichtsoli at one table size."""

    games: int  # the games of the list at this table: its Normalspiele and one Pflichtsolo per player
    same_dealer: bool  # after a Pflichtsolo the same dealer deals again (DDV); else the deal passes on


@dataclass(frozen=True)
class Entered:
    """What dealing needs to know of an entered game."""

    soloist: Any  # the soloist of a game of type solo, None for every other game
    # the sheet's mark of a solo: True Pflichtsolo, False Lustsolo; None: not marked, so what the rule
    # gives it (the soloist's first solo of the list is their Pflichtsolo: `marked`)
    pflichtsolo: bool | None


def entered(game_type: str | None, re: Sequence, pflichtsolo: bool | None) -> Entered:
    """A game as `deals` sees it, from its type, Re party and mark (a model's fields or a game's data)."""
    soloist = re[0] if game_type == "solo" and len(re) == 1 else None
    return Entered(soloist=soloist, pflichtsolo=pflichtsolo)


@dataclass(frozen=True)
class Deal:
    number: int
    dealer: Any
    sitting_out: Any  # the dealer at a table of 5, else None
    players: list  # the 4 who play, in seat order
    # False: a game of a list after one that is not entered yet, so its deal may still change (a
    # vorgeführt game not entered yet changes nothing: it can only be that player's Pflichtsolo)
    known: bool = True
    open_pflichtsoli: tuple = ()  # a list's players whose Pflichtsolo is still open before this game
    played_pflichtsoli: tuple = ()  # (player, game number) of the Pflichtsoli played before this game
    vorgefuehrt: Any = None  # a list's last games: whose Pflichtsolo this game must be

    def as_tuple(self) -> tuple:
        return self.dealer, self.sitting_out, self.players


def deals(seat_entries: Sequence, count: int, *, rule: ListRule | None = None,
          games: Mapping[int, Entered] | None = None) -> list[Deal]:
    """The deal of games 1 to `count` at a table seated in this order. `games`: the entered games
    by number (numbers without a game pass the deal on, as a Normalspiel would; an unmarked solo of
    a list counts as the rule marks it)."""
    seats = list(seat_entries)
    size = len(seats)
    games = games or {}
    position = 0  # the dealer's index in `seats`
    pflicht_games = 0  # games before this one marked as a Pflichtsolo
    pflicht_of: dict = {}  # player -> the number of their Pflichtsolo
    # player -> the number of a game not entered yet that must be their Pflichtsolo (vorgeführt):
    # its deal is fixed, so the games after it are known as far as that goes
    foreseen: dict = {}
    known = True
    result = []
    for number in range(1, count + 1):
        open_ = tuple(p for p in seats if p not in pflicht_of) if rule is not None else ()
        owing = tuple(p for p in open_ if p not in foreseen)
        # the list's Normalspiele are all played: the rest are the open Pflichtsoli
        vorfuehrung = rule is not None and number - 1 - pflicht_games - len(foreseen) >= rule.games - size
        vorgefuehrt = None
        if vorfuehrung and owing:
            if size == 5 and owing == (seats[position % size],):
                position += 1  # the only one still owing their Pflichtsolo would deal and sit out
            dealer_index = position % size
            after = [seats[(dealer_index + step) % size] for step in range(1, size + 1)]
            if size == 5:
                after.remove(seats[dealer_index])
            vorgefuehrt = next(p for p in after if p in owing)
        dealer = seats[position % size]
        sitting_out = dealer if size == 5 else None
        result.append(Deal(number=number, dealer=dealer, sitting_out=sitting_out,
                           players=[p for p in seats if p != sitting_out], known=known,
                           open_pflichtsoli=open_, played_pflichtsoli=tuple(pflicht_of.items()),
                           vorgefuehrt=vorgefuehrt))
        game = games.get(number)
        if rule is not None and game is None:
            if vorgefuehrt is not None and known:
                foreseen[vorgefuehrt] = number  # it can only be their Pflichtsolo, and it passes the deal on
            else:
                known = False
        pflicht = game is not None and rule is not None and bool(marked(game, result[-1], rule).pflichtsolo)
        if game is not None and pflicht:
            pflicht_games += 1
            if game.soloist is not None:
                pflicht_of.setdefault(game.soloist, number)
        if not (pflicht and rule is not None and rule.same_dealer and not vorfuehrung):
            position += 1
    return result


def deal_of(seat_entries: Sequence, number: int, *, rule: ListRule | None = None,
            games: Mapping[int, Entered] | None = None) -> Deal:
    """The deal of game `number` (see `deals`)."""
    return deals(seat_entries, number, rule=rule, games=games)[-1]


def game_players(seat_entries: Sequence, number: int, *, rule: ListRule | None = None,
                 games: Mapping[int, Entered] | None = None) -> tuple:
    """(dealer, sitting out or None, the 4 players) of game `number` (see `deals`)."""
    return deal_of(seat_entries, number, rule=rule, games=games).as_tuple()


def marked(game: Entered, deal: Deal, rule: ListRule | None) -> Entered:
    """A solo of a list without the sheet's mark gets the one the rules give it: the soloist's first
    solo of the list is their Pflichtsolo, every further one a Lustsolo."""
    if rule is None or game.soloist is None or game.pflichtsolo is not None:
        return game
    return Entered(soloist=game.soloist, pflichtsolo=game.soloist in deal.open_pflichtsoli)


@dataclass(frozen=True)
class ListProblem:
    """What is wrong with one game of a list; `kind` says which rule it breaks:

    - "no_list": a solo marked Pflicht- or Lustsolo in a tournament without Pflichtsoli;
    - "vorgefuehrt": the Normalspiele are played, so this game is the Pflichtsolo of `player`;
    - "second_pflichtsolo": `player` played the list's Pflichtsolo already, in game `first`;
    - "lustsolo_first": `player` has not played the Pflichtsolo yet, so this solo must be it.
    """

    number: int
    kind: str
    player: Any = None
    first: int | None = None


def list_problems(seat_entries: Sequence, games: Mapping[int, Entered], *, rule: ListRule | None,
                  numbers: int | None = None) -> list[ListProblem]:
    """What is wrong with the Pflicht- and Lustsoli of a table's entered games, from game `numbers`
    on (None: all). Every game of a list is checked against the games before it: a Pflichtsolo is
    the soloist's first and only one, a Lustsolo comes after it, and once the Normalspiele are played
    each game is the Pflichtsolo of the player vorgeführt in it."""
    if rule is None:  # no list: only a mark can be wrong, and the deal does not matter
        return [ListProblem(number, "no_list") for number, game in sorted(games.items())
                if game.pflichtsolo is not None and (numbers is None or number >= numbers)]
    problems = []
    count = max(games, default=0)
    for deal in deals(seat_entries, count, rule=rule, games=games):
        game = games.get(deal.number)
        if game is None or not deal.known or (numbers is not None and deal.number < numbers):
            continue  # a game after one not entered yet is checked once the gap is filled
        problem = _problem(game, deal, rule)
        if problem is not None:
            problems.append(problem)
    return problems


def _problem(game: Entered, deal: Deal, rule: ListRule | None) -> ListProblem | None:
    if rule is None:
        return ListProblem(deal.number, "no_list") if game.pflichtsolo is not None else None
    game = marked(game, deal, rule)
    if deal.vorgefuehrt is not None:
        if game.soloist != deal.vorgefuehrt or not game.pflichtsolo:
            return ListProblem(deal.number, "vorgefuehrt", player=deal.vorgefuehrt)
        return None
    if game.soloist is None:
        return None
    if game.pflichtsolo and game.soloist not in deal.open_pflichtsoli:
        return ListProblem(deal.number, "second_pflichtsolo", player=game.soloist,
                           first=dict(deal.played_pflichtsoli)[game.soloist])
    if not game.pflichtsolo and game.soloist in deal.open_pflichtsoli:
        return ListProblem(deal.number, "lustsolo_first", player=game.soloist)
    return None
