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


def delong_grouped(positives, negatives) -> tuple[float, float]:
    r"""AUC and DeLong variance from the rows of each class per distinct score, in decreasing score order (the
    grouped table of the one sort; unweighted): every row of a group shares its placement,
    :math:`V_{10} = (\text{negatives below} + \tfrac12\,\text{negatives tied}) / n` for a positive and
    :math:`V_{01} = (\text{positives above} + \tfrac12\,\text{positives tied}) / m` for a negative, so
    :func:`delong_variance`'s sample variances are count-weighted sums over the D groups — O(D), no sort of the
    rows. NaN variance when a class has fewer than 2 rows."""
    p = np.asarray(positives, dtype=np.float64)
    q = np.asarray(negatives, dtype=np.float64)
    m, n = float(p.sum()), float(q.sum())
    if m == 0 or n == 0:
        return float("nan"), float("nan")
    v10 = (n - np.cumsum(q) + 0.5 * q) / n
    v01 = (np.cumsum(p) - 0.5 * p) / m
    auc = float(np.dot(p, v10) / m)
    if m < 2 or n < 2:
        return auc, float("nan")
    # both placements average the AUC: Σ p·v10 / m = Σ q·v01 / n
    return auc, float(np.dot(p, (v10 - auc) ** 2) / (m * (m - 1)) + np.dot(q, (v01 - auc) ** 2) / (n * (n - 1)))


def auc_interval(auc: float, variance: float, confidence_level: float, how) -> ConfidenceInterval:
    r"""The normal interval :math:`\mathrm{AUC} \pm z\sqrt{\widehat{\mathrm{Var}}}` truncated to [0, 1] (pROC's
    ``ci.auc``); NaN bounds when the variance is not finite."""
    if not (np.isfinite(auc) and np.isfinite(variance)):
        return ConfidenceInterval(float("nan"), float("nan"), confidence_level, how)
    half = normal_quantile(confidence_level) * float(np.sqrt(max(variance, 0.0)))
    return ConfidenceInterval(max(0.0, auc - half), min(1.0, auc + half), confidence_level, how)


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
    if transform == "none":
        return auc_interval(auc, var, confidence_level, method)
    z = normal_quantile(confidence_level)
    se = np.sqrt(var)
    if auc <= 0 or auc >= 1:
        return ConfidenceInterval(auc, auc, confidence_level, method)
    lg = special.logit(auc)
    se_l = se / (auc * (1 - auc))
    return ConfidenceInterval(float(special.expit(lg - z * se_l)), float(special.expit(lg + z * se_l)),
                              confidence_level, method)


# ------------------------------------------------------------------------------------------------------------------
# Multi-class: one-vs-rest per class and averaged, Hand & Till's one-vs-one average
# ------------------------------------------------------------------------------------------------------------------
#
# Both averages are smooth functions of two-sample U-statistics on the same rows, so their variance is the variance
# of a sum of per-row terms (the Hájek projection; DeLong et al. 1988 §2 for two AUCs on the same cases):
# :math:`\widehat{\mathrm{Var}}(T) = \sum_i \varphi_i^2`, where row i's term :math:`\varphi_i` adds, over every AUC
# the row enters, the average's weight times the row's centred placement — :math:`(V_{10}(i) - A)` scaled by
# :math:`1/\sqrt{m(m-1)}` where it is one of m positives and :math:`(V_{01}(i) - A)/\sqrt{n(n-1)}` where it is one
# of n negatives. For one AUC this is exactly :math:`S_{10}/m + S_{01}/n` (sample variances, ddof 1); for several it
# adds their covariances, computed on the same rows. Nothing of size (rows × classes) is kept: k passes of O(rows).
# Unweighted only, as the binary DeLong.

