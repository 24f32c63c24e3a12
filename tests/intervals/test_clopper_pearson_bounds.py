"""`clopper_pearson_bounds`, the vectorised Clopper–Pearson interval (the ECE's bins use it): equal to statsmodels'
``proportion_confint(method="beta")`` elementwise — integer and effective (non-integer) counts, 0 and n successes —
and NaN where n is 0."""

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from assess.intervals.proportions import clopper_pearson_bounds


@pytest.mark.parametrize("level", [0.95, 0.995])
def test_equals_statsmodels_beta(level):
    x = np.array([0.0, 1.0, 5.0, 17.0, 50.0, 3.3, 0.0])
    n = np.array([50.0, 50.0, 50.0, 40.0, 50.0, 7.9, 3.0])
    low, high = clopper_pearson_bounds(x, n, confidence_level=level)
    sm_low, sm_high = proportion_confint(x, n, alpha=1 - level, method="beta")
    # statsmodels leaves the bound at x = 0 (x = n) as NaN in some versions; the closed form is 0 (1) there
    sm_low, sm_high = np.where(x == 0, 0.0, sm_low), np.where(x == n, 1.0, sm_high)
    np.testing.assert_allclose(low, sm_low, rtol=0, atol=1e-12)
    np.testing.assert_allclose(high, sm_high, rtol=0, atol=1e-12)


def test_no_rows_is_nan():
    low, high = clopper_pearson_bounds(np.array([0.0]), np.array([0.0]))
    assert np.isnan(low).all() and np.isnan(high).all()
