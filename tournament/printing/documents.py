"""What goes on paper: the HTML of each printout, read from the database, for `render.py`.

Everything a page shows is worked out here in plain Python (rows, cells, texts), so the templates in
templates/print/ only lay it out, and rendering 250 sheets' HTML stays cheap. The HTML holds no
clock time: the same data gives the same HTML, which is the cache key of its PDF.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from seating import dealing

from .. import ranking, selectors, vocabulary
from ..collation import name_key
from ..models import Entry, Game, Round, Table, Tournament
from ..templatetags.doko import signed
from ..vocabulary import game_type
from ..web.qrcodes import qr_svg

# Abbreviations on the sheet, explained in its legend.
ANNOUNCE_ABBR = {"keine90": "k90", "keine60": "k60", "keine30": "k30", "schwarz": "sw"}
SONDERPUNKT_ABBR = {"fuchs": "F", "doppelkopf": "D", "karlchen": "K", "karlchen_gefangen": "KG", "herzstich": "H"}
WINNER_ABBR = {"re": "Re", "kontra": "Ko", "": "–"}
# a solo's mark in a list with Pflichtsoli (docs/pflichtsolo.md)
PFLICHT_ABBR = {True: "P", False: "L"}

# Room for the rows of a sheet (A4 landscape, after header, column heads, totals, signatures, legend).
SHEET_ROWS_MM = 104
ROW_MM_MAX = 10.0  # roomy enough to write in by hand
ROW_MM_MIN = 5.0  # one line of 8pt text
# a long list (a DDV list: 24 games at a table of 4, 30 at a table of 5) is printed compact, 7.5pt
# text in rows of at least this height, so that the sheet with its signatures stays on one page
COMPACT_FROM_ROWS = 22
ROW_MM_MIN_COMPACT = 3.4
BLANK_PENALTY_ROWS = 2


def number_text(value: int) -> str:
    """A total as printed: with a real minus sign."""
    return f"−{-value}" if value < 0 else str(value)


def footer(tournament: Tournament) -> str:
    parts = [tournament.name, date_format(tournament.date, "DATE_FORMAT")]
    if tournament.place:
        parts.append(tournament.place)
    return " · ".join(parts)


# ---- score sheets --------------------------------------------------------------------------------

@dataclass
class Cell:
    points: str = ""
    running: str = ""
    out: bool = False  # this player sits out the game (table of 5) or was not in it (penalty)


@dataclass
class Row:
    kind: str  # "game" (entered), "open" (not entered: ruled for writing), "penalty"
    number: str = ""
    dealer: str = ""
    type: str = ""
    re: str = ""
    augen: str = ""
    announcements: str = ""
    sonderpunkte: str = ""
    value: str = ""
    multiplier: str = ""
    label: str = ""  # a penalty's text
    cells: list[Cell] = field(default_factory=list)


def announcements_text(game: Game) -> str:
    parts = []
    if game.announce_re:
        parts.append("Re" + (" " + ANNOUNCE_ABBR[game.announce_re] if game.announce_re in ANNOUNCE_ABBR else ""))
    if game.announce_kontra:
        parts.append("Ko" + (" " + ANNOUNCE_ABBR[game.announce_kontra]
                             if game.announce_kontra in ANNOUNCE_ABBR else ""))
    return ", ".join(parts)


def sonderpunkte_text(game: Game) -> str:
    parts = []
    for party, name in (("re", "Re"), ("kontra", "Ko")):
        items = [(f"{count}×" if count > 1 else "") + SONDERPUNKT_ABBR.get(kind, kind)
                 for kind, count in (game.extras.get(party) or {}).items() if count]
        if items:
            parts.append(f"{name} {' '.join(items)}")
    return ", ".join(parts)


def augen_text(game: Game, rules) -> str:
    """Re's Augen; the tricks only where the Augen do not tell them (0 Augen with a trick, schwarz)."""
    tricks = game.re_tricks
    if tricks is not None and (game.re_augen in (0, 240) or tricks in (0, rules.tricks)):
        return _("%(augen)s (%(tricks)s St.)") % {"augen": game.re_augen, "tricks": tricks}
    return str(game.re_augen)


def multiplier_text(game: Game) -> str:
    if game.multiplier <= 1:
        return ""
    codes = vocabulary.breakdown_codes(game.breakdown)
    reason = _("Bock") if "bock" in codes else _("Null") if "nullspiel_doubled" in codes else ""
    return f"×{game.multiplier} {reason}".strip()


def _seat_label(position: int, entry: Entry) -> str:
    return f"{position} {entry.player.name}"


