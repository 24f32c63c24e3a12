r"""What the decisions cost: each model's confusion matrix at a decision and its expected cost under a stated cost
matrix — the one computation behind the Confusion page, the report's costs section and the CLI's report.

The cost matrix :math:`C` has the true class in rows and the predicted class in columns, in the order of the encoded
classes (binary: the negative class, then the positive one); with a model's confusion matrix :math:`M` at the
decision the expected cost per sample is

.. math:: \bar c = \frac{\sum_{ij} M_{ij} C_{ij}}{\sum_{ij} M_{ij}}

(NaN when :math:`\sum M = 0`: no samples, no cost).

The rule for a cost matrix (:func:`cost_matrix`): square, one row and column per class, every cell a finite number.
Negative cells are allowed: a negative cost is a benefit (the value of a fraud caught), as in Elkan, "The Foundations
of Cost-Sensitive Learning" (IJCAI 2001, section 2), and the expected cost is then a net cost, negative when the
decisions gain more than they lose. ISO/IEC TS 4213 writes costs as non-negative numbers, and a matrix of benefits can
always be written so: adding the same amount to every cell of a row changes every model's expected cost by the same
amount times that class's share and leaves the least-cost decisions unchanged (Elkan, Theorem 1). Refusing negatives
would make the user do that shift by hand; NaN and infinity are refused, since no cost can be computed from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from assess.analyses.operating_points import top_classes_matrix
from assess.core.data import Task
from assess.core.decision import Decision, predicted_labels
from assess.core.errors import AssessError
from assess.inputs.assessment import Assessment
from assess.inputs.columns import quote
from assess.metrics.multiclass import confusion_matrix

__all__ = ["cost_matrix", "expected_cost", "ModelConfusion", "Confusions", "confusions"]


def cost_matrix(values, classes: Sequence[str]) -> np.ndarray:
    """``values`` as a float (k, k) cost matrix for the k ``classes``, or `AssessError` saying what is wrong (the
    shape, or the first cell that is not a finite number). Negative cells are benefits (see the module).

    >>> cost_matrix([[0, 1], [5, -2]], ["no", "yes"]).tolist()
    [[0.0, 1.0], [5.0, -2.0]]
    """
    k = len(classes)
    names = ", ".join(map(quote, classes))
    try:
        c = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise AssessError(f"the cost matrix must hold numbers, one row and one column per class "
                          f"({names})") from None
    if c.shape != (k, k):
        shape = " × ".join(str(n) for n in c.shape) or "a single number"
        raise AssessError(f"the cost matrix is {shape} but there are {k} classes ({names}): "
                          f"it needs one row (true class) and one column (predicted class) per class")
    bad = ~np.isfinite(c)
    if bad.any():
        i, j = np.unravel_index(int(np.flatnonzero(bad)[0]), c.shape)
        many = bad.sum() > 1
        raise AssessError(f"the cost matrix has {int(bad.sum())} cell{'s' if many else ''} that "
                          f"{'are' if many else 'is'} not a finite number (first: true {quote(classes[i])}, predicted "
                          f"{quote(classes[j])}: {c[i, j]}); fill every cell with a cost (a benefit as a negative cost)")
    return c


def expected_cost(matrix, costs) -> float:
    r"""Average cost per sample of the decisions counted in ``matrix`` under the checked ``costs`` (same shape, true ×
    predicted): :math:`\sum_{ij} M_{ij} C_{ij} / \sum_{ij} M_{ij}`, NaN when the matrix counts nothing.

    >>> expected_cost([[90, 10], [5, 95]], [[0, 1], [10, 0]])
    0.3
    """
    m = np.asarray(matrix, dtype=np.float64)
    total = m.sum()
    return float((m * np.asarray(costs, dtype=np.float64)).sum() / total) if total > 0 else float("nan")


@dataclass(frozen=True, eq=False)
class ModelConfusion:
    """One model's decisions: its (k, k) confusion ``matrix`` (rows true, columns predicted, encoded class order),
    the matrix to draw (``drawn`` over ``drawn_classes``: the classes with the most true rows, ``pooled`` others summed
    into a last row and column; 0 when drawn whole), ``samples`` and ``errors`` (weighted), and ``expected`` cost per
    sample (NaN when no cost matrix was given or no sample counted)."""

    model: str
    matrix: np.ndarray
    drawn: np.ndarray
    drawn_classes: tuple[str, ...]
    pooled: int
    samples: float
    errors: float
    expected: float


@dataclass(frozen=True, eq=False)
class Confusions:
    """The ``models`` that have labels at the decision, and the ``skipped`` ones with the reason (model, reason)."""

    classes: tuple[str, ...]
    models: tuple[ModelConfusion, ...]
    skipped: tuple[tuple[str, str], ...]


def confusions(assessment: Assessment, models: Sequence[str], *, decision: Decision = Decision(), costs=None,
               max_drawn: int = 30) -> Confusions:
    """Each binary or multi-class model's confusion matrix at ``decision`` and, with ``costs``, its expected cost.

    ``costs`` is checked by :func:`cost_matrix` against the encoded classes (`AssessError` when it does not fit). A
    model whose labels the decision cannot give (no label column, no scores) is ``skipped`` with the reason.
    """
    task = assessment.task
    if task not in (Task.BINARY, Task.MULTICLASS):
        raise AssessError(f"confusion matrices and decision costs apply to binary and multi-class decisions; this "
                          f"file is {task.value}")
    classes = tuple(assessment.predictions(models[0]).classes) if models else tuple(assessment.classes)
    c = None if costs is None else cost_matrix(costs, classes)
    rows, skipped = [], []
    for m in models:
        pred = assessment.predictions(m)
        try:
            codes = predicted_labels(task, pred.y_pred, pred.scores, decision, labels=pred.classes, model=m)
        except AssessError as exc:
            skipped.append((m, str(exc)))
            continue
        cm = confusion_matrix(pred.y_true, codes, len(classes), pred.weight)
        drawn, names, pooled = top_classes_matrix(cm, classes, max_drawn)
        rows.append(ModelConfusion(m, cm, drawn, tuple(names), pooled, float(cm.sum()), float(cm.sum() - np.trace(cm)),
                                   float("nan") if c is None else expected_cost(cm, c)))
    return Confusions(classes, tuple(rows), tuple(skipped))
