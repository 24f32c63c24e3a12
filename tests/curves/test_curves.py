"""Tests of assess.curves: oracle agreement with scikit-learn/SciPy, brute-force definitions, invariances,
validation messages, DeLong placements, calibration bins and the thinning bound.

Expected values come from scikit-learn 1.x (`roc_curve`, `precision_recall_curve`, `roc_auc_score`,
`average_precision_score`, `auc`, `calibration_curve`, the classification metrics), SciPy (`ks_2samp`) or a
brute-force loop over thresholds/pairs written here from the definitions — never from the code under test.
"""

from __future__ import annotations

import doctest
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import ks_2samp
from sklearn import metrics as skm
from sklearn.calibration import calibration_curve as sk_calibration_curve

import assess.curves.calibration
import assess.curves.counts
import assess.curves.from_counts
import assess.intervals.interval
import assess.metrics.threshold
import assess.present.charts.thinning
from assess.core.warnings import UndefinedMetricWarning
from assess.curves import (ThresholdCounts, average_precision, calibration_curve, confusion_at_threshold, gain_curve,
                           ks_curve, ks_statistic, lift_curve, micro_threshold_counts, operating_point,
                           ovr_threshold_counts, pr_auc, pr_curve, rank_scores, roc_auc, roc_curve, threshold_counts)
from assess.intervals import delong_placements
from assess.metrics.threshold import metric_vs_threshold, threshold_metric_keys
from assess.present.charts.thinning import thin_curve

TOL = 1e-9
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------------------------------------ data strategies

@st.composite
def binary_data(draw, *, weights=True, both_classes=True, max_n=40):
    """(y, score, weight-or-None): ties (scores from a few values) or continuous scores; float or integer weights."""
    n = draw(st.integers(2 if both_classes else 1, max_n))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    if both_classes:
        y[0], y[-1] = 0, 1                       # guarantee both classes
    kind = draw(st.sampled_from(["few", "continuous", "constant"]))
    if kind == "few":
        levels = draw(st.integers(1, 4))
        s = np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n))) / levels
    elif kind == "continuous":
        s = np.array(draw(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=n, max_size=n)))
    else:
        s = np.full(n, 0.5)
    w = None
    if weights:
        wkind = draw(st.sampled_from(["none", "float", "int"]))
        if wkind == "float":
            # zero or >= 1e-3: sklearn's MCC underflows to 0 with weights near the smallest double
            w = np.array(draw(st.lists(st.just(0.0) | st.floats(1e-3, 10.0), min_size=n, max_size=n)))
        elif wkind == "int":
            w = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))).astype(float)
        if w is not None and both_classes and (w[y == 1].sum() <= 0 or w[y == 0].sum() <= 0):
            w[0], w[-1] = 1.0, 1.5               # keep both classes present in weight
    return y, s, w


def _close(actual, expected):
    np.testing.assert_allclose(np.asarray(actual, dtype=float), np.asarray(expected, dtype=float),
                               rtol=0, atol=TOL)


# ------------------------------------------------------------------------------------------------ oracle: sklearn

@SETTINGS
@given(binary_data())
def test_roc_curve_and_auc_match_sklearn(data):
    y, s, w = data
    counts = threshold_counts(y, s, sample_weight=w)
    fpr, tpr, thr = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    r = roc_curve(counts)
    _close(r.x, fpr)
    _close(r.y, tpr)
    np.testing.assert_array_equal(r.thresholds, thr)
    assert abs(roc_auc(counts) - skm.roc_auc_score(y, s, sample_weight=w)) <= TOL
    assert abs(r.area - skm.roc_auc_score(y, s, sample_weight=w)) <= TOL
    assert isinstance(roc_auc(counts), float)


@SETTINGS
@given(binary_data())
def test_pr_curve_ap_and_pr_auc_match_sklearn(data):
    y, s, w = data
    counts = threshold_counts(y, s, sample_weight=w)
    precision, recall, thr = skm.precision_recall_curve(y, s, sample_weight=w)
    p = pr_curve(counts)
    _close(p.x, recall[::-1])                    # ours runs from threshold +inf down; sklearn's the other way
    _close(p.y, precision[::-1])
    np.testing.assert_array_equal(p.thresholds[1:], thr[::-1])
    assert p.thresholds[0] == np.inf
    expected_ap = skm.average_precision_score(y, s, sample_weight=w)
    assert abs(average_precision(counts) - expected_ap) <= TOL
    assert abs(p.area - expected_ap) <= TOL
    assert abs(pr_auc(counts) - skm.auc(recall, precision)) <= TOL


