"""Tests for independent samples (models scored on different test sets): the design read from the data, and each test
checked against an independent oracle — SciPy (chi2_contingency, fisher_exact, mannwhitneyu, ttest_ind with
equal_var=False), scikit-learn, a brute-force placement computation and the formula of R pROC's
``roc.test(paired = FALSE, method = "delong")`` (``delong.unpaired.test`` in pROC's ``delong.R``)."""

import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sps
from sklearn.metrics import brier_score_loss, f1_score, roc_auc_score

from assess.core.data import Predictions, Task
from assess.core.errors import AssessError
from assess.stats import (INDEPENDENT, PAIRED, compare, compare_all, data_design, mann_whitney, sample_design,
                          sample_losses, unpaired_bootstrap, unpaired_delong, welch_t)
from assess.stats._result import INDEPENDENT_SAMPLES


def binary_test_set(n, strength, seed, *, start=0, prevalence=0.4):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(np.int8)
    score = 1 / (1 + np.exp(-(strength * (2 * y - 1) + rng.normal(0, 1, n))))
    return y, score, np.arange(start, start + n)


def two_test_sets(n_a=300, n_b=260, ids=True):
    """Last year's model on last year's test set, this year's on this year's: disjoint sample ids."""
    out = {}
    for name, n, strength, seed, start in (("old", n_a, 1.0, 1, 0), ("new", n_b, 1.4, 2, 10_000)):
        y, s, i = binary_test_set(n, strength, seed, start=start)
        out[name] = Predictions(Task.BINARY, ("no", "yes"), y, (s >= 0.5).astype(np.int8), s,
                                ids=i if ids else None, model=name)
    return out


def assumption(result, name=INDEPENDENT_SAMPLES):
    return next(a for a in result.assumptions if a.name == name)


# ------------------------------------------------------------------------------------------------------- design


def test_disjoint_ids_are_independent_same_ids_paired_and_partial_overlap_refused():
    preds = two_test_sets()
    design = sample_design(preds)
    assert design.kind == INDEPENDENT and "no sample id is shared" in design.reason
    same = {m: Predictions(p.task, p.classes, preds["old"].y_true, p.y_pred[:1].repeat(300), ids=preds["old"].ids,
                           model=m) for m, p in preds.items()}
    assert sample_design(same).kind == PAIRED
    a = preds["old"]
    overlap = Predictions(a.task, a.classes, a.y_true, a.y_pred, a.scores, ids=a.ids + 150, model="shifted")
    with pytest.raises(AssessError, match=r"models `old` and `shifted` share 150 of their sample ids \(first: 150\) "
                                          r"but not all"):
        sample_design({"old": a, "shifted": overlap})


def test_without_ids_the_rows_decide():
    preds = two_test_sets(ids=False)
    design = sample_design(preds)
    assert design.kind == INDEPENDENT and "different numbers of samples (old 300, new 260)" in design.reason
    same_n = two_test_sets(n_a=260, ids=False)
    design = sample_design(same_n)
    assert design.kind == INDEPENDENT and "ground truth differs (first at row" in design.reason
    a = same_n["old"]
    twin = Predictions(a.task, a.classes, a.y_true, 1 - a.y_pred, model="twin")
    assert sample_design({"old": a, "twin": twin}).kind == PAIRED


def test_fold_tables_with_different_folds_are_independent():
    rows = [{"model": m, "fold": f, "acc": 0.8} for m, folds in (("a", range(5)), ("b", range(5, 10))) for f in folds]
    assert data_design(pd.DataFrame(rows), metric="acc").kind == INDEPENDENT
    same = [{"model": m, "fold": f, "acc": 0.8} for m in "ab" for f in range(5)]
    assert data_design(pd.DataFrame(same), metric="acc").kind == PAIRED


# ----------------------------------------------------------------------------------------- tests against oracles


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("seed", range(4))
def test_welch_matches_scipy_ttest_ind_unequal_variances(seed, alternative):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(0.3, 1.0, 12 + seed), rng.normal(0.0, 2.5, 30 - seed)
    res = welch_t(a, b, alternative=alternative, confidence_level=0.9)
    ref = sps.ttest_ind(a, b, equal_var=False, alternative=alternative)
    assert (res.statistic, res.pvalue, res.df) == pytest.approx((ref.statistic, ref.pvalue, ref.df), rel=1e-10)
    ci = ref.confidence_interval(0.9)
    assert (res.effect.interval.low, res.effect.interval.high) == pytest.approx((ci.low, ci.high), rel=1e-10)
    assert res.effect.value == pytest.approx(a.mean() - b.mean())


