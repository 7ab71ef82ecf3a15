#!/usr/bin/env bash
# `make serve`: the app for a venue's local network with a production server (docs/deploy.md).
#
# gunicorn (deploy/gunicorn.conf.py) on all interfaces, static files through WhiteNoise, debug off
# with a secret key generated once and kept in var/secret-key, plain HTTP (DJANGO_HTTPS=0: there
# is no certificate in a village hall); the PDF worker (`manage.py db_worker`, restarted when it dies)
# next to it. Prints the address players type and its QR code. Ctrl+C stops both.
#
# Expects the database migrated (`make serve` does that first). Environment: HOST (default 0.0.0.0),
# PORT (8000), GUNICORN_WORKERS, GUNICORN_THREADS, DATABASE_URL, DJANGO_REDIS_URL, and every
# DJANGO_* setting of config/settings.py. SERVE_QUIET=1: no address and QR code (the load test).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
HOST=${HOST:-0.0.0.0}
PORT=${PORT:-8000}

mkdir -p var/log
if [ ! -s var/secret-key ]; then
  (umask 077 && "$PY" -c 'import secrets; print(secrets.token_urlsafe(50))' > var/secret-key)
  echo "serve: neuer geheimer Schlüssel in var/secret-key"
fi
DJANGO_SECRET_KEY=$(cat var/secret-key)
export DJANGO_SECRET_KEY
export DJANGO_DEBUG=0
export DJANGO_HTTPS=${DJANGO_HTTPS:-0}
export DJANGO_STATIC_MANIFEST=1
export DJANGO_CONN_MAX_AGE=${DJANGO_CONN_MAX_AGE:-60}
if [ -z "${DJANGO_ALLOWED_HOSTS:-}" ]; then
  DJANGO_ALLOWED_HOSTS=$("$PY" scripts/serve_info.py "$PORT" --hosts)
  export DJANGO_ALLOWED_HOSTS
fi
if [ -z "${DJANGO_SITE_URL:-}" ] && [ "$HOST" != "127.0.0.1" ]; then
  DJANGO_SITE_URL=$("$PY" scripts/serve_info.py "$PORT" --url)
  export DJANGO_SITE_URL
fi

"$PY" manage.py collectstatic --noinput -v 0
"$PY" manage.py check --deploy --fail-level ERROR >/dev/null
# contact data of registrations past their time (docs/security.md, "Contact data"): a laptop has no
# cron, so every start erases what is due
"$PY" manage.py erase_contacts -v 0

worker=""
sender=""
server=""
stop() {
  for pid in $server $worker $sender; do
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
    fi
  done
  for pid in $server $worker $sender; do
    wait "$pid" 2>/dev/null || true
  done
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# the background jobs (PDFs): one worker process; its own pool lays out sheets on both cores. Kept
# alive by scripts/supervise.sh: a worker that dies (killed, out of memory) is started again, so that
# PDF jobs do not wait forever; stopped with the server (the trap above).
bash scripts/supervise.sh "$PY" manage.py db_worker --interval 0.5 >>var/log/worker.log 2>&1 &
worker=$!
# the sender of published tournaments to their hub (docs/publishing.md): looks into the outbox every
# second and sends only when a tournament is published; kept alive and stopped like the worker
bash scripts/supervise.sh "$PY" manage.py publish >>var/log/publish.log 2>&1 &
sender=$!

if [ -z "${SERVE_QUIET:-}" ]; then
  "$PY" scripts/serve_info.py "$PORT"
  echo "  Beenden mit Strg+C. Zugriffe: var/log/access.log, PDF-Aufträge: var/log/worker.log"
  echo
fi
export GUNICORN_BIND="$HOST:$PORT"
export GUNICORN_ACCESS_LOG=${GUNICORN_ACCESS_LOG-var/log/access.log}
# in the background and waited for: the traps above stop gunicorn and the worker together
"$PY" -m gunicorn -c deploy/gunicorn.conf.py config.wsgi:application &
server=$!
wait "$server"
