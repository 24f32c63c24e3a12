"""Display thinning: which points of a long curve to draw, with a proven bound on the drawn error.

Only drawing uses it; numbers (AUC, AP, …) always come from the full curve.
"""

from __future__ import annotations

import numpy as np

from assess.curves.counts import check_1d, check_finite

__all__ = ["thin_curve"]


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
    xs = check_1d(x, "x").astype(np.float64, copy=False)
    ys = check_1d(y, "y").astype(np.float64, copy=False)
    if xs.shape[0] != ys.shape[0]:
        raise ValueError(f"`y` has {ys.shape[0]} points but `x` has {xs.shape[0]}")
    if isinstance(max_points, bool) or not isinstance(max_points, (int, np.integer)) or max_points < 4:
        raise ValueError(f"`max_points` must be an integer >= 4 (got {max_points!r})")
    m = max_points // 4 if grid is None else grid
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise ValueError(f"`grid` must be an integer >= 1 (got {grid!r})")
    check_finite(xs, "x")
    check_finite(ys, "y")
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