@pytest.mark.filterwarnings("ignore:ks_2samp. Exact calculation unsuccessful:RuntimeWarning")  # p-value only
@SETTINGS
@given(binary_data(weights=False))
def test_ks_statistic_matches_scipy_ks_2samp(data):
    y, s, _ = data
    counts = threshold_counts(y, s)
    expected = ks_2samp(s[y == 1], s[y == 0]).statistic
    assert abs(ks_statistic(counts) - expected) <= TOL
    k = ks_curve(counts)
    assert abs(k.statistic - expected) <= TOL
    assert abs(abs(k.y[k.best_index] - k.y2[k.best_index]) - expected) <= TOL


@SETTINGS
@given(binary_data())
def test_counts_match_sklearn_confusion_matrix_at_thresholds(data):
    y, s, w = data
    _, fps, _, tps, thr = skm.confusion_matrix_at_thresholds(y, s, sample_weight=w)
    counts = threshold_counts(y, s, sample_weight=w)
    np.testing.assert_array_equal(counts.thresholds, thr)
    _close(counts.tps, tps)
    _close(counts.fps, fps)


def test_counts_by_hand_with_ties():
    # scores 0.9 (pos, neg), 0.4 (pos), 0.1 (neg): thresholds 0.9, 0.4, 0.1
    c = threshold_counts(np.array([True, False, True, False]), [0.9, 0.9, 0.4, 0.1])
    assert c.thresholds.tolist() == [0.9, 0.4, 0.1]
    assert c.tps.tolist() == [1.0, 2.0, 2.0] and c.fps.tolist() == [1.0, 1.0, 2.0]
    assert (c.n_pos, c.n_neg, c.n) == (2.0, 2.0, 4)
    assert c.tps.dtype == np.float64 and not c.tps.flags.writeable
    assert c.tns.tolist() == [1.0, 1.0, 0.0] and c.fns.tolist() == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("pos_fraction", [0.1, 0.5, 0.9])
def test_fast_path_on_larger_data_matches_sklearn(pos_fraction):
    # exercises both branches of the value-sort path (minority = positives / negatives), with and without ties
    rng = np.random.default_rng(7)
    n = 20_000
    y = rng.random(n) < pos_fraction
    for s in (rng.random(n), np.round(rng.random(n), 2)):
        counts = threshold_counts(y, s)
        _, fps, _, tps, thr = skm.confusion_matrix_at_thresholds(y, s)
        np.testing.assert_array_equal(counts.thresholds, thr)
        np.testing.assert_array_equal(counts.tps, tps)
        np.testing.assert_array_equal(counts.fps, fps)
        # the O(m) shortcuts of the unweighted path (rank-sum AUC, AP/PR AUC and KS at the minority's groups)
        assert abs(roc_auc(counts) - skm.roc_auc_score(y, s)) <= TOL
        assert abs(average_precision(counts) - skm.average_precision_score(y, s)) <= TOL
        precision, recall, _ = skm.precision_recall_curve(y, s)
        assert abs(pr_auc(counts) - skm.auc(recall, precision)) <= TOL
        assert abs(ks_statistic(counts) - ks_2samp(s[y], s[~y]).statistic) <= TOL
        fpr, tpr, _ = skm.roc_curve(y, s, drop_intermediate=False)
        assert ks_curve(counts).best_index == int(np.argmax(np.abs(tpr[1:] - fpr[1:])))


# ------------------------------------------------------------------------------------------------ brute force

def _brute(y, s, w):
    """tp, fp per distinct threshold (descending), straight from the definition score >= t."""
    w = np.ones(len(y)) if w is None else w
    keep = w != 0
    thr = np.unique(s[keep])[::-1]
    tp = np.array([np.sum(w * (y == 1) * (s >= t)) for t in thr])
    fp = np.array([np.sum(w * (y == 0) * (s >= t)) for t in thr])
    return thr, tp, fp


