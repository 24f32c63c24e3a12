"""Every threshold curve of a binary scorer from one sort (ISO/IEC TS 4213 3.2.13–3.2.16, 6.3.6–6.3.9).

One primitive, :func:`threshold_counts`, sorts the scores once and returns the cumulative (weighted) true and false
positive counts at every distinct score, used as a threshold with the rule *predict positive when score >=
threshold*. Everything else — ROC AUC, average precision, the area under the PR curve, the KS statistic, the ROC,
precision–recall, cumulative response (gain), lift and KS curves, metric-vs-threshold arrays, the confusion matrix
and operating point at a threshold — is a few vectorised lines on top of those counts and never sorts again.

Binary encoding: ``y_true`` holds 0/1 (1 = positive; bool or int accepted), ``score`` is a float array (higher =
more positive), ``sample_weight`` optional floats >= 0. Public functions validate at the boundary and raise
``ValueError`` naming the parameter and the value received; results that the data leave undefined (one class only)
are NaN plus an :class:`~assess.warnings.UndefinedMetricWarning` that says why.

Numbers agree with scikit-learn's ``roc_curve``/``precision_recall_curve``/``roc_auc_score``/
``average_precision_score`` (including ties and weights; rows with zero weight are dropped, as scikit-learn does).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from assess.warnings import UndefinedMetricWarning

__all__ = [
    "ThresholdCounts",
    "ScoreRanking",
    "threshold_counts",
    "rank_scores",
    "ovr_threshold_counts",
    "micro_threshold_counts",
    "roc_auc",
    "average_precision",
    "pr_auc",
    "ks_statistic",
    "DelongPlacements",
    "delong_placements",
]


# ----------------------------------------------------------------------------------------------------------------
# Boundary validation (one function per input, one message per rule)
# ----------------------------------------------------------------------------------------------------------------

def _first(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def _check_1d(values, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"`{name}` must be 1-D (got shape {arr.shape})")
    return arr


def _check_y_true(y_true, name: str = "y_true") -> np.ndarray:
    """Return ``y_true`` as a bool array (True = positive); accepts bool, integer or float 0/1."""
    arr = _check_1d(y_true, name)
    if arr.dtype == bool:
        return arr
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"`{name}` must hold 0/1 as bool, int or float (got dtype {arr.dtype})")
    bad = (arr != 0) & (arr != 1)
    if bad.any():
        i = _first(bad)
        raise ValueError(f"`{name}` must contain only 0 and 1 (got {int(bad.sum())} other values, "
                         f"first at index {i}: {arr[i]!r})")
    return arr == 1


def _check_finite(arr: np.ndarray, name: str) -> None:
    nan = np.isnan(arr)
    if nan.any():
        raise ValueError(f"`{name}` has {int(nan.sum())} NaN values (first at index {_first(nan)})")
    inf = np.isinf(arr)
    if inf.any():
        i = _first(inf)
        raise ValueError(f"`{name}` has {int(inf.sum())} infinite values (first at index {i}: {arr[i]})")


def _check_score(score, n: int, name: str = "score") -> np.ndarray:
    arr = _check_1d(score, name)
    if arr.dtype.kind not in "iufb":
        raise TypeError(f"`{name}` must be numeric (got dtype {arr.dtype})")
    if arr.shape[0] != n:
        raise ValueError(f"`{name}` has {arr.shape[0]} rows but `y_true` has {n}")
    arr = np.asarray(arr, dtype=np.float64)
    if not np.isfinite(arr).all():
        _check_finite(arr, name)
    return arr


def _check_weight(sample_weight, n: int) -> np.ndarray | None:
    if sample_weight is None:
        return None
    arr = _check_1d(sample_weight, "sample_weight")
    if arr.dtype.kind not in "iufb":
        raise TypeError(f"`sample_weight` must be numeric (got dtype {arr.dtype})")
    if arr.shape[0] != n:
        raise ValueError(f"`sample_weight` has {arr.shape[0]} rows but `y_true` has {n}")
    arr = np.asarray(arr, dtype=np.float64)
    _check_finite(arr, "sample_weight")
    neg = arr < 0
    if neg.any():
        i = _first(neg)
        raise ValueError(f"`sample_weight` must be >= 0 (got {int(neg.sum())} negative values, "
                         f"first at index {i}: {arr[i]})")
    return arr


def _check_binary(y_true, score, sample_weight):
    y = _check_y_true(y_true)
    if y.shape[0] == 0:
        raise ValueError("`y_true` is empty (got 0 rows)")
    return y, _check_score(score, y.shape[0]), _check_weight(sample_weight, y.shape[0])


def _readonly(*arrays: np.ndarray) -> None:
    for a in arrays:
        a.setflags(write=False)


# ----------------------------------------------------------------------------------------------------------------
# The primitive
# ----------------------------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class ThresholdCounts:
    r"""Cumulative confusion counts at every distinct score of a binary scorer (the one sort).

    With distinct scores :math:`t_1 > t_2 > \dots > t_D` and the rule *predict positive when*
    :math:`s_i \ge t_k`:

    .. math::

        \mathrm{tps}_k = \sum_i w_i\,[y_i = 1]\,[s_i \ge t_k], \qquad
        \mathrm{fps}_k = \sum_i w_i\,[y_i = 0]\,[s_i \ge t_k]

    (:math:`w_i = 1` without weights). ``thresholds[k]`` is :math:`t_{k+1}`; ``tps`` and ``fps`` are non-decreasing
    float64 arrays of length D, ``n_pos == tps[-1]`` and ``n_neg == fps[-1]`` the (weighted) class totals, ``n`` the
    number of rows given. Rows with zero weight contribute no threshold (as in scikit-learn). Arrays are read-only.

    >>> c = threshold_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> c.thresholds.tolist(), c.tps.tolist(), c.fps.tolist()
    ([0.8, 0.4, 0.35, 0.1], [1.0, 1.0, 2.0, 2.0], [0.0, 1.0, 1.0, 2.0])
    """

    thresholds: np.ndarray
    tps: np.ndarray
    fps: np.ndarray
    n_pos: float
    n_neg: float
    n: int
    weighted: bool = False

    def __post_init__(self):
        d = self.thresholds.shape
        if self.tps.shape != d or self.fps.shape != d:
            raise ValueError(f"`thresholds`, `tps` and `fps` must have one shape "
                             f"(got {d}, {self.tps.shape}, {self.fps.shape})")

    def __len__(self) -> int:
        return int(self.thresholds.shape[0])

    @property
    def n_total(self) -> float:
        """Total (weighted) count, ``n_pos + n_neg``."""
        return self.n_pos + self.n_neg

    @property
    def prevalence(self) -> float:
        """``n_pos / n_total`` (NaN when the total weight is 0)."""
        return self.n_pos / self.n_total if self.n_total > 0 else float("nan")

    @property
    def tns(self) -> np.ndarray:
        """True negatives at each threshold: ``n_neg - fps[k]``."""
        return self.n_neg - self.fps

    @property
    def fns(self) -> np.ndarray:
        """False negatives at each threshold: ``n_pos - tps[k]``."""
        return self.n_pos - self.tps

    @property
    def predicted_positive_fraction(self) -> np.ndarray:
        """Fraction of the (weighted) samples predicted positive: ``(tps[k] + fps[k]) / n_total``."""
        return (self.tps + self.fps) / self.n_total


@dataclass(frozen=True, eq=False)
class ScoreRanking:
    """The result of sorting one score vector, reusable for many weightings of the same rows.

    ``thresholds`` are the distinct scores, decreasing; ``group[i]`` is the index in ``thresholds`` of ``score[i]``.
    Pass it to :func:`threshold_counts` (``ranking=``) to get counts for new labels or weights (e.g. bootstrap
    resample counts as ``sample_weight``) in O(n) without sorting again.
    """

    thresholds: np.ndarray
    group: np.ndarray


def rank_scores(score) -> ScoreRanking:
    """Sort ``score`` once and return its :class:`ScoreRanking`.

    >>> r = rank_scores([0.2, 0.9, 0.2, 0.5])
    >>> r.thresholds.tolist(), r.group.tolist()
    ([0.9, 0.5, 0.2], [2, 0, 2, 1])
    """
    arr = _check_1d(score, "score")
    s = _check_score(arr, arr.shape[0])
    ranking = _rank(s)
    _readonly(ranking.thresholds, ranking.group)
    return ranking


def _rank(s: np.ndarray) -> ScoreRanking:
    ascending = np.unique(s)
    group = np.searchsorted(ascending, s)
    np.subtract(ascending.shape[0] - 1, group, out=group)
    return ScoreRanking(np.ascontiguousarray(ascending[::-1]), group)


def _distinct_starts(sorted_s: np.ndarray) -> np.ndarray:
    """Indices where a new value starts in an ascending array (first element included)."""
    new = np.empty(sorted_s.shape[0], dtype=bool)
    new[:1] = True
    np.not_equal(sorted_s[1:], sorted_s[:-1], out=new[1:])
    return np.flatnonzero(new)


def _counts_unweighted(y: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unweighted counts from a value sort (no argsort, no gather of labels).

    ``np.sort`` of float64 is several times faster than ``np.argsort`` (SIMD sorting networks), so sort the values
    alone; sort the scores of the smaller class separately; each of those lands in its tie group by a binary search
    among the distinct values; per-group counts of the smaller class follow from ``bincount`` and the counts of the
    other class from the group sizes. Exact for ties.
    """
    n = s.shape[0]
    n1 = int(np.count_nonzero(y))
    minority_is_pos = n1 <= n - n1
    s_min = np.sort(s[y] if minority_is_pos else s[~y])
    s_all = np.sort(s)
    starts = _distinct_starts(s_all)
    distinct = s_all[starts]
    del s_all
    per_group = np.bincount(np.searchsorted(distinct, s_min), minlength=distinct.shape[0])
    at_or_above = (n - starts)[::-1].astype(np.float64)      # rows with score >= t_k, thresholds decreasing
    minority = np.cumsum(per_group[::-1], dtype=np.float64)
    other = at_or_above - minority
    tps, fps = (minority, other) if minority_is_pos else (other, minority)
    return np.ascontiguousarray(distinct[::-1]), tps, fps


