"""Planning (issue 36 §2): every formula against statsmodels' power functions or the published formula worked by
hand, and seeded simulations that the planned n reaches the stated power (within ±3 points)."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import proportion_confint, proportion_effectsize, samplesize_confint_proportion

from assess.core.errors import AssessError
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.inputs.roles import Overrides
from assess.stats import planning

ZA, ZB = sps.norm.ppf(0.975), sps.norm.ppf(0.8)


# --- precision of one metric ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("p, h", [(0.9, 0.02), (0.5, 0.05), (0.97, 0.01), (0.3, 0.03)])
def test_wald_rows_are_statsmodels_sample_size_rounded_up(p, h):
    plan = planning.rows_for_half_width(p, h, method="wald")
    assert plan.n == math.ceil(samplesize_confint_proportion(p, h, alpha=0.05))
    assert plan.to_dict()["inputs"] == {"metric": "accuracy", "expected": p, "half_width": h, "confidence_level": 0.95}


@pytest.mark.parametrize("method, sm_method", [("wilson", "wilson"), ("clopper-pearson", "beta")])
@pytest.mark.parametrize("p, h", [(0.9, 0.02), (0.98, 0.01), (0.5, 0.05), (0.995, 0.005)])
def test_wilson_and_clopper_pearson_rows_are_the_smallest_n_whose_interval_fits(method, sm_method, p, h):
    # the oracle: statsmodels' own interval at p̂ = p on n and on n − 1 rows (x = p·n, as the search takes it)
    n = planning.rows_for_half_width(p, h, method=method).n

    def half(k):
        low, high = proportion_confint(p * k, k, alpha=0.05, method=sm_method)
        return (high - low) / 2

    assert half(n) <= h < half(n - 1)


def test_near_one_the_exact_interval_needs_more_rows_than_the_normal_formula():
    # 0.98 ± 0.01: Wald says 753; the Clopper–Pearson interval of 753 rows is wider than ±0.01 (searched, not the
    # formula: the old normal shortcut would fail this)
    wald = planning.rows_for_half_width(0.98, 0.01, method="wald").n
    exact = planning.rows_for_half_width(0.98, 0.01, method="clopper-pearson").n
    assert wald == 753 and exact > wald + 50


def test_hanley_mcneil_variance_at_half_is_the_mann_whitney_null_variance():
    # A = 0.5: Q1 = Q2 = 1/3, and the formula reduces to Var(U)/(mn)² = (m + n + 1)/(12 m n), U's exact null variance
    for m, n in ((10, 10), (30, 70), (200, 50)):
        assert planning.hanley_mcneil_variance(0.5, m, n) == pytest.approx((m + n + 1) / (12 * m * n), rel=1e-12)


def test_hanley_mcneil_variance_hand_worked():
    # A = 0.8, 50 positives, 50 negatives: Q1 = 0.8/1.2 = 2/3, Q2 = 2·0.64/1.8 = 32/45,
    # Var = [0.16 + 49(2/3 − 0.64) + 49(32/45 − 0.64)] / 2500 = 4.951111 / 2500 = 0.00198044, SE 0.0445
    assert planning.hanley_mcneil_variance(0.8, 50, 50) == pytest.approx(4.9511111 / 2500, rel=1e-6)


def test_hanley_mcneil_variance_matches_a_simulation_of_exponential_scores():
    # Hanley & McNeil's Q1, Q2 are exact for exponential scores: negatives Exp(1), positives Exp(rate 1/A − 1) give
    # P(positive > negative) = A. 4,000 test sets of 30 positives and 70 negatives (≈ 0.1 s).
    rng = np.random.default_rng(1)
    auc, m, n, reps = 0.8, 30, 70, 4000
    pos = rng.exponential(1 / (1 / auc - 1), (reps, m))
    neg = rng.exponential(1.0, (reps, n))
    aucs = (pos[:, :, None] > neg[:, None, :]).mean(axis=(1, 2))
    assert aucs.var(ddof=1) == pytest.approx(planning.hanley_mcneil_variance(auc, m, n), rel=0.1)


def test_auc_rows_are_the_smallest_n_whose_hanley_mcneil_interval_fits():
    auc, h, prevalence = 0.85, 0.05, 0.3

    def half(k):   # the published formula, written out again
        a, m, n = auc, prevalence * k, (1 - prevalence) * k
        q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
        return ZA * math.sqrt((a * (1 - a) + (m - 1) * (q1 - a * a) + (n - 1) * (q2 - a * a)) / (m * n))

    plan = planning.rows_for_auc_half_width(auc, h, prevalence=prevalence)
    assert half(plan.n) <= h < half(plan.n - 1)
    assert plan.method == "hanley-mcneil" and plan.inputs["prevalence"] == prevalence


# --- detecting a difference ----------------------------------------------------------------------------------------

def test_connor_rows_hand_worked():
    # Connor (1987) eq. 3 with p10 = 0.10, p01 = 0.05: ψ = 0.15, δ = 0.05,
    # (1.959964·√0.15 + 0.841621·√0.1475)² / 0.0025 = (0.759090 + 0.323231)² / 0.0025 = 468.57 → 469
    plan = planning.mcnemar_rows(0.10, 0.05, power=0.8, alpha=0.05)
    assert plan.n == 469 and plan.method == "connor"
    assert plan.to_dict() == {"n": 469, "method": "connor", "inputs": {"test": "mcnemar", "p10": 0.1, "p01": 0.05,
                                                                        "power": 0.8, "alpha": 0.05}}


@pytest.mark.parametrize("p10, p01", [(0.10, 0.05), (0.08, 0.03), (0.20, 0.10)])
def test_mcnemar_planned_rows_reach_the_power_in_a_simulation(p10, p01):
    # 20,000 test sets of the planned size, McNemar's asymptotic test without continuity correction (the test
    # Connor's formula is for) at 5 %: the share rejecting is 80 % ± 3 points (≈ 0.1 s)
    n = planning.mcnemar_rows(p10, p01).n
    counts = np.random.default_rng(7).multinomial(n, [p10, p01, 1 - p10 - p01], size=20_000)
    discordant = counts[:, 0] + counts[:, 1]
    chi2 = (counts[:, 0] - counts[:, 1]) ** 2 / np.maximum(discordant, 1)
    assert abs((chi2 > sps.chi2.ppf(0.95, 1)).mean() - 0.8) <= 0.03


@pytest.mark.parametrize("p1, p2, power, alpha", [(0.9, 0.85, 0.8, 0.05), (0.7, 0.6, 0.9, 0.01),
                                                  (0.55, 0.5, 0.8, 0.05)])
def test_two_proportions_rows_are_statsmodels_normal_ind_power(p1, p2, power, alpha):
    per_group = NormalIndPower().solve_power(proportion_effectsize(p1, p2), alpha=alpha, power=power, ratio=1)
    plan = planning.two_proportions_rows(p1, p2, power=power, alpha=alpha)
    assert plan.extra["n_per_group"] == math.ceil(per_group) and plan.n == 2 * math.ceil(per_group)


@pytest.mark.parametrize("p1, p2", [(0.9, 0.85), (0.7, 0.6)])
def test_two_proportions_planned_rows_reach_the_power_in_a_simulation(p1, p2):
    # the pooled two-proportion z-test on 20,000 pairs of independent samples of the planned size
    k = planning.two_proportions_rows(p1, p2).extra["n_per_group"]
    rng = np.random.default_rng(3)
    a, b = rng.binomial(k, p1, 20_000), rng.binomial(k, p2, 20_000)
    pooled = (a + b) / (2 * k)
    z = (a - b) / k / np.sqrt(pooled * (1 - pooled) * 2 / k)
    assert abs((np.abs(z) > ZA).mean() - 0.8) <= 0.03


def _obuchowski_v(auc, kappa):   # Obuchowski & McClish (1997), binormal with b = 1, per positive case
    a = 1.414 * sps.norm.ppf(auc)
    return 0.0099 * math.exp(-a * a / 2) * ((5 * a * a + 8) + (a * a + 8) / kappa)


def test_obuchowski_variance_at_half_is_the_published_null_variance():
    # at A = 0.5 (a = 0) V = 0.0099·(8 + 8/κ) = 0.0792 (1 + 1/κ), Obuchowski's null variance
    for kappa in (1.0, 2.5, 9.0):
        assert planning.obuchowski_variance(0.5, kappa) == pytest.approx(0.0792 * (1 + 1 / kappa), rel=1e-12)


def test_correlated_aucs_rows_hand_formula():
    auc1, auc2, r, prevalence = 0.85, 0.80, 0.5, 0.3
    kappa = 0.7 / 0.3
    v1, v2 = _obuchowski_v(auc1, kappa), _obuchowski_v(auc2, kappa)
    v_alt = v1 + v2 - 2 * r * math.sqrt(v1 * v2)
    v_null = 2 * (1 - r) * v1
    positives = math.ceil((ZA * math.sqrt(v_null) + ZB * math.sqrt(v_alt)) ** 2 / 0.05 ** 2)
    plan = planning.correlated_aucs_rows(auc1, auc2, correlation=r, prevalence=prevalence)
    assert plan.extra["n_positive"] == positives and plan.n == math.ceil(positives / prevalence)
    # a higher correlation between the two AUCs needs fewer cases
    assert planning.correlated_aucs_rows(auc1, auc2, correlation=0.8, prevalence=prevalence).n < plan.n


@pytest.mark.parametrize("call", [lambda: planning.mcnemar_rows(0.1, 0.1),
                                  lambda: planning.two_proportions_rows(0.8, 0.8),
                                  lambda: planning.correlated_aucs_rows(0.8, 0.8, correlation=0.5, prevalence=0.5)])
def test_no_difference_gives_no_n_with_a_reason(call):
    plan = call()
    assert plan.n is None and "no number of rows" in plan.reason


def test_impossible_figures_are_refused():
    with pytest.raises(AssessError, match="at most 1"):
        planning.mcnemar_rows(0.7, 0.5)
    with pytest.raises(AssessError, match="between 0 and 1"):
        planning.rows_for_half_width(1.2, 0.02)


# --- from the file in hand -----------------------------------------------------------------------------------------

def _paired_file(n, n10, n01, labels=(0, 1), *, scores=False, seed=0):
    """A binary file of two models on n rows: A right and B wrong on n10 rows, the reverse on n01, both right on
    the rest."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a_right = np.ones(n, bool)
    b_right = np.ones(n, bool)
    a_right[n10:n10 + n01] = False
    b_right[:n10] = False
    neg, pos = labels
    frame = pd.DataFrame({"y_true": np.where(y == 1, pos, neg),
                          "y_pred_A": np.where((y == 1) == a_right, pos, neg),
                          "y_pred_B": np.where((y == 1) == b_right, pos, neg)})
    if scores:
        frame["score_A"] = np.clip(y * 0.6 + rng.normal(0.2, 0.25, n), 0, 1)
        frame["score_B"] = np.clip(y * 0.5 + rng.normal(0.25, 0.25, n) + 0.1 * (frame["score_A"] - 0.5), 0, 1)
    return frame


