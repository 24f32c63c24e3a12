"""Type-I error by simulation: under a true null every test rejects at α = 0.05 in 3–7 % of 2,000 simulated data
sets; exact and deliberately conservative tests at most 5 % (and at least 1 %, so a test that never rejects fails).

With 2,000 draws the Monte Carlo standard error of a 5 % rate is 0.49 %, so the 3–7 % band is ±4 standard errors:
a correct test fails it with probability below 1e-4 whatever the seed, while a test with a wrong variance (the naive
paired t on correlated folds below: 15 %) fails it clearly. Data are drawn for all 2,000 sets at once; each test
is then called through its public function on every set.
"""

import numpy as np
import pytest

from assess.stats import (adjust_pvalues, anova, chi2_goodness_of_fit, chi2_independence, cochran_q,
                          corrected_resampled_t, cv_5x2_t, delong, diebold_mariano, error_rate_ci, fisher_exact,
                          friedman, kruskal, mann_whitney, mcnemar, nemenyi, paired_bootstrap, paired_t,
                          unpaired_bootstrap, unpaired_delong, welch_t, wilcoxon)

R = 2000
ALPHA = 0.05


def rate(pvalues) -> float:
    p = np.asarray(list(pvalues), dtype=float)
    assert not np.isnan(p).any()
    return float(np.mean(p < ALPHA))


def near_nominal(r: float) -> None:
    assert 0.03 <= r <= 0.07, f"rejection rate {r:.2%} outside 3-7 %"


def at_most_nominal(r: float) -> None:
    assert 0.01 <= r <= 0.05, f"rejection rate {r:.2%} outside 1-5 %"


def rng(seed):
    return np.random.default_rng(seed)


def test_paired_t():
    g = rng(1)
    a, b = g.normal(size=(R, 10)), g.normal(size=(R, 10))
    near_nominal(rate(paired_t(a[i], b[i]).pvalue for i in range(R)))


def test_wilcoxon_exact_is_at_most_nominal():
    # n = 12 without ties: the exact test's true size is 0.0425 (largest attainable level ≤ 0.05)
    g = rng(2)
    a, b = g.normal(size=(R, 12)), g.normal(size=(R, 12))
    at_most_nominal(rate(wilcoxon(a[i], b[i]).pvalue for i in range(R)))


def test_anova_and_kruskal():
    x = rng(3).normal(size=(R, 3, 8))
    near_nominal(rate(anova(*x[i]).pvalue for i in range(R)))
    near_nominal(rate(kruskal(*x[i]).pvalue for i in range(R)))


def test_friedman_both_methods_and_nemenyi_family_wise():
    x = rng(4).normal(size=(R, 12, 4))   # 12 folds, 4 exchangeable models
    near_nominal(rate(friedman(x[i]).pvalue for i in range(R)))
    near_nominal(rate(friedman(x[i], method="iman_davenport").pvalue for i in range(R)))
    # Nemenyi controls the family-wise error: any of the 6 pairs significant in at most ~5 % of sets
    fwer = rate(np.nanmin(nemenyi(x[i]).pvalues.to_numpy()) for i in range(R))
    assert 0.02 <= fwer <= 0.07


def test_mcnemar_exact_and_midp_and_asymptotic():
    # 300 paired samples, both models right with probability 0.8 independently: about 96 discordant pairs. The
    # true sizes, summed exactly over the binomial distributions, are 3.9 % (exact), 4.9 % (mid-p), 5.0 %
    # (asymptotic) and 3.8 % (asymptotic with continuity correction). McNemar is cheap, so 10,000 sets: the
    # Monte Carlo standard error drops to 0.2 % and the bands sit 5 standard errors from the true sizes.
    sets = 10_000
    g = rng(5)
    a, b = g.random((sets, 300)) < 0.8, g.random((sets, 300)) < 0.8
    at_most_nominal(rate(mcnemar(a[i], b[i], method="exact").pvalue for i in range(sets)))
    near_nominal(rate(mcnemar(a[i], b[i], method="midp").pvalue for i in range(sets)))
    near_nominal(rate(mcnemar(a[i], b[i], method="asymptotic", continuity=False).pvalue for i in range(sets)))
    # Edwards' continuity correction mimics the exact test, so it is conservative like it
    at_most_nominal(rate(mcnemar(a[i], b[i], method="asymptotic", continuity=True).pvalue for i in range(sets)))


def test_cochran_q():
    g = rng(6)
    difficulty = g.uniform(0.3, 0.9, size=(R, 100, 1))   # per-sample difficulty shared by the 3 models
    x = g.random((R, 100, 3)) < difficulty
    near_nominal(rate(cochran_q(x[i]).pvalue for i in range(R)))


