"""DeLong intervals of the multi-class ROC AUCs (`assess.intervals.ovr_delong`, `assess.intervals.hand_till_delong`)
and their use by ``evaluate(ci="auto")``.

Oracles: DeLong, DeLong & Clarke-Pearson (1988) written out over all pairs in this file (the placement values as
means of the kernel :math:`\\psi`, their sample variances, and for averages the sum of the row terms of the Hájek
projection — the formula, not the code's cumulative sums); scikit-learn's ``roc_auc_score`` for the values; two
classes with complementary scores, where every average is the binary AUC and its variance the binary DeLong
variance; and seeded coverage simulations against the true AUCs of normal scores,
:math:`A(a|b) = \\Phi((\\mu_{aa} - \\mu_{ba})/\\sqrt2)`.
"""

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

from assess import intervals
from assess.core.data import Predictions, Task
from assess.metrics import evaluate

Z = stats.norm.ppf(0.975)


def psi(pos, neg):
    """DeLong's kernel over all (positive, negative) pairs: 1 above, 1/2 tied."""
    return (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])


def binary_by_definition(positive, score):
    """AUC and DeLong variance S10/m + S01/n from the pairs (DeLong et al. 1988, eq. for one AUC)."""
    p = psi(score[positive], score[~positive])
    v10, v01 = p.mean(axis=1), p.mean(axis=0)
    return p.mean(), v10.var(ddof=1) / v10.size + v01.var(ddof=1) / v01.size


def ovr_rows(y, s):
    """Per class c, every row's centred placement in AUC_c scaled by 1/sqrt(m(m-1)) (positives) or
    1/sqrt(n(n-1)) (negatives): an (n, k) matrix whose column sums of squares are the DeLong variances."""
    n, k = s.shape
    xi, auc = np.zeros((n, k)), np.zeros(k)
    for c in range(k):
        pos = y == c
        p = psi(s[pos, c], s[~pos, c])
        auc[c] = p.mean()
        m, q = pos.sum(), (~pos).sum()
        xi[pos, c] = (p.mean(axis=1) - auc[c]) / np.sqrt(m * (m - 1))
        xi[~pos, c] = (p.mean(axis=0) - auc[c]) / np.sqrt(q * (q - 1))
    return auc, xi


def hand_till_by_definition(y, s):
    """Hand & Till's M and its variance from every pair's placements: row i of class g gets
    sum_b (V10^{g|b}(i) - A(g|b)) + (V01^{b|g}(i) - A(b|g)), scaled by 1/(k(k-1) sqrt(m_g(m_g-1)))."""
    n, k = s.shape
    bracket = np.zeros(n)
    A = np.zeros((k, k))
    for a in range(k):
        for b in range(k):
            if a == b:
                continue
            ia, ib = np.flatnonzero(y == a), np.flatnonzero(y == b)
            p = psi(s[ia, a], s[ib, a])
            A[a, b] = p.mean()
            bracket[ia] += p.mean(axis=1) - A[a, b]        # class-a rows as positives of A(a|b)
            bracket[ib] += p.mean(axis=0) - A[a, b]        # class-b rows as negatives of A(a|b)
    m = np.bincount(y, minlength=k)
    phi = bracket / (k * (k - 1) * np.sqrt(m * (m - 1)))[y]
    return A.sum() / (k * (k - 1)), float(phi @ phi)