def _assess(frame, positive=None):
    """The frame as a CSV file is read and described (labels such as True come back as the reader reads them)."""
    table = read_table(frame.to_csv(index=False).encode(), name="test.csv")
    return describe(table, Overrides(positive=positive))


def test_the_meeting_sentence_of_569_cases():
    # 569 rows, A right and B wrong on 41, the reverse on 30: ψ = 71/569, observed δ = 11/569 = 1.93 points;
    # Connor: (1.959964·√0.124780 + 0.841621·√(0.124780 − 0.000374))² / 0.000374 = 2,618.2 → 2,619 rows; at 569 rows the
    # detectable δ solves Connor's n(δ) = 569 at the same ψ (checked by putting it back in the hand formula)
    plan = planning.plan_from_file(_assess(_paired_file(569, 41, 30)))
    psi = 71 / 569

    def connor(delta):
        return (ZA * math.sqrt(psi) + ZB * math.sqrt(psi - delta ** 2)) ** 2 / delta ** 2

    assert plan.n == math.ceil(connor(11 / 569)) == 2619
    assert connor(plan.detectable_difference) == pytest.approx(569, rel=1e-9)
    assert plan.observed_difference == pytest.approx(11 / 569)
    assert plan.sentence == ("With 569 cases you can detect a difference of about 4 points in accuracy between these "
                             "models; the observed 1.9 points would need about 2,600.")
    doc = plan.to_dict()
    assert doc["n"] == 2619 and doc["n_file"] == 569 and doc["more"] == 2619 - 569 and doc["method"] == "connor"
    assert doc["inputs"]["p10"] == pytest.approx(41 / 569) and doc["inputs"]["p01"] == pytest.approx(30 / 569)


