"""What goes on paper: the HTML of each printout, read from the database, for `render.py`.

Everything a page shows is worked out here in plain Python (rows, cells, texts), so the templates in
templates/print/ only lay it out, and rendering 250 sheets' HTML stays cheap. The HTML holds no
clock time: the same data gives the same HTML, which is the cache key of its PDF.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from seating import dealing

from .. import ranking, selectors, vocabulary
from ..collation import surname_key
from ..models import Entry, Game, Round, Table, Tournament
from ..selectors import teams as team_selectors
from ..vocabulary import game_type, ruleset_title

# Abbreviations on the sheet, explained in its legend.
ANNOUNCE_ABBR = {"keine90": "k90", "keine60": "k60", "keine30": "k30", "schwarz": "sw"}
SONDERPUNKT_ABBR = {"fuchs": "F", "doppelkopf": "D", "karlchen": "K", "karlchen_gefangen": "KG", "herzstich": "H"}
WINNER_ABBR = {"re": "Re", "kontra": "Ko", "": "–"}
# a solo's mark in a list with Pflichtsoli (docs/pflichtsolo.md)
PFLICHT_ABBR = {True: "P", False: "L"}

# a long list (a DDV list: 24 games at a table of 4, 30 at a table of 5) is printed compact, 7.5pt
# text in lower rows, so that the sheet with its signatures stays on one page (sheet_pdf.py)
COMPACT_FROM_ROWS = 22
BLANK_PENALTY_ROWS = 2


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
        Cell(points=ranking.signed(p), running=ranking.total_text(r), out=e.id not in players)
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
                cells=[Cell(out=True) if p is None else Cell(points=ranking.signed(p), running=ranking.total_text(r))
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


def _legend(rules, size: int, pflichtsoli: bool) -> list[tuple[str, str]]:
    """The legend of the abbreviations, as runs of (text, font) for sheet_pdf.wrap."""
    from .sheet_pdf import BOLD, REGULAR

    # "k90/k60/k30 = keine 90/60/30, sw = schwarz", in the game's words of the reader's language
    announced = (f"k90/k60/k30 = {vocabulary.term('announcement', 'keine90')}/60/30, "
                 f"sw = {vocabulary.term('announcement', 'schwarz')}")
    sonderpunkte = ", ".join(f"{SONDERPUNKT_ABBR[k]} {vocabulary.label('sonderpunkt', k)}" for k in SONDERPUNKT_ABBR
                             if k in rules.sonderpunkte)
    items = [
        (_("Spielart"), _("N Normalspiel, H Hochzeit, SH stille Hochzeit, A Armut, S Solo (mit Art, z. B. S Damen)")),
        (_("Re"), _("Plätze der Re-Partei (z. B. 1+3)")),
        (_("Augen Re"), _("Augen der Re-Partei, Kontra hat 240 minus diese")),
        # the announcements in the game's words of the reader's language ("k90 = no 90")
        (_("Ansagen"), f"Re/Ko = Re/Kontra, {announced}"),
        (_("Sonderpunkte"), (sonderpunkte + "; " if sonderpunkte else "") + _("mit Partei, z. B. Re F, Ko 2×D")),
        (_("Wert"), _("Gewinner (Re, Ko; – keiner) und Punkte")),
        (_("Faktor"), _("×2 Bock, ×2 Null (nach Nullspiel verdoppelt)")),
        (_("Pkt./Stand"), _("Punkte des Spiels und Summe bis dahin")),
        (_("Strafe"), _("der Spieler −%(o)s, die drei Mitspieler des Spiels je +%(p)s; zählt nicht als Spiel")
         % {"o": 3 * rules.penalty_points, "p": rules.penalty_points}),
    ]
    if pflichtsoli:
        items.append((_("Pflichtsoli"), _("hinter der Spielart P Pflichtsolo (das erste Solo eines Spielers), "
                                          "L Lustsolo, vorg. vorgeführt")))
    runs = []
    for label, text in items:
        runs += [(f"{label}: ", BOLD), (f"{text}. ", REGULAR)]
    if size == 5:
        runs.append((_("Am Fünfertisch sitzt der Geber aus."), REGULAR))
    return runs


def _status(*, table: Table, sheet: selectors.TableSheet | None, games_expected: int, size: int,
            normal_games: int, pflichtsoli: bool, same_dealer: bool) -> list[tuple[str, bool]]:
    """The status line as (text, boxed) parts."""
    if sheet is None:
        text = ngettext("%(n)s Spiel", "%(n)s Spiele", games_expected) % {"n": games_expected}
        if pflichtsoli:
            text += ": " + _("%(n)s Normalspiele und %(p)s Pflichtsoli, eines je Spieler") % {"n": normal_games,
                                                                                            "p": size}
        if size == 5:
            text += ", " + _("der Geber sitzt aus")
        parts = [text + "."]
        if pflichtsoli and same_dealer:
            parts.append(_("Nach einem Pflichtsolo gibt derselbe Geber noch einmal: den Geber jedes Spiels bitte "
                           "eintragen."))
        parts.append(_("Von den Spielern auszufüllen und von allen zu unterschreiben: der unterschriebene Zettel ist "
                       "das Ergebnis des Tisches."))
        return [(" ".join(parts), False)]
    status = [(_("Nur Endstände eingetragen.") if sheet.entered_totals else
               _("%(done)s von %(total)s Spielen eingetragen.") % {"done": sheet.games_entered,
                                                                   "total": games_expected}, False)]
    if table.ended_after is not None:
        status.append((_("Vorzeitig beendet nach Spiel %(n)s") % {"n": table.ended_after} + ": " + table.ended_note,
                       True))
    if table.signed_at:
        when = date_format(timezone.localtime(table.signed_at), "SHORT_DATETIME_FORMAT")
        text = _("Unterschrieben und gesperrt am %(when)s") % {"when": when}
        status.append((text + (f": {table.signed_note}" if table.signed_note else ""), True))
    else:
        status.append((_("Noch nicht unterschrieben und nicht gesperrt."), False))
    return status


def _cell(cell: Cell) -> dict:
    return {"points": cell.points, "running": cell.running, "out": cell.out}


def sheet_document(*, table: Table, entries: list[Entry], table_count: int, sheet: selectors.TableSheet | None,
                   link: str = "") -> str:
    """One table's sheet as a document for `render.py` (its texts as JSON, drawn by sheet_pdf.py):
    blank (`sheet` None) or filled from its `table_sheet`; with `link`, the QR code of
    the table's entry link. Every text in the reader's language; no clock time, so that the same data
    gives the same document, the key of its cached PDF."""
    from .sheet_pdf import PREFIX

    round = table.round
    tournament = round.tournament
    rules = tournament.scoring_rules()
    rows = blank_rows(tournament, entries) if sheet is None else filled_rows(sheet, rules)
    if sheet is not None and not table.signed_at and not sheet.entered_totals and table.ended_after is None:
        rows += blank_penalty_rows(entries)  # the players may still write a penalty in
    size = len(entries)
    games_expected = table.expected_games(tournament.games_at_table(size))
    pflichtsoli = bool(tournament.pflichtsoli)
    # "Runde 2 · Tisch 3": the sheet's name at the table, drawn on one line (sheet_pdf.py)
    where = _("Runde %(r)s · Tisch %(t)s") % {"r": round.number, "t": table.number}
    if sheet is None:
        total_note = "– " + _("Nullsumme: die Summen aller Spieler ergeben zusammen 0.")
    else:
        total_note = "– " + _("alle Spieler zusammen: %(s)s") % {"s": sheet.total_sum} + (
            " ✓ (" + _("Nullsumme") + ")" if sheet.total_sum == 0 else " ✗ " + _("muss 0 sein!"))
    subtitle = [date_format(tournament.date, "DATE_FORMAT")] + ([tournament.place] if tournament.place else [])
    document = {
        "lang": get_language() or "de",
        "title": _("Spielzettel Runde %(r)s, Tisch %(t)s") % {"r": round.number, "t": table.number}
        + f" – {tournament.name}",
        "footer_left": footer(tournament),
        "footer_center": _("Runde %(round)s · Tisch %(table)s von %(count)s")
        % {"round": round.number, "table": table.number, "count": table_count},
        "footer_right": _("Spielzettel") + " · Doko-Turnier",
        "name": tournament.name,
        "subtitle": " · ".join([*subtitle, ruleset_title(rules)]),
        "kind": _("Spielzettel") + (f" ({_('leer')})" if sheet is None else ""),
        "where": where,
        "qr_link": link, "qr_caption": _("Spiele per Handy eintragen") if link else "",
        "status": _status(table=table, sheet=sheet, games_expected=games_expected, size=size,
                          normal_games=tournament.games_at_table(size) - size, pflichtsoli=pflichtsoli,
                          same_dealer=tournament.pflichtsoli == Tournament.Pflichtsoli.SAME_DEALER),
        "size": size,
        "compact": len(rows) >= COMPACT_FROM_ROWS,
        "heads": [_("Nr."), _("Geber"), _("Spielart"), _("Re"), _("Augen Re"), _("Ansagen"), _("Sonderpunkte"),
                  _("Wert"), _("Faktor")],
        "players": [(f"{i + 1} · {e.player.name}", f"{_('Nr.')} {e.start_number}") for i, e in enumerate(entries)],
        "subheads": [_("Pkt."), _("Stand")],
        "sits_out": _("sitzt aus"),
        "rows": [{"kind": row.kind, "number": row.number, "dealer": row.dealer, "type": row.type, "re": row.re,
                  "augen": row.augen, "announcements": row.announcements, "sonderpunkte": row.sonderpunkte,
                  "value": row.value, "multiplier": row.multiplier, "label": row.label,
                  "cells": [_cell(cell) for cell in row.cells]} for row in rows],
        "total_label": _("Summe"), "total_note": total_note,
        "totals": None if sheet is None else [ranking.total_text(t) for t in sheet.totals],
        "pflicht": [_("Pflichtsolo gespielt in Spiel"),
                    "– " + _("wer es nach den Normalspielen noch nicht gespielt hat, wird vorgeführt"),
                    pflichtsolo_cells(sheet, entries)] if pflichtsoli else None,
        "signatures": [f"{_('Unterschrift')} {i + 1} · {e.player.name}" for i, e in enumerate(entries)],
        "legend": _legend(rules, size, pflichtsoli),
    }
    return PREFIX + json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def _has_results(sheet: selectors.TableSheet) -> bool:
    return bool(sheet.games_entered or sheet.loose_penalties or sheet.entered_totals
                or any(line.penalties for line in sheet.lines))


def table_sheet_document(table: Table, *, blank: bool = False, link_base: str = "") -> str:
    """A table's sheet: filled once anything is entered, else (or with `blank`) blank; both with the QR
    code of the table's entry link (a filled sheet goes back to the table too)."""
    table_count = table.round.tables.count()
    sheet = selectors.table_sheet(table)
    link = entry_link(table, link_base)
    if blank or not _has_results(sheet):
        return sheet_document(table=table, entries=sheet.entries, table_count=table_count, sheet=None, link=link)
    return sheet_document(table=table, entries=sheet.entries, table_count=table_count, sheet=sheet, link=link)


