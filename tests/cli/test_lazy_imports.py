"""The command line's start-up defers SciPy (assess.cli.lazy_imports): building the metrics subcommand runs none of
scipy.stats, a binary file's metrics without intervals never load it, and a deferred module works once used;
``inspect`` loads none of the heavy modules it does not need and ``--help`` not even numpy (issue 14: the command
line starts fast; the times are in bench/bench_cold_start.py, the module lists here).

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

from assess.analyses.slices import MIN_SLICE_SIZE
from assess.cli.slices import MIN_SLICE_SIZE_HELP

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "assets" / "samples" / "breast_cancer_binary.csv"


#: What ``inspect`` never needs: it reads, detects roles and validates; it computes no metric, test, curve or chart.
NOT_FOR_INSPECT = ("scipy", "sklearn", "statsmodels", "plotly", "matplotlib", "duckdb", "pyspark", "streamlit",
                   "openpyxl", "assess.metrics", "assess.stats", "assess.curves", "assess.intervals", "assess.present.charts",
                   "assess.engine", "assess.present.export", "assess.present.report.render")


def _modules_of(args: list[str]) -> tuple[int, set[str]]:
    """Exit status and ``sys.modules`` of ``python -m assess ARGS`` (assess/__main__.py, as a user runs it)."""
    out = _run(f"""
import contextlib, io, runpy, sys
sys.argv = ["assess", *{args!r}]
code = 0
try:
    with contextlib.redirect_stdout(io.StringIO()):
        runpy.run_module("assess", run_name="__main__", alter_sys=True)
except SystemExit as exc:
    code = exc.code
print(code, " ".join(sys.modules))
""")
    code, _, names = out.partition(" ")
    return int(code), set(names.split())


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    """Those of ``names`` loaded as themselves or through a submodule (a deferred module is loaded, not run)."""
    return [name for name in names if any(m == name or m.startswith(name + ".") for m in modules)]


def test_inspect_loads_no_module_it_does_not_need():
    code, modules = _modules_of(["inspect", str(SAMPLE)])
    assert code == 0
    assert _loaded(modules, ("pandas", "assess.inputs.assessment")) == ["pandas", "assess.inputs.assessment"]  # the check sees imports
    assert _loaded(modules, NOT_FOR_INSPECT) == []


def test_help_loads_neither_numpy_nor_a_subcommand():
    code, modules = _modules_of(["--help"])
    assert code == 0
    assert _loaded(modules, ("argparse", "assess.cli")) == ["argparse", "assess.cli"]
    assert _loaded(modules, ("numpy", "pandas", "scipy", "assess.core.data", "assess.cli.inspect",
                             "assess.cli.metrics")) == []


def test_metrics_loads_what_inspect_does_not():
    """The counter-check of the two above: the same listing sees a subcommand's heavier imports."""
    code, modules = _modules_of(["metrics", str(SAMPLE)])
    assert code == 0
    assert _loaded(modules, ("assess.metrics", "assess.curves")) == ["assess.metrics", "assess.curves"]


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    return out.stdout.strip()


def test_metrics_on_a_binary_file_never_loads_scipy_stats():
    """``python -m assess metrics`` (assess/__main__.py, with the exit it makes) as a user runs it."""
    kinds = _run(f"""
import atexit, contextlib, io, runpy, sys
def kinds():  # never run: absent when nothing imported it, a _LazyModule when imported and never used
    sys.__stdout__.write(" ".join(type(sys.modules[m]).__name__ if m in sys.modules else "_LazyModule"
                                  for m in ("scipy.stats", "scipy.optimize")))
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
    from assess.intervals.bootstrap import _poisson_thresholds

    cdf = np.rint(stats.poisson.cdf(np.arange(16), 1.0) * 65536.0)
    assert _poisson_thresholds().tolist() == cdf[cdf < 65536].astype(int).tolist()


def test_the_package_names_load_on_first_use():
    """``import assess`` (which every ``python -m assess`` runs first) imports no numpy; its names still work, and an
    unknown name is an AttributeError, so ``from assess import charts`` still imports the subpackage."""
    out = _run("""
import sys
import assess
before = "numpy" in sys.modules
from assess import AssessError, Predictions, Task
from assess.present import charts
from assess.core.data import Task as TaskItself
try:
    assess.no_such_name
except AttributeError:
    unknown = "AttributeError"
print(before, Task is TaskItself, issubclass(AssessError, Exception), Predictions.__module__, charts.__name__, unknown)
""")
    assert out == "False True True assess.core.data assess.present.charts AttributeError"


# --- metrics: the slice analysis (assess.analyses.slices, and through it all of assess.stats) and the cross-validation
# summaries only when --slice / --by-fold ask for them; out of core, only the file's task's engine ----------------

ONLY_WITH_FLAGS = ("assess.analyses.slices", "assess.stats", "assess.analyses.folds")


def _any(modules: set[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in modules)


def test_metrics_without_slice_flags_loads_no_slice_analysis():
    status, modules = _modules_of(["metrics", str(SAMPLE)])
    assert status == 0
    assert _any(modules, "assess.metrics")                     # the listing sees the run's imports
    assert [m for m in ONLY_WITH_FLAGS if _any(modules, m)] == []


def test_metrics_with_a_slice_loads_it():
    status, modules = _modules_of(["metrics", str(SAMPLE), "--slice", "group", "--by-fold"])
    assert status == 0
    assert [m for m in ONLY_WITH_FLAGS if _any(modules, m)] == list(ONLY_WITH_FLAGS)


def test_the_help_states_the_slice_analysis_default():
    assert MIN_SLICE_SIZE_HELP == MIN_SLICE_SIZE


def test_a_binary_file_out_of_core_loads_no_other_tasks_engine(tmp_path):
    """assess.engine.reports imports each task's module in its branch: a binary Parquet file through DuckDB loads the
    binary engine and none of the others (counter-check: the binary one is listed)."""
    import pandas as pd

    path = tmp_path / "binary.parquet"
    pd.DataFrame({"y_true": [0, 1, 1, 0] * 10, "score": [0.1, 0.8, 0.6, 0.4] * 10}).to_parquet(path)
    status, modules = _modules_of(["metrics", str(path), "--engine", "duckdb"])
    assert status == 0
    others = ("assess.engine.forecast", "assess.engine.multiclass", "assess.engine.multiclass_scores",
              "assess.engine.multilabel", "assess.engine.regression")
    assert "assess.engine.binary" in modules
    assert [m for m in others if m in modules] == []