def _open_row(number: int, dealer_pos: int, dealer: Entry, out_id: int | None, entries: list[Entry], *,
              known: bool = True, vorgefuehrt: Entry | None = None) -> Row:
    """A row to write a game in. In a list with Pflichtsoli a later row's dealer is not known yet
    (`known`: after a Pflichtsolo the same dealer deals again): the players write it in. A row of the
    list's end names the player vorgeführt in it, as the soloist (Re) of a Pflichtsolo."""
    if not known:
        return Row(kind="open", number=str(number), cells=[Cell() for _e in entries])
    row = Row(kind="open", number=str(number), dealer=_seat_label(dealer_pos, dealer),
              cells=[Cell(out=e.id == out_id) for e in entries])
    if vorgefuehrt is not None:
        row.type = "S … " + PFLICHT_ABBR[True] + " " + _("vorg.")
        row.re = str(entries.index(vorgefuehrt) + 1)
    return row


def _penalty_row(penalty, points: list[int], running: list[int], entries: list[Entry]) -> Row:
    label = _("Strafe: %(name)s") % {"name": penalty.offender.player.name}
    if penalty.note:
        label += f" ({penalty.note})"
    players = set(penalty.players)
    return Row(kind="penalty", label=label, cells=[
        Cell(points=signed(p), running=number_text(r), out=e.id not in players)
        for e, p, r in zip(entries, points, running, strict=True)])


def blank_rows(tournament: Tournament, entries: list[Entry]) -> list[Row]:
    ids = [e.id for e in entries]
    by_id = {e.id: e for e in entries}
    rows = []
    rule = tournament.list_rule(len(ids))
    for deal in dealing.deals(ids, tournament.games_at_table(len(entries)), rule=rule):
        rows.append(_open_row(deal.number, ids.index(deal.dealer) + 1, by_id[deal.dealer], deal.sitting_out, entries,
                              known=deal.known))
    return rows + blank_penalty_rows(entries)


def blank_penalty_rows(entries: list[Entry]) -> list[Row]:
    """Rows for the penalties the players write in by hand."""
    return [Row(kind="penalty", label=_("Strafe:"), cells=[Cell() for _e in entries])
            for _i in range(BLANK_PENALTY_ROWS)]


def filled_rows(sheet: selectors.TableSheet, rules) -> list[Row]:
    entries = sheet.entries
    position = {e.id: i + 1 for i, e in enumerate(entries)}
    rows = []
    for line in sheet.lines:
        out_id = line.sitting_out.id if line.sitting_out else None
        game = line.game
        if game is None:
            rows.append(_open_row(line.number, position[line.dealer.id], line.dealer, out_id, entries,
                                  known=line.dealer_known, vorgefuehrt=line.vorgefuehrt))
        else:
            mark = (PFLICHT_ABBR[game.pflichtsolo] if game.pflichtsolo is not None else "") \
                + (" " + _("vorg.") if line.vorgefuehrt else "")
            rows.append(Row(
                kind="game", number=str(line.number), dealer=_seat_label(position[line.dealer.id], line.dealer),
                type=f"{game_type(game)} {mark}".strip(),
                re="+".join(str(position[e]) for e in game.re if e in position),
                augen=augen_text(game, rules),
                announcements=announcements_text(game), sonderpunkte=sonderpunkte_text(game),
                value=f"{WINNER_ABBR.get(game.winner, game.winner)} {game.value}", multiplier=multiplier_text(game),
                cells=[Cell(out=True) if p is None else Cell(points=signed(p), running=number_text(r))
                       for p, r in zip(line.points, line.running, strict=True)]))
        rows += [_penalty_row(penalty, points, running, entries) for penalty, points, running in line.penalties]
    rows += [_penalty_row(penalty, points, running, entries) for penalty, points, running in sheet.loose_penalties]
    return rows


def pflichtsolo_cells(sheet: selectors.TableSheet | None, entries: list[Entry]) -> list[str]:
    """Per player, the game of their Pflichtsolo ("" on a blank sheet, to write in), "offen" while
    it is not played, or the game they are vorgeführt in."""
    if sheet is None:
        return ["" for _e in entries]
    played = {entry.id: number for entry, number in sheet.pflichtsolo_played}
    vorgefuehrt = {entry.id: number for number, entry in sheet.vorfuehrungen}
    return [str(played[e.id]) if e.id in played
            else _("vorgeführt in %(n)s") % {"n": vorgefuehrt[e.id]} if e.id in vorgefuehrt else _("offen")
            for e in entries]


def entry_link(table: Table, link_base: str = "") -> str:
    """The table's entry link as the phones open it ("" when it has none, or no address is known:
    `link_base` is the address the director's page was asked for; DJANGO_SITE_URL wins)."""
    base = (settings.SITE_URL or link_base).rstrip("/")
    if not table.link_token or not base:
        return ""
    return base + reverse("table_link", args=[table.link_token])


