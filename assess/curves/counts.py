"""The counting primitive: one sort of a binary scorer's scores gives cumulative confusion counts at every threshold.

:func:`threshold_counts` sorts the scores once and returns the cumulative (weighted) true and false positive counts at
every distinct score, used as a threshold with the rule *predict positive when score >= threshold*
(:class:`ThresholdCounts`). Everything else in :mod:`assess.curves` — and the metric-versus-threshold arrays of
:mod:`assess.metrics.threshold` — is a few vectorised lines on top of those counts and never sorts again.

Fast paths: unweighted counts come from value sorts only (no argsort, no gather of the labels); ROC AUC, KS and
(when positives are the smaller class) AP and PR AUC are computed in O(m) from the smaller class while counting;
:func:`rank_scores` keeps one sort for many weightings of the same rows (the bootstrap, the ROC band). One-vs-rest
and micro-averaged counts serve multi-class scores.

Binary encoding: ``y_true`` holds 0/1 (1 = positive; bool or int accepted), ``score`` is a float array (higher =
more positive), ``sample_weight`` optional floats >= 0. Public functions validate at the boundary and raise
``ValueError`` naming the parameter and the value received.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from assess.core.warnings import UndefinedMetricWarning

__all__ = ["ThresholdCounts", "ScoreRanking", "threshold_counts", "rank_scores", "ovr_threshold_counts",
           "micro_threshold_counts", "trapezoid_auc"]

# ----------------------------------------------------------------------------------------------------------------
# Boundary validation (one function per input, one message per rule)
# ----------------------------------------------------------------------------------------------------------------

def first_index(mask: np.ndarray) -> int:
    """The index of the first True of ``mask`` (which has one): the row an error message names."""
    return int(np.flatnonzero(mask)[0])


def check_1d(values, name: str) -> np.ndarray:
    """``values`` as an array, refused (ValueError naming ``name``) unless it is one-dimensional."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"`{name}` must be 1-D (got shape {arr.shape})")
    return arr


def _check_y_true(y_true, name: str = "y_true") -> np.ndarray:
    """Return ``y_true`` as a bool array (True = positive); accepts bool, integer or float 0/1."""
    arr = check_1d(y_true, name)
    if arr.dtype == bool:
        return arr
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"`{name}` must hold 0/1 as bool, int or float (got dtype {arr.dtype})")
    bad = (arr != 0) & (arr != 1)
    if bad.any():
        i = first_index(bad)
        raise ValueError(f"`{name}` must contain only 0 and 1 (got {int(bad.sum())} other values, "
                         f"first at index {i}: {arr[i].item()})")
    return arr == 1


def check_finite(arr: np.ndarray, name: str) -> None:
    """Refuse (ValueError) a NaN or infinite value in ``arr``, with how many and the first's index."""
    nan = np.isnan(arr)
    if nan.any():
        raise ValueError(f"`{name}` has {int(nan.sum())} NaN values (first at index {first_index(nan)})")
    inf = np.isinf(arr)
    if inf.any():
        i = first_index(inf)
        raise ValueError(f"`{name}` has {int(inf.sum())} infinite values (first at index {i}: {arr[i]})")


def _check_score(score, n: int, name: str = "score") -> np.ndarray:
    arr = check_1d(score, name)
    if arr.dtype.kind not in "iufb":
        raise TypeError(f"`{name}` must be numeric (got dtype {arr.dtype})")
    if arr.shape[0] != n:
        raise ValueError(f"`{name}` has {arr.shape[0]} rows but `y_true` has {n}")
    arr = np.asarray(arr, dtype=np.float64)
    if not np.isfinite(arr).all():
        check_finite(arr, name)
    return arr


def _check_weight(sample_weight, n: int) -> np.ndarray | None:
    if sample_weight is None:
        return None
    arr = check_1d(sample_weight, "sample_weight")
    if arr.dtype.kind not in "iufb":
        raise TypeError(f"`sample_weight` must be numeric (got dtype {arr.dtype})")
    if arr.shape[0] != n:
        raise ValueError(f"`sample_weight` has {arr.shape[0]} rows but `y_true` has {n}")
    arr = np.asarray(arr, dtype=np.float64)
    check_finite(arr, "sample_weight")
    neg = arr < 0
    if neg.any():
        i = first_index(neg)
        raise ValueError(f"`sample_weight` must be >= 0 (got {int(neg.sum())} negative values, "
                         f"first at index {i}: {arr[i]})")
    return arr


def check_binary(y_true, score, sample_weight):
    """(y as bool, score as an array, weight or None) of a binary scorer's inputs, each checked: 0/1 truth, as many
    numeric finite scores, non-negative finite weights; a clear error otherwise."""
    y = _check_y_true(y_true)
    if y.shape[0] == 0:
        raise ValueError("`y_true` is empty (got 0 rows)")
    return y, _check_score(score, y.shape[0]), _check_weight(sample_weight, y.shape[0])


def _readonly(*arrays: np.ndarray) -> None:
    for a in arrays:
        a.setflags(write=False)



