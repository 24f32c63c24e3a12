"""The analytic intervals ``ci="auto"`` gives regression metrics (no bootstrap): Student t for the mean-type errors
(and their square roots and totals), the delta method for R² and explained variance, order statistics for the median
absolute error, and none for the maximum error.

Oracles: scipy's ``quantile_test(...).confidence_interval()`` (the order-statistic median interval); statsmodels'
``DescrStatsW(...).tconfint_mean`` on per-row errors computed here with numpy (weights rescaled to Kish's effective
n); a multivariate delta method written out here (``numpy.cov`` of the per-row squared errors and squared deviations
of y, the gradient of 1 − A/B, scipy's t quantile); the true values of a simulated population in closed form
(normal errors) for the coverage.
"""

import math

import numpy as np
import pytest
from scipy import optimize, stats
from statsmodels.stats.weightstats import DescrStatsW

from assess.core.data import Predictions, Task
from assess.intervals import median_ci
from assess.metrics import evaluate
from assess.metrics.evaluate import MAXIMUM_NO_INTERVAL


def reg(y, yp, w=None):
    return Predictions(Task.REGRESSION, (), np.asarray(y, float), np.asarray(yp, float),
                       weight=None if w is None else np.asarray(w, float), model="m")


def sample(n, seed, bias=0.5, sd=10.0):
    rng = np.random.default_rng(seed)
    y = rng.gamma(4.0, 25.0, n)
    return y, y + rng.normal(bias, sd, n)


# ----------------------------------------------------------------------------------------------------------------
# Equality with the library / hand-written counterparts
# ----------------------------------------------------------------------------------------------------------------

def test_median_interval_is_scipy_quantile_test():
    rng = np.random.default_rng(0)
    for n in [*range(1, 120), 1000, 4321]:
        x = rng.lognormal(size=n)
        for level in (0.9, 0.95, 0.99):
            ours = median_ci(x, confidence_level=level)
            theirs = stats.quantile_test(x, q=1.0, p=0.5).confidence_interval(level)
            if math.isnan(theirs.low) or math.isnan(theirs.high):       # too few rows: no interval at all
                assert math.isnan(ours.low) and math.isnan(ours.high), (n, level)
            else:
                assert (ours.low, ours.high) == (theirs.low, theirs.high), (n, level)
    assert median_ci(np.arange(1.0, 21.0)).method == "order-statistic, binomial ranks of the median"


@pytest.mark.parametrize("weighted", [False, True])
def test_auto_gives_the_mean_type_errors_the_t_interval_of_their_per_row_values(weighted):
    y, yp = sample(700, 1)
    w = np.random.default_rng(2).uniform(0.2, 3.0, 700) if weighted else None
    report = evaluate(reg(y, yp, w), ci="auto")
    e = yp - y
    per_row = {"mae": np.abs(e), "mse": e * e, "mean_error": e, "mape": np.abs(e / y), "mspe": (e / y) ** 2,
               "smape": 2 * np.abs(e) / (np.abs(y) + np.abs(yp))}
    freq = None if w is None else w * (w.sum() / (w ** 2).sum())        # frequency weights summing to Kish's n
    t = {key: DescrStatsW(v, weights=freq).tconfint_mean() for key, v in per_row.items()}
    for key, (low, high) in t.items():
        assert (report[key].low, report[key].high) == pytest.approx((low, high), rel=1e-9), key
        assert report[key].method == ("t (Kish effective n), " if weighted else "t, ") + "mean of per-row values"
    total = len(y) if w is None else w.sum()
    for key, inner, finish in (("rmse", "mse", np.sqrt), ("rmspe", "mspe", np.sqrt),
                               ("sse", "mse", lambda v: v * total)):
        assert (report[key].low, report[key].high) == pytest.approx(tuple(finish(np.array(t[inner]))), rel=1e-9)
        assert "interval" in report[key].method


def test_auto_gives_the_median_absolute_error_the_order_statistic_interval():
    y, yp = sample(501, 3)
    r = evaluate(reg(y, yp), ["median_absolute_error"], ci="auto")["median_absolute_error"]
    ci = stats.quantile_test(np.abs(yp - y), q=0.0).confidence_interval()
    assert (r.low, r.high) == (ci.low, ci.high)
    assert r.how.words == "Order statistics, binomial ranks of the median"
    # weighted rows have no binomial ranks: the bootstrap stays
    w = np.random.default_rng(4).uniform(0.5, 2.0, 501)
    weighted = evaluate(reg(y, yp, w), ["median_absolute_error"], ci="auto", n_resamples=100)
    assert weighted["median_absolute_error"].method.startswith("bootstrap-percentile")


