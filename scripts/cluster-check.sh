#!/usr/bin/env bash
# The hosted topology of docs/deploy.md, on this machine, on loopback only:
#
#   nginx 127.0.0.1:8100  ->  app instance A 127.0.0.1:8101 (gunicorn)
#                         ->  app instance B 127.0.0.1:8102 (gunicorn)
#   PostgreSQL (a throwaway server, scripts/with-postgres.sh), Redis (the shared cache, a unix
#   socket), a PDF worker (manage.py db_worker); each instance and the worker with a PDF cache
#   folder of its own, as if they were separate machines.
#
# Then: scripts/cluster_check.py (a game saved through A shows at once on B; a PDF the worker built
# is handed out by B) and the load test through nginx (scripts/loadtest.py --url). Installs
# PostgreSQL, Redis and nginx from Debian's packages when missing; stops and deletes everything
# afterwards, also on failure or Ctrl+C. Not part of `make test` (it takes a few minutes).
#
# Environment: CLUSTER_USERS (phones, default 500), CLUSTER_RUN_TIME (seconds, default 120),
# CLUSTER_PLAYERS (default 500), CLUSTER_PORT (nginx; the instances use the next two ports),
# CLUSTER_RUSH_USERS (the round-start rush after it: phones arriving within 60 s, default 2000),
# CLUSTER_RUSH_RUN_TIME (seconds, default 90). The instances run as a hub (DJANGO_HUB=1) with an
# association's Rangliste over generated member clubs (scripts/cluster_rangliste.py: CLUSTER_CLUBS,
# default 40, CLUSTER_TOURNAMENTS 2000, CLUSTER_PEOPLE 40000); CLUSTER_RANGLISTE_PHONES (default 100)
# follow its page and API during the evening's load test, while a member club's Ranglistenturnier
# arrives as a venue's batch and the time until the page counts it is measured (bound: 60 s).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PY:-$ROOT/.venv/bin/python}

# ---- Debian packages, only those that are missing ---------------------------------------------------
bash scripts/system-deps.sh cluster

# ---- PostgreSQL: the throwaway server of the tests, around the rest of this script -------------------
if [ -z "${CLUSTER_INSIDE_POSTGRES:-}" ]; then
  CLUSTER_INSIDE_POSTGRES=1 exec bash scripts/with-postgres.sh bash "$0" "$@"
fi

