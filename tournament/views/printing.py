"""PDF printouts for the director: score sheets (one table, or a whole round), seating plan, standings.

Each view reads what it prints (`printing.documents`) and hands the HTML to `printing.render`, which
serves it from the PDF cache or lays it out. A large round's sheets and a large tournament's standings
take seconds of work: a background job builds them (`tournament/printing/jobs.py`), and the page shows its
progress until the PDF is ready.
"""

from urllib.parse import urlencode

from django.conf import settings
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.shortcuts import render as render_page
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..models import Round, Table
from ..printing import documents, jobs, render
from ..web import caching
from . import query_string
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
    html = documents.table_sheet_document(table, blank=_wants_blank(request), link_base=request.build_absolute_uri("/"))
    name = f"{tournament.slug}-runde-{round_number}-tisch-{table_number}.pdf"
    return _pdf_response(render.pdf_bytes(html), name)


def _background(request, tournament, job: jobs.PdfJob, filename: str, what: str):
    """A PDF built by a background job (tournament/printing/jobs.py): the PDF when it is ready, else a page
    that shows the job's progress and asks again every two seconds (with `?job=`, so that it keeps
    asking for the same job even when the tournament changes meanwhile). `?status=1`: the job's
    state as JSON; `?retry=1`: start a failed job again."""
    status = bool(request.GET.get("status"))
    job_id = request.GET.get("job") or job.id
    if request.GET.get("retry"):
        jobs.retry(job_id)
    current = jobs.state(job_id)
    if current is not None and current.get("tournament") != tournament.pk:
        raise Http404
    data = jobs.result(job_id, tournament.pk)
    if data is None and current is None:  # not started yet, or forgotten: the job for the data as they are now
        job_id = job.id
        current = jobs.start(job, filename=filename)
        data = jobs.result(job_id, tournament.pk)  # (an immediate backend has built it already)
    if data is not None and not status:
        return _pdf_response(data, filename)
    current = current or {"job": job_id, "state": "done" if data is not None else "queued"}
    if status:
        return JsonResponse({key: current.get(key) for key in ("job", "state", "phase", "done", "total", "error")})
    query = {"job": job_id, **({"blank": "1"} if _wants_blank(request) else {}),
             **({"round": request.GET["round"]} if request.GET.get("round") else {})}
    response = render_page(request, "print/progress.html", {
        "tournament": tournament, "what": what, "job": current, "again": "?" + urlencode(query),
        "retry": "?" + urlencode({**query, "retry": "1"}), "waiting_long": jobs.waiting_long(current),
    }, status=202)
    response["Cache-Control"] = "no-store"
    return response


@director_required
def round_sheets_pdf(request, tournament, round_number):
    """All sheets of a round, one table per page in table order (?blank=1: all blank). A round of
    more than PDF_INLINE_TABLES tables is built in the background (`_background`)."""
    round = _round(tournament, round_number)
    name = f"{tournament.slug}-runde-{round_number}-spielzettel.pdf"
    blank = _wants_blank(request)
    link_base = request.build_absolute_uri("/")
    tables = round.tables.count()
    if not tables:
        raise Http404("Die Runde ist noch nicht ausgelost.")
    if tables > settings.PDF_INLINE_TABLES:
        job = jobs.PdfJob(kind="round_sheets", tournament_id=tournament.pk, language=get_language(),
                           counter=caching.change_counter(tournament),
                           params={"round": round.number, "blank": blank, "link_base": link_base})
        what = (_("Leere Spielzettel der Runde %(n)s") if blank
                else _("Spielzettel der Runde %(n)s")) % {"n": round.number}
        return _background(request, tournament, job, name, what)
    htmls = documents.round_sheet_documents(round, blank=blank, link_base=link_base)
    kind = "blank" if blank else "sheets"
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
    after_round = query_string.integer(request, "round")
    if after_round not in numbers:
        after_round = None
    name = f"{tournament.slug}-tabelle" + (f"-runde-{after_round}" if after_round else "") + ".pdf"
    if tournament.entries.count() > settings.PDF_INLINE_PLAYERS:
        job = jobs.PdfJob(kind="standings", tournament_id=tournament.pk, language=get_language(),
                           counter=caching.change_counter(tournament), params={"round": after_round})
        what = _("Tabelle nach Runde %(n)s") % {"n": after_round} if after_round else _("Tabelle")
        return _background(request, tournament, job, name, what)
    html = documents.standings_html(tournament, up_to_round=after_round)
    return _file_response(render.pdf_file(html), name)
