"""DeLong, the paired bootstrap and Diebold–Mariano (assess.stats.scores)."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps
from sklearn.metrics import roc_auc_score

from assess.core.errors import AssessError
from assess.core.warnings import UndefinedMetricWarning
from assess.stats import delong, diebold_mariano, paired_bootstrap

SETTINGS = settings(max_examples=40, deadline=None)


def accuracy(y_true, y_pred, sample_weight=None):
    return float(np.average(np.asarray(y_true) == np.asarray(y_pred), weights=sample_weight))


def accuracy_rows(y_true, y_pred, sample_weight=None):
    """Vectorised accuracy: one value per row of a 2-D sample_weight."""
    hit = (np.asarray(y_true) == np.asarray(y_pred)).astype(float)
    return (sample_weight * hit).sum(axis=-1) / sample_weight.sum(axis=-1)


# -------------------------------------------------------------------------------------------------------- DeLong


def brute_force_delong(y, sa, sb):
    """DeLong et al. (1988) by definition: psi over all positive-negative pairs, O(m n)."""
    y = np.asarray(y, bool)
    out = []
    for s in (sa, sb):
        x, z = s[y][:, None], s[~y][None, :]
        psi = (x > z) + 0.5 * (x == z)
        out.append((psi.mean(axis=1), psi.mean(axis=0)))
    (v10a, v01a), (v10b, v01b) = out
    s10 = np.cov(np.vstack([v10a, v10b]))
    s01 = np.cov(np.vstack([v01a, v01b]))
    var = (s10[0, 0] + s10[1, 1] - 2 * s10[0, 1]) / y.sum() + (s01[0, 0] + s01[1, 1] - 2 * s01[0, 1]) / (~y).sum()
    return v10a.mean(), v10b.mean(), var


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(6, 120), st.booleans())
def test_delong_matches_brute_force_covariance(seed, n, ties):
    rng = np.random.default_rng(seed)
    y = np.zeros(n, bool)
    y[rng.choice(n, size=rng.integers(2, n - 1), replace=False)] = True
    sa = y * 0.8 + rng.normal(size=n)
    sb = 0.5 * sa + y * 0.3 + rng.normal(size=n)
    if ties:
        sa, sb = np.round(sa, 0), np.round(sb, 1)
    auc_a, auc_b, var = brute_force_delong(y, sa, sb)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)   # rounded scores can make both models identical
        res = delong(y, sa, sb)
    assert res.details.auc_a == pytest.approx(roc_auc_score(y, sa), abs=1e-12)
    assert res.details.auc_b == pytest.approx(roc_auc_score(y, sb), abs=1e-12)
    assert res.effect.value == pytest.approx(auc_a - auc_b, abs=1e-12)
    if var > 1e-14:
        z = (auc_a - auc_b) / math.sqrt(var)
        assert res.statistic == pytest.approx(z, rel=1e-8)
        assert res.pvalue == pytest.approx(2 * sps.norm.sf(abs(z)), rel=1e-7, abs=1e-300)
        half = sps.norm.ppf(0.975) * math.sqrt(var)
        ci = res.effect.interval
        assert (ci.low, ci.high) == pytest.approx((auc_a - auc_b - half, auc_a - auc_b + half))


def test_delong_same_scores_give_no_difference():
    y = np.array([0, 0, 1, 1, 0, 1])
    s = np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    with pytest.warns(UndefinedMetricWarning, match=r"DeLong is undefined: the two models' placements are identical"):
        res = delong(y, s, s)
    assert res.effect.value == 0 and math.isnan(res.statistic) and math.isnan(res.pvalue)


def test_delong_sentence_reports_both_aucs():
    rng = np.random.default_rng(5)
    y = rng.random(400) < 0.3
    res = delong(y, y * 1.5 + rng.normal(size=400), y * 0.5 + rng.normal(size=400), names=("GBM", "LogReg"))
    assert res.sentence.startswith("GBM's ROC AUC (")
    assert "is higher than LogReg's (" in res.sentence and "(DeLong p < 0.001)" in res.sentence


def test_delong_needs_both_classes():
    with pytest.raises(AssessError, match=r"DeLong needs at least 2 positives and 2 negatives in `y_true` \(got 0 "
                                          r"positives, 4 negatives\)"):
        delong([0, 0, 0, 0], [1, 2, 3, 4], [4, 3, 2, 1])
    with pytest.raises(AssessError, match=r"`y_true` and `score_b` must be paired, one value per sample \(got 4 and "
                                          r"3 values\)"):
        delong([0, 1, 0, 1], [1, 2, 3, 4], [4, 3, 2])


# ---------------------------------------------------------------------------------------------- paired bootstrap


def correctness_data(seed, n=300, acc_a=0.8, acc_b=0.8):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < acc_a, y, 1 - y)
    b = np.where(rng.random(n) < acc_b, y, 1 - y)
    return y, a, b


def test_paired_bootstrap_is_reproducible_and_seeded():
    y, a, b = correctness_data(1)
    r1 = paired_bootstrap(y, a, b, metric=accuracy, n_resamples=300, seed=7)
    r2 = paired_bootstrap(y, a, b, metric=accuracy, n_resamples=300, seed=7)
    r3 = paired_bootstrap(y, a, b, metric=accuracy, n_resamples=300, seed=8)
    assert r1 == r2
    assert (r1.effect.interval.low, r1.effect.interval.high) != (r3.effect.interval.low, r3.effect.interval.high)
    assert r1.details.seed == 7


def test_vectorized_path_gives_the_same_numbers():
    y, a, b = correctness_data(2)
    loop = paired_bootstrap(y, a, b, metric=accuracy, n_resamples=500, seed=3)
    vec = paired_bootstrap(y, a, b, metric=accuracy_rows, n_resamples=500, seed=3, vectorized=True)
    assert vec.statistic == pytest.approx(loop.statistic)
    assert vec.pvalue == pytest.approx(loop.pvalue)
    assert (vec.effect.interval.low, vec.effect.interval.high) == pytest.approx((loop.effect.interval.low,
                                                                                loop.effect.interval.high))


def test_each_replicate_sees_count_weights_times_sample_weights():
    y, a, b = correctness_data(3, n=40)
    w = np.random.default_rng(0).uniform(0.5, 2.0, 40)
    seen = []

    def spy(y_true, y_pred, sample_weight=None):
        seen.append(None if sample_weight is None else np.array(sample_weight))
        return accuracy(y_true, y_pred, sample_weight)
    paired_bootstrap(y, a, b, metric=spy, n_resamples=20, sample_weight=w)
    assert np.array_equal(seen[0], w) and np.array_equal(seen[1], w)   # the observed difference
    for weights in seen[2:]:
        counts = weights / w
        assert np.allclose(counts, np.round(counts)) and round(counts.sum()) == 40 and (counts >= 0).all()
    assert len(seen) == 2 + 2 * 20


def test_paired_bootstrap_without_any_difference():
    y, a, _ = correctness_data(4)
    res = paired_bootstrap(y, a, a.copy(), metric=accuracy, n_resamples=200)
    assert res.statistic == 0 and res.pvalue == 1.0
    assert (res.effect.interval.low, res.effect.interval.high) == (0.0, 0.0)


def test_paired_bootstrap_smallest_pvalue_is_one_over_b_plus_one():
    y = np.array([0, 1] * 25)
    res = paired_bootstrap(y, y, 1 - y, metric=accuracy, n_resamples=999)
    assert res.statistic == 1.0
    assert res.pvalue == pytest.approx(1 / 1000)


def test_paired_bootstrap_agrees_with_the_normal_approximation_for_accuracy():
    # For an accuracy difference the bootstrap distribution is close to normal with variance
    # ((b + c)/n - d^2)/n (b, c the discordant counts); the percentile interval and the shift p-value must be close
    # to the corresponding Wald numbers on 2,000 samples.
    y, a, b = correctness_data(5, n=2000, acc_a=0.82, acc_b=0.79)
    ca, cb = a == y, b == y
    n10, n01, n = np.sum(ca & ~cb), np.sum(~ca & cb), 2000
    d = (n10 - n01) / n
    se = math.sqrt(((n10 + n01) / n - d * d) / n)
    res = paired_bootstrap(y, a, b, metric=accuracy_rows, n_resamples=4000, vectorized=True, seed=11)
    assert res.statistic == pytest.approx(d)
    assert res.effect.interval.low == pytest.approx(d - 1.96 * se, abs=0.15 * se)
    assert res.effect.interval.high == pytest.approx(d + 1.96 * se, abs=0.15 * se)
    assert res.pvalue == pytest.approx(2 * sps.norm.sf(abs(d) / se), abs=0.01)


def test_paired_bootstrap_counts_undefined_resamples():
    y = np.array([1] + [0] * 19)
    s = np.linspace(0, 1, 20)

    def auc(y_true, score, sample_weight=None):
        keep = np.ones(len(y_true), bool) if sample_weight is None else sample_weight > 0
        sample_weight = np.ones(len(y_true)) if sample_weight is None else sample_weight
        if len(set(y_true[keep])) < 2:
            return math.nan
        return roc_auc_score(y_true[keep], score[keep], sample_weight=sample_weight[keep])
    res = paired_bootstrap(y, s, s[::-1], metric=auc, n_resamples=200)
    assert 0 < res.details.n_invalid < 200
    met = {x.name: x.met for x in res.assumptions}
    assert met["metric defined on every resample"] is False


def test_paired_bootstrap_rejects_bad_input():
    y, a, b = correctness_data(6, n=10)
    with pytest.raises(AssessError, match=r"`metric` must be a callable f\(y_true, y, sample_weight=None\) "
                                          r"\(got 'accuracy'\)"):
        paired_bootstrap(y, a, b, metric="accuracy")
    with pytest.raises(AssessError, match=r"`pred_b` must have one row per sample of `y_true` \(10\) "
                                          r"\(got shape \(9,\)\)"):
        paired_bootstrap(y, a, b[:9], metric=accuracy)
    with pytest.raises(AssessError, match=r"`n_resamples` must be a positive whole number \(got 0\)"):
        paired_bootstrap(y, a, b, metric=accuracy, n_resamples=0)
    with pytest.raises(AssessError, match=r"a vectorized `metric` must return one value per replicate"):
        paired_bootstrap(y, a, b, metric=lambda yt, yp, sample_weight=None: np.ones(3), vectorized=True,
                         n_resamples=10)


# -------------------------------------------------------------------------------------------- Diebold–Mariano


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(5, 200), st.sampled_from(["squared", "absolute"]),
       st.sampled_from(["two-sided", "less", "greater"]))
def test_dm_at_horizon_one_is_the_paired_t_test_of_the_losses(seed, n, loss, alternative):
    # With h = 1 the HLN factor sqrt((n - 1)/n) turns the 1/n variance into the 1/(n - 1) one, so DM* equals the
    # paired t statistic of the losses, on n - 1 df (Harvey, Leybourne & Newbold 1997).
    rng = np.random.default_rng(seed)
    y = rng.normal(size=n)
    fa, fb = y + rng.normal(0, 1, n), y + rng.normal(0, 1.2, n)
    la, lb = ((y - fa) ** 2, (y - fb) ** 2) if loss == "squared" else (abs(y - fa), abs(y - fb))
    res = diebold_mariano(y, fa, fb, loss=loss, alternative=alternative)
    ref = sps.ttest_rel(la, lb, alternative=alternative)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-9)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-8, abs=1e-300)
    assert res.df == n - 1


def test_dm_formula_at_horizon_three():
    rng = np.random.default_rng(9)
    n, h = 80, 3
    y = rng.normal(size=n)
    ea, eb = rng.normal(size=n + 2), rng.normal(size=n + 2)
    fa, fb = y - (ea[2:] + ea[1:-1] + ea[:-2]), y - 1.1 * (eb[2:] + eb[1:-1] + eb[:-2])   # MA(2) errors
    d = (y - fa) ** 2 - (y - fb) ** 2
    c = d - d.mean()
    gamma = [c @ c / n] + [c[k:] @ c[:-k] / n for k in (1, 2)]
    lrv = gamma[0] + 2 * (gamma[1] + gamma[2])
    assert lrv > 0
    dm = d.mean() / math.sqrt(lrv / n)
    dm_star = dm * math.sqrt((n + 1 - 2 * h + h * (h - 1) / n) / n)
    res = diebold_mariano(y, fa, fb, h=h)
    assert res.statistic == pytest.approx(dm_star, rel=1e-10)
    assert res.pvalue == pytest.approx(2 * sps.t.sf(abs(dm_star), n - 1), rel=1e-9)
    plain = diebold_mariano(y, fa, fb, h=h, harvey_correction=False)
    assert plain.statistic == pytest.approx(dm, rel=1e-10)
    assert plain.pvalue == pytest.approx(2 * sps.norm.sf(abs(dm)), rel=1e-9)
    assert plain.df is None
    # the names as the literature writes them, with en dashes (the report had both spellings on one page)
    assert res.method == "Diebold–Mariano with Harvey–Leybourne–Newbold correction"
    assert plain.method == "Diebold–Mariano"


def test_dm_falls_back_to_horizon_one_when_the_variance_is_not_positive():
    y = np.zeros(40)
    fa = np.tile([1.0, 0.0], 20)        # losses 1, 0, 1, 0 ... : lag-1 autocovariance about -gamma_0
    fb = np.full(40, 0.6)
    res = diebold_mariano(y, fa, fb, h=2)
    assert res.details.h_used == 1
    met = {x.name: x.met for x in res.assumptions}
    assert met["variance estimate positive at horizon h"] is False
    assert res.statistic == pytest.approx(diebold_mariano(y, fa, fb, h=1).statistic)


def test_dm_rejects_bad_horizon_and_loss():
    y = np.arange(5.0)
    with pytest.raises(AssessError, match=r"Diebold–Mariano needs more than h = 5 forecasts and at least 3 \(got 5\)"):
        diebold_mariano(y, y, y, h=5)
    with pytest.raises(AssessError, match=r"`h` must be a whole number ≥ 1 \(got 0\)"):
        diebold_mariano(y, y, y, h=0)
    with pytest.raises(AssessError, match=r"`loss` must be one of 'squared', 'absolute' \(got 'mape'\)"):
        diebold_mariano(y, y, y, loss="mape")
