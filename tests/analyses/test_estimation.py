"""CBPE (assess.analyses.estimation): expected confusion cells, calibration check and fix, intervals, backtest.

Oracles: a hand-worked case; scikit-learn's weighted metrics on the "soft" data set that CBPE's expectation is (every
unlabelled row once per class c, weighted by its probability of c); scikit-learn's LogisticRegression for Platt;
simulations whose labels are drawn from known probabilities and hidden."""

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score, precision_score, recall_score, roc_auc_score

from assess.analyses.estimation import ASSUMPTION, backtest, estimate
from assess.core.errors import AssessError

BINARY = ("no", "yes")


def soft_metrics(p: np.ndarray, predicted: np.ndarray) -> dict:
    """scikit-learn's metrics on the expected labels: row i stands once as each class c with weight p[i, c]."""
    n, k = p.shape
    y = np.tile(np.arange(k), n)
    w = p.ravel()
    pred = np.repeat(predicted, k)
    scores = np.repeat(p, k, axis=0)
    if k == 2:
        return dict(accuracy=accuracy_score(y, pred, sample_weight=w),
                    precision=precision_score(y, pred, sample_weight=w), recall=recall_score(y, pred, sample_weight=w),
                    f1=f1_score(y, pred, sample_weight=w), roc_auc=roc_auc_score(y, scores[:, 1], sample_weight=w))
    return dict(accuracy=accuracy_score(y, pred, sample_weight=w),
                precision_macro=precision_score(y, pred, sample_weight=w, average="macro"),
                recall_macro=recall_score(y, pred, sample_weight=w, average="macro"),
                f1_macro=f1_score(y, pred, sample_weight=w, average="macro"),
                roc_auc_ovr=np.mean([roc_auc_score(y == c, scores[:, c], sample_weight=w) for c in range(k)]))


def realised(y, p, predicted) -> dict:
    if p.ndim == 1:
        return dict(accuracy=accuracy_score(y, predicted), precision=precision_score(y, predicted),
                    recall=recall_score(y, predicted), f1=f1_score(y, predicted), roc_auc=roc_auc_score(y, p))
    return dict(accuracy=accuracy_score(y, predicted),
                precision_macro=precision_score(y, predicted, average="macro"),
                recall_macro=recall_score(y, predicted, average="macro"),
                f1_macro=f1_score(y, predicted, average="macro"), roc_auc_ovr=roc_auc_score(y, p, multi_class="ovr"))


def test_hand_worked_expected_cells():
    """Scores .9 .8 .3 .2 .1, predicted positive at ≥ 0.5: E TP = .9 + .8 = 1.7, E FP = .1 + .2 = .3, E FN = .3 + .2
    + .1 = .6, E TN = .7 + .8 + .9 = 2.4. Accuracy 4.1/5 = .82, precision 1.7/2 = .85, recall 1.7/2.3, F1 3.4/4.3;
    AUC Σ_g N_g (P_above + P_g/2) / (P N)
    = (.1·.45 + .2·1.3 + .7·1.85 + .8·2.1 + .9·2.25) / (2.3 · 2.7) = 5.305/6.21."""
    p = np.array([0.9, 0.8, 0.3, 0.2, 0.1])
    e = estimate([0, 1, 1, 0], [0.2, 0.7, 0.6, 0.4], p, classes=BINARY, calibration="none", n_resamples=50)
    assert e.values == pytest.approx(dict(accuracy=0.82, precision=0.85, recall=1.7 / 2.3, f1=3.4 / 4.3,
                                          roc_auc=5.305 / 6.21))
    assert e.values == pytest.approx(soft_metrics(np.column_stack([1 - p, p]), (p >= 0.5).astype(int)))
    doc = e.as_json()
    assert doc["accuracy"]["value"] == pytest.approx(0.82) and doc["assumption"] == ASSUMPTION
    assert doc["calibration"]["method"] == "none" and doc["n_unlabelled"] == 5


def test_multiclass_equals_scikit_learn_on_the_expected_labels_and_given_predictions():
    rng = np.random.default_rng(3)
    p = rng.dirichlet([1, 2, 3], 200)
    predicted = rng.integers(0, 3, 200)          # the file's own labels need not be the argmax
    e = estimate(rng.integers(0, 3, 50), rng.dirichlet([1, 1, 1], 50), p, classes=("a", "b", "c"),
                 calibration="none", n_resamples=50, predicted=predicted)
    assert e.values == pytest.approx(soft_metrics(p, predicted))


def test_platt_scaling_is_scikit_learns_logistic_regression_on_the_logit():
    rng = np.random.default_rng(5)
    p_lab, p_unl = rng.uniform(0.02, 0.98, 400), rng.uniform(0.02, 0.98, 300)
    y = (rng.random(400) < p_lab ** 2).astype(int)          # miscalibrated: P(y=1 | s) = s²
    logit = lambda q: np.log(q / (1 - q))   # noqa: E731
    fit = LogisticRegression(C=np.inf, tol=1e-10, max_iter=1000).fit(logit(p_lab)[:, None], y)
    q = fit.predict_proba(logit(p_unl)[:, None])[:, 1]
    e = estimate(y, p_lab, p_unl, classes=BINARY, calibration="platt", n_resamples=50, predicted=p_unl >= 0.5)
    expected = soft_metrics(np.column_stack([1 - q, q]), (p_unl >= 0.5).astype(int))
    expected["roc_auc"] = estimate([0, 1], [.5, .5], q, classes=BINARY, calibration="none", n_resamples=10,
                                   ).values["roc_auc"]  # same ranking: q is increasing in p_unl
    assert e.calibration == "platt" and e.values == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("calibration,reps,n_resamples", [("none", 50, 200), ("auto", 40, 100)])
