"""The help page (/hilfe/): the evening's flow, the keyboard entry, the phones, and the rulesets.

The text is a page per language (templates/help/de.html, en.html): a long explanation reads better
written as a whole than as a hundred translated snippets. The table of rulesets is made from the
presets themselves, so it cannot fall behind them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import scoring
from scoring import vocabulary as words

from ..errors import language


@dataclass
class PresetRow:
    id: str
    title: str
    scheme: str
    deck: int
    sonderpunkte: str
    special: list[str]
    penalty: str


def preset_rows(lang: str) -> list[PresetRow]:
    """What sets each preset apart, in the reader's language, from its options (scoring/presets.py)."""
    rows = []
    for preset_id, rules in scoring.PRESETS.items():
        special = []
        if rules.nullspiel_doubles:
            special.append(_("ein Nullspiel verdoppelt das nächste Spiel"))
        if rules.bock_triggers:
            triggers = ", ".join(words.term("bock_trigger", t, lang)
                                 for t in scoring.presets.BOCK_TRIGGERS if t in rules.bock_triggers)
            length = (ngettext("%(n)s Spiel", "%(n)s Spiele", rules.bock_length) % {"n": rules.bock_length}
                      if rules.bock_length else _("eine Runde"))
            special.append(_("Bock (%(length)s) nach: %(triggers)s") % {"length": length, "triggers": triggers})
        if rules.solo_lost_point:
            special.append(_("verlorenes Solo +%(n)s") % {"n": rules.solo_lost_point})
        if rules.stille_hochzeit_is_solo:
            special.append(_("stille Hochzeit zählt als Solo"))
        if rules.reached_against_absage:
            special.append(_("Punkte für 120 gegen keine 90 usw."))
        if "koehler" in rules.solo_kinds:
            special.append(_("Köhler-Solo"))
        rows.append(PresetRow(
            id=preset_id, title=words.ruleset_title(rules, lang),
            scheme=_("Verdopplung (Re/Kontra ×2)") if rules.scheme == "doubling" else _("additiv (Re/Kontra +2)"),
            deck=rules.deck,
            sonderpunkte=", ".join(words.term("sonderpunkt", kind, lang) for kind in words.TERMS["sonderpunkt"]
                                   if kind in rules.sonderpunkte),
            special=special,
            penalty=_("−%(offender)s, die drei anderen je +%(each)s")
            % {"offender": 3 * rules.penalty_points, "each": rules.penalty_points},
        ))
    return rows


def help_page(request):
    lang = language()
    return render(request, f"help/{lang}.html", {"presets": preset_rows(lang)})
