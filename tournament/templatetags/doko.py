"""Template filters that word a game for people: type, announcements, Sonderpunkte, breakdown."""

import re

from django import template
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from .. import ranking, vocabulary

register = template.Library()


# a game in words (tournament/vocabulary.py: the change log and the PDFs word games the same way)
register.filter("game_type", vocabulary.game_type)
register.filter("solo_mark", vocabulary.solo_mark)
register.filter("announcements", vocabulary.announcements)
register.filter("sonderpunkte", vocabulary.sonderpunkte)


@register.inclusion_tag("tournament/_round_clock.html", takes_context=True)
def round_clock(context, round, tournament):
    """The round's clock: when its time is up and how long is left (the page's script counts down),
    with the director's buttons. `tournament` is the page's (no query of its own)."""
    minutes = tournament.round_minutes
    end = round.clock_end(minutes)
    return {"round": round, "tournament": tournament, "end": end, "minutes": minutes,
            "over": end is not None and end <= timezone.now(),
            "is_director": context.get("is_director", False), "csrf_token": context.get("csrf_token")}


@register.filter
def ruleset_title(rules) -> str:
    return vocabulary.ruleset_title(rules)


@register.filter
def breakdown(items) -> list:
    """A game's breakdown (stored or just computed) as (words, amount) in the reader's language."""
    return vocabulary.breakdown(items)


@register.filter
def amount(value) -> str:
    """A breakdown amount: "×2" for a doubling, "+1"/"−1" for points."""
    if isinstance(value, str):
        return value.replace("x", "×")
    return ranking.signed(value)


@register.filter
def signed(value) -> str:
    """Points with their sign (`ranking.signed`); "" for none."""
    return "" if value is None else ranking.signed(value)


@register.filter
def total(value) -> str:
    """A total, a running total or any other number that may be below zero (Spielpunkte, a team's value,
    table points, a series' average) with a real minus sign (`ranking.total_text`), the one way every
    page and PDF writes a signed number; a decimal in the reader's format ("−2,5"); "" for none."""
    if value is None or value == "":
        return ""
    if isinstance(value, int):
        return ranking.total_text(value)
    text = formats.number_format(abs(value), use_l10n=True)
    return f"−{text}" if value < 0 else text


TABLE_ACTOR = re.compile(r"^Tisch (\d+)(?: \((.*)\))?$")


@register.filter
def actor(label) -> str:
    """Who made a change, in the reader's language. Entries through a table's link are stored with
    the German words of the time ("Tisch 3 (Anna Becker)", "Tisch 3 (alle Spieler)"): worded again."""
    found = TABLE_ACTOR.match(str(label or ""))
    if found is None:
        return label
    table, who = found.groups()
    if who == "alle Spieler":
        return _("Tisch %(table)s (alle Spieler)") % {"table": table}
    worded = _("Tisch %(table)s") % {"table": table}
    return f"{worded} ({who})" if who else worded
