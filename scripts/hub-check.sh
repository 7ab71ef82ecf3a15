#!/usr/bin/env bash
# `make hub-check` (docs/publishing.md, "Proven under faults"): a venue publishing to a hub through a
# fault-injecting proxy, on loopback. Installs PostgreSQL, Redis and nginx from Debian's packages when
# missing (their system services are not used), then runs scripts/hub_check.py inside a throwaway
# PostgreSQL (scripts/with-postgres.sh: the hub's database). Arguments go to hub_check.py
# (HUB_CHECK_ARGS="--players 40 --rounds 2" for a short run).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-$PWD/.venv/bin/python}

need=()
for pkg in postgresql redis-server nginx-light; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
    echo "hub-check: missing ${need[*]}; run as root or install sudo" >&2
    exit 1
  fi
  sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  echo "hub-check: installing ${need[*]} (Debian packages; their system services are not used)"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -q update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -q install -y \
    --no-install-recommends "${need[@]}"
fi

exec bash scripts/with-postgres.sh "$PY" scripts/hub_check.py "$@"