@pytest.mark.parametrize("labels, positive, shown", [
    ((0, 1), None, "positive class (1)"),
    ((False, True), None, "positive class (True)"),
    (("benign", "a malignant tumour of the breast, confirmed by biopsy"), "a malignant tumour of the breast, "
     "confirmed by biopsy", "a malignant tumour of the breast, confi…")])   # cut at 40 characters
def test_class_names_leave_the_accuracy_sentence_alone_and_name_the_positive_class_for_auc(labels, positive, shown):
    frame = _paired_file(569, 41, 30, labels, scores=True)
    accuracy = planning.plan_from_file(_assess(frame, positive))
    assert accuracy.sentence.startswith("With 569 cases you can detect a difference of about 4 points in accuracy")
    auc = planning.plan_from_file(_assess(frame, positive), metric="roc_auc")
    assert f"in ROC AUC for {shown} between these models" in auc.sentence


def test_auc_plan_uses_the_delong_variance_of_the_difference():
    frame = _paired_file(300, 20, 10, scores=True, seed=4)
    plan = planning.plan_from_file(_assess(frame), metric="roc_auc")
    # DeLong et al. (1988) by brute force, O(m·n): placements from every positive–negative pair
    y = frame.y_true.to_numpy() == 1
    v10, v01 = [], []
    for s in (frame.score_A.to_numpy(), frame.score_B.to_numpy()):
        psi = (s[y][:, None] > s[~y][None, :]) + 0.5 * (s[y][:, None] == s[~y][None, :])
        v10.append(psi.mean(axis=1))
        v01.append(psi.mean(axis=0))
    s10, s01 = np.cov(v10), np.cov(v01)
    var = (s10[0, 0] + s10[1, 1] - 2 * s10[0, 1]) / y.sum() + (s01[0, 0] + s01[1, 1] - 2 * s01[0, 1]) / (~y).sum()
    observed = v10[0].mean() - v10[1].mean()
    assert plan.detectable_difference == pytest.approx((ZA + ZB) * math.sqrt(var), rel=1e-9)
    assert plan.n == math.ceil(300 * var * (ZA + ZB) ** 2 / observed ** 2)


