"""McNemar, Cochran's Q, chi-squared, Fisher's exact and the CLT error-rate interval (assess.stats.counts)."""

import math

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from scipy import stats as sps
from statsmodels.stats.contingency_tables import cochrans_q as sm_cochrans_q
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from assess.core.errors import AssessError
from assess.core.warnings import UndefinedMetricWarning
from assess.stats import (chi2_goodness_of_fit, chi2_independence, cochran_q, error_rate_ci, fisher_exact, mcnemar)

SETTINGS = settings(max_examples=60, deadline=None)


def paired_vectors(n11, n10, n01, n00):
    """Correctness vectors with the given 2 × 2 counts (A right/B right, A right/B wrong, ...)."""
    a = np.array([1] * n11 + [1] * n10 + [0] * n01 + [0] * n00, dtype=bool)
    b = np.array([1] * n11 + [0] * n10 + [1] * n01 + [0] * n00, dtype=bool)
    return a, b


# ------------------------------------------------------------------------------------------------------ McNemar

counts4 = st.tuples(*[st.integers(0, 60)] * 4).filter(lambda c: c[1] + c[2] > 0)


@SETTINGS
@given(counts4)
def test_mcnemar_exact_matches_statsmodels(c):
    a, b = paired_vectors(*c)
    res = mcnemar(a, b, method="exact")
    ref = sm_mcnemar([[c[0], c[1]], [c[2], c[3]]], exact=True)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-12)
    assert res.details.n10 == c[1] and res.details.n01 == c[2]


@SETTINGS
@given(counts4, st.booleans())
def test_mcnemar_chi2_matches_statsmodels(c, continuity):
    # statsmodels computes (|b - c| - 1)^2 even when b == c, giving a positive statistic for no difference; ours
    # caps the corrected numerator at 0 (documented), so equal discordant counts are checked separately below.
    assume(not (continuity and c[1] == c[2]))
    a, b = paired_vectors(*c)
    res = mcnemar(a, b, method="asymptotic", continuity=continuity)
    ref = sm_mcnemar([[c[0], c[1]], [c[2], c[3]]], exact=False, correction=continuity)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-14)
    assert res.df == 1.0


def test_mcnemar_continuity_never_inflates_a_tie():
    a, b = paired_vectors(10, 4, 4, 10)
    res = mcnemar(a, b, method="asymptotic", continuity=True)
    assert res.statistic == 0.0 and res.pvalue == 1.0


def test_mcnemar_fagerland_2013_worked_example():
    # Fagerland, Lydersen & Laake (2013), BMC Med Res Methodol 13:91, the airway hyper-responsiveness example
    # (Bentur et al.): n11 = 1, n12 = 1, n21 = 7, n22 = 12. Published: asymptotic McNemar p = 0.034,
    # exact conditional p = 0.070, mid-p = 0.039.
    a, b = paired_vectors(1, 1, 7, 12)
    assert mcnemar(a, b, method="asymptotic", continuity=False).pvalue == pytest.approx(0.034, abs=5e-4)
    assert mcnemar(a, b, method="exact").pvalue == pytest.approx(0.070, abs=5e-4)
    assert mcnemar(a, b, method="midp").pvalue == pytest.approx(0.039, abs=5e-4)


@SETTINGS
@given(counts4)
def test_mcnemar_one_sided_exact_is_the_binomial_tail(c):
    a, b = paired_vectors(*c)
    m = c[1] + c[2]
    greater = mcnemar(a, b, method="exact", alternative="greater").pvalue
    less = mcnemar(a, b, method="exact", alternative="less").pvalue
    assert greater == pytest.approx(sps.binomtest(c[1], m, 0.5, alternative="greater").pvalue, rel=1e-9)
    assert less == pytest.approx(sps.binomtest(c[1], m, 0.5, alternative="less").pvalue, rel=1e-9)


