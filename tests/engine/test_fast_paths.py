"""The binary scans' shortcuts keep every number (assess.engine.binary): the log loss without the clip when no row
needs it, counted again with the clip when a later row does; DeLong's interval without importing scipy.stats.

Oracles: scikit-learn's log_loss (which clips the same way) and the in-memory `compute_reports` (checked against
scikit-learn in tests/metrics/test_oracle.py); SciPy's normal quantile for the command line's DeLong interval.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import log_loss

from assess.engine.reports import HEAD_ROWS, engine_reports
from assess.engine.source import resolve_source
from assess.inputs.roles import Overrides
from tests.engine.test_engine import run_cli

pytest.importorskip("duckdb")
ROOT = Path(__file__).resolve().parents[2]


def _file(tmp_path, late_extreme: float | None) -> tuple[Path, pd.DataFrame]:
    """A binary file longer than the first rows read, its scores inside (0.01, 0.99) except, with
    ``late_extreme``, one row after the first rows (where only the whole-file scan sees it)."""
    rng = np.random.default_rng(11)
    n = HEAD_ROWS + 5000
    y = (rng.random(n) < 0.4).astype(np.int8)
    score = np.round(np.clip(0.3 + 0.3 * y + rng.normal(0, 0.15, n), 0.01, 0.99), 4)
    if late_extreme is not None:
        score[n - 10] = late_extreme
        y[n - 10] = 1 if late_extreme == 0.0 else 0        # the true class gets probability 0: clipped to eps
    frame = pd.DataFrame({"model": np.where(np.arange(n) % 2, "b", "a"), "y_true": y, "score": score})
    path = tmp_path / "f.parquet"
    frame.to_parquet(path, index=False)
    return path, frame


def _log_losses(frame) -> dict:
    return {m: log_loss(rows["y_true"], rows["score"], labels=[0, 1]) for m, rows in frame.groupby("model")}


def _summary_scans(path, monkeypatch, capsys, **kw):
    """(run, one entry per summary scan: whether it clipped) from the engine's statement trace."""
    from assess.engine import backends

    monkeypatch.setenv(backends.TRACE_ENV, "1")
    capsys.readouterr()
    run = engine_reports(resolve_source(str(path)), "duckdb", Overrides(), **kw)
    scans = [("greatest(least(" in line) for line in capsys.readouterr().err.splitlines()
             if line.startswith("engine-trace") and "AS s_distinct" in line]
    return run, scans


@pytest.mark.parametrize("late_extreme", [None, 0.0, 1.0])
def test_the_clip_is_left_out_only_where_it_changes_nothing(tmp_path, monkeypatch, capsys, late_extreme):
    path, frame = _file(tmp_path, late_extreme)
    run, scans = _summary_scans(path, monkeypatch, capsys, keys=["log_loss", "brier_score"])
    # unclipped first; counted again with the clip exactly when a row needed it
    assert scans == ([False] if late_extreme is None else [False, True])
    for model, expected in _log_losses(frame).items():
        assert run.reports[model]["log_loss"].value == pytest.approx(expected, rel=1e-12)


def test_a_clipped_score_in_the_first_rows_clips_at_once(tmp_path, monkeypatch, capsys):
    path, frame = _file(tmp_path, None)
    frame.loc[3, ["score", "y_true"]] = [1.0, 0]
    frame.to_parquet(path, index=False)
    run, scans = _summary_scans(path, monkeypatch, capsys, keys=["log_loss"])
    assert scans == [True]
    for model, expected in _log_losses(frame).items():
        assert run.reports[model]["log_loss"].value == pytest.approx(expected, rel=1e-12)


def test_scores_outside_zero_one_need_no_recount(tmp_path, monkeypatch, capsys):
    """A score above 1 after the first rows: the log loss is undefined (its reason says why), so no clip can matter
    and the one unclipped scan suffices."""
    rng = np.random.default_rng(3)
    n = HEAD_ROWS + 100
    frame = pd.DataFrame({"y_true": rng.integers(0, 2, n), "score": rng.uniform(0.1, 0.9, n)})
    frame.loc[n - 1, "score"] = 7.5
    frame.to_parquet(tmp_path / "logits.parquet", index=False)
    run, scans = _summary_scans(tmp_path / "logits.parquet", monkeypatch, capsys, keys=["log_loss", "roc_auc"])
    (report,) = run.reports.values()
    assert np.isnan(report["log_loss"].value) and report["log_loss"].reason
    assert scans == [False]


