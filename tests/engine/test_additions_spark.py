"""The out-of-core additions on a local Spark (local[1]): `compare --engine spark` (the same grouped agreement counts
and placements as DuckDB, the same JSON as in memory), multi-class score metrics, multi-label metrics and bootstrap
intervals. Oracle: the in-memory path on the same file, to 1e-12
relative (see tests/engine/test_compare.py, tests/engine/test_multiclass.py, tests/engine/test_bootstrap.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.engine_runs import memory_and_engine
from tests.engine.test_engine import SAMPLE, run_cli
from tests.engine.test_compare import assert_same_json, delong_both_ways_equal_memory, long_delong_file

from tests.spark_session import skip_without_spark, spark_session  # noqa: E402,F401  (one session per process)

skip_without_spark()
pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning", "ignore::DeprecationWarning")


@pytest.mark.parametrize("args", [["--test", "mcnemar", "--method", "midp"], ["--test", "cochran_q"],
                                  ["--test", "delong"], ["--test", "mcnemar", "--labels-from", "scores"]])
def test_the_sample_through_spark_equals_memory(args):
    assert_same_json(*memory_and_engine("compare", SAMPLE, "spark", *args))


def test_a_wide_parquet_file_through_spark_equals_memory(tmp_path):
    rng = np.random.default_rng(5)
    n = 200
    y = rng.choice(["no", "yes"], n)
    wide = pd.DataFrame({"y_true": y} | {f"score_{m}": np.round(np.clip(0.4 * (y == "yes") + rng.normal(0.3, s, n),
                                                                         0, 1), 1)
                                          for m, s in (("a", 0.2), ("b", 0.35))})
    path = tmp_path / "wide.parquet"
    wide.to_parquet(path, index=False)
    for test in ("mcnemar", "delong"):
        assert_same_json(*memory_and_engine("compare", path, "spark", "--test", test))


def test_delong_on_a_long_file_through_spark_equals_memory_both_ways(tmp_path, monkeypatch):
    """Spark runs the row windows (RANGE frames, NULLS LAST, covar_samp) and the grouped table alike."""
    long_delong_file(tmp_path / "long.parquet")
    delong_both_ways_equal_memory(tmp_path / "long.parquet", "spark", monkeypatch)


def test_disjoint_ids_are_refused_on_spark_too(tmp_path):
    frame = pd.DataFrame({"id": list("abcdefgh"), "model": ["A"] * 4 + ["B"] * 4, "y_true": [0, 1] * 4,
                          "y_pred": [0, 1, 1, 1, 0, 0, 1, 1]})
    path = tmp_path / "f.csv"
    frame.to_csv(path, index=False)
    code, _, err = run_cli("compare", path, "--test", "cochran_q", "--engine", "spark")
    assert code != 0 and "no sample id is shared between models" in err


# --- the other out-of-core additions on the same session ------------------------------------------------------------

def test_multiclass_score_metrics_through_spark_equal_memory():
    from tests.engine.test_engine import assert_same_values

    wine = SAMPLE.with_name("wine_multiclass.csv")
    memory, spark = memory_and_engine("metrics", wine, "spark", "--k", "2")
    assert_same_values(memory["models"], spark["models"])


def test_bootstrap_label_intervals_through_spark_equal_memory():
    args = ("--ci", "bootstrap", "--metrics", "accuracy", "f1", "mcc", "--resamples", "500")
    memory, spark = memory_and_engine("metrics", SAMPLE, "spark", *args)
    assert_same_json(memory["models"], spark["models"])


def test_multilabel_metrics_through_spark_equal_memory():
    from tests.engine.test_engine import assert_same_values

    digits = SAMPLE.with_name("digits_multilabel.csv")
    memory, spark = memory_and_engine("metrics", digits, "spark")
    assert_same_values(memory["models"], spark["models"])
