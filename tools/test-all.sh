#!/usr/bin/env bash
# Every check the project has, in the order that fails fastest: format, lint, unit + integration
# tests, builds, browser tests, and the retrieval-quality gate. Needs Redis on REDIS_URL. With
# TEST_DATABASE_URL (a PostgreSQL with pgvector that may CREATE DATABASE) the integration suites run a
# second time on it, each test database a fresh PostgreSQL database.
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false

# step NAME: a timed step; the table of every step's duration is printed at the end, also on a failure.
STEP_TIMES_TITLE='npm test'
source tools/step-times.sh

step 'format'
npx prettier --check . --log-level warn

step 'lint'
npx nx run-many -t lint --parallel=2 --outputStyle=static

step 'unit and integration tests'
# On embedded PGlite: the PostgreSQL run is the next step.
env -u TEST_DATABASE_URL npx nx run-many -t test --parallel=1 --outputStyle=static

step 'integration tests on PostgreSQL'
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  # Every suite that opens its database through the test helpers; those about the embedded database
  # itself (its process, its data directory, the one-command server) and the file checks stay on PGlite.
  NODE_OPTIONS=--experimental-vm-modules npx jest -c apps/server/jest.config.js apps/server/src/test \
    --testPathIgnorePatterns 'embedded-postgres|docker-compose|readme|fault-server-kill|fault-server-restart'
  # The benchmarks' bulk load (binary COPY, BM25 rebuilt in one pass) against the app's triggers.
  NODE_OPTIONS=--experimental-vm-modules npx jest -c tools/bench/jest.config.js tools/bench/src/scale/bulk-load.spec.ts
else
  echo 'skipped: set TEST_DATABASE_URL to a PostgreSQL with pgvector to run the suites on it too'
fi

step 'build'
npx nx run-many -t build --parallel=1 --outputStyle=static

step 'browser tests (Chromium)'
bash tools/e2e.sh

step 'npm start from a clone whose builds come from the Nx cache'
bash tools/test-start-from-cache.sh

step 'retrieval regression gate'
if [ -n "${EVAL_DATASET_DIR:-}" ]; then
  node dist/apps/server/apps/server/src/cli/eval-gate.js --dataset "$EVAL_DATASET_DIR"
else
  echo 'skipped: set EVAL_DATASET_DIR to a BEIR SciFact folder to run the retrieval gate'
fi

step 'retrieval gate in Chinese, German and Hindi (XQuAD)'
if [ -n "${XQUAD_DATASET_DIR:-}" ]; then
  node dist/apps/server/apps/server/src/cli/eval-gate.js --xquad "$XQUAD_DATASET_DIR"
else
  echo 'skipped: set XQUAD_DATASET_DIR to the XQuAD folder (xquad-zh/, xquad-de/, xquad-hi/) to run it'
fi

step 'retrieval gate on English medical abstracts (NFCorpus dev)'
if [ -n "${NFCORPUS_DATASET_DIR:-}" ]; then
  node dist/apps/server/apps/server/src/cli/eval-gate.js --nfcorpus "$NFCORPUS_DATASET_DIR"
else
  echo 'skipped: set NFCORPUS_DATASET_DIR to the NFCorpus train+dev folder to run it'
fi

step 'answerability gate (the docs gold set, test half; citation precision held at 100%)'
node dist/apps/server/apps/server/src/cli/eval.js --suite answerability --docs datasets/docs-gold \
  --docs-split test --db-dir "$(mktemp -d)" --gate libs/eval/baselines/answerability-gate.json

step 'answer gate on SciFact leave-gold-out (citation precision, answer support)'
if [ -n "${EVAL_DATASET_DIR:-}" ]; then
  node dist/apps/server/apps/server/src/cli/eval.js --suite answerability --dataset "$EVAL_DATASET_DIR" \
    --db-dir "$(mktemp -d)" --gate libs/eval/baselines/scifact-answers-gate.json
else
  echo 'skipped: set EVAL_DATASET_DIR to a BEIR SciFact folder to run the answer gate on it'
fi
