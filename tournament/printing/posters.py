"""The registration's poster (A4, for the club's notice board or the door): the tournament's name,
date and place, the number of places and the deadline, the registration page's address as a QR code
and in large type; with self check-in on, the check-in's QR code too (docs/tournament.md,
"Anmeldung und Check-in"). HTML for WeasyPrint (`render.pdf_file`), QR codes as inline SVG (segno)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.formats import date_format
from django.utils.translation import get_language

from ..models import Tournament
from ..services import checkin
from ..web.qrcodes import qr_svg


def poster_html(tournament: Tournament, *, registration_url: str, checkin_url: str = "") -> str:
    deadline = tournament.registration_deadline
    return render_to_string(
        "print/registration_poster.html",
        {
            "lang": get_language() or "de",
            "footer_left": "",
            "footer_center": "",
            "tournament": tournament,
            "date": date_format(tournament.date, "DATE_FORMAT"),
            "deadline": checkin.deadline_text(deadline) if deadline is not None else "",
            "registration_url": registration_url,
            "registration_qr": qr_svg(registration_url, border=0),
            "checkin_url": checkin_url,
            "checkin_qr": qr_svg(checkin_url, border=0) if checkin_url else "",
        },
    )
