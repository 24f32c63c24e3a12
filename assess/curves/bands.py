r"""Pointwise interval bands around the threshold curves, the reliability curve and the regression error summaries:
computed here, drawn by `assess.present.charts`.

Threshold curves (ROC, precision–recall, gain, lift): a class-stratified bootstrap over the *grouped counts* of the
one sort — one cell per distinct score and class (the table a :class:`~assess.curves.ThresholdCounts` stands for).
Rows of a cell are interchangeable, so a resample is a count per cell: a multinomial draw of the class's rows over
its cells (or, when the cells are mostly single rows, the rows drawn and counted per cell — the same distribution).
The resampled cumulative counts at the end of score group g are running sums over the cells in score order, read at
the last cell of g; every curve of the resample is a vectorised line on them, read on a fixed grid. With sample
weights the cells are the rows (their weights differ), resampled alike and weighted. Each class keeps its size in
every resample (as :func:`~assess.intervals.bootstrap_ci` stratifies by class), so rates stay defined.

A band is pointwise: at each grid value the ``confidence_level`` percentile interval of that curve's value over the
resamples, not a simultaneous band for the whole curve.

Reliability curve: the Wilson score interval of each bin's observed frequency (Wilson 1927; weighted rows: with
Kish's effective count :math:`(\sum w)^2 / \sum w^2`). Regression: the distribution-free order-statistic interval of
each bin's median error (the sign test's inversion) and the Student *t* interval of each decile's mean absolute error.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from assess.curves.counts import ThresholdCounts, check_binary, rank_scores, read_only, threshold_counts

__all__ = ["Band", "CurveBands", "curve_bands", "draw_cells", "curve_values", "wilson_interval", "calibration_band",
           "median_interval", "error_trend", "decile_errors"]

#: A stratum is drawn as one multinomial over its cells when it has at most this many cells, or at least
#: ``CELL_DRAW_MIN_MEAN`` rows per cell on average; else its rows are drawn and counted per cell (cheaper then).
CELL_DRAW_MAX_CELLS = 1_000
CELL_DRAW_MIN_MEAN = 8
#: Resamples × cells held at once: bounds the memory of a band, whatever the rows.
CHUNK_CELLS = 4_000_000
BAND_RESAMPLES = 200


@dataclass(frozen=True, eq=False)
class Band:
    """``low[i]``..``high[i]``: the interval of a curve's value at ``x[i]`` (NaN where it is undefined)."""

    x: np.ndarray
    low: np.ndarray
    high: np.ndarray
    method: str


@dataclass(frozen=True, eq=False)
class CurveBands:
    """The bootstrap bands of one scorer's ROC (TPR at each FPR), precision–recall (precision at the first threshold
    reaching each recall), gain (share of positives found at each share targeted, linear within a tie) and lift
    (gain over share targeted) curves, from the same resamples."""

    roc: Band
    pr: Band
    gain: Band
    lift: Band
    confidence_level: float
    n_resamples: int
    seed: int


@dataclass(frozen=True, eq=False)
class _Stratum:
    """One class's cells in score order: ``group`` the descending score group of each cell, ``freq`` its rows,
    ``weight`` the weight of each row (1 unweighted), ``ends[g]`` the number of cells in groups 0..g."""

    group: np.ndarray
    freq: np.ndarray
    weight: np.ndarray | None
    ends: np.ndarray


def _stratum(group: np.ndarray, freq: np.ndarray, weight, d: int) -> _Stratum:
    return _Stratum(group, freq, weight, np.cumsum(np.bincount(group, minlength=d)))


