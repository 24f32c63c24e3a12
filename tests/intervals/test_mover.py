"""The vectorised Wilson bounds and the two-proportion MOVER intervals against statsmodels."""

from __future__ import annotations

import numpy as np
import pytest
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from assess.intervals import mover_ratio, newcombe_difference, wilson, wilson_bounds


def test_wilson_bounds_equal_statsmodels_and_the_scalar_wilson():
    x = np.array([0, 1, 7, 47, 120, 374, 0])
    n = np.array([10, 10, 30, 374, 200, 374, 0])
    p, low, high = wilson_bounds(x, n, confidence_level=0.9)
    for i in range(6):
        lo, hi = proportion_confint(x[i], n[i], alpha=0.1, method="wilson")
        assert (low[i], high[i]) == pytest.approx((lo, hi), abs=1e-12)
        assert (low[i], high[i]) == pytest.approx((wilson(x[i], n[i], confidence_level=0.9).low,
                                                   wilson(x[i], n[i], confidence_level=0.9).high), abs=1e-15)
    assert np.isnan(p[6]) and np.isnan(low[6]) and np.isnan(high[6])


@pytest.mark.parametrize("x1, n1, x2, n2", [(56, 70, 48, 80), (9, 10, 3, 10), (0, 20, 5, 20), (30, 300, 40, 250)])
def test_newcombe_difference_equals_statsmodels_newcomb(x1, n1, x2, n2):
    low, high = newcombe_difference(*wilson_bounds(x1, n1), *wilson_bounds(x2, n2))
    assert (low, high) == pytest.approx(confint_proportions_2indep(x1, n1, x2, n2, method="newcomb"), abs=1e-12)


@pytest.mark.parametrize("x1, n1, x2, n2", [(56, 70, 48, 80), (30, 300, 40, 250), (120, 400, 90, 300)])
def test_mover_ratio_is_close_to_the_score_interval_and_holds_its_estimate(x1, n1, x2, n2):
    low, high = mover_ratio(*wilson_bounds(x1, n1), *wilson_bounds(x2, n2))
    score = confint_proportions_2indep(x1, n1, x2, n2, compare="ratio", method="score")
    assert (float(low), float(high)) == pytest.approx(tuple(float(np.real(v)) for v in score), rel=0.01)
    assert low <= (x1 / n1) / (x2 / n2) <= high


def test_mover_ratio_edges_widen_or_are_undefined():
    low, high = mover_ratio(*wilson_bounds(0, 20), *wilson_bounds(5, 20))
    assert low == 0 and high == pytest.approx(wilson(0, 20).high / wilson(5, 20).low)
    low, high = mover_ratio(*wilson_bounds(5, 20), *wilson_bounds(0, 20))
    assert np.isnan(low) and np.isnan(high)


@pytest.mark.parametrize("p", [0.5, 0.95, 0.99])
def test_quantile_ci_equals_scipys_quantile_test(p):
    from scipy import stats
    from assess.intervals import median_ci, quantile_ci
    x = np.random.default_rng(0).exponential(size=500)
    got = quantile_ci(x, p)
    ref = stats.quantile_test(x, p=p).confidence_interval(0.95)
    assert (got.low, got.high) == (ref.low, ref.high)
    if p == 0.5:
        assert (median_ci(x).low, median_ci(x).high) == (ref.low, ref.high)
    assert np.isnan(quantile_ci(x[:100], 0.99).low)          # too few values for the 99th percentile's tail
