"""Block bootstraps of time-ordered rows (forecast errors): block lengths, block resamples as count matrices, and
the percentile and studentized intervals."""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from assess.intervals.bootstrap import BootstrapResult, as_columns
from assess.intervals.interval import ConfidenceInterval, check_confidence_level

# ------------------------------------------------------------------------------------------------------------------
# Block bootstrap for time-ordered rows (forecast errors)
# ------------------------------------------------------------------------------------------------------------------
#
# Forecast errors are autocorrelated (an h-step forecast error is at least MA(h-1), and a poor model leaves the
# series' own autocorrelation in its errors). Resampling single rows then treats n correlated errors as n independent
# ones and the interval comes out too narrow. Block bootstraps resample runs of consecutive rows instead, so the
# dependence inside a block is kept:
#
# - moving block (Künsch 1989): ceil(n / l) blocks of fixed length l, each starting uniformly in [0, n - l], joined
#   and cut to n rows;
# - stationary (Politis & Romano 1994): blocks of Geometric(1 / l) length (mean l) starting uniformly, wrapping
#   around the end of the series (circularly), so the resampled series is stationary.
#
# Block length rule (:func:`block_length`): the automatic choice of Politis & White (2004), with the correction of
# Patton, Politis & White (2009), estimated on the values whose mean is bootstrapped (e.g. the absolute errors), and
# bounded to [1, n/3]; ``rule="cube-root"`` gives ceil(n^(1/3)) instead, the order of the MSE-optimal length for
# variance estimation (Hall, Horowitz & Jing 1995) but blind to how strong the dependence is.
#
# Several series (and models) are resampled each within itself — a block never crosses from one series into the next
# — and the resampled series are concatenated, each keeping its length. A resample is returned as a count matrix
# (how often each row is drawn), the representation `bootstrap_ci`'s statistics take, so any statistic written for
# `bootstrap_ci` (a mean, a weighted sum, a ratio of sums) runs unchanged on block resamples. Statistics that depend
# on the order of the rows (an autocorrelation) cannot be written over counts and are not supported.
#
# Two interval functions: `block_bootstrap_ci` (any count-based statistic, percentile interval) and
# `block_bootstrap_mean_ci` (the mean of per-row values, i.e. MAE, MSE, coverage, Winkler, pinball, scaled errors;
# studentized, percentile-t). The percentile interval of a block bootstrap is too narrow at moderate n — its variance
# is biased low by O(1/l) and O(l/n) — and covers a true MAE of AR(1) errors (phi 0.6, n 200) in about 89 % of runs
# at the 95 % level; the studentized one in 93-94 %, so metrics that are means use it.

BLOCK_SCHEMES = ("stationary", "moving")
BLOCK_RULES = ("politis-white", "cube-root")


def _flat_top_lag_window(x: np.ndarray) -> np.ndarray:
    """Politis & Romano (1995) flat-top (trapezoid) lag window λ(t): 1 for |t| <= 1/2, 2(1 - |t|) to 1, else 0."""
    ax = np.abs(x)
    return np.where(ax <= 0.5, 1.0, np.where(ax <= 1.0, 2.0 * (1.0 - ax), 0.0))


class _FlatTop(NamedTuple):
    """Flat-top lag-window sums of the sample autocovariances (Politis & Romano 1995; Politis & White 2004)."""

    n: int
    g: float            # sum over |k| <= M of lambda(k/M) |k| R(k)
    long_run: float     # sum over |k| <= M of lambda(k/M) R(k): the long-run variance sigma^2_inf
    gamma0: float       # R(0), the variance