def _counts_weighted(y: np.ndarray, s: np.ndarray, w: np.ndarray):
    keep = w != 0
    if not keep.all():
        y, s, w = y[keep], s[keep], w[keep]
    if s.shape[0] == 0:
        empty = np.empty(0)
        return empty, empty.copy(), empty.copy()
    order = np.argsort(s)
    s_sorted = s[order]
    starts = _distinct_starts(s_sorted)
    w_sorted = w[order]
    wy = np.where(y[order], w_sorted, 0.0)
    pos_per_group = np.add.reduceat(wy, starts)
    np.subtract(w_sorted, wy, out=wy)
    neg_per_group = np.add.reduceat(wy, starts)
    tps = np.cumsum(pos_per_group[::-1])
    fps = np.cumsum(neg_per_group[::-1])
    return np.ascontiguousarray(s_sorted[starts][::-1]), tps, fps


def _counts_ranked(y: np.ndarray, ranking: ScoreRanking, w: np.ndarray | None):
    d = ranking.thresholds.shape[0]
    if w is None:
        pos = np.bincount(ranking.group, weights=y.astype(np.float64), minlength=d)
        total = np.bincount(ranking.group, minlength=d).astype(np.float64)
    else:
        pos = np.bincount(ranking.group, weights=np.where(y, w, 0.0), minlength=d)
        total = np.bincount(ranking.group, weights=w, minlength=d)
    thresholds = ranking.thresholds
    present = total > 0
    if not present.all():                       # zero-weight rows contribute no threshold
        pos, total, thresholds = pos[present], total[present], thresholds[present]
    tps = np.cumsum(pos)
    fps = np.cumsum(total - pos)
    return np.array(thresholds), tps, fps


