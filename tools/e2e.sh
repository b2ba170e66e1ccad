#!/usr/bin/env bash
# Browser tests: serve the built web app on a free port and drive it with Debian's Chromium.
# Screenshots land in apps/web/e2e/artifacts (E2E_ARTIFACTS_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p tmp
port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
npx next start apps/web -H 127.0.0.1 -p "$port" > tmp/e2e-web.log 2>&1 &
web_pid=$!
trap 'kill "$web_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  curl -sf -o /dev/null "http://127.0.0.1:$port/" && break
  sleep 0.3
done
WEB_URL="http://127.0.0.1:$port" npx jest -c apps/web/jest.e2e.config.js