@SETTINGS
@given(binary_data())
def test_gain_lift_and_ks_curves_match_definitions(data):
    y, s, w = data
    counts = threshold_counts(y, s, sample_weight=w)
    thr, tp, fp = _brute(y, s, w)
    total = tp[-1] + fp[-1]
    g = gain_curve(counts)
    _close(g.x, np.r_[0.0, (tp + fp) / total])
    _close(g.y, np.r_[0.0, tp / tp[-1]])
    assert (g.x[0], g.y[0], g.x[-1], g.y[-1]) == (0.0, 0.0, 1.0, 1.0)
    lift = lift_curve(counts)
    expected = (tp / tp[-1]) / ((tp + fp) / total)
    _close(lift.y, np.r_[expected[0], expected])
    assert lift.baseline == 1.0
    k = ks_curve(counts)
    gap = np.abs(tp / tp[-1] - fp / fp[-1])
    assert k.best_index == int(np.argmax(gap))
    np.testing.assert_array_equal(k.x, thr)


@SETTINGS
@given(binary_data(), st.floats(-2e3, 2e3, allow_nan=False), st.integers(0, 39))
def test_confusion_and_operating_point_match_definitions(data, t_random, i):
    y, s, w = data
    counts = threshold_counts(y, s, sample_weight=w)
    wt = np.ones(len(y)) if w is None else w
    for t in (t_random, s[i % len(s)], np.inf, -np.inf, s.max() + 1):
        pred = s >= t
        expected = (np.sum(wt * pred * (y == 1)), np.sum(wt * pred * (y == 0)),
                    np.sum(wt * ~pred * (y == 0)), np.sum(wt * ~pred * (y == 1)))
        _close(confusion_at_threshold(counts, t), expected)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            op = operating_point(counts, t)
        r, p = roc_curve(counts), pr_curve(counts)
        assert abs(op.fpr - r.x[op.index]) <= TOL and abs(op.tpr - r.y[op.index]) <= TOL
        if expected[0] + expected[1] > 0:
            assert abs(op.precision - p.y[op.index]) <= TOL
        else:
            assert np.isnan(op.precision) and np.isnan(op.lift)


def test_operating_point_with_nothing_predicted_warns():
    counts = threshold_counts([0, 1, 1], [0.2, 0.5, 0.7])
    with pytest.warns(UndefinedMetricWarning, match="no sample is predicted positive"):
        op = operating_point(counts, 0.9)
    assert op.index == 0 and op.tp == 0.0 and op.fn == 2.0 and np.isnan(op.precision)


@settings(max_examples=60, deadline=None)
@given(binary_data(max_n=25), st.floats(0.25, 4.0), st.lists(st.integers(0, 24), min_size=1, max_size=3))
def test_metric_vs_threshold_matches_sklearn_metrics(data, beta, picks):
    y, s, w = data
    counts = threshold_counts(y, s, sample_weight=w)
    wt = np.ones(len(y)) if w is None else w
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = metric_vs_threshold(counts, threshold_metric_keys(), beta=beta)
        for k in sorted({p % len(counts) for p in picks}):
            pred = (s >= counts.thresholds[k]).astype(int)
            # per class (0, 1): precision, recall, F-beta; class 0's recall is specificity, its precision the NPV
            prec, rec, fb, _ = skm.precision_recall_fscore_support(y, pred, beta=beta, labels=[0, 1], sample_weight=w,
                                                                    zero_division=np.nan)
            margins = [np.sum(wt * (pred == v)) for v in (0, 1)] + [np.sum(wt * (y == v)) for v in (0, 1)]
            expected = {
                "precision": prec[1], "recall": rec[1], "fbeta": fb[1], "specificity": rec[0], "npv": prec[0],
                "f1": skm.f1_score(y, pred, sample_weight=w, zero_division=np.nan),
                "accuracy": skm.accuracy_score(y, pred, sample_weight=w),
                "balanced_accuracy": skm.balanced_accuracy_score(y, pred, sample_weight=w),
                # sklearn returns 0 for MCC when a margin is 0; we return NaN (undefined, never a silent 0)
                "mcc": skm.matthews_corrcoef(y, pred, sample_weight=w) if min(margins) > 0 else np.nan,
                "tp": np.sum(wt * pred * y), "fn": np.sum(wt * (1 - pred) * y),
                # sklearn's kappa is 0/0 -> NaN with a warning when chance agreement is 1, as ours
                "cohen_kappa": skm.cohen_kappa_score(y, pred, sample_weight=w),
            }
            lr_plus, lr_minus = skm.class_likelihood_ratios(y, pred, labels=[0, 1], sample_weight=w,
                                                            replace_undefined_by=np.nan)
            expected |= {"lr_plus": lr_plus, "lr_minus": lr_minus}
            for name, value in expected.items():
                got = m[name][k]
                assert (np.isnan(got) and np.isnan(value)) or abs(got - value) <= TOL, (name, k, got, value)


