"""A tournament's prize list: places overall and the best of each category, on a page and as PDF
(docs/competitions.md, "Categories and the prize list")."""

from __future__ import annotations

from django.shortcuts import render

from ..printing import documents
from ..printing import render as pdf_render
from ..selectors import prizes as selectors
from . import query_string
from .access import public_or_director
from .printing import _file_response


def _prize_list(request, tournament) -> selectors.PrizeList:
    """?plaetze=N (overall, default: as many as have a prize written, else 3), ?je_kategorie=K (default: as
    many as the category with the most prizes, else 1), ?mehrfach=1 (a player may get more than one)."""
    overall, per_category = selectors.prize_counts(tournament)
    return selectors.prize_list(
        tournament, include_hidden=request.is_director,
        overall=query_string.clamped(request, "plaetze", default=overall, least=0, most=100),
        per_category=query_string.clamped(request, "je_kategorie", default=per_category, least=0, most=20),
        once=not request.GET.get("mehrfach"))


@public_or_director("standings")
def prizes_page(request, tournament):
    prizes = _prize_list(request, tournament)
    return render(request, "tournament/prizes.html", {"tournament": tournament, "prizes": prizes,
                                                      "is_director": request.is_director,
                                                      "query": request.GET.urlencode()})


@public_or_director("standings")
def prizes_pdf(request, tournament):
    html = documents.prizes_html(_prize_list(request, tournament))
    return _file_response(pdf_render.pdf_file(html), f"{tournament.slug}-preisliste.pdf")
