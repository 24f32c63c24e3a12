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
    """The metric ``key`` of ``task`` as ``f(y_true, y, sample_weight=None)``.

    ``y`` is what the metric needs (``f.uses_scores``): encoded predicted labels (already decided, see
    :mod:`assess.decision`) for label metrics, scores for
    score and probability metrics (encodings of :class:`assess.data.Predictions`). An undefined value is NaN (the
    metric engine's warning is silenced here: the paired bootstrap counts such resamples itself). ``f.__name__`` is
    the key, which the sentences use.
    """
    from assess.metrics.evaluate import evaluate
    from assess.metrics.registry import get

    task = Task(task)
    if not task.is_classification and task != Task.CLUSTERING:
        return numeric_metric(key)
    try:
        spec = get(task, key)
    except ValueError as exc:
        raise AssessError(str(exc)) from None
    uses_scores = spec.needs != "labels"
    classes = tuple(classes)

    def metric(y_true, y, sample_weight=None) -> float:
        w = None if sample_weight is None else np.asarray(sample_weight, dtype=float)
        pred = Predictions(task, classes, np.asarray(y_true), None if uses_scores else np.asarray(y),
                           np.asarray(y) if uses_scores else None, weight=w)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = evaluate(pred, [key], beta=beta, k=k, baselines=False)[key].value
        return float(value) if value is not None else math.nan

    metric.__name__ = key
    metric.uses_scores = uses_scores
    return metric


#: Error metrics of numeric predictions :func:`numeric_metric` computes, with their meaning.
NUMERIC_METRICS = {"mae": "mean absolute error", "mse": "mean squared error", "rmse": "root mean squared error"}


def numeric_metric(key: str):
    r"""The regression/forecast error metric ``key`` (``mae`` = mean |e|, ``mse`` = mean e², ``rmse`` = √mse, with
    e = y_true − y_pred, weighted means under ``sample_weight``) as ``f(y_true, y_pred, sample_weight=None)``.

    Vectorised (``f.vectorized``): a 2-D ``sample_weight`` of shape (replicates, n) — the paired bootstrap's count
    weights — gives one value per row in one matrix product, :math:`\mathrm{mae}_r = \sum_i w_{ri}|e_i| /
    \sum_i w_{ri}`. Lower is better for all three.

    TODO(issue 9): once :func:`assess.metrics.evaluate.evaluate` takes regression and forecast predictions (being
    done in another branch), build these from the metric registry like the classification metrics above, so the
    Compare page and the Metrics page share one definition; this local loss keeps the tests between models
    independent of that work until the merge.
    """
    if key not in NUMERIC_METRICS:
        raise AssessError(f"metric `{key}` is not available for comparing numeric predictions here (choose one of "
                          f"{', '.join(NUMERIC_METRICS)})")

    def metric(y_true, y_pred, sample_weight=None):
        e = np.asarray(y_true, dtype=float) - np.asarray(y_pred, dtype=float)
        loss = np.abs(e) if key == "mae" else e * e
        if sample_weight is None:
            value = loss.mean()
        else:
            w = np.asarray(sample_weight, dtype=float)
            total = w.sum(axis=-1)
            with np.errstate(invalid="ignore", divide="ignore"):
                value = (w @ loss) / total          # NaN where a row of weights is all zero
        return np.sqrt(value) if key == "rmse" else value

    metric.__name__ = key
    metric.uses_scores = False
    metric.vectorized = True
    metric.higher_is_better = False
    return metric
