"""Benchmark (not a test) of the clustering indices: ``python bench/bench_clustering.py [rows]``.

Prints, in one run:

1. all ten external indices at 1e7 rows (one :func:`assess.metrics.evaluate`: one contingency table from one
   ``np.bincount``, no intervals or baselines) as a ratio to one ``numpy.unique(labels, return_inverse=True)`` of
   the cluster labels (target ≤ 3×);
2. the same indices from scikit-learn's functions called one by one (purity from its ``contingency_matrix``;
   target: ours ≥ 5× faster);
3. the silhouette of a 1e6-row file with 10 features: time to the sampled estimate and its interval.

Each timing is the best of a few runs (the machine may be shared). The labels are integer codes, as the loading
layer gives them (:class:`assess.core.data.Predictions`).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import sklearn.metrics as skm
from sklearn.metrics.cluster import contingency_matrix

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assess.core.data import Predictions, Task  # noqa: E402
from assess.metrics import evaluate  # noqa: E402
from assess.metrics.clustering import EXTERNAL_KEYS, SILHOUETTE_REPEATS, SILHOUETTE_SAMPLE  # noqa: E402
from bench.timing import best  # noqa: E402


def sklearn_all(y, k):
    table = contingency_matrix(y, k, sparse=True)
    return [skm.rand_score(y, k), skm.adjusted_rand_score(y, k), table.max(axis=0).sum() / y.size,
            table.max(axis=1).sum() / y.size, skm.homogeneity_score(y, k), skm.completeness_score(y, k),
            skm.v_measure_score(y, k), skm.adjusted_mutual_info_score(y, k), skm.normalized_mutual_info_score(y, k),
            skm.fowlkes_mallows_score(y, k)]


def main(rows: int = 10_000_000) -> None:
    rng = np.random.default_rng(0)
    y = rng.integers(0, 5, rows)
    k = np.where(rng.random(rows) < 0.7, y, rng.integers(0, 6, rows))
    pred = Predictions(Task.CLUSTERING, tuple("abcde"), y, k)
    unique = best(lambda: np.unique(k, return_inverse=True))
    ours = best(lambda: evaluate(pred, list(EXTERNAL_KEYS), baselines=False))
    print(f"{rows:,} rows, 5 classes × 6 clusters")
    print(f"  np.unique(return_inverse=True): {unique:.3f} s")
    print(f"  all 10 external indices (evaluate): {ours:.3f} s = {ours / unique:.2f}× np.unique (target ≤ 3×)")
    theirs = best(lambda: sklearn_all(y, k), repeat=1)
    print(f"  scikit-learn one by one: {theirs:.3f} s; ours is {theirs / ours:.1f}× faster (target ≥ 5×)")
    values = evaluate(pred, list(EXTERNAL_KEYS), baselines=False).values
    worst = max(abs(values[key] - v) for key, v in zip(EXTERNAL_KEYS, sklearn_all(y, k)))
    print(f"  largest difference from scikit-learn: {worst:.2e}")

    n, d = 1_000_000, 10
    labels = rng.integers(0, 4, n)
    X = rng.normal(size=(n, d)) + labels[:, None]
    sil = Predictions(Task.CLUSTERING, (), None, labels, features=X)
    start = time.perf_counter()
    report = evaluate(sil, ["silhouette"], ci="auto", baselines=False)
    took = time.perf_counter() - start
    r = report["silhouette"]
    print(f"silhouette, {n:,} rows × {d} features: {r.value:.4f} ({r.low:.4f} to {r.high:.4f}) in {took:.2f} s "
          f"({SILHOUETTE_REPEATS} seeded samples of {SILHOUETTE_SAMPLE:,} rows)")


if __name__ == "__main__":
    main(int(float(sys.argv[1])) if len(sys.argv) > 1 else 10_000_000)