def test_metric_vs_threshold_rejects_unknown_names_and_bad_beta():
    counts = threshold_counts([0, 1], [0.1, 0.9])
    with pytest.raises(ValueError, match=r"`metrics` has unknown names \['f2'\]"):
        metric_vs_threshold(counts, ("f1", "f2"))
    with pytest.raises(ValueError, match=r"`beta` must be > 0 \(got -1\)"):
        metric_vs_threshold(counts, ("fbeta",), beta=-1)
    with pytest.raises(KeyError, match="'mcc' was not computed"):
        metric_vs_threshold(counts, ("f1",))["mcc"]


# ------------------------------------------------------------------------------------------------ undefined cases

@pytest.mark.parametrize("y, side", [([0, 0, 0], "all negative"), ([1, 1], "all positive")])
def test_single_class_gives_nan_and_says_why(y, side):
    counts = threshold_counts(y, np.linspace(0, 1, len(y)))
    with pytest.warns(UndefinedMetricWarning, match=rf"^ROC AUC is undefined: y_true has only one class \({side}\)$"):
        assert np.isnan(roc_auc(counts))
    with pytest.warns(UndefinedMetricWarning, match=rf"^KS statistic is undefined: .*\({side}\)"):
        assert np.isnan(ks_statistic(counts))
    with pytest.warns(UndefinedMetricWarning, match="ROC curve is undefined"):
        assert np.isnan(roc_curve(counts).area)


def test_ap_is_one_with_only_positives_and_undefined_with_no_positive():
    assert average_precision(threshold_counts([1, 1, 1], [0.1, 0.5, 0.2])) == 1.0   # sklearn gives 1.0 too
    counts = threshold_counts([0, 0], [0.1, 0.5])
    with pytest.warns(UndefinedMetricWarning, match=r"^Average precision is undefined: .*\(all negative\)"):
        assert np.isnan(average_precision(counts))
    with pytest.warns(UndefinedMetricWarning, match=r"^PR AUC is undefined"):
        assert np.isnan(pr_auc(counts))
    with pytest.warns(UndefinedMetricWarning, match="Lift curve is undefined"):
        assert np.isnan(lift_curve(counts).y).all()


def test_zero_weight_class_is_undefined_and_named():
    counts = threshold_counts([0, 1, 0], [0.1, 0.5, 0.7], sample_weight=[1.0, 0.0, 2.0])
    assert len(counts) == 2                     # the zero-weight row gives no threshold, as in sklearn
    with pytest.warns(UndefinedMetricWarning, match=r"only one class with nonzero weight \(all negative\)"):
        assert np.isnan(roc_auc(counts))


def test_delong_single_class_warns():
    with pytest.warns(UndefinedMetricWarning, match=r"DeLong placements are undefined: .*\(all positive\)"):
        v10, v01 = delong_placements([1, 1], [0.3, 0.4])
    assert np.isnan(v10).all() and v01.shape == (0,)


# ------------------------------------------------------------------------------------------------ invariances

def _scalars(counts):
    return np.array([roc_auc(counts), average_precision(counts), pr_auc(counts), ks_statistic(counts)])


