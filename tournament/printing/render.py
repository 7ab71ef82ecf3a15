"""HTML to PDF, fast: a disk cache keyed by the HTML, a process pool for many sheets, pypdf to merge.

WeasyPrint lays out a score sheet in about a fifth of a second, so a 250-table round takes close to a
minute on one core. Three things make that rare:

1. **Cache.** A PDF is stored as `<sha256 of the HTML>.pdf` in `PDF_CACHE_DIR` (setting; default
   `var/pdf-cache/`). The HTML holds everything printed (and the stylesheet), so the same HTML is
   the same PDF: an unchanged sheet is never laid out again, a changed one gets a new key.
2. **Sheets drawn in groups, merged.** A round's PDF is merged with pypdf from files of
   `SHEETS_PER_FILE` consecutive sheets each (one font subset per file, ten files to merge instead of
   250), itself cached under the hash of the sheets' keys: after one game is entered, that sheet's
   group is drawn again and merged. Other printouts (the seating plan) are one file per document.
3. **Both cores.** Missing sheets are laid out in a pool of worker processes (`PDF_WORKERS`,
   default 2) from HTML strings prepared in the main process; the workers need no database and no
   Django settings. A few missing sheets are rendered in-process (a pool costs a second to start).

This module imports nothing from Django at the top: the workers import it on their own.
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from importlib.metadata import version
from multiprocessing import get_context
from pathlib import Path

from . import sheet_pdf

# Bump to drop every cached PDF when the rendering (not the HTML) changes. WeasyPrint itself is
# imported only where HTML is rendered: a worker that draws score sheets never needs it (0.9 s).
RENDER_VERSION = f"weasyprint-{version('weasyprint')}/reportlab-{version('reportlab')}/4"
# Fewer missing PDFs than this are rendered in-process: starting the pool costs more.
PARALLEL_MIN = 8
# Score sheets drawn into one file for a round's PDF. A 250-table round, in one process: 250 files
# drawn in 6.1 s and merged in 1.9 s into 9.2 MB, against 2 files of 125 drawn in 3.3 s and merged in
# 0.6 s into 1.9 MB (each file embeds its own subset of the fonts). 25: ten files for both workers
# to share, and a change at one table draws 25 sheets again (about a third of a second).
SHEETS_PER_FILE = 25


# ---- one document --------------------------------------------------------------------------------

def html_to_pdf(html: str) -> bytes:
    """One document to PDF: a score sheet (a string from documents.sheet_document, starting with
    sheet_pdf.PREFIX) is drawn by sheet_pdf.py; anything else is HTML for WeasyPrint. Fonts come from
    fontconfig (DejaVu) and are embedded as subsets."""
    if html.startswith(sheet_pdf.PREFIX):
        return sheet_pdf.sheets_pdf([html])
    import weasyprint

    return weasyprint.HTML(string=html).write_pdf()


def cache_key(html: str) -> str:
    return hashlib.sha256(f"{RENDER_VERSION}\n{html}".encode()).hexdigest()


def cache_dir() -> Path:
    from django.conf import settings

    path = Path(getattr(settings, "PDF_CACHE_DIR", Path(settings.BASE_DIR) / "var" / "pdf-cache"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def _write_atomically(path: Path, data: bytes) -> None:
    """Readers see the old file or the whole new one, never half of it."""
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pdf")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def group_pdf(group: list[str]) -> bytes:
    """One document (`html_to_pdf`), or several score sheets drawn into one PDF."""
    return html_to_pdf(group[0]) if len(group) == 1 else sheet_pdf.sheets_pdf(group)


def _group_key(group: list[str]) -> str:
    """A group's cache key: a single document's own key (`cache_key`), so that a table's sheet is one
    file whether it is printed alone or with its round."""
    if len(group) == 1:
        return cache_key(group[0])
    return hashlib.sha256("\n".join(cache_key(html) for html in group).encode()).hexdigest()


def _groups(htmls: list[str]) -> list[list[str]]:
    """`htmls` as they are drawn for a merged PDF: consecutive score sheets `SHEETS_PER_FILE` to a
    group, any other document on its own."""
    groups: list[list[str]] = []
    for html in htmls:
        last = groups[-1] if groups else None
        if (last is not None and html.startswith(sheet_pdf.PREFIX) and last[0].startswith(sheet_pdf.PREFIX)
                and len(last) < SHEETS_PER_FILE):
            last.append(html)
        else:
            groups.append([html])
    return groups


def _render_job(job: tuple[list[str], str]) -> int:
    """Draws one group into its cache file and returns how many documents it holds; runs in the main
    process or a pool worker."""
    group, path = job
    _write_atomically(Path(path), group_pdf(group))
    return len(group)


def pdf_file(html: str) -> Path:
    """The cached PDF of `html`, rendered first if it is not in the cache."""
    path = cache_dir() / f"{cache_key(html)}.pdf"
    if not path.exists():
        _render_job(([html], str(path)))
    return path


def pdf_bytes(html: str) -> bytes:
    return pdf_file(html).read_bytes()


# ---- many documents ------------------------------------------------------------------------------

def _exit_with_parent(parent: int) -> None:
    """Runs in each worker: a worker whose web server process was killed (no clean shutdown) would
    wait for work forever; this ends it within a few seconds instead."""
    def watch():
        while os.getppid() == parent:
            time.sleep(2)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="exit-with-parent").start()


_pool: ProcessPoolExecutor | None = None
_pool_workers = 0
_pool_lock = threading.Lock()


def _get_pool(workers: int) -> ProcessPoolExecutor:
    """One pool per process, kept between requests. "spawn": safe in a threaded web server (no fork
    of a process holding locks), and the workers start clean without Django."""
    global _pool, _pool_workers
    with _pool_lock:
        if _pool is None or _pool_workers != workers:
            if _pool is not None:
                _pool.shutdown(wait=False, cancel_futures=True)
            _pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"),
                                        initializer=_exit_with_parent, initargs=(os.getpid(),))
            _pool_workers = workers
        return _pool


def _drop_pool() -> None:
    global _pool
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


def default_workers() -> int:
    from django.conf import settings

    return max(1, int(getattr(settings, "PDF_WORKERS", min(2, os.cpu_count() or 1))))


def pdf_files(htmls: list[str], *, workers: int | None = None, parallel_min: int = PARALLEL_MIN,
              progress: Callable[[int, int], None] | None = None) -> list[Path]:
    """The cached PDFs of `htmls`, one file each, in order (`group_files`)."""
    return group_files([[html] for html in htmls], workers=workers, parallel_min=parallel_min, progress=progress)


def group_files(groups: list[list[str]], *, workers: int | None = None, parallel_min: int = PARALLEL_MIN,
                progress: Callable[[int, int], None] | None = None) -> list[Path]:
    """The cached PDF of each group of documents, in order; the missing ones are drawn, in a pool of
    `workers` processes when at least `parallel_min` documents and two groups are missing.
    `progress(done, total)` is told, in documents, after each group (the ones found in the cache
    count as done at once)."""
    folder = cache_dir()
    paths = [folder / f"{_group_key(group)}.pdf" for group in groups]
    missing = {}
    for group, path in zip(groups, paths, strict=True):
        if path not in missing and not path.exists():
            missing[path] = group
    jobs = [(group, str(path)) for path, group in missing.items()]
    total = sum(len(group) for group in groups)
    done = total - sum(len(group) for group, _path in jobs)

    def tell():
        if progress is not None:
            progress(done, total)

    tell()
    workers = default_workers() if workers is None else workers
    if workers > 1 and len(jobs) >= 2 and total - done >= parallel_min:
        try:
            pool = _get_pool(workers)
            # a few chunks per worker: little messaging, yet the workers finish at about the same time;
            # at most 4 jobs a chunk, so that the progress moves
            chunk = max(1, min(4, len(jobs) // (workers * 4)))
            for drawn in pool.map(_render_job, jobs, chunksize=chunk):
                done += drawn
                tell()
        except (BrokenProcessPool, OSError):  # no pool here, or a worker died: finish in-process
            _drop_pool()
    for group, job_path in jobs:
        if not Path(job_path).exists():
            done = min(total, done + _render_job((group, job_path)))
            tell()
    return paths


def merged_pdf_file(htmls: list[str], *, name: str = "round", workers: int | None = None,
                    parallel_min: int = PARALLEL_MIN, progress: Callable[[int, int], None] | None = None) -> Path:
    """One PDF of all `htmls` in order (their pages one after the other), merged from the files of
    their groups (`_groups`: score sheets `SHEETS_PER_FILE` to a file); cached under the hash of their
    keys, so an unchanged round costs one file read. `name` says which printout it is (e.g.
    "herbst-r1-sheets"): writing a new version of it removes the older ones, so a busy evening does
    not pile up merged copies."""
    keys = [cache_key(html) for html in htmls]
    prefix = f"merged-{name}-"
    folder = cache_dir()
    path = folder / (prefix + hashlib.sha256("\n".join(keys).encode()).hexdigest() + ".pdf")
    if path.exists():
        return path
    parts = group_files(_groups(htmls), workers=workers, parallel_min=parallel_min, progress=progress)
    _write_atomically(path, merge(parts))
    for old in folder.glob(prefix + "*.pdf"):
        if old != path and len(old.name) == len(path.name):
            old.unlink(missing_ok=True)
    return path


def open_merged_pdf(htmls: list[str], **options):
    """The merged PDF as an open file (for streaming): retried should another request replace the
    file between finding and opening it."""
    for _attempt in range(3):
        try:
            return open(merged_pdf_file(htmls, **options), "rb")
        except FileNotFoundError:
            continue
    return open(merged_pdf_file(htmls, **options), "rb")


def merge(paths: list[Path]) -> bytes:
    """The pages of `paths` in order, with their bookmarks ("Runde 1 · Tisch 3")."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for part in paths:
        reader = PdfReader(part)
        first = len(writer.pages)
        for page in reader.pages:
            writer.add_page(page)
        for item in reader.outline:
            if not isinstance(item, list):  # top-level bookmarks only
                writer.add_outline_item(title=item.title or "",
                                        page_number=first + (reader.get_destination_page_number(item) or 0))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
