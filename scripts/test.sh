#!/usr/bin/env bash
# `make test`: every test. The tests without a browser run on both cores (pytest-xdist); then the browser journeys,
# two at a time, each worker driving an app of its own (tests/browser/conftest.py starts one per worker). A run that
# PYTEST_ARGS narrowed to nothing (pytest's exit status 5) is a success.
set -uo pipefail
cd "$(dirname "$0")/.."
eval "args=(${PYTEST_ARGS:-})"   # keeps quoting: PYTEST_ARGS='-k "a and b"'
status=0
.venv/bin/python -m pytest -m "not browser" -n 2 ${args[@]+"${args[@]}"}
code=$?; if [ "$code" -ne 0 ] && [ "$code" -ne 5 ]; then status=1; fi
.venv/bin/python -m pytest -m browser -n 2 ${args[@]+"${args[@]}"}
code=$?; if [ "$code" -ne 0 ] && [ "$code" -ne 5 ]; then status=1; fi
exit "$status"