@SETTINGS
@given(binary_data(), st.randoms(use_true_random=False))
def test_invariant_to_sample_order(data, rnd):
    y, s, w = data
    perm = np.array(rnd.sample(range(len(y)), len(y)))
    a = threshold_counts(y, s, sample_weight=w)
    b = threshold_counts(y[perm], s[perm], sample_weight=None if w is None else w[perm])
    np.testing.assert_array_equal(a.thresholds, b.thresholds)
    _close(a.tps, b.tps)
    _close(a.fps, b.fps)
    _close(_scalars(a), _scalars(b))


@SETTINGS
@given(binary_data(weights=False))
def test_rank_metrics_invariant_to_monotone_transforms(data):
    y, s, _ = data
    s_int = np.round(s * 4) / 4 if np.abs(s).max() <= 1 else np.round(s)       # keep transforms exact
    base = _scalars(threshold_counts(y, s_int))
    for transform in (lambda v: np.exp(v / 1e3), lambda v: v ** 3 + v, lambda v: np.arctan(v / 1e3) - 7):
        _close(_scalars(threshold_counts(y, transform(s_int))), base)
    # a decreasing transform turns AUC into 1 - AUC
    assert abs(roc_auc(threshold_counts(y, -s_int)) - (1 - base[0])) <= TOL


@SETTINGS
@given(binary_data(weights=False), st.lists(st.integers(0, 4), min_size=40, max_size=40))
def test_integer_weights_equal_repeated_rows(data, reps):
    y, s, _ = data
    w = np.array(reps[: len(y)], dtype=float)
    if w[y == 1].sum() == 0 or w[y == 0].sum() == 0:
        w[0], w[-1] = 1.0, 1.0
    a = threshold_counts(y, s, sample_weight=w)
    r = w.astype(int)
    b = threshold_counts(np.repeat(y, r), np.repeat(s, r))
    np.testing.assert_array_equal(a.thresholds, b.thresholds)
    _close(a.tps, b.tps)
    _close(a.fps, b.fps)
    _close(_scalars(a), _scalars(b))
    _close(roc_curve(a).x, roc_curve(b).x)
    _close(pr_curve(a).y, pr_curve(b).y)


@SETTINGS
@given(binary_data(weights=False))
def test_unit_weights_equal_no_weights(data):
    y, s, _ = data
    a = threshold_counts(y, s, sample_weight=np.ones(len(y)))
    b = threshold_counts(y, s)
    np.testing.assert_array_equal(a.thresholds, b.thresholds)
    np.testing.assert_array_equal(a.tps, b.tps)
    np.testing.assert_array_equal(a.fps, b.fps)
    _close(_scalars(a), _scalars(b))


@SETTINGS
@given(binary_data())
def test_precomputed_ranking_gives_the_same_counts(data):
    y, s, w = data
    ranking = rank_scores(s)
    a = threshold_counts(y, s, sample_weight=w, ranking=ranking)
    b = threshold_counts(y, s, sample_weight=w)
    np.testing.assert_array_equal(a.thresholds, b.thresholds)
    _close(a.tps, b.tps)
    _close(a.fps, b.fps)


def test_label_encodings_agree():
    s = np.array([0.3, 0.8, 0.5, 0.1, 0.9])
    ys = ([0, 1, 0, 0, 1], [False, True, False, False, True], np.array([0.0, 1.0, 0.0, 0.0, 1.0]),
          np.array([0, 1, 0, 0, 1], dtype=np.uint8))
    tps = [threshold_counts(y, s).tps.tolist() for y in ys]
    assert all(t == [1.0, 2.0, 2.0, 2.0, 2.0] for t in tps)


# ------------------------------------------------------------------------------------------------ validation

@pytest.mark.parametrize("score, message", [
    ([0.1, 0.2, np.nan, 0.4, 0.5, np.nan], r"`score` has 2 NaN values \(first at index 2\)"),
    ([0.1, np.inf, 0.2, 0.4, 0.5, 0.6], r"`score` has 1 infinite values \(first at index 1: inf\)"),
    ([0.1, 0.2, 0.3, 0.4, 0.5, -np.inf], r"`score` has 1 infinite values \(first at index 5: -inf\)"),
    ([0.1, 0.2], r"`score` has 2 rows but `y_true` has 6"),
    ([[0.1] * 6], r"`score` must be 1-D \(got shape \(1, 6\)\)"),
])
def test_bad_scores_rejected_with_clear_message(score, message):
    y = [0, 1, 0, 1, 0, 1]
    with pytest.raises(ValueError, match=message):
        threshold_counts(y, score)


