"""Bands of assess.curves.bands against independent oracles.

- Grouped bootstrap: the same per-cell resample counts (drawn with the band's seed) spread over the rows of each
  score × class cell and given to scikit-learn's ``roc_curve`` / ``precision_recall_curve`` as sample weights, read
  on the grid by the definitions written here, then the percentiles: the band must equal it — so grouping the rows
  into cells changes nothing, and the curves read off the resampled counts are scikit-learn's.
- Wilson calibration bins: statsmodels ``proportion_confint(method="wilson")``.
- The median error's interval: SciPy ``quantile_test(...).confidence_interval``; the decile MAE's: SciPy
  ``stats.t.interval``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn import metrics as skm
from statsmodels.stats.proportion import proportion_confint

from assess.curves import calibration_curve, threshold_counts
from assess.curves.bands import (calibration_band, curve_bands, decile_errors, draw_cells, error_trend,
                                 median_interval)

GRID = np.linspace(0, 1, 101)


def _tied(n=400, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.round(np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1), 1)   # 11 distinct scores: many ties
    return y, s


def _cells(y, s):
    """Each class's cells, highest score first: (rows of each cell, row count of each cell) — by np.unique."""
    out = []
    for rows in (np.flatnonzero(y), np.flatnonzero(~y)):
        values, inverse, freq = np.unique(s[rows], return_inverse=True, return_counts=True)
        order = np.argsort(-values)
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        out.append((rows, rank[inverse], freq[order]))
    return out


def _oracle_values(y, s, weight):
    """ROC, PR and gain of the rows weighted by ``weight``, read on GRID by their definitions (scikit-learn curves)."""
    fpr, tpr, _ = skm.roc_curve(y, s, sample_weight=weight, drop_intermediate=False)
    roc = np.array([tpr[fpr <= g].max() for g in GRID])
    precision, recall, _ = skm.precision_recall_curve(y, s, sample_weight=weight)
    precision, recall = precision[::-1], recall[::-1]     # highest threshold first, (0, 1) in front
    pr = np.array([precision[np.flatnonzero(recall >= g)[0]] for g in GRID])
    n_pos, n_neg = weight[y].sum(), weight[~y].sum()
    share = (tpr * n_pos + fpr * n_neg) / (n_pos + n_neg)
    gain = np.interp(GRID, share, tpr)
    return roc, pr, gain


def _oracle_band(y, s, b, seed, weight=None):
    rng = np.random.default_rng(seed)
    (pos_rows, pos_cell, pos_freq), (neg_rows, neg_cell, neg_freq) = _cells(y, s) if weight is None else (
        (r, np.arange(r.size), np.ones(r.size, int)) for r in (np.flatnonzero(y), np.flatnonzero(~y)))
    if weight is not None:   # weighted: each row its own cell, in score order within its class (stable)
        pos_rows = pos_rows[np.argsort(-s[pos_rows], kind="stable")]
        neg_rows = neg_rows[np.argsort(-s[neg_rows], kind="stable")]
    draws_pos, draws_neg = draw_cells(rng, b, pos_freq), draw_cells(rng, b, neg_freq)
    values = []
    for j in range(b):
        w = np.zeros(y.size)
        w[pos_rows] = draws_pos[j][pos_cell] / pos_freq[pos_cell]
        w[neg_rows] = draws_neg[j][neg_cell] / neg_freq[neg_cell]
        if weight is not None:
            w *= weight
        values.append(_oracle_values(y, s, w))
    return [np.percentile(np.array([v[i] for v in values]), [2.5, 97.5], axis=0) for i in range(3)]


def test_grouped_bootstrap_band_equals_a_row_bootstrap_with_the_same_counts():
    y, s = _tied()
    bands = curve_bands(y, s, n_resamples=60, seed=11)
    for band, (low, high) in zip((bands.roc, bands.pr, bands.gain), _oracle_band(y, s, 60, 11)):
        np.testing.assert_allclose(band.low, low, atol=1e-12)
        np.testing.assert_allclose(band.high, high, atol=1e-12)
    np.testing.assert_allclose(bands.lift.low[1:], bands.gain.low[1:] / GRID[1:])
    assert np.isnan(bands.lift.low[0])


def test_weighted_band_equals_a_row_bootstrap_of_the_weighted_rows():
    y, s = _tied(120, seed=4)
    w = np.random.default_rng(0).uniform(0.2, 3, y.size)
    bands = curve_bands(y, s, w, n_resamples=30, seed=2)
    for band, (low, high) in zip((bands.roc, bands.pr, bands.gain), _oracle_band(y, s, 30, 2, weight=w)):
        np.testing.assert_allclose(band.low, low, atol=1e-12)
        np.testing.assert_allclose(band.high, high, atol=1e-12)


def test_cells_given_by_the_counts_sort_nothing_and_agree():
    y, s = _tied()
    a = curve_bands(y, s, n_resamples=40, seed=1)
    b = curve_bands(y, s, counts=threshold_counts(y, s), n_resamples=40, seed=1)
    np.testing.assert_array_equal(a.pr.high, b.pr.high)
    c = curve_bands(y, s, n_resamples=40, seed=2)
    assert not np.array_equal(a.roc.low, c.roc.low)


