"""ISO/IEC TS 4213 5.3.13 baselines: analytic expectations worked by hand, simulations against independent formulas."""

from __future__ import annotations

import numpy as np
import pytest

from assess.core.data import Predictions, Task
from assess.metrics import evaluate

pytestmark = pytest.mark.filterwarnings("ignore")


def binary(n=1000, pi=0.3, seed=0, weight=None):
    rng = np.random.default_rng(seed)
    y = np.zeros(n, dtype=np.int8)
    y[: int(round(pi * n))] = 1
    s = np.clip(rng.normal(0.3 + 0.3 * y, 0.2), 0, 1)
    return Predictions(Task.BINARY, ("neg", "pos"), y, None, s, weight=weight)


def test_binary_analytic_baselines():
    r = evaluate(binary())
    pi = 0.3
    acc = r["accuracy"].baselines
    assert acc["majority"] == pytest.approx(1 - pi)
    assert acc["stratified"] == pytest.approx(pi ** 2 + (1 - pi) ** 2)        # sum of squared priors
    assert acc["uniform"] == pytest.approx(0.5)
    rec = r["recall"].baselines
    assert (rec["majority"], rec["stratified"], rec["uniform"]) == pytest.approx((0.0, pi, 0.5))
    prec = r["precision"].baselines
    assert np.isnan(prec["majority"])                  # never predicts positive: undefined, not 0
    assert prec["stratified"] == pytest.approx(pi) and prec["uniform"] == pytest.approx(pi)
    assert r["balanced_accuracy"].baselines["stratified"] == pytest.approx(0.5)
    assert r["informedness"].baselines["uniform"] == pytest.approx(0.0)
    assert r["accuracy"].baseline_method == "majority exact; random baselines analytic (expected confusion matrix)"


def test_binary_score_baselines_are_those_of_constant_probabilities():
    r = evaluate(binary())
    pi = 0.3
    for s in ("majority", "stratified", "uniform"):
        assert r["roc_auc"].baselines[s] == 0.5
        assert r["ks_statistic"].baselines[s] == 0.0
        assert r["average_precision"].baselines[s] == pytest.approx(pi)
    entropy = -(pi * np.log(pi) + (1 - pi) * np.log(1 - pi))
    assert r["log_loss"].baselines["majority"] == pytest.approx(entropy)
    assert r["log_loss"].baselines["uniform"] == pytest.approx(np.log(2))
    assert r["brier_score"].baselines["stratified"] == pytest.approx(pi * (1 - pi))
    assert r["brier_score"].baselines["uniform"] == pytest.approx(0.25)


def test_simulated_baselines_are_close_to_their_large_n_expectation_and_seeded():
    # a random predictor independent of the truth: E[tp] = P q, E[fp] = N q, so F1 -> 2 pi q / (pi + q)
    r = evaluate(binary(n=5000), seed=1)
    pi = 0.3
    f1 = r["f1"].baselines
    assert f1["stratified"] == pytest.approx(pi, abs=0.01)
    assert f1["uniform"] == pytest.approx(2 * pi * 0.5 / (pi + 0.5), abs=0.01)
    assert r["mcc"].baselines["stratified"] == pytest.approx(0.0, abs=0.01)
    assert "seeded simulation (200 draws)" in r["f1"].baseline_method
    again = evaluate(binary(n=5000), seed=1)
    assert again["f1"].baselines == r["f1"].baselines
    other = evaluate(binary(n=5000), seed=2)
    assert other["f1"].baselines["stratified"] != r["f1"].baselines["stratified"]


def test_weighted_priors_drive_the_baselines():
    w = np.where(binary().y_true == 1, 3.0, 1.0)           # weighted prevalence 0.9 / (0.9 + 0.7) = 0.5625
    r = evaluate(binary(weight=w))
    piw = 900 / 1600
    assert r["accuracy"].baselines["stratified"] == pytest.approx(piw ** 2 + (1 - piw) ** 2)
    assert r["accuracy"].baselines["majority"] == pytest.approx(piw)
    assert r["f1"].baselines["stratified"] == pytest.approx(piw, abs=0.02)


