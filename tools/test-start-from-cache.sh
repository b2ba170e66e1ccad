#!/usr/bin/env bash
# `npm start` in a fresh clone whose builds come from the Nx cache: both builds must be restored
# whole (the web app's .next included), and both servers must answer. Steps:
#   1. clone the committed tree, build server and web once into an empty, private Nx cache;
#   2. delete that clone, clone again (no dist/, no .next), `npm start` with the same cache;
#   3. expect every build task (the libraries, server, web) read from the cache, GET /health on the API and GET / on
#      the web app to answer 200, then SIGTERM the launcher and expect both processes gone.
# node_modules is hard-linked from this checkout (no install). Needs Redis on REDIS_URL.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/lumina-start-test.XXXXXX")"
launcher=''
cleanup() {
  if [ -n "$launcher" ] && kill -0 "$launcher" 2>/dev/null; then kill -TERM "$launcher" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
# Nx keeps cached outputs in NX_CACHE_DIRECTORY and its index of them in NX_WORKSPACE_DATA_DIRECTORY:
# clones share a cache when they share both.
export NX_CACHE_DIRECTORY="$work/nx-cache" NX_WORKSPACE_DATA_DIRECTORY="$work/nx-workspace-data"
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false

fail() {
  printf 'FAIL: %s\n' "$*" >&2
  if [ -f "$work/start.log" ]; then
    grep -E '^\[start\]|cache|Cache|nx run' "$work/start.log" >&2 || true
    tail -n 20 "$work/start.log" >&2
  fi
  exit 1
}
clone() {
  git clone --quiet --no-hardlinks "$root" "$1"
  cp -al "$root/node_modules" "$1/node_modules"
}
free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
answers() { [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$1")" = 200 ]; }

echo '--- first clone: build into an empty cache'
clone "$work/first"
(cd "$work/first" && npx nx run-many -t build -p server web --parallel=1 --outputStyle=static >"$work/build.log" 2>&1) ||
  { tail -n 40 "$work/build.log" >&2; fail 'the first build failed'; }
rm -rf "$work/first"

echo '--- second clone: npm start with the builds from the cache'
clone "$work/second"
[ ! -e "$work/second/apps/web/.next" ] && [ ! -e "$work/second/dist" ] || fail 'the fresh clone already has builds'
api_port="$(free_port)"
web_port="$(free_port)"
(
  cd "$work/second"
  PORT="$api_port" WEB_PORT="$web_port" WEB_ORIGIN="http://127.0.0.1:$web_port" \
    LUMINA_API_URL="http://127.0.0.1:$api_port" QUEUE_PREFIX="start-test-$$" \
    PGLITE_DATA_DIR="$work/pglite" UPLOAD_DIR="$work/uploads" \
    exec node tools/start.mjs
) >"$work/start.log" 2>&1 &
launcher=$!

deadline=$((SECONDS + 180))
until answers "http://127.0.0.1:$api_port/health" && answers "http://127.0.0.1:$web_port/"; do
  kill -0 "$launcher" 2>/dev/null || fail 'npm start exited before both servers answered'
  [ "$SECONDS" -lt "$deadline" ] || fail 'the servers did not both answer within 180 s'
  sleep 1
done
grep -Eq 'read the output from the cache instead of running the command for ([0-9]+) out of \1 tasks' "$work/start.log" ||
  fail 'npm start rebuilt instead of restoring both builds from the cache'
grep -q 'rebuilding it without the cache' "$work/start.log" && fail 'a build restored from the cache was incomplete'
echo "ok: API on :$api_port and web app on :$web_port answered, both builds restored from the cache"

kill -TERM "$launcher"
for _ in $(seq 1 30); do kill -0 "$launcher" 2>/dev/null || break; sleep 0.5; done
kill -0 "$launcher" 2>/dev/null && fail 'the launcher did not stop on SIGTERM'
launcher=''
if answers "http://127.0.0.1:$api_port/health" || answers "http://127.0.0.1:$web_port/"; then
  fail 'a server kept running after the launcher stopped'
fi
echo 'ok: SIGTERM stopped both'
