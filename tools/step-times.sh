# Sourced by tools/test-all.sh and .ci/run: `step NAME` starts a timed step (and ends the one before);
# on exit, whether the script succeeded or failed, a table of every step's duration and the total.
# A step that was running when the script failed is marked FAILED.
STEP_TIMES_TITLE=${STEP_TIMES_TITLE:-steps}
STEP_NAMES=()
STEP_SECONDS=()
STEP_CURRENT=''
STEP_STARTED=0
STEP_TOTAL_STARTED=$SECONDS

step_end() {
  if [ -n "$STEP_CURRENT" ]; then
    STEP_NAMES+=("$STEP_CURRENT")
    STEP_SECONDS+=($((SECONDS - STEP_STARTED)))
    STEP_CURRENT=''
  fi
}

step() {
  step_end
  STEP_CURRENT="$*"
  STEP_STARTED=$SECONDS
  printf '\n=== %s\n' "$*"
}

step_mmss() { printf '%3d:%02d' $(($1 / 60)) $(($1 % 60)); }

step_report() {
  local status=$? failed='' i
  [ "$status" = 0 ] || failed="$STEP_CURRENT"
  step_end
  printf '\n=== %s: duration of each step (min:s)\n' "$STEP_TIMES_TITLE"
  for i in "${!STEP_NAMES[@]}"; do
    printf '%s  %s%s\n' "$(step_mmss "${STEP_SECONDS[$i]}")" "${STEP_NAMES[$i]}" \
      "$([ -n "$failed" ] && [ "${STEP_NAMES[$i]}" = "$failed" ] && echo '  FAILED')"
  done
  printf '%s  total%s\n' "$(step_mmss $((SECONDS - STEP_TOTAL_STARTED)))" \
    "$([ "$status" = 0 ] || echo " (exit status $status)")"
  return "$status"
}

trap step_report EXIT
