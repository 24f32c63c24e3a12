"""``python -m assess metrics`` loads the slice analysis (assess.slices, and through it all of assess.stats) and the
cross-validation summaries only when ``--slice`` / ``--by-fold`` ask for them (issue 14: a fast command line; the
times are in bench/bench_cold_start.py, the module lists here). Each check runs in a fresh interpreter; the oracle is
``sys.modules`` after the run, and the counter-check the same listing with ``--slice``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from assess.cli.slices import MIN_SLICE_SIZE_HELP
from assess.slices import MIN_SLICE_SIZE

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "assets" / "samples" / "breast_cancer_binary.csv"
ONLY_WITH_FLAGS = ("assess.slices", "assess.stats", "assess.cross_validation")


def _loaded_after(args: list[str]) -> tuple[int, set[str]]:
    code = f"""
import contextlib, io, runpy, sys
sys.argv = ["assess", *{args!r}]
code = 0
try:
    with contextlib.redirect_stdout(io.StringIO()):
        runpy.run_module("assess", run_name="__main__", alter_sys=True)
except SystemExit as exc:
    code = exc.code
print(code, " ".join(sys.modules))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}).stdout.strip()
    status, _, names = out.partition(" ")
    return int(status), set(names.split())


def _any(modules: set[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in modules)


def test_metrics_without_slice_flags_loads_no_slice_analysis():
    status, modules = _loaded_after(["metrics", str(SAMPLE)])
    assert status == 0
    assert _any(modules, "assess.metrics")                     # the listing sees the run's imports
    assert [m for m in ONLY_WITH_FLAGS if _any(modules, m)] == []


def test_metrics_with_a_slice_loads_it():
    status, modules = _loaded_after(["metrics", str(SAMPLE), "--slice", "group", "--by-fold"])
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
    status, modules = _loaded_after(["metrics", str(path), "--engine", "duckdb"])
    assert status == 0
    others = ("assess.engine.forecast", "assess.engine.multiclass", "assess.engine.multiclass_scores",
              "assess.engine.multilabel", "assess.engine.regression")
    assert "assess.engine.binary" in modules
    assert [m for m in others if m in modules] == []