def test_calibrated_scores_intervals_cover_the_realised_metric_at_about_the_nominal_rate(calibration, reps,
                                                                                          n_resamples):
    """Seeded simulation: calibrated scores, labels drawn from them and hidden; 95 % intervals hold the metric the
    hidden labels give in about 95 % of the files — with the scores taken as they are, and as by default (300
    labelled rows cannot show an ECE within 0.05, so Platt scaling is fitted and resampled)."""
    rng = np.random.default_rng(2026)
    hits = {}
    for _ in range(reps):
        p = rng.beta(1.5, 1.5, 500)
        y = (rng.random(500) < p).astype(int)
        e = estimate(y[:300], p[:300], p[300:], classes=BINARY, n_resamples=n_resamples, calibration=calibration,
                     seed=int(rng.integers(1 << 30)))
        truth = realised(y[300:], p[300:], (p[300:] >= 0.5).astype(int))
        for key, value in truth.items():
            low, high = e.intervals[key]
            hits[key] = hits.get(key, 0) + (low <= value <= high)
    coverage = {k: v / reps for k, v in hits.items()}
    assert all(0.85 <= c <= 1.0 for c in coverage.values()), coverage
    assert 0.9 <= np.mean(list(coverage.values())) <= 0.99, coverage


def test_miscalibrated_scores_are_biased_without_recalibration_and_not_with_it():
    """Scores s with P(y=1 | s) = s^(1/3) (over-cautious): taken as probabilities they under-count the positives;
    the check finds it (ECE interval above 0) and isotonic regression on 2,000 labelled rows removes the bias."""
    rng = np.random.default_rng(11)
    truth_p = rng.beta(2, 2, 4000)
    y = (rng.random(4000) < truth_p).astype(int)
    s = truth_p ** 3
    predicted = (s[2000:] >= 0.5).astype(int)
    real = realised(y[2000:], s[2000:], predicted)
    raw = estimate(y[:2000], s[:2000], s[2000:], classes=BINARY, calibration="none", n_resamples=200)
    fixed = estimate(y[:2000], s[:2000], s[2000:], classes=BINARY, n_resamples=200)
    assert fixed.calibration == "isotonic" and "excludes 0" in fixed.calibration_reason
    for key in ("accuracy", "precision", "roc_auc"):
        assert abs(raw.values[key] - real[key]) > 0.05, (key, raw.values[key], real[key])
        assert not raw.intervals[key][0] <= real[key] <= raw.intervals[key][1]
        assert abs(fixed.values[key] - real[key]) < abs(raw.values[key] - real[key]) / 2
        assert fixed.intervals[key][0] <= real[key] <= fixed.intervals[key][1]


def test_multiclass_simulation_interval_holds_the_realised_values():
    rng = np.random.default_rng(8)
    p = rng.dirichlet([2, 2, 2, 2], 1500)
    y = (rng.random(1500)[:, None] > np.cumsum(p, axis=1)).sum(axis=1)
    e = estimate(y[:1000], p[:1000], p[1000:], classes=tuple("abcd"), n_resamples=200)
    real = realised(y[1000:], p[1000:], p[1000:].argmax(axis=1))
    assert e.calibration in ("none", "platt")   # 1,000 rows of 4 classes cannot show an ECE within 0.05
    for key, value in real.items():
        assert e.intervals[key][0] <= value <= e.intervals[key][1], (key, e.intervals[key], value)


def test_backtest_by_equal_chunks_sets_estimates_beside_scikit_learns_realised_values():
    rng = np.random.default_rng(4)
    p = rng.beta(2, 2, 900)
    y = (rng.random(900) < p).astype(int)
    chunks = np.repeat([1, 2, 3], 300)
    table = backtest(y, p, chunks, classes=BINARY, n_resamples=100)
    assert table["group"].unique().tolist() == [1, 2, 3] and (table["n"] == 300).all()
    for g in (1, 2, 3):
        inside = chunks == g
        real = realised(y[inside], p[inside], (p[inside] >= 0.5).astype(int))
        rows = table[table["group"] == g].set_index("key")
        assert rows["realised"].to_dict() == pytest.approx(real)
        # estimated as if the chunk's labels were missing: calibrated on the other chunks only
        alone = estimate(y[~inside], p[~inside], p[inside], classes=BINARY, n_resamples=100)
        assert rows["estimated"].to_dict() == pytest.approx(alone.values)
    assert ((table["low"] <= table["realised"]) & (table["realised"] <= table["high"])).mean() >= 0.8


def test_refusals():
    with pytest.raises(AssessError, match=r"probabilities in \[0, 1\], and the labelled rows' scores"):
        estimate([0, 1], [0.2, 1.7], [0.5], classes=BINARY)
    with pytest.raises(AssessError, match="labelled rows"):
        estimate([], [], [0.5], classes=BINARY)
    with pytest.raises(ValueError, match="calibration"):
        estimate([0, 1], [0.2, 0.7], [0.5], classes=BINARY, calibration="beta")


def test_multiclass_rows_not_summing_to_one_are_renormalised():
    """A row's expected cells add up to one row: probabilities (.2, .2, .4) count as (.25, .25, .5) — scikit-learn on
    the renormalised soft data set."""
    p = np.array([[0.2, 0.2, 0.4], [0.1, 0.6, 0.1], [0.5, 0.25, 0.25], [0.3, 0.3, 0.4]])
    e = estimate([0, 1, 2], np.eye(3), p, classes=("a", "b", "c"), calibration="none", n_resamples=20)
    assert e.values == pytest.approx(soft_metrics(p / p.sum(axis=1, keepdims=True), p.argmax(axis=1)))
