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
from functools import cached_property
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
    "CurveResult",
    "roc_curve",
    "pr_curve",
    "gain_curve",
    "lift_curve",
    "ks_curve",
    "THRESHOLD_METRICS",
    "ThresholdMetrics",
    "metric_vs_threshold",
    "Confusion",
    "confusion_at_threshold",
    "OperatingPoint",
    "operating_point",
    "CalibrationResult",
    "calibration_curve",
    "thin_curve",
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
                         f"first at index {i}: {arr[i].item()})")
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
    Derived per-threshold arrays, computed once and shared by all curves: ``tpr`` (= ``recall``) ``tps/n_pos``,
    ``fpr`` ``fps/n_neg``, ``precision`` ``tps/(tps+fps)``, ``predicted_positive_fraction`` ``(tps+fps)/n_total``,
    ``tns`` and ``fns``.

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

    # The arrays and numbers below are computed once per counts object and shared by every curve and metric that
    # uses them (the ROC's y is the PR curve's x and the gain curve's y; AP and PR AUC share the recall steps).
    # Each "...0" array has the extra first point for the threshold +inf (nothing predicted positive) in front;
    # the public properties are views without it.

    @cached_property
    def _thresholds0(self) -> np.ndarray:
        return _frozen(np.concatenate(([np.inf], self.thresholds)))

    @cached_property
    def _ascending(self) -> np.ndarray:
        """The thresholds increasing and contiguous, for repeated binary searches (a view when already so)."""
        return _frozen(np.ascontiguousarray(self.thresholds[::-1]))

    @cached_property
    def _tpr0(self) -> np.ndarray:
        return _ratio0(self.tps, self.n_pos)

    @cached_property
    def _fpr0(self) -> np.ndarray:
        return _ratio0(self.fps, self.n_neg)

    @cached_property
    def _precision0_ppf0(self) -> tuple[np.ndarray, np.ndarray]:
        d = len(self)
        ppf0 = np.empty(d + 1)
        ppf0[0] = 0.0
        predicted = np.add(self.tps, self.fps, out=ppf0[1:])
        precision0 = np.empty(d + 1)
        precision0[0] = 1.0           # nothing predicted positive: scikit-learn's convention, precision 1
        # every threshold has rows of positive weight at it (zero-weight rows are dropped), so predicted > 0
        np.divide(self.tps, predicted, out=precision0[1:])
        if self.n_total > 0:
            predicted /= self.n_total
        return _frozen(precision0), _frozen(ppf0)

    @property
    def _precision0(self) -> np.ndarray:
        return self._precision0_ppf0[0]

    @property
    def _ppf0(self) -> np.ndarray:
        return self._precision0_ppf0[1]

    @cached_property
    def _recall_steps(self) -> np.ndarray:
        """``R_k - R_{k-1}`` for k = 1..D (R_0 = 0)."""
        return np.diff(self._tpr0)

    @cached_property
    def _auc(self) -> float:
        """Trapezoidal ROC area; the unweighted path seeds it exactly from rank sums (see _minority_summaries)."""
        tps, fps = self.tps, self.fps
        twice_area = fps[0] * tps[0] + np.dot(np.diff(fps), tps[1:] + tps[:-1])
        return float(twice_area / (2.0 * self.n_pos * self.n_neg))

    @cached_property
    def _ap(self) -> float:
        return max(0.0, float(np.dot(self._recall_steps, self.precision)))

    @cached_property
    def _pr_auc(self) -> float:
        steps, precision = self._recall_steps, self._precision0
        return float((np.dot(steps, precision[1:]) + np.dot(steps, precision[:-1])) / 2.0)

    @cached_property
    def _ks_best(self) -> int:
        gap = np.subtract(self.tpr, self.fpr)
        return int(np.argmax(np.abs(gap, out=gap)))

    @property
    def tpr(self) -> np.ndarray:
        """True positive rate (recall, ISO 4213 3.2.10) at each threshold: ``tps[k] / n_pos`` (NaN if no positive)."""
        return self._tpr0[1:]

    recall = tpr

    @property
    def fpr(self) -> np.ndarray:
        """False positive rate (ISO 4213 3.2.12) at each threshold: ``fps[k] / n_neg`` (NaN if no negative)."""
        return self._fpr0[1:]

    @property
    def precision(self) -> np.ndarray:
        """Precision (ISO 4213 3.2.9) at each threshold: ``tps[k] / (tps[k] + fps[k])`` (> 0 rows at every k)."""
        return self._precision0[1:]

    @property
    def predicted_positive_fraction(self) -> np.ndarray:
        """Fraction of the (weighted) samples predicted positive: ``(tps[k] + fps[k]) / n_total``."""
        return self._ppf0[1:]


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _ratio0(counts: np.ndarray, total: float) -> np.ndarray:
    out = np.empty(counts.shape[0] + 1)
    out[0] = 0.0
    if total > 0:
        np.divide(counts, total, out=out[1:])
    else:
        out[:] = np.nan
    return _frozen(out)


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
    order = np.argsort(s)
    s_sorted = s[order]
    new = np.empty(s.shape[0], dtype=bool)
    new[:1] = True
    np.not_equal(s_sorted[1:], s_sorted[:-1], out=new[1:])
    descending = np.cumsum(new, dtype=np.intp)
    d = int(descending[-1]) if descending.shape[0] else 0
    np.subtract(d, descending, out=descending)
    group = np.empty_like(descending)
    group[order] = descending
    return ScoreRanking(s_sorted[new][::-1], group)