class OvrDelong(NamedTuple):
    """One-vs-rest AUCs with DeLong variances: per class (``auc``, ``variance``; NaN where undefined) and the macro and
    support-weighted averages over the classes whose AUC is defined, with their delta-method variances."""

    auc: np.ndarray
    variance: np.ndarray
    macro: float
    macro_variance: float
    weighted: float
    weighted_variance: float


def _rankings(scores, rankings):
    from assess.curves import rank_scores
    return [rank_scores(scores[:, c]) for c in range(scores.shape[1])] if rankings is None else rankings


def ovr_delong(y_true, scores, *, rankings=None) -> OvrDelong:
    r"""DeLong variances of the one-vs-rest ROC AUCs of a multi-class problem and of their two averages.

    ``y_true`` holds class codes 0..k-1, ``scores`` the (n, k) score columns; ``rankings`` the one sort per column
    (:func:`assess.curves.rank_scores`; computed here when None). Class c's AUC and variance are the binary
    :func:`delong_variance` of "class c against every other row" on column c (placements with midranks). Averages
    over the classes :math:`K` whose AUC is defined, by the delta method on the row terms of the notes above:

    - macro :math:`\bar A = \frac{1}{|K|}\sum_{c\in K} A_c`: :math:`\varphi_i = \frac{1}{|K|}\sum_c \xi_{ic}`,
      :math:`\xi_{ic}` row i's scaled centred placement in class c's AUC;
    - weighted :math:`A_w = \sum_{c\in K} t_c A_c / T` (:math:`t_c` the class sizes, :math:`T = \sum_K t_c`):
      :math:`\varphi_i = \sum_c \frac{t_c}{T}\xi_{ic} + \frac{A_{y_i} - A_w}{T}`, the last term the sampling variation
      of the class shares (rows drawn i.i.d., not per class).

    A variance is NaN when a class entering it has fewer than 2 rows, or fewer than 2 rows outside it.
    """
    y = np.asarray(y_true, dtype=np.intp)
    scores = np.asarray(scores, dtype=np.float64)
    n_rows, k = scores.shape
    rankings = _rankings(scores, rankings)
    sizes = np.bincount(y, minlength=k).astype(np.float64)
    auc, var = np.full(k, np.nan), np.full(k, np.nan)
    macro_terms, weighted_terms = np.zeros(n_rows), np.zeros(n_rows)
    for c in range(k):
        m, n = sizes[c], n_rows - sizes[c]
        if m == 0 or n == 0:
            continue
        group = rankings[c].group                                # 0 = the highest score
        d = rankings[c].thresholds.shape[0]
        pos = np.bincount(group[y == c], minlength=d).astype(np.float64)
        neg = np.bincount(group, minlength=d) - pos
        v10 = (n - np.cumsum(neg) + 0.5 * neg) / n               # negatives below a positive of the group, ties 1/2
        v01 = (np.cumsum(pos) - 0.5 * pos) / m                   # positives above a negative of the group, ties 1/2
        auc[c] = a = float(np.dot(pos, v10) / m)
        if m < 2 or n < 2:
            continue
        var[c] = float(np.dot(pos, (v10 - a) ** 2) / (m * (m - 1)) + np.dot(neg, (v01 - a) ** 2) / (n * (n - 1)))
        xi = np.where(y == c, (v10 - a)[group] / np.sqrt(m * (m - 1)), (v01 - a)[group] / np.sqrt(n * (n - 1)))
        macro_terms += xi
        weighted_terms += m * xi
    defined = np.isfinite(auc)
    if not defined.any():
        return OvrDelong(auc, var, float("nan"), float("nan"), float("nan"), float("nan"))
    all_var = bool(np.isfinite(var[defined]).all())
    K, T = int(defined.sum()), float(sizes[defined].sum())
    macro = float(auc[defined].mean())
    weighted = float(np.dot(sizes[defined], auc[defined]) / T)
    macro_var = float(np.dot(macro_terms, macro_terms)) / K ** 2 if all_var else float("nan")
    share = np.where(defined[y], (np.where(defined, auc, 0.0)[y] - weighted) / T, 0.0)
    weighted_terms = weighted_terms / T + share
    weighted_var = float(np.dot(weighted_terms, weighted_terms)) if all_var else float("nan")
    return OvrDelong(auc, var, macro, macro_var, weighted, weighted_var)


