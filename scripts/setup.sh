#!/usr/bin/env bash
# Idempotent set-up on a fresh machine: Debian packages when missing, a virtual environment, Python packages.
# Usage: scripts/setup.sh [run|test]   ("test" also installs the test-only packages and poppler-utils)
set -euo pipefail
cd "$(dirname "$0")/.."
purpose=${1:-run}

need_debs=()
command -v chromium >/dev/null 2>&1 || need_debs+=(chromium)
dpkg -s fonts-liberation >/dev/null 2>&1 || need_debs+=(fonts-liberation)
# DejaVu Sans: the glyphs Liberation lacks (★ ✓ ⚠ ✗ ∈ ₂ …), which Chromium falls back to (tests/present/test_glyphs.py)
dpkg -s fonts-dejavu-core >/dev/null 2>&1 || need_debs+=(fonts-dejavu-core)
if [ "$purpose" = test ]; then command -v pdftoppm >/dev/null 2>&1 || need_debs+=(poppler-utils); fi
# Java for the Spark engine's tests (PySpark runs a local JVM); `make run` does not need it.
if [ "$purpose" = test ]; then command -v java >/dev/null 2>&1 || need_debs+=(openjdk-17-jre-headless); fi
if [ ${#need_debs[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_debs[*]}"
  sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${need_debs[@]}" >/dev/null
fi

python=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$python" -m venv .venv
# A test install pins the oracle libraries (scikit-learn, SciPy, statsmodels, numpy, pandas, hypothesis) to the
# exact versions in constraints-test.txt, so a new release cannot change an expected value under the tests; a run
# install takes requirements.txt's lower bounds only.
req=requirements.txt; pins=()
if [ "$purpose" = test ]; then req=requirements-test.txt; pins=(-c constraints-test.txt); fi
stamp=.venv/.installed-$purpose
# Reinstall only when the requirement (or, for tests, constraint) files changed since the last successful install.
changed=false
if [ ! -f "$stamp" ] || [ requirements.txt -nt "$stamp" ] || [ "$req" -nt "$stamp" ]; then changed=true; fi
if [ "$purpose" = test ] && [ constraints-test.txt -nt "$stamp" ]; then changed=true; fi
if [ "$changed" = true ]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -r "$req" ${pins[@]+"${pins[@]}"}   # empty-array safe under set -u (bash < 4.4)
  touch "$stamp"
  # requirements-test.txt includes requirements.txt, so a test install is also a run install
  if [ "$purpose" = test ]; then touch .venv/.installed-run; fi
fi
# Compile the project's bytecode (only what changed since the last time): with PYTHONDONTWRITEBYTECODE set, as in
# some sandboxes and CI images, every `python -m assess` would otherwise compile the package's modules from source,
# a fifth of a second of its start-up (bench/bench_cold_start.py, "uncached").
.venv/bin/python -m compileall -q assess ui views app.py serve.py >/dev/null
