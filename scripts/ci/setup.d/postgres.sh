#!/usr/bin/env bash
# Starts a throwaway PostgreSQL on 127.0.0.1 for the data server's integration tests and prints, on its
# stdout, `export GROUNDWORK_TEST_PG_URL=…` for the caller to eval. Idempotent: a second run reuses the
# running cluster. Run as root, after scripts/ci/systemPackages.sh has installed Debian's postgresql.
set -euo pipefail

PGDIR="${GROUNDWORK_PG_DIR:-/tmp/groundwork-pg}"
DB_USER=groundwork
DB_NAME=groundwork
DB_PASSWORD=groundwork-test

log() { echo "postgres.sh: $*" >&2; }

find_bindir() {
  local candidate
  candidate="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [[ -n "$candidate" && -x "$candidate/pg_ctl" ]]; then echo "$candidate"; fi
}

if [[ -n "${GROUNDWORK_TEST_PG_URL:-}" ]]; then log "using GROUNDWORK_TEST_PG_URL as given"; exit 0; fi
if [[ "$(id -u)" != 0 ]]; then log "not root: the PostgreSQL tests skip"; exit 0; fi
BINDIR="$(find_bindir)"
[[ -n "$BINDIR" ]] || { log "pg_ctl not found: scripts/ci/systemPackages.sh installs postgresql"; exit 1; }

as_postgres() { runuser -u postgres -- "$@"; }

free_port() {
  local port
  for port in $(seq 55432 55532); do
    if ! (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
  done
  log "no free port in 55432-55532"; exit 1
}

mkdir -p "$PGDIR"
chown postgres:postgres "$PGDIR"
if [[ ! -f "$PGDIR/data/PG_VERSION" ]]; then
  log "initialising a cluster in $PGDIR/data"
  pwfile="$(mktemp)"; echo postgres >"$pwfile"; chown postgres "$pwfile"
  as_postgres "$BINDIR/initdb" -D "$PGDIR/data" -U postgres --pwfile="$pwfile" --auth=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >&2
  rm -f "$pwfile"
fi

if as_postgres "$BINDIR/pg_ctl" -D "$PGDIR/data" status >/dev/null 2>&1; then
  PORT="$(cat "$PGDIR/port")"
  log "reusing the running cluster on port $PORT"
else
  PORT="$(free_port)"
  echo "$PORT" >"$PGDIR/port"
  as_postgres "$BINDIR/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $PGDIR" start >&2
fi

export PGPASSWORD=postgres
psql_admin() { "$BINDIR/psql" -h 127.0.0.1 -p "$PORT" -U postgres -v ON_ERROR_STOP=1 -tA "$@"; }
if [[ "$(psql_admin -d postgres -c "SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER'")" != 1 ]]; then
  psql_admin -d postgres -c "CREATE ROLE $DB_USER LOGIN PASSWORD '$DB_PASSWORD'" >&2
fi
if [[ "$(psql_admin -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" != 1 ]]; then
  psql_admin -d postgres -c "CREATE DATABASE $DB_NAME OWNER $DB_USER" >&2
fi

echo "export GROUNDWORK_TEST_PG_URL=postgres://$DB_USER:$DB_PASSWORD@127.0.0.1:$PORT/$DB_NAME"
