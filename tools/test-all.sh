#!/usr/bin/env bash
# Every check the project has, in the order that fails fastest: format, lint and the builds; then, in two
# lanes side by side (tools/test-lane.sh), the unit + integration tests and the retrieval and answer
# gates; then the browser tests and the start from the Nx cache. Needs Redis on REDIS_URL. With
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

step 'build'
npx nx run-many -t build --parallel=1 --outputStyle=static

step 'in-process models (fetched into MODELS_DIR once; checked by sha256 every time)'
node dist/apps/server/apps/server/src/cli/models.js fetch

step 'tests and gates, in two lanes side by side (each lane prints its own table)'
# tools/test-lane.sh says what runs in which lane. Their lines are prefixed with the lane's name.
run_lane() {
  set -o pipefail
  bash tools/test-lane.sh "$1" 2>&1 | sed -u "s/^/[$1] /"
}
run_lane pglite &
lane_pglite=$!
run_lane other &
lane_other=$!
lanes_failed=''
wait "$lane_pglite" || lanes_failed="$lanes_failed pglite"
wait "$lane_other" || lanes_failed="$lanes_failed other"
if [ -n "$lanes_failed" ]; then
  echo "failed lane(s):$lanes_failed (their step tables above say which step)"
  exit 1
fi

step 'browser tests (Chromium)'
bash tools/e2e.sh

step 'npm start from a clone whose builds come from the Nx cache'
bash tools/test-start-from-cache.sh
