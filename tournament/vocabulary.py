"""The game's words in the reader's language, for forms, pages, the phones and the printouts.

The words themselves live in `scoring/vocabulary.py`, the one place where a game term, a breakdown
item or a problem with an entry is worded in German and English. This module hands them to the app
in the language of the request being answered (`errors.language()`): lazily for what is defined at
import time (form choices, model choices), at once for what a view or template words.

English keeps the game's own terms where English-speaking players do: Re, Kontra, Doppelkopf,
Karlchen, Fuchs, Hochzeit, Armut, Bock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext as _

from scoring import vocabulary as words
from scoring.vocabulary import Label
from seating import dealing

from .errors import language


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def term(kind: str, code: str) -> str:
    """A game term as it stands in a sentence: "keine 90", "Fuchs gefangen", "trump solo"."""
    return words.term(kind, code, language())


def label(kind: str, code: str) -> str:
    """A game term as a label or a choice: "Trump solo", "Stille Hochzeit"."""
    return _capitalized(term(kind, code))


def ruleset_title(rules) -> str:
    """A ruleset's title: a preset's in the reader's language, a file's own as it came."""
    return words.ruleset_title(rules, language())


lazy_term = lazy(term, str)
lazy_label = lazy(label, str)

PARTIES = {code: lazy_term("party", code) for code in ("re", "kontra")}
GAME_TYPES = {code: lazy_label("type", code) for code in words.TERMS["type"]}
SOLOS = {code: lazy_label("solo", code) for code in words.TERMS["solo"]}
# what a party announced (its highest announcement implies the ones before it)
ANNOUNCEMENTS = {code: lazy_term("announcement", code) for code in words.TERMS["announcement"]}
ANNOUNCE_RE = [("", "—")] + [(code, ANNOUNCEMENTS[code]) for code in ("re", "keine90", "keine60", "keine30", "schwarz")]
ANNOUNCE_KONTRA = [("", "—")] + [(code, ANNOUNCEMENTS[code])
                                 for code in ("kontra", "keine90", "keine60", "keine30", "schwarz")]
SONDERPUNKTE = {code: lazy_label("sonderpunkt", code) for code in words.TERMS["sonderpunkt"]}
# the keys that stand for a Sonderpunkt in the game form's short notation ("kf" = Kontra caught a Fuchs)
SONDERPUNKT_KEYS = {"f": "fuchs", "d": "doppelkopf", "k": "karlchen", "c": "karlchen", "g": "karlchen_gefangen",
                    "h": "herzstich"}
SONDERPUNKT_KEY = {"fuchs": "f", "doppelkopf": "d", "karlchen": "k", "karlchen_gefangen": "g", "herzstich": "h"}


# ---- what a game's value is made of ---------------------------------------------------------------

def breakdown(items: Iterable) -> list[tuple[str, Any]]:
    """A breakdown in the reader's language, as (words, amount) pairs, from the engine's items or a
    game's stored ones (older games stored only the German words, which are shown as they are)."""
    lang = language()
    worded = []
    for item in items:
        text, amount = item[0], item[1]
        if isinstance(text, Label):
            text = text.text(lang)
        elif len(item) >= 4 and item[2] in words.BREAKDOWN:
            text = words.breakdown_text(item[2], item[3] or {}, lang)
        worded.append((text, amount))
    return worded


def breakdown_codes(items: Iterable) -> set[str]:
    """The codes of a stored breakdown's items ("bock", "nullspiel_doubled" ...); of an older game's
    items, which kept only the German words, those of the two that the printouts look for."""
    older = {words.breakdown_text(code, {}, "de"): code for code in ("bock", "nullspiel_doubled")}
    return {item[2] if len(item) >= 4 else older.get(item[0], "") for item in items}


def list_problems(seat_entries: Sequence, games: Mapping[int, dealing.Entered], *, rule: dealing.ListRule | None,
                  name: Callable[[Any], str], numbers: int | None = None) -> list[tuple[int, str]]:
    """What is wrong with a list's Pflicht- and Lustsoli (`seating.dealing.list_problems`), as (game
    number, sentence) in the reader's language; `name` words a player."""
    return [(problem.number, list_problem_text(problem, name))
            for problem in dealing.list_problems(seat_entries, games, rule=rule, numbers=numbers)]


def list_problem_text(problem: dealing.ListProblem, name: Callable[[Any], str]) -> str:
    if problem.kind == "no_list":
        return _("Dieses Turnier spielt ohne Pflichtsoli; ein Solo ist hier weder Pflicht- noch Lustsolo.")
    if problem.kind == "vorgefuehrt":
        return _("Die Normalspiele der Liste sind gespielt: in Spiel %(number)s wird %(name)s vorgeführt, das "
                 "Spiel ist das Pflichtsolo von %(name)s.") % {"number": problem.number, "name": name(problem.player)}
    if problem.kind == "second_pflichtsolo":
        return _("%(name)s hat das Pflichtsolo der Liste schon in Spiel %(first)s gespielt; jedes weitere Solo ist "
                 "ein Lustsolo.") % {"name": name(problem.player), "first": problem.first}
    return _("%(name)s hat das Pflichtsolo der Liste noch nicht gespielt: das erste Solo eines Spielers ist "
             "sein Pflichtsolo, Lustsoli kommen danach.") % {"name": name(problem.player)}


# ---- a game in words (the pages' filters, the change log, the PDFs) ----------------------------------

def game_type(game) -> str:
    """A game's type as a sheet names it: the solo's name for a solo, "Hochzeit ohne Partner"."""
    if game.type == "solo" and game.solo:
        return str(SOLOS.get(game.solo, game.solo))
    if game.type == "hochzeit" and len(game.re) == 1:
        return _("Hochzeit ohne Partner")
    return str(GAME_TYPES[game.type])


def solo_mark(game) -> str:
    """A solo's mark in a list with Pflichtsoli: "Pflichtsolo", "Lustsolo"; "" for any other game."""
    if game.pflichtsolo is None:
        return ""
    return label("pflichtsolo", "pflicht" if game.pflichtsolo else "lust")


def announcements(game) -> str:
    """What the parties announced: "Re: keine 90, Kontra: Kontra"."""
    parts = []
    if game.announce_re:
        parts.append(f"Re: {ANNOUNCEMENTS[game.announce_re]}")
    if game.announce_kontra:
        parts.append(f"Kontra: {ANNOUNCEMENTS[game.announce_kontra]}")
    return ", ".join(parts)


def sonderpunkte(game) -> str:
    """The Sonderpunkte of both parties: "Fuchs gefangen Re, Doppelkopf Kontra ×2"."""
    parts = []
    for party, name in PARTIES.items():
        for kind, count in (game.extras.get(party) or {}).items():
            parts.append(f"{SONDERPUNKTE.get(kind, kind)} {name}" + (f" ×{count}" if count > 1 else ""))
    return ", ".join(parts)
