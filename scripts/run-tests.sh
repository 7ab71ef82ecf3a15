#!/usr/bin/env bash
# One pass of the test suite on the database the environment names (make test runs it twice: SQLite,
# then a throwaway PostgreSQL). The tests outside tests/e2e run on every core at once (pytest-xdist,
# one test database per worker); then the browser tests (one Chromium, one live server, their own test
# database), alone: a browser test waits for answers within seconds, and beside two busy workers on two
# cores one waited too long (a poll still on its way when the test went on). DOKO_TEST_E2E_BESIDE=1 runs
# them in one more process at the same time as the others instead (they spend most of their time
# waiting, about a third of a core: about a minute less for make test here); their output is then
# shown when both are done.
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
e2e_pid="" e2e_log=""
stop_browser_tests() {
  if [ -n "$e2e_pid" ]; then kill -- "$e2e_pid" 2>/dev/null || true; wait "$e2e_pid" 2>/dev/null || true; fi
  [ -n "$e2e_log" ] && rm -f "$e2e_log"
}
if [ ${#e2e[@]} -gt 0 ] && [ ${#unit[@]} -gt 0 ] && [ "${DOKO_TEST_E2E_BESIDE:-0}" = 1 ]; then
  e2e_log=$(mktemp /tmp/doko-e2e.XXXXXX)
  trap stop_browser_tests EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  "${pytest[@]}" "${options[@]}" "${e2e[@]}" >"$e2e_log" 2>&1 &
  e2e_pid=$!
fi
if [ ${#unit[@]} -gt 0 ]; then
  parallel=()
  [ "$workers" -gt 1 ] && parallel=(-n "$workers")
  "${pytest[@]}" "${parallel[@]}" "${options[@]}" "${unit[@]}"; rc_unit=$?
fi
if [ -n "$e2e_pid" ]; then
  wait "$e2e_pid"; rc_e2e=$?
  e2e_pid=""
  echo "==== the browser tests (tests/e2e), run beside the others ===="
  cat "$e2e_log"
elif [ ${#e2e[@]} -gt 0 ]; then
  "${pytest[@]}" "${options[@]}" "${e2e[@]}"; rc_e2e=$?
fi
echo "tests outside tests/e2e: exit $rc_unit; browser tests: exit $rc_e2e (5 = none selected)"
if [ "$rc_unit" -eq 5 ] && [ "$rc_e2e" -eq 5 ]; then exit 5; fi
for rc in "$rc_unit" "$rc_e2e"; do
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 5 ]; then exit "$rc"; fi
done
exit 0
