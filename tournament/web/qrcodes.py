"""QR codes as inline SVG (segno: pure Python, no image library), for the entry links on the score
sheets and the links page, and for the address in the terminal of `make serve`."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(text: str, *, scale: int = 4, border: int | None = None) -> SafeString:
    """An SVG QR code of `text` (error correction M: still reads when a corner is creased). `border`:
    the quiet zone in modules (segno's 4 by default; 0 where the page leaves white around it)."""
    code = segno.make(text, error="m", micro=False)
    return mark_safe(code.svg_inline(scale=scale, border=border, omitsize=False, dark="#000", light="#fff"))