def test_delong_on_the_command_line_never_loads_scipy_stats(tmp_path):
    path, frame = _file(tmp_path, None)
    code = f"""
import contextlib, io, runpy, sys
sys.argv = ["assess", "metrics", {str(path)!r}, "--engine", "duckdb", "--ci", "delong", "--metrics", "roc_auc"]
out = io.StringIO()
try:
    with contextlib.redirect_stdout(out):
        runpy.run_module("assess", run_name="__main__", alter_sys=True)
except SystemExit as exc:
    sys.__stdout__.write(f"{{exc.code}} {{type(sys.modules['scipy.stats']).__name__}}\\n")
sys.__stdout__.write(out.getvalue())
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    first, _, rest = done.stdout.partition("\n")
    assert first == "0 _LazyModule"
    import json
    from scipy import stats

    from assess.intervals import delong_ci     # the in-memory DeLong, with SciPy's quantile, on the same rows
    doc = json.loads(rest)
    for model, rows in frame.groupby("model"):
        ci = delong_ci(rows["y_true"].to_numpy(), rows["score"].to_numpy(), confidence_level=0.95)
        got = doc["models"][model]["roc_auc"]
        assert (got["low"], got["high"]) == pytest.approx((ci.low, ci.high), rel=1e-12)
    assert stats.norm.ppf(0.975) == pytest.approx(1.959963984540054, rel=1e-15)


def test_memory_and_duckdb_agree_on_the_unclipped_file(tmp_path):
    path, _ = _file(tmp_path, 0.0)
    memory = run_cli("metrics", path, "--engine", "memory", "--labels-from", "scores")[1]
    duck = run_cli("metrics", path, "--engine", "duckdb", "--labels-from", "scores")[1]
    from tests.engine.test_engine import assert_same_values

    assert_same_values(memory["models"], duck["models"])


# --- the grid chosen from the first rows, without counting the distinct scores ------------------------------------

def _distinct_file(tmp_path, decimals: int | None, fmt: str = "parquet") -> tuple[Path, pd.DataFrame]:
    rng = np.random.default_rng(21)
    n = HEAD_ROWS + 10_000
    y = (rng.random(n) < 0.3).astype(np.int8)
    score = np.clip(0.35 + 0.25 * y + rng.uniform(-0.3, 0.3, n), 0.001, 0.999)
    if decimals is not None:
        score = np.round(score, decimals)
    frame = pd.DataFrame({"model": np.where(np.arange(n) % 2, "b", "a"), "y_true": y, "score": score})
    path = tmp_path / f"d.{fmt}"
    frame.to_parquet(path, index=False) if fmt == "parquet" else frame.to_csv(path, index=False)
    return path, frame


def _traced_run(path, monkeypatch, capsys, limit):
    from assess.engine import backends

    monkeypatch.setenv(backends.TRACE_ENV, "1")
    capsys.readouterr()
    run = engine_reports(resolve_source(str(path)), "duckdb", Overrides(), exact_limit=limit, ci="delong",
                         keys=["roc_auc", "average_precision", "log_loss"])
    counted = any("approx_count_distinct" in line for line in capsys.readouterr().err.splitlines())
    return run, counted


def test_first_rows_of_distinct_scores_in_a_long_parquet_file_choose_the_grid(tmp_path, monkeypatch, capsys):
    """60,000 rows of distinct scores against an exact limit of 20,000: the grid without counting, its bounds
    holding against scikit-learn's exact values; the log loss exact."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    path, frame = _distinct_file(tmp_path, None)
    run, counted = _traced_run(path, monkeypatch, capsys, 20_000)
    assert not counted and not run.exact and run.distinct_scores is None
    assert "grid_reason" in run.summary()
    for model, rows in frame.groupby("model"):
        y, s = rows["y_true"].to_numpy(), rows["score"].to_numpy()
        report, bound = run.reports[model], run.bounds[model]
        assert abs(report["roc_auc"].value - roc_auc_score(y, s)) <= bound["roc_auc"] + 1e-12
        assert abs(report["average_precision"].value - average_precision_score(y, s)) <= \
            bound["average_precision"] + 1e-12
        assert report["log_loss"].value == pytest.approx(log_loss(y, s), rel=1e-12)


@pytest.mark.parametrize("decimals, fmt, limit", [
    (3, "parquet", 20_000),      # ~600 scores per model: the first rows repeat them, counted, exact
    (None, "csv", 20_000),       # no footer states the row count: counted (and over the limit: the grid)
    (None, "parquet", 100_000),  # the file is shorter than the limit: counted, exact
])
def test_otherwise_the_scores_are_counted(tmp_path, monkeypatch, capsys, decimals, fmt, limit):
    path, frame = _distinct_file(tmp_path, decimals, fmt)
    run, counted = _traced_run(path, monkeypatch, capsys, limit)
    assert counted and run.distinct_scores is not None
    assert run.exact == (decimals is not None or limit > len(frame))


# --- scan 1 grouped by the models' positions in the first rows' list ----------------------------------------------

