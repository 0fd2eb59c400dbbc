#!/usr/bin/env bash
# Sets up everything the tests need on a fresh machine (Node 20 + npm) and runs every quality gate:
# lint, dependency rules, typecheck, unit tests, build, integration tests over real transports.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1

pnpm() { npx -y pnpm@10.34.9 "$@"; }

pnpm install --frozen-lockfile

# System packages (scripts/ci/apt/*.txt: PostgreSQL, Go, pytest, nginx, …) in one apt transaction, as root.
scripts/ci/systemPackages.sh

# Services and toolchains the integration tests need. Each scripts/ci/setup.d/*.sh logs to stderr and prints
# `export NAME=value` lines on stdout for this shell to take; where it cannot run (not root), the tests that
# need it skip locally and fail under CI.
for setup in scripts/ci/setup.d/*.sh; do
  eval "$(bash "$setup")"
done

pnpm run check

# No test may depend on timing: the transport contract three times in a row, the first under a CPU-burning
# load (mcp-testkit's scripts/contractUnderLoad.mjs).
pnpm --filter @groundwork/mcp-testkit run test:stress
