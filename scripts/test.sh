#!/usr/bin/env bash
# `make test`: every test. The tests without a browser on both cores (pytest-xdist: 7:25 in a clean-clone run; a
# third worker took 7:54). Then the browser journeys, one at a time, each step waiting on the app it drives: on two
# workers they took 4:17 against 6:27, but a download or an upload journey timed out in two runs of five.
# A run that PYTEST_ARGS narrowed to nothing (pytest's exit status 5) is a success.
set -uo pipefail
cd "$(dirname "$0")/.."
eval "args=(${PYTEST_ARGS:-})"   # keeps quoting: PYTEST_ARGS='-k "a and b"'
status=0
.venv/bin/python -m pytest -m "not browser" -n 2 ${args[@]+"${args[@]}"}
code=$?; if [ "$code" -ne 0 ] && [ "$code" -ne 5 ]; then status=1; fi
.venv/bin/python -m pytest -m browser ${args[@]+"${args[@]}"}
code=$?; if [ "$code" -ne 0 ] && [ "$code" -ne 5 ]; then status=1; fi
exit "$status"
