#!/usr/bin/env bash
# Looks for flaky tests on purpose: runs the unit + integration suites several times and the browser
# suites a few times while busy loops take the CPU (a shared, loaded machine), then prints which tests
# failed in which run. Exits non-zero if any run failed.
#
#   bash tools/stress-tests.sh [options]
#     --runs N           unit + integration runs (default 5; 0 skips them)
#     --browser-runs M   browser runs (default 3; 0 skips them)
#     --busy K           busy loops (`yes > /dev/null`) running the whole time (default 2)
#     --projects LIST    the Nx projects whose `test` target runs (comma-separated; default all)
#     --specs PATTERN    instead of the Nx test targets, only the server's specs matching PATTERN
#                        (a jest path pattern, e.g. 'src/test/(rag-llm|halfvec)')
#     --browser-spec S   only the browser specs matching S (passed to tools/e2e.sh)
#
# Needs what `npm test` needs for these suites: Redis on REDIS_URL, Chromium and the builds for the
# browser runs (tools/e2e.sh makes missing builds). The unit + integration runs use embedded PGlite, as
# in `npm test`; the Nx cache is skipped so every run runs. Logs: tmp/stress/.
set -uo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false

runs=5
browser_runs=3
busy=2
projects=''
specs=''
browser_spec=''
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=${2:?--runs needs a number}; shift 2 ;;
    --browser-runs) browser_runs=${2:?--browser-runs needs a number}; shift 2 ;;
    --busy) busy=${2:?--busy needs a number}; shift 2 ;;
    --projects) projects=${2:?--projects needs a list}; shift 2 ;;
    --specs) specs=${2:?--specs needs a pattern}; shift 2 ;;
    --browser-spec) browser_spec=${2:?--browser-spec needs a name}; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
done
for n in "$runs" "$browser_runs" "$busy"; do
  case "$n" in '' | *[!0-9]*) echo "not a count: $n" >&2; exit 2 ;; esac
done

logs=tmp/stress
mkdir -p "$logs"
rm -f "$logs"/*.log

busy_pids=()
stop_busy() {
  for pid in "${busy_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${busy_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop_busy EXIT
trap 'exit 130' INT TERM
for _ in $(seq 1 "$busy"); do
  yes > /dev/null &
  busy_pids+=($!)
done
echo "stress: $busy busy loop(s) (pids ${busy_pids[*]:-none}); $runs unit + integration run(s), $browser_runs browser run(s)"

unit_run() {
  if [ -n "$specs" ]; then
    NODE_OPTIONS=--experimental-vm-modules npx jest -c apps/server/jest.config.js --runInBand "$specs"
  elif [ -n "$projects" ]; then
    npx nx run-many -t test --projects "$projects" --parallel=1 --outputStyle=static --skip-nx-cache
  else
    npx nx run-many -t test --parallel=1 --outputStyle=static --skip-nx-cache
  fi
}

browser_run() {
  if [ -n "$browser_spec" ]; then bash tools/e2e.sh "$browser_spec"; else bash tools/e2e.sh; fi
}

# What failed in one log: jest's failed suites and tests, or the last lines when jest said nothing.
failures_in() {
  local found
  found=$(grep -E '^\s*(FAIL |✕ |● .* › )' "$1" | sed -E 's/^\s+//' | sort -u | head -40)
  if [ -n "$found" ]; then echo "$found"; else tail -5 "$1"; fi
}

summary=()
failed=0
attempt() {
  local kind=$1 i=$2 log="$logs/$1-$2.log" started=$SECONDS status
  echo "--- $kind run $i: $log"
  if [ "$kind" = unit ]; then unit_run > "$log" 2>&1; else browser_run > "$log" 2>&1; fi
  status=$?
  local took=$((SECONDS - started))
  if [ "$status" = 0 ]; then
    summary+=("$kind run $i: passed in ${took} s")
  else
    failed=$((failed + 1))
    summary+=("$kind run $i: FAILED (exit $status) in ${took} s"$'\n'"$(failures_in "$log" | sed 's/^/    /')")
  fi
  echo "${summary[-1]}"
}

for i in $(seq 1 "$runs"); do attempt unit "$i"; done
for i in $(seq 1 "$browser_runs"); do attempt browser "$i"; done

printf '\n=== stress summary (%d busy loop(s))\n' "$busy"
for line in "${summary[@]}"; do echo "$line"; done
if [ "$failed" -gt 0 ]; then
  echo "$failed run(s) failed; logs in $logs/"
  exit 1
fi
echo 'every run passed'
