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
from functools import partial

import numpy as np

from assess.core.data import Predictions, Task
from assess.core.errors import AssessError


def registry_metric(task: Task | str, key: str, *, classes: Sequence[str], beta: float = 1.0, k: int = 2):
    r"""The metric ``key`` of ``task`` as ``f(y_true, y, sample_weight=None)``.

    ``y`` is what the metric needs (``f.uses_scores``): encoded predicted labels (already decided, see
    :mod:`assess.core.decision`) for label metrics, scores for score and probability metrics, predicted values for
    regression and forecast metrics (encodings of :class:`assess.core.data.Predictions`). An undefined value is NaN (the
    metric engine's warning is silenced here: the paired bootstrap counts such resamples itself). ``f.__name__`` is
    the key, which the sentences use; ``f.higher_is_better`` follows the registry's direction.

    Every metric of labels, scores, probabilities, numeric predictions and reference classes is vectorised
    (``f.vectorized``): a 2-D ``sample_weight`` of shape (replicates, n) — the paired bootstrap's count weights —
    gives one value per row from the same batch statistics the Metrics page's bootstrap uses
    (:mod:`assess.metrics.resampling`): e.g. :math:`\mathrm{mae}_r = \sum_i w_{ri}|e_i| / \sum_i w_{ri}` in one
    matrix product, a label metric from the replicate's cells :math:`\sum_i w_{ri}[y_i = a][\hat y_i = b]`, a score
    metric (ROC AUC, average precision, log loss, …) from the replicate's class counts per distinct score through one
    sort of the scores. A numeric metric of ``y_true`` with K columns (a multi-output regression) is the uniform
    average of the K outputs' values, as `assess.metrics.multioutput` averages them. ``f.prepare(y_true, y)`` does
    the per-model work (the sort, the cell codes) once and returns the function of the weights, so a bootstrap over
    many chunks of replicates sorts each model's scores once.
    """
    from assess.metrics.evaluate import evaluate
    from assess.metrics.registry import get

    task = Task(task)
    spec = get(task, key)   # AssessError listing the valid keys
    if spec.needs == "features":
        raise AssessError(f"`{key}` is an internal clustering index (it reads the features, which the tests do not "
                          "resample); compare clusterings on an external index such as adjusted_rand_index")
    numeric = spec.needs == "values"
    clusters = spec.needs == "reference"
    uses_scores = spec.needs not in ("labels", "values", "reference")
    classes = tuple(classes)
    if numeric:
        prepare = partial(_numeric_rows, spec)
    elif clusters:
        prepare = partial(_clustering_rows, spec)
    elif task.is_classification and spec.needs in ("labels", "scores", "probabilities"):
        prepare = partial(_classification_rows, task, spec, classes, beta, k, uses_scores)
    else:
        prepare = None

    def metric(y_true, y, sample_weight=None):
        w = None if sample_weight is None else np.asarray(sample_weight, dtype=float)
        if numeric and np.ndim(y_true) == 2:   # K outputs: the uniform average of their values (NaN if one is)
            return np.mean([metric(np.asarray(y_true)[:, k], np.asarray(y)[:, k], w)
                            for k in range(np.shape(y_true)[1])], axis=0)
        if prepare is not None and w is not None and w.ndim == 2:
            return prepare(np.asarray(y_true), np.asarray(y))(w)
        pred = Predictions(task, classes, np.asarray(y_true), None if uses_scores else np.asarray(y),
                           np.asarray(y) if uses_scores else None, weight=w)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = evaluate(pred, [key], beta=beta, k=k, baselines=False)[key].value
        return float(value) if value is not None else math.nan

    metric.__name__ = key
    metric.uses_scores = uses_scores
    metric.vectorized = prepare is not None
    metric.prepare = prepare
    metric.higher_is_better = spec.direction != "lower"
    return metric


def _quietly(fn):
    """``fn`` with NumPy's and the metric engine's warnings silenced (undefined resamples are NaN, counted by the
    bootstrap)."""
    def run(weights):
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return np.asarray(fn(weights), dtype=float).reshape(weights.shape[0], -1)[:, 0]
    return run


