"""The SQL of the decision rule and the per-row losses (assess.engine.expressions), evaluated by DuckDB row for row.

Oracles: the in-memory rule, :func:`assess.core.decision.predicted_labels` (NumPy's ``>=`` and ``argmax``), and the
in-memory per-row formulas (:func:`assess.metrics.binary.per_row_losses`, :func:`assess.metrics.multiclass.
per_row_losses` and ``top_k_hits``, :func:`assess.metrics.regression.row_values`, the forecasts' ``winkler_scores``
and ``pinball_losses``), with scikit-learn's ``log_loss``
for the clip at exact 0 and 1. The data are generated (hypothesis, derandomised by the project's profile) from small
pools of values, so ties, thresholds equal to a score and scores of exactly 0 and 1 are common.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import log_loss as sk_log_loss

from assess.core.data import Task
from assess.core.decision import Decision, predicted_labels
from assess.engine import expressions
from assess.metrics import binary, forecast, multiclass, multilabel, regression

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")

POOL = [0.0, 1.0, 0.5, 0.25, 0.75, 0.1, 0.3, 1e-17, 1 - 2 ** -53, 2 ** -53, 0.30000000000000004]
probability = st.sampled_from(POOL) | st.floats(0.0, 1.0)
#: regression values: zeros (relative errors, sMAPE's 0/0), equal pairs, and sixty-fourths up to ±15,625
number = st.sampled_from([0.0, 1.0, -1.0, 2.5]) | st.integers(-10 ** 6, 10 ** 6).map(lambda v: v / 64)
threshold = st.sampled_from(POOL) | st.floats(-2.0, 2.0) | st.floats(allow_nan=False, allow_infinity=False)


@pytest.fixture(scope="module")
def con():
    connection = duckdb.connect(":memory:")
    yield connection
    connection.close()


def evaluate(con, columns: dict, select: dict[str, str]) -> dict[str, np.ndarray]:
    """``select`` (name: SQL) over a table of ``columns`` (None a NULL), as arrays in row order (NULL as None)."""
    n = len(next(iter(columns.values())))
    table = pa.table({"i": pa.array(range(n), pa.int64()),
                      **{k: pa.array(v, pa.float64()) for k, v in columns.items()}})
    con.register("t", table)
    try:
        rows = con.execute(f"SELECT {', '.join(f'{sql} AS {k}' for k, sql in select.items())} FROM t ORDER BY i"
                           ).fetchall()
    finally:
        con.unregister("t")
    return {k: np.array([r[j] for r in rows], dtype=object) for j, k in enumerate(select)}


@settings(max_examples=60)
@given(rows=st.lists(st.tuples(st.booleans(), probability | st.none()), min_size=1, max_size=30), t=threshold,
       pick=st.integers(0, 29))
def test_the_binary_decision_in_sql_is_predicted_labels(con, rows, t, pick):
    scored = [s for _, s in rows if s is not None]
    if scored and pick % 2:
        t = scored[pick % len(scored)]                 # a threshold equal to a score
    s = [s for _, s in rows]
    got = evaluate(con, {"s": s}, {"code": expressions.threshold_code("s", t), "at": expressions.at_threshold("s", t),
                                   "ind": expressions.threshold_indicator("s", t)})
    present = np.array([v is not None for v in s])
    if present.any():
        want = predicted_labels(Task.BINARY, None, np.array(scored), Decision.from_scores(t))
        assert got["code"][present].astype(int).tolist() == want.tolist()
        assert got["at"][present].tolist() == [bool(v) for v in want]
        assert got["ind"][present].astype(float).tolist() == want.astype(float).tolist()
    # no score, no decision: 2 in the code, NULL otherwise (the engines refuse the row)
    assert got["code"][~present].tolist() == [2] * int((~present).sum())
    assert all(v is None for v in got["at"][~present]) and all(v is None for v in got["ind"][~present])


@settings(max_examples=40)
@given(data=st.data(), n_labels=st.integers(1, 4), n=st.integers(1, 20))
def test_the_multilabel_decision_in_sql_is_predicted_labels_with_per_label_thresholds(con, data, n_labels, n):
    scores = np.array(data.draw(st.lists(st.lists(probability, min_size=n_labels, max_size=n_labels),
                                         min_size=n, max_size=n)))
    labels = [f"l{j}" for j in range(n_labels)]
    per_label = {lab: data.draw(st.sampled_from(sorted(set(scores[:, j]))) | threshold)
                 for j, lab in enumerate(labels) if data.draw(st.booleans())}
    decision = Decision.from_scores(data.draw(threshold), per_label)
    got = evaluate(con, {f"s{j}": scores[:, j].tolist() for j in range(n_labels)},
                   {f"p{j}": expressions.threshold_indicator(f"s{j}", decision.threshold_for(lab))
                    for j, lab in enumerate(labels)})
    want = predicted_labels(Task.MULTILABEL, None, scores, decision, labels=labels)
    assert np.column_stack([got[f"p{j}"].astype(float) for j in range(n_labels)]).tolist() == \
        want.astype(float).tolist()


@settings(max_examples=60)
@given(data=st.data(), k=st.integers(2, 5), n=st.integers(1, 25), top=st.integers(1, 4))
def test_the_multiclass_arg_max_ties_and_losses_in_sql_equal_the_in_memory_ones(con, data, k, n, top):
    # scores from 3 values: most rows hold ties, and some a tie for the highest score
    values = st.sampled_from([0.0, 0.5, 1.0]) | probability if data.draw(st.booleans()) else st.sampled_from(
        [0.0, 0.5, 1.0])
    scores = np.array(data.draw(st.lists(st.lists(values, min_size=k, max_size=k), min_size=n, max_size=n)))
    y = np.array(data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    cols = [f"s{j}" for j in range(k)]
    py = "CASE y " + " ".join(f"WHEN {j} THEN s{j}" for j in range(k)) + " END"
    got = evaluate(con, {"y": y.astype(float).tolist(), **{c: scores[:, j].tolist() for j, c in enumerate(cols)}},
                   {"pred": expressions.argmax(cols, [str(j) for j in range(k)]),
                    "ll": expressions.log_loss(py), "brier": expressions.multiclass_brier(cols, py),
                    "hit": f"({expressions.true_class_rank(cols, 'y', py)}) < {top}"})
    assert got["pred"].astype(int).tolist() == predicted_labels(Task.MULTICLASS, None, scores).tolist()
    ll, brier = multiclass.per_row_losses(y, scores)
    np.testing.assert_allclose(got["ll"].astype(float), ll, rtol=1e-15, atol=0)
    np.testing.assert_allclose(got["brier"].astype(float), brier, rtol=0, atol=1e-15)
    assert got["hit"].astype(bool).tolist() == multiclass.top_k_hits(y, scores, top).tolist()


@settings(max_examples=60)
@given(rows=st.lists(st.tuples(st.booleans(), probability), min_size=1, max_size=30))
def test_the_binary_losses_in_sql_equal_the_in_memory_ones(con, rows):
    y = np.array([t for t, _ in rows])
    s = np.array([p for _, p in rows])
    p = expressions.p_true("y = 1", "s")
    got = evaluate(con, {"y": y.astype(float).tolist(), "s": s.tolist()},
                   {"ll": expressions.log_loss(p), "brier": expressions.binary_brier(p)})
    ll, brier = binary.per_row_losses(y, s)
    np.testing.assert_allclose(got["ll"].astype(float), ll, rtol=1e-15, atol=0)
    assert got["brier"].astype(float).tolist() == brier.tolist()


def test_one_clip_for_every_log_loss_at_scores_of_exactly_0_and_1(con):
    """A wrong prediction with probability exactly 0 (or 1) costs -ln(eps) in SQL, in memory (binary and
    multi-class) and in scikit-learn (its log_loss clips by the float64 epsilon too): a second epsilon anywhere
    would show here."""
    y, s = np.array([True, False, True, False]), np.array([0.0, 1.0, 1.0, 0.0])
    got = evaluate(con, {"y": y.astype(float).tolist(), "s": s.tolist()},
                   {"ll": expressions.log_loss(expressions.p_true("y = 1", "s"))})["ll"].astype(float)
    worst = -math.log(np.finfo(np.float64).eps)
    assert got.tolist() == pytest.approx([worst, worst, 0.0, 0.0], rel=1e-15, abs=1e-15)
    assert binary.per_row_losses(y, s)[0].tolist() == pytest.approx(got.tolist(), rel=1e-15, abs=1e-15)
    both = np.column_stack([1 - s, s])
    assert multiclass.per_row_losses(y.astype(int), both)[0].tolist() == pytest.approx(got.tolist(), rel=1e-15,
                                                                                      abs=1e-15)
    assert sk_log_loss(y, s, labels=[False, True]) == pytest.approx(got.mean(), rel=1e-12)


@settings(max_examples=60)
@given(rows=st.lists(st.tuples(number, number), min_size=1, max_size=30))
def test_the_regression_terms_in_sql_equal_the_in_memory_row_values(con, rows):
    y = np.array([a for a, _ in rows])
    yp = np.array([b for _, b in rows])
    terms = expressions.regression_terms("y", "yp")
    got = evaluate(con, {"y": y.tolist(), "yp": yp.tolist()}, terms)
    want = regression.row_values(y, yp, set(regression.PARTS))
    assert set(want) <= set(terms)
    for name, values in want.items():
        np.testing.assert_allclose(got[name].astype(float), values, rtol=1e-15, atol=0, err_msg=name)


@settings(max_examples=60)
@given(rows=st.lists(st.tuples(number, number, number), min_size=1, max_size=30),
       level=st.sampled_from([0.5, 0.8, 0.9, 0.95]) | st.floats(0.01, 0.99))
def test_the_interval_terms_in_sql_equal_the_in_memory_coverage_winkler_and_pinball(con, rows, level):
    y = np.array([a for a, _, _ in rows])
    lo = np.array([min(b, c) for _, b, c in rows])
    hi = np.array([max(b, c) for _, b, c in rows])                    # bounds equal to y or to each other included
    alpha = 1.0 - level
    got = evaluate(con, {"y": y.tolist(), "lo": lo.tolist(), "hi": hi.tolist()},
                   {"cov": expressions.covered("y", "lo", "hi"), "wink": expressions.winkler("y", "lo", "hi", level),
                    "pin_lo": expressions.pinball("y", "lo", alpha / 2),
                    "pin_hi": expressions.pinball("y", "hi", 1 - alpha / 2)})
    assert got["cov"].astype(float).tolist() == ((y >= lo) & (y <= hi)).astype(float).tolist()
    np.testing.assert_allclose(got["wink"].astype(float), forecast.winkler_scores(y, lo, hi, level=level),
                               rtol=1e-15, atol=0)
    np.testing.assert_allclose(got["pin_lo"].astype(float), forecast.pinball_losses(y, lo, quantile=alpha / 2),
                               rtol=1e-15, atol=0)
    np.testing.assert_allclose(got["pin_hi"].astype(float), forecast.pinball_losses(y, hi, quantile=1 - alpha / 2),
                               rtol=1e-15, atol=0)


@settings(max_examples=60)
@given(data=st.data(), n_labels=st.integers(1, 4), n=st.integers(1, 20), scored=st.booleans())
def test_the_multilabel_row_values_in_sql_equal_the_in_memory_ones(con, data, n_labels, n, scored):
    def matrix(values):
        return np.array(data.draw(st.lists(st.lists(values, min_size=n_labels, max_size=n_labels), min_size=n,
                                           max_size=n)))
    y, yp = matrix(st.booleans()), matrix(st.booleans())
    scores = matrix(st.sampled_from([0.0, 0.5, 1.0]) | probability) if scored else None      # ties among labels
    t, p = [f"t{j}" for j in range(n_labels)], [f"p{j}" for j in range(n_labels)]
    s = [f"s{j}" for j in range(n_labels)] if scored else None
    columns = {**{t[j]: y[:, j].astype(float).tolist() for j in range(n_labels)},
               **{p[j]: yp[:, j].astype(float).tolist() for j in range(n_labels)},
               **({s[j]: scores[:, j].tolist() for j in range(n_labels)} if scored else {})}
    sql = expressions.multilabel_row_values(t, p, s)
    got = evaluate(con, columns, sql)
    want = multilabel.row_values(y, yp, scores)
    for i, name in enumerate(multilabel.ROW_COLUMNS):
        if name in sql:
            np.testing.assert_allclose(got[name].astype(float), want[:, i], rtol=1e-15, atol=1e-15, err_msg=name)
        else:
            assert not scored and np.isnan(want[:, i]).all(), name
