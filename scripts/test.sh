#!/usr/bin/env bash
# `make test`: every test, in two runs at once. The browser journeys (each step waits on the app it drives) run one
# at a time at normal priority; the tests without a browser run on both cores under `nice`, so they take the CPU the
# journeys leave idle and never slow a journey down. A run that PYTEST_ARGS narrowed to nothing (pytest's exit
# status 5) is a success. The journeys' output is printed after the other run's, whole.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-artifacts
journeys_log=test-artifacts/browser-tests.log
eval "args=(${PYTEST_ARGS:-})"   # keeps quoting: PYTEST_ARGS='-k "a and b"'
.venv/bin/python -m pytest -m browser ${args[@]+"${args[@]}"} >"$journeys_log" 2>&1 &
journeys=$!
trap 'kill "$journeys" 2>/dev/null' INT TERM   # Ctrl-C stops both runs
nice -n 10 .venv/bin/python -m pytest -m "not browser" -n 2 ${args[@]+"${args[@]}"}
unit=$?
wait "$journeys"
browser=$?
echo "== browser journeys (run alongside the tests above; full log: $journeys_log)"
cat "$journeys_log"
status=0
for code in "$unit" "$browser"; do
  if [ "$code" -ne 0 ] && [ "$code" -ne 5 ]; then status=1; fi
done
exit "$status"