def round_sheet_documents(round: Round, *, blank: bool = False, link_base: str = "") -> list[str]:
    """Every table's sheet in table order (blank ones for tables without results, or all with
    `blank`; each with the QR code of the table's entry link). Six queries whatever the number of
    tables."""
    seated = selectors.round_tables(round)
    for item in seated:
        item.table.round = round
    sheets = {} if blank else selectors.table_sheets([item.table for item in seated], round.tournament)
    htmls = []
    for item in seated:
        sheet = sheets.get(item.table.id)
        if sheet is not None and not _has_results(sheet):
            sheet = None
        htmls.append(sheet_document(table=item.table, entries=item.entries, table_count=len(seated), sheet=sheet,
                                link=entry_link(item.table, link_base)))
    return htmls


# ---- seating plan --------------------------------------------------------------------------------

def seating_htmls(round: Round) -> list[str]:
    """The seating plan for the wall, as one document (one list, so that the pages count through):
    every table with its players in seat order, then on a new page everyone A–Z by surname with their
    table and seat."""
    tournament = round.tournament
    seated = selectors.round_tables(round)
    people = sorted(
        ({"name": e.player.name, "start_number": e.start_number, "club": e.player.club,
          "table": item.table.number, "position": position}
         for item in seated for position, e in enumerate(item.entries, start=1)),
        key=lambda p: (surname_key(str(p["name"])), p["start_number"]))
    letter = None
    for person in people:
        first = surname_key(str(person["name"]))[0][:1].upper()
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
    title = (_("Tabelle nach Runde %(round)s") % {"round": up_to_round} if up_to_round is not None
             else _("Tabelle"))
    # what is still missing in the rounds it counts: it says so at the top, and how much
    missing = selectors.missing_results(tournament, rounds=rounds)
    # the teams and clubs after the players, from the same rows (as the team standings page); one query
    teams = team_selectors.team_standings(tournament, rows)
    return render_to_string("print/standings.html", {
        "lang": get_language() or "de", "footer_left": footer(tournament), "footer_center": title, "title": title,
        "tournament": tournament, "rounds": rounds, "mode": mode,
        "missing": missing.sentences() if missing.provisional else [],
        "rows": [{"row": row, "rounds": ["–" if points is None else ranking.total_text(points)
                                         for points in per_round.get(row.entry_id, [None] * len(rounds))]}
                 for row in rows],
        "any_totals_only": any(r.totals_only for r in rows),
        "sum": sum(r.points for r in rows),
        "ranking_sentence": ranking.sentence(tournament),
        "rounds_heading": (_("Tischpunkte je Runde") if table_points else _("Spielpunkte je Runde")),
        "team_tables": [t for t in (teams.teams, teams.clubs) if t is not None], "match": teams.match,
        "cup": teams.cup,
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


def league_html(series, league) -> str:
    """The league table of a series in mode Liga (`selectors.league.league_standings`, what the reader may
    see): as the series page shows it, each match day a column, then the rule and the days that do not
    count. Landscape from six match days on."""
    title = _("Ligatabelle")
    return render_to_string("print/league.html", {
        "lang": get_language() or "de", "footer_left": series.name, "footer_center": title, "title": title,
        "series": series, "league": league, "landscape": len(league.counted) > 5,
    })


def prizes_html(prizes) -> str:
    """The prize list (`selectors.prizes.prize_list`): overall, then each category."""
    tournament = prizes.tournament
    title = _("Preisliste")
    # on every page while results are still to come (nobody mistakes a printed list for the final one),
    # as the standings' PDF says it
    footer_center = title + " – " + _("vorläufig") if prizes.provisional else title
    return render_to_string("print/prizes.html", {
        "lang": get_language() or "de", "footer_left": footer(tournament), "footer_center": footer_center,
        "title": title,
        "tournament": tournament, "prizes": prizes,
    })
