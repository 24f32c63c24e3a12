r"""Regression and pooled forecast metrics: one state per model, one formula per SPEC key.

Conventions (every sum weighted by :math:`w_i` when weights are given, :math:`W = \sum_i w_i`):

- the residual is :math:`e_i = \hat y_i - y_i` (prediction minus truth), so ``mean_error`` > 0 means the model
  over-predicts on average. Reference 003 ("Time Series") writes the one-step-ahead error the other way round,
  :math:`e_t(1) = y_t - \hat y_t(t-1)`; only ``mean_error`` sees the sign.
- relative error :math:`r_i = e_i / y_i`, a *fraction* (reference 003's :math:`re_t(1)` is the same number times
  100): ``mape`` :math:`= \frac1W\sum w_i|r_i|`, ``mspe`` :math:`= \frac1W\sum w_i r_i^2` and ``rmspe`` its square
  root (reference 002, "Performance metrics for regression: ... in terms of percentage error"). Rows with
  :math:`y_i = 0` make them undefined: NaN with the count of such rows as the reason (scikit-learn's
  ``mean_absolute_percentage_error`` divides by ``max(|y|, eps)`` instead and returns numbers near 1e15).
- ``smape`` :math:`= \frac1W\sum w_i \frac{2|e_i|}{|y_i| + |\hat y_i|}`, a fraction in [0, 2] (reference 003's
  SMAPE without the 100 %); a row with :math:`y_i = \hat y_i = 0` is an exact prediction and counts 0 (a note gives
  the count).
- ``r2`` :math:`= 1 - \frac{\sum w_i e_i^2}{\sum w_i (y_i - \bar y)^2}` with :math:`\bar y` the weighted mean
  (reference 001 eq. (1)–(2), reference 002); it is the skill score of the model against the constant mean predictor
  (``1 − MSE/MSE_mean``). ``explained_variance`` :math:`= 1 - \mathrm{Var}_w(e)/\mathrm{Var}_w(y)` (reference 003).
  Both are undefined when :math:`y` is constant (zero denominator): NaN with a reason. scikit-learn's ``r2_score``
  and ``explained_variance_score`` return 1.0 (perfect prediction) or 0.0 (otherwise) there by their
  ``force_finite=True`` convention.
- ``median_absolute_error`` is the weighted 50 % quantile of :math:`|e_i|` by the *averaged inverted CDF*
  (Hyndman & Fan): with the sorted values and cumulative weights :math:`C_j`, the first value with
  :math:`C_j \ge W/2`, averaged with the next value of positive weight when :math:`C_j = W/2` exactly. With equal
  weights that is ``numpy.median``; with weights it is scikit-learn's ``median_absolute_error(sample_weight=...)``
  (``_weighted_percentile(average=True)``, scikit-learn ≥ 1.8).
- ``max_error`` :math:`= \max_i |e_i|` over rows of positive weight (reference 001's :math:`l_\infty`; weights do not
  change a maximum otherwise).

The state is built in one pass over the rows per quantity (residual, its absolute value, the relative errors), the
median being the one partial sort (a full sort with weights). Its sums are also what the bootstrap resamples: a
batch state holds (b,) arrays of the same sums over a chunk of resamples and the same formulas run on it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assess.metrics._common import note, note_undefined

__all__ = ["RegressionState", "regression_state", "row_values", "delta_pseudo_values", "weighted_median",
           "sorted_weighted_median", "PARTS", "mae", "mse", "rmse", "sse",
           "max_error", "r2", "explained_variance", "median_absolute_error", "mape", "smape", "mspe", "rmspe",
           "mean_error"]

#: The optional parts of the state, built only when a requested metric reads them (``MetricSpec.shared``).
PARTS = ("error", "abs", "sq", "true_var", "error_var", "max", "median", "abs_rel", "sq_rel", "smape")

# Above this ratio of raw to centred second moment, the one-pass variance loses more than 4 digits; recompute it
# centred (a second pass). Below it, the one-pass value is good to ~1e-12 relative.
_CANCELLATION = 1e4


@dataclass(frozen=True, eq=False)
class RegressionState:
    """Weighted sums of one model's errors (floats), or of a chunk of resamples (``batch=True``: (b,) arrays).

    ``None`` marks a part that was not asked for. ``zero_truth_rows`` counts rows with :math:`y = 0` (and positive
    weight), ``zero_zero_rows`` rows with :math:`y = \\hat y = 0`; ``constant_truth`` is the constant value of
    :math:`y` when it has one (else None).
    """

    weight_sum: object
    n: int
    sum_error: object = None            # sum w e
    sum_abs: object = None              # sum w |e|
    sum_sq: object = None               # sum w e^2
    ss_true: object = None              # sum w (y - ybar)^2
    ss_error: object = None             # sum w (e - ebar)^2
    max_abs: object = None
    median_abs: object = None
    sum_abs_rel: object = None          # sum w |e / y|
    sum_sq_rel: object = None           # sum w (e / y)^2
    sum_smape: object = None            # sum w 2|e| / (|y| + |yhat|), 0 where both are 0
    zero_truth_rows: int = 0
    first_zero_truth: int | None = None
    zero_zero_rows: int = 0
    constant_truth: float | None = None
    batch: bool = False


def weighted_median(values: np.ndarray, weight: np.ndarray | None, *, in_place: bool = False) -> float:
    """The 50 % quantile by the averaged inverted CDF (see the module docstring); ``numpy.median`` without weights,
    by one partial sort (of ``values`` itself when ``in_place``).

    >>> weighted_median(np.array([1.0, 2.0, 3.0, 4.0]), None), weighted_median(np.array([1.0, 2.0, 3.0]), np.array([1.0, 1.0, 2.0]))
    (2.5, 2.5)
    """
    n = values.shape[0]
    if weight is None:
        half = n // 2
        part = values if in_place else values.copy()
        part.partition(half)
        if n % 2:
            return float(part[half])
        # even n: the lower middle value is the largest of the lower half the partition left in front
        return float((part[:half].max() + part[half]) / 2.0)
    order = np.argsort(values, kind="stable")
    v, w = values[order], weight[order]
    # rows of weight 0 neither reach the half nor are "the next value of positive weight"; with none after the
    # half, the next value is the largest (scikit-learn's _weighted_percentile clamps to the last row)
    largest = v[-1:]
    if not (w > 0).all():
        v, w = v[w > 0], w[w > 0]
        if not v.shape[0]:
            return float("nan")     # no weight at all: no half to reach
    cum = np.cumsum(w)
    median, _, _ = sorted_weighted_median(v, cum, 0.5 * cum[-1:], np.array([0]), np.array([v.shape[0]]), largest)
    return float(median[0])


def sorted_weighted_median(values: np.ndarray, cum: np.ndarray, target: np.ndarray, starts: np.ndarray,
                           ends: np.ndarray, after: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""The averaged inverted CDF (module docstring) on sorted tables of (value, positive weight), one per group —
    the one statement of the rule, for `weighted_median` (one group of rows) and the out-of-core medians
    (`assess.engine.median`: per group of distinct values or of histogram buckets).

    Group g is rows ``starts[g]:ends[g]`` of ``values`` (ascending) and ``cum`` (the running weight, from any offset:
    a group may continue a sum begun before it); ``target[g]`` is :math:`W/2`; ``after[g]`` the value following the
    group's last row (NaN: none). Per group: ``first``, the first row with :math:`C_j \ge W/2` (clamped to the last
    row, as ``numpy.searchsorted(cum, target, 'left')``); ``next``, the value after it; the median is the value at
    ``first``, averaged with ``next`` on an exact hit, :math:`C_j - W/2 \le \varepsilon` (scikit-learn's
    ``_weighted_percentile(average=True)``). Returns (median, first, next), arrays over the groups.

    >>> sorted_weighted_median(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 4.0]), np.array([2.0]), np.array([0]),
    ...                        np.array([3]), np.array([np.nan]))[0]      # weights 1, 1, 2: C = 2 = W/2, an exact hit
    array([2.5])
    """
    if not starts.shape[0]:
        return np.array([]), np.array([], dtype=np.int64), np.array([])
    index = np.where(cum >= np.repeat(target, ends - starts), np.arange(cum.shape[0]), cum.shape[0])
    first = np.minimum(np.minimum.reduceat(index, starts), ends - 1)
    last = values.shape[0] - 1
    nxt = np.where(first + 1 < ends, values[np.minimum(first + 1, last)], after)
    hit = ~(cum[first] - target > np.finfo(np.float64).eps) & np.isfinite(nxt)
    return np.where(hit, (values[first] + nxt) / 2.0, values[first]), first, nxt