def _make_counts(y, s, w, ranking=None) -> ThresholdCounts:
    if ranking is not None:
        thresholds, tps, fps = _counts_ranked(y, ranking, w)
    elif w is None:
        thresholds, tps, fps = _counts_unweighted(y, s)
    else:
        thresholds, tps, fps = _counts_weighted(y, s, w)
    _readonly(thresholds, tps, fps)
    n_pos = float(tps[-1]) if tps.shape[0] else 0.0
    n_neg = float(fps[-1]) if fps.shape[0] else 0.0
    return ThresholdCounts(thresholds, tps, fps, n_pos, n_neg, int(y.shape[0]), weighted=w is not None)


def threshold_counts(y_true, score, *, sample_weight=None, ranking: ScoreRanking | None = None) -> ThresholdCounts:
    r"""Sort once and count (weighted) true and false positives at every distinct score (ISO 4213 6.3.6).

    The primitive behind every curve and ranking metric in this module; see :class:`ThresholdCounts` for the
    definition of each array. Ties are exact: one point per distinct score, all tied rows switching together.

    Parameters
    ----------
    y_true : array of 0/1 (bool, int or float), shape (n,)
    score : float array, shape (n,), finite; higher means more positive.
    sample_weight : float array >= 0, shape (n,), optional. Rows with weight 0 are dropped.
    ranking : :class:`ScoreRanking`, optional
        The result of :func:`rank_scores` on this same ``score``; then nothing is sorted (O(n)), which pays off when
        the same scores are counted under many weightings (bootstrap). ``score`` is then only used for its length.

    >>> c = threshold_counts([1, 0, 1, 0], [0.9, 0.9, 0.4, 0.1])
    >>> c.thresholds.tolist(), c.tps.tolist(), c.fps.tolist(), c.n_pos, c.n_neg
    ([0.9, 0.4, 0.1], [1.0, 2.0, 2.0], [1.0, 1.0, 2.0], 2.0, 2.0)
    """
    y, s, w = _check_binary(y_true, score, sample_weight)
    if ranking is not None:
        if not isinstance(ranking, ScoreRanking):
            raise TypeError(f"`ranking` must be a ScoreRanking from rank_scores() (got {type(ranking).__name__})")
        if ranking.group.shape[0] != y.shape[0]:
            raise ValueError(f"`ranking` was made from {ranking.group.shape[0]} scores but `y_true` has "
                             f"{y.shape[0]} rows")
    return _make_counts(y, s, w, ranking)