USERS=${CLUSTER_USERS:-500}
RUN_TIME=${CLUSTER_RUN_TIME:-120}
PLAYERS=${CLUSTER_PLAYERS:-500}
RUSH_USERS=${CLUSTER_RUSH_USERS:-2000}
RUSH_RUN_TIME=${CLUSTER_RUSH_RUN_TIME:-90}
CLUBS=${CLUSTER_CLUBS:-40}
TOURNAMENTS=${CLUSTER_TOURNAMENTS:-2000}
PEOPLE=${CLUSTER_PEOPLE:-40000}
RANGLISTE_PHONES=${CLUSTER_RANGLISTE_PHONES:-100}
PORT=${CLUSTER_PORT:-8100}
PORT_A=$((PORT + 1))
PORT_B=$((PORT + 2))
work=$(mktemp -d /tmp/doko-cluster.XXXXXX)
pids=()
cleanup() {
  local rc=$?
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$rc" -ne 0 ]; then
    echo "cluster-check: failed (exit $rc); the last lines of each log:" >&2
    for log in "$work"/*.log; do [ -f "$log" ] && { echo "== $log" >&2; tail -n 15 "$log" >&2; }; done
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- Redis: the shared cache, on a unix socket ----------------------------------------------------
redis-server --port 0 --unixsocket "$work/redis.sock" --unixsocketperm 700 --save "" --appendonly no \
  --dir "$work" --logfile "$work/redis.log" &
pids+=($!)

# ---- the app's settings, the same for both instances and the worker ----------------------------------
export DJANGO_DEBUG=0 DJANGO_HTTPS=0 DJANGO_STATIC_MANIFEST=1 DJANGO_CONN_MAX_AGE=60 DJANGO_PROXY_COUNT=1
export DJANGO_SECRET_KEY
DJANGO_SECRET_KEY=$("$PY" -c 'import secrets; print(secrets.token_urlsafe(50))')
export DJANGO_ALLOWED_HOSTS=127.0.0.1,localhost
export DJANGO_HUB=1  # the hosted hub: venues publish to it, the association's Rangliste is computed on it
# the API's limit per address (120 a minute) would count every phone of the load test as one client:
# they all come from 127.0.0.1 (at home each phone has an address of its own)
export DJANGO_API_RATE=100000/m
export DJANGO_REDIS_URL="unix://$work/redis.sock"
export DJANGO_LOG_DIR="$work/log"
for _ in $(seq 50); do [ -S "$work/redis.sock" ] && break; sleep 0.1; done

"$PY" scripts/loadtest.py --prepare-only "$work/plan.json" --players "$PLAYERS"
"$PY" scripts/cluster_rangliste.py prepare "$work/rangliste.json" --clubs "$CLUBS" --tournaments "$TOURNAMENTS" \
  --players "$PEOPLE"
"$PY" manage.py collectstatic --noinput -v 0

start_instance() {  # name port
  DJANGO_PDF_CACHE_DIR="$work/pdf-$1" GUNICORN_BIND="127.0.0.1:$2" GUNICORN_WORKERS=2 GUNICORN_THREADS=4 \
    "$PY" -m gunicorn -c deploy/gunicorn.conf.py config.wsgi:application >"$work/instance-$1.log" 2>&1 &
  pids+=($!)
}
start_instance a "$PORT_A"
start_instance b "$PORT_B"
DJANGO_PDF_CACHE_DIR="$work/pdf-worker" "$PY" manage.py db_worker --interval 0.5 >"$work/worker.log" 2>&1 &
pids+=($!)

# ---- nginx in front (the configuration of docs/deploy.md, on loopback) ---------------------------------
mkdir -p "$work/nginx/tmp"
# as root, nginx's workers run as nobody: they write request bodies over 16 KB (a venue's tournament file,
# a backup to restore) to tmp/body, so they must be able to pass through the work folder (mktemp's 700)
[ "$(id -u)" -eq 0 ] && chown -R nobody "$work/nginx/tmp" && chmod 711 "$work"
sed -e "s|@LISTEN@|127.0.0.1:$PORT|" -e "s|@UPSTREAMS@|server 127.0.0.1:$PORT_A; server 127.0.0.1:$PORT_B;|" \
    -e "s|@PREFIX@|$work/nginx|g" deploy/nginx-cluster.conf > "$work/nginx/nginx.conf"
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -g "daemon off;" >"$work/nginx.log" 2>&1 &
pids+=($!)

wait_for() {  # url
  for _ in $(seq 120); do
    if curl -fsS -o /dev/null "$1" 2>/dev/null; then return 0; fi
    sleep 0.5
  done
  echo "cluster-check: $1 did not answer" >&2
  return 1
}
slug=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["slug"])' "$work/plan.json")
for port in "$PORT_A" "$PORT_B" "$PORT"; do wait_for "http://127.0.0.1:$port/t/$slug/standings/"; done
echo "cluster-check: nginx :$PORT -> A :$PORT_A, B :$PORT_B; PostgreSQL; Redis $DJANGO_REDIS_URL; a PDF worker"

"$PY" scripts/cluster_check.py "$work/plan.json" "http://127.0.0.1:$PORT_A" "http://127.0.0.1:$PORT_B" \
  "http://127.0.0.1:$PORT"

echo "cluster-check: load test through nginx: $USERS phones + 3 directors for $RUN_TIME s, beside them" \
  "$RANGLISTE_PHONES phones following the association's Rangliste; a Ranglistenturnier arrives after $((RUN_TIME / 4)) s"
"$PY" scripts/cluster_rangliste.py arrive "$work/rangliste.json" "http://127.0.0.1:$PORT" --wait $((RUN_TIME / 4)) \
  >"$work/rangliste-arrive.out" 2>&1 &
arrive=$!
pids+=("$arrive")
loaded=0
"$PY" scripts/loadtest.py --url "http://127.0.0.1:$PORT" --plan "$work/plan.json" --users "$USERS" \
  --run-time "$RUN_TIME" --name cluster --rangliste cluster-verband --rangliste-phones "$RANGLISTE_PHONES" \
  || loaded=$?
arrived=0
wait "$arrive" || arrived=$?
echo "cluster-check: the association's Rangliste after a new tournament arrives (under the load):"
cat "$work/rangliste-arrive.out"
[ "$loaded" -eq 0 ] || { echo "cluster-check: the load test failed" >&2; exit 1; }
[ "$arrived" -eq 0 ] || { echo "cluster-check: the Rangliste was not recomputed in time" >&2; exit 1; }
echo "cluster-check: the round-start rush through nginx: $RUSH_USERS phones arriving within 60 s (seating first)"
"$PY" scripts/loadtest.py --url "http://127.0.0.1:$PORT" --plan "$work/plan.json" --users "$RUSH_USERS" \
  --run-time "$RUSH_RUN_TIME" --rush --directors 0 --name cluster-rush
echo "cluster-check: requests per instance (from nginx's upstream log):"
awk '{print $1}' "$work/nginx/upstream.log" | sort | uniq -c | sed 's/^/  /'
echo "cluster-check: passed"
