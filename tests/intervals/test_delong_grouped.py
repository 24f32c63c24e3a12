"""DeLong from the grouped counts of the one sort (`assess.intervals.delong_grouped`), which ``evaluate`` uses for
the binary ROC AUC instead of sorting the rows again, equals the textbook structural components computed pair by
pair (DeLong, DeLong & Clarke-Pearson 1988, eq. 3–5)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from assess import intervals
from assess.core.data import Predictions, Task
from assess.metrics import evaluate


def pairwise_delong(y, s):
    """Oracle: ψ(x, y) = [x > y] + ½[x = y] over every positive × negative pair, V10 / V01 its row / column means,
    variance S10/m + S01/n with ddof-1 sample variances — O(mn), no sort, no grouping."""
    pos, neg = s[y == 1], s[y == 0]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    return psi.mean(), np.var(v10, ddof=1) / pos.size + np.var(v01, ddof=1) / neg.size


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_grouped_delong_equals_the_pairwise_structural_components(seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(300) < 0.35).astype(int)
    s = np.round(rng.normal(size=300) + y, 1)               # ties within and across the classes
    levels = np.unique(s)[::-1]
    positives = [np.sum((s == v) & (y == 1)) for v in levels]
    negatives = [np.sum((s == v) & (y == 0)) for v in levels]
    auc, variance = intervals.delong_grouped(positives, negatives)
    expected_auc, expected_variance = pairwise_delong(y, s)
    assert auc == pytest.approx(expected_auc, rel=1e-12) and auc == pytest.approx(roc_auc_score(y, s), rel=1e-12)
    assert variance == pytest.approx(expected_variance, rel=1e-10)
    report = evaluate(Predictions(Task.BINARY, ("n", "p"), y, None, s), keys=["roc_auc"], ci="auto",
                      baselines=False)["roc_auc"]
    z = 1.959963984540054
    assert (report.low, report.high) == pytest.approx((auc - z * np.sqrt(variance), auc + z * np.sqrt(variance)),
                                                      rel=1e-12)
    assert report.method == "delong"


def test_a_class_of_one_row_has_no_variance():
    assert np.isnan(intervals.delong_grouped([1, 0], [2, 3])[1])
    assert np.isnan(intervals.delong_grouped([0, 0], [2, 3])[0])