def _check_codes_proba(y_codes, proba, sample_weight):
    codes = _check_1d(y_codes, "y_codes")
    if codes.dtype.kind not in "iu":
        raise TypeError(f"`y_codes` must hold integer class codes 0..k-1 (got dtype {codes.dtype})")
    p = np.asarray(proba)
    if p.ndim != 2:
        raise ValueError(f"`proba` must be 2-D (n, k) (got shape {p.shape})")
    if p.shape[0] != codes.shape[0]:
        raise ValueError(f"`proba` has {p.shape[0]} rows but `y_codes` has {codes.shape[0]}")
    if codes.shape[0] == 0:
        raise ValueError("`y_codes` is empty (got 0 rows)")
    k = p.shape[1]
    bad = (codes < 0) | (codes >= k)
    if bad.any():
        i = _first(bad)
        raise ValueError(f"`y_codes` must be in 0..{k - 1} for {k} `proba` columns (got {int(bad.sum())} "
                         f"other values, first at index {i}: {codes[i]})")
    p = np.asarray(p, dtype=np.float64)
    if not np.isfinite(p).all():
        _check_finite(p.ravel(), "proba (flattened row-major)")
    return codes, p, _check_weight(sample_weight, codes.shape[0])


def ovr_threshold_counts(y_codes, proba, *, sample_weight=None) -> list[ThresholdCounts]:
    """One-vs-rest counts for multi-class scores (ISO 4213 6.4): element c is the binary problem *class c vs rest*.

    ``y_codes`` are integer class codes 0..k-1, ``proba`` the (n, k) scores in class order. Element c equals
    ``threshold_counts(y_codes == c, proba[:, c])``; macro-averaged ROC/PR curves and per-class AUCs are built on
    these.

    >>> [c.n_pos for c in ovr_threshold_counts([0, 1, 2, 1], [[.8, .1, .1], [.2, .5, .3], [.1, .1, .8], [.3, .4, .3]])]
    [1.0, 2.0, 1.0]
    """
    codes, p, w = _check_codes_proba(y_codes, proba, sample_weight)
    return [_make_counts(codes == c, np.ascontiguousarray(p[:, c]), w) for c in range(p.shape[1])]


def micro_threshold_counts(y_codes, proba, *, sample_weight=None) -> ThresholdCounts:
    """Micro-averaged counts: the (n, k) one-hot indicator matrix and ``proba`` flattened into n·k binary rows.

    Equals ``threshold_counts(onehot.ravel(), proba.ravel(), sample_weight=np.repeat(w, k))``, the way
    scikit-learn builds a micro-averaged ROC curve. ``n`` of the result is n·k.
    """
    codes, p, w = _check_codes_proba(y_codes, proba, sample_weight)
    k = p.shape[1]
    onehot = (codes[:, None] == np.arange(k)).ravel()
    return _make_counts(onehot, p.ravel(), None if w is None else np.repeat(w, k))


# ----------------------------------------------------------------------------------------------------------------
# Scalar metrics from counts
# ----------------------------------------------------------------------------------------------------------------

def _class_problem(counts: ThresholdCounts, *, need_neg: bool = True) -> str | None:
    """Why a ranking metric is undefined for these counts, or None when it is defined."""
    qualifier = " with nonzero weight" if counts.weighted else ""
    if counts.n_pos <= 0 and counts.n_neg <= 0:
        return f"y_true has no rows{qualifier}"
    if counts.n_pos <= 0:
        return f"y_true has only one class{qualifier} (all negative)"
    if need_neg and counts.n_neg <= 0:
        return f"y_true has only one class{qualifier} (all positive)"
    return None


def _undefined(what: str, reason: str) -> float:
    warnings.warn(f"{what} is undefined: {reason}", UndefinedMetricWarning, stacklevel=3)
    return float("nan")