def test_multiclass_baselines():
    rng = np.random.default_rng(0)
    prior = np.array([0.5, 0.3, 0.2])
    y = np.repeat(np.arange(3), (prior * 1000).astype(int))
    P = rng.dirichlet(np.ones(3), 1000)
    r = evaluate(Predictions(Task.MULTICLASS, ("a", "b", "c"), y, None, P), k=2)
    acc = r["accuracy"].baselines
    assert acc["majority"] == pytest.approx(0.5)
    assert acc["stratified"] == pytest.approx(np.sum(prior ** 2))
    assert acc["uniform"] == pytest.approx(1 / 3)
    assert r["balanced_accuracy"].baselines["stratified"] == pytest.approx(1 / 3)
    assert r["top_k_accuracy"].baselines["uniform"] == pytest.approx(2 / 3)
    assert r["top_k_accuracy"].baselines["majority"] == pytest.approx(0.8)     # the two most frequent classes
    assert r["log_loss"].baselines["uniform"] == pytest.approx(np.log(3))
    assert r["log_loss"].baselines["majority"] == pytest.approx(-np.sum(prior * np.log(prior)))
    assert r["brier_score"].baselines["uniform"] == pytest.approx(2 / 3)
    assert r["roc_auc_ovr"].baselines["stratified"] == 0.5
    assert r["cccsmf_accuracy"].baselines["stratified"] > 0.5                  # the random allocation is stratified


def test_multilabel_baselines():
    rng = np.random.default_rng(1)
    Y = rng.random((400, 3)) < np.array([0.1, 0.6, 0.3])
    S = rng.random((400, 3))
    r = evaluate(Predictions(Task.MULTILABEL, ("x", "y", "z"), Y, None, S))
    p = Y.mean(axis=0)
    h = r["hamming_loss"].baselines
    assert h["majority"] == pytest.approx(np.mean(np.minimum(p, 1 - p)))
    assert h["stratified"] == pytest.approx(np.mean(2 * p * (1 - p)))
    assert h["uniform"] == pytest.approx(0.5)
    assert r["recall_micro"].baselines["uniform"] == pytest.approx(0.5)
    assert r["exact_match_ratio"].baselines["uniform"] == pytest.approx(1 / 8, abs=0.02)


@pytest.mark.parametrize("p", [0.0, 0.3, 0.5, 1.0, 1.2])
@pytest.mark.parametrize("weighted", [False, True])
def test_constant_score_closed_form_equals_the_per_row_path(p, weighted):
    """The baselines' closed-form state of a constant score gives every metric exactly as the full per-row path."""
    import warnings

    from assess.metrics import binary as binary_metrics
    from assess.metrics.registry import metrics_for

    rng = np.random.default_rng(int(p * 10) + weighted)
    n = 500
    y = (rng.random(n) < 0.3).astype(np.int8)
    yp = np.zeros(n, dtype=np.int8)
    w = rng.uniform(0.2, 3, n) if weighted else None
    closed = binary_metrics.binary_state(y, yp, np.float64(p), w)
    full = binary_metrics.binary_state(y, yp, np.full(n, p), w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for spec in metrics_for(Task.BINARY):
            a, b = float(spec.compute(closed)), float(spec.compute(full))
            assert (np.isnan(a) and np.isnan(b)) or a == pytest.approx(b, rel=1e-12, abs=1e-12), spec.key


def test_loss_sums_equal_the_per_row_losses():
    from assess.metrics.binary import loss_sums, per_row_losses

    rng = np.random.default_rng(9)
    y = rng.random(1000) < 0.4
    p = np.r_[rng.random(996), 0.0, 1.0, 0.0, 1.0]  # the clipped extremes too
    w = rng.uniform(0.1, 2, 1000)
    for weight in (None, w):
        l1, l2 = per_row_losses(y, p)
        expected = (l1.sum(), l2.sum()) if weight is None else (weight @ l1, weight @ l2)
        assert loss_sums(y, p, weight) == pytest.approx(expected, rel=1e-13)
