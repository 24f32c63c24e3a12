"""Everything read off one :class:`~assess.curves.counts.ThresholdCounts` without sorting again (ISO 4213 3.2.13–3.2.16,
6.3.6–6.3.9): the ranking summaries (ROC AUC, average precision, PR AUC, KS), the ROC, precision–recall, cumulative
response (gain), lift and KS curves, and the confusion matrix and operating point at one threshold.

Results that the data leave undefined (one class only) are NaN plus an
:class:`~assess.core.warnings.UndefinedMetricWarning` that says why. Numbers agree with scikit-learn's ``roc_curve``,
``precision_recall_curve``, ``roc_auc_score`` and ``average_precision_score`` (including ties and weights; rows with
zero weight are dropped, as scikit-learn does).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from assess.curves.counts import (ThresholdCounts, check_counts, class_problem, read_only, safe_divide,
                                  undefined_value)
from assess.core.warnings import UndefinedMetricWarning

__all__ = ["roc_auc", "average_precision", "pr_auc", "ks_statistic", "CurveResult", "roc_curve", "pr_curve",
           "gain_curve", "lift_curve", "ks_curve", "Confusion", "confusion_at_threshold", "OperatingPoint",
           "operating_point"]

# ----------------------------------------------------------------------------------------------------------------
# Ranking summaries (the numbers are computed once per counts object, see ThresholdCounts)
# ----------------------------------------------------------------------------------------------------------------

def roc_auc(counts: ThresholdCounts) -> float:
    r"""Area under the ROC curve (ISO 4213 6.3.6), trapezoidal over the exact curve, ties counted as one half.

    .. math::

        \mathrm{AUC} = \sum_{k=1}^{D} (\mathrm{FPR}_k - \mathrm{FPR}_{k-1})\,
        \frac{\mathrm{TPR}_k + \mathrm{TPR}_{k-1}}{2}, \qquad \mathrm{TPR}_0 = \mathrm{FPR}_0 = 0

    with :math:`\mathrm{TPR}_k = \mathrm{tps}_k / n_{pos}`, :math:`\mathrm{FPR}_k = \mathrm{fps}_k / n_{neg}`; equal
    to the probability that a random positive scores above a random negative (plus half the tie probability) and
    to ``sklearn.metrics.roc_auc_score``. NaN plus :class:`UndefinedMetricWarning` when a class is missing.

    >>> roc_auc(threshold_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]))
    0.75
    """
    counts = check_counts(counts)
    reason = class_problem(counts)
    if reason:
        return undefined_value("ROC AUC", reason)
    return counts._auc


def average_precision(counts: ThresholdCounts) -> float:
    r"""Average precision (ISO 4213 6.3.7): the step-wise (non-interpolated) area under the PR curve.

    .. math::

        \mathrm{AP} = \sum_{k=1}^{D} (R_k - R_{k-1})\,P_k, \qquad R_0 = 0,\;
        R_k = \mathrm{tps}_k / n_{pos},\; P_k = \mathrm{tps}_k / (\mathrm{tps}_k + \mathrm{fps}_k)

    Equals ``sklearn.metrics.average_precision_score``. Defined (= 1) when all samples are positive; NaN plus
    :class:`UndefinedMetricWarning` when there is no positive.

    >>> average_precision(threshold_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]))
    0.8333333333333333
    """
    counts = check_counts(counts)
    reason = class_problem(counts, need_neg=False)
    if reason:
        return undefined_value("Average precision", reason)
    return counts._ap


def pr_auc(counts: ThresholdCounts) -> float:
    r"""Trapezoidal area under the precision–recall curve (ISO 4213 6.3.7).

    .. math::

        \mathrm{PR\,AUC} = \sum_{k=1}^{D} (R_k - R_{k-1})\,\frac{P_k + P_{k-1}}{2}, \qquad R_0 = 0,\; P_0 = 1

    — the curve of :func:`pr_curve`, starting at (recall 0, precision 1) as scikit-learn's does; equals
    ``sklearn.metrics.auc(recall, precision)`` on ``precision_recall_curve``. Linear interpolation between PR points
    is optimistic; prefer :func:`average_precision` for reporting. NaN plus warning when there is no positive.

    >>> round(pr_auc(threshold_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])), 12)
    0.791666666667
    """
    counts = check_counts(counts)
    reason = class_problem(counts, need_neg=False)
    if reason:
        return undefined_value("PR AUC", reason)
    return counts._pr_auc


def ks_statistic(counts: ThresholdCounts) -> float:
    r"""Kolmogorov–Smirnov statistic: the largest gap between TPR and FPR over all thresholds.

    .. math::

        \mathrm{KS} = \max_k \lvert \mathrm{TPR}_k - \mathrm{FPR}_k \rvert

    Unweighted, this is the two-sample KS statistic between the scores of positives and negatives
    (``scipy.stats.ks_2samp(...).statistic``); with weights, between the weighted empirical distributions.
    NaN plus warning when a class is missing.

    >>> ks_statistic(threshold_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]))
    0.5
    """
    counts = check_counts(counts)
    reason = class_problem(counts)
    if reason:
        return undefined_value("KS statistic", reason)
    best = counts._ks_best
    return float(abs(counts.tpr[best] - counts.fpr[best]))


# ----------------------------------------------------------------------------------------------------------------
# Curves
# ----------------------------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class CurveResult:
    """One threshold curve, exact (never thinned; use :func:`thin_curve` for drawing only).

    ``x[k]``, ``y[k]`` is the point of the curve at ``thresholds[k]`` (predict positive when score >=
    ``thresholds[k]``); points run from the highest threshold to the lowest. ``x_name``/``y_name`` are the column
    names of :meth:`to_frame`, ``x_label``/``y_label`` the axis titles. Optional parts, by kind: ``area`` and
    ``area_label`` (ROC: "AUC", PR: "AP"), ``baseline`` (the y of a chance model drawn as a horizontal line: PR
    prevalence, lift 1; None where the chance line is the diagonal), ``y2``/``y2_name``/``y2_label`` (KS: the
    FPR), ``statistic`` and ``best_index`` (KS: the largest gap and where it is). Arrays are read-only.
    """

    kind: str
    x: np.ndarray
    y: np.ndarray
    thresholds: np.ndarray
    x_name: str
    y_name: str
    x_label: str
    y_label: str
    area: float | None = None
    area_label: str | None = None
    baseline: float | None = None
    y2: np.ndarray | None = None
    y2_name: str | None = None
    y2_label: str | None = None
    statistic: float | None = None
    best_index: int | None = None

    def __len__(self) -> int:
        return int(self.x.shape[0])

    def to_frame(self):
        """The curve as a pandas DataFrame with columns ``threshold``, ``x_name``, ``y_name`` (and ``y2_name``)."""
        import pandas as pd

        columns = {"threshold": self.thresholds, self.x_name: self.x, self.y_name: self.y}
        if self.y2 is not None:
            columns[self.y2_name] = self.y2
        return pd.DataFrame(columns)


def _warn_curve(what: str, reason: str | None) -> None:
    if reason:
        warnings.warn(f"{what} is undefined: {reason}", UndefinedMetricWarning, stacklevel=3)


def roc_curve(counts: ThresholdCounts) -> CurveResult:
    r"""Receiver operating characteristic curve (ISO 4213 3.2.16, 6.3.6) with its AUC.

    .. math::

        x_0 = y_0 = 0,\; t_0 = +\infty; \qquad
        x_k = \mathrm{FPR}_k = \mathrm{fps}_k / n_{neg},\; y_k = \mathrm{TPR}_k = \mathrm{tps}_k / n_{pos},\;
        t_k = \text{k-th largest distinct score}

    for k = 1..D: the same arrays as ``sklearn.metrics.roc_curve(..., drop_intermediate=False)``, ending at (1, 1).
    ``area`` is :func:`roc_auc`. A missing class makes its rate NaN (with :class:`UndefinedMetricWarning`).

    >>> r = roc_curve(threshold_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]))
    >>> r.x.tolist(), r.y.tolist(), r.area
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], 0.75)
    """
    counts = check_counts(counts)
    reason = class_problem(counts)
    _warn_curve("ROC curve", reason)
    return CurveResult("roc", counts._fpr0, counts._tpr0, counts._thresholds0, "fpr", "tpr",
                       "False positive rate", "True positive rate",
                       area=float("nan") if reason else counts._auc, area_label="AUC")


def pr_curve(counts: ThresholdCounts) -> CurveResult:
    r"""Precision–recall curve (ISO 4213 3.2.15, 6.3.7) with average precision.

    .. math::

        x_0 = 0,\; y_0 = 1,\; t_0 = +\infty; \qquad
        x_k = R_k = \mathrm{tps}_k / n_{pos},\; y_k = P_k = \mathrm{tps}_k / (\mathrm{tps}_k + \mathrm{fps}_k)

    Precision is undefined where nothing is predicted positive (the first point); following scikit-learn's
    ``precision_recall_curve`` it is set to 1 there, so the curve starts at (0, 1). These are scikit-learn's arrays
    in reverse order (scikit-learn lists increasing thresholds and puts the (0, 1) point last without a threshold).
    ``area`` is :func:`average_precision` (``area_label`` "AP"), ``baseline`` the prevalence (a chance model's
    precision). No positive: recall NaN with :class:`UndefinedMetricWarning`.

    >>> p = pr_curve(threshold_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]))
    >>> p.x.tolist(), p.y.round(4).tolist(), round(p.area, 4)
    ([0.0, 0.5, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.6667, 0.5], 0.8333)
    """
    counts = check_counts(counts)
    reason = class_problem(counts, need_neg=False)
    _warn_curve("Precision-recall curve", reason)
    area = float("nan") if reason else counts._ap
    return CurveResult("pr", counts._tpr0, counts._precision0, counts._thresholds0, "recall", "precision",
                       "Recall", "Precision", area=area, area_label="AP", baseline=counts.prevalence)


def gain_curve(counts: ThresholdCounts) -> CurveResult:
    r"""Cumulative response curve, or gain chart (ISO 4213 3.2.13, 6.3.8).

    .. math::

        x_k = \frac{\mathrm{tps}_k + \mathrm{fps}_k}{n_{pos} + n_{neg}}, \qquad
        y_k = \mathrm{TPR}_k = \frac{\mathrm{tps}_k}{n_{pos}}, \qquad x_0 = y_0 = 0,\; t_0 = +\infty

    x is the fraction of the (weighted) samples predicted positive, y the fraction of all positives found; the
    curve runs from (0, 0) to (1, 1), a random ranking follows the diagonal and a perfect one reaches y = 1 at
    x = prevalence. Within a tie group rows switch together, so the segment between two points is the expected
    curve under a random order of the tied rows. No positive: y NaN with :class:`UndefinedMetricWarning`.

    >>> g = gain_curve(threshold_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]))
    >>> g.x.tolist(), g.y.tolist()
    ([0.0, 0.25, 0.5, 0.75, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    counts = check_counts(counts)
    _warn_curve("Cumulative response curve", class_problem(counts, need_neg=False))
    return CurveResult("gain", counts._ppf0, counts._tpr0, counts._thresholds0, "predicted_positive_fraction",
                       "tpr", "Fraction of samples predicted positive",
                       "True positive rate (fraction of positives found)")


def lift_curve(counts: ThresholdCounts) -> CurveResult:
    r"""Lift curve (ISO 4213 3.2.14, 6.3.9): TPR of the model over that of a random classifier.

    .. math::

        x_k = \frac{\mathrm{tps}_k + \mathrm{fps}_k}{n_{pos} + n_{neg}}, \qquad
        y_k = \frac{\mathrm{TPR}_k}{x_k} = \frac{\mathrm{tps}_k / (\mathrm{tps}_k + \mathrm{fps}_k)}{n_{pos} /
        (n_{pos} + n_{neg})} = \frac{P_k}{\text{prevalence}}

    A random classifier predicting a fraction x positive finds a fraction x of the positives, hence baseline 1. At
    the first point (x = 0, threshold +inf) the ratio is 0/0; it is set to the lift of the top tie group
    (y_0 = y_1), the limit of the ratio along the first segment of the gain curve, so the curve starts flat at
    its highest lift. No positive: y NaN with :class:`UndefinedMetricWarning`.

    >>> lift_curve(threshold_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])).y.tolist()
    [2.0, 2.0, 1.0, 1.3333333333333333, 1.0]
    """
    counts = check_counts(counts)
    _warn_curve("Lift curve", class_problem(counts, need_neg=False))
    x, tpr = counts._ppf0, counts._tpr0
    y = np.empty_like(x)
    np.divide(tpr[1:], x[1:], out=y[1:])
    y[:1] = y[1:2]
    return CurveResult("lift", x, read_only(y), counts._thresholds0, "predicted_positive_fraction", "lift",
                       "Fraction of samples predicted positive", "Lift (TPR / fraction predicted positive)",
                       baseline=1.0)


def ks_curve(counts: ThresholdCounts) -> CurveResult:
    r"""Kolmogorov–Smirnov chart: TPR (``y``) and FPR (``y2``) against the threshold (``x``), one point per
    distinct score, decreasing.

    .. math::

        x_k = t_k, \quad y_k = \mathrm{TPR}_k, \quad y2_k = \mathrm{FPR}_k, \quad
        \mathrm{best\_index} = \arg\max_k \lvert y_k - y2_k \rvert, \quad \mathrm{statistic} = \lvert y - y2
        \rvert_{\mathrm{best\_index}}

    (no +inf point: it cannot be drawn on a threshold axis). ``statistic`` is :func:`ks_statistic`; ``best_index``
    the first threshold where it is reached. A missing class: NaN rates and statistic, ``best_index`` None.

    >>> k = ks_curve(threshold_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]))
    >>> k.statistic, float(k.x[k.best_index])
    (0.5, 0.8)
    """
    counts = check_counts(counts)
    reason = class_problem(counts)
    _warn_curve("KS curve", reason)
    best = None if reason or not len(counts) else counts._ks_best
    statistic = float("nan") if best is None else float(abs(counts.tpr[best] - counts.fpr[best]))
    return CurveResult("ks", counts.thresholds, counts.tpr, counts.thresholds, "threshold", "tpr", "Threshold",
                       "Cumulative fraction predicted positive", y2=counts.fpr, y2_name="fpr",
                       y2_label="False positive rate", statistic=statistic, best_index=best)


# ----------------------------------------------------------------------------------------------------------------
# At one threshold
# ----------------------------------------------------------------------------------------------------------------

class Confusion(NamedTuple):
    """Confusion counts at one threshold (weighted when the counts are)."""

    tp: float
    fp: float
    tn: float
    fn: float


def _check_threshold(threshold) -> float:
    try:
        value = float(threshold)
    except (TypeError, ValueError):
        raise TypeError(f"`threshold` must be a number (got {threshold!r})") from None
    if np.isnan(value):
        raise ValueError("`threshold` must not be NaN (got nan)")
    return value


def _index_at(counts: ThresholdCounts, threshold: float) -> int:
    """Number of distinct scores >= threshold = index of the point in the curves (which start at +inf)."""
    return len(counts) - int(np.searchsorted(counts._ascending, threshold, side="left"))


def confusion_at_threshold(counts: ThresholdCounts, threshold: float) -> Confusion:
    """Confusion counts when predicting positive for score >= ``threshold`` (a binary search, no pass over rows).

    >>> confusion_at_threshold(threshold_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 0.35)
    Confusion(tp=2.0, fp=1.0, tn=1.0, fn=0.0)
    """
    counts = check_counts(counts)
    k = _index_at(counts, _check_threshold(threshold))
    tp = float(counts.tps[k - 1]) if k else 0.0
    fp = float(counts.fps[k - 1]) if k else 0.0
    return Confusion(tp, fp, counts.n_neg - fp, counts.n_pos - tp)


@dataclass(frozen=True)
class OperatingPoint:
    """Where one threshold sits on the curves: ``index`` is the point's index in the arrays of
    :func:`roc_curve`, :func:`pr_curve`, :func:`gain_curve` and :func:`lift_curve` (0 = nothing predicted
    positive); the rates are those curves' coordinates there."""

    threshold: float
    index: int
    tp: float
    fp: float
    tn: float
    fn: float
    tpr: float
    fpr: float
    precision: float
    predicted_positive_fraction: float
    lift: float

    @property
    def recall(self) -> float:
        return self.tpr


def operating_point(counts: ThresholdCounts, threshold: float) -> OperatingPoint:
    r"""The confusion counts and curve coordinates at ``threshold`` (predict positive when score >= threshold).

    ``tpr``, ``fpr``, ``predicted_positive_fraction`` are the ROC/gain coordinates, ``precision`` the PR
    coordinate, ``lift`` = tpr / predicted_positive_fraction. When nothing is predicted positive precision and
    lift are 0/0: they are NaN here (the curves' drawing conventions do not apply to a reported number) and an
    :class:`UndefinedMetricWarning` says so; a missing class makes its rate NaN likewise.

    >>> op = operating_point(threshold_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 0.5)
    >>> op.index, op.tpr, op.fpr, op.precision
    (1, 0.5, 0.0, 1.0)
    """
    counts = check_counts(counts)
    t = _check_threshold(threshold)
    k = _index_at(counts, t)
    tp, fp, tn, fn = confusion_at_threshold(counts, t)
    reason = class_problem(counts)
    if reason:
        warnings.warn(f"Rates at threshold {t} are partly undefined: {reason}", UndefinedMetricWarning,
                      stacklevel=2)
    if tp + fp == 0:
        warnings.warn(f"Precision and lift at threshold {t} are undefined: no sample is predicted positive "
                      f"(no score >= {t})", UndefinedMetricWarning, stacklevel=2)
    tpr = float(safe_divide(tp, counts.n_pos))
    ppf = float(safe_divide(tp + fp, counts.n_total))
    return OperatingPoint(t, k, tp, fp, tn, fn, tpr, float(safe_divide(fp, counts.n_neg)),
                          float(safe_divide(tp, tp + fp)), ppf, float(safe_divide(tpr, ppf)))


