#!/usr/bin/env bash
# Runs a command and starts it again whenever it ends (crashed, killed, out of memory): `make serve`
# keeps its PDF worker alive this way (scripts/serve.sh). Between two starts it waits SUPERVISE_PAUSE
# seconds (2), so that a command that cannot start does not spin. SIGTERM (or SIGINT, SIGHUP) stops
# the command and then the supervisor. Each restart is noted on stderr.
#
#   bash scripts/supervise.sh COMMAND [ARGS...]
set -uo pipefail
pause=${SUPERVISE_PAUSE:-2}
child=""

finish() {
  if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
    kill -TERM "$child" 2>/dev/null
    wait "$child" 2>/dev/null
  fi
  exit 0
}
trap finish TERM INT HUP

while true; do
  "$@" &
  child=$!
  wait "$child"
  status=$?
  echo "$(date '+%F %T') supervise: $* beendet (Status $status), Neustart in ${pause} s" >&2
  sleep "$pause" &
  child=$!
  wait "$child"
done
