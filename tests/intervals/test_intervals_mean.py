"""The Student-t interval of a (weighted) mean (`assess.intervals.mean_ci`) and `ci="auto"` choosing it for log loss
and the Brier score.

Oracles: statsmodels' ``DescrStatsW(...).tconfint_mean`` (frequency weights rescaled to sum to Kish's effective n),
scikit-learn's ``log_loss`` / ``brier_score_loss`` for the point values, and the true mean of a simulated loss
(numerical integration with SciPy) for the coverage.
"""

import numpy as np
import pytest
from scipy import integrate
from sklearn.metrics import brier_score_loss, log_loss
from statsmodels.stats.weightstats import DescrStatsW

from assess.core.data import Predictions, Task
from assess.intervals import mean_ci
from assess.metrics import evaluate


def test_unweighted_is_statsmodels_tconfint_mean():
    rng = np.random.default_rng(0)
    for n, level in ((5, 0.95), (40, 0.9), (3000, 0.99)):
        x = rng.exponential(size=n)
        ci = mean_ci(x, confidence_level=level)
        low, high = DescrStatsW(x).tconfint_mean(alpha=1 - level)
        assert (ci.low, ci.high) == pytest.approx((low, high), rel=1e-12) and ci.method == "t"


def test_weighted_is_statsmodels_with_weights_summing_to_kish_effective_n():
    rng = np.random.default_rng(1)
    x, w = rng.gamma(2.0, size=500), rng.uniform(0.2, 3.0, size=500)
    n_eff = w.sum() ** 2 / (w ** 2).sum()                      # Kish (1965)
    ci = mean_ci(x, weights=w)
    low, high = DescrStatsW(x, weights=w * n_eff / w.sum()).tconfint_mean()
    assert (ci.low, ci.high) == pytest.approx((low, high), rel=1e-12)
    assert ci.method == "t (Kish effective n)"
    assert (ci.low, ci.high) == pytest.approx(tuple(vars(mean_ci(x, weights=7 * w)).values())[:2], rel=1e-12)
    equal = mean_ci(x, weights=np.full(500, 2.5))
    assert (equal.low, equal.high) == pytest.approx((mean_ci(x).low, mean_ci(x).high), rel=1e-12)


def test_clipped_to_the_metric_range_and_undefined_below_two_rows():
    ci = mean_ci([0.0, 0.0, 0.0, 0.9], bounds=(0.0, np.inf))
    assert ci.low == 0.0 and ci.high > 0.225
    assert np.isnan(mean_ci([0.3]).low) and np.isnan(mean_ci([0.3, 0.4], weights=[1.0, 0.0]).high)


def _true_log_loss() -> float:
    """E[-y ln p - (1 - y) ln(1 - p)] for p ~ U(0.05, 0.95), y ~ Bernoulli(p): the mean binary entropy."""
    value, _ = integrate.quad(lambda p: -(p * np.log(p) + (1 - p) * np.log(1 - p)) / 0.9, 0.05, 0.95)
    return value


@pytest.mark.parametrize("weighted", [False, True])
def test_coverage_of_the_log_loss_interval_is_nominal(weighted):
    """2,000 seeded data sets of 200 calibrated predictions: the 95 % interval holds the true mean log loss in
    95 % ± 1.5 points of them (three Monte-Carlo standard errors are 1.5 points)."""
    rng = np.random.default_rng(2026)
    truth = _true_log_loss()
    hits = 0
    for _ in range(2000):
        p = rng.uniform(0.05, 0.95, 200)
        y = rng.random(200) < p
        losses = -np.log(np.where(y, p, 1 - p))
        w = rng.uniform(0.5, 2.0, 200) if weighted else None
        ci = mean_ci(losses, weights=w)
        hits += ci.low <= truth <= ci.high
    assert 0.935 <= hits / 2000 <= 0.965


def test_auto_gives_log_loss_and_brier_the_t_interval_of_their_per_row_losses():
    rng = np.random.default_rng(5)
    y = (rng.random(800) < 0.4).astype(int)
    p = np.clip(0.4 * y + 0.6 * rng.random(800), 0, 1)
    report = evaluate(Predictions(Task.BINARY, ("neg", "pos"), y, None, p, model="m"),
                      ["log_loss", "brier_score", "roc_auc"], ci="auto")
    got = {r.key: r for r in report.results}
    assert got["log_loss"].value == pytest.approx(log_loss(y, p))
    assert got["brier_score"].value == pytest.approx(brier_score_loss(y, p))
    for key, losses in (("log_loss", -np.log(np.where(y == 1, p, 1 - p))), ("brier_score", (p - y) ** 2)):
        low, high = DescrStatsW(losses).tconfint_mean()
        assert (got[key].low, got[key].high) == pytest.approx((low, high), rel=1e-9)
        assert got[key].method.startswith("t")
    assert got["roc_auc"].method == "delong"


def test_auto_multiclass_brier_and_weighted_log_loss():
    rng = np.random.default_rng(6)
    n, k = 600, 3
    y = rng.integers(0, k, n)
    raw = rng.random((n, k)) + np.eye(k)[y]
    p = raw / raw.sum(axis=1, keepdims=True)
    w = rng.uniform(0.5, 2.0, n)
    pred = Predictions(Task.MULTICLASS, ("a", "b", "c"), y, None, p, model="m", weight=w)
    got = {r.key: r for r in evaluate(pred, ["log_loss", "brier_score"], ci="auto").results}
    n_eff = w.sum() ** 2 / (w ** 2).sum()
    for key, losses in (("log_loss", -np.log(p[np.arange(n), y])), ("brier_score", ((p - np.eye(k)[y]) ** 2).sum(1))):
        low, high = DescrStatsW(losses, weights=w * n_eff / w.sum()).tconfint_mean()
        assert (got[key].low, got[key].high) == pytest.approx((low, high), rel=1e-9)
    assert got["log_loss"].value == pytest.approx(log_loss(y, p, sample_weight=w))
    bootstrapped = {r.key: r for r in evaluate(pred, ["log_loss"], ci="bootstrap", n_resamples=50).results}
    assert bootstrapped["log_loss"].method.startswith("bootstrap")      # asked for explicitly: still the bootstrap
