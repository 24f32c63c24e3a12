"""Regression (and pooled forecast) metrics against independent oracles.

- scikit-learn for every metric it has (MAE, MSE, RMSE, max error, R², explained variance, median absolute error,
  MAPE on data without y_true = 0), with and without sample weights, on hypothesis-generated arrays, to 1e-9;
- the formulas of reference 002 (Iocchi, "performance metrics for regression ... in terms of percentage error":
  MAPE, MSPE, RMSPE) and reference 003 (sMAPE, one-step-ahead errors) as a worked example computed by hand below;
- undefined values: NaN with a reason (y_true = 0 for the relative errors, constant y_true for R²);
- the bootstrap: seeded reproducibility, and the percentile interval equal to a naive loop over the same index draws
  that calls scikit-learn on each resample.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from assess.core.data import Predictions, Task
from assess.metrics import evaluate, get, keys_for
from assess.metrics.baselines import baseline_columns

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TOL = dict(rel=1e-9, abs=1e-9)
KEYS = ("mae", "mse", "rmse", "sse", "max_error", "r2", "explained_variance", "median_absolute_error", "mape",
        "smape", "mspe", "rmspe", "mean_error")


def reg(y, yp, w=None, task=Task.REGRESSION):
    return Predictions(task, (), np.asarray(y, dtype=float), np.asarray(yp, dtype=float),
                       weight=None if w is None else np.asarray(w, dtype=float))


def test_registry_has_the_spec_keys_for_regression_and_forecast():
    for task in (Task.REGRESSION, Task.FORECAST):
        forecast_only = {"mase", "mase_seasonal", "coverage", "interval_width", "winkler_score", "pinball_loss", "skill_naive",
                         "skill_seasonal_naive", "skill_drift"} if task is Task.FORECAST else set()
        assert set(keys_for(task)) == set(KEYS) | forecast_only
        for key in KEYS:
            spec = get(task, key)
            assert spec.needs == "values" and spec.params == ()
            assert spec.kind == {"r2": "delta", "explained_variance": "delta", "median_absolute_error": "median",
                                 "max_error": "maximum"}.get(key, "row_mean"), key
            assert spec.group in ("Errors", "Relative errors", "Fit")
    assert get(Task.REGRESSION, "mean_error").direction == "none"
    assert get(Task.REGRESSION, "r2").direction == "higher"
    assert "fraction" in get(Task.REGRESSION, "mape").meaning
    assert "over-predicts" in get(Task.REGRESSION, "mean_error").meaning
    assert "force_finite" in get(Task.REGRESSION, "r2").meaning


# ----------------------------------------------------------------------------------------------------------------
# scikit-learn oracle on hypothesis-generated arrays
# ----------------------------------------------------------------------------------------------------------------

# reals on a 0.001 grid in [-1000, 1000]: no subnormal numbers, whose squares underflow in both implementations
values = st.integers(-10**6, 10**6).map(lambda i: i / 1000)


@st.composite
def regression_data(draw):
    n = draw(st.integers(2, 60))
    y = np.array(draw(st.lists(values, min_size=n, max_size=n)))
    yp = np.array(draw(st.lists(values, min_size=n, max_size=n)))
    kind = draw(st.sampled_from(["none", "int", "float"]))
    if kind == "none":
        w = None
    elif kind == "int":
        w = np.array(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), dtype=float)
    else:
        w = np.array(draw(st.lists(st.floats(0.01, 10.0), min_size=n, max_size=n)))
    if w is not None and not (w > 0).any():
        w[0] = 1.0
    return y, yp, w


def sklearn_values(y, yp, w):
    out = {
        "mae": skm.mean_absolute_error(y, yp, sample_weight=w),
        "mse": skm.mean_squared_error(y, yp, sample_weight=w),
        "rmse": skm.root_mean_squared_error(y, yp, sample_weight=w),
        "median_absolute_error": skm.median_absolute_error(y, yp, sample_weight=w),
        "r2": skm.r2_score(y, yp, sample_weight=w, force_finite=False),
        "explained_variance": skm.explained_variance_score(y, yp, sample_weight=w, force_finite=False),
    }
    live = np.ones(y.size, bool) if w is None else w > 0
    out["max_error"] = skm.max_error(y[live], yp[live])          # scikit-learn's max_error takes no weights
    if np.all(y != 0):                                          # sklearn divides by max(|y|, eps): compare on y != 0
        out["mape"] = skm.mean_absolute_percentage_error(y, yp, sample_weight=w)
    return out


@SETTINGS
@given(regression_data())
@example((np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.5, 2.0, 2.0, 6.0]), None))      # even n: median averages
@example((np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.5, 2.0, 2.0, 6.0]), np.array([1.0, 1.0, 1.0, 1.0])))
@example((np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 5.0]), np.array([1.0, 1.0, 2.0])))  # weighted: exact W/2
@example((np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 5.0]), np.array([0.0, 1.0, 2.0])))  # zero weight row
def test_agrees_with_scikit_learn(data):
    y, yp, w = data
    report = evaluate(reg(y, yp, w), baselines=False)
    expected = sklearn_values(y, yp, w)
    W = y.size if w is None else w.sum()
    constant = np.ptp(y if w is None else y[w > 0]) == 0
    for key, theirs in expected.items():
        ours = report[key].value
        if key in ("r2", "explained_variance") and constant:
            assert math.isnan(ours) and "constant" in report[key].reason
            continue
        assert ours == pytest.approx(theirs, **TOL), key
    # sse and mean_error: their definitions (reference 001 Table 1; mean of y_pred - y_true), through numpy
    assert report["sse"].value == pytest.approx(expected["mse"] * W, **TOL)
    assert report["mean_error"].value == pytest.approx(np.average(yp - y, weights=w), **TOL)


def test_forecast_pools_the_rows_like_regression():
    rng = np.random.default_rng(4)
    y = rng.uniform(1, 10, 50)
    yp = y + rng.normal(size=50)
    a, b = evaluate(reg(y, yp)), evaluate(reg(y, yp, task=Task.FORECAST))
    assert a.task is Task.REGRESSION and b.task is Task.FORECAST
    # the regression keys pool the rows alike; a forecast without time stamps has no MASE or skill (NaN, reasons)
    assert a.values == {k: v for k, v in b.values.items() if k in a.values}
    assert all(np.isnan(v) for k, v in b.values.items() if k not in a.values)
    assert "no time stamps" in b.reasons["mase"]


# ----------------------------------------------------------------------------------------------------------------
# Worked example (references 001, 002, 003), by hand
# ----------------------------------------------------------------------------------------------------------------

def test_worked_example_references_001_002_003():
    """y_true = (2, 4, 5, 10), y_pred = (3, 3, 5, 8): errors e = y_pred - y_true = (1, -1, 0, -2)."""
    r = evaluate(reg([2, 4, 5, 10], [3, 3, 5, 8]), baselines=False)
    # reference 001 Table 1: MAE = (1 + 1 + 0 + 2)/4 = 1; SSE = 1 + 1 + 0 + 4 = 6; MSE = 6/4; l∞ = 2
    assert r["mae"].value == 1.0
    assert r["sse"].value == 6.0
    assert r["mse"].value == 1.5
    assert r["rmse"].value == pytest.approx(math.sqrt(1.5), rel=1e-15)
    assert r["max_error"].value == 2.0
    # bias: (1 - 1 + 0 - 2)/4 = -0.5 (the model under-predicts on average)
    assert r["mean_error"].value == -0.5
    # reference 002, percentage errors |e|/y_true = (1/2, 1/4, 0, 2/10):
    # MAPE = (0.5 + 0.25 + 0 + 0.2)/4 = 0.2375; MSPE = (0.25 + 0.0625 + 0 + 0.04)/4 = 0.088125; RMSPE = sqrt(MSPE)
    assert r["mape"].value == pytest.approx(0.2375, rel=1e-15)
    assert r["mspe"].value == pytest.approx(0.088125, rel=1e-15)
    assert r["rmspe"].value == pytest.approx(math.sqrt(0.088125), rel=1e-15)
    # reference 003 SMAPE (as a fraction): 2|e|/(|y| + |ŷ|) = 2/5, 2/7, 0/10, 4/18
    # sum = 2/5 + 2/7 + 2/9 = (126 + 90 + 70)/315 = 286/315; mean = 286/1260 = 143/630
    assert r["smape"].value == pytest.approx(143 / 630, rel=1e-15)
    # reference 001 eq. (2): mean 21/4 = 5.25; TSS = 3.25² + 1.25² + 0.25² + 4.75² = 34.75; R² = 1 - 6/34.75
    assert r["r2"].value == pytest.approx(1 - 6 / 34.75, rel=1e-15)
    # reference 003: explained variance = 1 - Var(e)/Var(y); mean e = -0.5, deviations (1.5, -0.5, 0.5, -1.5)
    # squared sum 5; 1 - (5/4)/(34.75/4)
    assert r["explained_variance"].value == pytest.approx(1 - 5 / 34.75, rel=1e-15)
    # reference 003 MedAE: |e| sorted (0, 1, 1, 2); median = (1 + 1)/2
    assert r["median_absolute_error"].value == 1.0


def test_worked_example_with_weights():
    """Weights (1, 2, 1, 1) on the example above, W = 5."""
    r = evaluate(reg([2, 4, 5, 10], [3, 3, 5, 8], [1, 2, 1, 1]), baselines=False)
    # bias: (1·1 + 2·(-1) + 1·0 + 1·(-2))/5 = -3/5
    assert r["mean_error"].value == pytest.approx(-0.6, rel=1e-15)
    # MAPE: (1·0.5 + 2·0.25 + 0 + 1·0.2)/5 = 1.2/5 = 0.24
    assert r["mape"].value == pytest.approx(0.24, rel=1e-15)
    # MSPE: (0.25 + 2·0.0625 + 0 + 0.04)/5 = 0.415/5 = 0.083
    assert r["mspe"].value == pytest.approx(0.083, rel=1e-14)
    # |e| sorted (0, 1, 1, 1, 2) with the weight-2 row as two: cumulative weights (1, 2, 4, 5) over (0, 1, 1, 2)
    # after sorting [0 (w1), 1 (w1), 1 (w2), 2 (w1)]: W/2 = 2.5 is first reached at the third value, 1
    assert r["median_absolute_error"].value == 1.0


# ----------------------------------------------------------------------------------------------------------------
# Undefined values and notes
# ----------------------------------------------------------------------------------------------------------------

def test_zero_truth_makes_relative_errors_undefined_with_the_count():
    r = evaluate(reg([0, 1, 0, 3], [0.5, 1, 1, 2]))
    for key in ("mape", "mspe", "rmspe"):
        assert math.isnan(r[key].value)
        assert "y_true is 0 in 2 rows (first at row 0)" in r[key].reason, key
    assert r.to_dict()["mape"] is None
    # sMAPE stays defined: 2|e|/(|y| + |ŷ|) = 2, 0, 2, 2/5 → mean (2 + 0 + 2 + 0.4)/4 = 1.1
    assert r["smape"].value == pytest.approx(1.1, rel=1e-15)
    # scikit-learn divides by eps instead: a huge number, which is what we refuse to report
    assert skm.mean_absolute_percentage_error([0, 1, 0, 3], [0.5, 1, 1, 2]) > 1e14


def test_zero_truth_rows_of_zero_weight_do_not_count():
    r = evaluate(reg([0, 1, 2], [1, 1, 3], [0, 1, 1]))
    assert r["mape"].value == pytest.approx((0 + 0.5) / 2, rel=1e-15)       # |e|/y = 0/1, 1/2


def test_smape_counts_exact_zero_predictions_as_zero_with_a_note():
    r = evaluate(reg([0, 1], [0, 2]))
    # terms: 0/0 row -> 0 (exact prediction); 2·1/(1 + 2) = 2/3; mean = 1/3
    assert r["smape"].value == pytest.approx(1 / 3, rel=1e-15)
    assert "1 row with y_true = y_pred = 0" in r["smape"].note


def test_constant_truth_makes_r2_and_explained_variance_undefined():
    r = evaluate(reg([3, 3, 3], [3, 3, 4]))
    for key in ("r2", "explained_variance"):
        assert math.isnan(r[key].value)
        assert "y_true is constant (every row is 3)" in r[key].reason
        assert "force_finite" in r[key].reason
    # the convention we name: scikit-learn returns 0.0 here (and 1.0 for a perfect prediction)
    assert skm.r2_score([3, 3, 3], [3, 3, 4]) == 0.0
    assert skm.r2_score([3, 3, 3], [3, 3, 3]) == 1.0


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match=r"`y_pred` has 1 non-finite values .*first at row 1: nan"):
        evaluate(reg([1, 2, 3], [1, np.nan, 3]))
    with pytest.raises(ValueError, match=r"`y_pred` must have shape \(3,\)"):
        evaluate(reg([1, 2, 3], [1, 2]))
    with pytest.raises(ValueError, match="must be numeric"):
        evaluate(Predictions(Task.REGRESSION, (), np.array(["a", "b"]), np.array([1.0, 2.0])))
    with pytest.raises(ValueError, match="true and predicted values"):
        evaluate(Predictions(Task.REGRESSION, (), np.array([1.0, 2.0]), None))
    with pytest.raises(ValueError, match="`weight` must be >= 0"):
        evaluate(reg([1, 2], [1, 2], [1, -1]))


# ----------------------------------------------------------------------------------------------------------------
# Baselines
# ----------------------------------------------------------------------------------------------------------------

def test_baselines_are_the_constant_mean_and_median_predictors():
    rng = np.random.default_rng(1)
    y = rng.gamma(2.0, 10.0, 101)
    yp = y + rng.normal(0, 3, 101)
    w = rng.uniform(0.5, 2.0, 101)
    for weight in (None, w):
        r = evaluate(reg(y, yp, weight))
        mean = np.average(y, weights=weight)
        median = np.median(y) if weight is None else None
        assert set(r["mae"].baselines) == set(baseline_columns(Task.REGRESSION)) == {"mean", "median"}
        assert r["mae"].baselines["mean"] == pytest.approx(
            skm.mean_absolute_error(y, np.full_like(y, mean), sample_weight=weight), **TOL)
        assert r["r2"].baselines["mean"] == pytest.approx(0.0, abs=1e-12)   # r2 is the skill vs this baseline
        if median is not None:
            assert r["mae"].baselines["median"] == pytest.approx(skm.mean_absolute_error(y, np.full_like(y, median)),
                                                                 **TOL)
        assert "constant predictions" in r["mae"].baseline_method
        frame = r.to_frame()
        assert {"baseline_mean", "baseline_median"} <= set(frame.columns)
        assert "baseline_majority" not in frame.columns


# ----------------------------------------------------------------------------------------------------------------
# Bootstrap
# ----------------------------------------------------------------------------------------------------------------

def _naive_intervals(y, yp, w, seed, n_resamples, level=0.95):
    """The index draws evaluate() makes (first child of the seed; one chunk of multinomial draws of n indices per
    resample), each resample scored by scikit-learn on the drawn rows."""
    n = y.size
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    idx = rng.integers(0, n, size=(n_resamples, n), dtype=np.int32)
    fns = {"mae": skm.mean_absolute_error, "mse": skm.mean_squared_error, "r2": skm.r2_score,
           "median_absolute_error": skm.median_absolute_error, "explained_variance": skm.explained_variance_score}
    est = {k: np.array([f(y[i], yp[i], sample_weight=None if w is None else w[i]) for i in idx])
           for k, f in fns.items()}
    a = (1 - level) / 2
    return {k: tuple(np.quantile(v, [a, 1 - a])) for k, v in est.items()}


@pytest.mark.parametrize("weighted", [False, True])
def test_bootstrap_matches_a_naive_loop_over_the_same_draws(weighted):
    rng = np.random.default_rng(7)
    n = 150
    y = rng.normal(50, 10, n)
    yp = y + rng.standard_t(3, n) * 4
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    keys = ["mae", "mse", "r2", "median_absolute_error", "explained_variance"]
    report = evaluate(reg(y, yp, w), keys, ci="bootstrap", n_resamples=200, seed=11, baselines=False)
    naive = _naive_intervals(y, yp, w, 11, 200)
    for key in keys:
        r = report[key]
        assert (r.low, r.high) == pytest.approx(naive[key], rel=1e-9, abs=1e-12), key
        assert r.method.startswith("bootstrap-percentile (200 resamples, seed 11, multinomial, i.i.d. rows")


def test_bootstrap_is_seeded_and_auto_is_analytic():
    """``auto`` gives every metric but the maximum an analytic interval (tests/intervals/test_intervals_regression.py
    holds their oracles); ``bootstrap`` is seeded."""
    rng = np.random.default_rng(3)
    y = rng.uniform(1, 5, 300)
    yp = y * rng.lognormal(0, 0.2, 300)
    a = evaluate(reg(y, yp), ci="auto", n_resamples=300, seed=5)
    b = evaluate(reg(y, yp), ci="bootstrap", n_resamples=300, seed=5)
    b2 = evaluate(reg(y, yp), ci="bootstrap", n_resamples=300, seed=5)
    c = evaluate(reg(y, yp), ci="bootstrap", n_resamples=300, seed=6)
    assert b.to_dict(with_ci=True) == b2.to_dict(with_ci=True)
    assert b["mape"].low != c["mape"].low
    for key in KEYS:
        if key == "max_error":
            assert math.isnan(a[key].low) and math.isnan(b[key].low)
            continue
        assert a[key].low <= a[key].value <= a[key].high, key
        assert not a[key].method.startswith("bootstrap"), key


def test_auto_bootstraps_the_weighted_median_only_as_long_as_its_bounds_need():
    """The weighted median absolute error is the one regression metric bootstrapped under "auto": on 150,000
    rows its interval is about 0.01 wide, so the sequential rule stops before its maximum with both bounds' Monte-Carlo
    error below 0.0005 (bounds near 0.67, shown with 3 decimals)."""
    rng = np.random.default_rng(12)
    n = 150_000
    y = rng.normal(size=n)
    yp = y + rng.normal(size=n)
    w = rng.uniform(0.5, 2.0, n)
    p = Predictions(Task.REGRESSION, (), y, yp, None, weight=w)
    a = evaluate(p, ["median_absolute_error"], ci="auto", seed=3)["median_absolute_error"]
    assert a.how.n_resamples < 1000 and a.how.stopped_below == 0.0005 and a.how.mc_error < 0.0005
    assert a.low <= a.value <= a.high


def test_proportion_or_delong_interval_gives_no_interval_and_says_so():
    r = evaluate(reg([1, 2, 3, 4], [1, 2, 2, 5]), ci="wilson")
    assert math.isnan(r["mae"].low) and "no wilson interval: it applies to proportions only" in r["mae"].note
    r = evaluate(reg([1, 2, 3, 4], [1, 2, 2, 5]), ci="delong")
    assert "no delong interval" in r["mae"].note


def test_bootstrap_progress_is_reported():
    seen = []
    evaluate(reg(np.arange(1.0, 51.0), np.arange(1.0, 51.0)[::-1]), ["mae"], ci="bootstrap", n_resamples=100,
             progress=seen.append)
    assert seen and seen[-1] == 1.0


# ----------------------------------------------------------------------------------------------------------------
# Invariances (hypothesis): units, shift, row order, weights
# ----------------------------------------------------------------------------------------------------------------

SCALE_1 = ("mae", "rmse", "max_error", "median_absolute_error")        # scale with |c|
SCALE_2 = ("mse", "sse")                                               # with c²
UNITLESS = ("r2", "explained_variance", "mape", "smape", "mspe", "rmspe")
SHIFT_FREE = SCALE_1 + SCALE_2 + ("mean_error", "r2", "explained_variance")


def test_every_key_has_an_invariance():
    assert set(SCALE_1 + SCALE_2 + UNITLESS + ("mean_error",)) == set(KEYS)


def approx(a, b):
    return (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-7, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(regression_data(), st.sampled_from([-3.0, 0.5, 1000.0]), st.integers(0, 2**16))
def test_units_row_order_and_weights(data, c, seed):
    y, yp, w = data
    base = evaluate(reg(y, yp, w), baselines=False).values
    scaled = evaluate(reg(c * y, c * yp, w), baselines=False).values
    for key in SCALE_1:
        assert approx(scaled[key], abs(c) * base[key]), key
    for key in SCALE_2:
        assert approx(scaled[key], c * c * base[key]), key
    for key in UNITLESS:
        assert approx(scaled[key], base[key]), key
    assert approx(scaled["mean_error"], c * base["mean_error"])
    order = np.random.default_rng(seed).permutation(y.size)
    shuffled = evaluate(reg(y[order], yp[order], None if w is None else w[order]), baselines=False).values
    assert all(approx(shuffled[k], base[k]) for k in KEYS)
    if w is None:
        ones = evaluate(reg(y, yp, np.ones(y.size)), baselines=False).values
        assert all(approx(ones[k], base[k]) for k in KEYS)
    elif np.all(w == np.round(w)):                      # integer weights = repeated rows
        reps = w.astype(int)
        repeated = evaluate(reg(np.repeat(y, reps), np.repeat(yp, reps)), baselines=False).values
        assert all(approx(repeated[k], base[k]) for k in KEYS)


@settings(max_examples=30, deadline=None)
@given(regression_data(), st.sampled_from([-50.0, 7.25]))
def test_a_common_shift_changes_no_absolute_error(data, d):
    y, yp, w = data
    base = evaluate(reg(y, yp, w), baselines=False).values
    shifted = evaluate(reg(y + d, yp + d, w), baselines=False).values
    for key in SHIFT_FREE:
        assert approx(shifted[key], base[key]) or abs(shifted[key] - base[key]) < 1e-6 * (1 + abs(d)), key
