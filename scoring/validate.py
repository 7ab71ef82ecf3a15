"""Every rule about what an entry may hold, with messages that name the field and the reason.

`parse_game`, `parse_sheet` and `parse_rules` turn JSON-like data (the format of
../shared/scoring-contract.md) into checked values, or raise `InvalidInput` with all problems found.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

from . import vocabulary
from .game import ABSAGEN, Game, score_game
from .presets import Rules, RulesError, rules_from
from .sheet import Penalty, Sheet

GAME_FIELDS = ("rules", "players", "type", "solo", "pflichtsolo", "re", "re_augen", "re_tricks", "announcements",
               "extras")
PENALTY_FIELDS = ("penalty", "players")
SHEET_FIELDS = ("rules", "players", "rows")
# how many players the Re party has, by game type
RE_SIZE = {"normal": (2,), "hochzeit": (1, 2), "stille_hochzeit": (1,), "armut": (2,), "solo": (1,)}
ANNOUNCEMENTS = {"re": ("re",) + ABSAGEN, "kontra": ("kontra",) + ABSAGEN}
# the most of a Sonderpunkt one game can hold (2 Füchse; one last trick; 16 Aces and Tens make at
# most 4 Doppelkopf tricks; the four (or six) plain Hearts make one Herzstich)
MOST_PER_GAME = {"fuchs": 2, "karlchen": 1, "karlchen_gefangen": 2, "doppelkopf": 4, "herzstich": 1}
# the Augen of the cards, 8 of each (Neunen, Buben, Damen, Könige, Zehnen, Asse); 40 cards: no nines
CARD_AUGEN = (0, 2, 3, 4, 10, 11)


def augen_range(tricks: int, rules: Rules) -> tuple[int, int]:
    """The fewest and the most Augen a party can have in `tricks` tricks: the 4 × tricks cheapest and
    dearest cards of the deck. A trick may hold 0 Augen (four nines), but 48 cards have only eight
    nines: 3 tricks hold at least 8 Augen, 5 at least 28, and 10 or 11 tricks may hold all 240 (the
    other party's tricks of four nines)."""
    cards = sorted(value for value in CARD_AUGEN if rules.deck == 48 or value > 0 for _copy in range(8))
    count = 4 * tricks
    return sum(cards[:count]), sum(cards[len(cards) - count:]) if count else 0


@dataclass(frozen=True)
class Problem:
    field: str  # the field as named in the input: "re_augen", "extras.kontra.fuchs"
    code: str  # a key of scoring.vocabulary.MESSAGES
    params: dict = dataclasses.field(default_factory=dict)
    where: str = ""  # which game of a list or row of a sheet: "[3] ", "rows[2] "

    def text(self, lang: str = "en") -> str:
        return vocabulary.text(self.code, self.params, lang)

    def sentence(self, lang: str = "en") -> str:
        """The problem as a sentence for people (the web app puts it next to the field)."""
        return vocabulary.sentence(self.code, self.params, lang)

    def line(self, lang: str = "en") -> str:
        return f"{self.where}{self.field}: {self.text(lang)}"


class InvalidInput(ValueError):
    """An entry that cannot be scored; `problems` says every reason."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(p.line() for p in problems))


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Collector:
    def __init__(self, where: str = ""):
        self.where = where
        self.problems: list[Problem] = []

    def add(self, field_name: str, code: str, **params):
        self.problems.append(Problem(field_name, code, params, self.where))

    def unknown_fields(self, data: dict, known: tuple[str, ...], prefix: str = ""):
        for key in data:
            if key not in known:
                self.add(f"{prefix}{key}", "unknown_field")

    def raise_if_any(self):
        if self.problems:
            raise InvalidInput(self.problems)


def parse_rules(spec, *, where: str = "") -> Rules:
    try:
        return rules_from(spec)
    except RulesError as error:
        raise InvalidInput([Problem(f, code, params, where) for f, code, params in error.problems]) from None


def _check_players(c: _Collector, players, expected: tuple[int, ...], name: str = "players") -> bool:
    if not isinstance(players, list):
        c.add(name, "required" if players is None else "not_list")
        return False
    if len(players) not in expected:
        c.add(name, "players_count", expected=" or ".join(map(str, expected)), got=len(players))
        return False
    if any(not isinstance(p, str) or not p.strip() for p in players) or len(set(players)) != len(players):
        c.add(name, "players_names")
        return False
    return True


def parse_game(data, rules: Rules, *, where: str = "", default_players: list | None = None) -> Game:
    c = _Collector(where)
    if not isinstance(data, dict):
        c.add("game", "not_object")
        c.raise_if_any()
    c.unknown_fields(data, GAME_FIELDS)
    players = data.get("players", default_players)
    players_ok = _check_players(c, players, (4,))

    game_type = data.get("type")
    type_ok = isinstance(game_type, str) and game_type in RE_SIZE
    if not type_ok:
        c.add("type", "required" if game_type is None else "type_not_one_of", value=game_type, types=list(RE_SIZE))

    solo = data.get("solo")
    if game_type == "solo":
        if solo is None:
            c.add("solo", "solo_missing", solos=sorted(rules.solo_kinds))
        elif not isinstance(solo, str) or solo not in rules.solo_kinds:
            c.add("solo", "solo_not_one_of", value=solo, solos=sorted(rules.solo_kinds))
    elif solo is not None:
        c.add("solo", "solo_without_type")

    pflichtsolo = data.get("pflichtsolo")
    if pflichtsolo is not None and not isinstance(pflichtsolo, bool):
        c.add("pflichtsolo", "not_boolean", value=pflichtsolo)
    elif pflichtsolo is not None and type_ok and game_type != "solo":
        c.add("pflichtsolo", "pflichtsolo_without_solo", type=game_type)

    re = data.get("re")
    re_ok = False
    if not isinstance(re, list) or not all(isinstance(p, str) for p in re):
        c.add("re", "required" if re is None else "not_list")
    elif players_ok:
        strangers = [p for p in re if p not in players]
        for name in strangers:
            c.add("re", "re_not_player", name=name)
        if len(set(re)) != len(re):
            c.add("re", "players_names")
        elif not strangers and type_ok and len(re) not in RE_SIZE[game_type]:
            c.add("re", "re_size", type=game_type, expected=" / ".join(map(str, RE_SIZE[game_type])), got=len(re))
        else:
            re_ok = not strangers

    re_augen = data.get("re_augen")
    augen_ok = is_int(re_augen) and 0 <= re_augen <= 240
    if re_augen is None:
        c.add("re_augen", "required")
    elif not is_int(re_augen):
        c.add("re_augen", "not_integer", value=re_augen)
    elif not augen_ok:
        c.add("re_augen", "out_of_range", low=0, high=240, value=re_augen)

    re_tricks = data.get("re_tricks")
    tricks_ok = re_tricks is None or (is_int(re_tricks) and 0 <= re_tricks <= rules.tricks)
    if re_tricks is not None and not is_int(re_tricks):
        c.add("re_tricks", "not_integer", value=re_tricks)
    elif not tricks_ok:
        c.add("re_tricks", "out_of_range", low=0, high=rules.tricks, value=re_tricks)

    announcements = _parse_announcements(c, data.get("announcements"))
    extras_data = data.get("extras")

    if augen_ok and tricks_ok and re_tricks is not None:
        _check_augen_against_tricks(c, re_augen, re_tricks, rules)

    extras = _parse_extras_shape(c, extras_data, rules)
    if not (players_ok and type_ok and re_ok and augen_ok and tricks_ok):
        c.raise_if_any()  # the checks below need these fields; one of the checks above complained
    game = Game(
        players=tuple(players),
        type=game_type,
        re=tuple(re),
        re_augen=re_augen,
        solo=solo if game_type == "solo" else None,
        re_tricks=re_tricks,
        announcements=announcements,
        extras=extras,
        pflichtsolo=pflichtsolo if isinstance(pflichtsolo, bool) else None,
    )
    _check_extras(c, game, rules)
    c.raise_if_any()
    return game


def _parse_announcements(c: _Collector, data) -> dict:
    result: dict[str, str | None] = {"re": None, "kontra": None}
    if data is None:
        return result
    if not isinstance(data, dict):
        c.add("announcements", "not_object")
        return result
    c.unknown_fields(data, ("re", "kontra"), "announcements.")
    for party, allowed in ANNOUNCEMENTS.items():
        value = data.get(party)
        if value is None:
            continue
        if not isinstance(value, str) or value not in allowed:
            c.add(f"announcements.{party}", "announcement_not_allowed", value=value, party=party,
                  announcements=list(allowed))
        else:
            result[party] = value
    return result


def _check_augen_against_tricks(c: _Collector, re_augen: int, re_tricks: int, rules: Rules):
    for party, augen, tricks in (("re", re_augen, re_tricks), ("kontra", 240 - re_augen, rules.tricks - re_tricks)):
        if tricks == 0 and augen > 0:
            c.add("re_augen", "no_trick_augen", party=party, augen=augen)
            return
    low, high = augen_range(re_tricks, rules)  # (Kontra's bounds follow: the other cards)
    if re_augen > high:
        c.add("re_augen", "too_many_augen_for_tricks", party="re", augen=re_augen, tricks=re_tricks, low=low,
              high=high)
    elif re_augen < low:
        c.add("re_augen", "too_few_augen_for_tricks", party="re", augen=re_augen, tricks=re_tricks, low=low,
              high=high)


def _parse_extras_shape(c: _Collector, data, rules: Rules) -> dict:
    """Checks the form of `extras` and the kinds the preset knows; returns the non-zero counts."""
    result: dict[str, dict[str, int]] = {"re": {}, "kontra": {}}
    if data is None:
        return result
    if not isinstance(data, dict):
        c.add("extras", "not_object")
        return result
    c.unknown_fields(data, ("re", "kontra"), "extras.")
    for party in ("re", "kontra"):
        counts = data.get(party)
        if counts is None:
            continue
        if not isinstance(counts, dict):
            c.add(f"extras.{party}", "not_object")
            continue
        for kind, count in counts.items():
            name = f"extras.{party}.{kind}"
            if kind not in rules.sonderpunkte:
                c.add(name, "extra_unknown_kind", value=kind, kinds=[k for k in vocabulary.TERMS["sonderpunkt"]
                                                                    if k in rules.sonderpunkte])
            elif not is_int(count):
                c.add(name, "not_integer", value=count)
            elif count < 0 or count > MOST_PER_GAME[kind]:
                c.add(name, "out_of_range", low=0, high=MOST_PER_GAME[kind], value=count)
            elif count:
                result[party][kind] = count
    return result


def _check_extras(c: _Collector, game: Game, rules: Rules):
    extras = game.extras
    solo = game.is_solo(rules)
    for party in ("re", "kontra"):
        name = party
        for kind, count in extras[party].items():
            field_name = f"extras.{party}.{kind}"
            if solo and kind not in rules.sonderpunkte_in_solo:
                c.add(field_name, "extra_in_solo", kind=kind)
            elif game.took_no_trick(party, rules):
                c.add(field_name, "extra_no_trick", party=name, kind=kind)
            elif kind == "doppelkopf" and count > game.augen(party) // 40:
                augen = game.augen(party)
                c.add(field_name, "doppelkopf_augen", party=name, augen=augen, limit=augen // 40)
    for kind, limit in MOST_PER_GAME.items():
        total = extras["re"].get(kind, 0) + extras["kontra"].get(kind, 0)
        if total > limit:
            c.add(f"extras.kontra.{kind}", "too_many_per_game", limit=limit, kind=kind, got=total)
    # Karlchen (Re) and Karlchen gefangen (Kontra), say, both claim the last trick; the same kind twice
    # is too_many_per_game above
    last_trick = [(party, kind) for party in ("re", "kontra") for kind in ("karlchen", "karlchen_gefangen")
                  if extras[party].get(kind)]
    if len({kind for _party, kind in last_trick}) > 1:
        (_first_party, first), (party, kind) = last_trick[0], last_trick[-1]
        c.add(f"extras.{party}.{kind}", "last_trick_twice", first=first, second=kind)


def parse_penalty(data: dict, sheet_players: list, *, where: str = "") -> Penalty:
    c = _Collector(where)
    c.unknown_fields(data, PENALTY_FIELDS)
    players = data.get("players")
    if players is None and len(sheet_players) == 4:
        players = list(sheet_players)
    if players is None:
        c.add("players", "row_players_required")
    elif _check_players(c, players, (4,)):
        for name in players:
            if name not in sheet_players:
                c.add("players", "row_player_not_at_table", name=name)
        offender = data.get("penalty")
        if offender not in players:
            c.add("penalty", "penalty_not_player", name=offender)
    c.raise_if_any()
    return Penalty(offender=data["penalty"], players=tuple(players or ()))


def parse_sheet(data, *, rules_override=None) -> Sheet:
    c = _Collector()
    if not isinstance(data, dict):
        c.add("sheet", "not_object")
        c.raise_if_any()
    c.unknown_fields(data, SHEET_FIELDS)
    rules_spec = rules_override if rules_override is not None else data.get("rules")
    try:
        rules = parse_rules(rules_spec)
    except InvalidInput as error:
        c.problems += error.problems
        rules = None
    players = data.get("players")
    _check_players(c, players, (4, 5))
    rows = data.get("rows")
    if not isinstance(rows, list):
        c.add("rows", "required" if rows is None else "not_list")
    c.raise_if_any()
    if rules is None or not isinstance(rows, list) or not isinstance(players, list):
        raise InvalidInput(c.problems)  # (reported above)
    parsed = []
    for index, row in enumerate(rows):
        try:
            parsed.append(_parse_row(row, rules, players, f"rows[{index}] ",
                                     row_rules_allowed=(rules_override is None, data.get("rules"))))
        except InvalidInput as error:
            c.problems += error.problems
    c.raise_if_any()
    return Sheet(rules=rules, players=tuple(players), rows=tuple(parsed))


def _parse_row(row, rules: Rules, sheet_players: list, where: str, *, row_rules_allowed: tuple):
    """A penalty or a game of a sheet. A row may repeat the sheet's rules, not name others."""
    if not isinstance(row, dict):
        raise InvalidInput([Problem("row", "not_object", {}, where)])
    if "penalty" in row:
        return parse_penalty(row, list(sheet_players), where=where)
    problems = []
    check_rules, sheet_rules = row_rules_allowed
    if check_rules and "rules" in row and row["rules"] != sheet_rules:
        problems.append(Problem("rules", "row_rules", {}, where))
    # at a table of 4 a row may leave out its players; at a table of 5 it names the 4 who played
    default_players = list(sheet_players) if len(sheet_players) == 4 else None
    if isinstance(row.get("players"), list):
        for name in row["players"]:
            if isinstance(name, str) and name not in sheet_players:
                problems.append(Problem("players", "row_player_not_at_table", {"name": name}, where))
    try:
        game = parse_game({k: v for k, v in row.items() if k != "rules"}, rules, where=where,
                          default_players=default_players)
    except InvalidInput as error:
        problems += error.problems
        game = None
    if problems:
        raise InvalidInput(problems)
    return game


# ---- the bounds of what a person may type -------------------------------------------------------------

@functools.lru_cache(maxsize=64)
def most_points_per_game(rules: Rules) -> int:
    """The most one player can win or lose in one game under `rules`: a lone player, every
    announcement, the opponents without a trick, all Sonderpunkte, doubled by a Nullspiel or Bock.
    Found by scoring the extreme games, so it follows any change of the rules. Entry forms bound the
    numbers a person may type (final totals of a sheet, say) by it."""
    players = ["a", "b", "c", "d"]
    announcements_re = (None, "re") + ABSAGEN
    announcements_kontra = (None, "kontra") + ABSAGEN
    most = 0
    for game_type, re in (("normal", ["a", "b"]), ("solo", ["a"]), ("stille_hochzeit", ["a"])):
        for re_augen in (0, 29, 30, 59, 60, 89, 90, 119, 120, 121, 151, 181, 211, 240):
            for extras in ({}, {"re": {"fuchs": 2, "doppelkopf": re_augen // 40, "karlchen": 1, "herzstich": 1}},
                           {"kontra": {"fuchs": 2, "doppelkopf": (240 - re_augen) // 40, "karlchen": 1,
                                       "herzstich": 1}}):
                for ann_re in announcements_re:
                    for ann_kontra in announcements_kontra:
                        data = {"players": players, "type": game_type, "re": re, "re_augen": re_augen,
                                "announcements": {"re": ann_re, "kontra": ann_kontra},
                                "extras": {party: {k: n for k, n in counts.items() if n and k in rules.sonderpunkte}
                                           for party, counts in extras.items()}}
                        if game_type == "solo":
                            data["solo"] = sorted(rules.solo_kinds)[0]
                        try:
                            game = parse_game(data, rules)
                        except InvalidInput:
                            continue
                        result = score_game(game, rules)
                        most = max(most, *(abs(points) for points in result.scores.values()))
    return 2 * most  # a doubled game (Nullspiel or Bock; doublings never multiply)