def data(seed, n, k, decimals=1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    raw = np.round(rng.random((n, k)) + 0.6 * np.eye(k)[y], decimals) + 0.01     # ties
    return y, raw / raw.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("seed,n,k", [(0, 120, 3), (1, 300, 5), (2, 60, 4)])
def test_per_class_is_the_binary_delong_of_the_one_vs_rest_relabelling(seed, n, k):
    y, s = data(seed, n, k)
    r = intervals.ovr_delong(y, s)
    for c in range(k):
        auc, var = binary_by_definition(y == c, s[:, c])
        assert (r.auc[c], r.variance[c]) == pytest.approx((auc, var), rel=1e-12, abs=1e-15)
        ci = intervals.delong_ci(y == c, s[:, c])
        assert (ci.low, ci.high) == pytest.approx((max(0, auc - Z * np.sqrt(var)), min(1, auc + Z * np.sqrt(var))))
    assert r.macro == pytest.approx(roc_auc_score(y, s, multi_class="ovr"), abs=1e-12)
    assert r.weighted == pytest.approx(roc_auc_score(y, s, multi_class="ovr", average="weighted"), abs=1e-12)


@pytest.mark.parametrize("seed,n,k", [(3, 150, 3), (4, 240, 6)])
def test_averages_have_the_variance_of_the_sum_of_their_row_terms(seed, n, k):
    """Macro: Var = sum_i (mean_c xi_ic)^2; weighted: rows also move the class shares t_c/n, adding (A_{y_i} - A_w)/n
    to row i's term — the delta method over the classes' covariance on the same rows."""
    y, s = data(seed, n, k)
    auc, xi = ovr_rows(y, s)
    r = intervals.ovr_delong(y, s)
    macro_phi = xi.mean(axis=1)
    assert r.macro_variance == pytest.approx(macro_phi @ macro_phi, rel=1e-10)
    t = np.bincount(y, minlength=k) / n
    aw = t @ auc
    weighted_phi = xi @ t + (auc[y] - aw) / n
    assert r.weighted_variance == pytest.approx(weighted_phi @ weighted_phi, rel=1e-10)
    assert not np.isclose(r.macro_variance, (xi ** 2).sum() / k ** 2)      # the covariances count


@pytest.mark.parametrize("seed,n,k", [(5, 90, 3), (6, 200, 5), (7, 40, 4)])
def test_hand_till_variance_is_its_definition_over_every_pair(seed, n, k):
    y, s = data(seed, n, k)
    value, var = intervals.hand_till_delong(y, s)
    ref_value, ref_var = hand_till_by_definition(y, s)
    assert value == pytest.approx(roc_auc_score(y, s, multi_class="ovo"), abs=1e-12)
    assert (value, var) == pytest.approx((ref_value, ref_var), rel=1e-10)


def test_two_classes_with_complementary_scores_give_the_binary_delong_variance():
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, 150)
    p1 = np.round(np.clip(0.3 * y + 0.7 * rng.random(150), 0, 1), 1)
    s = np.column_stack([1 - p1, p1])
    auc, var = binary_by_definition(y == 1, p1)
    r = intervals.ovr_delong(y, s)
    assert (r.macro, r.macro_variance) == pytest.approx((auc, var), rel=1e-12)
    assert (r.weighted, r.weighted_variance) == pytest.approx((auc, var), rel=1e-12)
    assert intervals.hand_till_delong(y, s) == pytest.approx((auc, var), rel=1e-12)


def test_a_class_with_one_row_leaves_the_variance_undefined():
    y = np.array([0, 0, 0, 1, 1, 1, 2])
    s = np.eye(3)[y] * 0.5 + 0.1 * np.arange(7)[:, None]
    r = intervals.ovr_delong(y, s)
    assert np.isnan(r.variance[2]) and np.isfinite(r.variance[:2]).all()
    assert np.isfinite(r.macro) and np.isnan(r.macro_variance) and np.isnan(r.weighted_variance)
    value, var = intervals.hand_till_delong(y, s)
    assert np.isfinite(value) and np.isnan(var)
    ci = intervals.auc_interval(r.macro, r.macro_variance, 0.95, "delong")
    assert np.isnan(ci.low) and np.isnan(ci.high)


# ------------------------------------------------------------------------------------------------------------------
# Coverage
# ------------------------------------------------------------------------------------------------------------------

PRIOR = np.array([0.5, 0.3, 0.2])
MU = np.array([[1.2, 0.0, 0.3],      # MU[y, c]: mean of score column c on rows of class y; every score N(MU, 1)
               [0.2, 1.0, 0.0],
               [0.0, 0.4, 0.9]])


def true_aucs():
    """A(a|b) = P(N(MU[a,a],1) > N(MU[b,a],1)) = Phi((MU[a,a] - MU[b,a]) / sqrt 2); one-vs-rest AUC_c mixes the
    other classes by their shares of the rest; targets: macro, prevalence-weighted, Hand–Till."""
    k = PRIOR.size
    pair = stats.norm.cdf((np.diag(MU)[:, None] - MU.T) / np.sqrt(2))        # pair[a, b] = A(a|b)
    ovr = np.array([sum(PRIOR[b] * pair[c, b] for b in range(k) if b != c) / (1 - PRIOR[c]) for c in range(k)])
    return ovr.mean(), PRIOR @ ovr, pair[~np.eye(k, dtype=bool)].mean()


def test_coverage_of_the_multiclass_auc_intervals_is_nominal():
    """2,000 seeded data sets of 300 rows, classes drawn i.i.d. with shares 0.5/0.3/0.2: the 95 % intervals of the
    macro and prevalence-weighted one-vs-rest AUC and of Hand & Till's average hold the true value in 95 % ± 1.5
    points of them (the Monte-Carlo standard error of a 95 % coverage over 2,000 sets is 0.49 points: ± 1.5 is
    three of them)."""
    rng = np.random.default_rng(2026)
    truth = true_aucs()
    hits = np.zeros(3)
    reps, n = 2000, 300
    for _ in range(reps):
        y = rng.choice(3, size=n, p=PRIOR)
        s = MU[y] + rng.normal(size=(n, 3))
        r = intervals.ovr_delong(y, s)
        estimates = [(r.macro, r.macro_variance), (r.weighted, r.weighted_variance), intervals.hand_till_delong(y, s)]
        for j, ((value, var), target) in enumerate(zip(estimates, truth)):
            ci = intervals.auc_interval(value, var, 0.95, "delong")
            hits[j] += ci.low <= target <= ci.high
    coverage = hits / reps
    assert ((0.935 <= coverage) & (coverage <= 0.965)).all(), coverage