@given(st.lists(st.integers(0, 6), min_size=2, max_size=25), st.lists(st.integers(0, 6), min_size=2, max_size=25),
       st.sampled_from(["two-sided", "greater", "less"]), st.sampled_from(["auto", "asymptotic"]))
def test_mann_whitney_matches_scipy_and_brute_force(a, b, alternative, method):
    a, b = np.array(a, dtype=float), np.array(b, dtype=float)
    res = mann_whitney(a, b, alternative=alternative, method=method)
    ref = sps.mannwhitneyu(a, b, alternative=alternative, method=method)
    if math.isnan(ref.pvalue):
        assert math.isnan(res.pvalue)
    else:
        assert (res.statistic, res.pvalue) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-12)
    # brute force: theta = P(a > b) + P(a = b)/2 over all pairs, and DeLong/Sen placements for its variance
    wins = (a[:, None] > b[None, :]) + 0.5 * (a[:, None] == b[None, :])
    theta = wins.mean()
    assert res.effect.value == pytest.approx(theta, abs=1e-12)
    var = wins.mean(axis=1).var(ddof=1) / a.size + wins.mean(axis=0).var(ddof=1) / b.size
    if alternative == "two-sided":
        z = sps.norm.ppf(0.975)
        expected = (max(0.0, theta - z * math.sqrt(var)), min(1.0, theta + z * math.sqrt(var)))
        assert (res.effect.interval.low, res.effect.interval.high) == pytest.approx(expected, abs=1e-12)


def test_mann_whitney_exact_for_small_samples_without_ties():
    a, b = np.array([1.1, 2.5, 3.9, 4.2]), np.array([0.3, 0.8, 2.0, 5.5, 6.1])
    res = mann_whitney(a, b, method="exact")
    assert res.pvalue == pytest.approx(sps.mannwhitneyu(a, b, method="exact").pvalue, rel=1e-12)
    assert res.details.u_b == a.size * b.size - res.statistic


def proc_unpaired_delong(y1, s1, y2, s2):
    """pROC's delong.unpaired.test, transcribed: placements by brute force (V10 of cases, V01 of controls)."""
    def placements(y, s):
        cases, controls = s[y == 1], s[y == 0]
        psi = (cases[:, None] > controls[None, :]) + 0.5 * (cases[:, None] == controls[None, :])
        return psi.mean(axis=1), psi.mean(axis=0), psi.mean()
    x_r, y_r, theta_r = placements(y1, s1)
    x_s, y_s, theta_s = placements(y2, s2)
    s_r = np.var(x_r, ddof=1) / x_r.size + np.var(y_r, ddof=1) / y_r.size
    s_s = np.var(x_s, ddof=1) / x_s.size + np.var(y_s, ddof=1) / y_s.size
    t = (theta_r - theta_s) / math.sqrt(s_r + s_s)
    df = (s_r + s_s) ** 2 / (s_r ** 2 / (y1.size - 1) + s_s ** 2 / (y2.size - 1))
    return theta_r, theta_s, t, df


@pytest.mark.parametrize("seed, ties", [(0, False), (1, True), (2, False), (3, True)])
def test_unpaired_delong_matches_the_proc_formula(seed, ties):
    y1, s1, _ = binary_test_set(80 + 10 * seed, 0.8, seed)
    y2, s2, _ = binary_test_set(120 - 10 * seed, 1.2, seed + 10, prevalence=0.3)
    if ties:
        s1, s2 = np.round(s1, 1), np.round(s2, 1)
    res = unpaired_delong(y1, s1, y2, s2, confidence_level=0.9)
    auc1, auc2, t, df = proc_unpaired_delong(y1, s1, y2, s2)
    assert (res.details.auc_a, res.details.auc_b) == pytest.approx((roc_auc_score(y1, s1), roc_auc_score(y2, s2)),
                                                                   abs=1e-12)
    assert (auc1, auc2) == pytest.approx((res.details.auc_a, res.details.auc_b), abs=1e-12)
    assert (res.statistic, res.df) == pytest.approx((t, df), rel=1e-9)
    assert res.pvalue == pytest.approx(2 * sps.t.sf(abs(t), df), rel=1e-9)
    half = sps.t.ppf(0.95, df) * (auc1 - auc2) / t
    assert (res.effect.interval.low, res.effect.interval.high) == pytest.approx((auc1 - auc2 - half,
                                                                                auc1 - auc2 + half), rel=1e-9)


def test_unpaired_delong_needs_both_classes_in_each_sample():
    y, s, _ = binary_test_set(50, 1.0, 0)
    with pytest.raises(AssessError, match=r"DeLong needs at least 2 positives and 2 negatives in `y_b` \(got 1 "
                                          r"positives, 3 negatives\)"):
        unpaired_delong(y, s, [1, 0, 0, 0], [0.9, 0.1, 0.2, 0.3])