def safe_divide(num, den):
    """``num / den`` element-wise, broadcast, as float64; NaN where ``den`` is 0 (undefined, never a silent 0)."""
    num, den = np.broadcast_arrays(np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64))
    return np.divide(num, den, out=np.full(num.shape, np.nan), where=den != 0)



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
        return read_only(np.concatenate(([np.inf], self.thresholds)))

    @cached_property
    def _ascending(self) -> np.ndarray:
        """The thresholds increasing and contiguous, for repeated binary searches (a view when already so)."""
        return read_only(np.ascontiguousarray(self.thresholds[::-1]))

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
        return read_only(precision0), read_only(ppf0)

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
        return float(trapezoid_auc(self.tps, self.fps))

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


def trapezoid_auc(tps: np.ndarray, fps: np.ndarray):
    r"""ROC AUC from cumulative counts per distinct score (decreasing), with any leading axes (resamples, classes):

    .. math::

        \mathrm{AUC} = \frac{1}{2\,n_{pos}\,n_{neg}} \sum_{k=1}^{D} (\mathrm{fps}_k - \mathrm{fps}_{k-1})
        (\mathrm{tps}_k + \mathrm{tps}_{k-1}), \qquad \mathrm{tps}_0 = \mathrm{fps}_0 = 0,\;
        n_{pos} = \mathrm{tps}_D,\; n_{neg} = \mathrm{fps}_D

    — the trapezoid under the exact ROC curve, ties counted one half. NaN where a class is empty (silently: callers
    say why). The one trapezoid of the package: the binary point value (weighted path), the one-vs-rest and
    one-vs-one multi-class AUCs, per-label AUCs and their resamples all use it.
    """
    npos, nneg = tps[..., -1], fps[..., -1]
    if tps.ndim == 1:   # one curve: a BLAS dot, no temporaries beyond the two differences (the 1e7-row path)
        num = fps[0] * tps[0] + np.dot(np.diff(fps), tps[1:] + tps[:-1])
    else:
        dx = np.diff(fps, axis=-1, prepend=0.0)
        heights = tps.copy()
        heights[..., 1:] += tps[..., :-1]
        num = np.einsum("...d,...d->...", dx, heights)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((npos > 0) & (nneg > 0), num / (2.0 * npos * nneg), np.nan)


def read_only(a: np.ndarray) -> np.ndarray:
    """``a``, made read-only in place: the arrays of a frozen result cannot be changed behind its back."""
    a.setflags(write=False)
    return a


def _ratio0(counts: np.ndarray, total: float) -> np.ndarray:
    out = np.empty(counts.shape[0] + 1)
    out[0] = 0.0
    if total > 0:
        np.divide(counts, total, out=out[1:])
    else:
        out[:] = np.nan
    return read_only(out)


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
    arr = check_1d(score, "score")
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
    y, s, w = check_binary(y_true, score, sample_weight)
    if ranking is not None:
        if not isinstance(ranking, ScoreRanking):
            raise TypeError(f"`ranking` must be a ScoreRanking from rank_scores() (got {type(ranking).__name__})")
        if ranking.group.shape[0] != y.shape[0]:
            raise ValueError(f"`ranking` was made from {ranking.group.shape[0]} scores but `y_true` has "
                             f"{y.shape[0]} rows")
    return _make_counts(y, s, w, ranking)


def _check_codes_proba(y_codes, proba, sample_weight):
    codes = check_1d(y_codes, "y_codes")
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
        i = first_index(bad)
        raise ValueError(f"`y_codes` must be in 0..{k - 1} for {k} `proba` columns (got {int(bad.sum())} "
                         f"other values, first at index {i}: {codes[i]})")
    p = np.asarray(p, dtype=np.float64)
    if not np.isfinite(p).all():
        check_finite(p.ravel(), "proba (flattened row-major)")
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
# Shared checks of the functions that read counts
# ----------------------------------------------------------------------------------------------------------------

def class_problem(counts: ThresholdCounts, *, need_neg: bool = True) -> str | None:
    """Why a ranking metric is undefined for these counts, or None when it is defined."""
    qualifier = " with nonzero weight" if counts.weighted else ""
    if counts.n_pos <= 0 and counts.n_neg <= 0:
        return f"y_true has no rows{qualifier}"
    if counts.n_pos <= 0:
        return f"y_true has only one class{qualifier} (all negative)"
    if need_neg and counts.n_neg <= 0:
        return f"y_true has only one class{qualifier} (all positive)"
    return None


def undefined_value(what: str, reason: str) -> float:
    """NaN, with an :class:`UndefinedMetricWarning` "<what> is undefined: <reason>" raised at the caller's caller
    (the public function the user called)."""
    warnings.warn(f"{what} is undefined: {reason}", UndefinedMetricWarning, stacklevel=3)
    return float("nan")


def check_counts(counts) -> ThresholdCounts:
    """``counts``, refused (TypeError) unless it is a :class:`ThresholdCounts`."""
    if not isinstance(counts, ThresholdCounts):
        raise TypeError(f"`counts` must be ThresholdCounts from threshold_counts() (got {type(counts).__name__})")
    return counts

