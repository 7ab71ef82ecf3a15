"""CSV downloads for spreadsheets (the standings, a series' standings, the teams, a Rangliste's rounds):
semicolon-separated with a UTF-8 BOM, as German spreadsheet programs expect, every cell guarded
against being taken for a formula (`tournament.spreadsheet`)."""

from __future__ import annotations

import io
from collections.abc import Iterable

from django.http import HttpResponse

from .. import spreadsheet


def csv_response(header: list, rows: Iterable[list], filename: str) -> HttpResponse:
    """The rows as a CSV download named `filename`, every cell, the header's too, guarded."""
    buffer = io.StringIO()
    spreadsheet.write(buffer, header, rows)
    response = HttpResponse("\ufeff" + buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
