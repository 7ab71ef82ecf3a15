#!/usr/bin/env bash
# One pass of the test suite on the database the environment names (make test runs it twice: SQLite,
# then a throwaway PostgreSQL). The tests outside tests/e2e run on every core at once (pytest-xdist,
# one test database per worker); the browser tests then run in one process, after them and alone, so
# that two Chromiums and two live servers never compete for the machine's two cores.
#
# Usage: scripts/run-tests.sh PYTEST [ARGS...]   (ARGS as for pytest: -k name, -x, a path ...)
# Exit: 0 when both parts passed, or one passed and the other found nothing that ARGS select;
# pytest's own code otherwise (5 when neither found a test).
set -uo pipefail
pytest=($1)
shift
workers="${DOKO_TEST_WORKERS:-$(nproc)}"
paths=()
options=()
for arg in "$@"; do
  if [[ "$arg" != -* && -e "${arg%%::*}" ]]; then paths+=("$arg"); else options+=("$arg"); fi
done
unit=() e2e=()
if [ ${#paths[@]} -eq 0 ]; then
  unit=(tests --ignore=tests/e2e) e2e=(tests/e2e)
else
  for path in "${paths[@]}"; do
    if [[ "$path" == tests/e2e* ]]; then e2e+=("$path"); else unit+=("$path"); fi
  done
  [ ${#unit[@]} -gt 0 ] && unit+=(--ignore=tests/e2e)
fi
rc_unit=5 rc_e2e=5
if [ ${#unit[@]} -gt 0 ]; then
  parallel=()
  [ "$workers" -gt 1 ] && parallel=(-n "$workers")
  "${pytest[@]}" "${parallel[@]}" "${options[@]}" "${unit[@]}"; rc_unit=$?
fi
if [ ${#e2e[@]} -gt 0 ]; then
  "${pytest[@]}" "${options[@]}" "${e2e[@]}"; rc_e2e=$?
fi
echo "tests outside tests/e2e: exit $rc_unit; browser tests: exit $rc_e2e (5 = none selected)"
if [ "$rc_unit" -eq 5 ] && [ "$rc_e2e" -eq 5 ]; then exit 5; fi
for rc in "$rc_unit" "$rc_e2e"; do
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 5 ]; then exit "$rc"; fi
done
exit 0
