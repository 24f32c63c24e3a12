"""A registry metric as the plain callable the tests take: ``f(y_true, y, sample_weight=None) -> float``.

The paired bootstrap and the fold tests on predictions accept any such callable; :func:`registry_metric` builds one
from a metric key of :mod:`assess.metrics` (``"f1"``, ``"roc_auc"``, …) through the public
:func:`assess.metrics.evaluate.evaluate`, so ``compare(..., metric="f1")`` and the CLI's ``--metric f1`` give the same
numbers as the Metrics page.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np

from assess.data import Predictions, Task
from assess.errors import AssessError


def registry_metric(task: Task | str, key: str, *, classes: Sequence[str], beta: float = 1.0, k: int = 2):
    r"""The metric ``key`` of ``task`` as ``f(y_true, y, sample_weight=None)``.

    ``y`` is what the metric needs (``f.uses_scores``): encoded predicted labels (already decided, see
    :mod:`assess.decision`) for label metrics, scores for score and probability metrics, predicted values for
    regression and forecast metrics (encodings of :class:`assess.data.Predictions`). An undefined value is NaN (the
    metric engine's warning is silenced here: the paired bootstrap counts such resamples itself). ``f.__name__`` is
    the key, which the sentences use; ``f.higher_is_better`` follows the registry's direction.

    Metrics of numeric predictions are vectorised (``f.vectorized``): a 2-D ``sample_weight`` of shape
    (replicates, n) — the paired bootstrap's count weights — gives one value per row from the same batch state the
    Metrics page's bootstrap uses (:func:`assess.metrics.resampling.regression_statistic`), e.g.
    :math:`\mathrm{mae}_r = \sum_i w_{ri}|e_i| / \sum_i w_{ri}` in one matrix product.
    """
    from assess.metrics.evaluate import evaluate
    from assess.metrics.registry import get

    task = Task(task)
    try:
        spec = get(task, key)
    except ValueError as exc:
        raise AssessError(str(exc)) from None
    if spec.needs == "features":
        raise AssessError(f"`{key}` is an internal clustering index (it reads the features, which the tests do not "
                          "resample); compare clusterings on an external index such as adjusted_rand_index")
    numeric = spec.needs == "values"
    clusters = spec.needs == "reference"
    uses_scores = spec.needs not in ("labels", "values", "reference")
    classes = tuple(classes)

    def metric(y_true, y, sample_weight=None):
        w = None if sample_weight is None else np.asarray(sample_weight, dtype=float)
        if numeric and w is not None and w.ndim == 2:
            return _numeric_rows(spec, np.asarray(y_true, dtype=float), np.asarray(y, dtype=float), w)
        if clusters and w is not None and w.ndim == 2:
            return _clustering_rows(spec, np.asarray(y_true), np.asarray(y), w)
        pred = Predictions(task, classes, np.asarray(y_true), None if uses_scores else np.asarray(y),
                           np.asarray(y) if uses_scores else None, weight=w)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = evaluate(pred, [key], beta=beta, k=k, baselines=False)[key].value
        return float(value) if value is not None else math.nan

    metric.__name__ = key
    metric.uses_scores = uses_scores
    metric.vectorized = numeric or clusters
    metric.higher_is_better = spec.direction != "lower"
    return metric


def _clustering_rows(spec, y_true: np.ndarray, clusters: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """One value of an external clustering index per row of ``weights`` (replicates, n): each replicate's
    contingency table is ``weights @ onehot(class·C + cluster)`` — one matrix product for the whole chunk — and the
    index is the registry formula on that batch of tables (rows without a reference class, code −1, left out)."""
    from scipy import sparse

    from assess.metrics.clustering import ClusteringState

    y = np.asarray(y_true, dtype=np.int64)
    k = np.asarray(clusters, dtype=np.int64)
    known = y >= 0
    R, C = int(y.max(initial=0)) + 1, int(k.max(initial=0)) + 1
    cells = y[known] * C + k[known]
    used, inverse = np.unique(cells, return_inverse=True)       # only the cells that occur
    onehot = sparse.csr_matrix((np.ones(cells.size), (np.arange(cells.size), inverse)), shape=(cells.size, used.size))
    tables = np.zeros((weights.shape[0], R * C))
    tables[:, used] = np.asarray((onehot.T @ weights[:, known].T).T)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        out = spec.compute(ClusteringState(tables.reshape(-1, R, C), batch=True))
    return np.asarray(out, dtype=float).reshape(weights.shape[0])


def _numeric_rows(spec, y_true: np.ndarray, y_pred: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """One value of a numeric metric per row of ``weights`` (replicates, n): the bootstrap's batch state."""
    from assess.metrics import regression, resampling

    state = regression.regression_state(y_true, y_pred, None, parts=spec.shared)
    statistic, _ = resampling.regression_statistic(state, [spec], y_true, y_pred, None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(statistic(weights), dtype=float).reshape(weights.shape[0], -1)[:, 0]
