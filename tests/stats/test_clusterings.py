"""Tests between clusterings: the permutation test against random partitions (oracle: SciPy's
``scipy.stats.permutation_test`` permuting the cluster column, scikit-learn's ARI) and the paired bootstrap of an
external index (oracle: scikit-learn on the rows repeated as the bootstrap counts say)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

from assess.core.data import Predictions, Task
from assess.core.errors import AssessError
from assess.stats import compare
from assess.stats.bridge import registry_metric
from assess.stats.clusterings import better_than_random


def test_permutation_p_value_matches_scipy_permutation_test():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 60)
    k = np.where(rng.random(60) < 0.15, y, rng.integers(0, 3, 60))     # weakly related: p neither 0 nor 1
    ours = better_than_random(y, k, n_resamples=2500, seed=2)
    theirs = stats.permutation_test((k,), lambda kk: adjusted_rand_score(y, kk), permutation_type="pairings",
                                    n_resamples=2500, alternative="greater", rng=3)
    assert ours.statistic == pytest.approx(adjusted_rand_score(y, k), abs=1e-12)
    assert 0.02 < theirs.pvalue < 0.9
    assert ours.pvalue == pytest.approx(theirs.pvalue, abs=0.035)   # two Monte-Carlo estimates
    assert ours.details.random_mean == pytest.approx(np.mean(theirs.null_distribution), abs=0.005)


def test_a_good_clustering_is_better_than_random_and_a_random_one_is_not():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 4, 400)
    good = better_than_random(y, np.where(rng.random(400) < 0.8, y, rng.integers(0, 4, 400)), n_resamples=500)
    assert good.pvalue == pytest.approx(1 / 501) and "is significant" in good.sentence
    noise = better_than_random(y, rng.integers(0, 4, 400), n_resamples=500, index="normalized_mutual_info")
    assert noise.pvalue > 0.05 and "is not significant" in noise.sentence
    with pytest.raises(AssessError, match="must be an external clustering index"):
        better_than_random(y, y, index="silhouette")


def clusterings():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 3, 120)
    ids = np.arange(120).astype(str).astype(object)
    return [Predictions(Task.CLUSTERING, ("a", "b", "c"), y, np.where(rng.random(120) < p, y, rng.integers(0, 3, 120)),
                        ids=ids, model=m) for m, p in (("good", 0.9), ("poor", 0.4))]


@pytest.mark.parametrize("key, oracle", [("adjusted_rand_index", adjusted_rand_score),
                                         ("normalized_mutual_info", normalized_mutual_info_score)])
def test_vectorised_index_per_resample_equals_scikit_learn_on_repeated_rows(key, oracle):
    pred = clusterings()[1]
    metric = registry_metric(Task.CLUSTERING, key, classes=pred.classes)
    assert metric.vectorized and not metric.uses_scores
    counts = np.random.default_rng(0).multinomial(pred.n, np.full(pred.n, 1 / pred.n), size=5)
    got = metric(pred.y_true, pred.y_pred, sample_weight=counts)
    for row, value in zip(counts, got):
        rows = np.repeat(np.arange(pred.n), row)
        assert value == pytest.approx(oracle(pred.y_true[rows], pred.y_pred[rows]), abs=1e-12)


def test_paired_bootstrap_of_the_ari_difference():
    good, poor = clusterings()
    result = compare([good, poor], test="paired_bootstrap", metric="adjusted_rand_index", n_resamples=500)
    effect = result.result.effect
    assert effect.value == pytest.approx(adjusted_rand_score(good.y_true, good.y_pred)
                                         - adjusted_rand_score(poor.y_true, poor.y_pred), abs=1e-12)
    assert effect.interval.low < effect.value < effect.interval.high and result.result.pvalue < 0.01
    with pytest.raises(AssessError, match="internal clustering index"):
        compare([good, poor], test="paired_bootstrap", metric="silhouette")
    perm = compare([good, poor], test="better_than_random", metric="adjusted_rand_index", n_resamples=300)
    assert [p.model_a for p in perm.pairs] == ["good", "poor"] and perm.pairs[0].model_b == "random partition"