def qr_data_uri(text: str) -> str:
    """A QR code as an SVG data URI for an <img> in a printout (WeasyPrint draws SVG images): without
    a quiet zone of its own, so that the image's size is the code's (print/sheet.html: 21 mm, with the
    white of the margin and the cell's padding around it; docs/printing.md)."""
    return "data:image/svg+xml;base64," + base64.b64encode(str(qr_svg(text, scale=4, border=0)).encode()).decode()


def sheet_html(*, table: Table, entries: list[Entry], table_count: int, sheet: selectors.TableSheet | None,
               link: str = "") -> str:
    """One table's sheet: blank (`sheet` None) or filled from its `table_sheet`; a blank sheet with
    `link` carries the QR code of the table's entry link."""
    round = table.round
    tournament = round.tournament
    rules = tournament.scoring_rules()
    rows = blank_rows(tournament, entries) if sheet is None else filled_rows(sheet, rules)
    if sheet is not None and not table.signed_at and not sheet.entered_totals and table.ended_after is None:
        rows += blank_penalty_rows(entries)  # the players may still write a penalty in
    compact = len(rows) >= COMPACT_FROM_ROWS
    lines = len(rows) + (1 if tournament.pflichtsoli else 0)  # the row of the Pflichtsoli under the sum
    row_mm = max(ROW_MM_MIN_COMPACT if compact else ROW_MM_MIN, min(ROW_MM_MAX, SHEET_ROWS_MM / max(lines, 1)))
    status = {}
    if sheet is not None:
        status = {
            "games_entered": sheet.games_entered, "entered_totals": sheet.entered_totals,
            "signed_at": date_format(timezone.localtime(table.signed_at), "SHORT_DATETIME_FORMAT")
            if table.signed_at else "",
            "signed_note": table.signed_note,
        }
    return render_to_string("print/sheet.html", {
        "lang": get_language() or "de",
        "footer_left": footer(tournament),
        "footer_center": _("Runde %(round)s · Tisch %(table)s von %(count)s")
        % {"round": round.number, "table": table.number, "count": table_count},
        "tournament": tournament, "round": round, "table": table, "rules": rules, "blank": sheet is None,
        "link": link if sheet is None else "", "qr": qr_data_uri(link) if link and sheet is None else "",
        "players": [{"position": i + 1, "name": e.player.name, "start_number": e.start_number, "club": e.player.club}
                    for i, e in enumerate(entries)],
        "size": len(entries), "games_expected": table.expected_games(tournament.games_at_table(len(entries))),
        "rows": rows, "row_mm": f"{row_mm:.2f}", "compact": compact,
        "totals": None if sheet is None else [number_text(t) for t in sheet.totals],
        "total_sum": None if sheet is None else sheet.total_sum,
        "status": status,
        "penalty_offender": 3 * rules.penalty_points,
        # a list with Pflichtsoli: its Normalspiele, who deals after a Pflichtsolo, each player's Pflichtsolo
        "pflichtsoli": bool(tournament.pflichtsoli),
        "normal_games": tournament.games_at_table(len(entries)) - len(entries),
        "same_dealer": tournament.pflichtsoli == Tournament.Pflichtsoli.SAME_DEALER,
        "pflichtsolo_cells": pflichtsolo_cells(sheet, entries) if tournament.pflichtsoli else [],
        "sonderpunkte": [(SONDERPUNKT_ABBR[k], vocabulary.label("sonderpunkt", k)) for k in SONDERPUNKT_ABBR
                         if k in rules.sonderpunkte],
    })


def _has_results(sheet: selectors.TableSheet) -> bool:
    return bool(sheet.games_entered or sheet.loose_penalties or sheet.entered_totals
                or any(line.penalties for line in sheet.lines))


def table_sheet_html(table: Table, *, blank: bool = False, link_base: str = "") -> str:
    """A table's sheet: filled once anything is entered, else (or with `blank`) blank, with the QR
    code of the table's entry link."""
    table_count = table.round.tables.count()
    sheet = selectors.table_sheet(table)
    link = entry_link(table, link_base)
    if blank or not _has_results(sheet):
        return sheet_html(table=table, entries=sheet.entries, table_count=table_count, sheet=None, link=link)
    return sheet_html(table=table, entries=sheet.entries, table_count=table_count, sheet=sheet)