def _distinct_starts(sorted_s: np.ndarray) -> np.ndarray:
    """Indices where a new value starts in an ascending array (first element included)."""
    new = np.empty(sorted_s.shape[0], dtype=bool)
    new[:1] = True
    np.not_equal(sorted_s[1:], sorted_s[:-1], out=new[1:])
    return np.flatnonzero(new)


def _counts_unweighted(y: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
    """Unweighted counts from value sorts only (no argsort, no gather of labels).

    ``np.sort`` of float64 is several times faster than ``np.argsort`` (SIMD sorting networks), and a packed
    uint64 key (order-preserving score bits with the label in the lowest bit) is slower to build and sort than the
    floats and would merge scores one ulp apart. So: sort all scores; sort the scores of the smaller class
    separately; a binary search of those (sorted, so cache-friendly) among the distinct values gives the tie group
    of each; the smaller class's cumulative count is then a step function, written in one ``np.repeat``, and the
    other class's count is the group size minus it. Exact for ties. The smaller class's groups also give AUC, AP,
    PR AUC and the KS location in O(m) (:func:`_minority_summaries`).
    """
    n = s.shape[0]
    n1 = int(np.count_nonzero(y))
    minority_is_pos = n1 <= n - n1
    s_min = np.sort(s[y] if minority_is_pos else s[~y])
    # Sort into a buffer with +inf after the (finite) scores: read backwards it is the curves' threshold array,
    # +inf first, so no copy is needed later.
    s_all = np.empty(n + 1)
    s_all[:n] = s
    s_all[n] = np.inf
    s_all.sort()
    new = np.empty(n + 1, dtype=bool)
    new[:1] = True
    np.not_equal(s_all[1:], s_all[:-1], out=new[1:])
    ties = not new.all()
    if not ties:                                    # every row is its own threshold
        del new
        distinct0 = s_all
        at_or_above = np.arange(1, n + 1, dtype=np.float64)
    else:
        starts = np.flatnonzero(new)                # the last start is the +inf sentinel
        del new
        distinct0 = s_all[starts]
        del s_all
        at_or_above = (n - starts[:-1])[::-1].astype(np.float64)
        del starts
    distinct = distinct0[:-1]
    d = distinct.shape[0]
    # descending group index of each minority row, in increasing order
    group = np.searchsorted(distinct, s_min)[::-1]
    np.subtract(d - 1, group, out=group)
    if group.shape[0]:
        steps = np.empty(group.shape[0] + 1, dtype=np.intp)     # thresholds where the count is 0, 1, ..., m
        steps[0] = group[0]
        np.subtract(group[1:], group[:-1], out=steps[1:-1])
        steps[-1] = d - group[-1]
        minority = np.repeat(np.arange(group.shape[0] + 1, dtype=np.float64), steps)
    else:
        minority = np.zeros(d)
    np.subtract(at_or_above, minority, out=at_or_above)
    tps, fps = (minority, at_or_above) if minority_is_pos else (at_or_above, minority)
    return distinct0[::-1], tps, fps, _minority_summaries(tps, fps, group, minority_is_pos, ties)


def _minority_summaries(tps: np.ndarray, fps: np.ndarray, group: np.ndarray, minority_is_pos: bool,
                        ties: bool) -> dict:
    """AUC, KS location (and AP, PR AUC when positives are the smaller class) in O(m) from the smaller class's
    tie groups, instead of O(D) passes over the curves; returned as seeds for the ThresholdCounts caches.

    ``group`` holds, in increasing order, the (decreasing-threshold) group index of each row of the smaller class.

    - AUC as a Mann–Whitney rank sum, group by group: each of the c positives of group g has n_neg - fps[g]
      negatives below and fps[g] - fps[g-1] tied; each of the c negatives of group g has tps[g-1] positives above
      and tps[g] - tps[g-1] tied (index -1 meaning 0). Twice the sum of (below + tied / 2) is an integer, exact in
      float64 below 2**53 (n up to about 1e8).
    - KS: between two groups holding the smaller class, only the other class's rate grows, so TPR - FPR is
      strictly monotone there; its extremes lie at those groups, the groups just before them, or the ends.
    - AP and PR AUC: recall only steps at groups holding a positive.
    """
    n_pos, n_neg = float(tps[-1]), float(fps[-1])
    if group.shape[0] == 0 or n_pos == 0 or n_neg == 0:
        return {}
    if not ties:
        return _distinct_summaries(group, n_pos, n_neg, (float(tps[0]), float(fps[0])), minority_is_pos)
    first = np.empty(group.shape[0], dtype=bool)
    first[:1] = True
    np.not_equal(group[1:], group[:-1], out=first[1:])
    groups = group[first]                                        # distinct groups holding the smaller class
    k = groups.shape[0]
    # candidates 0, g1 - 1, g1, g2 - 1, g2, ..., d - 1 (non-decreasing, so argmax finds the first maximum) and the
    # counts there; index -1 (before group 0) is the +inf point with counts 0
    cand = np.empty(2 * k + 2, dtype=np.intp)
    cand[0], cand[-1] = 0, tps.shape[0] - 1
    np.subtract(groups, 1, out=cand[1:-1:2])
    cand[2:-1:2] = groups
    cand[1] = max(cand[1], 0)
    t_c, f_c = tps[cand], fps[cand]
    if groups[0] == 0:
        t_c[1] = f_c[1] = 0.0
    gap = np.abs(t_c / n_pos - f_c / n_neg)
    seeds = {"_ks_best": int(cand[np.argmax(gap)])}
    t_at, t_prev, f_at, f_prev = t_c[2:-1:2], t_c[1:-1:2], f_c[2:-1:2], f_c[1:-1:2]
    if minority_is_pos:
        count = t_at - t_prev                                    # positives in each group
        twice = 2.0 * n_neg * group.shape[0] - float(np.dot(count, f_at + f_prev))
        seeds["_auc"] = twice / (2.0 * n_pos * n_neg)
        precision = t_at / (t_at + f_at)
        predicted_prev = t_prev + f_prev
        precision_prev = np.divide(t_prev, predicted_prev, out=np.ones(k), where=predicted_prev > 0)
        steps = count / n_pos
        seeds["_ap"] = max(0.0, float(np.dot(steps, precision)))
        seeds["_pr_auc"] = float(np.dot(steps, precision + precision_prev) / 2.0)
    else:
        count = f_at - f_prev                                    # negatives in each group
        seeds["_auc"] = float(np.dot(count, t_at + t_prev)) / (2.0 * n_pos * n_neg)
    return seeds


def _distinct_summaries(group: np.ndarray, n_pos: float, n_neg: float, top: tuple[float, float],
                        minority_is_pos: bool) -> dict:
    r""":func:`_minority_summaries` when no two scores tie, from the groups alone (no gathers from the curves).

    Group g_i of the i-th row of the smaller class (i = 0, 1, ...) holds just that row, so at g_i the smaller
    class counts i + 1 and the other class g_i - i; one threshold earlier they count i and g_i - i. Hence, with
    positives the smaller class, :math:`2 n_{neg} n_{pos} \mathrm{AUC} = 2 n_{neg} m - 2 \sum_i (g_i - i)` and
    :math:`\mathrm{AP} = \frac{1}{n_{pos}} \sum_i \frac{i + 1}{g_i + 1}`; with negatives the smaller class,
    :math:`2 n_{neg} n_{pos} \mathrm{AUC} = 2 \sum_j (g_j - j)`. TPR - FPR at g_i is ``gap[i]`` and one threshold
    earlier it differs from it by the same constant, so its extremes are at the first argmax/argmin of ``gap``,
    one threshold earlier, or at the first threshold (counts ``top``) or the last (TPR = FPR = 1).
    """
    m = group.shape[0]
    i = np.arange(m, dtype=np.float64)
    other = np.subtract(group, i)                       # the other class's count at g_i and just before it

    def counts_at(j: int, before: bool) -> tuple[float, float]:
        mine = float(j) if before else float(j + 1)
        return (mine, float(other[j])) if minority_is_pos else (float(other[j]), mine)

    if minority_is_pos:
        auc = (n_neg * m - float(other.sum())) / (n_pos * n_neg)
        gap = (i + 1.0) / n_pos - other / n_neg
    else:
        auc = float(other.sum()) / (n_pos * n_neg)
        gap = other / n_pos - (i + 1.0) / n_neg
    hi, lo = int(np.argmax(gap)), int(np.argmin(gap))
    options = [(0, top)]                                # (threshold index, (tps, fps) there)
    for j in (hi, lo):
        options.append((int(group[j]), counts_at(j, before=False)))
        if group[j] > 0:
            options.append((int(group[j]) - 1, counts_at(j, before=True)))
    values = [(abs(tp / n_pos - fp / n_neg), -index) for index, (tp, fp) in options]
    seeds = {"_auc": auc, "_ks_best": -max(values)[1]}  # largest gap, then the smallest index
    if minority_is_pos:
        precision = (i + 1.0) / (group + 1.0)
        precision_before = np.divide(i, group, out=np.ones(m), where=group > 0)   # +inf point: precision 1
        seeds["_ap"] = max(0.0, float(precision.sum() / n_pos))
        seeds["_pr_auc"] = float((precision.sum() + precision_before.sum()) / (2.0 * n_pos))
    return seeds


def _counts_weighted(y: np.ndarray, s: np.ndarray, w: np.ndarray):
    keep = w != 0
    if not keep.all():
        y, s, w = y[keep], s[keep], w[keep]
    if s.shape[0] == 0:
        empty = np.empty(0)
        return np.array([np.inf]), empty, empty.copy(), {}
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
    return np.concatenate(([np.inf], s_sorted[starts][::-1])), tps, fps, {}


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
    return np.concatenate(([np.inf], thresholds)), tps, fps, {}


def _make_counts(y, s, w, ranking=None) -> ThresholdCounts:
    if ranking is not None:
        thresholds0, tps, fps, seeds = _counts_ranked(y, ranking, w)
    elif w is None:
        thresholds0, tps, fps, seeds = _counts_unweighted(y, s)
    else:
        thresholds0, tps, fps, seeds = _counts_weighted(y, s, w)
    # thresholds0 is the curves' threshold array (+inf first); thresholds is a view of it
    _readonly(thresholds0, tps, fps)
    n_pos = float(tps[-1]) if tps.shape[0] else 0.0
    n_neg = float(fps[-1]) if fps.shape[0] else 0.0
    counts = ThresholdCounts(thresholds0[1:], tps, fps, n_pos, n_neg, int(y.shape[0]), weighted=w is not None)
    counts.__dict__["_thresholds0"] = thresholds0            # seed the caches (cached_property slots)
    counts.__dict__.update(seeds)
    return counts


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
    counts = _check_counts(counts)
    reason = _class_problem(counts, need_neg=False)
    if reason:
        return _undefined("Average precision", reason)
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
    counts = _check_counts(counts)
    reason = _class_problem(counts, need_neg=False)
    if reason:
        return _undefined("PR AUC", reason)
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
    counts = _check_counts(counts)
    reason = _class_problem(counts)
    if reason:
        return _undefined("KS statistic", reason)
    best = counts._ks_best
    return float(abs(counts.tpr[best] - counts.fpr[best]))


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
    m = int(np.count_nonzero(y))
    n = y.shape[0] - m
    if m == 0 or n == 0:
        warnings.warn(f"DeLong placements are undefined: y_true has only one class "
                      f"({'all negative' if m == 0 else 'all positive'})", UndefinedMetricWarning, stacklevel=2)
        return DelongPlacements(np.full(m, np.nan), np.full(n, np.nan))
    # One argsort of all scores; per tie group g (ascending): negatives strictly below and positives strictly
    # above, plus half of the other class inside the group (the midrank); then scatter back to input order.
    order = np.argsort(s)
    s_sorted = s[order]
    y_sorted = y[order]
    new = np.empty(s.shape[0], dtype=bool)
    new[:1] = True
    np.not_equal(s_sorted[1:], s_sorted[:-1], out=new[1:])
    del s_sorted
    starts = np.flatnonzero(new)
    group = np.cumsum(new, dtype=np.intp)
    group -= 1
    del new
    pos_in = np.add.reduceat(y_sorted.astype(np.intp), starts)
    size = np.diff(starts, append=y.shape[0])
    neg_in = size - pos_in
    neg_below = np.cumsum(neg_in) - neg_in
    pos_above = m - np.cumsum(pos_in)
    table = np.empty(2 * starts.shape[0])
    table[1::2] = (neg_below + 0.5 * neg_in) / n          # value for a positive in group g
    table[0::2] = (pos_above + 0.5 * pos_in) / m          # value for a negative in group g
    group *= 2
    group += y_sorted
    placement = np.empty(y.shape[0])
    placement[order] = table[group]
    return DelongPlacements(placement[y], placement[~y])


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
    counts = _check_counts(counts)
    reason = _class_problem(counts)
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
    counts = _check_counts(counts)
    reason = _class_problem(counts, need_neg=False)
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
    counts = _check_counts(counts)
    _warn_curve("Cumulative response curve", _class_problem(counts, need_neg=False))
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
    counts = _check_counts(counts)
    _warn_curve("Lift curve", _class_problem(counts, need_neg=False))
    x, tpr = counts._ppf0, counts._tpr0
    y = np.empty_like(x)
    np.divide(tpr[1:], x[1:], out=y[1:])
    y[:1] = y[1:2]
    return CurveResult("lift", x, _frozen(y), counts._thresholds0, "predicted_positive_fraction", "lift",
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
    counts = _check_counts(counts)
    reason = _class_problem(counts)
    _warn_curve("KS curve", reason)
    best = None if reason or not len(counts) else counts._ks_best
    statistic = float("nan") if best is None else float(abs(counts.tpr[best] - counts.fpr[best]))
    return CurveResult("ks", counts.thresholds, counts.tpr, counts.thresholds, "threshold", "tpr", "Threshold",
                       "Cumulative fraction predicted positive", y2=counts.fpr, y2_name="fpr",
                       y2_label="False positive rate", statistic=statistic, best_index=best)


# ----------------------------------------------------------------------------------------------------------------
# Metrics against the threshold, and at one threshold
# ----------------------------------------------------------------------------------------------------------------

def _safe_div(num, den):
    num, den = np.broadcast_arrays(np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64))
    return np.divide(num, den, out=np.full(num.shape, np.nan), where=den != 0)


def _fbeta(tp, fp, fn, beta):
    b2 = beta * beta
    return _safe_div((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)


def _mcc(tp, fp, tn, fn):
    den = np.sqrt((tp + fp) * (tp + fn)) * np.sqrt((tn + fp) * (tn + fn))
    return _safe_div(tp * tn - fp * fn, den)


# name -> f(tp, fp, tn, fn, beta); the names are the package's metric keys (SPEC "Binary")
_THRESHOLD_METRICS = {
    "tp": lambda tp, fp, tn, fn, b: tp,
    "fp": lambda tp, fp, tn, fn, b: fp,
    "tn": lambda tp, fp, tn, fn, b: tn,
    "fn": lambda tp, fp, tn, fn, b: fn,
    "precision": lambda tp, fp, tn, fn, b: _safe_div(tp, tp + fp),
    "recall": lambda tp, fp, tn, fn, b: _safe_div(tp, tp + fn),
    "specificity": lambda tp, fp, tn, fn, b: _safe_div(tn, tn + fp),
    "fpr": lambda tp, fp, tn, fn, b: _safe_div(fp, fp + tn),
    "fnr": lambda tp, fp, tn, fn, b: _safe_div(fn, fn + tp),
    "npv": lambda tp, fp, tn, fn, b: _safe_div(tn, tn + fn),
    "fdr": lambda tp, fp, tn, fn, b: _safe_div(fp, fp + tp),
    "false_omission_rate": lambda tp, fp, tn, fn, b: _safe_div(fn, fn + tn),
    "accuracy": lambda tp, fp, tn, fn, b: _safe_div(tp + tn, tp + fp + tn + fn),
    "error_rate": lambda tp, fp, tn, fn, b: _safe_div(fp + fn, tp + fp + tn + fn),
    "f1": lambda tp, fp, tn, fn, b: _fbeta(tp, fp, fn, 1.0),
    "fbeta": lambda tp, fp, tn, fn, b: _fbeta(tp, fp, fn, b),
    "balanced_accuracy": lambda tp, fp, tn, fn, b: (_safe_div(tp, tp + fn) + _safe_div(tn, tn + fp)) / 2,
    "informedness": lambda tp, fp, tn, fn, b: _safe_div(tp, tp + fn) + _safe_div(tn, tn + fp) - 1,
    "markedness": lambda tp, fp, tn, fn, b: _safe_div(tp, tp + fp) + _safe_div(tn, tn + fn) - 1,
    "mcc": lambda tp, fp, tn, fn, b: _mcc(tp, fp, tn, fn),
    "predicted_positive_fraction": lambda tp, fp, tn, fn, b: _safe_div(tp + fp, tp + fp + tn + fn),
}
THRESHOLD_METRICS: tuple[str, ...] = tuple(_THRESHOLD_METRICS)


@dataclass(frozen=True, eq=False)
class ThresholdMetrics:
    """Metrics at every distinct threshold: ``values[i, k]`` is metric ``names[i]`` at ``thresholds[k]``.

    ``result["f1"]`` gives one row; :meth:`to_frame` a table with a ``threshold`` column and one column per name.
    """

    thresholds: np.ndarray
    names: tuple[str, ...]
    values: np.ndarray
    beta: float = 1.0

    def __getitem__(self, name: str) -> np.ndarray:
        try:
            return self.values[self.names.index(name)]
        except ValueError:
            raise KeyError(f"metric {name!r} was not computed (computed: {', '.join(self.names)})") from None

    def to_frame(self):
        """A pandas DataFrame: ``threshold`` then one column per metric name, one row per threshold."""
        import pandas as pd

        frame = pd.DataFrame(self.values.T, columns=list(self.names))
        frame.insert(0, "threshold", self.thresholds)
        return frame


def metric_vs_threshold(counts: ThresholdCounts,
                        metrics=("precision", "recall", "f1", "specificity", "accuracy"), *,
                        beta: float = 1.0) -> ThresholdMetrics:
    r"""Confusion-matrix metrics (ISO 4213 3.2, 6.2) at every distinct threshold, from the counts (no sort).

    At threshold :math:`t_k`: :math:`TP = \mathrm{tps}_k`, :math:`FP = \mathrm{fps}_k`,
    :math:`TN = n_{neg} - \mathrm{fps}_k`, :math:`FN = n_{pos} - \mathrm{tps}_k`, and e.g.

    .. math::

        \mathrm{precision} = \frac{TP}{TP + FP}, \quad
        F_\beta = \frac{(1 + \beta^2)\,TP}{(1 + \beta^2)\,TP + \beta^2 FN + FP}, \quad
        \mathrm{MCC} = \frac{TP \cdot TN - FP \cdot FN}{\sqrt{(TP+FP)(TP+FN)(TN+FP)(TN+FN)}}

    Available names: ``THRESHOLD_METRICS`` (tp fp tn fn precision recall specificity fpr fnr npv fdr
    false_omission_rate accuracy error_rate f1 fbeta balanced_accuracy informedness markedness mcc
    predicted_positive_fraction). A value whose denominator is 0 at a threshold is NaN there and one
    :class:`UndefinedMetricWarning` per metric says at how many thresholds.

    >>> m = metric_vs_threshold(threshold_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), ("precision", "f1"))
    >>> m["f1"].round(4).tolist()
    [0.6667, 0.5, 0.8, 0.6667]
    """
    counts = _check_counts(counts)
    names = (metrics,) if isinstance(metrics, str) else tuple(metrics)
    unknown = [m for m in names if m not in _THRESHOLD_METRICS]
    if unknown:
        raise ValueError(f"`metrics` has unknown names {unknown} (known: {', '.join(THRESHOLD_METRICS)})")
    if not (isinstance(beta, (int, float)) and np.isfinite(beta) and beta > 0):
        raise ValueError(f"`beta` must be > 0 (got {beta!r})")
    tp, fp, tn, fn = counts.tps, counts.fps, counts.tns, counts.fns
    values = np.empty((len(names), len(counts)))
    for i, name in enumerate(names):
        values[i] = _THRESHOLD_METRICS[name](tp, fp, tn, fn, float(beta))
        nan = int(np.isnan(values[i]).sum())
        if nan:
            warnings.warn(f"{name} is undefined at {nan} of {len(counts)} thresholds (a denominator is 0); "
                          f"those values are NaN", UndefinedMetricWarning, stacklevel=2)
    return ThresholdMetrics(counts.thresholds, names, _frozen(values), float(beta))


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
    counts = _check_counts(counts)
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
    counts = _check_counts(counts)
    t = _check_threshold(threshold)
    k = _index_at(counts, t)
    tp, fp, tn, fn = confusion_at_threshold(counts, t)
    reason = _class_problem(counts)
    if reason:
        warnings.warn(f"Rates at threshold {t} are partly undefined: {reason}", UndefinedMetricWarning,
                      stacklevel=2)
    if tp + fp == 0:
        warnings.warn(f"Precision and lift at threshold {t} are undefined: no sample is predicted positive "
                      f"(no score >= {t})", UndefinedMetricWarning, stacklevel=2)
    tpr = float(_safe_div(tp, counts.n_pos))
    ppf = float(_safe_div(tp + fp, counts.n_total))
    return OperatingPoint(t, k, tp, fp, tn, fn, tpr, float(_safe_div(fp, counts.n_neg)),
                          float(_safe_div(tp, tp + fp)), ppf, float(_safe_div(tpr, ppf)))


# ----------------------------------------------------------------------------------------------------------------
# Calibration (reliability) curve
# ----------------------------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class CalibrationResult:
    r"""Reliability diagram data: per-bin mean predicted probability against observed frequency.

    For bin b (edges ``bin_edges[b]``, ``bin_edges[b + 1]``): ``counts[b]`` is the (weighted) number of samples in
    it, ``mean_predicted[b]`` their mean score, ``observed_frequency[b]`` their fraction of positives; both are NaN
    for an empty bin (``counts[b] == 0``). ``ece`` and ``mce`` are the expected and maximum calibration errors over
    the non-empty bins:

    .. math::

        \mathrm{ECE} = \sum_b \frac{n_b}{n}\,\lvert o_b - p_b \rvert, \qquad
        \mathrm{MCE} = \max_{b:\,n_b > 0} \lvert o_b - p_b \rvert
    """

    bin_edges: np.ndarray
    mean_predicted: np.ndarray
    observed_frequency: np.ndarray
    counts: np.ndarray
    strategy: str
    ece: float
    mce: float

    @property
    def nonempty(self) -> np.ndarray:
        """Bool mask of the bins holding samples (the points of the reliability diagram)."""
        return self.counts > 0

    def to_frame(self):
        """One row per bin: ``bin_low``, ``bin_high``, ``count``, ``mean_predicted``, ``observed_frequency``."""
        import pandas as pd

        return pd.DataFrame({"bin_low": self.bin_edges[:-1], "bin_high": self.bin_edges[1:], "count": self.counts,
                             "mean_predicted": self.mean_predicted,
                             "observed_frequency": self.observed_frequency})


def calibration_curve(y_true, score, *, n_bins: int = 10, strategy: str = "uniform",
                      sample_weight=None) -> CalibrationResult:
    r"""Calibration (reliability) curve with ECE and MCE for probability scores in [0, 1].

    Bins follow ``sklearn.calibration.calibration_curve`` exactly: ``"uniform"`` edges are
    ``np.linspace(0, 1, n_bins + 1)``, ``"quantile"`` edges ``np.percentile(score, np.linspace(0, 100, n_bins + 1))``
    (unweighted, linear interpolation; repeated edges leave empty bins); a score goes to bin
    ``np.searchsorted(edges[1:-1], score)``, i.e. bins are closed on the right, (e_b, e_{b+1}], the first one
    also holding its lower edge. Differences from scikit-learn: empty bins are kept (NaN means, count 0) so the
    arrays always have ``n_bins`` entries (``result.nonempty`` selects scikit-learn's points), and
    ``sample_weight`` weights the per-bin means and counts (not the quantile edges). See
    :class:`CalibrationResult` for each array and the ECE/MCE formulas. Total weight 0: ECE and MCE NaN with
    :class:`UndefinedMetricWarning`.

    >>> c = calibration_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], n_bins=2)
    >>> c.counts.tolist(), c.observed_frequency.tolist(), round(c.ece, 4)
    ([3.0, 1.0], [0.3333333333333333, 1.0], 0.0875)
    """
    y, s, w = _check_binary(y_true, score, sample_weight)
    outside = (s < 0) | (s > 1)
    if outside.any():
        i = _first(outside)
        raise ValueError(f"`score` must be probabilities in [0, 1] for a calibration curve (got "
                         f"{int(outside.sum())} values outside, first at index {i}: {s[i]})")
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise ValueError(f"`n_bins` must be an integer >= 1 (got {n_bins!r})")
    if strategy == "uniform":
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    elif strategy == "quantile":
        edges = np.percentile(s, np.linspace(0, 1, n_bins + 1) * 100)
    else:
        raise ValueError(f"`strategy` must be 'uniform' or 'quantile' (got {strategy!r})")
    bins = np.searchsorted(edges[1:-1], s)
    weight = np.ones_like(s) if w is None else w
    counts = np.bincount(bins, weights=weight, minlength=n_bins)
    score_sum = np.bincount(bins, weights=s * weight, minlength=n_bins)
    pos_sum = np.bincount(bins, weights=np.where(y, weight, 0.0), minlength=n_bins)
    mean_predicted = _safe_div(score_sum, counts)
    observed = _safe_div(pos_sum, counts)
    total = counts.sum()
    filled = counts > 0
    if total > 0:
        gaps = np.abs(observed[filled] - mean_predicted[filled])
        ece, mce = float(np.dot(counts[filled] / total, gaps)), float(gaps.max())
    else:
        warnings.warn("ECE and MCE are undefined: the total sample weight is 0", UndefinedMetricWarning,
                      stacklevel=2)
        ece = mce = float("nan")
    return CalibrationResult(_frozen(edges), _frozen(mean_predicted), _frozen(observed), _frozen(counts),
                             strategy, ece, mce)


# ----------------------------------------------------------------------------------------------------------------
# Thinning for drawing
# ----------------------------------------------------------------------------------------------------------------

def _cells(v: np.ndarray, m: int) -> np.ndarray:
    lo, hi = v.min(), v.max()
    if hi <= lo:
        return np.zeros(v.shape[0], dtype=np.int64)
    cell = ((v - lo) * (m / (hi - lo))).astype(np.int64)
    return np.minimum(cell, m - 1, out=cell)


def thin_curve(x, y, *, max_points: int = 2000, grid: int | None = None) -> np.ndarray:
    r"""Indices of the points to keep when DRAWING a curve; numbers (AUC, AP, ...) always use the full curve.

    Each axis is cut into ``grid`` (m) equal cells over its data range (default m = ``max_points // 4``). Walking
    along the curve, a point is kept when it is the first or last point, or the curve moves to another cell
    right after it or right before it (so both ends of every grid-line crossing are kept).

    Bound: between two consecutive kept points i < j either j = i + 1 (the drawn segment is the true one) or all
    points i..j lie in one cell, and so do the drawn chord and the true polyline between them; hence the drawn
    polyline deviates from the full curve by at most one cell — (range of x)/m horizontally and (range of y)/m
    vertically. Count: a curve monotone in both coordinates (ROC, gain, KS) changes cell at most 2(m - 1) times,
    keeping at most 4m - 2 <= ``max_points`` points for any number of rows. A non-monotone curve (PR precision,
    lift) can change cell more often; then m is halved until the count fits, and the bound holds for that m.

    Curves with at most ``max_points`` points are returned whole. Returns increasing ``intp`` indices.

    >>> x = np.linspace(0, 1, 10_001)
    >>> keep = thin_curve(x, x ** 2, max_points=40)
    >>> len(keep) <= 40, keep[0], keep[-1]
    (True, np.int64(0), np.int64(10000))
    """
    xs = _check_1d(x, "x").astype(np.float64, copy=False)
    ys = _check_1d(y, "y").astype(np.float64, copy=False)
    if xs.shape[0] != ys.shape[0]:
        raise ValueError(f"`y` has {ys.shape[0]} points but `x` has {xs.shape[0]}")
    if isinstance(max_points, bool) or not isinstance(max_points, (int, np.integer)) or max_points < 4:
        raise ValueError(f"`max_points` must be an integer >= 4 (got {max_points!r})")
    m = max_points // 4 if grid is None else grid
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise ValueError(f"`grid` must be an integer >= 1 (got {grid!r})")
    _check_finite(xs, "x")
    _check_finite(ys, "y")
    n = xs.shape[0]
    if n <= max_points:
        return np.arange(n, dtype=np.intp)
    while True:
        cx, cy = _cells(xs, m), _cells(ys, m)
        moves = np.flatnonzero((cx[1:] != cx[:-1]) | (cy[1:] != cy[:-1]))
        keep = np.zeros(n, dtype=bool)
        keep[[0, -1]] = True
        keep[moves] = True
        keep[moves + 1] = True
        if np.count_nonzero(keep) <= max_points or m == 1:
            return np.flatnonzero(keep)
        m //= 2
