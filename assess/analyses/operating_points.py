r"""What the Confusion and Curves pages show, computed once per model: curves, operating points, decile tables.

Every binary curve of a model comes from its one :func:`assess.curves.threshold_counts` sort (ISO 4213 6.3.6–6.3.9);
moving the threshold afterwards is a binary search in those counts, so the threshold explorer never sorts again.
Multi-label data are explored one label at a time (that label's scores against its truth); multi-class data through
one-vs-rest curves per class and the micro-average.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from assess import curves
from assess.core.data import Predictions, Task
from assess.core.decision import Decision, decide
from assess.core.errors import AssessError
from assess.inputs.columns import sort_labels
from assess.metrics.multilabel import label_cells
from assess.metrics.threshold import metric_vs_threshold

# --- one binary scorer ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class ScoredModel:
    """All threshold curves of one binary scorer (a binary model, or one label of a multi-label model).

    ``positive``/``negative`` name the classes; ``calibration`` is None (with ``calibration_reason``) when the scores
    are not probabilities; ``scores_by_class`` maps class name → its rows' scores, for the distribution chart.
    """

    name: str
    positive: str
    negative: str
    counts: curves.ThresholdCounts
    roc: curves.CurveResult
    pr: curves.CurveResult
    gain: curves.CurveResult
    lift: curves.CurveResult
    ks: curves.CurveResult
    calibration: curves.CalibrationResult | None
    calibration_reason: str | None
    scores_by_class: dict


#: The label of a multi-class model's micro-average view: every (row, class) pair as one binary row.
MICRO_AVERAGE = "micro-average"


def binary_view(pred: Predictions, label: str | None = None) -> Predictions:
    """A binary `Predictions` of a binary model; of one label of a multi-label model; or of one class against the
    rest of a multi-class model (``label`` a class), or of its micro-average (``label`` `MICRO_AVERAGE`: the n·k
    one-hot rows against the flattened scores, each row's weight repeated k times, as scikit-learn's micro-averaged
    curves)."""
    if pred.task is Task.BINARY:
        return pred
    if pred.task not in (Task.MULTILABEL, Task.MULTICLASS):
        raise AssessError(f"a {pred.task.value} model has no binary view")
    k = len(pred.classes)
    if pred.task is Task.MULTICLASS and label == MICRO_AVERAGE:
        truth = (pred.y_true[:, None] == np.arange(k)).ravel().astype(np.int8)
        return replace(pred, task=Task.BINARY, classes=("other class", "true class"), y_true=truth, y_pred=None,
                       scores=None if pred.scores is None else pred.scores.ravel(),
                       weight=None if pred.weight is None else np.repeat(pred.weight, k),
                       fold=None if pred.fold is None else np.repeat(pred.fold, k),
                       ids=None, group=None, time=None, series=None, horizon=None, origin=None)
    if label not in pred.classes:
        what = "label" if pred.task is Task.MULTILABEL else "class"
        raise AssessError(f"no {what} {label!r} ({what}s: {', '.join(pred.classes)})")
    j = pred.classes.index(label)
    if pred.task is Task.MULTICLASS:
        truth = pred.y_true == j
        predicted = None if pred.y_pred is None else (pred.y_pred == j)
    else:
        truth = pred.y_true[:, j]
        predicted = None if pred.y_pred is None else pred.y_pred[:, j]
    return replace(pred, task=Task.BINARY, classes=(f"not {label}", label), y_true=truth.astype(np.int8),
                   y_pred=None if predicted is None else predicted.astype(np.int8),
                   scores=None if pred.scores is None else pred.scores[:, j])


def scored_model(pred: Predictions, *, calibration_bins: int = 10,
                 calibration_strategy: str = "uniform") -> ScoredModel:
    """Every curve of a binary ``pred`` (which must have scores) from one sort."""
    if pred.scores is None:
        raise AssessError(f"model {pred.model!r} has no scores, so it has no threshold curves; add a score column")
    y, s, w = pred.y_true, pred.scores, pred.weight
    counts = curves.threshold_counts(y, s, sample_weight=w)
    with warnings.catch_warnings():  # a one-class input: the curves are NaN and the Metrics page says why
        warnings.simplefilter("ignore")
        roc, pr, gain, lift, ks = (curves.roc_curve(counts), curves.pr_curve(counts), curves.gain_curve(counts),
                                   curves.lift_curve(counts), curves.ks_curve(counts))
    calibration, reason = None, None
    if np.nanmin(s) < 0 or np.nanmax(s) > 1:
        reason = "the scores are not probabilities in [0, 1], so there is nothing to calibrate against"
    else:
        calibration = curves.calibration_curve(y, s, n_bins=calibration_bins, strategy=calibration_strategy,
                                          sample_weight=w)
    negative, positive = pred.classes
    positive_mask = y.astype(bool)
    return ScoredModel(pred.model, positive, negative, counts, roc, pr, gain, lift, ks, calibration, reason,
                       {positive: s[positive_mask], negative: s[~positive_mask]})


# --- operating points ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Suggestion:
    """A suggested threshold: ``key`` names the rule, ``why`` says what it achieves in plain words."""

    key: str
    label: str
    threshold: float
    why: str


def suggested_thresholds(counts: curves.ThresholdCounts, *, beta: float = 1.0, cost_fp: float = 1.0,
                         cost_fn: float = 1.0, target_precision: float | None = None,
                         target_recall: float | None = None) -> list[Suggestion]:
    r"""Operating points worth one click, each a threshold from ``counts.thresholds`` (predict positive when
    score >= threshold):

    - Youden's J: maximises :math:`J = TPR - FPR` (informedness);
    - maximum :math:`F_\beta`;
    - minimum expected cost :math:`c_{FP}\,FP + c_{FN}\,FN` (per row: divided by the total weight);
    - target precision: the lowest threshold (most recall) whose precision is at least the target;
    - target recall: the threshold with the most precision among those whose recall is at least the target
      (precision is not monotone in the threshold, so this is a search, not the first crossing).

    Ties between thresholds go to the higher threshold (fewer alarms). A rule with no attainable point (a
    precision target no threshold reaches) is left out.
    """
    if cost_fp < 0 or cost_fn < 0:
        raise ValueError(f"costs must be >= 0 (got cost_fp={cost_fp}, cost_fn={cost_fn})")
    with warnings.catch_warnings():  # NaN where a rate is undefined; the rules below skip those thresholds
        warnings.simplefilter("ignore")
        at = metric_vs_threshold(counts, ("fp", "fn", "recall", "fpr", "precision", "informedness", "fbeta"),
                                 beta=beta)
    fp, fn, recall, fpr, precision = at["fp"], at["fn"], at["recall"], at["fpr"], at["precision"]
    n_pos, n_neg = counts.n_pos, counts.n_neg
    t = counts.thresholds
    out: list[Suggestion] = []
    if n_pos > 0 and n_neg > 0:
        j = at["informedness"]
        k = int(np.argmax(j))
        out.append(Suggestion("youden", "Youden's J", float(t[k]),
                              f"largest TPR − FPR ({j[k]:.3f}): recall {recall[k]:.1%} at a false-positive rate "
                              f"of {fpr[k]:.1%}"))
    f = at["fbeta"]
    if np.isfinite(f).any() and np.nanmax(f) > 0:
        k = int(np.nanargmax(f))
        name = "F1" if beta == 1 else f"F{beta:g}"
        out.append(Suggestion("max_fbeta", f"max {name}", float(t[k]), f"highest {name} ({f[k]:.3f})"))
    cost = cost_fp * fp + cost_fn * fn
    k = int(np.argmin(cost))
    # "Flag nothing" costs cost_fn * n_pos; it is the answer when no threshold beats it.
    if cost_fn * n_pos < cost[k]:
        out.append(Suggestion("min_cost", "min cost", float(np.nextafter(t[0], np.inf)),
                              f"flagging nothing is cheapest (cost {cost_fn * n_pos / counts.n_total:.3g} per row at "
                              f"FP cost {cost_fp:g}, FN cost {cost_fn:g})"))
    else:
        out.append(Suggestion("min_cost", "min cost", float(t[k]),
                              f"lowest expected cost: {cost[k] / counts.n_total:.3g} per row at FP cost {cost_fp:g}, "
                              f"FN cost {cost_fn:g} ({fp[k]:,.0f} false alarms, {fn[k]:,.0f} misses)"))
    if target_precision is not None:
        ok = np.flatnonzero(precision >= target_precision)
        if ok.size:
            k = int(ok[-1])
            out.append(Suggestion("target_precision", f"precision ≥ {target_precision:.0%}", float(t[k]),
                                  f"the most recall ({recall[k]:.1%}) with precision at least "
                                  f"{target_precision:.0%} ({precision[k]:.1%})"))
    if target_recall is not None and n_pos > 0:
        ok = np.flatnonzero(recall >= target_recall)
        if ok.size:
            # Precision is not monotone in the threshold: take the best among all that meet the target.
            k = int(ok[np.nanargmax(precision[ok])])
            out.append(Suggestion("target_recall", f"recall ≥ {target_recall:.0%}", float(t[k]),
                                  f"the most precision ({precision[k]:.1%}) with recall at least {target_recall:.0%} "
                                  f"({recall[k]:.1%})"))
    return out


# --- tables ----------------------------------------------------------------------------------------------------------

def gain_table(counts: curves.ThresholdCounts, *, bins: int = 10) -> pd.DataFrame:
    r"""Decile (or any ``bins``) gain and lift table: rows ranked by score, highest first, cut into equal shares.

    For the top share :math:`q` of rows (bin edges rounded to whole rows when the rows are unweighted):
    ``cumulative_gain`` = share of all positives found there (ISO 4213 6.3.8),
    ``cumulative_lift`` = gain / q (6.3.9); per bin, ``response_rate`` = its positives / its rows and ``lift`` =
    response rate / prevalence. Where a bin boundary falls inside a block of tied scores, positives are counted
    pro rata inside the block — the expectation over random orderings of the ties.
    """
    if not isinstance(bins, int) or bins < 1:
        raise ValueError(f"'bins' must be a positive integer (got {bins!r})")
    total = counts.n_total
    x = np.concatenate([[0.0], (counts.tps + counts.fps) / total])
    y = np.concatenate([[0.0], counts.tps])
    # Bin edges on whole rows (1,707 rows in 10 bins: 171 or 170 rows each, as pandas.qcut would cut them), so a
    # table never shows "170.7 rows"; weighted rows keep the exact shares.
    unweighted = float(total).is_integer()
    edges = np.round(np.arange(1, bins + 1) * total / bins) if unweighted else np.arange(1, bins + 1) * total / bins
    q = edges / total
    cum_pos = np.interp(q, x, y)
    pos = np.diff(np.concatenate([[0.0], cum_pos]))
    rows = np.diff(np.concatenate([[0.0], edges]))
    prevalence = counts.prevalence
    frame = pd.DataFrame({
        "bin": np.arange(1, bins + 1), "top_share": q, "rows": rows, "positives": pos,
        "response_rate": pos / rows, "lift": pos / rows / prevalence if prevalence > 0 else np.nan,
        "cumulative_positives": cum_pos, "cumulative_gain": cum_pos / counts.n_pos if counts.n_pos else np.nan,
    })
    frame["cumulative_lift"] = frame["cumulative_gain"] / q
    return frame


def top_classes_matrix(matrix: np.ndarray, classes, keep: int) -> tuple[np.ndarray, list[str], int]:
    """The confusion matrix of the ``keep`` classes with the most true rows (support; ties in class order), the other
    classes pooled into one last row and column, and how many classes were pooled (0: the matrix as given).

    Pooled cells are sums, so the total, the diagonal of the kept classes and every row and column total survive:
    a 10,000-class matrix becomes drawable, and nothing is dropped from the counts.

    >>> m, names, pooled = top_classes_matrix(np.array([[5, 1, 0], [2, 9, 1], [0, 1, 1]]), ["a", "b", "c"], 1)
    >>> m.tolist(), names, pooled
    ([[9, 3], [2, 6]], ['b', '2 other classes'], 2)
    """
    matrix = np.asarray(matrix)
    k = matrix.shape[0]
    if k <= keep + 1:  # pooling one class into "other" shows nothing new
        return matrix, list(classes), 0
    order = np.argsort(-matrix.sum(axis=1), kind="stable")
    kept, rest = order[:keep], order[keep:]
    pooled = np.empty((keep + 1, keep + 1), dtype=matrix.dtype)
    pooled[:keep, :keep] = matrix[np.ix_(kept, kept)]
    pooled[:keep, keep] = matrix[np.ix_(kept, rest)].sum(axis=1)
    pooled[keep, :keep] = matrix[np.ix_(rest, kept)].sum(axis=0)
    pooled[keep, keep] = matrix[np.ix_(rest, rest)].sum()
    other = f"{len(rest):,} other class{'' if len(rest) == 1 else 'es'}"
    return pooled, [str(classes[i]) for i in kept] + [other], int(len(rest))


def binary_matrix(counts: curves.ThresholdCounts, threshold: float) -> np.ndarray:
    """The 2×2 matrix at ``threshold`` in class order (negative, positive): [[TN, FP], [FN, TP]]."""
    c = curves.confusion_at_threshold(counts, threshold)
    return np.array([[c.tn, c.fp], [c.fn, c.tp]], dtype=float)


def multilabel_matrices(pred: Predictions, decision: Decision = Decision()) -> np.ndarray:
    """(L, 2, 2) per-label matrices [[TN, FP], [FN, TP]] of the labels ``decision`` gives (per-label thresholds
    included), from the cells the multi-label metrics count."""
    predicted = decide(pred, decision).y_pred
    tp, fp, fn, tn = np.moveaxis(label_cells(pred.y_true.astype(bool), predicted, pred.weight), -1, 0)
    return np.stack([np.stack([tn, fp], -1), np.stack([fn, tp], -1)], -2)


# --- several curves of one model -------------------------------------------------------------------------------------

def fold_curves(pred: Predictions, kind: str = "roc") -> list[curves.CurveResult]:
    """One curve per cross-validation fold (in fold order), for the faint-folds-bold-mean chart."""
    if pred.fold is None:
        raise AssessError("there is no fold column, so there are no per-fold curves")
    if pred.scores is None:
        raise AssessError(f"model {pred.model!r} has no scores, so it has no per-fold curves")
    make = {"roc": curves.roc_curve, "pr": curves.pr_curve, "gain": curves.gain_curve, "lift": curves.lift_curve}[kind]
    out = []
    for fold in sort_labels({str(f) for f in pd.unique(pred.fold)}):
        rows = pred.fold == fold
        y = pred.y_true[rows]
        if y.min() == y.max():
            continue  # a fold with one class has no ROC curve; the chart says how many folds it shows
        counts = curves.threshold_counts(y, pred.scores[rows],
                                    sample_weight=None if pred.weight is None else pred.weight[rows])
        out.append(make(counts))
    return out


@dataclass(frozen=True, eq=False)
class OneVsRest:
    """Per-class one-vs-rest ROC and PR curves of a multi-class model, the micro-averages, the macro areas."""

    roc: dict
    pr: dict
    micro_roc: curves.CurveResult
    micro_pr: curves.CurveResult
    macro_roc_auc: float
    macro_average_precision: float


def one_vs_rest(pred: Predictions) -> OneVsRest:
    if pred.task is not Task.MULTICLASS or pred.scores is None:
        raise AssessError("one-vs-rest curves need a multi-class model with one probability column per class")
    per_class = curves.ovr_threshold_counts(pred.y_true, pred.scores, sample_weight=pred.weight)
    micro = curves.micro_threshold_counts(pred.y_true, pred.scores, sample_weight=pred.weight)
    with warnings.catch_warnings():  # a class absent from the truth has no curve; its area is NaN
        warnings.simplefilter("ignore")
        roc = {c: curves.roc_curve(k) for c, k in zip(pred.classes, per_class)}
        pr = {c: curves.pr_curve(k) for c, k in zip(pred.classes, per_class)}
    return OneVsRest(roc, pr, curves.roc_curve(micro), curves.pr_curve(micro),
                     float(np.nanmean([c.area for c in roc.values()])),
                     float(np.nanmean([c.area for c in pr.values()])))


# --- uncertainty of a curve ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RocBand:
    """A pointwise bootstrap band of the ROC curve: at each ``fpr`` of the grid, the ``confidence_level`` percentile
    interval of the best TPR reachable at that false-positive rate, over ``n_resamples`` class-stratified resamples
    (``seed``)."""

    fpr: np.ndarray
    low: np.ndarray
    high: np.ndarray
    confidence_level: float
    n_resamples: int
    seed: int


def score_bands(pred: Predictions, *, n_resamples: int = curves.bands.BAND_RESAMPLES, confidence_level: float = 0.95,
                seed: int = 0, counts: curves.ThresholdCounts | None = None) -> curves.CurveBands:
    """Bootstrap bands of a binary model's ROC, PR, gain and lift curves (`assess.curves.curve_bands`: resampled
    score × class cells, so a file of tied scores costs its cells, not its rows). ``counts``: the model's own
    unweighted counts, whose cells are reused without a new sort."""
    if pred.scores is None:
        raise AssessError(f"model {pred.model!r} has no scores, so it has no curve to band")
    y = pred.y_true.astype(bool)
    if y.all() or not y.any():
        raise AssessError("a curve band needs both classes in the ground truth")
    return curves.curve_bands(y, pred.scores, pred.weight, counts=counts if pred.weight is None else None,
                              n_resamples=n_resamples, confidence_level=confidence_level, seed=seed)


def roc_band(pred: Predictions, *, n_resamples: int = curves.bands.BAND_RESAMPLES, confidence_level: float = 0.95,
             seed: int = 0) -> RocBand:
    """The ROC band of :func:`score_bands`. A pointwise band: each FPR's interval holds at ``confidence_level`` on its
    own, not the whole curve at once."""
    band = score_bands(pred, n_resamples=n_resamples, confidence_level=confidence_level, seed=seed).roc
    return RocBand(band.x, band.low, band.high, confidence_level, n_resamples, seed)