def test_each_band_contains_its_curve():
    rng = np.random.default_rng(8)
    y = rng.random(3000) < 0.3
    s = np.round(np.clip(rng.normal(0.3 + 0.35 * y, 0.2), 0, 1), 2)
    bands = curve_bands(y, s, n_resamples=200, seed=0)
    roc, pr, gain = _oracle_values(y, s, np.ones(y.size))
    for band, curve in ((bands.roc, roc), (bands.pr, pr), (bands.gain, gain)):
        assert np.all(band.low <= curve + 1e-12) and np.all(curve <= band.high + 1e-12)


def test_many_distinct_scores_draw_rows_with_the_same_distribution():
    """Above 1,000 single-row cells the rows are drawn and counted: each class keeps its size."""
    rng = np.random.default_rng(0)
    counts = draw_cells(rng, 50, np.ones(3000, dtype=int))
    assert counts.shape == (50, 3000) and (counts.sum(axis=1) == 3000).all()
    grouped = draw_cells(rng, 50, np.array([5, 1, 7]))
    assert (grouped.sum(axis=1) == 13).all()


def test_band_needs_both_classes():
    with pytest.raises(ValueError, match="both classes"):
        curve_bands(np.ones(10, bool), np.linspace(0, 1, 10))


def test_calibration_band_is_wilson_per_bin():
    rng = np.random.default_rng(5)
    s = rng.random(500) ** 2
    y = rng.random(500) < s
    cal = calibration_curve(y, s, n_bins=10)
    band = calibration_band(y, s, cal.bin_edges)
    filled = cal.counts > 0
    low, high = proportion_confint(np.round(cal.observed_frequency[filled] * cal.counts[filled]),
                                   cal.counts[filled], alpha=0.05, method="wilson")
    np.testing.assert_allclose(band.low[filled], low, atol=1e-12)
    np.testing.assert_allclose(band.high[filled], high, atol=1e-12)
    np.testing.assert_allclose(band.x[filled], cal.mean_predicted[filled])
    inside = (band.low[filled] <= cal.observed_frequency[filled]) & (cal.observed_frequency[filled] <= band.high[filled])
    assert inside.all()


def test_weighted_calibration_band_uses_kish_effective_count():
    s = np.array([0.1, 0.15, 0.12, 0.9, 0.95])
    y = np.array([0, 1, 0, 1, 1])
    w = np.array([1.0, 2.0, 1.0, 1.0, 3.0])
    band = calibration_band(y, s, np.linspace(0, 1, 3), w)
    n_eff = 4.0 ** 2 / 6.0                   # bin 1: weights 1, 2, 1 → (Σw)² / Σw²
    low, high = proportion_confint(0.5 * n_eff, n_eff, alpha=0.05, method="wilson")
    assert band.low[0] == pytest.approx(low) and band.high[0] == pytest.approx(high)


@pytest.mark.parametrize("n", [6, 7, 10, 25, 101])
def test_median_interval_is_the_sign_test_interval(n):
    x = np.random.default_rng(n).normal(size=n)
    ci = stats.quantile_test(x, q=0, p=0.5).confidence_interval(0.95)
    assert median_interval(x) == pytest.approx((ci.low, ci.high))


def test_median_interval_undefined_below_six_rows():
    assert np.isnan(median_interval(np.arange(5.0))).all()


def test_error_trend_band_holds_each_bins_median():
    rng = np.random.default_rng(1)
    p = rng.normal(size=600)
    e = rng.normal(0.3 * p, 1)
    x, y, band = error_trend(p, e, bins=10)
    assert x.shape == y.shape == band.low.shape == (10,)
    assert np.all(band.low <= y) and np.all(y <= band.high)


def test_decile_errors_have_student_t_intervals():
    rng = np.random.default_rng(2)
    y = rng.normal(size=200)
    p = y + rng.normal(size=200)
    edges = np.quantile(y, np.linspace(0, 1, 11))
    mae, counts, low, high = decile_errors(y, p, edges)
    which = np.searchsorted(edges[1:-1], y, side="right")
    for k in range(10):
        err = np.abs(p - y)[which == k]
        lo, hi = stats.t.interval(0.95, err.size - 1, loc=err.mean(), scale=stats.sem(err))
        assert (low[k], high[k]) == pytest.approx((lo, hi))
        assert counts[k] == err.size


def test_trend_is_the_median_error_per_equal_count_bin():
    rng = np.random.default_rng(2)
    p = rng.uniform(0, 100, 2000)
    e = rng.normal(0, 1, 2000) + 0.05 * p
    x, y, _ = error_trend(p, e, bins=10)
    bins = pd.qcut(p, 10, labels=False)
    expected = pd.DataFrame({"b": bins, "p": p, "e": e}).groupby("b").median()
    np.testing.assert_allclose(x, expected["p"], rtol=1e-12)
    np.testing.assert_allclose(y, expected["e"], rtol=1e-12)
