"""Every CSV the app writes, guarded one way (docs/security.md, "CSV and spreadsheets").

A spreadsheet takes a cell that starts with = + - @ (or a tab or a line break) for a formula: a player
or a tournament named `=HYPERLINK("http://…";"Ergebnis")` would be a link in a German spreadsheet,
`=cmd|…` worse. `write` guards every cell, the header too, with `safe_cell`: such a text gets a
leading apostrophe, which spreadsheets show as text. Numbers stay numbers, also a negative one
written as text ("-17,5", an average). The downloads (`views/spreadsheet.csv_response`) and
`manage.py standings --format csv` write through `write`; nothing else calls `csv.writer`.
Pure Python, no Django.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, TextIO

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")  # a plain number, also "-17,5": no formula


def safe_cell(value: Any) -> Any:
    """A text a spreadsheet would take for a formula, with a leading apostrophe; anything else as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not NUMBER.fullmatch(value):
        return "'" + value
    return value


def write(stream: TextIO, header: Iterable[Any], rows: Iterable[Iterable[Any]], *, delimiter: str = ";",
          lineterminator: str = "\r\n") -> None:
    """The header and the rows as CSV on `stream`, every cell guarded (`safe_cell`)."""
    writer = csv.writer(stream, delimiter=delimiter, lineterminator=lineterminator)
    writer.writerow([safe_cell(cell) for cell in header])
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