def test_a_model_seen_only_after_the_first_rows_is_counted_by_name(tmp_path, monkeypatch, capsys):
    """The first rows show models a and b; model late starts after them. The coded scan sees an unknown position and
    counts again by name: every model's numbers equal the in-memory ones."""
    from tests.engine.test_engine import assert_same_values

    rng = np.random.default_rng(5)
    n = HEAD_ROWS + 3000
    model = np.where(np.arange(n) % 2, "b", "a").astype(object)
    model[HEAD_ROWS + 1000:] = "late"
    y = (rng.random(n) < 0.4).astype(np.int8)
    frame = pd.DataFrame({"model": model, "y_true": y,
                          "score": np.round(np.clip(0.3 + 0.3 * y + rng.normal(0, 0.2, n), 0.01, 0.99), 3)})
    path = tmp_path / "late.parquet"
    frame.to_parquet(path, index=False)
    run, scans = _summary_scans(path, monkeypatch, capsys)
    assert len(scans) == 2                   # coded, then by name
    assert list(run.reports) == ["a", "b", "late"]
    memory = run_cli("metrics", path, "--engine", "memory")[1]
    duck = run_cli("metrics", path, "--engine", "duckdb")[1]
    assert list(duck["models"]) == ["a", "b", "late"]
    assert_same_values(memory["models"], duck["models"])


def test_a_label_with_braces_and_quotes(tmp_path):
    """The positive class's literal goes into a formatted SQL template: braces and quotes stay text."""
    from tests.engine.test_engine import assert_same_values

    rng = np.random.default_rng(9)
    n = 3000
    y = rng.random(n) < 0.4
    frame = pd.DataFrame({"model": np.where(np.arange(n) % 2, "b", "a"),
                          "y_true": np.where(y, "{it's}", "no"),
                          "score": np.round(np.clip(0.3 + 0.3 * y + rng.normal(0, 0.2, n), 0, 1), 3)})
    path = tmp_path / "braces.parquet"
    frame.to_parquet(path, index=False)
    args = ("--positive", "{it's}", "--labels-from", "scores")
    code_m, memory, _ = run_cli("metrics", path, "--engine", "memory", *args)
    code_d, duck, err = run_cli("metrics", path, "--engine", "duckdb", *args)
    assert code_m == 0 and code_d == 0, err
    assert_same_values(memory["models"], duck["models"])


@pytest.mark.parametrize("late, message", [("maybe", "3 classes"), (None, "empty cells")])
def test_a_truth_value_seen_only_after_the_first_rows_is_refused_by_name(tmp_path, late, message):
    """Text labels coded by the first rows' values: a third class or an empty truth after them sends the scan back
    to the raw values, and the refusal names what the in-memory validation names."""
    rng = np.random.default_rng(6)
    n = HEAD_ROWS + 2000
    y = np.where(rng.random(n) < 0.4, "yes", "no").astype(object)
    y[n - 5] = late
    frame = pd.DataFrame({"y_true": y, "score": np.round(rng.uniform(0.01, 0.99, n), 3)})
    path = tmp_path / "late_truth.parquet"
    frame.to_parquet(path, index=False)
    code, _, err = run_cli("metrics", path, "--engine", "duckdb", "--positive", "yes")
    assert code == 2 and message in err, err


def test_every_summary_scan_and_recount_is_built_by_summary_sql(tmp_path, monkeypatch, capsys):
    """A model seen only after the first rows and, after them, a score the clip changes: the coded scan, its
    recount with the clip, and the same two by name — four statements, each the one builder's SQL (the trace
    shows the statements the engine ran; the spy the SQL `summary_sql` returned), in the same order."""
    from assess.engine import binary

    rng = np.random.default_rng(8)
    n = HEAD_ROWS + 3000
    model = np.where(np.arange(n) % 2, "b", "a").astype(object)
    model[HEAD_ROWS + 1000:] = "late"
    y = (rng.random(n) < 0.4).astype(np.int8)
    score = np.round(np.clip(0.3 + 0.3 * y + rng.normal(0, 0.2, n), 0.01, 0.99), 3)
    score[n - 3], y[n - 3] = 0.0, 1                          # the true class at probability 0: clipped to eps
    frame = pd.DataFrame({"model": model, "y_true": y, "score": score})
    path = tmp_path / "late.parquet"
    frame.to_parquet(path, index=False)
    built = []
    original = binary.summary_sql
    monkeypatch.setattr(binary, "summary_sql", lambda *a, **k: built.append(original(*a, **k)) or built[-1])
    run, scans = _summary_scans(path, monkeypatch, capsys, keys=["log_loss", "roc_auc"])
    assert scans == [False, True, False, True]               # coded, coded clipped, by name, by name clipped
    assert len(built) == 4 and all("AS s_distinct" in sql for sql in built)
    for model_name, expected in _log_losses(frame).items():
        assert run.reports[model_name]["log_loss"].value == pytest.approx(expected, rel=1e-12)