def test_bad_labels_and_weights_rejected():
    with pytest.raises(ValueError,
                       match=r"`y_true` must contain only 0 and 1 \(got 1 other values, first at index 2: 2\)$"):
        threshold_counts([0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(TypeError, match=r"`y_true` must hold 0/1 as bool, int or float \(got dtype <U3\)"):
        threshold_counts(["yes", "no"], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"`sample_weight` must be >= 0 \(got 1 negative values, first at index 1: "
                                         r"-0.5\)"):
        threshold_counts([0, 1], [0.1, 0.2], sample_weight=[1.0, -0.5])
    with pytest.raises(ValueError, match=r"`sample_weight` has 1 NaN values \(first at index 0\)"):
        threshold_counts([0, 1], [0.1, 0.2], sample_weight=[np.nan, 1.0])
    with pytest.raises(ValueError, match=r"`y_true` is empty \(got 0 rows\)"):
        threshold_counts([], [])
    with pytest.raises(TypeError, match="`counts` must be ThresholdCounts"):
        roc_auc([0.1, 0.2])
    with pytest.raises(ValueError, match=r"`threshold` must not be NaN"):
        confusion_at_threshold(threshold_counts([0, 1], [0.1, 0.2]), np.nan)


# ------------------------------------------------------------------------------------------------ DeLong

@SETTINGS
@given(binary_data(weights=False))
def test_delong_placements_match_brute_force_and_auc(data):
    y, s, _ = data
    pos, neg = s[y == 1], s[y == 0]
    v10, v01 = delong_placements(y, s)
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])   # O(n1 n0) from the definition
    _close(v10, psi.mean(axis=1))
    _close(v01, psi.mean(axis=0))
    auc = skm.roc_auc_score(y, s)
    assert abs(v10.mean() - auc) <= TOL and abs(v01.mean() - auc) <= TOL


# ------------------------------------------------------------------------------------------------ multi-class

@SETTINGS
@given(st.integers(2, 4), st.integers(8, 40), st.integers(0, 10_000), st.booleans(), st.booleans())
def test_ovr_and_micro_counts_match_sklearn(k, n, seed, weighted, ties):
    rng = np.random.default_rng(seed)
    codes = np.r_[np.arange(k), rng.integers(0, k, n - k)]
    raw = rng.integers(1, 4, (n, k)).astype(float) if ties else rng.random((n, k)) + 0.01
    proba = raw / raw.sum(axis=1, keepdims=True)
    w = rng.random(n) + 0.1 if weighted else None
    per_class = ovr_threshold_counts(codes, proba, sample_weight=w)
    for c, counts in enumerate(per_class):
        assert abs(roc_auc(counts) - skm.roc_auc_score(codes == c, proba[:, c], sample_weight=w)) <= TOL
    macro = np.mean([roc_auc(c) for c in per_class])
    expected_macro = skm.roc_auc_score(codes, proba, multi_class="ovr", average="macro", sample_weight=w,
                                       labels=np.arange(k)) if k > 2 else macro
    assert abs(macro - expected_macro) <= TOL
    onehot = codes[:, None] == np.arange(k)
    micro = micro_threshold_counts(codes, proba, sample_weight=w)
    expected = skm.roc_auc_score(onehot.ravel(), proba.ravel(), sample_weight=None if w is None else np.repeat(w, k))
    assert abs(roc_auc(micro) - expected) <= TOL


def test_ovr_validation():
    with pytest.raises(ValueError, match=r"`y_codes` must be in 0..1 for 2 `proba` columns \(got 1 other values, "
                                         r"first at index 1: 2\)"):
        ovr_threshold_counts([0, 2], [[0.5, 0.5], [0.2, 0.8]])
    with pytest.raises(ValueError, match=r"`proba` must be 2-D"):
        ovr_threshold_counts([0, 1], [0.5, 0.5])


# ------------------------------------------------------------------------------------------------ calibration

