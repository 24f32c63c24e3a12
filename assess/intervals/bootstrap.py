"""The vectorised, seeded bootstrap: resamples as count matrices (multinomial or Poisson), percentile and BCa
intervals; see the package docstring."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy import special, stats

from assess.core.formatting import number_decimals
from assess.intervals.interval import ConfidenceInterval, IntervalMethod, check_confidence_level
from assess.core.defaults import DEFAULT_RESAMPLES

AUTO_MULTINOMIAL_MAX = 100_000
#: A stratum of ``frequencies`` (cells standing for several identical samples) is drawn as one multinomial over its
#: cells — exact, O(cells) per resample — when it has at most this many cells or they hold at least
#: ``CELL_DRAW_MIN_MEAN`` samples each on average. Otherwise (a grouped table of mostly distinct scores) a binomial
#: draw per cell would cost more than drawing its samples as rows, by the scheme of rows, and summing them per cell:
#: the counts have the same distribution (a multinomial over samples summed by cell is the multinomial over cells;
#: a sum of Poisson(1) counts is Poisson(frequency)) and are the very counts of the row bootstrap, same seed.
CELL_DRAW_MAX_CELLS = 1_000
CELL_DRAW_MIN_MEAN = 8
#: Most cells whose jackknife (BCa) is exact over cells; above, a delete-a-group jackknife over 100 groups of cells.
JACKKNIFE_EXACT_CELLS = 2_000
#: The sequential stopping rule (``bootstrap_ci(..., sequential=True)``): the fewest resamples it stops at, and the
#: growth of its checkpoints (200, 300, 450, 700, 1,050, …, then the maximum). Few looks, not one per chunk: each
#: look at a noisy error estimate is one more chance to stop on a lucky one.
SEQUENTIAL_MIN_RESAMPLES = 200
SEQUENTIAL_GROWTH = 1.5


# ------------------------------------------------------------------------------------------------------------------
# Bootstrap
# ------------------------------------------------------------------------------------------------------------------

def _poisson_thresholds() -> np.ndarray:
    # F(j) = e^-1 Σ_{i<=j} 1/i!, the Poisson(1) CDF in closed form: scipy.stats is not loaded at import for it
    # (the command line defers it, `assess.cli.lazy_imports`); tests check it against scipy.stats.poisson.cdf
    cdf = np.cumsum(1.0 / np.cumprod(np.r_[1.0, np.arange(1.0, 16.0)])) * np.exp(-1.0)
    c = np.rint(cdf * 65536.0)
    return c[c < 65536].astype(np.uint16)


_POISSON_C = tuple(np.uint16(c) for c in _poisson_thresholds())   # typed scalars: uint16 comparisons stay uint16
_POISSON_FULL = 4   # thresholds compared on every cell; P(count >= 5) = 0.37 % of cells get the rest


def _poisson_counts(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """Poisson(1) counts as uint8 by inversion of 16-bit uniforms: count = #{j : u >= round(2^16 F(j))}.

    The first four thresholds are compared on every cell (each a uint16 comparison added as a uint8 view, no
    casting); the rest only on the cells past the fifth, which gives the same counts in fewer passes over the matrix.
    """
    size = shape[0] * shape[1]
    u = rng.bit_generator.random_raw((size + 3) // 4).view(np.uint16)[:size]
    out = (u >= _POISSON_C[0]).view(np.uint8)
    for c in _POISSON_C[1:_POISSON_FULL]:
        np.add(out, (u >= c).view(np.uint8), out=out)
    tail = np.flatnonzero(u >= _POISSON_C[_POISSON_FULL])
    if tail.size:
        u_tail = u[tail]
        extra = np.ones(tail.size, dtype=np.uint8)
        for c in _POISSON_C[_POISSON_FULL + 1:]:
            np.add(extra, (u_tail >= c).view(np.uint8), out=extra)
        out[tail] += extra
    return out.reshape(shape)


def _strata_layout(R: int, strata):
    if strata is None:
        return [np.arange(R)], True
    s = np.asarray(strata)
    if s.shape != (R,):
        raise ValueError(f"`strata` must have shape ({R},) (got {s.shape})")
    if s.dtype.kind in "iub" and s.size and int(s.max()) - int(s.min()) < 1024:
        inv = s.astype(np.int64) - int(s.min())          # small integer codes: no sort needed
    else:
        _, inv = np.unique(s, return_inverse=True)
    groups = [g for g in (np.flatnonzero(inv == v) for v in range(int(inv.max()) + 1)) if g.size]
    return groups, all(g[-1] - g[0] + 1 == g.size for g in groups)


def draws_cells(cells: int, samples: int) -> bool:
    """Whether a stratum of ``cells`` cells holding ``samples`` samples is drawn as one multinomial over its cells
    (else as rows summed per cell: a caller whose cells are mostly single rows can give the rows as cells of one)."""
    return cells <= CELL_DRAW_MAX_CELLS or samples >= CELL_DRAW_MIN_MEAN * cells


def _scheme_for(size: int, scheme: str, cells: int | None = None) -> str:
    """The scheme of a stratum of ``size`` samples (in ``cells`` cells when resampled by frequencies)."""
    if cells is not None and draws_cells(cells, size):
        return "multinomial"
    if scheme == "auto":
        return "multinomial" if size <= AUTO_MULTINOMIAL_MAX else "poisson"
    return scheme


def _rows_draw(rng: np.random.Generator, b: int, m: int, scheme: str) -> np.ndarray:
    """(b, m) counts of m rows: Poisson(1) each, or m indices drawn uniformly and counted."""
    if scheme == "poisson":
        return _poisson_counts(rng, (b, m))
    idx = rng.integers(0, m, size=(b, m), dtype=np.int64 if m > 2**31 - 1 else np.int32)
    idx += (np.arange(b, dtype=idx.dtype) * m)[:, None]
    return np.bincount(idx.ravel(), minlength=b * m).reshape(b, m)


def _per_cell(f: np.ndarray):
    """Row counts (b, Σf) summed into the cells of frequencies ``f`` (each cell's rows consecutive), as a function
    made once per bootstrap: the cell starts are the same for every chunk."""
    if (f == 1).all():
        return lambda rows: rows
    live = f > 0
    starts = np.concatenate(([0], np.cumsum(f)[:-1]))[live]

    def summed(rows):
        out = np.zeros((rows.shape[0], f.shape[0]), dtype=np.int64)
        out[:, live] = np.add.reduceat(rows, starts, axis=1, dtype=np.int64)
        return out
    return summed


def _drawer(groups, *, frequencies=None, scheme="auto", contiguous=True, R=None):
    """``draw(rng, b)`` -> the (b, R) counts of :func:`resample_counts`, its per-stratum sizes, schemes and cell
    layouts worked out once (a bootstrap draws a chunk at a time: summing a million frequencies per chunk cost as
    much as drawing it)."""
    R = R if R is not None else sum(g.size for g in groups)
    sizes = [int(frequencies[g].sum()) if frequencies is not None else g.size for g in groups]
    schemes = [_scheme_for(size, scheme, g.size if frequencies is not None else None)
               for g, size in zip(groups, sizes)]
    if all(s == "poisson" for s in schemes):
        # independent per row: strata need no separate draws
        if frequencies is None:
            return lambda rng, b: _poisson_counts(rng, (b, R))
        total, cells = int(frequencies.sum()), _per_cell(frequencies)
        return lambda rng, b: cells(_poisson_counts(rng, (b, total)))
    plans = []
    for g, sch, size in zip(groups, schemes, sizes):
        if frequencies is None:
            plans.append((g, lambda rng, b, m=g.size, sch=sch: _rows_draw(rng, b, m, sch)))
        elif draws_cells(g.size, size):
            f = frequencies[g].astype(np.float64)
            share = f / f.sum() if size > 0 else None
            plans.append((g, lambda rng, b, m=g.size, size=size, share=share:
                          rng.multinomial(size, share, size=b) if size > 0 else np.zeros((b, m), np.int64)))
        else:
            plans.append((g, lambda rng, b, size=size, sch=sch, cells=_per_cell(frequencies[g]):
                          cells(_rows_draw(rng, b, size, sch))))

    def draw(rng, b):
        out = np.zeros((b, R), dtype=np.int64)
        for g, block in plans:
            if contiguous:
                out[:, g[0]:g[0] + g.size] = block(rng, b)
            else:
                out[:, g] = block(rng, b)
        return out
    return draw


def resample_counts(rng: np.random.Generator, b: int, groups, *, frequencies=None, scheme="auto",
                    contiguous=True, R=None) -> np.ndarray:
    """A (b, R) matrix of resample counts: row r drawn ``counts[j, r]`` times in resample j (stratified). With
    ``frequencies``, r is a cell of that many samples: see :data:`CELL_DRAW_MAX_CELLS` for how it is drawn."""
    return _drawer(groups, frequencies=frequencies, scheme=scheme, contiguous=contiguous, R=R)(rng, b)


@dataclass(frozen=True, eq=False)
class BootstrapResult:
    """Bootstrap distribution and intervals of one or more statistics (columns).

    ``estimates`` is (resamples, m); ``point`` the statistics on the data; ``intervals`` one
    :class:`ConfidenceInterval` per column; ``undefined`` the number of resamples where each column was NaN.
    """

    point: np.ndarray
    estimates: np.ndarray
    intervals: tuple[ConfidenceInterval, ...]
    undefined: np.ndarray
    n_resamples: int
    seed: object
    scheme: str
    method: str

    @property
    def interval(self) -> ConfidenceInterval:
        if len(self.intervals) != 1:
            raise ValueError(f"this result holds {len(self.intervals)} statistics; use .intervals")
        return self.intervals[0]


def as_columns(v) -> np.ndarray:
    """``v`` as a float64 array with one column per statistic: a 1-D array of replicates becomes one column."""
    a = np.asarray(v, dtype=np.float64)
    return a[:, None] if a.ndim == 1 else a


def _jackknife(statistic, R, groups, frequencies, rng, chunk_rows):
    """Jackknife values and their multiplicities: exact over patterns with frequencies (leave one sample of pattern
    r out, ``f_r`` times), else a delete-a-group jackknife over 100 random row groups (each group one unit)."""
    if frequencies is not None and np.count_nonzero(frequencies) <= JACKKNIFE_EXACT_CELLS:
        f = np.asarray(frequencies, dtype=np.int64)
        live = np.flatnonzero(f > 0)
        counts = np.tile(f, (live.size, 1))
        counts[np.arange(live.size), live] -= 1
        return as_columns(statistic(counts)), f[live].astype(np.float64)
    G = min(R, 100)
    assign = rng.permutation(R) % G
    vals = []
    step = max(1, chunk_rows // max(R, 1))
    for a in range(0, G, step):
        gs = np.arange(a, min(G, a + step))
        counts = (assign[None, :] != gs[:, None]).astype(np.uint8)
        if frequencies is not None:      # many cells: a group of cells is left out whole
            counts = counts * frequencies[None, :]
        vals.append(as_columns(statistic(counts)))
    return np.concatenate(vals, axis=0), np.ones(G)


def maritz_jarrett_se(values: np.ndarray, p: float) -> float:
    r"""The Monte-Carlo standard error of the ``p``-quantile of ``values`` (Maritz & Jarrett 1978; Wilcox,
    *Introduction to Robust Estimation*, §3.5.3), as ``scipy.stats.mstats.mjci`` computes it.

    With the B values sorted, :math:`m = \lfloor pB + 0.5\rfloor` and Beta(m − 1, B − m) weights
    :math:`W_i = I_{i/B} - I_{(i-1)/B}` on the order statistics, :math:`\mathrm{SE}^2 = \sum W_i x_{(i)}^2 -
    (\sum W_i x_{(i)})^2` (computed about :math:`x_{(m)}`, so no cancellation). It needs no density estimate and
    no assumption on the bootstrap distribution; infinite when m < 2 (too few values for that tail).
    """
    x = np.sort(np.asarray(values, dtype=np.float64))
    n = x.size
    m = int(p * n + 0.5)
    if m < 2 or m >= n:
        return float("inf")
    w = np.diff(special.betainc(m - 1, n - m, np.arange(n + 1) / n))
    d = x - x[m - 1]
    c1 = float(w @ d)
    return float(np.sqrt(max(float(w @ (d * d)) - c1 * c1, 0.0)))


def display_tolerance(bound: float) -> float:
    """Half a unit of the last decimal a bound is shown with (:func:`assess.core.formatting.number`: 0.0005 below
    10, so for every metric in [0, 1]; 0.005 below 100; …): a Monte-Carlo error below it cannot move the shown
    digit by more than one unit in about 19 runs of 20."""
    return 0.5 * 10.0 ** -number_decimals(bound)


def _checkpoints(n_resamples: int, sequential: bool) -> list[int]:
    """The resample counts at which the sequential rule looks (the last is the maximum, ``n_resamples``)."""
    points = []
    k = SEQUENTIAL_MIN_RESAMPLES
    while sequential and k < n_resamples:
        points.append(k)
        k = int(np.ceil(k * SEQUENTIAL_GROWTH / 50.0) * 50)
    return points + [int(n_resamples)]


def _bounds_mc_error(est: np.ndarray, levels) -> np.ndarray:
    """Per column: the larger Maritz–Jarrett error of its two percentile bounds (NaN when under 2 values are
    finite: such a column has no interval, and no error to wait for)."""
    out = np.full(est.shape[1], np.nan)
    for j in range(est.shape[1]):
        fin = est[np.isfinite(est[:, j]), j]
        if fin.size >= 2:
            out[j] = max(maritz_jarrett_se(fin, q) for q in levels)
    return out


def _column_errors(est: np.ndarray, levels) -> tuple[np.ndarray, np.ndarray]:
    """Per column: the larger Monte-Carlo error of its two percentile bounds and their display tolerance (the
    smaller of its two bounds'); NaN for a column without an interval (under 2 finite values)."""
    errors = _bounds_mc_error(est, levels)
    tols = np.full(est.shape[1], np.nan)
    for j in np.flatnonzero(~np.isnan(errors)):
        fin = est[np.isfinite(est[:, j]), j]
        tols[j] = min(display_tolerance(b) for b in np.quantile(fin, levels))
    return errors, tols


def _bca_bounds(est, point, jack, jw, confidence_level):
    alpha = 1 - confidence_level
    zs = stats.norm.ppf([alpha / 2, 1 - alpha / 2])
    finite = np.isfinite(est)
    if finite.sum() < 2 or not np.isfinite(point):
        return float("nan"), float("nan")
    e = est[finite]
    prop = (np.sum(e < point) + 0.5 * np.sum(e == point)) / e.size
    prop = min(max(prop, 1.0 / (2 * e.size)), 1 - 1.0 / (2 * e.size))
    z0 = stats.norm.ppf(prop)
    ok = np.isfinite(jack)
    if ok.sum() >= 2:
        # Efron (1987): a = sum d^3 / (6 (sum d^2)^1.5) over the jackknife units (raw multiplicities, not shares)
        mean = np.dot(jw[ok], jack[ok]) / jw[ok].sum()
        d = mean - jack[ok]
        den = 6.0 * np.dot(jw[ok], d * d) ** 1.5
        acc = float(np.dot(jw[ok], d ** 3) / den) if den > 0 else 0.0
    else:
        acc = 0.0
    adj = stats.norm.cdf(z0 + (z0 + zs) / (1 - acc * (z0 + zs)))
    lo, hi = np.quantile(e, adj)
    return float(lo), float(hi)


def bootstrap_ci(statistic: Callable[[np.ndarray], np.ndarray], *, n: int | None = None, strata=None,
                 frequencies=None, point=None, n_resamples: int = DEFAULT_RESAMPLES, confidence_level: float = 0.95,
                 seed=0, scheme: str = "auto", method: str = "percentile",
                 progress: Callable[[float], None] | None = None, chunk_cells: int = 4_000_000,
                 sequential: bool = False) -> BootstrapResult:
    r"""Seeded, stratified, vectorised bootstrap of one or more statistics.

    Parameters
    ----------
    statistic : callable
        ``statistic(counts) -> (b,)`` or ``(b, m)``: given a (b, R) integer matrix of how often each of the R rows
        is drawn in each of b resamples, return the statistic of every resample. Written with weighted sums
        (``counts @ values``, ``np.bincount``), it costs one pass over the chunk, not b Python calls. It must accept
        any integer dtype (uint8 for Poisson counts).
    n : int
        Number of rows R (needed when neither ``strata`` nor ``frequencies`` is given).
    strata : array (R,), optional
        Stratum of each row (e.g. the true class); each stratum is resampled within itself.
    frequencies : int array (R,), optional
        Row r stands for ``frequencies[r]`` identical samples (e.g. the cells of a confusion matrix); a resample is
        then a multinomial draw over rows, exact and independent of n.
    point : float or array (m,), optional
        The statistic on the data; computed as ``statistic(ones)`` (or of ``frequencies``) when omitted.
    resamples : int, default `DEFAULT_RESAMPLES`
    confidence_level : float, default 0.95
    seed : int or numpy SeedSequence, default 0
        Same seed, same data → same intervals.
    scheme : {"auto", "multinomial", "poisson"}
        See the module docstring.
    method : {"percentile", "bca"}
    progress : callable, optional
        Called with the fraction done (0 < f <= 1) after each chunk.
    chunk_cells : int
        Upper bound on b × R per chunk (memory).
    sequential : bool, default False
        Resample only as much as the shown bounds need (percentile intervals): at 200 resamples, then at every
        1.5-fold more (:func:`_checkpoints`), each column stops once the Monte-Carlo standard error of both its
        bounds (:func:`maritz_jarrett_se`) is below half a unit of their last shown decimal (:func:`display_tolerance`),
        else at ``n_resamples``; drawing goes on while a column is still open. A column's interval is read from its
        own first resamples only, so it is the same whichever other columns are computed with it (the Metrics page
        asks for the metrics a user picked, the command line for all). The checkpoints and the errors depend on the
        seed and the data only, so the same seed gives the same stop and the same bounds. Each interval's method
        records the resamples used, the
        larger error of its bounds (``mc_error``) and, when the rule stopped early, the tolerance it met
        (``stopped_below``). BCa runs to ``n_resamples`` (its bounds sit at quantiles known only after the
        jackknife).
    """
    if scheme not in ("auto", "multinomial", "poisson"):
        raise ValueError(f"`scheme` must be 'auto', 'multinomial' or 'poisson' (got {scheme!r})")
    if method not in ("percentile", "bca"):
        raise ValueError(f"`method` must be 'percentile' or 'bca' (got {method!r})")
    if not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise ValueError(f"`n_resamples` must be a positive integer (got {n_resamples!r})")
    confidence_level = check_confidence_level(confidence_level)
    if frequencies is not None:
        frequencies = np.asarray(frequencies)
        if frequencies.ndim != 1:
            raise ValueError(f"`frequencies` must be 1-D (got shape {frequencies.shape})")
        if np.any(frequencies < 0) or np.any(frequencies != np.round(frequencies)):
            raise ValueError("`frequencies` must be non-negative integers")
        frequencies = frequencies.astype(np.int64)
        R = frequencies.shape[0]
    elif strata is not None:
        R = int(np.asarray(strata).shape[0])
    elif n is not None:
        R = int(n)
    else:
        raise ValueError("give `n`, `strata` or `frequencies` so the number of rows is known")
    if R < 1:
        raise ValueError(f"nothing to resample (got {R} rows)")
    groups, contiguous = _strata_layout(R, strata)
    rng = np.random.default_rng(seed)
    if point is None:
        base = frequencies[None, :] if frequencies is not None else np.ones((1, R), dtype=np.uint8)
        point = as_columns(statistic(base))[0]
    point = np.atleast_1d(np.asarray(point, dtype=np.float64))
    m = point.shape[0]
    est = np.empty((n_resamples, m))
    # A chunk holds b × R counts, so b is bounded by chunk_cells for cell frequencies too: the k² cells of a
    # 1,500-class confusion matrix once made one chunk of 1,000 resamples 16.8 GiB.
    b = max(1, min(n_resamples, chunk_cells // R, 10_000 if frequencies is not None else n_resamples))
    alpha = 1 - confidence_level
    levels = (alpha / 2, 1 - alpha / 2)
    sequential = sequential and method == "percentile"
    done, errors = 0, None
    # per column: the resamples it stopped at, its bounds' error and the tolerance it met there (NaN: ran to the end)
    stop_at = np.zeros(m, dtype=np.int64)
    stop_errors, stopped_below = np.full(m, np.nan), np.full(m, np.nan)
    draw = _drawer(groups, frequencies=frequencies, scheme=scheme, contiguous=contiguous, R=R)
    for checkpoint in _checkpoints(n_resamples, sequential):
        while done < checkpoint:     # chunks end at the checkpoints, so where they fall never depends on chunk size
            bb = min(b, checkpoint - done)
            counts = draw(rng, bb)
            est[done:done + bb] = as_columns(statistic(counts))
            done += bb
            if progress is not None:
                progress(done / n_resamples)
        if sequential and done < n_resamples:
            open_ = np.flatnonzero(stop_at == 0)
            errors, tols = _column_errors(est[:done, open_], levels)
            # a column without an interval yet (under 2 finite values) has nothing to refine: it stops too
            settled = np.isnan(errors) | (errors < tols)
            stop_at[open_[settled]] = done
            stop_errors[open_[settled]], stopped_below[open_[settled]] = errors[settled], tols[settled]
            if not (stop_at == 0).any():
                break
    still = stop_at == 0
    stop_at[still] = done
    if sequential and still.any():
        stop_errors[still] = _column_errors(est[:done, still], levels)[0]
    if done < n_resamples:
        est = est[:done]
        if progress is not None:
            progress(1.0)
    used = sorted({_scheme_for(int(frequencies[g].sum()) if frequencies is not None else g.size, scheme,
                               g.size if frequencies is not None else None) for g in groups})
    scheme_used = "+".join(used)
    undefined = np.array([int((~np.isfinite(est[:stop_at[j], j])).sum()) for j in range(m)], dtype=np.int64)
    intervals = []
    if method == "bca":
        jack, jw = _jackknife(statistic, R, groups, frequencies, rng, chunk_cells)
    for j in range(m):
        col = est[:stop_at[j], j]
        fin = col[np.isfinite(col)]
        if fin.size < 2:
            lo = hi = float("nan")
        elif method == "percentile":
            lo, hi = (float(v) for v in np.quantile(fin, levels))
        else:
            lo, hi = _bca_bounds(col, point[j], jack[:, j], jw, confidence_level)
        mc = float(stop_errors[j]) if sequential and np.isfinite(stop_errors[j]) else None
        below = float(stopped_below[j]) if mc is not None and np.isfinite(stopped_below[j]) else None
        intervals.append(ConfidenceInterval(lo, hi, confidence_level, IntervalMethod(
            f"bootstrap-{method}", n_resamples=int(stop_at[j]), scheme=scheme_used,
            dropped=int(undefined[j]), mc_error=mc, stopped_below=below)))
    return BootstrapResult(point, est, tuple(intervals), undefined, done, seed, scheme_used, method)
