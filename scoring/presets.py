"""The rulesets as data: one table of options per preset.

A preset is a `Rules` value. The algorithm in `game.py` and `sheet.py` reads these options and
never asks which preset it is running, so a director can start from a preset and change options
(`rules_from({"preset": "turnier", "penalty_points": 3})`).

Where the options come from is written in ../shared/rules.md and, for this project's own choices
where the sources are silent, in docs/scoring.md.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

# Game types where "gegen die Alten" may count. "solo" stands for every game scored as a solo
# (a solo, a Hochzeit without partner, and a stille Hochzeit where the preset scores it as a solo).
GAME_CATEGORIES = ("normal", "hochzeit", "stille_hochzeit", "armut", "solo")
SONDERPUNKT_KINDS = ("fuchs", "doppelkopf", "karlchen", "karlchen_gefangen", "herzstich")
BOCK_TRIGGERS = ("doppelkopf", "solo_lost", "herzstich", "kontra_lost", "re_and_kontra", "split_120", "nullspiel")
SOLO_KINDS_48 = ("trumpf", "karo", "kreuz", "pik", "herz", "damen", "buben", "fleischlos")


@dataclass(frozen=True)
class Rules:
    id: str
    title: str
    # "doubling": Re/Kontra double the game points, Sonderpunkte are added afterwards (seed 003).
    # "additive": Re/Kontra add 2 points each, everything is summed (DDV, Spin, international).
    scheme: str
    deck: int = 48  # 48 cards (12 tricks) or 40 cards (no nines, 10 tricks)
    # No Absage in the game: Re needs 121 Augen, or 120 when Kontra announced and
    # "kontra_only": Re did not; "kontra_announced": whatever Re did (spin).
    re_wins_120: str = "kontra_only"
    # doubling: for each Absage the losing party made, the winner also gets that level's point.
    lost_absage_levels: bool = False
    # additive: +1 for reaching 120 against "keine 90", 90 against "keine 60", 60 against
    # "keine 30" and 30 against "schwarz" announced by the opponents.
    reached_against_absage: bool = False
    # game types (see GAME_CATEGORIES) where "gegen die Alten" counts when Kontra wins
    gegen_die_alten: frozenset = frozenset(GAME_CATEGORIES)
    sonderpunkte: frozenset = frozenset({"fuchs", "doppelkopf", "karlchen"})
    # the Sonderpunkte that still count in a game scored as a solo
    sonderpunkte_in_solo: frozenset = frozenset()
    stille_hochzeit_is_solo: bool = False
    hochzeit_alone_is_solo: bool = True
    # both parties missed their Absagen: "sonderpunkte" (only net Sonderpunkte), "levels" (each
    # party's levels and reached points plus Sonderpunkte, netted) or "zero" (nothing at all)
    nobody_wins: str = "sonderpunkte"
    lone_factor: int = 3  # fixed: a lone player against three opponents keeps the game zero-sum
    # a penalty: the offender pays 3 x penalty_points, each of the other three players gets them
    penalty_points: int = 2
    # a game worth 0 makes the next game at the table count double
    nullspiel_doubles: bool = False
    bock_triggers: frozenset = frozenset()
    # games doubled per Bock trigger: a number, or 0 for "one round" (as many games as players)
    bock_length: int = 0
    bock_skips_solo: bool = False
    # points a losing soloist pays on top, added after the doublings ("Solo verloren")
    solo_lost_point: int = 0
    solo_kinds: frozenset = frozenset(SOLO_KINDS_48)

    @property
    def tricks(self) -> int:
        return self.deck // 4

    def options(self) -> dict:
        """The options as plain JSON values (sets as sorted lists), without id and title."""
        out = {}
        for field in dataclasses.fields(self):
            if field.name in ("id", "title"):
                continue
            value = getattr(self, field.name)
            out[field.name] = sorted(value) if isinstance(value, frozenset) else value
        return out


TURNIER = Rules(
    id="turnier",
    title="Regelwerk Doppelkopfturnier (Verdopplung, Nullspiel verdoppelt das nächste Spiel)",
    scheme="doubling",
    lost_absage_levels=True,
    nullspiel_doubles=True,
    penalty_points=2,
)

DDV = Rules(
    id="ddv",
    title="DDV-Turnierspielregeln (additiv)",
    scheme="additive",
    reached_against_absage=True,
    gegen_die_alten=frozenset({"normal", "hochzeit"}),
    stille_hochzeit_is_solo=True,
    nobody_wins="levels",
    penalty_points=1,
)

SPIN = Rules(
    id="spin",
    title="Spin.de Turnierregeln (additiv)",
    scheme="additive",
    re_wins_120="kontra_announced",
    gegen_die_alten=frozenset({"normal", "hochzeit", "stille_hochzeit", "armut"}),
    sonderpunkte=frozenset({"fuchs", "doppelkopf", "karlchen", "karlchen_gefangen"}),
    nobody_wins="zero",
    penalty_points=1,
)

SPIN_HAUS = dataclasses.replace(
    SPIN,
    id="spin-haus",
    title="Spin.de Hausregeln (additiv, Bockrunde nach Doppelkopf und verlorenem Solo)",
    bock_triggers=frozenset({"doppelkopf", "solo_lost"}),
    bock_length=4,
)

VIERZIG_KARTEN = Rules(
    id="40karten",
    title="40Karten.de Hausregeln (40 Karten, Verdopplung, Böcke)",
    scheme="doubling",
    deck=40,
    lost_absage_levels=True,
    sonderpunkte=frozenset({"fuchs", "doppelkopf", "karlchen", "karlchen_gefangen", "herzstich"}),
    sonderpunkte_in_solo=frozenset({"herzstich"}),
    stille_hochzeit_is_solo=True,
    penalty_points=2,
    bock_triggers=frozenset({"herzstich", "kontra_lost", "re_and_kontra", "split_120", "nullspiel"}),
    bock_length=0,
    bock_skips_solo=True,
    solo_lost_point=1,
    solo_kinds=frozenset(SOLO_KINDS_48 + ("koehler",)),
)

STANDARD = Rules(
    id="standard",
    title="Internationale Standardregeln (additiv)",
    scheme="additive",
    reached_against_absage=True,
    sonderpunkte=frozenset({"fuchs", "doppelkopf", "karlchen", "karlchen_gefangen"}),
    sonderpunkte_in_solo=frozenset({"doppelkopf"}),
    nobody_wins="levels",
    penalty_points=1,
)

PRESETS: dict[str, Rules] = {
    rules.id: rules for rules in (TURNIER, DDV, SPIN, SPIN_HAUS, VIERZIG_KARTEN, STANDARD)
}
DEFAULT_PRESET = "turnier"

# What each option may hold, for checking a director's changes.
_CHOICES = {
    "scheme": ("doubling", "additive"),
    "deck": (48, 40),
    "re_wins_120": ("kontra_only", "kontra_announced"),
    "nobody_wins": ("sonderpunkte", "levels", "zero"),
}
_SETS = {
    "gegen_die_alten": GAME_CATEGORIES,
    "sonderpunkte": SONDERPUNKT_KINDS,
    "sonderpunkte_in_solo": SONDERPUNKT_KINDS,
    "bock_triggers": BOCK_TRIGGERS,
    "solo_kinds": SOLO_KINDS_48 + ("koehler",),
}
_NUMBERS = {"penalty_points": (0, 100), "bock_length": (0, 20), "solo_lost_point": (0, 10)}


class RulesError(ValueError):
    """A rules specification that names no preset or holds an impossible option."""

    def __init__(self, problems: list[tuple[str, str, dict]]):
        # each problem: (field, message code, parameters) for scoring.messages
        self.problems = problems
        super().__init__("; ".join(f"{field}: {code}" for field, code, _ in problems))


def rules_from(spec) -> Rules:
    """A preset id, or {"preset": id, option: value, …}, or a Rules value, as Rules."""
    if isinstance(spec, Rules):
        return spec
    if spec is None:
        return PRESETS[DEFAULT_PRESET]
    if isinstance(spec, str):
        if spec not in PRESETS:
            raise RulesError([("rules", "unknown_preset", {"value": spec, "known": ", ".join(PRESETS)})])
        return PRESETS[spec]
    if not isinstance(spec, dict):
        raise RulesError([("rules", "rules_type", {})])
    preset_id = spec.get("preset", DEFAULT_PRESET)
    base = rules_from(preset_id if isinstance(preset_id, str) else repr(preset_id))
    problems = []
    changes = {}
    for name, value in spec.items():
        if name == "preset":
            continue
        field = f"rules.{name}"
        if name in _CHOICES:
            if value not in _CHOICES[name] or isinstance(value, bool):
                problems.append((field, "not_one_of", {"value": value, "allowed": ", ".join(map(str, _CHOICES[name]))}))
                continue
        elif name in _SETS:
            if not isinstance(value, list) or any(item not in _SETS[name] for item in value):
                problems.append((field, "not_subset", {"allowed": ", ".join(_SETS[name])}))
                continue
            value = frozenset(value)
        elif name in _NUMBERS:
            low, high = _NUMBERS[name]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                problems.append((field, "out_of_range", {"low": low, "high": high, "value": value}))
                continue
        elif name == "lone_factor":
            # a lone player plays against three: only 3 keeps every game zero-sum
            if value != base.lone_factor:
                problems.append((field, "lone_factor_fixed", {"value": value}))
            continue
        elif name in ("lost_absage_levels", "reached_against_absage", "stille_hochzeit_is_solo",
                      "hochzeit_alone_is_solo", "nullspiel_doubles", "bock_skips_solo"):
            if not isinstance(value, bool):
                problems.append((field, "not_boolean", {"value": value}))
                continue
        else:
            problems.append((field, "unknown_option", {}))
            continue
        changes[name] = value
    if problems:
        raise RulesError(problems)
    return dataclasses.replace(base, **changes) if changes else base


def rules_spec(rules: Rules) -> str | dict:
    """The shortest spec that `rules_from` turns back into `rules`: the preset id, or the preset with
    the options that differ from it."""
    base = PRESETS.get(rules.id)
    if base is None:
        raise ValueError(f"rules {rules.id!r} are not based on a preset")
    preset = base.options()  # once, not once per option
    changed = {name: value for name, value in rules.options().items() if preset[name] != value}
    return {"preset": rules.id, **changed} if changed else rules.id