@SETTINGS
@given(binary_data(weights=False, both_classes=False, max_n=60), st.integers(1, 12),
       st.sampled_from(["uniform", "quantile"]))
def test_calibration_bins_match_sklearn(data, n_bins, strategy):
    y, s, _ = data
    p = (s - s.min()) / (s.max() - s.min()) if s.max() > s.min() else np.clip(s, 0, 1)
    result = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    prob_true, prob_pred = sk_calibration_curve(y, p, n_bins=n_bins, strategy=strategy, pos_label=1)
    _close(result.observed_frequency[result.nonempty], prob_true)
    _close(result.mean_predicted[result.nonempty], prob_pred)
    assert result.counts.sum() == len(y) and len(result.counts) == n_bins
    # ECE / MCE from sklearn's bins, with the bin sizes counted here by the sklearn binning rule
    sizes = np.bincount(np.searchsorted(result.bin_edges[1:-1], p), minlength=n_bins)
    sizes = sizes[sizes > 0]
    assert abs(result.ece - np.sum(sizes / len(y) * np.abs(prob_true - prob_pred))) <= TOL
    assert abs(result.mce - np.max(np.abs(prob_true - prob_pred))) <= TOL


def test_calibration_by_hand_and_weights():
    # bins [0, .5], (.5, 1]: bin 0 holds .1 .4 .35 (one positive), bin 1 holds .8 (positive)
    # ECE = 3/4 * |1/3 - 0.85/3| + 1/4 * |1 - 0.8| = 0.0375 + 0.05
    c = calibration_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], n_bins=2)
    assert abs(c.ece - 0.0875) <= TOL and abs(c.mce - 0.2) <= TOL
    # integer weights = repeated rows
    w = calibration_curve([0, 1, 1], [0.2, 0.6, 0.9], n_bins=3, sample_weight=[2, 1, 3])
    r = calibration_curve([0, 0, 1, 1, 1, 1], [0.2, 0.2, 0.6, 0.9, 0.9, 0.9], n_bins=3)
    _close(w.counts, r.counts)
    _close(np.nan_to_num(w.mean_predicted), np.nan_to_num(r.mean_predicted))
    assert abs(w.ece - r.ece) <= TOL
    with pytest.raises(ValueError, match=r"`score` has 1 value outside \[0, 1\] \(row 2: `1.4`\)"):
        calibration_curve([0, 1], [0.5, 1.4])
    with pytest.raises(ValueError, match=r"`strategy` must be 'uniform' or 'quantile' \(got 'kmeans'\)"):
        calibration_curve([0, 1], [0.5, 0.4], strategy="kmeans")


# ------------------------------------------------------------------------------------------------ thinning

def _linf_point_segment(px, py, ax, ay, bx, by):
    """Exact L-infinity distance from points p to segments a-b (vectorised).

    f(t) = max(|ax + t dx - px|, |ay + t dy - py|) is convex and piecewise linear in t, so its minimum on [0, 1]
    is at an end or where a term is 0 or where the two terms are equal in size.
    """
    dx, dy = bx - ax, by - ay
    ex, ey = ax - px, ay - py
    cands = [np.zeros_like(px), np.ones_like(px)]
    with np.errstate(divide="ignore", invalid="ignore"):
        for t in (-ex / dx, -ey / dy, (ey - ex) / (dx - dy), -(ex + ey) / (dx + dy)):
            cands.append(np.clip(np.nan_to_num(t, nan=0.0, posinf=0.0, neginf=0.0), 0.0, 1.0))
    best = np.full_like(px, np.inf)
    for t in cands:
        best = np.minimum(best, np.maximum(np.abs(ex + t * dx), np.abs(ey + t * dy)))
    return best


def _max_deviation(x, y, keep):
    """Largest L-inf distance (axes scaled to their ranges) from a full-curve point to its drawn segment."""
    xs = (x - x.min()) / (x.max() - x.min())
    ys = (y - y.min()) / (y.max() - y.min())
    seg = np.searchsorted(keep, np.arange(len(x)), side="right") - 1      # kept segment that covers each point
    seg = np.minimum(seg, len(keep) - 2)
    a, b = keep[seg], keep[seg + 1]
    return float(_linf_point_segment(xs, ys, xs[a], ys[a], xs[b], ys[b]).max())