def _strata(y, score, sample_weight, counts: ThresholdCounts | None):
    """(positive stratum, negative stratum, number of score groups): the cells of each class."""
    y, s, w = check_binary(y, score, sample_weight)
    if w is None:   # cells of the grouped table: the counts' own tie groups, no new sort when they are given
        counts = counts if counts is not None else threshold_counts(y, s)
        d = len(counts)
        pos_per = np.diff(np.rint(counts.tps).astype(np.int64), prepend=0)
        neg_per = np.diff(np.rint(counts.fps).astype(np.int64), prepend=0)
        strata = []
        for per in (pos_per, neg_per):
            filled = np.flatnonzero(per)
            strata.append(_stratum(filled, per[filled], None, d))
        return strata[0], strata[1], d
    ranking = rank_scores(s)   # weighted: each row its own cell, in score order within its class
    d = ranking.thresholds.shape[0]
    strata = []
    for rows in (np.flatnonzero(y), np.flatnonzero(~y)):
        rows = rows[np.argsort(ranking.group[rows], kind="stable")]
        strata.append(_stratum(ranking.group[rows], np.ones(rows.size, dtype=np.int64), w[rows], d))
    return strata[0], strata[1], d


def draw_cells(rng: np.random.Generator, b: int, freq: np.ndarray) -> np.ndarray:
    """(b, cells) counts: each of ``b`` resamples draws ``freq.sum()`` rows with replacement, counted per cell."""
    total, m = int(freq.sum()), freq.shape[0]
    if m <= CELL_DRAW_MAX_CELLS or total >= CELL_DRAW_MIN_MEAN * m:
        return rng.multinomial(total, freq / total, size=b)
    rows = rng.integers(0, total, size=(b, total))
    rows += (np.arange(b) * total)[:, None]
    per_row = np.bincount(rows.ravel(), minlength=b * total).reshape(b, total)
    if (freq == 1).all():
        return per_row
    return np.add.reduceat(per_row, np.concatenate(([0], np.cumsum(freq)[:-1])), axis=1)


def _cumulative(draws: np.ndarray, stratum: _Stratum) -> np.ndarray:
    """(b, d + 1) resampled cumulative counts (0 first): the running sum over the cells read at each group's end."""
    values = draws if stratum.weight is None else draws * stratum.weight
    running = np.zeros((draws.shape[0], draws.shape[1] + 1))
    np.cumsum(values, axis=1, out=running[:, 1:])
    return np.concatenate([np.zeros((draws.shape[0], 1)), running[:, stratum.ends]], axis=1)


def curve_values(tps0: np.ndarray, fps0: np.ndarray, grid: np.ndarray) -> dict[str, np.ndarray]:
    r"""Each curve read on ``grid`` from cumulative counts ``tps0``, ``fps0`` of shape (b, d + 1), 0 first:

    - ROC: :math:`\max\{\mathrm{TPR}_k : \mathrm{FPR}_k \le g\}`;
    - PR: the precision at the first threshold whose recall reaches r (1 at r = 0, scikit-learn's first point);
    - gain: the TPR at share targeted g, linear between thresholds (rows of a tie switch together);
    - lift: gain / g (g > 0; NaN at g = 0).

    One resample at a time: a binary search of the grid in each row costs O(log d), and a row's rates are small
    temporaries, where whole (b, d) arrays would be passes over memory.
    """
    b, last = tps0.shape[0], tps0.shape[1] - 1
    out = {kind: np.empty((b, grid.shape[0])) for kind in ("roc", "pr", "gain")}
    for i in range(b):
        t, f = tps0[i], fps0[i]
        tpr = t / t[-1]
        out["roc"][i] = tpr[np.searchsorted(f / f[-1], grid, side="right") - 1]
        k = np.minimum(np.searchsorted(tpr, grid, side="left"), last)
        predicted = t + f
        out["pr"][i] = np.divide(t[k], predicted[k], out=np.ones(grid.shape), where=predicted[k] > 0)
        share = predicted / predicted[-1]
        j = np.minimum(np.searchsorted(share, grid, side="right") - 1, last - 1)
        dx = share[j + 1] - share[j]
        frac = np.divide(grid - share[j], dx, out=np.zeros(grid.shape), where=dx > 0)
        out["gain"][i] = tpr[j] + np.clip(frac, 0, 1) * (tpr[j + 1] - tpr[j])
    with np.errstate(divide="ignore", invalid="ignore"):
        out["lift"] = np.where(grid > 0, out["gain"] / grid, np.nan)
    return out


