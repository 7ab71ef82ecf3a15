"""One game in, winner, value, scores and breakdown out.

`score_game` takes a `Game` that `validate.parse_game` has checked and the `Rules` to apply.
The value is built as a list of breakdown items, in the order the rules count them, so that every
number can be explained: an item is (label, points) or (label, "x2") for a doubling.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .presets import SONDERPUNKT_KINDS, Rules
from .vocabulary import Label

ABSAGEN = ("keine90", "keine60", "keine30", "schwarz")
# The opponents must stay below this many Augen for the Absage to be fulfilled (schwarz: no trick).
ABSAGE_LIMIT = {"keine90": 90, "keine60": 60, "keine30": 30}
# additive scheme: Augen a party needs to "reach" against the opponents' Absage
REACHED_AGAINST = {"keine90": 120, "keine60": 90, "keine30": 60, "schwarz": 30}
# what each Sonderpunkt is worth (their order, the breakdown's, is `presets.SONDERPUNKT_KINDS`)
SONDERPUNKT_POINTS = {"fuchs": 1, "doppelkopf": 1, "karlchen": 1, "karlchen_gefangen": 1, "herzstich": 0}


@dataclass(frozen=True)
class Game:
    """One game as the players report it (already validated)."""

    players: tuple[str, ...]
    type: str
    re: tuple[str, ...]
    re_augen: int
    solo: str | None = None
    re_tricks: int | None = None
    announcements: dict = field(default_factory=lambda: {"re": None, "kontra": None})
    extras: dict = field(default_factory=lambda: {"re": {}, "kontra": {}})
    # in a list with Pflichtsoli (seating/dealing.py) a solo is marked as the soloist's Pflichtsolo
    # (True) or as a Lustsolo (False); None: not marked. It does not change the score.
    pflichtsolo: bool | None = None

    @property
    def kontra(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.re)

    def augen(self, party: str) -> int:
        return self.re_augen if party == "re" else 240 - self.re_augen

    def took_no_trick(self, party: str, rules: Rules) -> bool:
        """Schwarz is about tricks: a party with 0 Augen may still hold a trick of four nines."""
        if self.re_tricks is None:
            return self.augen(party) == 0
        tricks = self.re_tricks if party == "re" else rules.tricks - self.re_tricks
        return tricks == 0

    def announced(self, party: str) -> bool:
        return self.announcements.get(party) is not None

    def absagen(self, party: str) -> tuple[str, ...]:
        """The Absagen a party made: its highest announcement and every level before it."""
        highest = self.announcements.get(party)
        if highest not in ABSAGEN:
            return ()
        return ABSAGEN[: ABSAGEN.index(highest) + 1]

    def extra(self, party: str, kind: str) -> int:
        return self.extras.get(party, {}).get(kind, 0)

    def is_solo(self, rules: Rules) -> bool:
        """Scored as a solo: a solo, a Hochzeit without partner, or (by preset) a stille Hochzeit."""
        if self.type == "solo":
            return True
        if self.type == "hochzeit" and len(self.re) == 1:
            return rules.hochzeit_alone_is_solo
        if self.type == "stille_hochzeit":
            return rules.stille_hochzeit_is_solo
        return False

    def category(self, rules: Rules) -> str:
        return "solo" if self.is_solo(rules) else self.type


@dataclass(frozen=True)
class GameResult:
    winner: str | None  # "re", "kontra" or None when nobody won
    value: int  # what each member of the winning party gets before the lone factor (None: Re's side)
    scores: dict  # player -> points, zero-sum
    breakdown: list  # [(label, points or "x2"), …] that add up to value

    def as_json(self) -> dict:
        return {
            "winner": self.winner,
            "value": self.value,
            "scores": dict(self.scores),
            "breakdown": [list(item) for item in self.breakdown],
        }


def opponent(party: str) -> str:
    return "kontra" if party == "re" else "re"


def fulfilled(game: Game, party: str, absage: str, rules: Rules) -> bool:
    other = opponent(party)
    if absage == "schwarz":
        return game.took_no_trick(other, rules)
    return game.augen(other) < ABSAGE_LIMIT[absage]


def find_winner(game: Game, rules: Rules) -> str | None:
    """Who wins: by the Absagen if any party made some, else by the Augen."""
    made = {party: game.absagen(party) for party in ("re", "kontra")}
    kept = {party: all(fulfilled(game, party, a, rules) for a in made[party]) for party in made}
    if made["re"] and made["kontra"]:
        return "re" if kept["re"] else "kontra" if kept["kontra"] else None
    for party in ("re", "kontra"):
        if made[party]:
            return party if kept[party] else opponent(party)
    re_needs = 121
    if game.announced("kontra") and (rules.re_wins_120 == "kontra_announced" or not game.announced("re")):
        re_needs = 120
    return "re" if game.re_augen >= re_needs else "kontra"


def value_of(breakdown: list) -> int:
    """Adds up the breakdown: numbers are added, "xN" multiplies what stands so far."""
    value = 0
    for _, amount in breakdown:
        if isinstance(amount, str):
            value *= int(amount[1:])
        else:
            value += amount
    return value


def below_levels(game: Game, party: str, rules: Rules) -> list[str]:
    """The levels a party stayed below: under 90, 60, 30 Augen, and schwarz (no trick)."""
    levels = [a for a in ("keine90", "keine60", "keine30") if game.augen(party) < ABSAGE_LIMIT[a]]
    if game.took_no_trick(party, rules):
        levels.append("schwarz")
    return levels


def reached_against(game: Game, party: str) -> list[str]:
    """The opponents' Absagen against which `party` reached 120, 90, 60 or 30 Augen."""
    return [a for a in game.absagen(opponent(party)) if game.augen(party) >= REACHED_AGAINST[a]]


