#!/usr/bin/env bash
# `make test`: every test. The tests without a browser on three workers (pytest-xdist): on two cores they wait on
# subprocesses, Spark and Chromium often enough that a third worker keeps both busy (6:39 against 7:25). Then the
# browser journeys on two workers, each driving an app of its own (tests/browser/conftest.py starts one per worker),
# since a journey mostly waits on its app (4:27 against 6:27 one at a time). A run that PYTEST_ARGS narrowed to
# nothing (pytest's exit status 5) is a success.
set -uo pipefail
cd "$(dirname "$0")/.."
eval "args=(${PYTEST_ARGS:-})"   # keeps quoting: PYTEST_ARGS='-k "a and b"'
status=0
.venv/bin/python -m pytest -m "not browser" -n 3 ${args[@]+"${args[@]}"}
code=$?; if [ "$code" -ne 0 ] && [ "$code" -ne 5 ]; then status=1; fi
.venv/bin/python -m pytest -m browser -n 2 ${args[@]+"${args[@]}"}
code=$?; if [ "$code" -ne 0 ] && [ "$code" -ne 5 ]; then status=1; fi
exit "$status"
