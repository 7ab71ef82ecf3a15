#!/usr/bin/env bash
# `make hub-check` (docs/publishing.md, "Proven under faults"): a venue publishing to a hub through a
# fault-injecting proxy, on loopback. Installs PostgreSQL, Redis and nginx from Debian's packages when
# missing (their system services are not used), then runs scripts/hub_check.py inside a throwaway
# PostgreSQL (scripts/with-postgres.sh: the hub's database). Arguments go to hub_check.py
# (HUB_CHECK_ARGS="--players 40 --rounds 2" for a short run).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-$PWD/.venv/bin/python}

bash scripts/system-deps.sh cluster

exec bash scripts/with-postgres.sh "$PY" scripts/hub_check.py "$@"