def hand_till_delong(y_true, scores, *, rankings=None) -> tuple[float, float]:
    r"""Hand & Till's (2001) one-vs-one AUC :math:`M = \frac{1}{K(K-1)}\sum_{a \ne b} A(a|b)` over the K classes with
    rows, and its DeLong-type variance.

    :math:`A(a|b)` is the AUC of column a, class a against class b. Row i of class g enters :math:`A(g|b)` as a
    positive (placement :math:`V_{10}^{g|b}(i)`, the share of class-b rows scoring lower on column g, ties 1/2) for
    every b, and :math:`A(a|g)` as a negative (:math:`V_{01}^{a|g}(i)`, the share of class-a rows scoring higher on
    column a) for every a; all are averages over class g's :math:`m_g` rows, so

    .. math:: \varphi_i = \frac{1}{K(K-1)\sqrt{m_g(m_g-1)}} \sum_{b \ne g}\left[(V_{10}^{g|b}(i) - A(g|b))
              + (V_{01}^{b|g}(i) - A(b|g))\right],\qquad \widehat{\mathrm{Var}}(M) = \sum_i \varphi_i^2

    — each class's sample variance (ddof 1) of its rows' summed placements over :math:`m_g`; for two classes with
    complementary scores it is the binary DeLong variance. Per column a, :math:`\sum_b V_{10}^{a|b}(i)` is one
    cumulative sum of the weights :math:`1/m_{y_j}` over the other classes' rows, and :math:`V_{01}^{a|b}(j)` one
    cumulative count of class a: k passes of O(rows). NaN variance when a class has a single row; (NaN, NaN) with
    fewer than two classes.
    """
    y = np.asarray(y_true, dtype=np.intp)
    scores = np.asarray(scores, dtype=np.float64)
    n_rows, k = scores.shape
    rankings = _rankings(scores, rankings)
    sizes = np.bincount(y, minlength=k).astype(np.float64)
    present = sizes > 0
    K = int(present.sum())
    if K < 2:
        return float("nan"), float("nan")
    inv_size = np.where(present, 1.0 / np.where(present, sizes, 1.0), 0.0)
    A = np.zeros((k, k))                                         # A[a, b] = A(a|b), 0 where a class has no rows
    terms = np.zeros(n_rows)                                     # the bracket of φ_i, before scaling
    for a in np.flatnonzero(present):
        group = rankings[a].group
        d = rankings[a].thresholds.shape[0]
        mine = y == a
        pos = np.bincount(group[mine], minlength=d).astype(np.float64)
        above = (np.cumsum(pos) - 0.5 * pos) / sizes[a]          # V01^{a|b} of a row in the group, any b
        other = np.bincount(group, weights=np.where(mine, 0.0, inv_size[y]), minlength=d)
        below = other.sum() - np.cumsum(other) + 0.5 * other     # Σ_b V10^{a|b} of a class-a row in the group
        A[a] = np.bincount(y, weights=above[group], minlength=k) * inv_size
        A[a, a] = 0.0
        terms += np.where(mine, below[group], above[group])
    # centre: a class-g row's placements average A(g|b) (as a positive) and A(b|g) (as a negative)
    terms -= (A.sum(axis=1) + A.sum(axis=0))[y]
    value = float(A.sum() / (K * (K - 1)))
    if (sizes[present] < 2).any():
        return value, float("nan")
    scale = 1.0 / (K * (K - 1) * np.sqrt(sizes * np.maximum(sizes - 1, 1)))
    phi = terms * scale[y]
    return value, float(np.dot(phi, phi))
