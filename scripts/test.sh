#!/usr/bin/env bash
# `make test`: every test. The tests without a browser run on both cores (pytest-xdist); then the browser journeys,
# one at a time, each step waiting on the app it drives (two at a time saved half a minute of 4.5 and let a
# journey's wait for a 400,000-row upload time out on a loaded machine). A run that PYTEST_ARGS narrowed to nothing
# (pytest's exit status 5) is a success.
set -uo pipefail
cd "$(dirname "$0")/.."
eval "args=(${PYTEST_ARGS:-})"   # keeps quoting: PYTEST_ARGS='-k "a and b"'
status=0
.venv/bin/python -m pytest -m "not browser" -n 2 ${args[@]+"${args[@]}"}
code=$?; if [ "$code" -ne 0 ] && [ "$code" -ne 5 ]; then status=1; fi
.venv/bin/python -m pytest -m browser ${args[@]+"${args[@]}"}
code=$?; if [ "$code" -ne 0 ] && [ "$code" -ne 5 ]; then status=1; fi
exit "$status"
