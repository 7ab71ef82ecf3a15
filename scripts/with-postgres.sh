#!/usr/bin/env bash
# Run a command against a throwaway PostgreSQL server:
#   scripts/with-postgres.sh COMMAND [ARGS...]
# initdb into a fresh temporary folder, start the server listening only on a unix socket in that
# folder (no TCP port), create database "doko", run COMMAND with DATABASE_URL pointing at it, then
# stop the server and delete the folder -- also when COMMAND fails or is interrupted.
# The exit status is COMMAND's. As root, the server runs as the "postgres" system user
# (initdb/postgres refuse to run as root). PG_BINDIR overrides where initdb/pg_ctl are looked up.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi

find_bindir() {
  if [ -n "${PG_BINDIR:-}" ]; then echo "$PG_BINDIR"; return; fi
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
  if command -v initdb >/dev/null 2>&1; then dirname "$(readlink -f "$(command -v initdb)")"; return; fi
  echo "with-postgres: initdb not found (Debian: apt-get install postgresql)" >&2
  return 1
}
bindir=$(find_bindir)

# Run a server command as the postgres user when we are root; from / so that a cwd the postgres
# user cannot read does not matter.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then
    (cd / && runuser -u postgres -- "$@")
  else
    (cd / && "$@")
  fi
}

work=$(mktemp -d /tmp/doko-pg.XXXXXX)
cleanup() {
  local rc=$?
  if [ -f "$work/data/postmaster.pid" ]; then
    as_pg "$bindir/pg_ctl" -D "$work/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ "$(id -u)" -eq 0 ]; then
  chown postgres: "$work"
fi

if ! as_pg "$bindir/initdb" -D "$work/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 \
    --no-sync >"$work/initdb.log" 2>&1; then
  cat "$work/initdb.log" >&2
  exit 1
fi
cat >>"$work/data/postgresql.conf" <<CONF
# throwaway test server (scripts/with-postgres.sh)
listen_addresses = ''
unix_socket_directories = '$work'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 50
CONF
if ! as_pg "$bindir/pg_ctl" -D "$work/data" -l "$work/server.log" -w -t 60 start >/dev/null; then
  cat "$work/server.log" >&2
  exit 1
fi
as_pg "$bindir/createdb" -h "$work" -U postgres doko

# The socket folder goes in the host part, percent-encoded (dj-database-url and libpq understand it).
export DATABASE_URL="postgres://postgres@${work//\//%2F}/doko"
echo "with-postgres: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on socket $work"
"$@"
