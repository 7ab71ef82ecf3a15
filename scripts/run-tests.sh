#!/usr/bin/env bash
# One pass of the test suite on the database the environment names (make test runs it twice: SQLite,
# then a throwaway PostgreSQL). One pytest run on every core (pytest-xdist, one test database per
# worker, made from the models: tests/conftest.py); the browser tests (tests/e2e) are sorted last
# (tests/conftest.py), so each worker runs them after all other tests are handed out, with its own
# live server and Chromium. Two of them side by side take about half the time of one after the other;
# the one worker's database serves both kinds. DOKO_TEST_WORKERS sets the number of workers (default:
# the cores); DOKO_TEST_E2E_APART=1 runs the browser tests after the others instead, alone in one
# process (the way to tell a timing problem of a browser test from a bug).
#
# Usage: scripts/run-tests.sh PYTEST [ARGS...]   (ARGS as for pytest: -k name, -x, a path ...)
# Exit: pytest's (5 when nothing was selected); with DOKO_TEST_E2E_APART=1, 0 when both parts passed or
# one passed and the other found nothing that ARGS select.
set -uo pipefail
pytest=($1)
shift
workers="${DOKO_TEST_WORKERS:-$(nproc)}"
parallel=()
[ "$workers" -gt 1 ] && parallel=(-n "$workers")
if [ "${DOKO_TEST_E2E_APART:-0}" != 1 ]; then
  paths=()
  for arg in "$@"; do
    if [[ "$arg" != -* && -e "${arg%%::*}" ]]; then paths+=("$arg"); fi
  done
  [ ${#paths[@]} -eq 0 ] && set -- "$@" tests
  "${pytest[@]}" "${parallel[@]}" "$@"
  exit $?
fi
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
