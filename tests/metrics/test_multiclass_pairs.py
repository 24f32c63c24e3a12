"""Hand & Till's pairwise AUCs :math:`A(a|b)` (`assess.metrics.multiclass.ovo_matrix`), computed for every b at once.

Oracles: scikit-learn's binary ``roc_auc_score`` on the rows of classes a and b (weighted, with ties) for each pair,
its ``roc_auc_score(multi_class="ovo")`` for the average; as a cross-check only, the pair loop this replaced,
written out below.
"""

import time

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from assess import curves
from assess.core.data import Predictions, Task
from assess.metrics import evaluate
from assess.metrics.multiclass import ovo_matrix


def pair_loop(y, scores, weight, rankings):
    """The k² loop of the code before (cross-check): per pair, the trapezoid over the groups both classes occupy."""
    k = scores.shape[1]
    out = np.full((k, k), np.nan)
    for a in range(k):
        D = rankings[a].thresholds.shape[0]
        per_class = np.bincount(y * D + rankings[a].group, weights=weight, minlength=k * D).reshape(k, D)
        for b in range(k):
            if b != a and per_class[a].sum() > 0 and per_class[b].sum() > 0:
                live = (per_class[a] + per_class[b]) > 0
                out[a, b] = curves.trapezoid_auc(np.cumsum(per_class[a][live]), np.cumsum(per_class[b][live]))
    return out


def data(seed, n, k, *, decimals=1, weighted=True, empty=None):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    if empty is not None:
        y[y == empty] = (empty + 1) % k
    scores = np.round(rng.random((n, k)) + 0.4 * np.eye(k)[y], decimals)        # rounding makes ties
    w = rng.uniform(0.1, 3.0, n) if weighted else None
    return y, scores, w, [curves.rank_scores(scores[:, c]) for c in range(k)]


@pytest.mark.parametrize("seed,n,k,weighted", [(0, 400, 3, True), (1, 1500, 6, True), (2, 900, 5, False)])
def test_every_pair_is_scikit_learns_binary_auc_on_the_two_classes(seed, n, k, weighted):
    y, scores, w, rankings = data(seed, n, k, weighted=weighted)
    got = ovo_matrix(y, scores, w, rankings)
    for a in range(k):
        assert np.isnan(got[a, a])
        for b in range(k):
            if a != b:
                rows = (y == a) | (y == b)
                expected = roc_auc_score(y[rows] == a, scores[rows, a], sample_weight=None if w is None else w[rows])
                assert got[a, b] == pytest.approx(expected, abs=1e-12), (a, b)
    assert got == pytest.approx(pair_loop(y, scores, w, rankings), abs=1e-12, nan_ok=True)


def test_a_class_without_rows_leaves_its_row_and_column_undefined():
    y, scores, w, rankings = data(3, 300, 4, empty=2)
    got = ovo_matrix(y, scores, w, rankings)
    assert np.isnan(got[2]).all() and np.isnan(got[:, 2]).all()
    assert np.isfinite(got[np.ix_([0, 1, 3], [0, 1, 3])][~np.eye(3, dtype=bool)]).all()
    assert got == pytest.approx(pair_loop(y, scores, w, rankings), abs=1e-12, nan_ok=True)


def test_the_average_is_scikit_learns_one_vs_one_auc():
    y, raw, _, _ = data(4, 2000, 7, decimals=2, weighted=False)
    scores = raw / raw.sum(axis=1, keepdims=True)                  # scikit-learn asks for probabilities here
    pred = Predictions(Task.MULTICLASS, tuple(f"c{c}" for c in range(7)), y, None, scores)
    got = evaluate(pred, ["roc_auc_ovo"], baselines=False)["roc_auc_ovo"].value
    assert got == pytest.approx(roc_auc_score(y, scores, multi_class="ovo"), abs=1e-12)


def test_1500_classes_take_seconds_not_minutes():
    """Issue 32: a 1,500-class file spent minutes in the pair loop (about a minute here for 3,000 rows, 2.25
    million pairs); one pass per class takes well under a second, so 30 s leaves room for a loaded machine."""
    rng = np.random.default_rng(5)
    n, k = 3000, 1500
    y = rng.integers(0, k, n)
    scores = rng.random((n, k))
    scores[np.arange(n), y] += 0.5
    rankings = [curves.rank_scores(scores[:, c]) for c in range(k)]
    start = time.perf_counter()
    got = ovo_matrix(y, scores, None, rankings)
    assert time.perf_counter() - start < 30
    a, b = y[0], y[1]
    if a != b:
        rows = (y == a) | (y == b)
        assert got[a, b] == pytest.approx(roc_auc_score(y[rows] == a, scores[rows, a]), abs=1e-12)