@pytest.fixture(scope="module")
def million_counts():
    rng = np.random.default_rng(3)
    n = 1_000_000
    y = rng.random(n) < 0.1
    s = rng.normal(size=n) + 1.2 * y                   # distinct scores, informative ranking
    counts = threshold_counts(y, s)
    assert len(counts) == n
    return counts


@pytest.mark.parametrize("curve", [roc_curve, gain_curve, pr_curve, lift_curve])
def test_thin_curve_bound_and_count_on_a_million_points(million_counts, curve):
    c = curve(million_counts)
    max_points = 2000
    keep = thin_curve(c.x, c.y, max_points=max_points)
    assert len(keep) <= max_points and keep[0] == 0 and keep[-1] == len(c) - 1
    assert np.all(np.diff(keep) > 0)
    if curve in (roc_curve, gain_curve):                # monotone: the default grid m = max_points // 4 is kept
        assert _max_deviation(c.x, c.y, keep) <= 1.0 / (max_points // 4) + 1e-12
    if curve is gain_curve:                             # x strictly increasing here: plain vertical interpolation
        drawn = np.interp(c.x, c.x[keep], c.y[keep])
        assert np.max(np.abs(drawn - c.y)) <= 1.0 / (max_points // 4) + 1e-12


def test_thin_curve_bound_with_explicit_grid_on_non_monotone_curve(million_counts):
    p = pr_curve(million_counts)
    keep = thin_curve(p.x, p.y, max_points=len(p) - 1, grid=50)   # budget does not bind: grid 50 is used
    assert _max_deviation(p.x, p.y, keep) <= 1.0 / 50 + 1e-12
    assert len(keep) < len(p) // 10


def test_thin_curve_deviation_test_can_fail():
    # the deviation measure catches a dropped spike: keep only the ends of a curve with a peak in the middle
    x = np.linspace(0, 1, 101)
    y = np.where(np.arange(101) == 50, 1.0, 0.0)
    assert _max_deviation(x, y, np.array([0, 100])) == 1.0
    assert set(thin_curve(x, y, max_points=8, grid=2).tolist()) >= {49, 50, 51}


def test_thin_curve_small_curves_untouched_and_validation():
    np.testing.assert_array_equal(thin_curve([0, 1, 2], [0, 1, 0]), [0, 1, 2])
    with pytest.raises(ValueError, match=r"`y` has 2 points but `x` has 3"):
        thin_curve([0, 1, 2], [0, 1])
    with pytest.raises(ValueError, match=r"`x` has 1 infinite values \(first at index 0: inf\)"):
        thin_curve([np.inf, 1, 2], [0, 1, 2])


# ------------------------------------------------------------------------------------------------ hygiene

def test_result_types_and_frames():
    counts = threshold_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    frame = roc_curve(counts).to_frame()
    assert list(frame.columns) == ["threshold", "fpr", "tpr"] and len(frame) == 5
    assert list(ks_curve(counts).to_frame().columns) == ["threshold", "tpr", "fpr"]
    assert isinstance(counts, ThresholdCounts)
    with pytest.raises(AttributeError):
        counts.n_pos = 3.0                               # frozen
    with pytest.warns(UndefinedMetricWarning, match=r"^mcc is undefined at 1 of 4 thresholds"):
        table = metric_vs_threshold(counts, ("f1", "mcc")).to_frame()
    assert list(table.columns) == ["threshold", "f1", "mcc"] and np.isnan(table["mcc"].iloc[-1])


@pytest.mark.parametrize("module, examples", [
    (assess.curves.counts, 2), (assess.curves.from_counts, 8), (assess.curves.calibration, 2),
    (assess.intervals.interval, 2), (assess.metrics.threshold, 3), (assess.present.charts.thinning, 3)])
def test_docstring_examples(module, examples):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, extraglobs=vars(assess.curves))  # threshold_counts
    assert result.attempted >= examples and result.failed == 0


def test_curves_imports_no_ui_library():
    code = "import sys, assess.curves; print(sorted(m for m in ('streamlit', 'plotly') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