def accuracy_rows(y_true, y_pred, sample_weight=None):
    return (sample_weight * (y_true == y_pred)).sum(axis=-1) / sample_weight.sum(axis=-1)


def test_unpaired_bootstrap_is_seeded_vectorised_and_resamples_each_set_on_its_own():
    preds = two_test_sets()
    a, b = preds["old"], preds["new"]
    accuracy_rows.__name__ = "accuracy"
    args = (a.y_true, a.y_pred, b.y_true, b.y_pred)
    vec = unpaired_bootstrap(*args, metric=accuracy_rows, vectorized=True, n_resamples=4000, seed=5)
    again = unpaired_bootstrap(*args, metric=accuracy_rows, vectorized=True, n_resamples=4000, seed=5)
    assert vec == again

    def accuracy(y_true, y_pred, sample_weight=None):
        return float(np.average(y_true == y_pred, weights=sample_weight))
    loop = unpaired_bootstrap(*args, metric=accuracy, n_resamples=300, seed=5)
    vec300 = unpaired_bootstrap(*args, metric=accuracy_rows, vectorized=True, n_resamples=300, seed=5)
    assert loop.pvalue == vec300.pvalue
    assert (loop.effect.interval.low, loop.effect.interval.high) == pytest.approx(
        (vec300.effect.interval.low, vec300.effect.interval.high), rel=1e-12)
    # the two-sample bootstrap variance of a difference of proportions is pa(1-pa)/na + pb(1-pb)/nb
    pa, pb = np.mean(a.y_true == a.y_pred), np.mean(b.y_true == b.y_pred)
    se = math.sqrt(pa * (1 - pa) / a.n + pb * (1 - pb) / b.n)
    assert vec.statistic == pytest.approx(pa - pb, rel=1e-12)
    assert vec.effect.interval.low == pytest.approx(pa - pb - 1.96 * se, abs=0.1 * se)
    assert vec.effect.interval.high == pytest.approx(pa - pb + 1.96 * se, abs=0.1 * se)
    assert vec.details.n_a == 300 and vec.details.n_b == 260


def test_sample_losses_average_to_the_registry_metrics():
    y, s, _ = binary_test_set(200, 1.0, 3)
    p = Predictions(Task.BINARY, ("n", "p"), y, (s >= 0.5).astype(np.int8), s, model="m")
    assert sample_losses(p, loss="brier").mean() == pytest.approx(brier_score_loss(y, s), rel=1e-12)
    assert sample_losses(p, loss="zero_one").mean() == pytest.approx(np.mean(y != (s >= 0.5)), rel=1e-12)
    assert sample_losses(p).mean() == pytest.approx(brier_score_loss(y, s))   # auto: Brier with scores
    probs = np.random.default_rng(0).dirichlet([1, 1, 1], size=50)
    yc = np.random.default_rng(1).integers(0, 3, 50)
    mc = Predictions(Task.MULTICLASS, ("a", "b", "c"), yc, None, probs, model="m")
    assert sample_losses(mc, loss="brier").mean() == pytest.approx(np.mean(((probs - np.eye(3)[yc]) ** 2).sum(1)))
    reg = Predictions(Task.REGRESSION, (), np.array([1.0, 2.0]), np.array([1.5, 1.0]), model="r")
    assert sample_losses(reg).tolist() == [0.5, 1.0]
    assert sample_losses(reg, loss="squared").tolist() == [0.25, 1.0]
    with pytest.raises(AssessError, match=r"the absolute error needs numeric predictions \(task is binary\)"):
        sample_losses(p, loss="absolute")


# ------------------------------------------------------------------------------------------ compare, end to end


def test_compare_runs_chi2_and_fisher_on_each_models_own_test_set():
    preds = two_test_sets()
    right = {m: (p.y_pred == p.y_true) for m, p in preds.items()}
    table = [[int(right[m].sum()), int((~right[m]).sum())] for m in ("old", "new")]
    chi = compare(preds, test="chi2")
    ref = sps.chi2_contingency(table, correction=False)   # the package's convention: no Yates
    assert (chi.result.statistic, chi.result.pvalue) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-12)
    assert chi.design.kind == INDEPENDENT and assumption(chi.result).met is True
    fisher = compare(preds, test="fisher_exact")
    ref = sps.fisher_exact(table)
    assert (fisher.result.statistic, fisher.result.pvalue) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-12)


