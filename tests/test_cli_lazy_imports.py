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
    kinds = _run(f"""
import contextlib, io, sys
import assess.cli
with contextlib.redirect_stdout(io.StringIO()):
    code = assess.cli.main(["metrics", {str(SAMPLE)!r}])
print(code, type(sys.modules["scipy.stats"]).__name__, type(sys.modules["scipy.optimize"]).__name__)
""")
    assert kinds == "0 _LazyModule _LazyModule"


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
