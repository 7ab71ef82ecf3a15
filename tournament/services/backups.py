"""Backups: the lossless export (`exporting.export_tournament`, with the change log) written to a
file under `settings.BACKUP_DIR` (var/backups/), by hand or whenever a round is closed. A backup is
read back with the import (`importing.import_tournament`, the restore page, or
`manage.py import_tournament`).

A backup holds the tables' entry links (secrets: whoever has one enters results) and the accounts'
user names, so its files are readable by their owner only (0600, the folder 0700; docs/security.md).
"""

from __future__ import annotations

import json
import logging
import os
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
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / backup_name(tournament, reason)
    partial = path.with_suffix(".part")
    write_private(partial, backup_text(tournament))
    partial.replace(path)
    return path


def write_private(path: Path | str, text: str) -> None:
    """Writes `text` (UTF-8) to a file that only its owner can read (0600), whatever the umask; an
    existing file is replaced and made private too."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)
    with open(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)


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
