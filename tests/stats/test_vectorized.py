"""The vectorised registry metrics of the bootstraps (assess.stats.bridge): one value per row of a (replicates, n)
weight matrix, from one sort per model.

Oracles: each row equals the same metric evaluated on that row of weights alone (the per-replicate path through
`assess.metrics.evaluate`, itself checked against scikit-learn in tests/metrics/test_oracle.py), and scikit-learn's
weighted ROC AUC, average precision, log loss and Brier score on a replicate directly; a paired bootstrap with the
vectorised path draws the same replicates as the per-replicate one, so every delta, the p-value and the interval
agree to rounding.
"""

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, brier_score_loss, f1_score, log_loss, roc_auc_score

from assess.core.data import Task
from assess.metrics.registry import metrics_for
from assess.stats import paired_bootstrap, unpaired_bootstrap
from assess.stats.bridge import registry_metric

N = 120


def _weights(rng, n=N, b=6):
    """Bootstrap count weights (one row per replicate), the first row also times sample weights, one row with
    a sample drawn zero times everywhere but once."""
    w = rng.multinomial(n, np.ones(n) / n, size=b).astype(float)
    w[0] *= rng.random(n)
    return w


def _cases(rng):
    y = rng.integers(0, 2, N)
    s = np.round(rng.random(N), 1)                        # ties: 11 distinct scores
    k = 3
    ym = rng.integers(0, k, N)
    proba = np.round(rng.dirichlet(np.ones(k), N), 2)
    proba /= proba.sum(axis=1, keepdims=True)
    yl = rng.random((N, 3)) < 0.4
    sl = np.round(rng.random((N, 3)), 1)
    return {Task.BINARY: (y, (s >= 0.5).astype(int), s, ("0", "1")),
            Task.MULTICLASS: (ym, proba.argmax(axis=1), proba, ("a", "b", "c")),
            Task.MULTILABEL: (yl, sl >= 0.5, sl, ("p", "q", "r"))}


@pytest.mark.parametrize("task", [Task.BINARY, Task.MULTICLASS, Task.MULTILABEL], ids=lambda t: t.value)
def test_every_classification_metric_batch_equals_one_replicate_at_a_time(task):
    rng = np.random.default_rng(5)
    y, labels, scores, classes = _cases(rng)[task]
    weights = _weights(rng)
    checked = 0
    for spec in metrics_for(task):
        metric = registry_metric(task, spec.key, classes=classes)
        assert metric.vectorized, spec.key
        x = scores if metric.uses_scores else labels
        batch = metric(y, x, sample_weight=weights)
        one_by_one = np.array([metric(y, x, sample_weight=w) for w in weights])
        assert batch.shape == (weights.shape[0],)
        np.testing.assert_allclose(batch, one_by_one, rtol=0, atol=1e-12, err_msg=spec.key, equal_nan=True)
        checked += 1
    assert checked >= 15


def test_binary_score_metrics_of_a_replicate_equal_scikit_learn():
    rng = np.random.default_rng(8)
    y, _, s, classes = _cases(rng)[Task.BINARY]
    weights = _weights(rng)
    oracle = {"roc_auc": roc_auc_score, "average_precision": average_precision_score,
              "log_loss": log_loss, "brier_score": brier_score_loss}
    for key, fn in oracle.items():
        metric = registry_metric(Task.BINARY, key, classes=classes)
        batch = metric.prepare(y, s)(weights)
        expected = [fn(y, s, sample_weight=w) for w in weights]
        np.testing.assert_allclose(batch, expected, rtol=1e-12, err_msg=key)
    f1 = registry_metric(Task.BINARY, "f1", classes=classes)
    labels = (s >= 0.3).astype(int)
    np.testing.assert_allclose(f1(y, labels, sample_weight=weights),
                               [f1_score(y, labels, sample_weight=w) for w in weights], rtol=1e-12)


def test_prepare_runs_once_per_model_and_nothing_sorts_per_replicate(monkeypatch):
    """The paired bootstrap prepares each model once (its sort), however many chunks of replicates it draws, and
    the replicates themselves sort nothing."""
    rng = np.random.default_rng(1)
    n = 50_000                                            # 4e6 cells per chunk: 80 replicates a chunk, 3 chunks
    y = rng.integers(0, 2, n)
    metric = registry_metric(Task.BINARY, "roc_auc", classes=("0", "1"))
    prepared, real = [], metric.prepare
    metric.prepare = lambda *args: prepared.append(1) or real(*args)
    sorts, argsort = [], np.argsort
    monkeypatch.setattr(np, "argsort", lambda *a, **k: sorts.append(1) or argsort(*a, **k))
    paired_bootstrap(y, rng.random(n), rng.random(n), metric=metric, n_resamples=200, vectorized=True, seed=0)
    assert len(prepared) == 2
    assert len(sorts) <= 4                                # at most two per model, all in prepare


