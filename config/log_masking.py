"""The tables' entry links (`/e/<token>/…`, tournament/services/table_links.py) are secrets: whoever has
one enters results for that table. They never reach a log: `MaskEntryTokens` replaces the token by
`***` in every record it sees (the message, its arguments and a traceback), for Django's loggers
(config/settings.py: LOGGING, also runserver's `django.server`) and gunicorn's access and error logs
(config/gunicorn_logging.py, deploy/gunicorn.conf.py)."""

from __future__ import annotations

import logging
import re

# "/e/<token>" at the start of a path: after the start, a space, a quote, "=", "(" or a host
# ("http://192.168.1.20:8000/e/…" in a Referer); not "/t/e/…" (a tournament whose short name is "e")
ENTRY_LINK = re.compile(r"(^|[\s\"'=(]|://[^/\s\"']+)/e/[A-Za-z0-9_-]+")
MASKED = r"\1/e/***"


def mask_tokens(text: str) -> str:
    return ENTRY_LINK.sub(MASKED, text)


class MaskEntryTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken record: leave it to the handler to report
            return True
        record.msg, record.args = mask_tokens(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask_tokens(record.exc_text)
        return True
