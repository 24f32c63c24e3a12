"""The same out-of-core aggregation on a local Spark (PySpark, local[1]) gives the in-memory numbers.

One Spark session for the whole module (Spark allows one per process; starting a JVM is the slow part), small
files, no UI, one shuffle partition. Oracle: the in-memory `compute_reports` (checked against scikit-learn in
tests/metrics/test_oracle.py) and the DuckDB run of the same file (tests/engine/test_engine.py), to 1e-12.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from assess.core.decision import Decision
from assess.engine.backends import SparkBackend
from assess.engine.reports import engine_reports
from assess.engine.source import resolve_source
from assess.core.errors import AssessError
from assess.inputs.read import LoadedTable
from assess.metrics.reports import compute_reports
from assess.inputs.roles import Overrides
from assess.inputs.assessment import describe
from tests.engine.test_engine import (SAMPLE, assert_float_labels_as_in_memory, assert_same_values,
                                      assert_truth_named_as_in_memory, run_cli)

from tests.spark_session import skip_without_spark, spark_session  # noqa: E402,F401  (one session per process)

skip_without_spark()
pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning", "ignore::DeprecationWarning")


def _values(run):
    return {m: r.to_dict(with_ci=True) for m, r in run.reports.items()}


def test_spark_equals_memory_on_the_sample_through_the_cli():
    code_m, memory, _ = run_cli("metrics", SAMPLE, "--engine", "memory", "--ci", "wilson")
    code_s, spark, err = run_cli("metrics", SAMPLE, "--engine", "spark", "--ci", "wilson")
    assert code_m == 0 and code_s == 0, err
    assert spark["engine"]["name"] == "spark" and spark["engine"]["exact"]
    assert_same_values(memory["models"], spark["models"])
    assert memory["undefined"] == spark["undefined"]


def test_spark_equals_memory_and_duckdb_with_weights_string_labels_ties_and_parts(tmp_path):
    rng = np.random.default_rng(5)
    n = 400
    y = rng.integers(0, 2, n)
    frame = pd.concat([pd.DataFrame({"model": m, "y_true": np.where(y == 1, "spam", "ham"),
                                     "score": np.round(rng.random(n), 1),             # 11 levels: ties
                                     "weight": np.round(rng.uniform(0, 2, n), 2)}) for m in ("x", "y'quote")],
                      ignore_index=True)
    (tmp_path / "parts").mkdir()
    for i, rows in enumerate(np.array_split(np.arange(len(frame)), 3)):
        frame.iloc[rows].to_parquet(tmp_path / "parts" / f"p{i}.parquet")
    decision = Decision.from_scores(0.45)
    overrides = Overrides(positive="spam")
    spark = engine_reports(resolve_source(str(tmp_path / "parts")), "spark", overrides, decision=decision,
                           ci="wilson")
    duck = engine_reports(resolve_source(str(tmp_path / "parts")), "duckdb", overrides, decision=decision,
                          ci="wilson")
    table = LoadedTable(frame=frame, name="t", sha256="", n_bytes=0, format="parquet")
    memory = compute_reports(describe(table, overrides), decision=decision, ci="wilson")
    assert_same_values({m: r.to_dict(with_ci=True) for m, r in memory.items()}, _values(spark))
    assert_same_values(_values(duck), _values(spark))


def test_spark_grid_agrees_with_duckdb_grid(tmp_path):
    rng = np.random.default_rng(9)
    n = 20_000
    y = rng.random(n) < 0.4
    pd.DataFrame({"y_true": y.astype(np.int8), "score": np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1)}
                 ).to_parquet(tmp_path / "g.parquet")
    runs = [engine_reports(resolve_source(str(tmp_path / "g.parquet")), engine, Overrides(), exact_limit=0, bins=256)
            for engine in ("spark", "duckdb")]
    assert not runs[0].exact
    assert_same_values(_values(runs[1]), _values(runs[0]))
    for key, bound in runs[0].bounds["g"].items():
        assert bound == pytest.approx(runs[1].bounds["g"][key], rel=1e-12)


def test_an_unreachable_spark_master_is_one_clear_line():
    saved, SparkBackend._session = SparkBackend._session, None
    try:
        with pytest.raises(AssessError, match="not reachable at spark://127.0.0.1:1"):
            SparkBackend.session("spark://127.0.0.1:1")
    finally:
        SparkBackend._session = saved
    code, _, err = run_cli("metrics", SAMPLE, "--engine", "spark", "--spark-master", "spark://127.0.0.1:1")
    assert code == 2 and "not reachable" in err



@pytest.mark.parametrize("sample", ["wine_multiclass.csv", "diabetes_regression.csv"])
def test_spark_equals_duckdb_on_the_multiclass_and_regression_samples(sample):
    path = SAMPLE.with_name(sample)
    code_d, duck, err_d = run_cli("metrics", path, "--engine", "duckdb")
    code_s, spark, err_s = run_cli("metrics", path, "--engine", "spark")
    assert code_d == 0 and code_s == 0, err_d + err_s
    assert_same_values(duck["models"], spark["models"])
    assert duck["undefined"] == spark["undefined"]


@pytest.mark.parametrize("positive, negative", [("yes", "no"), ("true", "false"), ("TRUE", "FALSE")])
def test_spark_names_a_csv_truth_s_classes_as_memory_does(tmp_path, positive, negative):
    """Spark reads CSV as text: true/false (any case) would be classes 'true'/'false' where pandas reads booleans
    ('True'/'False'); yes/no stay text in both."""
    assert_truth_named_as_in_memory(tmp_path, "spark", positive, negative)


def test_the_decision_and_loss_expressions_give_the_in_memory_values_on_spark(spark_session):   # noqa: F811
    """assess.engine.expressions on Spark SQL, row for row (tests/engine/test_expressions.py runs them on DuckDB):
    ties, a threshold equal to a score, scores of exactly 0 and 1, an empty score; oracle the in-memory rule and
    formulas."""
    from pyspark.sql.types import DoubleType, StructField, StructType

    from assess.core.data import Task
    from assess.core.decision import predicted_labels
    from assess.engine import expressions
    from assess.metrics import binary, multiclass, regression

    s = [0.0, 1.0, 0.3, 0.3, 0.5, 1e-17, 1 - 2 ** -53, 0.7, None]
    y = [1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 2.0, 1.0]
    m = [[0.5, 0.5, 0.0], [0.2, 0.4, 0.4], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.3, 0.3, 0.3], [0.1, 0.6, 0.3],
         [0.0, 1.0, 0.0], [0.4, 0.2, 0.4], [0.5, 0.25, 0.25]]
    rows = [(float(i), s[i], y[i], *m[i]) for i in range(len(s))]
    schema = StructType([StructField(c, DoubleType(), True) for c in ("i", "s", "y", "m0", "m1", "m2")])
    spark_session.createDataFrame(rows, schema).createOrReplaceTempView("expr_rows")
    t = 0.3                                                              # equal to two scores
    cols = ["m0", "m1", "m2"]
    py = "CASE y WHEN 0 THEN m0 WHEN 1 THEN m1 WHEN 2 THEN m2 END"
    p = expressions.p_true("y = 1", "s")
    select = {"code": expressions.threshold_code("s", t), "ind": expressions.threshold_indicator("s", t),
              "ll": expressions.log_loss(p), "brier": expressions.binary_brier(p),
              "pred": expressions.argmax(cols, ["0", "1", "2"]), "mll": expressions.log_loss(py),
              "mbrier": expressions.multiclass_brier(cols, py),
              "hit": f"({expressions.true_class_rank(cols, 'y', py)}) < 2",
              **{f"r_{k}": v for k, v in expressions.regression_terms("y", "m1").items()}}
    got = spark_session.sql(f"SELECT {', '.join(f'{v} AS {k}' for k, v in select.items())} FROM expr_rows "
                            "ORDER BY i").toPandas()
    scored = np.array(s[:-1], dtype=float)
    want = predicted_labels(Task.BINARY, None, scored, Decision.from_scores(t))
    assert got["code"].tolist() == [*want.tolist(), 2]
    assert got["ind"].iloc[:-1].tolist() == want.astype(float).tolist() and pd.isna(got["ind"].iloc[-1])
    two = np.array(y[:-1]) == 1.0                    # the binary rows (y = 2 reads as negative, as in SQL)
    ll, brier = binary.per_row_losses(two, scored)
    np.testing.assert_allclose(got["ll"].iloc[:-1], ll, rtol=1e-15)
    np.testing.assert_allclose(got["brier"].iloc[:-1], brier, rtol=1e-15)
    scores, yi = np.array(m), np.array(y, dtype=int)
    assert got["pred"].astype(int).tolist() == predicted_labels(Task.MULTICLASS, None, scores).tolist()
    mll, mbrier = multiclass.per_row_losses(yi, scores)
    np.testing.assert_allclose(got["mll"], mll, rtol=1e-15)
    np.testing.assert_allclose(got["mbrier"], mbrier, rtol=0, atol=1e-15)
    assert got["hit"].tolist() == multiclass.top_k_hits(yi, scores, 2).tolist()
    terms = regression.row_values(np.array(y, dtype=float), scores[:, 1], set(regression.PARTS))
    for name, values in terms.items():
        np.testing.assert_allclose(got[f"r_{name}"], values, rtol=1e-15, err_msg=name)


# --- issue 31, item 6: literals by type, file names taken literally ------------------------------------------------

@pytest.mark.parametrize("labels, suffix", [((0.0, float("inf")), ".csv"), ((float("-inf"), 0.0, 2.0), ".parquet")])
def test_spark_gives_the_in_memory_numbers_for_float_labels_with_infinities(tmp_path, labels, suffix):
    """A label written into Spark SQL as repr(inf) was an unresolved column `inf`."""
    assert_float_labels_as_in_memory(tmp_path, "spark", labels, suffix)


def test_a_literal_reads_back_as_its_value_in_spark(tmp_path):
    pd.DataFrame({"y_true": [0, 1], "score": [0.1, 0.9]}).to_parquet(tmp_path / "t.parquet")
    values = [float("inf"), float("-inf"), float("nan"), 1.5, 1e300, 3, True, "it's \\ 'q'"]
    backend = SparkBackend(resolve_source(str(tmp_path / "t.parquet")))
    row = backend.query("SELECT " + ", ".join(f"{backend.literal(v)} AS v{i}" for i, v in enumerate(values)))
    back = row.iloc[0].tolist()
    assert np.isnan(back[2]) and [b for i, b in enumerate(back) if i != 2] == [v for i, v in enumerate(values)
                                                                                if i != 2]


def test_spark_opens_files_named_with_a_backslash_or_glob_characters_as_named(tmp_path):
    """Hadoop globs each path Spark is given, a backslash escaping: a\\b.parquet was "Path does not exist", and
    x*.parquet read its neighbour xa.parquet too."""
    for name, model in (("a\\b.parquet", "backslash"), ("x*.parquet", "star"), ("xa.parquet", "neighbour")):
        pd.DataFrame({"model": model, "y_true": [i % 2 for i in range(40)],
                      "score": [0.3 + 0.4 * (i % 2) + 0.001 * i for i in range(40)]}).to_parquet(tmp_path / name)
    for name, model in (("a\\b.parquet", "backslash"), ("x*.parquet", "star")):
        run = engine_reports(resolve_source(str(tmp_path / name)), "spark", Overrides(), ci="wilson")
        assert list(run.reports) == [model] and run.n_rows == 40
