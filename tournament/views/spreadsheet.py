"""CSV downloads for spreadsheets (the standings, a series' standings): semicolon-separated with a
UTF-8 BOM, as German spreadsheet programs expect, and names that a spreadsheet would take for a
formula written as text."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from django.http import HttpResponse

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value):
    """A text a spreadsheet would take for a formula (a player named "=HYPERLINK(…)") gets a leading
    apostrophe, which spreadsheets show as text; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_response(header: list, rows: Iterable[list], filename: str) -> HttpResponse:
    """The rows as a CSV download named `filename`; the caller guards the cells (`spreadsheet_safe`)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    response = HttpResponse("\ufeff" + buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
