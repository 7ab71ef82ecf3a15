"""gunicorn's logger with the entry links' tokens masked in the access and the error log
(config/log_masking.py); deploy/gunicorn.conf.py names it as `logger_class`."""

from __future__ import annotations

from gunicorn.glogging import Logger

from .log_masking import MaskEntryTokens


class MaskingLogger(Logger):
    def setup(self, cfg):
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            if not any(isinstance(f, MaskEntryTokens) for f in log.filters):
                log.addFilter(MaskEntryTokens())
