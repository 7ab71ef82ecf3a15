"""Backups: the lossless export (`exporting.export_tournament`, with the change log) written to a
file under `settings.BACKUP_DIR` (var/backups/), by hand or whenever a round is closed. A backup is
read back with the import (`importing.import_tournament`, the restore page, or
`manage.py import_tournament`).
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ..models import Tournament
from .exporting import export_tournament

logger = logging.getLogger(__name__)


def backup_text(tournament: Tournament) -> str:
    return json.dumps(export_tournament(tournament), ensure_ascii=False, indent=1) + "\n"


def backup_name(tournament: Tournament, reason: str = "") -> str:
    """`<slug>-<YYYYmmdd-HHMMSS>[-<reason>].json`, in local time."""
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M%S")
    reason = re.sub(r"[^a-z0-9-]+", "-", reason.lower()).strip("-")
    return f"{tournament.slug}-{stamp}" + (f"-{reason}" if reason else "") + ".json"


def write_backup(tournament: Tournament, *, reason: str = "") -> Path:
    """Writes the tournament's backup file and returns its path (written to a temporary name first,
    so that a backup file is always complete)."""
    folder = Path(settings.BACKUP_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / backup_name(tournament, reason)
    partial = path.with_suffix(".part")
    partial.write_text(backup_text(tournament), encoding="utf-8")
    partial.replace(path)
    return path


def backup_after_commit(tournament: Tournament, *, reason: str) -> None:
    """A backup once the current transaction is committed (never of a change that is rolled back).
    A backup that cannot be written is logged, and the change stays."""
    pk = tournament.pk

    def write():
        try:
            write_backup(Tournament.objects.get(pk=pk), reason=reason)
        except Exception:  # the round is closed; a missing backup must not undo that
            logger.exception("Backup of tournament %s could not be written", pk)

    transaction.on_commit(write)
