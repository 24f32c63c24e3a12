"""DeLong's placement values, their variance and the ROC AUC interval (DeLong, DeLong & Clarke-Pearson 1988)."""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np
from scipy import special

from assess.core.warnings import UndefinedMetricWarning
from assess.curves.counts import check_binary
from assess.intervals.interval import ConfidenceInterval, check_confidence_level, normal_quantile

# ------------------------------------------------------------------------------------------------------------------
# DeLong: placements, variance, interval
# ------------------------------------------------------------------------------------------------------------------

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
    y, s, _ = check_binary(y_true, score, None)
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

def delong_variance(v10: np.ndarray, v01: np.ndarray) -> tuple[float, float]:
    r"""AUC and its DeLong variance from placement values:

    .. math:: \widehat{\mathrm{AUC}} = \bar V_{10},\qquad
              \widehat{\mathrm{Var}} = \frac{S_{10}}{m} + \frac{S_{01}}{n}

    with :math:`S_{10}, S_{01}` the sample variances (ddof = 1) of the m positive and n negative placements.
    """
    m, n = v10.shape[0], v01.shape[0]
    if m < 2 or n < 2:
        return (float(np.mean(v10)) if m else float("nan")), float("nan")
    return float(np.mean(v10)), float(np.var(v10, ddof=1) / m + np.var(v01, ddof=1) / n)


def delong_ci(y_true, score, *, confidence_level: float = 0.95, transform: str = "none") -> ConfidenceInterval:
    r"""DeLong confidence interval of the ROC AUC (DeLong et al. 1988), unweighted.

    ``transform="none"`` (default): :math:`\mathrm{AUC} \pm z\sqrt{\widehat{\mathrm{Var}}}` truncated to [0, 1], as
    pROC's ``ci.auc(method="delong")``. ``transform="logit"``: the interval of :math:`\mathrm{logit}(\mathrm{AUC})`
    with the delta-method standard error :math:`\mathrm{se}/(\mathrm{AUC}(1-\mathrm{AUC}))`, mapped back (stays inside
    (0, 1); degenerate at AUC 0 or 1). NaN bounds when a class has fewer than 2 rows.
    """
    confidence_level = check_confidence_level(confidence_level)
    if transform not in ("none", "logit"):
        raise ValueError(f"`transform` must be 'none' or 'logit' (got {transform!r})")
    v10, v01 = delong_placements(y_true, score)
    auc, var = delong_variance(v10, v01)
    method = "delong" if transform == "none" else "delong-logit"
    if not np.isfinite(var):
        return ConfidenceInterval(float("nan"), float("nan"), confidence_level, method)
    z = normal_quantile(confidence_level)
    se = np.sqrt(var)
    if transform == "none":
        return ConfidenceInterval(max(0.0, auc - z * se), min(1.0, auc + z * se), confidence_level, method)
    if auc <= 0 or auc >= 1:
        return ConfidenceInterval(auc, auc, confidence_level, method)
    lg = special.logit(auc)
    se_l = se / (auc * (1 - auc))
    return ConfidenceInterval(float(special.expit(lg - z * se_l)), float(special.expit(lg + z * se_l)),
                              confidence_level, method)