def round_sheet_htmls(round: Round, *, blank: bool = False, link_base: str = "") -> list[str]:
    """Every table's sheet in table order (blank ones for tables without results, or all with
    `blank`; blank ones with the QR code of the table's entry link). Six queries whatever the number
    of tables."""
    seated = selectors.round_tables(round)
    for item in seated:
        item.table.round = round
    sheets = {} if blank else selectors.table_sheets([item.table for item in seated], round.tournament)
    htmls = []
    for item in seated:
        sheet = sheets.get(item.table.id)
        if sheet is not None and not _has_results(sheet):
            sheet = None
        htmls.append(sheet_html(table=item.table, entries=item.entries, table_count=len(seated), sheet=sheet,
                                link=entry_link(item.table, link_base)))
    return htmls


# ---- seating plan --------------------------------------------------------------------------------

def seating_htmls(round: Round) -> list[str]:
    """The seating plan for the wall, as one document (one list, so that the pages count through):
    every table with its players in seat order, then on a new page everyone A–Z with their table
    and seat."""
    tournament = round.tournament
    seated = selectors.round_tables(round)
    people = sorted(
        ({"name": e.player.name, "start_number": e.start_number, "club": e.player.club,
          "table": item.table.number, "position": position}
         for item in seated for position, e in enumerate(item.entries, start=1)),
        key=lambda p: (name_key(str(p["name"])), p["start_number"]))
    letter = None
    for person in people:
        first = name_key(str(person["name"]))[0][:1].upper()
        person["letter"] = first if first != letter else ""
        letter = first
    title = _("Sitzplan Runde %(round)s") % {"round": round.number}
    return [render_to_string("print/seating.html", {
        "lang": get_language() or "de", "footer_left": footer(tournament), "footer_center": title, "title": title,
        "tournament": tournament, "round": round,
        "by_table": _("nach Tischen"), "by_name": _("Wer sitzt wo? (alphabetisch)"),
        "tables": [{"number": item.table.number,
                    "players": [{"position": i, "name": e.player.name, "start_number": e.start_number}
                                for i, e in enumerate(item.entries, start=1)]}
                   for item in seated],
        "people": people})]


# ---- standings -----------------------------------------------------------------------------------

def standings_html(tournament: Tournament, *, up_to_round: int | None = None) -> str:
    """The ranking overall (or after round `up_to_round`), ranked as the tournament says, with each
    round's points in a column: the table points of the round when they rank (so that every total can
    be added up on paper), else the game points ("–" for a round the player did not play)."""
    history = selectors.standings_history(tournament)
    rounds = [n for n in history.rounds if up_to_round is None or n <= up_to_round]
    rows = history.after[rounds[-1]] if rounds else history.before
    mode = tournament.ranking
    table_points = mode == Tournament.Ranking.TABLE_POINTS
    per_round = history.per_round(rounds, mode)
    title = (_("Rangliste nach Runde %(round)s") % {"round": up_to_round} if up_to_round is not None
             else _("Rangliste"))
    # what is still missing in the rounds it counts: it says so at the top, and how much
    missing = selectors.missing_results(tournament, rounds=rounds)
    return render_to_string("print/standings.html", {
        "lang": get_language() or "de", "footer_left": footer(tournament), "footer_center": title, "title": title,
        "tournament": tournament, "rounds": rounds, "mode": mode,
        "missing": missing.sentences() if missing.provisional else [],
        "rows": [{"row": row, "rounds": ["–" if points is None else points
                                         for points in per_round.get(row.entry_id, [None] * len(rounds))]}
                 for row in rows],
        "any_totals_only": any(r.totals_only for r in rows),
        "sum": sum(r.points for r in rows),
        "ranking_sentence": ranking.sentence(tournament),
        "rounds_heading": (_("Tischpunkte je Runde") if table_points else _("Spielpunkte je Runde")),
    })


# ---- a series' standings -------------------------------------------------------------------------

def series_html(standings: selectors.SeriesStandings, *, mode_text: str, value_label: str,
                notes: list[str] | None = None) -> str:
    """The standings of a series: each evening a column (an evening that does not count in brackets)."""
    series = standings.series
    title = _("Serienwertung")
    return render_to_string("print/series.html", {
        "lang": get_language() or "de", "footer_left": series.name, "footer_center": title, "title": title,
        "series": series, "standings": standings, "mode_text": mode_text, "value_label": value_label,
        "landscape": len(standings.evenings) > 6, "notes": notes or [],
    })


def prizes_html(prizes) -> str:
    """The prize list (`selectors.prizes.prize_list`): overall, then each category."""
    tournament = prizes.tournament
    title = _("Preisliste")
    return render_to_string("print/prizes.html", {
        "lang": get_language() or "de", "footer_left": footer(tournament), "footer_center": title, "title": title,
        "tournament": tournament, "prizes": prizes,
    })