def counted_sonderpunkte(game: Game, rules: Rules) -> list[str]:
    kinds = rules.sonderpunkte_in_solo if game.is_solo(rules) else rules.sonderpunkte
    return [k for k in SONDERPUNKT_KINDS if k in kinds and k in rules.sonderpunkte and SONDERPUNKT_POINTS[k]]


def sonderpunkte_items(game: Game, rules: Rules, party: str) -> list:
    """Both parties' Sonderpunkte netted from `party`'s side."""
    items = []
    for side, sign in ((party, 1), (opponent(party), -1)):
        for kind in counted_sonderpunkte(game, rules):
            count = game.extra(side, kind)
            if count:
                points = sign * count * SONDERPUNKT_POINTS[kind]
                items.append((Label("sonderpunkt", kind=kind, party=side), points))
    return items


def absage_angesagt_items(game: Game) -> list:
    both = bool(game.absagen("re")) and bool(game.absagen("kontra"))
    items = []
    for party in ("re", "kontra"):
        for absage in game.absagen(party):
            label = Label("absage_said_by", absage=absage, party=party) if both else Label("absage_said", absage=absage)
            items.append((label, 1))
    return items


def winner_breakdown(game: Game, rules: Rules, winner: str) -> list:
    loser = opponent(winner)
    additive = rules.scheme == "additive"
    items: list[tuple[str, int | str]] = [(Label("gewonnen" if additive else "keine120"), 1)]
    for level in below_levels(game, loser, rules):
        items.append((Label("below", level=level, additive=additive), 1))
    if rules.lost_absage_levels:
        for absage in game.absagen(loser):
            items.append((Label("lost_absage", absage=absage), 1))
    items += absage_angesagt_items(game)
    if rules.reached_against_absage:
        for absage in reached_against(game, winner):
            items.append((Label("reached_against", augen=REACHED_AGAINST[absage], absage=absage), 1))
    if winner == "kontra" and game.category(rules) in rules.gegen_die_alten:
        items.append((Label("gegen_die_alten"), 1))
    for party in ("re", "kontra"):
        if game.announced(party):
            items.append((Label("announced", party=party), 2 if additive else "x2"))
    items += sonderpunkte_items(game, rules, winner)
    if rules.solo_lost_point and winner == "kontra" and game.is_solo(rules):
        items.append((Label("solo_lost"), rules.solo_lost_point))
    return items


def nobody_wins_breakdown(game: Game, rules: Rules) -> list:
    """Both parties missed their Absagen. Seen from Re's side."""
    items: list[tuple[str, int | str]] = [(Label("nobody_wins"), 0)]
    if rules.nobody_wins == "zero":
        return items
    if rules.nobody_wins == "levels":
        for party, sign in (("re", 1), ("kontra", -1)):
            for level in below_levels(game, opponent(party), rules):
                items.append((Label("below_by", level=level, additive=True, party=party), sign))
            for absage in reached_against(game, party):
                items.append((Label("reached_against_by", augen=REACHED_AGAINST[absage], absage=absage, party=party),
                              sign))
    return items + sonderpunkte_items(game, rules, "re")


def score_game(game: Game, rules: Rules) -> GameResult:
    winner = find_winner(game, rules)
    breakdown = winner_breakdown(game, rules, winner) if winner else nobody_wins_breakdown(game, rules)
    value = value_of(breakdown)
    return GameResult(winner=winner, value=value, scores=party_scores(game, rules, winner, value), breakdown=breakdown)


def party_scores(game: Game, rules: Rules, winner: str | None, value: int) -> dict:
    """Each winner gets `value`, each loser pays it; a lone player gets or pays lone_factor times."""
    re_each = -value if winner == "kontra" else value
    kontra_each = -re_each
    re_factor = rules.lone_factor if len(game.re) == 1 else 1
    scores = {}
    for player in game.players:
        scores[player] = re_each * re_factor if player in game.re else kontra_each
    return scores