def test_compare_mann_whitney_and_welch_on_per_sample_losses():
    preds = two_test_sets()
    brier = {m: (p.scores - p.y_true) ** 2 for m, p in preds.items()}
    mw = compare(preds, test="mann_whitney")
    assert mw.result.pvalue == pytest.approx(sps.mannwhitneyu(brier["old"], brier["new"]).pvalue, rel=1e-12)
    wrong = {m: (p.y_pred != p.y_true).astype(float) for m, p in preds.items()}
    welch = compare(preds, test="welch_t", loss="zero_one", alternative="greater")
    ref = sps.ttest_ind(wrong["old"], wrong["new"], equal_var=False, alternative="greater")
    assert (welch.result.statistic, welch.result.pvalue) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-12)
    assert "error rate (0/1 loss)" in welch.sentence
    with pytest.raises(AssessError, match=r"test `welch_t` compares per-sample losses \(choose them with `loss`\); "
                                          r"`metric` does not apply"):
        compare(preds, test="welch_t", metric="f1")


def test_compare_unpaired_delong_and_bootstrap_of_a_registry_metric():
    preds = two_test_sets()
    old, new = preds["old"], preds["new"]
    auc = compare(preds, test="unpaired_delong")
    assert auc.result.effect.value == pytest.approx(roc_auc_score(old.y_true, old.scores)
                                                    - roc_auc_score(new.y_true, new.scores), abs=1e-12)
    boot = compare(preds, test="unpaired_bootstrap", metric="f1", n_resamples=200)
    assert boot.result.statistic == pytest.approx(f1_score(old.y_true, old.y_pred) - f1_score(new.y_true, new.y_pred),
                                                  rel=1e-12)


def test_paired_tests_refuse_independent_samples_and_say_why():
    preds = two_test_sets()
    with pytest.raises(AssessError, match=r"test `mcnemar` compares models on the same samples, but no sample id is "
                                          r"shared between models.*tests for independent samples: chi2, "
                                          r"fisher_exact, unpaired_delong"):
        compare(preds, test="mcnemar")
    with pytest.raises(AssessError, match=r"test `delong` compares models on the same samples"):
        compare(preds, test="delong")


def test_tests_for_independent_samples_on_paired_data_run_with_the_assumption_not_met():
    # the chosen policy (module docstring of assess.stats.compare): run, state the violation, name the paired test
    y, s, ids = binary_test_set(200, 1.0, 0)
    a = Predictions(Task.BINARY, ("n", "p"), y, (s >= 0.5).astype(np.int8), s, ids=ids, model="A")
    b = Predictions(Task.BINARY, ("n", "p"), y, (s >= 0.6).astype(np.int8), s, ids=ids, model="B")
    chi = compare([a, b], test="chi2")
    stated = assumption(chi.result)
    assert stated.met is False and "use McNemar (two models) or Cochran's Q instead" in stated.detail
    assert chi.result.assumptions_met is False and "Caution:" in chi.sentence
    mw = compare([a, b], test="mann_whitney")
    assert assumption(mw.result).met is False and "paired test of the losses" in assumption(mw.result).detail


def test_compare_all_picks_tests_for_independent_samples_and_reports_the_design():
    res = compare_all(two_test_sets(), metric="accuracy", n_resamples=200)
    assert [c.test for c in res.comparisons] == ["chi2", "fisher_exact", "unpaired_delong", "unpaired_bootstrap",
                                                 "mann_whitney", "welch_t"]
    doc = json.loads(json.dumps(res.to_dict(), allow_nan=False))
    assert doc["design"] == "independent" and "different test sets" in doc["design_reason"]
    assert all(t["design"] == "independent" for t in doc["tests"]) and doc["skipped"] == {}


def test_fold_tables_of_separate_cross_validations_use_welch_and_mann_whitney():
    rng = np.random.default_rng(4)
    a, b = rng.normal(0.80, 0.02, 10), rng.normal(0.78, 0.03, 8)
    frame = pd.DataFrame({"model": ["a"] * 10 + ["b"] * 8, "fold": list(range(10)) + list(range(100, 108)),
                          "acc": np.r_[a, b]})
    res = compare_all(frame, metric="acc")
    assert [c.test for c in res.comparisons] == ["mann_whitney", "welch_t", "kruskal", "anova"]
    welch = res.comparisons[1]
    ref = sps.ttest_ind(a, b, equal_var=False)
    assert (welch.result.statistic, welch.result.pvalue) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-12)
    assert assumption(welch.result).met is True and welch.design.kind == INDEPENDENT
    with pytest.raises(AssessError, match=r"model `b` is missing fold 0 that model `a` has"):
        compare(frame, test="paired_t", metric="acc")
