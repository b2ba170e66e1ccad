#!/usr/bin/env bash
# One lane of `npm test`'s tests and gates. tools/test-all.sh runs the two lanes side by side: the
# server's suites on embedded PGlite run in one jest worker (one core), which leaves the second core
# idle for most of their run, so the other lane fills it. Neither lane shares state with the other:
# every suite opens its own database (a PGlite folder or a fresh PostgreSQL database), its own queue
# prefix or private redis-server, and its own compiled server folder (one per backend).
#   bash tools/test-lane.sh pglite   the server's suites on PGlite, then the XQuAD, NFCorpus and answer gates
#   bash tools/test-lane.sh other    the other projects' tests, the PostgreSQL run, then the SciFact gate
# The gates need the builds (`nx run-many -t build`) made first. Each lane prints its own step table.
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false
lane=${1:-}
STEP_TIMES_TITLE="lane $lane"
source tools/step-times.sh

# The server's suites run in band, one process for every suite; the embedded databases they open and close
# leave more behind than node's default heap holds by the end (an out-of-memory exit at 3.9 GB, 27 minutes
# in), so that process gets 8 GB of the machine's 24.
SERVER_JEST_NODE_OPTIONS='--experimental-vm-modules --max-old-space-size=8192'

gate() { node dist/apps/server/apps/server/src/cli/eval-gate.js "$@"; }
answers() { node dist/apps/server/apps/server/src/cli/eval.js --suite answerability "$@"; }

case "$lane" in
  pglite)
    step 'server unit and integration tests on embedded PGlite'
    env -u TEST_DATABASE_URL NODE_OPTIONS="$SERVER_JEST_NODE_OPTIONS" npx jest -c apps/server/jest.config.js

    step 'retrieval gate in Chinese, German and Hindi (XQuAD)'
    if [ -n "${XQUAD_DATASET_DIR:-}" ]; then
      gate --xquad "$XQUAD_DATASET_DIR"
    else
      echo 'skipped: set XQUAD_DATASET_DIR to the XQuAD folder (xquad-zh/, xquad-de/, xquad-hi/) to run it'
    fi

    step 'retrieval gate on English medical abstracts (NFCorpus dev)'
    if [ -n "${NFCORPUS_DATASET_DIR:-}" ]; then
      gate --nfcorpus "$NFCORPUS_DATASET_DIR"
    else
      echo 'skipped: set NFCORPUS_DATASET_DIR to the NFCorpus train+dev folder to run it'
    fi

    step 'answerability gate (the docs gold set, test half; citation precision held at 100%)'
    answers --docs datasets/docs-gold --docs-split test --db-dir "$(mktemp -d)" \
      --gate libs/eval/baselines/answerability-gate.json

    step 'answer gate on SciFact leave-gold-out (citation precision, answer support)'
    if [ -n "${EVAL_DATASET_DIR:-}" ]; then
      answers --dataset "$EVAL_DATASET_DIR" --db-dir "$(mktemp -d)" \
        --gate libs/eval/baselines/scifact-answers-gate.json
    else
      echo 'skipped: set EVAL_DATASET_DIR to a BEIR SciFact folder to run the answer gate on it'
    fi
    ;;
  other)
    step 'unit tests of the libs, the web app and the benchmarks'
    env -u TEST_DATABASE_URL npx nx run-many -t test --exclude server --parallel=1 --outputStyle=static

    step 'integration tests on PostgreSQL'
    if [ -n "${TEST_DATABASE_URL:-}" ]; then
      # Every suite that opens its database through the test helpers; those about the embedded database
      # itself (its process, its data directory, the one-command server) and the file checks stay on PGlite.
      NODE_OPTIONS="$SERVER_JEST_NODE_OPTIONS" npx jest -c apps/server/jest.config.js apps/server/src/test \
        --testPathIgnorePatterns 'embedded-postgres|docker-compose|readme|fault-server-kill|fault-server-restart'
      # The benchmarks' bulk load (binary COPY, BM25 rebuilt in one pass) against the app's triggers.
      NODE_OPTIONS=--experimental-vm-modules npx jest -c tools/bench/jest.config.js tools/bench/src/scale/bulk-load.spec.ts
    else
      echo 'skipped: set TEST_DATABASE_URL to a PostgreSQL with pgvector to run the suites on it too'
    fi

    step 'retrieval regression gate (SciFact)'
    if [ -n "${EVAL_DATASET_DIR:-}" ]; then
      gate --dataset "$EVAL_DATASET_DIR"
    else
      echo 'skipped: set EVAL_DATASET_DIR to a BEIR SciFact folder to run the retrieval gate'
    fi
    ;;
  *)
    echo "usage: bash tools/test-lane.sh pglite|other" >&2
    exit 2
    ;;
esac