@pytest.mark.parametrize("weighted", [False, True])
def test_r2_and_explained_variance_get_the_delta_method_interval(weighted):
    """The multivariate delta method for g(A, B) = 1 − A/B, A the mean of a_i (e² for R², (e − ē)² for explained
    variance), B the mean of (y − ȳ)²: Var ≈ ∇gᵀ Σ ∇g / n with Σ the sample covariance of (a_i, b_i), ∇g =
    (−1/B, A/B²); the t quantile with n − 1 degrees of freedom (weights: weighted moments, Kish's n)."""
    y, yp = sample(400, 5)
    w = np.random.default_rng(6).uniform(0.2, 3.0, 400) if weighted else np.ones(400)
    report = evaluate(reg(y, yp, w if weighted else None), ["r2", "explained_variance"], ci="auto")
    e = yp - y
    n_eff = w.sum() ** 2 / (w ** 2).sum()
    b = (y - np.average(y, weights=w)) ** 2
    for key, a in (("r2", e * e), ("explained_variance", (e - np.average(e, weights=w)) ** 2)):
        A, B = np.average(a, weights=w), np.average(b, weights=w)
        sigma = np.cov(np.vstack([a, b]), aweights=w, bias=True) * n_eff / (n_eff - 1)
        grad = np.array([-1 / B, A / B ** 2])
        half = stats.t.ppf(0.975, n_eff - 1) * math.sqrt(grad @ sigma @ grad / n_eff)
        value = 1 - A / B
        assert report[key].value == pytest.approx(value, rel=1e-12)
        assert (report[key].low, report[key].high) == pytest.approx((value - half, value + half), rel=1e-9), key
        assert report[key].how.key == "delta-method" and report[key].how.words.startswith("Delta method")


@pytest.mark.parametrize("ci", ["auto", "bootstrap"])
def test_maximum_error_gets_no_interval_and_the_reason(ci):
    y, yp = sample(300, 7)
    r = evaluate(reg(y, yp), ["max_error", "mae"], ci=ci, n_resamples=100)
    assert r["max_error"].value == pytest.approx(np.max(np.abs(yp - y)))
    assert math.isnan(r["max_error"].low) and math.isnan(r["max_error"].high) and r["max_error"].method is None
    assert MAXIMUM_NO_INTERVAL in r["max_error"].note
    assert np.isfinite(r["mae"].low)


def test_too_few_rows_for_the_median_interval_is_said():
    r = evaluate(reg([1.0, 2.0, 3.0, 4.0, 5.0], [1.5, 2.5, 2.0, 4.0, 6.0]), ["median_absolute_error"], ci="auto")
    m = r["median_absolute_error"]
    assert math.isnan(m.low) and "no interval: too few rows" in m.note


def test_forecasts_keep_the_block_bootstrap_under_auto():
    n = 120
    rng = np.random.default_rng(8)
    y = np.cumsum(rng.normal(size=n)) + 50
    pred = Predictions(Task.FORECAST, (), y, y + rng.normal(0, 1, n), time=np.arange(n), model="m")
    r = evaluate(pred, ["mae", "r2", "max_error"], ci="auto", n_resamples=100)
    assert r["mae"].method.startswith("block bootstrap") and r["r2"].method.startswith("block bootstrap")
    assert r["max_error"].method is None and MAXIMUM_NO_INTERVAL in r["max_error"].note


# ----------------------------------------------------------------------------------------------------------------
# Coverage
# ----------------------------------------------------------------------------------------------------------------

def _truth(bias: float, sd: float) -> dict[str, float]:
    """The population values for y ~ Gamma(4, scale 25) (variance 2,500) and e = ŷ − y ~ N(bias, sd²) independent of
    y: E|e| of a normal, the median of |e| from its CDF, and the ratios of the moments."""
    z = bias / sd
    mae = sd * math.sqrt(2 / math.pi) * math.exp(-z * z / 2) + bias * (1 - 2 * stats.norm.cdf(-z))
    median = optimize.brentq(lambda m: stats.norm.cdf((m - bias) / sd) - stats.norm.cdf((-m - bias) / sd) - 0.5,
                             0.0, 10 * sd)
    return {"mae": mae, "rmse": math.hypot(bias, sd), "mean_error": bias, "median_absolute_error": median,
            "r2": 1 - (sd * sd + bias * bias) / 2500.0, "explained_variance": 1 - sd * sd / 2500.0}


def test_coverage_of_the_analytic_regression_intervals_is_nominal():
    """2,000 seeded data sets of 400 rows: each 95 % interval holds its population value in 95 % ± 1.5 points of
    them (three Monte-Carlo standard errors, sqrt(0.95 · 0.05 / 2000) = 0.49 points each)."""
    truth = _truth(bias=0.5, sd=10.0)
    hits = dict.fromkeys(truth, 0)
    for seed in range(2000):
        y, yp = sample(400, 10_000 + seed)
        report = evaluate(reg(y, yp), list(truth), ci="auto", baselines=False)
        for key, value in truth.items():
            hits[key] += report[key].low <= value <= report[key].high
    assert {k: v / 2000 for k, v in hits.items()} == {k: pytest.approx(0.95, abs=0.015) for k in hits}