def test_chi2_independence_and_goodness_of_fit():
    g = rng(7)
    right = g.binomial(100, 0.7, size=(R, 3))
    near_nominal(rate(chi2_independence(np.column_stack([right[i], 100 - right[i]])).pvalue for i in range(R)))
    two = g.binomial(100, 0.7, size=(R, 2))
    tables = [np.column_stack([two[i], 100 - two[i]]) for i in range(R)]
    near_nominal(rate(chi2_independence(t, correction=False).pvalue for t in tables))
    at_most_nominal(rate(chi2_independence(t, correction=True).pvalue for t in tables))   # Yates: conservative
    props = [0.1, 0.2, 0.3, 0.4]
    counts = g.multinomial(100, props, size=R)
    near_nominal(rate(chi2_goodness_of_fit(counts[i], expected_proportions=props).pvalue for i in range(R)))


def test_fisher_exact_is_at_most_nominal():
    right = rng(8).binomial(40, 0.6, size=(R, 2))
    at_most_nominal(rate(fisher_exact(np.column_stack([right[i], 40 - right[i]])).pvalue for i in range(R)))


def test_error_rate_wald_test():
    # exact size for n = 300, e0 = 0.3 (sum of binomial probabilities of the rejection region): 5.2 %
    errors = rng(9).binomial(300, 0.3, size=R)
    near_nominal(rate(error_rate_ci(int(e), 300, null_error=0.3).pvalue for e in errors))


def test_delong():
    g = rng(10)
    y = g.random((R, 200)) < 0.4
    a, b = y + g.normal(size=(R, 200)), y + g.normal(size=(R, 200))   # equal AUC, independent noise
    near_nominal(rate(delong(y[i], a[i], b[i]).pvalue for i in range(R)))


def test_paired_bootstrap():
    # 200 replicates per set (vectorised accuracy): the p-value's resolution 1/201 is enough to check the level,
    # and keeps 2,000 bootstraps within a second or two.
    g = rng(11)
    y = g.integers(0, 2, size=(R, 200))
    a = np.where(g.random((R, 200)) < 0.75, y, 1 - y)
    b = np.where(g.random((R, 200)) < 0.75, y, 1 - y)

    def accuracy_rows(y_true, y_pred, sample_weight=None):
        return (sample_weight * (y_true == y_pred)).sum(axis=-1) / sample_weight.sum(axis=-1)
    near_nominal(rate(paired_bootstrap(y[i], a[i], b[i], metric=accuracy_rows, vectorized=True, n_resamples=200,
                                       seed=i).pvalue for i in range(R)))


def test_welch_t_with_unequal_variances_and_sizes():
    # the case Welch's df exist for: the small sample has the small variance (the pooled t would reject ~0.5 %)
    g = rng(22)
    a, b = g.normal(0.0, 1.0, size=(R, 12)), g.normal(0.0, 3.0, size=(R, 30))
    near_nominal(rate(welch_t(a[i], b[i]).pvalue for i in range(R)))


def test_mann_whitney():
    # 15 and 20 continuous values: the normal approximation with continuity correction (SciPy's "auto")
    g = rng(23)
    a, b = g.normal(size=(R, 15)), g.normal(size=(R, 20))
    near_nominal(rate(mann_whitney(a[i], b[i]).pvalue for i in range(R)))


def test_unpaired_delong():
    # two independent test sets of different size and prevalence, the same true AUC (binormal, unit shift)
    g = rng(24)
    ya, yb = g.random((R, 150)) < 0.4, g.random((R, 200)) < 0.3
    sa, sb = ya + g.normal(size=(R, 150)), yb + g.normal(size=(R, 200))
    near_nominal(rate(unpaired_delong(ya[i], sa[i], yb[i], sb[i]).pvalue for i in range(R)))


def test_unpaired_bootstrap():
    # 200 replicates per set (vectorised accuracy), as the paired bootstrap above; test sets of 200 and 150
    g = rng(25)
    ya, yb = g.integers(0, 2, size=(R, 200)), g.integers(0, 2, size=(R, 150))
    a = np.where(g.random((R, 200)) < 0.75, ya, 1 - ya)
    b = np.where(g.random((R, 150)) < 0.75, yb, 1 - yb)

    def accuracy_rows(y_true, y_pred, sample_weight=None):
        return (sample_weight * (y_true == y_pred)).sum(axis=-1) / sample_weight.sum(axis=-1)
    near_nominal(rate(unpaired_bootstrap(ya[i], a[i], yb[i], b[i], metric=accuracy_rows, vectorized=True,
                                         n_resamples=200, seed=i).pvalue for i in range(R)))