def curve_bands(y_true, score, sample_weight=None, *, counts: ThresholdCounts | None = None,
                n_resamples: int = BAND_RESAMPLES, confidence_level: float = 0.95, seed: int = 0,
                grid_points: int = 101) -> CurveBands:
    """Pointwise bootstrap bands of the ROC, precision–recall, gain and lift curves on ``grid_points`` equally
    spaced x values in [0, 1], class-stratified over the grouped counts (see the module docstring).

    ``counts`` (unweighted only): the :class:`ThresholdCounts` of these rows, whose tie groups are the cells — then
    nothing is sorted again. Needs both classes. Same seed, same data → the same band.
    """
    if not 0 < confidence_level < 1:
        raise ValueError(f"`confidence_level` must be in (0, 1) (got {confidence_level})")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or n_resamples < 10:
        raise ValueError(f"`n_resamples` must be an integer >= 10 (got {n_resamples!r})")
    pos, neg, d = _strata(y_true, score, sample_weight, counts)
    if pos.freq.size == 0 or neg.freq.size == 0:
        raise ValueError("a curve band needs both classes (with nonzero weight) in the ground truth")
    grid = np.linspace(0.0, 1.0, grid_points)
    rng = np.random.default_rng(seed)
    chunk = max(1, CHUNK_CELLS // (pos.freq.size + neg.freq.size + d + int(pos.freq.sum() + neg.freq.sum())))
    values: dict[str, list] = {"roc": [], "pr": [], "gain": [], "lift": []}
    for start in range(0, n_resamples, chunk):
        b = min(chunk, n_resamples - start)
        tps0 = _cumulative(draw_cells(rng, b, pos.freq), pos)
        fps0 = _cumulative(draw_cells(rng, b, neg.freq), neg)
        for kind, v in curve_values(tps0, fps0, grid).items():
            values[kind].append(v)
    tail = (1 - confidence_level) / 2 * 100
    method = f"{n_resamples} class-stratified bootstrap resamples of the score × class cells (seed {seed})"
    bands = {}
    for kind, parts in values.items():
        stacked = np.vstack(parts)
        defined = ~np.isnan(stacked).all(axis=0)
        low, high = np.full(grid.shape, np.nan), np.full(grid.shape, np.nan)
        low[defined], high[defined] = np.percentile(stacked[:, defined], [tail, 100 - tail], axis=0)
        bands[kind] = Band(read_only(grid.copy()), read_only(low), read_only(high), method)
    return CurveBands(bands["roc"], bands["pr"], bands["gain"], bands["lift"], confidence_level, int(n_resamples),
                      seed)


# --- analytic bands ---------------------------------------------------------------------------------------------

def wilson_interval(successes, n, confidence_level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    r"""Wilson score interval of a proportion, element-wise (NaN where ``n`` is 0):

    .. math::

        \frac{\hat p + z^2/2n \pm z\sqrt{\hat p(1-\hat p)/n + z^2/4n^2}}{1 + z^2/n}, \qquad \hat p = x/n,\;
        z = \Phi^{-1}(1 - \alpha/2)
    """
    x, n = np.broadcast_arrays(np.asarray(successes, dtype=np.float64), np.asarray(n, dtype=np.float64))
    z = stats.norm.ppf(1 - (1 - confidence_level) / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = x / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = np.where(n > 0, centre - half, np.nan), np.where(n > 0, centre + half, np.nan)
    return np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)


def calibration_band(y_true, score, bin_edges, sample_weight=None, *, confidence_level: float = 0.95) -> Band:
    """The Wilson interval of each reliability bin's observed frequency (bins as
    :func:`~assess.curves.calibration_curve` assigns them), at the bins' mean predicted probability; NaN for an
    empty bin. Weighted rows: the weighted frequency with Kish's effective count as n."""
    y, s, w = check_binary(y_true, score, sample_weight)
    edges = np.asarray(bin_edges, dtype=np.float64)
    k = edges.shape[0] - 1
    bins = np.searchsorted(edges[1:-1], s)
    weight = np.ones_like(s) if w is None else w
    total = np.bincount(bins, weights=weight, minlength=k)
    positives = np.bincount(bins, weights=np.where(y, weight, 0.0), minlength=k)
    squares = np.bincount(bins, weights=weight * weight, minlength=k)
    with np.errstate(divide="ignore", invalid="ignore"):
        effective = np.where(squares > 0, total * total / squares, 0.0)
        share = np.where(total > 0, positives / total, np.nan)
        x = np.where(total > 0, np.bincount(bins, weights=s * weight, minlength=k) / total, np.nan)
    low, high = wilson_interval(share * effective, effective, confidence_level)
    return Band(read_only(x), read_only(low), read_only(high), "Wilson score interval per bin")


def _bins_of(values: np.ndarray, bins: int) -> np.ndarray:
    """Bin index of each value in ``bins`` bins of equal count (bins that tie on a boundary merge), 0-based."""
    edges = np.unique(np.quantile(values, np.linspace(0, 1, bins + 1)))
    which = np.clip(np.searchsorted(edges, values, side="right") - 1, 0, max(len(edges) - 2, 0))
    return np.unique(which, return_inverse=True)[1]


def median_interval(values: np.ndarray, confidence_level: float = 0.95) -> tuple[float, float]:
    r"""Distribution-free interval of a median from order statistics: with :math:`K \sim \mathrm{Bin}(n, 1/2)`,
    :math:`[x_{(l)}, x_{(n+1-l)}]` for the largest l whose coverage :math:`P(l \le K \le n - l) \ge` the level;
    NaN when even l = 1 falls short (n < 6 at 95 %): no interval reaches the level."""
    x = np.sort(np.asarray(values, dtype=np.float64))
    n = x.shape[0]
    if n == 0:
        return float("nan"), float("nan")
    # coverage of [x_(l), x_(n+1-l)] is 1 - 2 P(K <= l - 1)
    ls = np.arange(1, n // 2 + 1)
    ok = ls[stats.binom.cdf(ls - 1, n, 0.5) <= (1 - confidence_level) / 2]
    if ok.size == 0:   # even the whole range covers less than the level: no interval
        return float("nan"), float("nan")
    l_ = int(ok.max())
    return float(x[l_ - 1]), float(x[n - l_])


def error_trend(predicted, error, bins: int = 20, *, confidence_level: float = 0.95):
    """The smoothed trend of the errors with its band: in ``bins`` bins of equal count along the predictions, the
    median prediction (x), the median error (y) and the order-statistic interval of that median (`median_interval`).
    Returns (x, y, Band)."""
    p, e = np.asarray(predicted, dtype=np.float64), np.asarray(error, dtype=np.float64)
    which = _bins_of(p, bins)
    xs, ys, lows, highs = [], [], [], []
    for b in range(int(which.max()) + 1 if which.size else 0):
        in_bin = which == b
        xs.append(float(np.median(p[in_bin])))
        ys.append(float(np.median(e[in_bin])))
        low, high = median_interval(e[in_bin], confidence_level)
        lows.append(low)
        highs.append(high)
    x = np.array(xs)
    return x, np.array(ys), Band(x, np.array(lows), np.array(highs),
                                 "order-statistic interval of each bin's median")


def decile_errors(y_true, y_pred, edges, *, confidence_level: float = 0.95):
    """Mean absolute error in each bin of ``y_true`` cut at ``edges`` (closed on the left but the last), with the
    Student t interval of that mean (mean ± t·sd/√n, ddof 1; NaN below two rows).

    Returns (mae, counts, low, high)."""
    y, p = np.asarray(y_true, dtype=np.float64), np.asarray(y_pred, dtype=np.float64)
    k = len(edges) - 1
    which = np.searchsorted(np.asarray(edges)[1:-1], y, side="right")
    err = np.abs(p - y)
    counts = np.bincount(which, minlength=k).astype(np.float64)
    sums = np.bincount(which, weights=err, minlength=k)
    squares = np.bincount(which, weights=err * err, minlength=k)
    with np.errstate(divide="ignore", invalid="ignore"):
        mae = np.where(counts > 0, sums / counts, np.nan)
        var = np.where(counts > 1, (squares - counts * mae * mae) / (counts - 1), np.nan)
        half = stats.t.ppf(1 - (1 - confidence_level) / 2, counts - 1) * np.sqrt(np.maximum(var, 0) / counts)
    return mae, counts, np.where(counts > 1, mae - half, np.nan), np.where(counts > 1, mae + half, np.nan)
