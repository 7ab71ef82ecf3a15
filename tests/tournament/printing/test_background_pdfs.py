"""A large round's sheets and a large tournament's standings are built as PDF by a background job
(tournament/printing/jobs.py, django-tasks with its database backend): the request answers at once with a
progress page, `manage.py db_worker` (another process) builds the PDF, and the page then hands it out."""

import os
import re
import subprocess
import sys
from io import BytesIO
from pathlib import Path

import pytest
from django.core.cache import cache
from django.urls import reverse
from django_tasks_db.models import DBTaskResult
from pypdf import PdfReader

from tournament.printing import jobs
from tournament.services import results

from ..factories import make_director, make_tournament, normal_game, seated_round
from ..web.test_polling import database_url

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def small_limits(settings, tmp_path):
    """Rounds of more than one table and tournaments of more than 5 players go to the background;
    every test gets an empty PDF cache and renders in-process."""
    settings.PDF_INLINE_TABLES = 1
    settings.PDF_INLINE_PLAYERS = 5
    settings.PDF_CACHE_DIR = tmp_path / "pdf-cache"
    settings.PDF_WORKERS = 1


@pytest.fixture
def tournament(director):
    tournament = make_tournament(players=9, director=director, slug="gross")  # tables of 5 and 4
    round = seated_round(tournament)
    for table in round.tables.all():
        results.save_game(table=table, data=normal_game(table, 1))
    return tournament


def sheets_url(tournament, query=""):
    return reverse("tournament:round_sheets_pdf", args=[tournament.slug, 1]) + query


