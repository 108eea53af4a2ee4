#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests that need one (tests/it/pg.rs):
# initdb into a temporary folder, pg_ctl start on 127.0.0.1:PORT with its
# socket in that folder, trust authentication for the `postgres` user.
#
# Usage: scripts/postgres.sh start|stop   (env: PORT, default a free port)
# `start` prints, as its last line, the variable to export:
#   ASASKED_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:PORT/postgres
# and keeps the cluster's folder in .cache/postgres.dir; `stop` stops the
# cluster and removes the folder. Debian's postgresql package keeps its
# binaries off PATH (/usr/lib/postgresql/<version>/bin); it is installed
# with apt only if they are missing. PostgreSQL refuses to run as root, so
# as root the cluster runs as the `postgres` user.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
port="${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
state="$root/.cache/postgres.dir"
mkdir -p "$root/.cache"

bin_dir() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -n "$found" && -x "$found/pg_ctl" ]]; then
    echo "$found"
  elif command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v pg_ctl)"
  fi
}

as_owner() {
  if [[ "$(id -u)" == 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

stop() {
  if [[ -f "$state" ]]; then
    local dir bin
    dir=$(cat "$state")
    bin=$(bin_dir)
    if [[ -d "$dir/data" && -n "$bin" ]]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir" "$state"
  fi
}

if [[ "${1:-start}" == "stop" ]]; then
  stop
  exit 0
fi

stop
bin=$(bin_dir)
if [[ -z "$bin" ]]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  bin=$(bin_dir)
fi
dir=$(mktemp -d /tmp/asasked-pg.XXXXXX)
echo "$dir" >"$state"
if [[ "$(id -u)" == 0 ]]; then
  chown postgres "$dir"
fi
as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >/dev/null
as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200" -w start >/dev/null
echo "ASASKED_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres"