def _classification_rows(task, spec, classes, beta, k, uses_scores, y_true: np.ndarray, y: np.ndarray):
    r"""One value of a classification metric per row of ``weights`` (replicates, n), the rows prepared once.

    The Metrics page's batch statistics (:mod:`assess.metrics.resampling`) with unit row weights, so a row of
    ``weights`` — the bootstrap's count weights, times any sample weights — is the weight of each sample (binary
    scores with whole-number counts: the virtual-row layout, the counts gathered in score order): a label metric reads the resample's cells (one bincount of cell codes per chunk), a score metric the
    resample's class counts per distinct score through the *one* sort of each score column done here (a
    bincount per class, a cumulative sum, then the registry formula — ROC AUC, average precision, log loss, …;
    Efron & Tibshirani 1993 ch. 6, the bootstrap as reweighting). Nothing is sorted per replicate.
    """
    from assess import curves
    from assess.core.decision import Decision, predicted_labels
    from assess.metrics import binary, multiclass, multilabel, resampling

    n = y_true.shape[0]
    ones = np.ones(n)
    if task is Task.BINARY:
        yt = y_true == 1
        if not uses_scores:
            yp = y == 1
            state = binary.binary_state(yt, yp, None, None, beta=beta)
            return _quietly(resampling.binary_cells_statistic(state, [spec], yt, yp, ones)[0])
        s = np.asarray(y, dtype=np.float64)
        state = binary.binary_state(yt, s >= 0.5, s, None, beta=beta)
        # Whole-number weights (bootstrap counts): the unweighted layout's virtual rows, positives then negatives in
        # decreasing score order — a sample's count is the count of its virtual row, as the samples of one class
        # and score are interchangeable — and integer running counts (exact, and half the work of float sums).
        descending = np.argsort(s, kind="stable")[::-1]
        virtual = np.concatenate([descending[yt[descending]], descending[~yt[descending]]])
        by_cells, layout = resampling.binary_score_statistic(state, [spec], yt, s, None)
        # The layout's cells (distinct score × class, in the virtual rows' order) hold consecutive virtual rows:
        # a replicate's count per cell is the sum of its rows' counts (`frequencies` rows per cell).
        frequencies = layout["frequencies"]
        starts = np.concatenate(([0], np.cumsum(frequencies)[:-1]))

        def counted(w):
            return by_cells(w if frequencies.size == n else np.add.reduceat(w, starts, axis=1, dtype=np.int64))
        # Other weights: the weighted layout, the real rows positives first, one bincount per class and score
        # (its score groups from one more sort, made the first time such weights come).
        real = np.concatenate([np.flatnonzero(yt), np.flatnonzero(~yt)])
        weighted = []

        def rows(w):
            if w.dtype.kind in "iu" and w.size:
                # Both bounds in one pass (the counts are new in each chunk, so the check stays per chunk, but one
                # pass not two): read as unsigned, a negative count is at least 2^63, so max ≤ 255 ⇔ 0 ≤ w ≤ 255.
                u = w.view(np.dtype(f"u{w.dtype.itemsize}"))
                if int(u.max()) <= 255:        # bytes: the gather in score order reads an eighth of the memory
                    return counted(np.take(u.astype(np.uint8), virtual, axis=1))
                if int(w.min()) >= 0 and int(w.sum(axis=1).max()) <= 255 * n:   # the int32 running counts hold
                    return counted(np.take(w, virtual, axis=1))
            if not weighted:
                weighted.append(resampling.binary_score_statistic(state, [spec], yt, s, ones,
                                                                  curves.rank_scores(s))[0])
            return weighted[0](np.take(w, real, axis=1))
        return _quietly(rows)
    if task is Task.MULTICLASS:
        yt = np.asarray(y_true, dtype=np.intp)
        if not uses_scores:
            yp = np.asarray(y, dtype=np.intp)
            state = multiclass.multiclass_state(yt, yp, None, None, classes, beta=beta, top_k=k)
            return _quietly(resampling.multiclass_cells_statistic(state, [spec], yt, yp, ones)[0])
        s = np.asarray(y, dtype=np.float64)
        rankings = [curves.rank_scores(s[:, c]) for c in range(s.shape[1])]
        state = multiclass.multiclass_state(yt, s.argmax(axis=1), s, None, classes, beta=beta, top_k=k,
                                            rankings=rankings)
        return _quietly(resampling.multiclass_score_statistic(state, [spec], yt, s, ones, rankings)[0])
    yt = np.asarray(y_true, dtype=bool)
    s = np.asarray(y, dtype=np.float64) if uses_scores else None
    yp = (np.asarray(predicted_labels(task, None, s, Decision(), labels=classes), dtype=bool) if uses_scores
          else np.asarray(y, dtype=bool))
    state = multilabel.multilabel_state(yt, yp, s, None, classes, beta=beta)
    return _quietly(resampling.multilabel_statistic(state, [spec], yt, yp, s, ones)[0])


def _clustering_rows(spec, y_true: np.ndarray, clusters: np.ndarray):
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

    def rows(weights):
        tables = np.zeros((weights.shape[0], R * C))
        tables[:, used] = np.asarray((onehot.T @ weights[:, known].T).T)
        return spec.compute(ClusteringState(tables.reshape(-1, R, C), batch=True))
    return _quietly(rows)


def _numeric_rows(spec, y_true: np.ndarray, y_pred: np.ndarray):
    """One value of a numeric metric per row of ``weights`` (replicates, n): the bootstrap's batch state."""
    from assess.metrics import regression, resampling

    y_true, y_pred = np.asarray(y_true, dtype=float), np.asarray(y_pred, dtype=float)
    if y_true.ndim == 2:   # K outputs: the uniform average of the outputs' values, replicate by replicate
        outputs = [_numeric_rows(spec, y_true[:, k], y_pred[:, k]) for k in range(y_true.shape[1])]
        return lambda weights: np.mean([rows(weights) for rows in outputs], axis=0)
    state = regression.regression_state(y_true, y_pred, None, parts=spec.shared)
    statistic, _ = resampling.regression_statistic(state, [spec], y_true, y_pred, None)
    return _quietly(statistic)
