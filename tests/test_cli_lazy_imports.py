"""The command line's start-up defers SciPy (assess.cli.lazy_imports): building the metrics subcommand runs none of
scipy.stats, a binary file's metrics without intervals never load it, and a deferred module works once used.

Each check runs in a fresh interpreter (the test process has SciPy loaded already). Oracles: the module's type in
``sys.modules`` (importlib's ``_LazyModule`` until first use), SciPy's own Poisson CDF for the bootstrap's Poisson(1)
thresholds, and the normal quantile 1.959963984540054 (Abramowitz & Stegun table 26.5) through the deferred module.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
from scipy import stats

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "assets" / "samples" / "breast_cancer_binary.csv"


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    return out.stdout.strip()


def test_metrics_on_a_binary_file_never_loads_scipy_stats():
    """``python -m assess metrics`` (assess/__main__.py, with the exit it makes) as a user runs it."""
    kinds = _run(f"""
import atexit, contextlib, io, runpy, sys
def kinds():
    sys.__stdout__.write(" ".join(type(sys.modules[m]).__name__ for m in ("scipy.stats", "scipy.optimize")))
sys.argv = ["assess", "metrics", {str(SAMPLE)!r}]
try:
    with contextlib.redirect_stdout(io.StringIO()):
        runpy.run_module("assess", run_name="__main__", alter_sys=True)
except SystemExit as exc:
    sys.__stdout__.write(f"{{exc.code}} ")
kinds()
""")
    assert kinds == "0 _LazyModule _LazyModule"


def test_main_called_in_a_process_defers_nothing():
    """Tests and other programs calling `assess.cli.main` keep SciPy's ordinary imports (the deferral belongs to the
    command line's own start only)."""
    kinds = _run(f"""
import contextlib, io, sys
import assess.cli
with contextlib.redirect_stdout(io.StringIO()):
    assess.cli.main(["metrics", {str(SAMPLE)!r}])
print(type(sys.modules["scipy.stats"]).__name__)
""")
    assert kinds == "module"


def test_a_deferred_module_works_on_first_use():
    value = _run("""
from assess.cli.lazy_imports import defer
defer()
from scipy import stats
print(repr(float(stats.norm.ppf(0.975))))
""")
    assert abs(float(value) - 1.959963984540054) < 1e-12


def test_poisson_thresholds_as_scipy():
    from assess.intervals import _poisson_thresholds

    cdf = np.rint(stats.poisson.cdf(np.arange(16), 1.0) * 65536.0)
    assert _poisson_thresholds().tolist() == cdf[cdf < 65536].astype(int).tolist()
