#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server on loopback, for the tests:
#   scripts/with-postgres.sh .venv/bin/pytest
# The command sees TAVLA_TEST_POSTGRES=postgresql://postgres@127.0.0.1:PORT (the tests
# create one database per test on it). Without PostgreSQL installed, the command runs
# alone and the PostgreSQL variants of the tests are skipped, with a warning.
set -euo pipefail

bin_dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin_dir" ] || [ ! -x "$bin_dir/initdb" ]; then
  echo "warning: PostgreSQL is not installed; its tests are skipped" >&2
  exec "$@"
fi

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

dir=$(mktemp -d /tmp/tavla-pg.XXXXXX)
chmod 755 "$dir"
[ "$(id -u)" = 0 ] && chown postgres "$dir"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
  as_postgres "$bin_dir/pg_ctl" -D "$dir/data" stop -m fast >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

as_postgres "$bin_dir/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
as_postgres "$bin_dir/pg_ctl" -D "$dir/data" -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" \
  -l "$dir/log" start -w >/dev/null

export TAVLA_TEST_POSTGRES="postgresql://postgres@127.0.0.1:$port"
"$@"
