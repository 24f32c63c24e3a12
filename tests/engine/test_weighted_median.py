"""The weighted median absolute error out of core (assess.engine.median.weighted_medians), on DuckDB.

Oracles: scikit-learn's ``median_absolute_error(sample_weight=...)`` (``_weighted_percentile(average=True)``, the
averaged inverted CDF, scikit-learn >= 1.8) per model, and the in-memory path's `weighted_median`; worked examples
from the definition in assess/metrics/regression.py (first value whose cumulative weight reaches half the total,
averaged with the next value of positive weight on an exact hit). Forecast groups (pooled, per horizon, per series)
are compared with the in-memory JSON in tests/engine/test_forecast.py; Spark in tests/engine/test_additions_spark.py.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import sklearn
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn.metrics import median_absolute_error

from assess.core.data import Task
from assess.engine import median
from assess.engine.reports import engine_reports
from assess.engine.source import resolve_source
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.inputs.roles import Overrides
from assess.metrics.reports import compute_reports

pytest.importorskip("duckdb")
#: A few rows of rounded numbers could read as classes or leave the prediction undetected: task and roles are said
REGRESSION = Overrides(task=Task.REGRESSION).with_role("y_true", "y_true").with_role("weight", "weight")
SKLEARN_AVERAGES = tuple(int(x) for x in sklearn.__version__.split(".")[:2]) >= (1, 8)


def _overrides(path) -> Overrides:
    """`REGRESSION` with the long file's prediction column (a wide file's are found by their names)."""
    return REGRESSION.with_role("y_pred", "y_pred") if "wide" not in str(path) and "parts" not in str(path) \
        else REGRESSION


def _engine_medians(path) -> dict[str, float]:
    run = engine_reports(resolve_source(str(path)), "duckdb", _overrides(path), keys=["median_absolute_error"])
    return {m: rep.results[0].value for m, rep in run.reports.items()}


@pytest.mark.parametrize("errors, weights, expected", [
    ([1.0, 2.0, 3.0], [1, 1, 2], 2.5),          # C = 1, 2, 4: hits W/2 = 2 exactly at 2 -> (2 + 3) / 2
    ([1.0, 1.0, 2.0], [1, 2, 1], 1.0),          # C = 3 at the tie 1 passes W/2 = 2: no average
    ([1.0, 2.0, 3.0, 4.0], [1, 1, 0, 2], 3.0),  # hit at 2; the next value of positive weight is 4, not 3
    ([5.0, 1.0, 3.0], [0, 0, 7], 3.0),          # one value carries all the weight
    ([1.0, 1.0, 3.0, 3.0], [1, 1, 1, 1], 2.0),  # ties on both sides of the half
])
def test_worked_examples(tmp_path, errors, weights, expected):
    frame = pd.DataFrame({"y_true": np.zeros(len(errors)) + 10.0, "y_pred": 10.0 + np.array(errors),
                          "weight": np.array(weights, dtype=float)})
    frame.to_parquet(tmp_path / "r.parquet")
    assert list(_engine_medians(tmp_path / "r.parquet").values()) == [expected]


@pytest.mark.parametrize("fetch_limit", [median.FETCH_LIMIT, 0], ids=["histogram", "windows"])
@settings(max_examples=25)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 60), models=st.integers(1, 3),
       spread=st.sampled_from([0.5, 3.0, 20.0, 1e-4]), quarters=st.booleans())
@example(seed=0, n=4, models=1, spread=0.5, quarters=True)
def test_generated_files_equal_scikit_learn_and_memory(tmp_path_factory, fetch_limit, seed, n, models, spread,
                                                       quarters):
    """Errors rounded to one digit (many ties; values 1 % apart share a histogram bucket), or tiny and unrounded
    (spread 1e-4: all distinct, crowded into few buckets), zero weights, weights in quarters (exact sums: frequent
    exact hits of W/2) or in hundredths, several models in a long file; both plans of `assess.engine.median` (a
    fetch limit of 0 sends every file to the windows)."""
    rng = np.random.default_rng(seed)
    parts = []
    for m in range(models):
        y = np.round(rng.normal(0, 5, n), 1)
        w = rng.integers(0, 8, n) / 4.0 if quarters else np.round(rng.uniform(0, 2, n), 2)
        w[rng.integers(0, n)] = 1.0                     # never all zero (refused in memory and out of core)
        y_pred = y + rng.normal(0, spread, n)
        parts.append(pd.DataFrame({"model": f"m{m}", "y_true": y, "weight": w,
                                   "y_pred": y_pred if spread < 0.1 else np.round(y_pred, 1)}))
    frame = pd.concat(parts, ignore_index=True)
    path = tmp_path_factory.mktemp("wm") / "r.parquet"
    frame.to_parquet(path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(median, "FETCH_LIMIT", fetch_limit)
        engine = _engine_medians(path)
    memory = compute_reports(describe(read_table(path), _overrides(path)), keys=["median_absolute_error"])
    for model, value in engine.items():
        rows = frame[frame["model"] == model] if models > 1 else frame
        assert value == pytest.approx(memory[model]["median_absolute_error"].value, abs=1e-12), model
        if SKLEARN_AVERAGES:
            oracle = median_absolute_error(rows["y_true"], rows["y_pred"], sample_weight=rows["weight"])
            assert value == pytest.approx(oracle, abs=1e-12), model


def test_a_wide_file_and_a_directory_of_parts_give_the_single_files_medians(tmp_path):
    rng = np.random.default_rng(5)
    n = 500
    y = np.round(rng.normal(0, 3, n), 1)
    wide = pd.DataFrame({"y_true": y, "y_pred_a": np.round(y + rng.normal(0, 1, n), 1),
                         "y_pred_b": np.round(y + rng.normal(1, 2, n), 1), "weight": rng.integers(0, 5, n) / 2.0})
    wide.to_parquet(tmp_path / "wide.parquet")
    (tmp_path / "parts").mkdir()
    for i in range(3):
        wide.iloc[i::3].to_parquet(tmp_path / "parts" / f"p{i}.parquet")
    for model in ("a", "b"):
        oracle = median_absolute_error(wide["y_true"], wide[f"y_pred_{model}"], sample_weight=wide["weight"]) \
            if SKLEARN_AVERAGES else None
        for path in (tmp_path / "wide.parquet", tmp_path / "parts"):
            value = _engine_medians(path)[model]
            if oracle is not None:
                assert value == pytest.approx(oracle, abs=1e-12), (path, model)


def test_the_histogram_plan_reads_the_file_at_most_twice_more(tmp_path, monkeypatch, capsys):
    """10,000 all-distinct errors: the histogram, then the one bucket's values (and no window); the windows' plan
    gives the same medians."""
    from assess.engine import backends

    rng = np.random.default_rng(2)
    n = 10_000
    y = rng.normal(0, 3, n)
    frame = pd.DataFrame({"model": np.where(np.arange(n) % 2, "b", "a"), "y_true": y,
                          "y_pred": y + rng.standard_t(2, n), "weight": rng.integers(1, 5, n) / 2.0})
    frame.to_parquet(tmp_path / "r.parquet")
    monkeypatch.setenv(backends.TRACE_ENV, "1")
    capsys.readouterr()
    values = _engine_medians(tmp_path / "r.parquet")
    reads = [line for line in capsys.readouterr().err.splitlines() if "[reads the file]" in line]
    # the first rows, the sums, the histogram, the bucket's values (no windows: their query starts with a_i)
    assert len(reads) == 4 and "AS nb" in reads[2] and "a, sum(w) AS wv" in reads[3], reads
    monkeypatch.setattr(median, "FETCH_LIMIT", 0)
    assert _engine_medians(tmp_path / "r.parquet") == values
    for model, rows in frame.groupby("model"):
        if SKLEARN_AVERAGES:
            assert values[model] == pytest.approx(median_absolute_error(rows["y_true"], rows["y_pred"],
                                                                        sample_weight=rows["weight"]), abs=1e-12)


def test_grouping_sets_give_each_groups_median_by_both_plans(tmp_path):
    """Per model and per (model, series), in one query with grouping sets (as the forecast breakdowns ask): each
    group's value is scikit-learn's on the group's rows, by the histogram and by the windows."""
    from assess.engine.backends import DuckDBBackend

    rng = np.random.default_rng(4)
    n = 3000
    frame = pd.DataFrame({"model": rng.choice(["p", "q"], n), "skey": rng.choice(["s1", "s2", "s'3", "s4"], n),
                          "y": np.round(rng.normal(0, 4, n), 1), "w": rng.integers(0, 5, n) / 2.0})
    frame["yp"] = np.round(frame["y"] + rng.standard_t(3, n), 2)
    frame.to_parquet(tmp_path / "g.parquet")
    rows = "(SELECT model, skey, y, yp, w FROM predictions) AS r"
    runs = []
    with DuckDBBackend(resolve_source(str(tmp_path / "g.parquet"))) as backend:
        for limit in (median.FETCH_LIMIT, 0):
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(median, "FETCH_LIMIT", limit)
                out = median.weighted_medians(backend, rows, ["model", "skey"], [["model"], ["model", "skey"]])
            runs.append({(m, s if g == 0 else None): v for m, s, g, v in
                         zip(out["model"], out["skey"], out["g_skey"].astype(int), out["median_abs"])})
    assert runs[0] == runs[1] and len(runs[0]) == 2 + 8
    if SKLEARN_AVERAGES:
        for (model, series), value in runs[0].items():
            rows_ = frame[(frame["model"] == model) & ((frame["skey"] == series) if series else True)]
            assert value == pytest.approx(median_absolute_error(rows_["y"], rows_["yp"], sample_weight=rows_["w"]),
                                          abs=1e-12), (model, series)