@SETTINGS
@given(counts4)
def test_mcnemar_midp_is_exact_minus_half_the_point_probability(c):
    a, b = paired_vectors(*c)
    m, lo = c[1] + c[2], min(c[1], c[2])
    expected = min(1.0, 2 * (sps.binom.cdf(lo, m, 0.5) - 0.5 * sps.binom.pmf(lo, m, 0.5)))
    assert mcnemar(a, b, method="midp").pvalue == pytest.approx(expected, rel=1e-9, abs=1e-14)
    assert mcnemar(a, b, method="midp").pvalue <= mcnemar(a, b, method="exact").pvalue + 1e-15


def test_mcnemar_effect_is_accuracy_difference_with_bonett_price_interval():
    a, b = paired_vectors(40, 12, 3, 45)  # n = 100
    eff = mcnemar(a, b).effect
    assert eff.value == pytest.approx((12 - 3) / 100)
    p10, p01 = 13 / 102, 4 / 102   # (n_ij + 1) / (n + 2)
    d = p10 - p01
    half = 1.959963984540054 * math.sqrt((p10 + p01 - d * d) / 102)
    assert (eff.interval.low, eff.interval.high) == pytest.approx((d - half, d + half), rel=1e-12)


def test_mcnemar_sentence_names_the_better_model_and_the_count():
    a, b = paired_vectors(4000, 3, 15, 982)
    res = mcnemar(a, b, names=("Model A", "Model B"))
    assert res.sentence.startswith("Model B is right on 12 more cases than Model A out of 5,000; ")
    assert "significant at the 5% level (McNemar exact p = 0.0075)" in res.sentence


def test_mcnemar_assumption_of_25_discordant_pairs():
    a, b = paired_vectors(50, 10, 5, 50)
    met = {x.name: x.met for x in mcnemar(a, b, method="asymptotic").assumptions}
    assert met["at least 25 discordant pairs"] is False
    a, b = paired_vectors(50, 20, 10, 50)
    met = {x.name: x.met for x in mcnemar(a, b, method="asymptotic").assumptions}
    assert met["at least 25 discordant pairs"] is True


def test_mcnemar_rejects_bad_input():
    with pytest.raises(AssessError, match=r"`method` must be one of 'exact', 'asymptotic', 'midp' \(got 'chi2'\)"):
        mcnemar([1, 0], [0, 1], method="chi2")
    with pytest.raises(AssessError, match=r"`correct_a` and `correct_b` must be paired.*\(got 3 and 2 values\)"):
        mcnemar([1, 0, 1], [0, 1])
    with pytest.raises(AssessError, match=r"`correct_b` must hold booleans or 0/1; 1 value is not \(first at "
                                          r"index 1: 2\)"):
        mcnemar([1, 0], [0, 2])
    with pytest.raises(AssessError, match=r"`alternative` must be one of .* \(got 'both'\)"):
        mcnemar([1, 0], [0, 1], alternative="both")


# -------------------------------------------------------------------------------------------------- Cochran's Q


@SETTINGS
@example(5, 2, 23)      # every row all right or all wrong: [[0, 0], [1, 1], [0, 0], [1, 1], [0, 0]]
@given(st.integers(5, 80), st.integers(2, 6), st.integers(0, 2**32 - 1))
def test_cochran_q_matches_statsmodels(n, k, seed):
    rng = np.random.default_rng(seed)
    x = rng.random((n, k)) < rng.uniform(0.2, 0.8, size=k)
    informative = ((x.sum(1) > 0) & (x.sum(1) < k)).any()
    if not informative:
        with pytest.warns(UndefinedMetricWarning, match="Cochran's Q is undefined"):
            assert math.isnan(cochran_q(x).statistic)
    else:
        res = cochran_q(x)
        ref = sm_cochrans_q(x.astype(int))
        assert res.statistic == pytest.approx(ref.statistic, rel=1e-10)
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-8, abs=1e-14)
        assert res.df == ref.df


def test_cochran_q_with_two_models_is_uncorrected_mcnemar():
    a, b = paired_vectors(30, 9, 3, 20)
    q = cochran_q(np.column_stack([a, b]))
    m = mcnemar(a, b, method="asymptotic", continuity=False)
    assert q.statistic == pytest.approx(m.statistic) and q.pvalue == pytest.approx(m.pvalue)