def _centred_ss(x: np.ndarray, weight, W: float, s1: float, s2: float) -> float:
    """:math:`\\sum w (x - \\bar x)^2` from the raw sums, recomputed centred when the raw form would cancel."""
    ss = s2 - s1 * s1 / W
    if s2 > _CANCELLATION * max(ss, 0.0):
        d = x - s1 / W
        ss = float(np.dot(d, d)) if weight is None else float(np.dot(weight, d * d))
    return max(ss, 0.0)


def regression_state(y_true: np.ndarray, y_pred: np.ndarray, weight: np.ndarray | None = None,
                     parts=None) -> RegressionState:
    """The state of one model from validated float arrays (finite, same shape; weights >= 0, not all zero).

    ``parts``: the names in :data:`PARTS` to build (default all). Three row-sized buffers at most (the residual,
    its absolute value, the sMAPE denominators), each reused: the relative errors overwrite the residual once its sums
    are taken, and the median's partial sort runs in place on the absolute errors, last.
    """
    want = set(PARTS if parts is None else parts)
    y = np.asarray(y_true, dtype=np.float64)
    yp = np.asarray(y_pred, dtype=np.float64)
    n = y.shape[0]
    w = weight
    live = None if w is None else w > 0

    def wsum(x):
        return float(x.sum()) if w is None else float(np.dot(w, x))

    def wsq(x):
        return float(np.dot(x, x)) if w is None else float(np.dot(w, x * x))

    W = float(n) if w is None else float(w.sum())
    out: dict = {}
    e = np.subtract(yp, y)
    if want & {"error", "error_var"}:
        out["sum_error"] = wsum(e)
    if want & {"sq", "error_var"}:
        out["sum_sq"] = wsq(e)
    if "error_var" in want:
        out["ss_error"] = _centred_ss(e, w, W, out["sum_error"], out["sum_sq"])
    if "true_var" in want:
        s1, s2 = wsum(y), wsq(y)
        ss = _centred_ss(y, w, W, s1, s2)
        yl = y if live is None else y[live]
        # a constant truth gives ss == 0 up to rounding; decide on the values themselves (cheap: only then)
        if ss <= 1e-20 * max(s2, np.finfo(np.float64).tiny) and yl.min() == yl.max():
            out["constant_truth"] = float(yl[0])
            ss = 0.0
        out["ss_true"] = ss
    a = None
    if want & {"abs", "max", "median", "smape"}:
        a = np.abs(e)
        if "abs" in want:
            out["sum_abs"] = wsum(a)
        if "max" in want:
            out["max_abs"] = float(a.max() if live is None else a[live].max())
    if "smape" in want:
        den = np.abs(y)
        den += np.abs(yp)
        k = 0
        if not den.all():                       # some y = yhat = 0: an exact prediction, counted as 0
            zero_zero = den == 0
            k = int(np.count_nonzero(zero_zero if live is None else zero_zero & live))
            den[zero_zero] = np.inf
        np.divide(a, den, out=den)
        out["sum_smape"] = 2.0 * wsum(den)
        out["zero_zero_rows"] = k
        del den
    if want & {"abs_rel", "sq_rel"}:
        any_zero = not y.all()
        zero = None
        if any_zero:
            zero = y == 0
            if live is not None:
                zero &= live
        k = int(np.count_nonzero(zero)) if any_zero else 0
        out["zero_truth_rows"] = k
        if k:
            out["first_zero_truth"] = int(np.flatnonzero(zero)[0])
        else:
            # the residual is not needed any more: the relative errors overwrite it. y = 0 only on rows of zero
            # weight here: they contribute 0, not 0 · inf
            with np.errstate(divide="ignore", invalid="ignore"):
                r = np.divide(e, y, out=e)
            if any_zero:
                r[y == 0] = 0.0
            if "sq_rel" in want:
                out["sum_sq_rel"] = wsq(r)
            if "abs_rel" in want:
                out["sum_abs_rel"] = wsum(np.abs(r, out=r))
    if "median" in want:
        out["median_abs"] = weighted_median(a, w, in_place=True)
    return RegressionState(weight_sum=W, n=n, **out)


