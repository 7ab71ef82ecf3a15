#!/usr/bin/env bash
# Install the Debian packages the project needs -- only those that are missing.
#   scripts/system-deps.sh run    gettext + WeasyPrint's libraries (enough for `make run`)
#   scripts/system-deps.sh test   the above + chromium (browser tests) + postgresql (PG pass)
#                                 + poppler-utils and zbar-tools (the browser test reads the QR code
#                                 of a printed score sheet)
#   scripts/system-deps.sh cluster  PostgreSQL, Redis and nginx for make cluster-check and make hub-check
#                                 (their system services are not used: the scripts start their own)
# A machine that has everything does nothing (no apt-get update).
set -euo pipefail

run_pkgs=(gettext libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core)
test_pkgs=(chromium postgresql poppler-utils zbar-tools)
cluster_pkgs=(postgresql redis-server nginx-light)

case "${1:-test}" in
  run) wanted=("${run_pkgs[@]}") ;;
  test) wanted=("${run_pkgs[@]}" "${test_pkgs[@]}") ;;
  cluster) wanted=("${cluster_pkgs[@]}") ;;
  *) echo "usage: $0 run|test|cluster" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "system-deps: not a Debian system; make sure these (or their equivalents) are installed: ${wanted[*]}" >&2
  exit 0
fi

missing=()
for pkg in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
[ "${#missing[@]}" -eq 0 ] && exit 0

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "system-deps: missing ${missing[*]}; run as root or install sudo" >&2
    exit 1
  fi
fi

echo "system-deps: installing ${missing[*]}"
apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -q)
"${apt[@]}" update
"${apt[@]}" install -y --no-install-recommends "${missing[@]}"
