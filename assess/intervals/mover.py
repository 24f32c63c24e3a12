r"""Intervals of a difference and of a ratio of two independent proportions, recovered from their Wilson intervals
(MOVER, "method of variance estimates recovery"), on arrays — so a coverage simulation or every pair of groups of a
fairness gap is one vectorised call.

With :math:`\hat p_i` in its Wilson interval :math:`[l_i, u_i]` (:func:`assess.intervals.proportions.wilson_bounds`):

- difference :math:`p_1 - p_2` — Newcombe's hybrid score interval (Newcombe 1998, *Statistics in Medicine* 17:873,
  method 10), ``statsmodels``' ``confint_proportions_2indep(method="newcomb")``:

  .. math:: \hat d - \sqrt{(\hat p_1 - l_1)^2 + (u_2 - \hat p_2)^2},\quad
            \hat d + \sqrt{(u_1 - \hat p_1)^2 + (\hat p_2 - l_2)^2};

- ratio :math:`p_1 / p_2` — the same recovery on the log scale (Zou & Donner 2008, *Statistics in Medicine*
  27:1693, §3): with :math:`\hat r = \log\hat p_1 - \log\hat p_2`,

  .. math:: \hat r - \sqrt{(\log\hat p_1 - \log l_1)^2 + (\log u_2 - \log\hat p_2)^2},\quad
            \hat r + \sqrt{(\log u_1 - \log\hat p_1)^2 + (\log\hat p_2 - \log l_2)^2},

  exponentiated (close to statsmodels' score interval, ``compare="ratio", method="score"``, once each group has
  a few dozen rows: the tests compare them). With :math:`\hat p_1 = 0` the log scale has no centre: the interval is then
  :math:`[0,\ u_1 / l_2]`, the ratio of the extreme bounds (wider, never narrower); undefined when
  :math:`\hat p_2 = 0`.

Both intervals contain their estimate (each Wilson interval contains its proportion), and both take Kish's effective
n for weighted rows as the Wilson interval does.
"""

from __future__ import annotations

import numpy as np

__all__ = ["newcombe_difference", "mover_ratio"]


def newcombe_difference(p1, l1, u1, p2, l2, u2) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of p1 − p2 from the two Wilson intervals (Newcombe's method 10; module docstring)."""
    p1, l1, u1, p2, l2, u2 = (np.asarray(a, dtype=np.float64) for a in (p1, l1, u1, p2, l2, u2))
    d = p1 - p2
    return d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def mover_ratio(p1, l1, u1, p2, l2, u2) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of p1 / p2 from the two Wilson intervals (log-scale MOVER; module docstring); NaN where
    p2 = 0."""
    p1, l1, u1, p2, l2, u2 = (np.asarray(a, dtype=np.float64) for a in (p1, l1, u1, p2, l2, u2))
    with np.errstate(invalid="ignore", divide="ignore"):
        lp1, lp2 = np.log(p1), np.log(p2)
        r = lp1 - lp2
        low = np.exp(r - np.sqrt((lp1 - np.log(l1)) ** 2 + (np.log(u2) - lp2) ** 2))
        high = np.exp(r + np.sqrt((np.log(u1) - lp1) ** 2 + (lp2 - np.log(l2)) ** 2))
        zero = p1 == 0
        low = np.where(zero, 0.0, low)
        high = np.where(zero, u1 / l2, high)
    undefined = ~(p2 > 0) | np.isnan(p1)
    return np.where(undefined, np.nan, low), np.where(undefined, np.nan, high)
