"""The score sheet drawn straight onto a PDF page (ReportLab's canvas), without HTML and CSS.

WeasyPrint needs about half a second of CPU for a sheet (parsing, styling, table layout, line
breaking, drawing 500 cells): 125 s for a round of 250 tables. A sheet is a fixed grid (column widths
in mm, rows of one height), so it is drawn here directly, about 100 times faster
(docs/performance.md, "The PDF cache and background jobs"). `documents.sheet_document` prepares
every text in the reader's language; this module only places them, and imports nothing from Django
(the pool's workers import it on their own).

The page (A4 landscape, mm from the top left): the head (tournament, "Runde 2 · Tisch 3" on one line,
the QR code of the table's entry link in the top right corner with its caption), the status line, the
table (two rows of column heads, a row per game, the totals, the Pflichtsoli), a signature line per
player, the legend and the footer. The row height is what is left for the rows, between 10 mm (room
to write) and the minimum for the text; a sheet is always one page.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
from functools import lru_cache

import segno
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

PREFIX = "doko-sheet/1\n"  # what a sheet's document string starts with (render.py tells them apart by it)

MM = 72 / 25.4
PAGE_W, PAGE_H = 297.0, 210.0
LEFT, RIGHT, TOP, BOTTOM = 10.0, 10.0, 10.0, 13.0
WIDTH = PAGE_W - LEFT - RIGHT
QR_MM = 22.0  # at least 20 mm: a phone reads it from across the table, and at 100 dpi (docs/printing.md)
CAPTION_PT = 8.0  # the smallest text (compact rows: 7.5): captions, heads, legend, footer
ROW_MM_MAX, ROW_MM_MIN, ROW_MM_MIN_COMPACT = 10.0, 5.0, 3.2
LEFT_COLUMNS = [7, 26, 20, 10, 13, 16, 23, 10, 12]  # Nr., Geber, Spielart, Re, Augen, Ansagen, Sonderp., Wert, Faktor
PLAYER_COLUMNS = {4: (15, 20), 5: (12, 16)}  # points, running total; 140 mm for the players either way
GRID, GREY_HEAD, GREY_OUT, GREY_PENALTY = 0.5, 0.91, 0.83, 0.953

FONT_FILES = {
    "Sheet": ["/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf", "DejaVu Sans:condensed"],
    "Sheet-Bold": ["/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf", "DejaVu Sans:condensed:bold"],
}
REGULAR, BOLD = "Sheet", "Sheet-Bold"


def _font_path(candidates: list[str]) -> str:
    path, pattern = candidates
    if os.path.exists(path):
        return path
    found = subprocess.run(["fc-match", "-f", "%{file}", pattern], capture_output=True, text=True, check=True)
    return found.stdout.strip()


@lru_cache(maxsize=1)
def _register_fonts() -> None:
    """DejaVu Sans Condensed (Debian's fonts-dejavu-core), embedded as subsets; once per process."""
    for name, candidates in FONT_FILES.items():
        pdfmetrics.registerFont(TTFont(name, _font_path(candidates)))


@lru_cache(maxsize=65536)
def width(text: str, font: str, size: float) -> float:
    """The width of `text` in mm."""
    return pdfmetrics.stringWidth(text, font, size) / MM


def fit(text: str, font: str, size: float, room: float) -> str:
    """`text` cut with "…" to `room` mm (a long name never widens a cell)."""
    if width(text, font, size) <= room:
        return text
    while text and width(text + "…", font, size) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(runs: list[tuple[str, str]], size: float, room: float) -> list[list[tuple[str, str]]]:
    """Runs of (text, font) broken into lines of at most `room` mm, at spaces only (a no-break space
    keeps "Tisch 3" together)."""
    lines: list[list[tuple[str, str]]] = [[]]
    used = 0.0
    for text, font in runs:
        for index, word in enumerate(text.split(" ")):
            piece = ("" if index == 0 else " ") + word
            extent = width(piece, font, size)
            if used + extent > room and used > 0 and index > 0:
                lines.append([])
                used = 0.0
                piece = word
                extent = width(piece, font, size)
            if piece:
                lines[-1].append((piece, font))
                used += extent
    return [line for line in lines if line]


class Page:
    """Drawing in mm from the page's top left."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.texts: list[tuple[float, float, str, str, float, float]] = []

    def text(self, x: float, baseline: float, text: str, font: str = REGULAR, size: float = 8.0, *,
             align: str = "left", grey: float = 0.0) -> None:
        """Kept for `finish`, in the order of the calls: the order a PDF reader extracts the text in."""
        if not text:
            return
        if align == "right":
            x -= width(text, font, size)
        elif align == "center":
            x -= width(text, font, size) / 2
        self.texts.append((x, baseline, text, font, size, grey))

    def finish(self) -> None:
        """The page's text in one text object, after the lines and fills."""
        text = self.canvas.beginText()
        state: tuple = ()
        for x, baseline, line, font, size, grey in self.texts:
            if state != (font, size, grey):
                text.setFont(font, size)
                text.setFillGray(grey)
                state = (font, size, grey)
            text.setTextOrigin(x * MM, (PAGE_H - baseline) * MM)
            text.textOut(line)
        self.canvas.drawText(text)

    def runs(self, x: float, baseline: float, line: list[tuple[str, str]], size: float) -> float:
        for text, font in line:
            self.text(x, baseline, text, font, size)
            x += width(text, font, size)
        return x

    def box(self, x: float, top: float, w: float, h: float, *, fill: float | None = None, line: float = GRID) -> None:
        canvas = self.canvas
        canvas.setLineWidth(line)
        if fill is not None:
            canvas.setFillGray(fill)
        canvas.rect(x * MM, (PAGE_H - top - h) * MM, w * MM, h * MM, stroke=1 if line else 0,
                    fill=0 if fill is None else 1)

    def hline(self, x: float, y: float, w: float, line: float) -> None:
        self.canvas.setLineWidth(line)
        self.canvas.line(x * MM, (PAGE_H - y) * MM, (x + w) * MM, (PAGE_H - y) * MM)

    def qr(self, x: float, top: float, size: float, text: str) -> None:
        """The QR code of `text`, `size` mm wide, without a quiet zone of its own (the white around it
        is the page's). Error correction M; a fixed mask (choosing the best of eight costs 15 ms a code,
        and any mask reads)."""
        matrix = segno.make(text, error="m", micro=False, boost_error=False, mask=0).matrix
        module = size / len(matrix)
        canvas = self.canvas
        canvas.setFillGray(0)
        path = canvas.beginPath()
        for row, bits in enumerate(matrix):
            column = 0
            while column < len(bits):
                if bits[column]:
                    start = column
                    while column < len(bits) and bits[column]:
                        column += 1
                    path.rect((x + start * module) * MM, (PAGE_H - top - (row + 1) * module) * MM,
                              (column - start) * module * MM, module * MM)
                else:
                    column += 1
        canvas.drawPath(path, stroke=0, fill=1)


def baseline_in(top: float, height: float, size: float) -> float:
    """The baseline that centres one line of `size` pt in a box."""
    return top + height / 2 + size * 0.35 / MM


def paint(sheet: dict, canvas: Canvas) -> None:
    """One sheet onto the canvas's current page (`sheet`: documents.sheet_document's fields)."""
    page = Page(canvas)
    size = sheet["size"]
    compact = sheet["compact"]
    body_pt = 7.5 if compact else 8.0
    x_right = LEFT + WIDTH

    # ---- the head: tournament left, round and table right, the QR code in the corner
    head_right = x_right
    qr_bottom = TOP
    if sheet.get("qr_link"):
        page.qr(x_right - QR_MM, TOP, QR_MM, sheet["qr_link"])
        caption_right = x_right - QR_MM - 3
        lines = wrap([(sheet["qr_caption"], REGULAR)], CAPTION_PT, 22)
        for index, line in enumerate(lines):
            page.runs(caption_right - sum(width(t, f, CAPTION_PT) for t, f in line),
                      TOP + QR_MM - 0.6 - (len(lines) - 1 - index) * 3.4, line, CAPTION_PT)
        head_right = caption_right - 22 - 4
        qr_bottom = TOP + QR_MM + 3.5
    where = sheet["where"]
    page.text(head_right, TOP + 3.6, sheet["kind"], REGULAR, 10, align="right")
    page.text(head_right, TOP + 10.5, where, BOLD, 17, align="right")
    name_room = head_right - LEFT - width(where, BOLD, 17) - 5
    page.text(LEFT, TOP + 9.5, fit(sheet["name"], BOLD, 15, name_room), BOLD, 15)
    page.text(LEFT, TOP + 14.5, fit(sheet["subtitle"], REGULAR, 10, name_room), REGULAR, 10)
    canvas.bookmarkPage(where)
    canvas.addOutlineEntry(where, where, level=0)

    # ---- the status line (boxed: an early end, signed and locked)
    status_pt, status_line = 8.5, 3.9
    y = TOP + 16.5
    for text, boxed in sheet["status"]:
        for line in wrap([(text, BOLD if boxed else REGULAR)], status_pt, head_right - LEFT - 2):
            y += status_line
            end = page.runs(LEFT + (0.8 if boxed else 0), y, line, status_pt)
            if boxed:
                page.box(LEFT, y - 3.0, end - LEFT + 0.8, 4.0, line=0.8)
    top = max(y + 2.5, qr_bottom)

    # ---- the table
    players = PLAYER_COLUMNS[size]
    columns = LEFT_COLUMNS + list(players) * size
    xs = [LEFT]
    for column in columns:
        xs.append(xs[-1] + column)
    first_player = len(LEFT_COLUMNS)

    def span(first: int, last: int) -> tuple[float, float]:
        return xs[first], xs[last + 1] - xs[first]

    # how high the rows can be: what is left after everything else on the page
    legend_lines = wrap(sheet["legend"], CAPTION_PT, WIDTH)
    legend_h = len(legend_lines) * CAPTION_PT * 1.3 / MM + (1.5 if compact else 2.5)
    head_h, sub_h = 11.5, 4.4
    total_h = 6.0 if compact else 8.0
    signature_h = 3 + (6 if compact else 9) + 3.6
    row_count = len(sheet["rows"]) + (1 if sheet.get("pflicht") else 0)
    room = PAGE_H - BOTTOM - top - head_h - sub_h - total_h - signature_h - legend_h
    row_h = max(ROW_MM_MIN_COMPACT if compact else ROW_MM_MIN, min(ROW_MM_MAX, room / max(row_count, 1)))

    # column heads
    for index, label in enumerate(sheet["heads"]):
        x, w = span(index, index)
        page.box(x, top, w, head_h + sub_h, fill=GREY_HEAD)
        lines_of = wrap([(label, BOLD)], CAPTION_PT, w - 1.4)
        for number, line in enumerate(lines_of):
            page.runs(x + 0.8, top + head_h + sub_h - 1.3 - (len(lines_of) - 1 - number) * 3.2, line, CAPTION_PT)
    heads = []
    for index, (label, _number) in enumerate(sheet["players"]):
        x, w = span(first_player + 2 * index, first_player + 2 * index + 1)
        page.box(x, top, w, head_h, fill=GREY_HEAD)
        name_lines = wrap([(label, BOLD)], 8.5, w - 1.6)
        texts = ["".join(t for t, _f in line) for line in name_lines[:2]]
        if len(name_lines) > 2:
            texts[1] = fit(texts[1] + " " + "".join(t for line in name_lines[2:] for t, _f in line), BOLD, 8.5, w - 1.6)
        heads.append((x, w, [fit(text, BOLD, 8.5, w - 1.6) for text in texts]))
        for part in range(2):
            px, pw = span(first_player + 2 * index + part, first_player + 2 * index + part)
            page.box(px, top + head_h, pw, sub_h, fill=GREY_HEAD)
    for line_number in range(2):
        for x, w, texts in heads:
            if line_number < len(texts):
                page.text(x + w / 2, top + 3.6 + line_number * 3.3, texts[line_number], BOLD, 8.5, align="center")
    for (x, w, _texts), (_label, number_text) in zip(heads, sheet["players"], strict=True):
        page.text(x + w / 2, top + head_h - 1.2, number_text, REGULAR, CAPTION_PT, align="center")
    for index in range(size):
        for part, label in enumerate(sheet["subheads"]):
            px, pw = span(first_player + 2 * index + part, first_player + 2 * index + part)
            page.text(px + pw - 0.8, top + head_h + sub_h - 1.1, label, BOLD, CAPTION_PT, align="right")
    y = top + head_h + sub_h

    def player_cells(cells: list, row_top: float, out_text: str) -> None:
        for index, cell in enumerate(cells):
            first = first_player + 2 * index
            if cell["out"]:
                x, w = span(first, first + 1)
                page.box(x, row_top, w, row_h, fill=GREY_OUT)
                page.text(x + w / 2, baseline_in(row_top, row_h, CAPTION_PT), out_text, REGULAR, CAPTION_PT,
                          align="center", grey=0.2)
                continue
            x, w = span(first, first)
            page.box(x, row_top, w, row_h)
            page.text(x + w - 0.8, baseline_in(row_top, row_h, body_pt), cell["points"], BOLD, body_pt, align="right")
            x, w = span(first + 1, first + 1)
            page.box(x, row_top, w, row_h)
            page.text(x + w - 0.8, baseline_in(row_top, row_h, body_pt), cell["running"], REGULAR, body_pt,
                      align="right", grey=0.2)

    for row in sheet["rows"]:
        base = baseline_in(y, row_h, body_pt)
        if row["kind"] == "penalty":
            page.box(LEFT, y, xs[first_player] - LEFT, row_h, fill=GREY_PENALTY)
            x, w = span(0, 0)
            page.box(x, y, w, row_h)
            x, w = span(1, first_player - 1)
            page.text(x + 0.8, base, fit(row["label"], REGULAR, body_pt, w - 1.6), REGULAR, body_pt)
            page.box(x, y, w, row_h)
            player_cells(row["cells"], y, "–")
        else:
            for index, key in enumerate(("number", "dealer", "type", "re", "augen", "announcements", "sonderpunkte",
                                         "value", "multiplier")):
                x, w = span(index, index)
                page.box(x, y, w, row_h)
                text_pt = body_pt
                font = BOLD if key == "number" else REGULAR
                text = fit(row[key], font, text_pt, w - 1.6)
                if key == "augen":
                    page.text(x + w - 0.8, base, text, font, text_pt, align="right")
                else:
                    page.text(x + 0.8, base, text, font, text_pt)
            player_cells(row["cells"], y, sheet["sits_out"])
        y += row_h

    # the totals: a thick line above
    x, w = span(0, first_player - 1)
    page.box(x, y, w, total_h)
    base = baseline_in(y, total_h, body_pt)
    end = x + 0.8 + width(sheet["total_label"] + " ", BOLD, body_pt)
    page.text(x + 0.8, base, sheet["total_label"], BOLD, body_pt)
    page.text(end, base, fit(sheet["total_note"], REGULAR, body_pt, x + w - end - 0.8), REGULAR, body_pt)
    for index in range(size):
        sx, sw = span(first_player + 2 * index, first_player + 2 * index + 1)
        page.box(sx, y, sw, total_h)
        totals = sheet.get("totals")
        if totals:
            page.text(sx + sw - 0.8, baseline_in(y, total_h, 10.5), totals[index], BOLD, 10.5, align="right")
    page.hline(LEFT, y, WIDTH, 1.6)
    y += total_h
    if sheet.get("pflicht"):
        label, note, cells = sheet["pflicht"]
        x, w = span(0, first_player - 1)
        page.box(x, y, w, row_h)
        base = baseline_in(y, row_h, body_pt)
        end = x + 0.8 + width(label + " ", BOLD, body_pt)
        page.text(x + 0.8, base, label, BOLD, body_pt)
        page.text(end, base, fit(note, REGULAR, body_pt, x + w - end - 0.8), REGULAR, body_pt)
        for index, cell in enumerate(cells):
            sx, sw = span(first_player + 2 * index, first_player + 2 * index + 1)
            page.box(sx, y, sw, row_h)
            page.text(sx + sw / 2, base, fit(cell, REGULAR, body_pt, sw - 1.6), REGULAR, body_pt, align="center")
        y += row_h

    # ---- a signature line per player
    y += 3 + (6 if compact else 9)
    column = WIDTH / size
    for index, text in enumerate(sheet["signatures"]):
        x = LEFT + index * column
        page.hline(x, y, column - 3, 0.6)
        page.text(x, y + 3.4, fit(text, REGULAR, CAPTION_PT, column - 3), REGULAR, CAPTION_PT)
    y += 3.6

    # ---- the legend
    y += 1.5 if compact else 2.5
    for line in legend_lines:
        y += CAPTION_PT * 1.3 / MM
        page.runs(LEFT, y - 0.9, line, CAPTION_PT)

    # ---- the footer: left, centre, right
    foot = PAGE_H - BOTTOM + 2 + 2.9
    third = WIDTH / 3
    page.text(LEFT, foot, fit(sheet["footer_left"], REGULAR, CAPTION_PT, third - 2), REGULAR, CAPTION_PT, grey=0.2)
    page.text(LEFT + WIDTH / 2, foot, sheet["footer_center"], REGULAR, CAPTION_PT, align="center", grey=0.2)
    page.text(x_right, foot, sheet["footer_right"], REGULAR, CAPTION_PT, align="right", grey=0.2)
    page.finish()


def sheets_pdf(documents: list[str]) -> bytes:
    """The sheets of `documents` (strings from documents.sheet_document), one page each, as one PDF."""
    _register_fonts()
    out = io.BytesIO()
    lang = json.loads(documents[0][len(PREFIX):])["lang"] if documents else "de"
    canvas = Canvas(out, pagesize=landscape(A4), pageCompression=1, initialFontName=REGULAR,
                    initialFontSize=8, lang=lang)
    canvas.setCreator("Doko-Turnier")
    for index, document in enumerate(documents):
        sheet = json.loads(document[len(PREFIX):])
        if index == 0:
            canvas.setTitle(sheet["title"])
        paint(sheet, canvas)
        canvas.showPage()
    canvas.save()
    return out.getvalue()
