"""Forecasts and multi-class arg-max labels on a local Spark (PySpark, local[1]): the JSON of ``metrics --engine
memory`` and of DuckDB.

One session for every Spark module of the process (tests/spark_session.py), small files. Oracle: the in-memory path on the same file, to
1e-12 (R² and explained variance as in tests/engine/test_forecast.py). Spark reads CSV cells as text: the integer time
stamps and series ids of a CSV file are read back as numbers, as the in-memory reader types them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.engine.test_engine import run_cli
from tests.engine.test_forecast import FORECASTS, assert_same_json, both, forecast_frame

from tests.spark_session import skip_without_spark, spark_session  # noqa: E402,F401  (one session per process)

skip_without_spark()
pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning", "ignore::DeprecationWarning")


def test_the_forecast_sample_on_spark_gives_the_in_memory_json():
    memory, spark = both(FORECASTS, engine="spark")
    assert_same_json(memory, spark)
    assert spark["engine"]["name"] == "spark"


@pytest.mark.parametrize("fmt, options", [("parquet", {}), ("csv", {"integer_time": True, "origin": False})])
def test_generated_forecasts_on_spark_equal_memory_and_duckdb(tmp_path, fmt, options):
    path = tmp_path / f"f.{fmt}"
    frame = forecast_frame(11, series=("a", "b", "it's"), months=9, **options)
    frame.to_parquet(path) if fmt == "parquet" else frame.to_csv(path, index=False)
    memory, spark = both(path, engine="spark")
    assert_same_json(memory, spark)
    code, duck, err = run_cli("metrics", path, "--engine", "duckdb")
    assert code == 0, err
    assert_same_json({k: v for k, v in duck.items() if k != "engine"}, spark)


def test_multiclass_labels_by_argmax_with_ties_on_spark(tmp_path):
    from tests.engine.test_engine import assert_same_values
    from tests.engine.test_multiclass_argmax import tied_frame

    path = tmp_path / "ties.parquet"
    tied_frame(1).to_parquet(path)
    memory, spark = both(path, engine="spark")
    assert_same_values(memory["models"], spark["models"])


def test_weighted_medians_on_spark_equal_memory(tmp_path):
    """The weighted median (windows over the sorted distinct |e|): a forecast's pooled, per-horizon and per-series
    ones and a regression file's; R² to 1e-9 with weights (raw moments, see tests/engine/test_forecast.py)."""
    from tests.engine_runs import memory_and_engine
    from tests.engine.test_engine import assert_same_values

    path = tmp_path / "f.parquet"
    forecast_frame(14, months=8, weights=True).to_parquet(path)
    memory, spark = both(path, engine="spark")
    assert_same_json(memory, spark, rel=1e-9)
    rng = np.random.default_rng(14)
    n = 400
    y = np.round(rng.normal(5, 3, n), 1)
    pd.concat([pd.DataFrame({"model": m, "y_true": y, "y_pred": np.round(y + rng.normal(b, 1, n), 1),
                             "weight": rng.integers(0, 6, n) / 2.0}) for m, b in (("u", 0), ("v", 1))],
              ignore_index=True).to_parquet(tmp_path / "r.parquet")
    memory, spark = memory_and_engine("metrics", tmp_path / "r.parquet", "spark")
    assert_same_values(memory["models"], spark["models"], rel=1e-9)
    assert spark["models"]["u"]["median_absolute_error"] is not None


@pytest.mark.parametrize("weights", [False, True])
def test_the_baseline_forecasts_on_spark_equal_duckdb(tmp_path, weights):
    from assess.engine.reports import engine_reports
    from assess.engine.source import resolve_source
    from assess.inputs.roles import Overrides

    path = tmp_path / "f.parquet"
    forecast_frame(13, months=8, weights=weights).to_parquet(path)
    runs = {e: engine_reports(resolve_source(str(path)), e, Overrides(), baselines=True) for e in ("duckdb", "spark")}
    for model, report in runs["duckdb"].reports.items():
        for r, s in zip(report.results, runs["spark"].reports[model].results):
            assert r.baseline_method == s.baseline_method and r.baselines.keys() == s.baselines.keys()
            for name, value in r.baselines.items():
                assert (value != value and s.baselines[name] != s.baselines[name]) or \
                    abs(value - s.baselines[name]) <= 1e-10 * max(1.0, abs(value)), (model, r.key, name)
