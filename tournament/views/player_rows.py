"""The rows of a player's games on their page (`_player_live.html`), written in Python like the
standings' rows: through the template engine they were most of the page's cost (for 16 games
about 370 variables and 80 translations, each looked up on its own), and a player's page is
rendered again whenever their games or ranks change (docs/performance.md, "The site's frame"). Same
markup and words as the template had; every text from the data is escaped."""

from __future__ import annotations

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from .. import vocabulary
from ..ranking import signed, total_text
from ..selectors.players import SAT_OUT, PlayerLine, PlayerRound
from ..templatetags.doko import amount


class Words:
    """The words of the rows in the current language, looked up once per page."""

    def __init__(self):
        self.with_ = _("mit")
        self.won = _("gewonnen")
        self.lost = _("verloren")
        self.scoring = _("Wertung")
        self.penalty = _("Strafe")
        self.against_mate = _("(gegen einen Mitspieler)")
        self.totals = _("Endstand des Tisches (ohne einzelne Spiele)")
        self.augen = _("Re %(a)s Augen")
        self.sat_out = _("ausgesetzt (am Fünfertisch, 0 Punkte)")


def rows_html(played: PlayerRound, entry_id: int, *, show_seating: bool, show_standing: bool,
              words: Words) -> SafeString:
    """The table body's rows of one round: a game, a penalty or a table's totals per line."""
    return mark_safe("".join(line_html(line, entry_id, show_seating=show_seating, show_standing=show_standing,
                                       words=words) for line in played.lines))


def line_html(line: PlayerLine, entry_id: int, *, show_seating: bool, show_standing: bool, words: Words) -> str:
    esc = conditional_escape
    number = str(line.number) if line.number else ""
    if line.game:
        game = line.game
        mates = f" {esc(words.with_)} {', '.join(str(esc(name)) for name in line.partners)}" if (
            line.partners and show_seating) else ""
        times = f" (×{game.multiplier})" if game.multiplier > 1 else ""
        said = [esc(words.augen % {"a": game.re_augen})]
        for extra in (vocabulary.announcements(game), vocabulary.sonderpunkte(game)):
            if extra:
                said.append(esc(extra))
        items = "".join(f'<li>{esc(label)} <span class="num">{esc(amount(value))}</span></li>'
                        for label, value in vocabulary.breakdown(game.breakdown))
        what = (f'<td>{esc(vocabulary.game_type(game))} <span class="party">{esc(line.party)}{mates} · '
                f'{esc(words.won if line.won else words.lost)}</span> '
                f'<details><summary>{esc(words.scoring)}{times}</summary>'
                f'<p class="muted">{" · ".join(str(part) for part in said)}</p>'
                f'<ul class="breakdown">{items}</ul></details></td>')
    elif line.kind == SAT_OUT:
        what = f'<td class="muted">{esc(words.sat_out)}</td>'
    elif line.kind == "penalty":
        offender = line.penalty.offender_id if line.penalty else None
        against = f" {esc(words.against_mate)}" if offender != entry_id else ""
        what = f"<td>{esc(words.penalty)}{against}</td>"
    else:
        what = f"<td>{esc(words.totals)}</td>"
    running = f'<td class="num">{total_text(line.running)}</td>' if show_standing else ""
    kind = ' class="penalty"' if line.kind == "penalty" else ""
    return (f'<tr{kind}><th scope="row">{number}</th>{what}<td class="num">{esc(signed(line.points))}</td>'
            f'{running}</tr>')
