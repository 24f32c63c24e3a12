r"""The distribution-free interval of a median from two order statistics (no bootstrap, no assumption on the shape).

For n i.i.d. values :math:`x_{(1)} \le \dots \le x_{(n)}` and their population median m, the count
:math:`B = \#\{i : x_i \le m\}` is Binomial(n, 1/2) for a continuous distribution, so with
:math:`l = F^{-1}_B(\alpha/2)` and :math:`u = F^{-1}_B(1-\alpha/2)` (the binomial quantiles)

.. math:: P\left(x_{(l)} \le m \le x_{(u+1)}\right) \ge 1 - \alpha

(David & Nagaraja, *Order Statistics*, 3rd ed. 2003, §7.1; Conover, *Practical Nonparametric Statistics*, 3rd ed.
1999, §3.2) — 1-based ranks; in 0-based positions the bounds are ``x[l - 1]`` and ``x[u]``. Its coverage is at least
the nominal one whatever the distribution (discreteness makes it slightly more, less than 1 % above n ≈ 100); it is
scipy's ``quantile_test(x, p=0.5).confidence_interval()``, which the tests check. With fewer than 6 values no pair of
order statistics reaches 95 %: the bounds are NaN.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from assess.intervals.interval import ConfidenceInterval, IntervalMethod, check_confidence_level


def _binomial_ppf(q: float, n: int, p: float) -> int:
    """The q-quantile of Binomial(n, p): the least k with P(B <= k) >= q (scipy.stats.binom.ppf's rule, from
    scipy.special, which loads in a fraction of scipy.stats' time)."""
    k = float(np.ceil(special.bdtrik(q, n, p)))
    below = max(k - 1.0, 0.0)
    return int(below if special.bdtr(below, n, p) >= q else k)


def median_ci(values, *, confidence_level: float = 0.95) -> ConfidenceInterval:
    """Order-statistic interval of the median of ``values`` (unweighted rows; see the module docstring).

    >>> ci = median_ci(np.arange(1.0, 21.0))      # n = 20: ranks 6 and 15 (Binomial(20, 1/2): P(B <= 5) = 0.021)
    >>> ci.low, ci.high
    (6.0, 15.0)
    """
    return quantile_ci(values, 0.5, confidence_level=confidence_level, of="binomial ranks of the median")


def quantile_ci(values, p: float, *, confidence_level: float = 0.95, of: str | None = None) -> ConfidenceInterval:
    """Order-statistic interval of the ``p``-quantile of ``values`` (unweighted rows): the module docstring's with
    Binomial(n, p) in place of Binomial(n, 1/2) — scipy's ``quantile_test(x, p=p).confidence_interval()``. NaN when
    no pair of order statistics reaches the level (too few values for that tail: a 99th percentile needs about 300).
    """
    x = np.asarray(values, dtype=np.float64).ravel()
    method = IntervalMethod("order-statistic", of=of or f"binomial ranks of the {p:g}-quantile")
    positions = quantile_positions(x.size, p, confidence_level)
    if positions is None:
        return ConfidenceInterval(float("nan"), float("nan"), check_confidence_level(confidence_level), method)
    lo, hi = positions
    # two selections, not a sort: the positions are fixed
    part = np.partition(x, (lo, hi))
    return ConfidenceInterval(float(part[lo]), float(part[hi]), confidence_level, method)


def quantile_positions(n: int, p: float, confidence_level: float = 0.95) -> tuple[int, int] | None:
    """The 0-based positions in the sorted values of :func:`quantile_ci`'s bounds for ``n`` values; None when the
    level needs a rank outside 1..n (too few values). An out-of-core engine selects these two order statistics
    (`assess.engine.regression`).

    >>> quantile_positions(20, 0.5)
    (5, 14)
    """
    confidence_level = check_confidence_level(confidence_level)
    if n <= 0:
        return None
    alpha = 1.0 - confidence_level
    lo = _binomial_ppf(alpha / 2, n, p) - 1                        # 0-based position of the lower bound
    hi = _binomial_ppf(1 - alpha / 2, n, p)                        # and of the upper bound
    return None if lo < 0 or hi >= n else (int(lo), int(hi))
