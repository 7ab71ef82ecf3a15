"""PDF printouts for the director: score sheets (one table, or a whole round), seating plan, standings.

Each view reads what it prints (`printing.documents`) and hands the HTML to `printing.render`, which
serves it from the PDF cache or lays it out.
"""

from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404

from ..models import Round, Table
from ..printing import documents, render
from .access import director_required


def _pdf_response(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _file_response(path, filename: str) -> FileResponse:
    return FileResponse(open(path, "rb"), content_type="application/pdf", as_attachment=False, filename=filename)


def _round(tournament, number: int) -> Round:
    round = get_object_or_404(Round, tournament=tournament, number=number)
    round.tournament = tournament
    return round


def _wants_blank(request) -> bool:
    return request.GET.get("blank") not in (None, "", "0")


@director_required
def table_sheet_pdf(request, tournament, round_number, table_number):
    """One table's sheet: filled once results are entered, blank before (or with ?blank=1)."""
    table = get_object_or_404(Table.objects.select_related("round"), round__tournament=tournament,
                              round__number=round_number, number=table_number)
    table.round.tournament = tournament
    html = documents.table_sheet_html(table, blank=_wants_blank(request))
    name = f"{tournament.slug}-runde-{round_number}-tisch-{table_number}.pdf"
    return _pdf_response(render.pdf_bytes(html), name)


@director_required
def round_sheets_pdf(request, tournament, round_number):
    """All sheets of a round, one table per page in table order (?blank=1: all blank)."""
    round = _round(tournament, round_number)
    htmls = documents.round_sheet_htmls(round, blank=_wants_blank(request))
    name = f"{tournament.slug}-runde-{round_number}-spielzettel.pdf"
    if not htmls:
        raise Http404("Die Runde ist noch nicht ausgelost.")
    kind = "blank" if _wants_blank(request) else "sheets"
    pdf = render.open_merged_pdf(htmls, name=f"{tournament.slug}-r{round_number}-{kind}")
    return FileResponse(pdf, content_type="application/pdf", filename=name)


@director_required
def round_seating_pdf(request, tournament, round_number):
    """The seating plan for the wall: by table, then everyone A–Z."""
    round = _round(tournament, round_number)
    name = f"{tournament.slug}-runde-{round_number}-sitzplan.pdf"
    pdf = render.open_merged_pdf(documents.seating_htmls(round), name=f"{tournament.slug}-r{round_number}-seating",
                                 parallel_min=2)
    return FileResponse(pdf, content_type="application/pdf", filename=name)


@director_required
def standings_pdf(request, tournament):
    """The standings overall, or after round N with ?round=N."""
    numbers = set(tournament.rounds.values_list("number", flat=True))
    try:
        after_round = int(request.GET.get("round", ""))
    except ValueError:
        after_round = None
    if after_round not in numbers:
        after_round = None
    html = documents.standings_html(tournament, up_to_round=after_round)
    name = f"{tournament.slug}-rangliste" + (f"-runde-{after_round}" if after_round else "") + ".pdf"
    return _file_response(render.pdf_file(html), name)
