"""Template filters that word a game for people: type, announcements, Sonderpunkte, breakdown."""

from django import template
from django.utils.translation import gettext as _

from scoring.game import SONDERPUNKT_LABEL

from ..forms.games import ANNOUNCE_KONTRA, ANNOUNCE_RE, SOLO_LABELS
from ..models import Game

register = template.Library()
ANNOUNCEMENT_LABEL = dict(ANNOUNCE_RE[1:] + ANNOUNCE_KONTRA[1:])


@register.filter
def game_type(game: Game) -> str:
    if game.type == Game.Type.SOLO and game.solo:
        return str(SOLO_LABELS.get(game.solo, game.solo))
    if game.type == Game.Type.HOCHZEIT and len(game.re) == 1:
        return _("Hochzeit ohne Partner")
    return str(Game.Type(game.type).label)


@register.filter
def announcements(game: Game) -> str:
    parts = []
    if game.announce_re:
        parts.append(f"Re: {ANNOUNCEMENT_LABEL[game.announce_re]}")
    if game.announce_kontra:
        parts.append(f"Kontra: {ANNOUNCEMENT_LABEL[game.announce_kontra]}")
    return ", ".join(parts)


@register.filter
def sonderpunkte(game: Game) -> str:
    parts = []
    for party, name in (("re", "Re"), ("kontra", "Kontra")):
        for kind, count in (game.extras.get(party) or {}).items():
            parts.append(f"{SONDERPUNKT_LABEL.get(kind, kind)} {name}" + (f" ×{count}" if count > 1 else ""))
    return ", ".join(parts)


@register.filter
def amount(value) -> str:
    """A breakdown amount: "×2" for a doubling, "+1"/"−1" for points."""
    if isinstance(value, str):
        return value.replace("x", "×")
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


@register.filter
def signed(value) -> str:
    if value is None:
        return ""
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"