def test_cochran_q_rejects_one_model():
    with pytest.raises(AssessError, match=r"Cochran's Q needs at least 2 models \(got 1\)"):
        cochran_q(np.ones((5, 1)))
    with pytest.raises(AssessError, match=r"`correct` must be a 2-D \(samples × models\) matrix \(got shape \(5,\)\)"):
        cochran_q(np.ones(5))


# --------------------------------------------------------------------------------------------------- chi-squared

tables = st.tuples(st.integers(2, 5), st.integers(2, 3), st.integers(0, 2**32 - 1))


@SETTINGS
@given(tables, st.booleans())
def test_chi2_independence_matches_scipy(shape, correction):
    r, c, seed = shape
    table = np.random.default_rng(seed).integers(1, 60, size=(r, c))
    res = chi2_independence(table, correction=correction)
    ref = sps.chi2_contingency(table, correction=correction)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10, abs=1e-15)
    assert res.df == ref.dof
    np.testing.assert_allclose(res.details.expected, ref.expected_freq)


def test_chi2_is_pearsons_without_yates_unless_asked_and_yates_applies_to_2x2_only():
    table = [[10, 20], [20, 10]]
    assert chi2_independence(table).pvalue == pytest.approx(sps.chi2_contingency(table, correction=False).pvalue)
    assert "Yates" not in chi2_independence(table).method
    assert "Yates" in chi2_independence(table, correction=True).method
    assert "Yates" not in chi2_independence([[10, 20], [20, 10], [15, 15]], correction=True).method


def test_cramers_v_interval_inverts_the_noncentral_chi2():
    res = chi2_independence([[60, 40], [45, 55], [30, 70]], correction=False)
    n, df = 300, 2
    assert res.effect.value == pytest.approx(math.sqrt(res.statistic / n))
    lam_lo, lam_hi = res.effect.interval.low ** 2 * n, res.effect.interval.high ** 2 * n
    assert sps.ncx2.cdf(res.statistic, df, lam_lo) == pytest.approx(0.975, abs=1e-6)
    assert sps.ncx2.cdf(res.statistic, df, lam_hi) == pytest.approx(0.025, abs=1e-6)


def test_chi2_expected_count_assumption():
    met = {a.name: a.met for a in chi2_independence([[2, 8], [5, 5]]).assumptions}
    assert met["expected counts ≥ 5"] is False


def test_chi2_rejects_empty_rows_and_bad_counts():
    with pytest.raises(AssessError, match=r"needs every row and column of `table` to have counts"):
        chi2_independence([[0, 0], [3, 4]])
    with pytest.raises(AssessError, match=r"`table` must hold non-negative whole counts \(cell \[1, 0\] is -3.0\)"):
        chi2_independence([[1, 2], [-3, 4]])
    with pytest.raises(AssessError, match=r"at least 2 rows and 2 columns \(got 1 × 2\)"):
        chi2_independence([[1, 2]])


@SETTINGS
@given(st.lists(st.integers(0, 80), min_size=2, max_size=8).filter(lambda x: sum(x) > 0),
       st.integers(0, 2**32 - 1))
def test_chi2_goodness_of_fit_matches_scipy(obs, seed):
    props = np.random.default_rng(seed).uniform(0.2, 1.0, len(obs))
    res = chi2_goodness_of_fit(obs, expected_proportions=props)
    ref = sps.chisquare(obs, np.sum(obs) * props / props.sum())
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-15)
    uniform = chi2_goodness_of_fit(obs)
    assert uniform.pvalue == pytest.approx(sps.chisquare(obs).pvalue, rel=1e-9, abs=1e-15)


def test_chi2_goodness_of_fit_rejects_mismatched_proportions():
    with pytest.raises(AssessError, match=r"`expected_proportions` must have one value per category \(3\) "
                                          r"\(got shape \(2,\)\)"):
        chi2_goodness_of_fit([1, 2, 3], expected_proportions=[0.5, 0.5])


# ------------------------------------------------------------------------------------------------------- Fisher


