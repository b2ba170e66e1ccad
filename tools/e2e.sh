#!/usr/bin/env bash
# Browser tests in Chromium against the real stack. The Jest global setup (apps/web/e2e/support/)
# starts a scripted OpenAI-compatible LLM on loopback, the built API server (embedded PGlite in a
# temporary folder, a unique QUEUE_PREFIX on the Redis at REDIS_URL, WEB_ORIGIN = the web app, the
# LLM pointed at the scripted server) and `next start` for the built web app, each on a free port;
# the global teardown stops them and removes the database folder.
# Screenshots land in apps/web/e2e/artifacts (E2E_ARTIFACTS_DIR). Missing builds are made first;
# E2E_REBUILD=1 rebuilds both. Arguments go to jest (e.g. a spec name).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p tmp
if [ "${E2E_REBUILD:-0}" = 1 ] || [ ! -f dist/apps/server/apps/server/src/main.js ]; then
  npx nx run server:build --outputStyle=static
fi
if [ "${E2E_REBUILD:-0}" = 1 ] || [ ! -f apps/web/.next/BUILD_ID ]; then
  npx next build apps/web
fi
npx jest -c apps/web/jest.e2e.config.js "$@"