def row_values(y: np.ndarray, yp: np.ndarray, parts) -> dict[str, np.ndarray]:
    """The per-row values whose (weighted) sums the state holds, by the state field they sum into, for the asked
    ``parts``: e, |e|, e², the relative errors (0 where y = 0: those metrics are then undefined and never resampled)
    and the sMAPE terms (0 where y = ŷ = 0). Shared by the i.i.d. bootstrap (one matrix product with the resample
    counts) and the forecasts' block bootstrap (per-row losses)."""
    e = yp - y
    a = np.abs(e)
    out = {}
    if "error" in parts:
        out["sum_error"] = e
    if "abs" in parts:
        out["sum_abs"] = a
    if "sq" in parts:
        out["sum_sq"] = e * e
    if parts & {"abs_rel", "sq_rel"}:
        r = np.divide(e, y, out=np.zeros(y.shape[0]), where=y != 0)
        if "abs_rel" in parts:
            out["sum_abs_rel"] = np.abs(r)
        if "sq_rel" in parts:
            out["sum_sq_rel"] = r * r
    if "smape" in parts:
        den = np.abs(y) + np.abs(yp)
        out["sum_smape"] = np.divide(2.0 * a, den, out=np.zeros(y.shape[0]), where=den > 0)
    return out

def delta_pseudo_values(key: str, y: np.ndarray, yp: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    r"""Per-row pseudo-values :math:`\hat\theta + \mathrm{IF}_i` of ``r2`` or ``explained_variance``: their (weighted)
    mean is the metric, and the Student-t interval of that mean is the metric's delta-method interval.

    Both are :math:`\theta = 1 - A/B` with :math:`B = \frac1W\sum w_i b_i`, :math:`b_i = (y_i - \bar y)^2`, and
    :math:`A = \frac1W\sum w_i a_i` with :math:`a_i = e_i^2` (R²) or :math:`(e_i - \bar e)^2` (explained variance).
    The influence function of a ratio of means (van der Vaart, *Asymptotic Statistics*, 1998, §3.1 and §20.1) is

    .. math:: \mathrm{IF}_i = -\frac{a_i - A}{B} + \frac{A\,(b_i - B)}{B^2},

    so :math:`\mathrm{Var}(\hat\theta) \approx \mathrm{Var}(\mathrm{IF})/n`; the means :math:`\bar y, \bar e`
    estimated inside :math:`a_i, b_i` add nothing to first order (a sum of squares is stationary in its centre).
    NaN everywhere when y is constant (B = 0: the metric is undefined).
    """
    w = np.ones(y.shape[0]) if weight is None else weight
    W = float(w.sum())
    e = yp - y
    b = (y - np.dot(w, y) / W) ** 2
    a = e * e if key == "r2" else (e - np.dot(w, e) / W) ** 2
    A, B = np.dot(w, a) / W, np.dot(w, b) / W
    if not B > 0:
        return np.full(y.shape[0], np.nan)
    return (1.0 - A / B) - (a - A) / B + A * (b - B) / (B * B)


# ----------------------------------------------------------------------------------------------------------------
# Formulas (point and batch states alike)
# ----------------------------------------------------------------------------------------------------------------

def _mean(s: RegressionState, total):
    return total / s.weight_sum


def mae(s: RegressionState):
    r"""Mean absolute error :math:`\frac1W\sum w_i|e_i|` (reference 001 Table 1; 002; 003)."""
    return _mean(s, s.sum_abs)


def mse(s: RegressionState):
    r"""Mean squared error :math:`\frac1W\sum w_i e_i^2` (reference 001 Table 1; 002)."""
    return _mean(s, s.sum_sq)


def rmse(s: RegressionState):
    r"""Root mean squared error :math:`\sqrt{\mathrm{MSE}}` (reference 002; 003)."""
    return np.sqrt(_mean(s, s.sum_sq))


def sse(s: RegressionState):
    r"""Sum of squared errors :math:`\sum w_i e_i^2` (reference 001 Table 1)."""
    return s.sum_sq


def max_error(s: RegressionState):
    r""":math:`l_\infty = \max_i |e_i|` (reference 001, "l∞")."""
    return s.max_abs


def median_absolute_error(s: RegressionState):
    """Weighted median of :math:`|e_i|` (reference 003, MedAE; averaged inverted CDF)."""
    return s.median_abs


def mean_error(s: RegressionState):
    r"""Bias :math:`\frac1W\sum w_i(\hat y_i - y_i)`: positive when the model over-predicts."""
    return _mean(s, s.sum_error)


_FORCE_FINITE = ("scikit-learn's force_finite convention would report 1.0 for a perfect prediction and 0.0 "
                 "otherwise")


def _constant_reason(s: RegressionState, what: str) -> str:
    which = ("y_true has a variance of 0 in floating point" if s.constant_truth is None
             else f"y_true is constant (every row is {s.constant_truth:g})")
    return f"{which}: {what} divides by the variance of y_true; {_FORCE_FINITE}"


def _skill(s: RegressionState, num, what: str):
    den = s.ss_true
    if not s.batch:
        if den <= 0:
            note_undefined(False, _constant_reason(s, what))
            return float("nan")
        return 1.0 - num / den
    den = np.asarray(den, dtype=np.float64)
    out = np.full(den.shape, np.nan)
    ok = den > 0
    np.divide(num, den, out=out, where=ok)
    return np.where(ok, 1.0 - out, np.nan)


def r2(s: RegressionState):
    r""":math:`R^2 = 1 - \sum w_i e_i^2 / \sum w_i (y_i - \bar y)^2` (reference 001 eq. (1)–(2); 002); the skill
    score against the mean predictor."""
    return _skill(s, s.sum_sq, "R²")


def explained_variance(s: RegressionState):
    r""":math:`1 - \mathrm{Var}_w(e)/\mathrm{Var}_w(y)` (reference 003, "explained variance")."""
    return _skill(s, s.ss_error, "explained variance")


def _relative(s: RegressionState, total, what: str):
    if s.zero_truth_rows:
        note_undefined(s.batch, f"y_true is 0 in {s.zero_truth_rows:,} row{'s' if s.zero_truth_rows > 1 else ''} "
                                f"(first at row {s.first_zero_truth}): {what} divides each error by y_true, which "
                                "is undefined there")
        return float("nan")
    return _mean(s, total)


def mape(s: RegressionState):
    r"""Mean absolute percentage error as a fraction :math:`\frac1W\sum w_i|e_i/y_i|` (reference 002; 003 ×100)."""
    return _relative(s, s.sum_abs_rel, "MAPE")


def mspe(s: RegressionState):
    r"""Mean squared percentage error as a fraction :math:`\frac1W\sum w_i (e_i/y_i)^2` (reference 002)."""
    return _relative(s, s.sum_sq_rel, "MSPE")


def rmspe(s: RegressionState):
    r"""Root mean squared percentage error :math:`\sqrt{\mathrm{MSPE}}` (reference 002)."""
    v = _relative(s, s.sum_sq_rel, "RMSPE")
    return np.sqrt(v)


def smape(s: RegressionState):
    r"""Symmetric MAPE as a fraction in [0, 2]: :math:`\frac1W\sum w_i\,2|e_i|/(|y_i| + |\hat y_i|)`, 0 where
    :math:`y_i = \hat y_i = 0` (reference 003, SMAPE without the 100 %)."""
    if s.zero_zero_rows:
        k = s.zero_zero_rows
        note(s.batch, f"{k:,} row{'s' if k > 1 else ''} with y_true = y_pred = 0 count as exact predictions (0)")
    return _mean(s, s.sum_smape)