def run_worker(pdf_cache):
    """`manage.py db_worker --batch`: another process runs every waiting job, then stops."""
    env = {**os.environ, "DATABASE_URL": database_url(), "DJANGO_SETTINGS_MODULE": "config.settings",
           "DJANGO_PDF_CACHE_DIR": str(pdf_cache)}
    command = [sys.executable, "manage.py", "db_worker", "--batch", "--no-startup-delay", "--interval", "0"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def pdf_pages(response) -> list[str]:
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    data = b"".join(response.streaming_content) if response.streaming else response.content
    return [page.extract_text() for page in PdfReader(BytesIO(data)).pages]


@pytest.mark.django_db(transaction=True)
def test_a_large_round_is_built_by_the_worker_and_then_handed_out(client, tmp_path):
    cache.clear()
    director = make_director()
    tournament = make_tournament(players=9, director=director, slug="hintergrund")
    round = seated_round(tournament)
    for table in round.tables.all():
        results.save_game(table=table, data=normal_game(table, 1))
    client.force_login(director)

    page = client.get(sheets_url(tournament))
    assert page.status_code == 202  # at once: nothing was laid out in the request
    content = page.content.decode()
    assert "Spielzettel der Runde 1" in content and "im Hintergrund" in content
    again = re.search(r'<meta http-equiv="refresh" content="2; url=([^"]+)">', content).group(1).replace("&amp;", "&")
    assert again.startswith("?job=")
    assert DBTaskResult.objects.count() == 1
    # asking again (a second tab, the page's own refresh) does not start a second job
    assert client.get(sheets_url(tournament)).status_code == 202
    assert client.get(sheets_url(tournament, again)).status_code == 202
    assert DBTaskResult.objects.count() == 1
    assert client.get(sheets_url(tournament, again + "&status=1")).json()["state"] == "queued"

    run_worker(tmp_path / "worker-pdf-cache")

    status = client.get(sheets_url(tournament, again + "&status=1")).json()
    assert status["state"] == "done" and status["done"] == status["total"] == 2
    texts = pdf_pages(client.get(sheets_url(tournament, again)))
    assert len(texts) == 2 and "Tisch 1" in texts[0] and "Tisch 2" in texts[1]
    assert all("alle Spieler zusammen: 0 ✓" in text for text in texts)
    # the same printout without the job's address: the finished PDF, no new job
    assert pdf_pages(client.get(sheets_url(tournament))) == texts
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"


def test_the_progress_page_shows_how_far_the_job_is(client, director, tournament):
    client.force_login(director)
    page = client.get(sheets_url(tournament))
    job_id = re.search(r"\?job=(\w+)", page.content.decode()).group(1)
    jobs.Progress(job_id)(1, 2)
    content = client.get(sheets_url(tournament, f"?job={job_id}")).content.decode()
    assert "1 von 2 Spielzetteln gesetzt" in content and '<progress value="1" max="2">' in content
    assert client.get(sheets_url(tournament, f"?job={job_id}&status=1")).json() == {
        "job": job_id, "state": "running", "phase": "rendering", "done": 1, "total": 2, "error": ""}


def test_the_job_builds_the_pdf_into_the_shared_cache(client, director, tournament):
    """What the worker runs, here in the test's process: the PDF, one page per table, is kept for every
    web worker; its state says done."""
    client.force_login(director)
    job_id = re.search(r"\?job=(\w+)", client.get(sheets_url(tournament)).content.decode()).group(1)
    spec = DBTaskResult.objects.get().args_kwargs["args"][1]
    size = jobs.build_pdf.call(job_id, spec)
    data = jobs.result(job_id, tournament.pk)
    assert len(data) == size and len(PdfReader(BytesIO(data)).pages) == 2
    assert jobs.state(job_id)["state"] == "done"
    assert jobs.result(job_id, tournament.pk + 1) is None  # not another tournament's
    assert pdf_pages(client.get(sheets_url(tournament, f"?job={job_id}")))


def test_a_change_of_the_tournament_makes_a_new_job_but_the_page_keeps_following_its_own(client, director, tournament):
    client.force_login(director)
    first = re.search(r"\?job=(\w+)", client.get(sheets_url(tournament)).content.decode()).group(1)
    table = tournament.rounds.get(number=1).tables.first()
    results.save_game(table=table, data=normal_game(table, 2))
    second = re.search(r"\?job=(\w+)", client.get(sheets_url(tournament)).content.decode()).group(1)
    assert second != first and DBTaskResult.objects.count() == 2
    assert f"?job={first}" in client.get(sheets_url(tournament, f"?job={first}")).content.decode()


def test_a_failed_job_says_so_and_can_be_tried_again(client, director, tournament, monkeypatch):
    client.force_login(director)
    job_id = re.search(r"\?job=(\w+)", client.get(sheets_url(tournament)).content.decode()).group(1)
    spec = DBTaskResult.objects.get().args_kwargs["args"][1]

    def broken(*args, **kwargs):
        raise OSError("Festplatte voll")

    monkeypatch.setattr(jobs.render, "merged_pdf_file", broken)
    with pytest.raises(OSError):
        jobs.build_pdf.call(job_id, spec)
    content = client.get(sheets_url(tournament, f"?job={job_id}")).content.decode()
    assert "konnte nicht erstellt werden" in content and "Festplatte voll" in content
    assert 'http-equiv="refresh"' not in content and "retry=1" in content
    assert client.get(sheets_url(tournament, f"?job={job_id}&retry=1")).status_code == 202
    assert DBTaskResult.objects.count() == 2 and jobs.state(job_id)["state"] == "queued"


def test_small_rounds_in_the_request_and_a_backend_that_runs_at_once(client, director, tournament, settings,
                                                                     monkeypatch):
    client.force_login(director)
    settings.PDF_INLINE_TABLES = 10
    assert len(pdf_pages(client.get(sheets_url(tournament)))) == 2  # small: in the request, as before
    settings.PDF_INLINE_TABLES = 1
    # DJANGO_TASKS_BACKEND=immediate (no worker): the job runs in the request, which hands out the PDF
    monkeypatch.setattr(jobs, "build_pdf", jobs.build_pdf.using(backend="immediate"))
    blank = pdf_pages(client.get(sheets_url(tournament, "?blank=1")))
    assert len(blank) == 2 and "alle Spieler zusammen" not in blank[0]


def test_large_standings_go_to_the_background(client, director, tournament):
    client.force_login(director)
    page = client.get(reverse("tournament:standings_pdf", args=[tournament.slug]))
    assert page.status_code == 202 and "Tabelle" in page.content.decode()
    job_id = re.search(r"\?job=(\w+)", page.content.decode()).group(1)
    jobs.build_pdf.call(job_id, DBTaskResult.objects.get().args_kwargs["args"][1])
    text = "\n".join(pdf_pages(client.get(reverse("tournament:standings_pdf", args=[tournament.slug]))))
    assert all(name in text for name in tournament.entries.values_list("player__name", flat=True))


def test_only_the_tournaments_directors_get_its_jobs(client, director, tournament):
    client.force_login(director)
    job_id = re.search(r"\?job=(\w+)", client.get(sheets_url(tournament)).content.decode()).group(1)
    other = make_director("fremd")
    seated_round(make_tournament(players=8, director=other, slug="anderes"))  # two tables: in the background
    client.force_login(other)
    assert client.get(reverse("tournament:round_sheets_pdf", args=["anderes", 1]) + f"?job={job_id}"
                      ).status_code == 404
    assert client.get(sheets_url(tournament, f"?job={job_id}")).status_code == 403


def test_a_job_whose_worker_was_killed_is_marked_failed_and_can_be_started_again(client, director, tournament):
    """The worker stopped in the middle (killed, the laptop's lid closed): after LOST_AFTER without a
    report the job is failed with a message saying so, and the retry starts it anew."""
    client.force_login(director)
    job_id = re.search(r"\?job=(\w+)", client.get(sheets_url(tournament)).content.decode()).group(1)
    jobs.Progress(job_id)(1, 2)  # the worker reported, then was killed
    stale = {**jobs.state(job_id), "at": jobs.time.time() - jobs.LOST_AFTER - 1}
    cache.set(jobs.state_key(job_id), stale, jobs.KEEP)
    content = client.get(sheets_url(tournament, f"?job={job_id}")).content.decode()
    assert "konnte nicht erstellt werden" in content and "PDF-Dienst" in content
    assert 'http-equiv="refresh"' not in content and "retry=1" in content
    assert client.get(sheets_url(tournament, f"?job={job_id}&status=1")).json()["state"] == "failed"
    assert client.get(sheets_url(tournament, f"?job={job_id}&retry=1")).status_code == 202
    assert DBTaskResult.objects.count() == 2 and jobs.state(job_id)["state"] == "queued"


def test_make_serve_restarts_a_dead_worker_and_stops_it_with_the_server(tmp_path):
    """scripts/supervise.sh, which scripts/serve.sh runs the PDF worker under: a worker that dies is
    started again; SIGTERM (the server stopping) ends the worker and the supervisor."""
    import signal
    import time

    starts, pids = tmp_path / "starts", tmp_path / "pid"
    worker = (f'echo start >> {starts}; echo $$ > {pids}; '
              f'if [ "$(wc -l < {starts})" -lt 3 ]; then exit 1; fi; exec sleep 60')
    supervisor = subprocess.Popen(["bash", str(ROOT / "scripts" / "supervise.sh"), "sh", "-c", worker],
                                  env={**os.environ, "SUPERVISE_PAUSE": "0.1"}, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (starts.exists() and len(starts.read_text().split()) >= 3):
            time.sleep(0.1)
        assert len(starts.read_text().split()) == 3  # died twice, started again each time
        time.sleep(0.3)
        last = int(pids.read_text())
        os.kill(last, 0)  # the third one runs
        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(timeout=10) == 0
        assert "beendet (Status 1), Neustart" in supervisor.stderr.read()
        time.sleep(0.2)
        with pytest.raises(ProcessLookupError):
            os.kill(last, 0)  # stopped with the supervisor
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
    assert "supervise.sh" in (ROOT / "scripts" / "serve.sh").read_text()
