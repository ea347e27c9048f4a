#!/usr/bin/env bash
# PostgreSQL restarted under load, against a private throwaway cluster (never the machine's shared
# one): initdb into a temp dir, start it on PGFAULT_PORT (default 55439) with trust auth, run
# TestPostgresRestartUnderLoad and TestPostgresRestartWithTokens restarting that cluster, and remove it on any exit.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "pgfault: skipped, initdb not found under /usr/lib/postgresql/*/bin (install the PostgreSQL server)"
  exit 0
fi
port=${PGFAULT_PORT:-55439}
dir=$(mktemp -d /tmp/pgfault.XXXXXX)
as=()
if [ "$(id -u)" = 0 ]; then
  # initdb refuses to run as root: the cluster belongs to the postgres user
  chown postgres: "$dir"
  as=(runuser -u postgres --)
fi
ctl() { "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" "$@"; }
cleanup() {
  if [ $? -ne 0 ] && [ -f "$dir/log" ]; then tail -20 "$dir/log" >&2; fi
  ctl -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

"${as[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres -N >/dev/null
ctl -w -o "-p $port -k $dir -c listen_addresses=127.0.0.1" start >/dev/null
"$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres test

restart=$(printf '%q ' "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -m fast restart)
LUMO_TEST_DB="postgres://postgres@127.0.0.1:$port/test?sslmode=disable" LUMO_FAULT_PG_RESTART=1 \
  LUMO_FAULT_PG_RESTART_CMD="$restart" \
  go test -count=1 -timeout 10m -v -run '^TestPostgresRestart(UnderLoad|WithTokens)$' ./features/faults/