@settings(max_examples=150, deadline=None)
@example((0, 3, 0, 4), "two-sided")      # an empty column: the odds ratio is undefined
@given(st.tuples(*[st.integers(0, 40)] * 4), st.sampled_from(["two-sided", "less", "greater"]))
def test_fisher_exact_matches_scipy(c, alternative):
    table = np.array(c).reshape(2, 2)
    res = fisher_exact(table, alternative=alternative)
    ref = sps.fisher_exact(table, alternative=alternative)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    assert res.statistic == pytest.approx(ref.statistic, nan_ok=True) or (
        math.isinf(res.statistic) and math.isinf(ref.statistic))
    if (table.sum(0) == 0).any() or (table.sum(1) == 0).any():
        assert math.isnan(res.effect.value)
    else:
        odds = sps.contingency.odds_ratio(table, kind="conditional")
        ci = odds.confidence_interval(0.95, alternative=alternative)
        ci_got = res.effect.interval
        for got, want in ((res.effect.value, odds.statistic), (ci_got.low, ci.low), (ci_got.high, ci.high)):
            if math.isinf(want) or want == 0:
                assert got == want
            else:
                assert got == pytest.approx(want, rel=1e-6)


def test_fisher_exact_tea_tasting_r_example():
    # R: fisher.test(TeaTasting, alternative = "greater") with TeaTasting = matrix(c(3, 1, 1, 3), 2):
    # p-value = 0.2429, 95 percent confidence interval 0.3135693 Inf, odds ratio 6.408309 (R ?fisher.test).
    res = fisher_exact([[3, 1], [1, 3]], alternative="greater")
    assert res.pvalue == pytest.approx(0.2429, abs=5e-5)
    assert res.effect.interval.low == pytest.approx(0.3135693, rel=1e-4)
    assert res.effect.interval.high == math.inf
    assert res.effect.value == pytest.approx(6.408309, rel=1e-5)
    assert fisher_exact([[3, 1], [1, 3]]).pvalue == pytest.approx(0.4857, abs=5e-5)


def test_fisher_exact_rejects_larger_tables():
    with pytest.raises(AssessError, match=r"Fisher's exact test needs a 2 × 2 table \(got shape \(3, 2\)\)"):
        fisher_exact([[1, 2], [3, 4], [5, 6]])


# ------------------------------------------------------------------------------------------ CLT error-rate interval


def test_error_rate_interval_mitchell_example():
    # Mitchell, Machine Learning (1997) §5.2.2, the example behind Iocchi's slide "Confidence Intervals":
    # n = 40 samples, 12 errors -> error 0.30, 95% interval 0.30 ± 1.96·0.07 = 0.30 ± 0.14.
    res = error_rate_ci(12, 40)
    assert res.effect.value == pytest.approx(0.30)
    assert res.effect.interval.low == pytest.approx(0.30 - 0.14, abs=0.005)
    assert res.effect.interval.high == pytest.approx(0.30 + 0.14, abs=0.005)
    assert math.isnan(res.pvalue)


@pytest.mark.parametrize("level, z", [(0.90, 1.6448536269514722), (0.99, 2.5758293035489004)])
def test_error_rate_interval_formula(level, z):
    e, n = 37 / 250, 250
    res = error_rate_ci(37, 250, confidence_level=level)
    half = z * math.sqrt(e * (1 - e) / n)
    assert (res.effect.interval.low, res.effect.interval.high) == pytest.approx((e - half, e + half), rel=1e-12)


def test_error_rate_wald_test_agrees_with_the_interval():
    res = error_rate_ci(30, 200, null_error=0.2)
    z = (0.15 - 0.2) / math.sqrt(0.15 * 0.85 / 200)
    assert res.statistic == pytest.approx(z)
    assert res.pvalue == pytest.approx(2 * sps.norm.sf(abs(z)))
    assert (res.pvalue < 0.05) == (not res.effect.interval.low <= 0.2 <= res.effect.interval.high)


def test_error_rate_rejects_bad_counts():
    with pytest.raises(AssessError, match=r"`n_errors` must be a whole number between 0 and n=10 \(got 11\)"):
        error_rate_ci(11, 10)
    with pytest.raises(AssessError, match=r"`confidence_level` must be in \(0, 1\) \(got 95\)"):
        error_rate_ci(1, 10, confidence_level=95)