@pytest.mark.parametrize("task", [Task.BINARY, Task.MULTICLASS, Task.MULTILABEL], ids=lambda t: t.value)
def test_whole_number_counts_give_the_same_values_as_float_weights(task):
    """Bootstrap counts without sample weights arrive as integers (binary scores then take the virtual-row layout):
    the same values as the same counts as floats, and as one replicate at a time."""
    rng = np.random.default_rng(6)
    y, labels, scores, classes = _cases(rng)[task]
    counts = rng.multinomial(N, np.ones(N) / N, size=5)
    for spec in metrics_for(task):
        metric = registry_metric(task, spec.key, classes=classes)
        x = scores if metric.uses_scores else labels
        as_int = metric(y, x, sample_weight=counts)
        np.testing.assert_allclose(as_int, metric(y, x, sample_weight=counts.astype(float)), rtol=0, atol=1e-12,
                                   err_msg=spec.key, equal_nan=True)
        np.testing.assert_allclose(as_int, [metric(y, x, sample_weight=c) for c in counts], rtol=0, atol=1e-12,
                                   err_msg=spec.key, equal_nan=True)


@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "sample-weights"])
@pytest.mark.parametrize("key", ["roc_auc", "average_precision", "log_loss", "ks_statistic", "f1", "mcc"])
def test_paired_bootstrap_vectorised_equals_per_replicate(key, weighted):
    rng = np.random.default_rng(3)
    n = 300
    y = rng.integers(0, 2, n)
    sa = np.clip(np.round(0.3 * y + rng.random(n) * 0.7, 2), 0, 1)
    sb = np.clip(np.round(0.2 * y + rng.random(n) * 0.8, 2), 0, 1)
    weight = rng.random(n) + 0.5 if weighted else None
    metric = registry_metric(Task.BINARY, key, classes=("0", "1"))
    a, b = (sa, sb) if metric.uses_scores else ((sa >= 0.5).astype(int), (sb >= 0.5).astype(int))
    common = dict(metric=metric, n_resamples=150, seed=11, sample_weight=weight, names=("A", "B"))
    fast = paired_bootstrap(y, a, b, vectorized=True, **common)
    slow = paired_bootstrap(y, a, b, vectorized=False, **common)
    assert fast.statistic == pytest.approx(slow.statistic, abs=1e-12)
    assert fast.pvalue == slow.pvalue
    assert (fast.effect.interval.low, fast.effect.interval.high) == pytest.approx(
        (slow.effect.interval.low, slow.effect.interval.high), abs=1e-12)
    assert fast.details.n_invalid == slow.details.n_invalid


def test_unpaired_bootstrap_vectorised_equals_per_replicate():
    rng = np.random.default_rng(4)
    ya, yb = rng.integers(0, 2, 80), rng.integers(0, 2, 60)
    sa, sb = np.round(rng.random(80), 2), np.round(rng.random(60), 2)
    metric = registry_metric(Task.BINARY, "average_precision", classes=("0", "1"))
    common = dict(metric=metric, n_resamples=120, seed=2)
    fast = unpaired_bootstrap(ya, sa, yb, sb, vectorized=True, **common)
    slow = unpaired_bootstrap(ya, sa, yb, sb, vectorized=False, **common)
    assert fast.pvalue == slow.pvalue
    assert (fast.statistic, fast.effect.interval.low, fast.effect.interval.high) == pytest.approx(
        (slow.statistic, slow.effect.interval.low, slow.effect.interval.high), abs=1e-12)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint16])
def test_binary_score_counts_of_any_integer_type_and_size_equal_scikit_learn(dtype):
    """The binary score path picks its layout from the counts' range (bytes, int32 running counts, or the weighted
    rows) by one unsigned pass: counts within a byte, counts above 255, and one row with a zero, of any integer type,
    give scikit-learn's weighted ROC AUC and average precision."""
    rng = np.random.default_rng(12)
    y, _, s, classes = _cases(rng)[Task.BINARY]
    small = rng.multinomial(N, np.ones(N) / N, size=3)
    large = small * 300                                   # above a byte: the int32 running counts
    for counts in (small.astype(dtype), large.astype(dtype)):
        for key, fn in {"roc_auc": roc_auc_score, "average_precision": average_precision_score}.items():
            batch = registry_metric(Task.BINARY, key, classes=classes).prepare(y, s)(counts)
            np.testing.assert_allclose(batch, [fn(y, s, sample_weight=w) for w in counts], rtol=1e-12,
                                       err_msg=f"{key} {counts.max()}")
