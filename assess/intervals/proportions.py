"""Intervals of a proportion (Wilson, Clopper–Pearson, normal) and of a mean (Student t), weighted rows through
Kish's effective sample size; see the package docstring for the formulas' sources."""

from __future__ import annotations

import numpy as np
from scipy import special

from assess.intervals.interval import ConfidenceInterval, IntervalMethod, check_confidence_level, normal_quantile

PROPORTION_METHODS = ("wilson", "clopper-pearson", "normal")


def _prop_args(x, n, n_eff):
    x, n = float(x), float(n)
    if n < 0 or x < 0 or x > n * (1 + 1e-12):
        raise ValueError(f"need 0 <= x <= n (got x={x:g}, n={n:g})")
    if n_eff is None or n_eff == n:
        return x, n
    n_eff = float(n_eff)
    return (x / n) * n_eff if n > 0 else 0.0, n_eff


def wilson(x, n, *, confidence_level: float = 0.95, n_eff: float | None = None) -> ConfidenceInterval:
    r"""Wilson score interval for a proportion x / n (Wilson 1927).

    .. math:: \frac{\hat p + \frac{z^2}{2n} \pm z\sqrt{\frac{\hat p(1-\hat p)}{n} + \frac{z^2}{4n^2}}}{1 + z^2/n}

    Equals ``statsmodels.stats.proportion.proportion_confint(x, n, method="wilson")``. ``n_eff`` replaces n by an
    effective sample size (weighted data, see the module docstring).

    >>> ci = wilson(47, 374)  # Qahtan Table 4: precision of class C, 47 of 374 (reference 001)
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.0958, 0.1631)
    """
    confidence_level = check_confidence_level(confidence_level)
    x, n = _prop_args(x, n, n_eff)
    _, low, high = wilson_bounds(x, n, confidence_level=confidence_level)
    return ConfidenceInterval(float(low), float(high), confidence_level, "wilson")


def wilson_bounds(x, n, *, confidence_level: float = 0.95):
    """The Wilson interval of :func:`wilson` on arrays: ``(p, low, high)`` of x / n elementwise (NaN where n <= 0;
    an effective n is given as ``n`` with ``x = p * n_eff``). One formula for the scalar interval and for the
    vectorised ones built on it (:mod:`assess.intervals.mover`)."""
    x, n = np.asarray(x, dtype=np.float64), np.asarray(n, dtype=np.float64)
    z = normal_quantile(confidence_level)
    with np.errstate(invalid="ignore", divide="ignore"):
        live = n > 0
        p = np.where(live, x / np.where(live, n, 1.0), np.nan)
        den = 1 + z * z / n
        center = (p + z * z / (2 * n)) / den
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
        # the closed form is exactly 0 / 1 there
        low = np.where(x <= 0, 0.0, np.maximum(0.0, center - half))
        high = np.where(x >= n, 1.0, np.minimum(1.0, center + half))
    nan = np.where(live, 0.0, np.nan)
    return p, low + nan, high + nan


def clopper_pearson(x, n, *, confidence_level: float = 0.95, n_eff: float | None = None) -> ConfidenceInterval:
    r"""Clopper–Pearson exact interval from beta quantiles (Clopper & Pearson 1934).

    .. math:: \left[B\!\left(\tfrac{\alpha}{2}; x, n - x + 1\right),\ B\!\left(1 - \tfrac{\alpha}{2}; x + 1, n - x\right)\right]

    with 0 (resp. 1) when x = 0 (x = n). Equals ``proportion_confint(x, n, method="beta")``.
    """
    confidence_level = check_confidence_level(confidence_level)
    x, n = _prop_args(x, n, n_eff)
    low, high = clopper_pearson_bounds(x, n, confidence_level=confidence_level)
    return ConfidenceInterval(float(low), float(high), confidence_level, "clopper-pearson")


def clopper_pearson_bounds(x, n, *, confidence_level: float = 0.95):
    """The Clopper–Pearson interval of :func:`clopper_pearson` on arrays: ``(low, high)`` of x / n elementwise (NaN
    where n <= 0; an effective n is given as ``n`` with ``x = p * n_eff``). ``scipy.special.betaincinv`` is the beta
    quantile of ``scipy.stats.beta.ppf``."""
    x, n = np.asarray(x, dtype=np.float64), np.asarray(n, dtype=np.float64)
    a = 1 - check_confidence_level(confidence_level)
    with np.errstate(invalid="ignore", divide="ignore"):
        low = np.where(x <= 0, 0.0, special.betaincinv(x, n - x + 1, a / 2))
        high = np.where(x >= n, 1.0, special.betaincinv(x + 1, n - x, 1 - a / 2))
    nan = np.where(n > 0, 0.0, np.nan)
    return low + nan, high + nan


def normal(x, n, *, confidence_level: float = 0.95, n_eff: float | None = None) -> ConfidenceInterval:
    r"""Normal (CLT, Wald) interval of a proportion, the interval of an error rate in Iocchi's slides (reference 002):

    .. math:: \hat p \pm z_N \sqrt{\frac{\hat p(1-\hat p)}{n}}

    truncated to [0, 1]. Zero width when :math:`\hat p \in \{0, 1\}`; the slides ask for n >= 30. Agrees with
    ``proportion_confint(x, n, method="normal")`` inside [0, 1].
    """
    confidence_level = check_confidence_level(confidence_level)
    x, n = _prop_args(x, n, n_eff)
    if n <= 0:
        return ConfidenceInterval(float("nan"), float("nan"), confidence_level, "normal")
    p = x / n
    half = float(normal_quantile(confidence_level) * np.sqrt(p * (1 - p) / n))
    return ConfidenceInterval(max(0.0, p - half), min(1.0, p + half), confidence_level, "normal")