# ------------------------------------------------------------------------------------------------------------------
# evaluate
# ------------------------------------------------------------------------------------------------------------------

def test_auto_gives_the_multiclass_aucs_delong_intervals_and_says_so():
    y, s = data(9, 400, 4)
    pred = Predictions(Task.MULTICLASS, ("a", "b", "c", "d"), y, None, s, model="m")
    got = evaluate(pred, ["roc_auc_ovr", "roc_auc_ovr_weighted", "roc_auc_ovo"], ci="auto", baselines=False)
    auc, xi = ovr_rows(y, s)
    t = np.bincount(y, minlength=4) / y.size
    macro_phi, weighted_phi = xi.mean(axis=1), xi @ t + (auc[y] - t @ auc) / y.size
    ovo, ovo_var = hand_till_by_definition(y, s)
    for key, value, var, of in (
            ("roc_auc_ovr", auc.mean(), macro_phi @ macro_phi, "macro average of one-vs-rest AUCs, delta method"),
            ("roc_auc_ovr_weighted", t @ auc, weighted_phi @ weighted_phi,
             "support-weighted average of one-vs-rest AUCs, delta method"),
            ("roc_auc_ovo", ovo, ovo_var, "Hand–Till average of one-vs-one AUCs")):
        r = got[key]
        assert r.value == pytest.approx(value, abs=1e-12)
        assert (r.low, r.high) == pytest.approx((value - Z * np.sqrt(var), value + Z * np.sqrt(var)), rel=1e-9)
        assert r.method == f"delong, {of}" and r.how.words == f"DeLong, {of}"


def test_weighted_rows_keep_the_bootstrap():
    y, s = data(10, 200, 3)
    w = np.random.default_rng(10).uniform(0.5, 2, 200)
    pred = Predictions(Task.MULTICLASS, ("a", "b", "c"), y, None, s, model="m", weight=w)
    got = evaluate(pred, ["roc_auc_ovr", "roc_auc_ovo"], ci="auto", n_resamples=50, baselines=False)
    assert all(got[k].method.startswith("bootstrap-percentile") for k in ("roc_auc_ovr", "roc_auc_ovo"))
    asked = evaluate(pred, ["roc_auc_ovr"], ci="delong", n_resamples=50, baselines=False)["roc_auc_ovr"]
    assert asked.method.endswith("— DeLong needs unweighted data")


def test_without_the_rows_a_multiclass_auc_keeps_the_bootstrap():
    """The out-of-core engine asks without rows: its grouped tables give the binary DeLong only."""
    from assess.metrics.evaluate import interval_method
    from assess.metrics.registry import get
    for key in ("roc_auc_ovr", "roc_auc_ovr_weighted", "roc_auc_ovo"):
        spec = get(Task.MULTICLASS, key)
        assert (interval_method(spec, "auto", False), interval_method(spec, "auto", False, rows=True)) == \
            ("bootstrap", "delong")
        assert interval_method(spec, "delong", False) is None
    assert interval_method(get(Task.BINARY, "roc_auc"), "auto", False) == "delong"


def test_a_defined_auc_without_a_delong_interval_says_why():
    y = np.array([0, 0, 0, 0, 1, 1, 1, 2])
    s = np.eye(3)[y] * 0.5 + 0.05 * np.arange(8)[:, None]
    pred = Predictions(Task.MULTICLASS, ("a", "b", "c"), y, None, s / s.sum(axis=1, keepdims=True), model="m")
    got = evaluate(pred, ["roc_auc_ovr", "roc_auc_ovo"], ci="auto", baselines=False)
    binary = evaluate(Predictions(Task.BINARY, ("no", "yes"), np.array([0, 0, 0, 1]), None,
                                  np.array([0.1, 0.4, 0.3, 0.8]), model="m"), ["roc_auc"], ci="auto", baselines=False)
    for r in (got["roc_auc_ovr"], got["roc_auc_ovo"], binary["roc_auc"]):
        assert np.isfinite(r.value) and np.isnan(r.low) and np.isnan(r.high)
        assert "no DeLong interval: a class has fewer than 2 rows" in r.note