def test_corrected_resampled_t_on_correlated_folds():
    # Nadeau & Bengio's model of k-fold CV: fold differences share a component, correlation rho = n2/(n1 + n2),
    # which is 0.1 for 10 folds (n2/n1 = 1/9). Then the corrected statistic is exactly t with 9 df.
    g = rng(12)
    rho = 0.1
    d = np.sqrt(rho) * g.normal(size=(R, 1)) + np.sqrt(1 - rho) * g.normal(size=(R, 10))
    zeros = np.zeros(10)
    near_nominal(rate(corrected_resampled_t(d[i], zeros).pvalue for i in range(R)))
    # the naive paired t-test on the same folds is far too liberal: this is why the correction exists
    assert rate(paired_t(d[i], zeros).pvalue for i in range(R)) > 0.10


def test_cv_5x2_t_is_conservative():
    # Under Dietterich's own model (independent normal differences) the statistic is not exactly t5: its
    # numerator p_1^(1) also enters s_1^2, and the true size is 2.8 % (10^6 draws), hence the 1-5 % band.
    d = rng(13).normal(size=(R, 5, 2))
    at_most_nominal(rate(cv_5x2_t(d[i]).pvalue for i in range(R)))


@pytest.mark.parametrize("h", [1, 3])
def test_diebold_mariano(h):
    g = rng(14 + h)
    n = 50 if h == 1 else 100
    ea, eb = g.normal(size=(R, n + h - 1)), g.normal(size=(R, n + h - 1))
    # h-step forecast errors are MA(h-1): sums of h consecutive shocks
    fa = -sum(ea[:, k:k + n] for k in range(h))
    fb = -sum(eb[:, k:k + n] for k in range(h))
    y = np.zeros(n)
    near_nominal(rate(diebold_mariano(y, fa[i], fb[i], h=h).pvalue for i in range(R)))


@pytest.mark.parametrize("method", ["bonferroni", "holm", "fdr_bh"])
def test_corrections_control_the_family_wise_error_under_the_complete_null(method):
    # 10 true nulls per family: FWER = 1 - 0.995^10 = 4.9 % for Bonferroni and Holm; BH controls the FDR, which
    # under the complete null equals the FWER, at 5 %.
    u = rng(20).random((R, 10))
    near_nominal(rate(adjust_pvalues(u[i], method=method).min() for i in range(R)))


def test_benjamini_yekutieli_is_conservative():
    u = rng(21).random((R, 10))
    at_most_nominal(rate(adjust_pvalues(u[i], method="fdr_by").min() for i in range(R)))


def test_diebold_mariano_per_horizon_keeps_its_size_where_h_equal_1_does_not():
    # Rolling origins 0..n-1 forecast 1..3 steps ahead; the h-step error from origin o sums the shocks o+1..o+h of
    # its model, so errors at a horizon are MA(h-1) across origins and the two models are equally good. Each
    # horizon is tested with its own lags (h - 1): at h = 3 it rejects in 3-7 % of 1,000 data sets, and so does the
    # summary pooled by time point (lags up to H - 1 = 2). The same horizon-3 errors tested with h = 1 over-reject
    # (about 18 %): the variance ignores the overlap of consecutive 3-step forecasts.
    from assess.stats.horizons import diebold_mariano_by_horizon
    runs, n, horizons = 1000, 100, (1, 2, 3)
    g = rng(21)
    shocks_a, shocks_b = g.normal(size=(runs, n + 3)), g.normal(size=(runs, n + 3))
    origin = np.repeat(np.arange(n), 3)
    horizon = np.tile(horizons, n).astype(float)
    time = origin + horizon
    step = [np.arange(n) + 1 + k for k in range(3)]

    def errors(shocks):            # (runs, n, 3): column h-1 holds the h-step errors
        return np.stack([sum(shocks[:, step[k]] for k in range(h)) for h in horizons], axis=2)
    ea, eb = errors(shocks_a), errors(shocks_b)
    y = np.zeros(n * 3)
    at_3, pooled, naive = [], [], []
    for i in range(runs):
        res = diebold_mariano_by_horizon(y, -ea[i].ravel(), -eb[i].ravel(), horizon=horizon, time=time)
        at_3.append(res.details.by_horizon[2].pvalue)
        pooled.append(res.pvalue)
        naive.append(diebold_mariano(np.zeros(n), -ea[i, :, 2], -eb[i, :, 2], h=1).pvalue)
    print(f"DM type-I at h = 3: {rate(at_3):.1%}; pooled: {rate(pooled):.1%}; h = 1 on 3-step errors: "
          f"{rate(naive):.1%}")
    near_nominal(rate(at_3))
    near_nominal(rate(pooled))
    assert rate(naive) > 0.10
