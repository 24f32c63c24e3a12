"""Fold tests: paired t, Wilcoxon, ANOVA, Kruskal–Wallis, Friedman + Nemenyi, corrected resampled t, 5×2cv t."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from assess.core.errors import AssessError
from assess.core.warnings import UndefinedMetricWarning
from assess.stats import (anova, corrected_resampled_t, cv_5x2_t, friedman, kruskal, nemenyi, nemenyi_q, paired_t,
                          wilcoxon)

SETTINGS = settings(max_examples=50, deadline=None)
ALTERNATIVES = st.sampled_from(["two-sided", "less", "greater"])

# R's `sleep` data: Cushny & Peebles (1905), extra hours of sleep of 10 patients under two drugs.
SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]


def pairs(seed, n):
    rng = np.random.default_rng(seed)
    a = rng.normal(0.8, 0.05, n)
    return a, a + rng.normal(rng.uniform(-0.03, 0.03), 0.02, n)


# ------------------------------------------------------------------------------------------------------ paired t


def test_paired_t_r_sleep_example():
    # R: t.test(extra ~ group, data = sleep, paired = TRUE)
    # t = -4.0621, df = 9, p-value = 0.002833; 95 percent CI -2.4598858 -0.7001142; mean difference -1.58
    res = paired_t(SLEEP_1, SLEEP_2)
    assert res.statistic == pytest.approx(-4.0621, abs=5e-5)
    assert res.df == 9
    assert res.pvalue == pytest.approx(0.002833, abs=5e-7)
    assert res.effect.value == pytest.approx(-1.58)
    assert (res.effect.interval.low, res.effect.interval.high) == pytest.approx((-2.4598858, -0.7001142), abs=5e-8)


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(2, 40), ALTERNATIVES)
def test_paired_t_matches_scipy(seed, n, alternative):
    a, b = pairs(seed, n)
    res = paired_t(a, b, alternative=alternative, confidence_level=0.9)
    ref = sps.ttest_rel(a, b, alternative=alternative)
    ci = ref.confidence_interval(0.9)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-8, abs=1e-300)
    assert res.df == ref.df
    assert (res.effect.interval.low, res.effect.interval.high) == pytest.approx((ci.low, ci.high), rel=1e-9)


def test_paired_t_sentence():
    res = paired_t([0.81, 0.79, 0.84, 0.80], [0.78, 0.77, 0.80, 0.79], names=("A", "B"), metric="accuracy",
                   unit="folds")
    assert res.sentence == ("Across 4 folds, A's accuracy is higher than B's by 0.0250 (mean difference; 95% CI "
                            "0.00446 to 0.0455); the difference is significant at the 5% level (paired t-test "
                            "p = 0.03).")


def test_paired_t_normality_assumption_uses_shapiro():
    a = np.arange(12.0)
    b = a - np.array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9.0])   # one huge difference
    normal = next(x for x in paired_t(a, b).assumptions if x.name == "normal differences")
    assert normal.met is False
    # SciPy: shapiro([0] * 11 + [9]).pvalue ≈ 1.2e-06; it reads as every p-value does (was "p = 1.2e-06")
    assert normal.detail == "Shapiro–Wilk on the 12 differences: p < 0.001"


def test_paired_t_rejects_bad_input():
    with pytest.raises(AssessError, match=r"`a` and `b` must be paired, one value per sample \(got 3 and 2 values\)"):
        paired_t([1, 2, 3], [1, 2])
    with pytest.raises(AssessError, match=r"the paired t-test needs at least 2 pairs \(got 1\)"):
        paired_t([1], [2])
    with pytest.raises(AssessError, match=r"`b` has 1 non-finite value \(first at index 1: nan\)"):
        paired_t([1, 2], [1, float("nan")])
    with pytest.raises(AssessError, match=r"`confidence_level` must be in \(0, 1\) \(got 1.5\)"):
        paired_t([1, 2], [2, 1], confidence_level=1.5)


# ------------------------------------------------------------------------------------------------------ Wilcoxon


def test_wilcoxon_r_depression_example():
    # R ?wilcox.test (Hollander & Wolfe 1973, p. 29): wilcox.test(x, y, paired = TRUE, alternative = "greater")
    # V = 40, p-value = 0.01953
    x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]
    y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]
    res = wilcoxon(x, y, alternative="greater")
    assert res.statistic == 40
    assert res.pvalue == pytest.approx(0.01953, abs=5e-6)


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(6, 70), ALTERNATIVES,
       st.sampled_from(["wilcox", "pratt", "zsplit"]), st.booleans())
def test_wilcoxon_matches_scipy(seed, n, alternative, zero_method, ties):
    a, b = pairs(seed, n)
    if ties and n > 13:   # with ties SciPy runs a 2^n permutation test below 14 pairs: too slow for 50 examples
        a, b = np.round(a, 2), np.round(b, 2)
    assume(not np.all(a == b))
    res = wilcoxon(a, b, alternative=alternative, zero_method=zero_method)
    ref = sps.wilcoxon(a, b, alternative=alternative, zero_method=zero_method)
    assert res.statistic == pytest.approx(ref.statistic)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(6, 14))
def test_hodges_lehmann_interval_is_the_inverted_exact_test(seed, n):
    # The distribution-free interval holds exactly the shifts mu that the exact two-sided signed-rank test of
    # d - mu does not reject at 5 % (Hollander & Wolfe 3.2); checked with SciPy's exact test between Walsh averages.
    rng = np.random.default_rng(seed)
    d = rng.normal(0.3, 1.0, n)
    res = wilcoxon(d, np.zeros(n))
    walsh = np.sort([(d[i] + d[j]) / 2 for i in range(n) for j in range(i, n)])
    assert res.effect.value == pytest.approx(np.median(walsh))
    for mu in (walsh[:-1] + walsh[1:]) / 2:
        p = sps.wilcoxon(d - mu, method="exact").pvalue
        inside = res.effect.interval.low < mu < res.effect.interval.high
        assert inside == (p > 0.05), (mu, p, res.effect)


def test_wilcoxon_needs_six_nonzero_differences_for_5_percent():
    met = {a.name: a.met for a in wilcoxon([1, 2, 3, 4, 5], [0, 0, 0, 0, 0]).assumptions}
    assert met["at least 6 non-zero differences"] is False
    assert wilcoxon([1, 2, 3, 4, 5], [0, 0, 0, 0, 0]).pvalue == pytest.approx(0.0625)


def test_wilcoxon_identical_models_give_no_test():
    with pytest.warns(UndefinedMetricWarning, match="the Wilcoxon test is undefined: every difference is zero"):
        res = wilcoxon([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    assert math.isnan(res.pvalue)
    assert "score the same on all 3 pairs" in res.sentence


# ---------------------------------------------------------------------------------------- ANOVA, Kruskal–Wallis


def groups(seed, k):
    rng = np.random.default_rng(seed)
    return [rng.normal(rng.uniform(0, 1), 1, rng.integers(2, 15)) for _ in range(k)]


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(2, 6))
def test_anova_matches_scipy(seed, k):
    g = groups(seed, k)
    res = anova(*g)
    ref = sps.f_oneway(*g)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-8, abs=1e-300)
    assert res.df == (k - 1, sum(len(x) for x in g) - k)


def test_eta_squared_interval_inverts_the_noncentral_f():
    # Steiger (2004): the bounds are the noncentralities whose F cdf at the observed F is 0.975 and 0.025
    g = [np.array([1.0, 2, 3, 4, 5]), np.array([3.0, 4, 5, 6, 7]), np.array([6.0, 8, 7, 9, 10])]
    res = anova(*g)
    df1, df2 = res.df
    pooled = np.concatenate(g)
    ss_t = ((pooled - pooled.mean()) ** 2).sum()
    ss_b = sum(len(x) * (x.mean() - pooled.mean()) ** 2 for x in g)
    assert res.effect.value == pytest.approx(ss_b / ss_t)
    lam_lo = res.effect.interval.low * df2 / (1 - res.effect.interval.low)
    lam_hi = res.effect.interval.high * df2 / (1 - res.effect.interval.high)
    assert sps.ncf.cdf(res.statistic, df1, df2, lam_lo) == pytest.approx(0.975, abs=1e-6)
    assert sps.ncf.cdf(res.statistic, df1, df2, lam_hi) == pytest.approx(0.025, abs=1e-6)
    # a weaker effect: even λ = 0 puts less than 0.975 below the observed F, so the interval starts at 0
    g[2] = np.array([4.0, 6, 5, 7, 8])
    weak = anova(*g)
    assert sps.f.cdf(weak.statistic, df1, df2) < 0.975
    assert weak.effect.interval.low == 0.0 and weak.effect.interval.high > weak.effect.value


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(2, 6))
def test_kruskal_matches_scipy(seed, k):
    g = [np.round(x, 1) for x in groups(seed, k)]
    res = kruskal(*g)
    ref = sps.kruskal(*g)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-8, abs=1e-300)
    assert res.effect.value == pytest.approx(ref.statistic / (sum(len(x) for x in g) - 1))


def test_anova_rejects_small_groups():
    with pytest.raises(AssessError, match=r"ANOVA needs at least 2 groups \(got 1\)"):
        anova([1, 2, 3])
    with pytest.raises(AssessError, match=r"ANOVA needs at least 2 values per group; group 1 has 1"):
        anova([1, 2, 3], [4])


# --------------------------------------------------------------------------------------------- Friedman, Nemenyi


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(2, 20), st.integers(3, 7))
def test_friedman_matches_scipy_with_ties(seed, n, k):
    x = np.random.default_rng(seed).integers(0, 4, size=(n, k)).astype(float)
    assume(not all(len(set(row)) == 1 for row in x))
    res = friedman(x)
    ref = sps.friedmanchisquare(*x.T)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-8, abs=1e-300)


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(3, 20), st.integers(3, 7))
def test_iman_davenport_from_the_friedman_statistic(seed, n, k):
    x = np.random.default_rng(seed).normal(size=(n, k))
    chi2 = sps.friedmanchisquare(*x.T).statistic
    assume(chi2 != n * (k - 1))   # every fold ranking the models alike makes F_F infinite
    ff = (n - 1) * chi2 / (n * (k - 1) - chi2)   # Demšar (2006) eq. after (2)
    res = friedman(x, method="iman_davenport")
    assert res.statistic == pytest.approx(ff, rel=1e-10)
    assert res.df == (k - 1, (k - 1) * (n - 1))
    assert res.pvalue == pytest.approx(sps.f.sf(ff, k - 1, (k - 1) * (n - 1)), rel=1e-8)


@pytest.mark.parametrize("k, q", list(zip(range(2, 11), [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102,
                                                          3.164])))
def test_nemenyi_critical_values_demsar_table_5a(k, q):
    # Demšar (2006), JMLR 7:1-30, Table 5(a): critical values q_0.05 of the two-tailed Nemenyi test, printed with
    # three decimals (truncated, e.g. 2.3437 -> 2.343), hence the tolerance of one unit in the last place.
    assert nemenyi_q(k, 0.05) == pytest.approx(q, abs=1e-3)


def test_critical_difference_demsar_example():
    # Demšar (2006) §3.2.4: four classifiers on 14 data sets, CD = 2.569 * sqrt(4*5 / (6*14)) = 1.25.
    x = np.random.default_rng(0).normal(size=(14, 4))
    assert friedman(x).details.critical_difference == pytest.approx(1.25, abs=5e-3)
    assert nemenyi(x).critical_difference == pytest.approx(1.25, abs=5e-3)


def test_friedman_average_ranks_rank_the_best_first():
    x = pd.DataFrame({"good": [0.9, 0.8, 0.95, 0.9], "mid": [0.8, 0.7, 0.9, 0.85], "bad": [0.7, 0.75, 0.6, 0.8]})
    res = friedman(x)
    assert res.details.average_ranks == {"good": 1.0, "mid": 2.25, "bad": 2.75}
    assert list(res.details.average_ranks) == ["good", "mid", "bad"]
    low = friedman(x, higher_is_better=False).details.average_ranks
    assert low == {"bad": 1.25, "mid": 1.75, "good": 3.0}


def test_nemenyi_pvalues_agree_with_the_critical_difference():
    x = np.random.default_rng(3).normal(size=(30, 5)) + np.array([0, 0.2, 0.4, 0.6, 0.8])
    res = nemenyi(x, names=list("ABCDE"))
    diff = np.abs(res.average_ranks.to_numpy()[:, None] - res.average_ranks.to_numpy()[None, :])
    sig = res.significant()
    for a in "ABCDE":
        for b in "ABCDE":
            if a != b:
                assert (res.pvalues.loc[a, b] < 0.05) == sig.loc[a, b]
    assert diff.max() > res.critical_difference   # the data make at least one pair significant
    assert list(res.to_frame().columns) == ["model_a", "model_b", "rank_difference", "critical_difference",
                                            "pvalue", "significant"]


def test_friedman_rejects_one_fold():
    with pytest.raises(AssessError, match=r"Friedman needs at least 2 folds, rows of `table` \(got 1\)"):
        friedman(np.ones((1, 3)))
    with pytest.raises(AssessError, match=r"`method` must be one of 'chi2', 'iman_davenport' \(got 'F'\)"):
        friedman(np.ones((3, 3)), method="F")


# ------------------------------------------------------------------------------ corrected resampled t, 5×2cv t


def test_corrected_resampled_t_formula():
    # Nadeau & Bengio (2003): t = mean(d) / sqrt((1/J + n2/n1) * var(d)), J - 1 df; default n2/n1 = 1/(k-1).
    a = np.array([0.81, 0.83, 0.80, 0.85, 0.82, 0.79, 0.84, 0.83, 0.81, 0.80])
    b = np.array([0.80, 0.80, 0.79, 0.83, 0.82, 0.78, 0.81, 0.82, 0.80, 0.81])
    d = a - b
    t = d.mean() / math.sqrt((1 / 10 + 1 / 9) * d.var(ddof=1))
    res = corrected_resampled_t(a, b)
    assert res.statistic == pytest.approx(t, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * sps.t.sf(abs(t), 9), rel=1e-10)
    assert res.details.test_train_ratio == pytest.approx(1 / 9)
    # 2 repeats of 5-fold: J = 10, n2/n1 = 1/4
    t5 = d.mean() / math.sqrt((1 / 10 + 1 / 4) * d.var(ddof=1))
    assert corrected_resampled_t(a, b, n_folds=5).statistic == pytest.approx(t5, rel=1e-12)
    assert corrected_resampled_t(a, b, test_train_ratio=0.25).statistic == pytest.approx(t5, rel=1e-12)


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(3, 30), ALTERNATIVES)
def test_corrected_t_tends_to_the_paired_t_as_the_ratio_vanishes(seed, n, alternative):
    a, b = pairs(seed, n)
    res = corrected_resampled_t(a, b, test_train_ratio=1e-15, alternative=alternative)
    ref = sps.ttest_rel(a, b, alternative=alternative)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-9)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-7, abs=1e-300)


def test_corrected_t_rejects_bad_ratio():
    with pytest.raises(AssessError, match=r"`test_train_ratio` must be a positive number \(got -1\)"):
        corrected_resampled_t([1, 2, 3], [1, 2, 4], test_train_ratio=-1)
    with pytest.raises(AssessError, match=r"`n_folds` must be a whole number ≥ 2 \(got 1\)"):
        corrected_resampled_t([1, 2, 3], [1, 2, 4], n_folds=1)


def test_cv_5x2_t_formula():
    # Dietterich (1998): t = p_1^(1) / sqrt(1/5 * sum_i s_i^2), s_i^2 = sum_j (p_i^(j) - mean_i)^2, 5 df.
    p = np.array([[0.02, 0.01], [0.03, -0.01], [0.00, 0.02], [0.01, 0.01], [0.04, 0.00]])
    s2 = [(0.02 - 0.015) ** 2 + (0.01 - 0.015) ** 2, (0.03 - 0.01) ** 2 + (-0.01 - 0.01) ** 2,
          (0.00 - 0.01) ** 2 + (0.02 - 0.01) ** 2, 0.0, (0.04 - 0.02) ** 2 + (0.00 - 0.02) ** 2]
    t = 0.02 / math.sqrt(sum(s2) / 5)
    res = cv_5x2_t(p)
    assert res.statistic == pytest.approx(t, rel=1e-12)
    assert res.df == 5
    assert res.pvalue == pytest.approx(2 * sps.t.sf(t, 5), rel=1e-10)
    assert res.effect.value == pytest.approx(p.mean())


def test_cv_5x2_t_rejects_other_shapes():
    with pytest.raises(AssessError, match=r"needs a 5 × 2 table of differences .* \(got shape \(3, 2\)\)"):
        cv_5x2_t(np.zeros((3, 2)))
