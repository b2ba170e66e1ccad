#!/usr/bin/env bash
# Every check the project has, in the order that fails fastest: format, lint, unit + integration
# tests, builds, browser tests, and the retrieval-quality gate. Needs Redis on REDIS_URL.
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false

step() { printf '\n=== %s\n' "$*"; }

step 'format'
npx prettier --check . --log-level warn

step 'lint'
npx nx run-many -t lint --parallel=2 --outputStyle=static

step 'unit and integration tests'
npx nx run-many -t test --parallel=1 --outputStyle=static

step 'build'
npx nx run-many -t build --parallel=1 --outputStyle=static

step 'browser tests (Chromium)'
bash tools/e2e.sh

step 'retrieval regression gate'
if [ -n "${EVAL_DATASET_DIR:-}" ]; then
  node dist/apps/server/apps/server/src/cli/eval-gate.js --dataset "$EVAL_DATASET_DIR"
else
  echo 'skipped: set EVAL_DATASET_DIR to a BEIR SciFact folder to run the retrieval gate'
fi
