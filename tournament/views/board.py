"""The director's live board of a round (every table: games in, entries waiting, rejected, last
activity, signed; confirming is one click), and the tables' entry links with their QR codes."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..errors import UserError
from ..log.audit import Actor
from ..models import Round, Table
from ..selectors import table_state
from ..services import table_links
from ..web.qrcodes import qr_svg
from .access import director_required, entry_required


def _round(tournament, number: int) -> Round:
    round = get_object_or_404(Round, tournament=tournament, number=number)
    round.tournament = tournament
    return round


def link_url(request, token: str) -> str:
    """The address a phone opens: from DJANGO_SITE_URL when set (behind a proxy, or printed for the
    hall's network), else from the address this page was asked for."""
    path = reverse("table_link", args=[token])
    base = getattr(settings, "SITE_URL", "")
    return base.rstrip("/") + path if base else request.build_absolute_uri(path)


@entry_required
def board_page(request, tournament, round_number):
    round = _round(tournament, round_number)
    rows = table_state.board(round)
    context = {
        "tournament": tournament, "round": round, "rows": rows, "now": timezone.now(),
        "alerts": table_state.board_alerts(rows),
        "waiting": sum(len(r.waiting) for r in rows), "signed": sum(r.signed for r in rows),
        "complete": sum(r.complete for r in rows), "is_director": request.is_director,
    }
    if request.GET.get("partial"):
        return render(request, "tournament/_board_tables.html", context)
    return render(request, "tournament/board.html", context)


@require_POST
@entry_required
def board_decide(request, tournament, round_number, table_number, draft_id):
    """Confirm (or reject) a table's entry from the board: one click. In a conflict, "take" stores the
    table's version over the stored game and "reject" keeps the stored one; "settle" clears a rejected
    entry from the board."""
    table = get_object_or_404(Table.objects.select_related("round"), round__tournament=tournament,
                              round__number=round_number, number=table_number)
    decision = request.POST.get("decision")
    confirm = decision in ("confirm", "take")
    try:
        if decision == "settle":
            table_links.settle_as_director(table=table, draft_id=draft_id, by=Actor.of(request))
            return redirect("tournament:board", slug=tournament.slug, round_number=round_number)
        if decision not in ("confirm", "take", "reject"):
            raise UserError(_("Bitte „Bestätigen“ oder „Ablehnen“ wählen."))
        draft = table_links.decide_as_director(table=table, draft_id=draft_id, confirm=confirm, take=decision == "take",
                                               by=Actor.of(request), reason=request.POST.get("reason", "")[:200])
    except UserError as error:
        messages.error(request, error.message)
    else:
        if confirm:
            messages.success(request, _("Tisch %(table)s, Spiel %(number)s ist bestätigt.")
                             % {"table": table.number, "number": draft.number})
        else:
            messages.success(request, _("Die Eingabe für Tisch %(table)s, Spiel %(number)s ist abgelehnt.")
                             % {"table": table.number, "number": draft.number})
    return redirect("tournament:board", slug=tournament.slug, round_number=round_number)


@director_required
def links_page(request, tournament, round_number):
    """Every table's entry link with its QR code, to print or to show (director only: the links
    are the tables' keys)."""
    round = _round(tournament, round_number)
    tables = list(round.tables.order_by("number"))
    links = [(table, link_url(request, table.link_token), qr_svg(link_url(request, table.link_token)))
             if table.link_token else (table, None, None) for table in tables]
    return render(request, "tournament/links.html", {"tournament": tournament, "round": round, "links": links})


@require_POST
@director_required
def links_action(request, tournament, round_number):
    """Renew or revoke the link of one table (`table`: its number) or of all tables (`table`: "all",
    said explicitly: a missing or mistyped number changes nothing)."""
    round = _round(tournament, round_number)
    chosen = request.POST.get("table", "")
    number = int(chosen) if chosen.isascii() and chosen.isdigit() and len(chosen) < 6 else None
    if chosen != "all" and not (number and round.tables.filter(number=number).exists()):
        messages.error(request, _("Diesen Tisch gibt es in Runde %(round)s nicht; kein Link wurde geändert.")
                       % {"round": round.number})
        return redirect("tournament:links", slug=tournament.slug, round_number=round_number)
    tables = None if chosen == "all" else [number]
    try:
        if request.POST.get("action") == "revoke":
            table_links.revoke_links(round=round, tables=tables, by=Actor.of(request))
            text = (_("Der Eingabelink von Tisch %(table)s ist gesperrt.") % {"table": number} if number
                    else _("Alle Eingabelinks der Runde sind gesperrt."))
        else:
            table_links.renew_links(round=round, tables=tables, by=Actor.of(request))
            text = (_("Tisch %(table)s hat einen neuen Eingabelink; der alte gilt nicht mehr.") % {"table": number}
                    if number else _("Alle Tische haben neue Eingabelinks; die alten gelten nicht mehr."))
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, text)
    return redirect("tournament:links", slug=tournament.slug, round_number=round_number)