def _flat_top(values) -> _FlatTop:
    r"""The flat-top estimates behind :func:`politis_white_block_length` and :func:`long_run_variance`.

    Sample autocovariances :math:`\hat R(k)` (divisor n) by FFT; :math:`\hat m` the first lag after which
    :math:`K_N = \max(5, \lceil\sqrt{\log_{10} n}\rceil)` consecutive autocorrelations are all within
    :math:`\pm 2\sqrt{\log_{10} n / n}`; :math:`M = \min(2\hat m, \lfloor n/3\rfloor)` (at least 1); λ the
    flat-top (trapezoid) window."""
    x = np.asarray(values, dtype=np.float64).ravel()
    n = x.shape[0]
    if n < 4:
        v = float(np.var(x)) if n else 0.0
        return _FlatTop(n, 0.0, v, v)
    x = x - x.mean()
    max_lag = min(n - 1, int(np.ceil(min(3 * np.sqrt(n), n / 3))) + 5)
    # Autocovariances up to max_lag by FFT (one pass, not max_lag dot products).
    size = 1 << int(np.ceil(np.log2(2 * n)))
    spec = np.fft.rfft(x, size)
    acov = np.fft.irfft(spec * np.conj(spec), size)[: max_lag + 1] / n
    if acov[0] <= 0:
        return _FlatTop(n, 0.0, 0.0, 0.0)
    acf = acov[1:] / acov[0]
    kn = max(5, int(np.ceil(np.sqrt(np.log10(n)))))
    bound = 2.0 * np.sqrt(np.log10(n) / n)
    small = np.abs(acf) < bound
    # m_hat: first lag k (1-based) such that acf[k .. k + kn - 1] are all small; the window of kn lags as a
    # cumulative-sum difference, so no loop over lags.
    csum = np.concatenate([[0], np.cumsum(small)])
    runs = csum[kn:] - csum[:-kn] if small.shape[0] >= kn else np.array([], dtype=np.int64)
    hits = np.flatnonzero(runs == kn)
    m_hat = int(hits[0]) + 1 if hits.size else max_lag - kn + 1
    big_m = max(1, min(2 * m_hat, n // 3, max_lag))
    k = np.arange(-big_m, big_m + 1)
    lam = _flat_top_lag_window(k / big_m)
    r = acov[np.abs(k)]
    return _FlatTop(n, float(np.sum(lam * np.abs(k) * r)), float(np.sum(lam * r)), float(acov[0]))


def long_run_variance(values) -> float:
    r"""Long-run variance :math:`\sigma^2_\infty = \sum_k R(k)` of a stationary series by the flat-top lag-window
    estimator (Politis & Romano 1995) with the data-driven bandwidth of Politis & White (2004): n × Var(mean) for a
    long series. Falls back to the variance R(0) when the estimate is not positive (a window sum can be)."""
    ft = _flat_top(values)
    return ft.long_run if ft.long_run > 0 else ft.gamma0


def politis_white_block_length(values, *, scheme: str = "stationary") -> float:
    r"""Automatic block length of Politis & White (2004) with the correction of Patton, Politis & White (2009).

    With the flat-top sums of the autocovariances (see :func:`long_run_variance`)

    .. math:: \hat G = \sum_{|k|\le M} \lambda(k/M)\,|k|\,\hat R(k), \qquad
              \hat\sigma^2_\infty = \sum_{|k|\le M} \lambda(k/M)\,\hat R(k),

    :math:`\hat D_{SB} = 2\hat\sigma^4_\infty` (stationary), :math:`\hat D_{CB} = \tfrac43\hat\sigma^4_\infty`
    (circular / moving block) and

    .. math:: \hat b = \left(\frac{2\hat G^2}{\hat D}\right)^{1/3} n^{1/3},

    bounded to ``[1, ceil(min(3 sqrt(n), n / 3))]``. Independent values give a length near 1. Returns a float (the mean
    block length of the stationary bootstrap need not be an integer; round it up for the moving block).
    """
    if scheme not in BLOCK_SCHEMES:
        raise ValueError(f"`scheme` must be one of {list(BLOCK_SCHEMES)} (got {scheme!r})")
    ft = _flat_top(values)
    if ft.n < 4:
        return 1.0
    d = (2.0 if scheme == "stationary" else 4.0 / 3.0) * ft.long_run ** 2
    if d <= 0:
        return 1.0
    upper = float(np.ceil(min(3 * np.sqrt(ft.n), ft.n / 3)))
    b = (2.0 * ft.g * ft.g / d) ** (1.0 / 3.0) * ft.n ** (1.0 / 3.0)
    return float(min(max(b, 1.0), upper))


def block_length(values, *, rule: str = "politis-white", scheme: str = "stationary") -> float:
    """Block length for ``values`` (time-ordered) by ``rule``: ``"politis-white"`` (default,
    :func:`politis_white_block_length`) or ``"cube-root"`` (``ceil(n ** (1/3))``). See the block-bootstrap notes."""
    if rule not in BLOCK_RULES:
        raise ValueError(f"`rule` must be one of {list(BLOCK_RULES)} (got {rule!r})")
    n = int(np.asarray(values).shape[0])
    if rule == "cube-root":
        return float(max(1, int(np.ceil(n ** (1.0 / 3.0)))))
    return politis_white_block_length(values, scheme=scheme)


def block_indices(rng: np.random.Generator, n: int, b: int, *, block: float, scheme: str = "stationary"
                  ) -> np.ndarray:
    """A (b, n) matrix of row positions 0..n-1: b block-bootstrap resamples of a series of n time-ordered rows.

    ``scheme="stationary"`` (Politis & Romano 1994): row 0 of a resample starts a block; every later position starts
    a new block with probability ``1 / block`` (so block lengths are Geometric with mean ``block``) at a uniform
    position, else continues the previous block, wrapping from n-1 to 0. ``scheme="moving"`` (Künsch 1989):
    ``ceil(n / l)`` blocks of length ``l = min(n, ceil(block))`` starting uniformly in ``[0, n - l]``, cut to n.
    Vectorised: no loop over positions or resamples.
    """
    if scheme not in BLOCK_SCHEMES:
        raise ValueError(f"`scheme` must be one of {list(BLOCK_SCHEMES)} (got {scheme!r})")
    if not np.isfinite(block) or block < 1:
        raise ValueError(f"`block` must be a length >= 1 (got {block!r})")
    if n < 1 or b < 1:
        return np.zeros((max(b, 0), max(n, 0)), dtype=np.int64)
    if scheme == "moving":
        length = int(min(n, np.ceil(block)))
        blocks = -(-n // length)
        starts = rng.integers(0, n - length + 1, size=(b, blocks))
        idx = (starts[:, :, None] + np.arange(length)).reshape(b, blocks * length)
        return idx[:, :n]
    new = rng.random((b, n)) < 1.0 / block
    new[:, 0] = True
    starts = rng.integers(0, n, size=(b, n))
    positions = np.arange(n)
    # Position of the latest block start at or before each position: a running maximum of start positions.
    last = np.maximum.accumulate(np.where(new, positions, 0), axis=1)
    return (np.take_along_axis(starts, last, axis=1) + (positions - last)) % n


def _percentile_bounds(column: np.ndarray, confidence_level: float) -> tuple[float, float]:
    finite = column[np.isfinite(column)]
    if finite.size < 2:
        return float("nan"), float("nan")
    alpha = 1 - confidence_level
    lo, hi = np.quantile(finite, [alpha / 2, 1 - alpha / 2])
    return float(lo), float(hi)


def block_bootstrap_ci(statistic: Callable[[np.ndarray], np.ndarray], *, n: int | None = None, series=None,
                       times=None, block: float | None = None, block_values=None, rule: str = "politis-white",
                       scheme: str = "stationary", point=None, n_resamples: int = 1000,
                       confidence_level: float = 0.95, seed=0,
                       progress: Callable[[float], None] | None = None,
                       chunk_cells: int = 4_000_000) -> BootstrapResult:
    r"""Percentile interval of a statistic of time-ordered rows by a block bootstrap (see the notes above).

    Parameters
    ----------
    statistic : callable
        ``statistic(counts) -> (b,)`` or ``(b, m)`` over a (b, R) count matrix whose columns are the rows in the
        order given — the same contract as :func:`bootstrap_ci`; e.g. for MAE
        ``lambda c: (c @ abs_err) / c.sum(axis=1)``.
    n : int
        Number of rows R, when neither ``series`` nor ``times`` is given (then the rows are one series, in order).
    series : array (R,), optional
        Series (or series × model) of each row; each is resampled within itself and keeps its length.
    times : array (R,), optional
        Time of each row (anything sortable); rows are put in time order within each series before blocks are cut.
        Without it the rows are taken to be in time order already.
    block : float, optional
        Block length (mean length for the stationary bootstrap). Default: :func:`block_length` by ``rule`` on
        ``block_values`` per series, averaged over series weighted by their length.
    block_values : array (R,), optional
        The values whose dependence sets the automatic block length — e.g. the absolute errors for MAE. Required for
        ``rule="politis-white"`` when ``block`` is not given.
    rule : {"politis-white", "cube-root"}
    scheme : {"stationary", "moving"}
    point, resamples, confidence_level, seed, progress, chunk_cells
        As in :func:`bootstrap_ci`.

    Returns a :class:`BootstrapResult` with ``scheme`` ``"stationary-block(l=…)"`` or ``"moving-block(l=…)"`` and
    method ``"percentile"``.
    """
    if not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise ValueError(f"`n_resamples` must be a positive integer (got {n_resamples!r})")
    if scheme not in BLOCK_SCHEMES:
        raise ValueError(f"`scheme` must be one of {list(BLOCK_SCHEMES)} (got {scheme!r})")
    confidence_level = check_confidence_level(confidence_level)
    if series is not None:
        R = int(np.asarray(series).shape[0])
    elif times is not None:
        R = int(np.asarray(times).shape[0])
    elif n is not None:
        R = int(n)
    else:
        raise ValueError("give `n`, `series` or `times` so the number of rows is known")
    if R < 1:
        raise ValueError(f"nothing to resample (got {R} rows)")
    # Rows in (series, time) order: `order[k]` is the original row at sorted position k.
    codes = np.zeros(R, dtype=np.int64) if series is None else np.unique(np.asarray(series), return_inverse=True)[1]
    if times is None:
        order = np.argsort(codes, kind="stable")
    else:
        order = np.lexsort((np.asarray(times), codes))
    sorted_codes = codes[order]
    bounds = np.flatnonzero(np.diff(sorted_codes)) + 1
    starts = np.concatenate([[0], bounds])
    lengths = np.diff(np.concatenate([starts, [R]]))
    if block is None:
        if rule == "politis-white":
            if block_values is None:
                raise ValueError("the Politis-White block length needs `block_values` (e.g. the absolute errors); "
                                 "or give `block`, or rule='cube-root'")
            v = np.asarray(block_values, dtype=np.float64)[order]
            per = [block_length(v[s:s + m], rule=rule, scheme=scheme) for s, m in zip(starts, lengths)]
        else:
            per = [block_length(np.empty(m), rule=rule) for m in lengths]
        block = float(np.average(per, weights=lengths))
    block = float(block)
    rng = np.random.default_rng(seed)
    if point is None:
        point = as_columns(statistic(np.ones((1, R), dtype=np.uint8)))[0]
    point = np.atleast_1d(np.asarray(point, dtype=np.float64))
    est = np.empty((n_resamples, point.shape[0]))
    b = max(1, min(n_resamples, chunk_cells // R))
    done = 0
    while done < n_resamples:
        bb = min(b, n_resamples - done)
        # Sorted positions drawn per series (a loop over series, never over rows), mapped to original rows.
        drawn = np.concatenate([s + block_indices(rng, int(m), bb, block=min(block, float(m)), scheme=scheme)
                                for s, m in zip(starts, lengths)], axis=1)
        rows = order[drawn] + (np.arange(bb, dtype=np.int64) * R)[:, None]
        counts = np.bincount(rows.ravel(), minlength=bb * R).reshape(bb, R)
        est[done:done + bb] = as_columns(statistic(counts))
        done += bb
        if progress is not None:
            progress(done / n_resamples)
    undefined = (~np.isfinite(est)).sum(axis=0)
    intervals = tuple(ConfidenceInterval(*_percentile_bounds(est[:, j], confidence_level), confidence_level,
                                         f"{scheme}-block-bootstrap-percentile") for j in range(est.shape[1]))
    return BootstrapResult(point, est, intervals, undefined, int(n_resamples), seed,
                           f"{scheme}-block(l={block:.3g})", "percentile")


def block_bootstrap_mean_ci(values, *, series=None, times=None, block: float | None = None,
                            rule: str = "politis-white", transform: Callable[[np.ndarray], np.ndarray] | None = None,
                            n_resamples: int = 1000, confidence_level: float = 0.95, seed=0,
                            progress: Callable[[float], None] | None = None) -> BootstrapResult:
    r"""Studentized moving-block bootstrap (percentile-t) interval of the mean of per-row values — MAE (|e|), MSE
    (e²), coverage (inside or not), Winkler and pinball scores, scaled errors (MASE with a fixed scale) — over
    time-ordered rows, optionally of several series.

    Why not the percentile interval of :func:`block_bootstrap_ci`: the block-bootstrap variance of a mean is biased
    low (the dependence beyond a block is lost, and the mean is estimated), so its percentile interval is too narrow —
    on AR(1) errors (phi = 0.6, n = 200) the 95 % interval covers the true MAE in about 89 % of runs whatever the
    block length. Studentizing (Götze & Künsch 1996; Lahiri 2003, *Resampling Methods for Dependent Data*, §6) lets
    the bootstrap supply only the *shape* of the distribution, while the scale comes from a better estimate of the
    long-run variance; on the same simulation it covers in 93-94 % of runs.

    Per series s (rows put in time order when ``times`` is given; never a block across two series), with
    :math:`n_s` rows, block length :math:`l_s` (``block``, else :func:`block_length` of the series' values by
    ``rule`` with the moving-block constant, at most :math:`n_s / 2` so there are two blocks or more) and
    :math:`k_s = \lceil n_s / l_s\rceil` blocks:

    - bootstrap world: :math:`k_s` blocks drawn uniformly from the :math:`n_s - l_s + 1` overlapping ones (Künsch
      1989); resample mean :math:`\bar X^*_s` = mean of the drawn block means :math:`B^*_{s,i}`, its variance
      :math:`v^*_s = \mathrm{var}(B^*_{s,\cdot}) / k_s` (ddof 1; blocks are independent there); centre
      :math:`E^*\bar X^*_s` = mean of all overlapping block means;
    - real world: the mean :math:`\bar X_s` and :math:`\hat v_s = \hat\sigma^2_{\infty,s} / n_s` from the flat-top
      long-run variance (:func:`long_run_variance`).

    Pooled over series with weights :math:`w_s = n_s / N` (the mean of all rows; series independent):
    :math:`T^* = \sum_s w_s(\bar X^*_s - E^*\bar X^*_s) / \sqrt{\sum_s w_s^2 v^*_s}`, and the interval
    :math:`[\bar X - t^*_{1-\alpha/2}\,\hat{se},\ \bar X - t^*_{\alpha/2}\,\hat{se}]`,
    :math:`\hat{se}^2 = \sum_s w_s^2 \hat v_s`. ``transform`` (monotone increasing, e.g. ``np.sqrt`` for RMSE from
    the MSE) maps the point and both bounds. Vectorised: a loop over series, none over rows or resamples.

    Returns a :class:`BootstrapResult`: ``point`` the (transformed) mean, ``estimates`` the (transformed) resample
    means, method ``"block-t"``, scheme ``"moving-block(l=…)"``; NaN bounds when fewer than 2 rows.
    """
    if not isinstance(n_resamples, (int, np.integer)) or n_resamples < 2:
        raise ValueError(f"`n_resamples` must be an integer >= 2 (got {n_resamples!r})")
    confidence_level = check_confidence_level(confidence_level)
    x = np.asarray(values, dtype=np.float64).ravel()
    R = x.shape[0]
    if not np.isfinite(x).all():
        i = int(np.flatnonzero(~np.isfinite(x))[0])
        raise ValueError(f"`values` must be finite (row {i + 1}: {float(x[i])!r})")
    if block is not None and (not np.isfinite(block) or block < 1):
        raise ValueError(f"`block` must be a length >= 1 (got {block!r})")
    fn = transform if transform is not None else (lambda v: v)
    point = np.atleast_1d(np.asarray(fn(np.array([x.mean() if R else np.nan])), dtype=np.float64))
    if R < 2:
        nan = ConfidenceInterval(float("nan"), float("nan"), confidence_level, "block-t")
        return BootstrapResult(point, np.full((n_resamples, 1), np.nan), (nan,), np.array([n_resamples]),
                               int(n_resamples), seed, "moving-block", "block-t")
    codes = np.zeros(R, dtype=np.int64) if series is None else np.unique(np.asarray(series), return_inverse=True)[1]
    order = np.argsort(codes, kind="stable") if times is None else np.lexsort((np.asarray(times), codes))
    xs = x[order]
    bounds = np.flatnonzero(np.diff(codes[order])) + 1
    starts = np.concatenate([[0], bounds])
    lengths = np.diff(np.concatenate([starts, [R]]))
    rng = np.random.default_rng(seed)
    centred = np.zeros(n_resamples)          # sum_s w_s (mean*_s - E* mean*_s)
    var_star = np.zeros(n_resamples)         # sum_s w_s^2 v*_s
    se2 = 0.0
    used = []
    for s0, n_s in zip(starts, lengths):
        w = n_s / R
        seg = xs[s0:s0 + n_s]
        if n_s < 2:
            continue                        # one row: a constant in both worlds
        l_s = block if block is not None else block_length(seg, rule=rule, scheme="moving")
        l_s = int(min(max(1, int(np.ceil(l_s))), n_s // 2))
        used.append(l_s)
        k_s = -(-n_s // l_s)
        csum = np.concatenate([[0.0], np.cumsum(seg)])
        block_means = (csum[l_s:] - csum[:-l_s]) / l_s          # the n_s - l_s + 1 overlapping blocks
        drawn = block_means[rng.integers(0, block_means.shape[0], size=(n_resamples, k_s))]
        centred += w * (drawn.mean(axis=1) - block_means.mean())
        var_star += w * w * drawn.var(axis=1, ddof=1) / k_s
        se2 += w * w * long_run_variance(seg) / n_s
    if progress is not None:
        progress(1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        t_star = centred / np.sqrt(var_star)
    finite = np.isfinite(t_star)
    alpha = 1 - confidence_level
    mean = float(x.mean())
    if finite.sum() < 2 or not se2 > 0:
        low = high = float("nan")
    else:
        t_low, t_high = np.quantile(t_star[finite], [alpha / 2, 1 - alpha / 2])
        se = float(np.sqrt(se2))
        low, high = (float(v) for v in fn(np.array([mean - t_high * se, mean - t_low * se])))
    estimates = np.asarray(fn(mean + centred), dtype=np.float64)[:, None]
    label = f"moving-block(l={min(used)}..{max(used)})" if used and min(used) != max(used) else \
        f"moving-block(l={used[0] if used else 1})"
    return BootstrapResult(point, estimates, (ConfidenceInterval(low, high, confidence_level, "block-t"),),
                           np.array([int((~finite).sum())]), int(n_resamples), seed, label, "block-t")