def mean_ci(values, *, weights=None, confidence_level: float = 0.95,
            bounds: tuple[float, float] = (-np.inf, np.inf)) -> ConfidenceInterval:
    r"""Student-t interval of the (weighted) mean of per-row values — log loss and Brier score are such means.

    .. math:: \bar x_w \pm t_{1-\alpha/2,\ n_\mathrm{eff}-1}\ \frac{\hat\sigma_w}{\sqrt{n_\mathrm{eff}-1}},\qquad
              \hat\sigma_w^2 = \frac{\sum_i w_i (x_i - \bar x_w)^2}{\sum_i w_i},\qquad
              n_\mathrm{eff} = \frac{(\sum_i w_i)^2}{\sum_i w_i^2}

    Without weights :math:`n_\mathrm{eff} = n` and this is the textbook interval :math:`\bar x \pm t_{n-1}\,s/\sqrt n`
    (Casella & Berger, *Statistical Inference*, 2nd ed. 2002, §9.2.2, Example 9.2.13; the normal-approximation
    interval of an error rate in Iocchi's slides, reference 002, is its large-n form for 0/1 losses). With weights,
    Kish's effective sample size (Kish, *Survey Sampling*, 1965, §11.7) takes the place of n, as for the proportions
    above: rescaling the weights changes nothing, equal weights give the unweighted interval. It equals statsmodels'
    ``DescrStatsW(values, weights=w * n_eff / w.sum()).tconfint_mean(alpha)`` (frequency weights summing to
    :math:`n_\mathrm{eff}`). The CLT makes it right for large n whatever the shape of the losses (log loss is
    skewed); it is what ``ci="auto"`` uses for these metrics instead of 1,000 bootstrap resamples. ``bounds``: the
    metric's range (0 below for losses); the interval is clipped to it. NaN with fewer than two (effective) rows.

    >>> ci = mean_ci([0.1, 0.4, 0.2, 0.3])          # mean 0.25, s = 0.1291, t(3) = 3.1824
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.0446, 0.4554)
    """
    confidence_level = check_confidence_level(confidence_level)
    x = np.asarray(values, dtype=np.float64).ravel()
    if weights is None:
        n = n_eff = float(x.size)
        total = n
        mean = float(x.mean()) if x.size else float("nan")
        spread = float(np.dot(x - mean, x - mean)) / total if x.size else float("nan")
    else:
        w = np.asarray(weights, dtype=np.float64).ravel()
        if w.shape != x.shape:
            raise ValueError(f"`weights` must have one value per row ({x.size}) (got {w.size})")
        total = float(w.sum())
        n_eff = total * total / float(np.dot(w, w)) if total > 0 else 0.0
        mean = float(np.dot(w, x)) / total if total > 0 else float("nan")
        spread = float(np.dot(w, (x - mean) ** 2)) / total if total > 0 else float("nan")
    return t_interval(mean, spread, n_eff, confidence_level=confidence_level, bounds=bounds,
                      weighted=weights is not None)


def t_interval(mean: float, spread: float, n_eff: float, *, confidence_level: float = 0.95,
               bounds: tuple[float, float] = (-np.inf, np.inf), weighted: bool = False) -> ConfidenceInterval:
    r"""The interval of :func:`mean_ci` from the moments of the per-row values: their (weighted) ``mean``, their
    ``spread`` :math:`\hat\sigma_w^2 = \sum_i w_i (x_i - \bar x_w)^2 / \sum_i w_i` and Kish's ``n_eff`` — what an
    out-of-core engine sums in one scan instead of holding the rows (`assess.engine.regression`)."""
    confidence_level = check_confidence_level(confidence_level)
    method = IntervalMethod("t", effective_n=weighted)
    if not n_eff > 1 or not np.isfinite(mean) or not np.isfinite(spread):
        return ConfidenceInterval(float("nan"), float("nan"), confidence_level, method)
    # scipy.special's t quantile is scipy.stats.t.ppf's own, without loading scipy.stats (a second of start-up)
    half = float(special.stdtrit(n_eff - 1, 0.5 + confidence_level / 2)) * np.sqrt(max(spread, 0.0) / (n_eff - 1))
    low, high = bounds
    return ConfidenceInterval(float(max(low, mean - half)), float(min(high, mean + half)), confidence_level, method)


_PROP = {"wilson": wilson, "clopper-pearson": clopper_pearson, "normal": normal}


def proportion_ci(x, n, *, confidence_level: float = 0.95, method: str = "wilson", n_eff: float | None = None
                  ) -> ConfidenceInterval:
    """Interval for the proportion x / n by ``method`` in ``PROPORTION_METHODS``."""
    try:
        fn = _PROP[method]
    except KeyError:
        raise ValueError(f"`method` must be one of {list(PROPORTION_METHODS)} (got {method!r})") from None
    return fn(x, n, confidence_level=confidence_level, n_eff=n_eff)
