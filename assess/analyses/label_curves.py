r"""What the multi-label views draw (ISO/IEC TS 4213:2022 6.5): per-label ROC and precision–recall curves with their
micro and macro averages, the label-cardinality distribution, and label co-occurrence — true against predicted.

- Per-label curves: label l is the binary problem ``y[:, l]`` against ``scores[:, l]`` — one sort per label
  (:func:`assess.curves.threshold_counts`). The micro-average pools every (sample, label) pair into one binary
  problem of n·L rows (scikit-learn's ``average="micro"``: ``y.ravel()`` against ``scores.ravel()``); the macro
  areas are the unweighted means of the per-label areas (``average="macro"``), over the labels where they are
  defined (a label that never occurs has no ROC curve).
- Label cardinality (ISO 4213 6.5, ``label_cardinality``): the number of labels a sample has, :math:`|Y_i|`; its
  distribution over the samples, true and predicted, shows a model that predicts too few or too many labels.
- Co-occurrence: :math:`C = Y^\top W Y` (``W`` the sample weights), :math:`C_{jk}` the (weighted) number of samples
  that have both label j and label k, the label counts on the diagonal; from the true and the predicted labels.

The predicted labels come from :func:`assess.core.decision.decide` (the file's labels, or the scores at one threshold per
label), as everywhere else.
"""

from __future__ import annotations

import warnings

import numpy as np

from assess import curves
from assess.analyses.operating_points import OneVsRest, suggested_thresholds
from assess.core.data import Predictions, Task
from assess.core.decision import Decision, decide
from assess.core.errors import AssessError


def _check(pred: Predictions) -> None:
    if pred.task is not Task.MULTILABEL:
        raise AssessError(f"multi-label views need a multi-label model (model `{pred.model}` is {pred.task.value})")


def per_label_curves(pred: Predictions) -> OneVsRest:
    """ROC and PR curves of every label (keyed by label name), their micro-averages and macro areas."""
    _check(pred)
    if pred.scores is None:
        raise AssessError(f"model `{pred.model}` has no scores (`score_<label>` columns), so it has no curves")
    y = np.asarray(pred.y_true, dtype=bool)
    s = np.asarray(pred.scores, dtype=np.float64)
    w = pred.weight
    per_label = [curves.threshold_counts(y[:, j], s[:, j], sample_weight=w) for j in range(y.shape[1])]
    micro = curves.threshold_counts(y.ravel(), s.ravel(), sample_weight=None if w is None else np.repeat(w, y.shape[1]))
    with warnings.catch_warnings():  # a label absent from the truth has no curve; its area is NaN and left out
        warnings.simplefilter("ignore")
        roc = {str(label): curves.roc_curve(k) for label, k in zip(pred.classes, per_label)}
        pr = {str(label): curves.pr_curve(k) for label, k in zip(pred.classes, per_label)}
        macro_roc = float(np.nanmean([c.area for c in roc.values()])) if any(
            np.isfinite(c.area) for c in roc.values()) else float("nan")
        macro_pr = float(np.nanmean([c.area for c in pr.values()])) if any(
            np.isfinite(c.area) for c in pr.values()) else float("nan")
        return OneVsRest(roc, pr, curves.roc_curve(micro), curves.pr_curve(micro), macro_roc, macro_pr)


def cardinality_distribution(pred: Predictions, decision: Decision = Decision()) -> dict[str, np.ndarray]:
    """``{"true": counts, "predicted": counts}``: the (weighted) number of samples with 0, 1, …, L labels."""
    _check(pred)
    decided = decide(pred, decision)
    n_labels = len(pred.classes)
    w = np.ones(len(pred.y_true)) if pred.weight is None else np.asarray(pred.weight, dtype=np.float64)
    out = {}
    for name, labels in (("true", pred.y_true), ("predicted", decided.y_pred)):
        sizes = np.asarray(labels, dtype=bool).sum(axis=1)
        out[name] = np.bincount(sizes, weights=w, minlength=n_labels + 1)
    return out


def cooccurrence(pred: Predictions, decision: Decision = Decision()) -> dict[str, np.ndarray]:
    """``{"true": C, "predicted": C}``, each (L, L): samples with both labels j and k (weighted), counts on the
    diagonal."""
    _check(pred)
    decided = decide(pred, decision)
    w = np.ones(len(pred.y_true)) if pred.weight is None else np.asarray(pred.weight, dtype=np.float64)
    out = {}
    for name, labels in (("true", pred.y_true), ("predicted", decided.y_pred)):
        y = np.asarray(labels, dtype=np.float64)
        out[name] = y.T @ (y * w[:, None])
    return out


def label_support(pred: Predictions) -> np.ndarray:
    """The (weighted) number of samples that have each label, in label order."""
    _check(pred)
    w = np.ones(len(pred.y_true)) if pred.weight is None else np.asarray(pred.weight, dtype=np.float64)
    return w @ np.asarray(pred.y_true, dtype=np.float64)


#: Rules of :func:`assess.analyses.operating_points.suggested_thresholds` that need no target: one threshold per label by each.
LABEL_RULES = {"max_fbeta": "highest F1", "youden": "Youden's J (TPR − FPR)", "min_cost": "fewest errors"}


def per_label_thresholds(pred: Predictions, rule: str = "max_fbeta") -> dict[str, float]:
    """Each label's threshold by one rule of :func:`assess.analyses.operating_points.suggested_thresholds` (``max_fbeta`` with β = 1,
    ``youden``, or ``min_cost`` with unit costs: the fewest wrong decisions), from that label's own counts (one sort
    per label). A label where the rule has no point (e.g. a label that never occurs has no Youden's J) is left out,
    so it keeps the common threshold."""
    _check(pred)
    if rule not in LABEL_RULES:
        raise AssessError(f"`rule` must be one of {', '.join(LABEL_RULES)} (got {rule!r})")
    if pred.scores is None:
        raise AssessError(f"model `{pred.model}` has no scores, so its labels have no thresholds to choose")
    y = np.asarray(pred.y_true, dtype=bool)
    s = np.asarray(pred.scores, dtype=np.float64)
    out = {}
    for j, label in enumerate(pred.classes):
        counts = curves.threshold_counts(y[:, j], s[:, j], sample_weight=pred.weight)
        found = [x.threshold for x in suggested_thresholds(counts) if x.key == rule]
        if found:
            out[str(label)] = found[0]
    return out


def label_cardinality(assessment, model: str, decision: Decision = Decision()) -> dict[str, np.ndarray]:
    """`cardinality_distribution` of ``model`` of an assessment."""
    return cardinality_distribution(assessment.predictions(model), decision)


def label_cooccurrence(assessment, model: str, decision: Decision = Decision()) -> dict[str, np.ndarray]:
    """`cooccurrence` of ``model`` of an assessment."""
    return cooccurrence(assessment.predictions(model), decision)
