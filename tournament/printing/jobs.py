"""Long work off the request: a round's score sheets and the standings as PDF, built by a background
job with visible progress.

The task system is django-tasks (the backport of Django 6's `django.tasks`) with its database
backend, django-tasks-db: a job is a row in the database, and `manage.py db_worker` runs it -- on
the venue laptop next to the web server (`make serve` starts one), on a hosted install as many
workers on as many machines as needed (docs/deploy.md). No broker to install.

A job is named by what it prints: the printout, the tournament, its change counter, the language and
the parameters (`PdfJob.id`). Asking for the same printout again while nothing changed finds the
same job (running, or done with its PDF); a change of the tournament makes a new one. The job's
state (queued, running with n of m documents laid out, done, failed) and its PDF are kept in the
shared cache (database or Redis, config/settings.py), so that any web worker on any machine can show
the progress and hand out the result, wherever the job ran.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext as _
from django_tasks import task

from ..models import Round, Tournament
from ..web import cache_keys
from . import documents, render

logger = logging.getLogger(__name__)

# how long a finished PDF and a job's state are kept
KEEP = 6 * 3600
# a running job that has not reported for this long is taken as lost (its worker was killed)
LOST_AFTER = 300
# a queued job waits for a worker; after this long the page says that one may not be running
WAITING_HINT_AFTER = 20
# progress is written at most this often (each write is a cache write)
REPORT_EVERY = 0.5

KINDS = ("round_sheets", "standings")


@dataclass
class PdfJob:
    """What a job prints; its `id` is a digest of all of it."""

    kind: str
    tournament_id: int
    counter: int
    language: str
    params: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return cache_keys.digest(cache_keys.release(), self.kind, self.tournament_id, self.counter, self.language,
                              sorted(self.params.items()))

    def spec(self) -> dict:
        return {"kind": self.kind, "tournament": self.tournament_id, "counter": self.counter,
                "language": self.language, "params": self.params}


def state_key(job_id: str) -> str:
    return cache_keys.pdf_job(job_id)


def result_key(job_id: str) -> str:
    return cache_keys.pdf_result(job_id)


def state(job_id: str) -> dict | None:
    """The job's state; a running job that has not reported for LOST_AFTER seconds is lost (its worker
    was killed or stopped) and is failed here, by whoever reads it first, with a message saying so:
    the page then offers to start it again (`retry`)."""
    current = cache.get(state_key(job_id))
    if current is not None and _lost(current):
        current = {**current, "state": "failed", "phase": "failed",
                   "error": _("Der PDF-Dienst hat den Auftrag nicht zu Ende gebracht (er wurde beendet oder "
                              "neu gestartet). Bitte neu starten.")}
        cache.set(state_key(job_id), current, KEEP)
    return current


def result(job_id: str, tournament_id: int) -> bytes | None:
    """The finished PDF of a job of this tournament (None: not ready, or another tournament's)."""
    stored = cache.get(result_key(job_id))
    if stored is None or stored["tournament"] != tournament_id:
        return None
    return stored["pdf"]


def start(job: PdfJob, *, filename: str) -> dict:
    """Starts the job unless it is already queued, running or done; returns its state. Of several
    requests at the same moment (on any machine) only one enqueues: `cache.add` stores the state
    only where there is none."""
    now = time.time()
    fresh = {"job": job.id, "kind": job.kind, "tournament": job.tournament_id, "filename": filename,
             "state": "queued", "phase": "queued", "done": 0, "total": 0, "queued_at": now, "at": now,
             "error": ""}
    if cache.add(state_key(job.id), fresh, KEEP):
        try:
            build_pdf.enqueue(job.id, job.spec())
        except Exception:
            cache.delete(state_key(job.id))
            raise
    return state(job.id) or fresh


def retry(job_id: str) -> None:
    """Forgets a failed job, so that the next request starts it again."""
    current = state(job_id)
    if current is not None and current["state"] == "failed":
        cache.delete(state_key(job_id))


def _lost(current: dict) -> bool:
    return current["state"] == "running" and time.time() - current["at"] > LOST_AFTER


def waiting_long(current: dict) -> bool:
    return current["state"] == "queued" and time.time() - current["queued_at"] > WAITING_HINT_AFTER


def _update(job_id: str, **changes) -> None:
    current = cache.get(state_key(job_id)) or {"job": job_id}
    current.update(changes, at=time.time())
    cache.set(state_key(job_id), current, KEEP)


class Progress:
    """Writes a job's progress to the shared cache, at most every REPORT_EVERY seconds (and always
    the last step)."""

    def __init__(self, job_id: str):
        self.job_id = job_id
        self.written = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self.written < REPORT_EVERY:
            return
        self.written = now
        _update(self.job_id, state="running", phase="rendering", done=done, total=total)


@task()
def build_pdf(job_id: str, spec: dict) -> int:
    """Builds the PDF of a job and keeps it in the shared cache; returns its size in bytes."""
    try:
        with translation.override(spec["language"]):
            _update(job_id, state="running", phase="reading")
            data = _build(job_id, spec)
        cache.set(result_key(job_id), {"tournament": spec["tournament"], "pdf": data}, KEEP)
        _update(job_id, state="done", phase="done", size=len(data))
        return len(data)
    except Exception as error:
        logger.exception("PDF job %s failed", job_id)
        _update(job_id, state="failed", phase="failed", error=f"{type(error).__name__}: {error}")
        raise


def _build(job_id: str, spec: dict) -> bytes:
    tournament = Tournament.objects.get(pk=spec["tournament"])
    params = spec["params"]
    progress = Progress(job_id)
    if spec["kind"] == "round_sheets":
        round = Round.objects.get(tournament=tournament, number=params["round"])
        round.tournament = tournament
        htmls = documents.round_sheet_documents(round, blank=params["blank"], link_base=params["link_base"])
        kind = "blank" if params["blank"] else "sheets"
        path = render.merged_pdf_file(htmls, name=f"{tournament.slug}-r{round.number}-{kind}", progress=progress)
        _update(job_id, phase="merged")
        return path.read_bytes()
    if spec["kind"] == "standings":
        html = documents.standings_html(tournament, up_to_round=params.get("round"))
        _update(job_id, state="running", phase="rendering", done=0, total=1)
        return render.pdf_file(html).read_bytes()
    raise ValueError(_("Unbekannte Druckausgabe: %(kind)s") % {"kind": spec["kind"]})