def test_regression_plan_matches_statsmodels_one_sample_power():
    rng = np.random.default_rng(5)
    y = rng.normal(10, 3, 400)
    frame = pd.DataFrame({"y_true": y, "y_pred_A": y + rng.normal(0, 1.0, 400), "y_pred_B": y + rng.normal(0, 1.2, 400)})
    plan = planning.plan_from_file(_assess(frame))
    d = np.abs(frame.y_true - frame.y_pred_A) - np.abs(frame.y_true - frame.y_pred_B)
    # the smallest standardised effect a one-sample z-test on 400 differences detects (ratio=0: one sample)
    effect = NormalIndPower().solve_power(nobs1=400, alpha=0.05, power=0.8, ratio=0)
    assert plan.detectable_difference == pytest.approx(effect * d.std(ddof=1), rel=1e-4)
    assert plan.observed_difference == pytest.approx(d.mean())
    assert "in mean absolute error between these models" in plan.sentence


def test_models_that_always_agree_give_no_n_and_say_why():
    plan = planning.plan_from_file(_assess(_paired_file(100, 0, 0)))
    assert plan.n is None and "same rows" in plan.reason and plan.to_dict()["n_file"] == 100


def test_plan_sentences_say_the_rows_and_what_they_give():
    assert planning.plan_sentence(planning.rows_for_half_width(0.9, 0.02)) == (
        "868 labelled rows give a 95% Wilson interval of ±2.0 points around an accuracy of 90.0%.")
    assert planning.plan_sentence(planning.rows_for_half_width(0.9, 0.02, metric="recall")).startswith(
        "868 labelled rows (the rows recall is computed on) give")
    assert planning.plan_sentence(planning.mcnemar_rows(0.10, 0.05)).startswith(
        "469 labelled rows, each scored by both models, detect accuracies 5.0 points apart with 80% power at the 5% "
        "level")
    assert planning.plan_sentence(planning.two_proportions_rows(0.9, 0.85)).startswith(
        "1,362 labelled rows, 681 per model on separate rows")
    assert planning.plan_sentence(planning.mcnemar_rows(0.1, 0.1)).startswith("No number of rows answers this: ")


def test_a_multilabel_file_is_planned_on_its_exact_match_ratio():
    # two models on 200 rows of two labels; a row is right only when both labels are (A alone right on 20 rows,
    # B alone on 5): the discordance Connor's formula takes is that of whole rows
    rng = np.random.default_rng(2)
    truth = rng.integers(0, 2, (200, 2))
    a, b = truth.copy(), truth.copy()
    b[:20, 0] ^= 1   # B wrong on rows 0–19
    a[20:25, 1] ^= 1  # A wrong on rows 20–24
    frame = pd.concat([pd.DataFrame({"id": range(200), "model": m, "true_x": truth[:, 0], "true_y": truth[:, 1],
                                     "pred_x": p[:, 0], "pred_y": p[:, 1]}) for m, p in (("A", a), ("B", b))])
    plan = planning.plan_from_file(_assess(frame))
    assert plan.inputs["p10"] == pytest.approx(20 / 200) and plan.inputs["p01"] == pytest.approx(5 / 200)
    assert "in exact-match ratio (every label right) between these models" in plan.sentence
