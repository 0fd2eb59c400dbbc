#!/usr/bin/env bash
# Sets up everything the tests need on a fresh machine (Node 20 + npm) and runs every quality gate:
# lint, dependency rules, typecheck, unit tests, build, integration tests over real transports.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1

pnpm() { npx -y pnpm@10.34.9 "$@"; }

pnpm install --frozen-lockfile

# The data server's PostgreSQL tests need a real server; start one on loopback where we may (root, or one
# already running via GROUNDWORK_TEST_PG_URL). Elsewhere those tests skip locally and fail under CI.
if [ -z "${GROUNDWORK_TEST_PG_URL:-}" ] && [ "$(id -u)" = 0 ] && [ -x scripts/ci/postgres.sh ]; then
  eval "$(scripts/ci/postgres.sh | tail -n 1)"
fi

pnpm run check