def _check_counts(counts) -> ThresholdCounts:
    if not isinstance(counts, ThresholdCounts):
        raise TypeError(f"`counts` must be ThresholdCounts from threshold_counts() (got {type(counts).__name__})")
    return counts


def _auc_raw(counts: ThresholdCounts) -> float:
    tps, fps = counts.tps, counts.fps
    dx = np.diff(fps, prepend=0.0)
    heights = tps.copy()
    heights[1:] += tps[:-1]
    return float(np.dot(dx, heights) / (2.0 * counts.n_pos * counts.n_neg))


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
    counts = _check_counts(counts)
    reason = _class_problem(counts)
    if reason:
        return _undefined("ROC AUC", reason)
    return _auc_raw(counts)


def _precision_recall(counts: ThresholdCounts) -> tuple[np.ndarray, np.ndarray]:
    predicted = counts.tps + counts.fps
    precision = np.divide(counts.tps, predicted, out=np.zeros_like(predicted), where=predicted != 0)
    return precision, counts.tps / counts.n_pos


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
    counts = _check_counts(counts)
    reason = _class_problem(counts, need_neg=False)
    if reason:
        return _undefined("Average precision", reason)
    precision, recall = _precision_recall(counts)
    return max(0.0, float(np.dot(np.diff(recall, prepend=0.0), precision)))


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
    counts = _check_counts(counts)
    reason = _class_problem(counts, need_neg=False)
    if reason:
        return _undefined("PR AUC", reason)
    precision, recall = _precision_recall(counts)
    heights = precision.copy()
    heights[1:] += precision[:-1]
    heights[0] += 1.0
    return float(np.dot(np.diff(recall, prepend=0.0), heights) / 2.0)


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
    counts = _check_counts(counts)
    reason = _class_problem(counts)
    if reason:
        return _undefined("KS statistic", reason)
    return float(np.max(np.abs(counts.tps / counts.n_pos - counts.fps / counts.n_neg)))


# ----------------------------------------------------------------------------------------------------------------
# DeLong placements
# ----------------------------------------------------------------------------------------------------------------

class DelongPlacements(NamedTuple):
    """DeLong structural components: ``v10`` per positive, ``v01`` per negative (input order within each class)."""

    v10: np.ndarray
    v01: np.ndarray


def delong_placements(y_true, score) -> DelongPlacements:
    r"""DeLong's placement values (structural components) with midranks for ties; unweighted only.

    For positive scores :math:`X_i` (:math:`i = 1..m`) and negative scores :math:`Y_j` (:math:`j = 1..n`):

    .. math::

        V_{10}(X_i) = \frac{1}{n}\sum_j \psi(X_i, Y_j), \quad
        V_{01}(Y_j) = \frac{1}{m}\sum_i \psi(X_i, Y_j), \quad
        \psi(x, y) = [x > y] + \tfrac12 [x = y]

    so ``v10[i]`` is the fraction of negatives scoring below positive i (ties count one half) and ``v01[j]`` the
    fraction of positives scoring above negative j; ``mean(v10) == mean(v01) == AUC``. DeLong, DeLong &
    Clarke-Pearson (1988); computed as in Sun & Xu (2014), *Fast implementation of DeLong's algorithm*, with one
    sort of each class and binary searches (midranks) instead of pairwise comparisons. ``v10`` follows the order
    of the positives in ``y_true``, ``v01`` that of the negatives. With one class missing the other class's
    placements are NaN and :class:`UndefinedMetricWarning` says why.

    >>> v10, v01 = delong_placements([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> v10.tolist(), v01.tolist()
    ([0.5, 1.0], [1.0, 0.5])
    """
    y, s, _ = _check_binary(y_true, score, None)
    pos, neg = s[y], s[~y]
    m, n = pos.shape[0], neg.shape[0]
    if m == 0 or n == 0:
        warnings.warn(f"DeLong placements are undefined: y_true has only one class "
                      f"({'all negative' if m == 0 else 'all positive'})", UndefinedMetricWarning, stacklevel=2)
        return DelongPlacements(np.full(m, np.nan), np.full(n, np.nan))
    pos_sorted, neg_sorted = np.sort(pos), np.sort(neg)
    # 2 * (#neg < x) + (#neg == x) = (#neg < x) + (#neg <= x): the midrank count
    v10 = np.searchsorted(neg_sorted, pos, side="left") + np.searchsorted(neg_sorted, pos, side="right")
    v01 = (2 * m) - np.searchsorted(pos_sorted, neg, side="left") - np.searchsorted(pos_sorted, neg, side="right")
    return DelongPlacements(v10 / (2.0 * n), v01 / (2.0 * m))
