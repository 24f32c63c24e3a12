r"""Expected calibration error (ECE) of binary probability scores as a metric: the registry entry ``ece``.

Convention (Naeini, Cooper & Hauskrecht 2015; Guo et al. 2017), the binning of the calibration chart
(:func:`assess.curves.calibration.calibration_curve`, ``strategy="uniform"``): :data:`~assess.curves.calibration.N_BINS`
= 10 equal-width bins on [0, 1], closed on the right (the first one also holds 0), each weighted by its share of the
rows (of the total weight), the gap of a bin the absolute difference between its mean score and its fraction of
positives:

.. math::

    \mathrm{ECE} = \sum_b \frac{n_b}{n}\,\lvert o_b - \bar p_b \rvert
                 = \frac{1}{n} \sum_b \Bigl\lvert \sum_{i \in b} w_i\,(y_i - p_i) \Bigr\rvert

(empty bins add nothing). The second form needs per bin only a sum over the rows of :math:`w_i (y_i - p_i)`, which
is why it is computed from the one sort of the scores that every binary score metric shares
(:class:`~assess.curves.ThresholdCounts`): rows of one distinct score :math:`t` fall in one bin, and with
:math:`P_t, N_t` the (weighted) positives and negatives at that score they add :math:`P_t - t\,(P_t + N_t)`.

Interval (:func:`ece_interval`): conditional on the scores, the frame of calibration tests (Hosmer & Lemeshow
1980: the scores are fixed, the outcomes random), the rows of a bin are independent Bernoulli draws, so its fraction
of positives :math:`o_b` estimates the mean true probability :math:`\pi_b` of its rows with at most a binomial
variance. Clopper–Pearson intervals :math:`[L_b, U_b]` (Clopper & Pearson 1934) of the B non-empty bins at level
:math:`1 - \alpha/B` (Bonferroni) hold every :math:`\pi_b` at once with probability :math:`\ge 1 - \alpha`: the exact
binomial interval covers at least its level whatever :math:`\pi_b`, and a Poisson-binomial count has tails no
heavier than the binomial of the same mean beyond one count from it (Hoeffding 1956), so unequal probabilities
within a bin keep it conservative. Then the true binned ECE :math:`\sum_b \frac{n_b}{n} \lvert \pi_b - \bar p_b
\rvert` lies in

.. math::

    \Bigl[\sum_b \tfrac{n_b}{n}\, d(\bar p_b, [L_b, U_b]),\ \
          \sum_b \tfrac{n_b}{n} \max(U_b - \bar p_b,\ \bar p_b - L_b)\Bigr]

(:math:`d` the distance to the interval, 0 inside it). Each bin's gap :math:`\lvert o_b - \bar p_b \rvert` lies
between its two terms (:math:`o_b` lies in its interval), so the interval always holds the estimate; above a true
ECE of 0 it is conservative (the worst case is taken in every bin). Weighted rows: Kish's effective n of each bin in
place of :math:`n_b`, as for the proportions (:mod:`assess.intervals`).

Why not Wilson intervals of the bins: at level :math:`1 - 0.05/10` their coverage dips at probabilities near 0 and
1 (Brown, Cai & DasGupta 2001), where the outer bins are — for perfectly calibrated uniform scores the ten held
together in 90.5 % of 20,000 simulated samples of 100 rows and 94.2 % of 500 rows; Clopper–Pearson 98.6 % and
97.6 %. Why not the bootstrap: the plug-in ECE is biased upward near calibration (the absolute value of noise), and
its percentile interval held the true ECE in 0 % of simulated samples at a true ECE of 0, 45 % at 0.049 and 80 % at
0.14 (500 rows), and could exclude its own estimate.
"""

from __future__ import annotations

import numpy as np

from assess.curves.calibration import N_BINS, score_bins, uniform_edges
from assess.intervals.interval import ConfidenceInterval, IntervalMethod, check_confidence_level
from assess.intervals.proportions import clopper_pearson_bounds
from assess.metrics._common import note, note_undefined

__all__ = ["INTERVAL", "NOISE_MULTIPLE", "bin_totals", "ece", "ece_interval", "noise_floor", "resampled_ece",
           "squared_weights"]

#: The key of :func:`ece_interval`'s :class:`~assess.intervals.IntervalMethod` (its words: "Simultaneous
#: Clopper–Pearson bins", :data:`~assess.intervals.METHOD_NAMES`).
INTERVAL = "simultaneous-clopper-pearson-bins"


def _starts(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(bin of each distinct score, first position of each non-empty bin): the scores are sorted, so each bin is
    one run of them."""
    bins = score_bins(scores, uniform_edges(N_BINS))
    return bins, np.flatnonzero(np.diff(bins, prepend=-1))


def _per_bin(scores: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values`` (one per distinct score, last axis; scores decreasing) summed per non-empty bin: one
    ``reduceat``."""
    return np.add.reduceat(values, _starts(scores)[1], axis=-1)


def _counts(tps: np.ndarray, fps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(positives, rows) at each distinct score from the cumulative counts."""
    pos = np.diff(tps, axis=-1, prepend=0.0)
    return pos, pos + np.diff(fps, axis=-1, prepend=0.0)


def _gaps(scores: np.ndarray, tps: np.ndarray, fps: np.ndarray) -> np.ndarray:
    r""":math:`n \cdot \mathrm{ECE} = \sum_b \lvert \sum_t P_t - t (P_t + N_t) \rvert`, shape ``tps.shape[:-1]``,
    from the cumulative counts per distinct score (last axis)."""
    pos, total = _counts(tps, fps)
    return np.abs(_per_bin(scores, pos - scores * total)).sum(axis=-1)


def bin_totals(counts) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(bin index, rows, positives, score sum) of each non-empty bin, (weighted) sums, from the
    :class:`~assess.curves.ThresholdCounts` of the scores."""
    pos, total = _counts(counts.tps, counts.fps)
    bins, starts = _starts(counts.thresholds)
    return (bins[starts], np.add.reduceat(total, starts), np.add.reduceat(pos, starts),
            np.add.reduceat(counts.thresholds * total, starts))


def squared_weights(scores, weight) -> np.ndarray:
    """Σ w² of the rows of each of the :data:`~assess.curves.calibration.N_BINS` bins (the denominators of Kish's
    effective n)."""
    w = np.asarray(weight, dtype=np.float64)
    return np.bincount(score_bins(scores, uniform_edges(N_BINS)), weights=w * w, minlength=N_BINS)


def ece_interval(counts, *, confidence_level: float = 0.95, squares: np.ndarray | None = None
                 ) -> ConfidenceInterval:
    r"""Interval of the ECE from simultaneous Clopper–Pearson intervals of the bins' fractions of positives (module
    docstring): ``[Σ w_b d(p̄_b, [L_b, U_b]), Σ w_b max(U_b − p̄_b, p̄_b − L_b)]`` with :math:`[L_b, U_b]` the
    Clopper–Pearson interval (:func:`assess.intervals.proportions.clopper_pearson_bounds`) at level
    :math:`1 - \alpha / B`, :math:`w_b = n_b / n`.
    ``counts``: the :class:`~assess.curves.ThresholdCounts` of the scores; ``squares``: Σ w² per bin
    (:func:`squared_weights`) for weighted rows — each bin's effective n is then :math:`(\sum w)^2 / \sum w^2`
    (Kish); without it the (weighted) row counts are the n. NaN without rows of nonzero weight."""
    confidence_level = check_confidence_level(confidence_level)
    bins, rows, pos, score_sum = bin_totals(counts)
    n = rows.sum()
    how = IntervalMethod(INTERVAL, effective_n=squares is not None, of="conditional on the scores",
                         detail=f"Bonferroni over {bins.size} bins")
    if bins.size == 0 or not n > 0:
        return ConfidenceInterval(float("nan"), float("nan"), confidence_level, how)
    n_eff = rows if squares is None else rows * rows / squares[bins]
    observed, mean_score = pos / rows, score_sum / rows
    low, high = clopper_pearson_bounds(observed * n_eff, n_eff,
                                       confidence_level=1.0 - (1.0 - confidence_level) / bins.size)
    share = rows / n
    below = np.maximum(np.maximum(low - mean_score, mean_score - high), 0.0)
    above = np.maximum(high - mean_score, mean_score - low)
    return ConfidenceInterval(float(share @ below), float(share @ above), confidence_level, how)


def noise_floor(scores: np.ndarray, tps: np.ndarray, fps: np.ndarray) -> float:
    r"""The ECE a perfectly calibrated model would show on average with these scores, from sampling noise alone:
    with :math:`y_i \sim \mathrm{Bernoulli}(p_i)` a bin's :math:`\sum_{i \in b} (y_i - p_i)` has mean 0 and
    variance :math:`V_b = \sum_{i \in b} p_i (1 - p_i)`, so (normal approximation)
    :math:`\mathrm{E}\,\mathrm{ECE} \approx \frac1n \sum_b \sqrt{2 V_b / \pi}` (weights read as frequencies)."""
    _, total = _counts(tps, fps)
    variance = _per_bin(scores, total * scores * (1.0 - scores))
    return float(np.sqrt(2.0 * variance / np.pi).sum() / total.sum())


#: Below this multiple of `noise_floor` the value gets a note: the plug-in ECE is biased upward there (the absolute
#: value of noise), so a small ECE does not rank models by their calibration alone.
NOISE_MULTIPLE = 2.0


def ece(s):
    r"""Expected calibration error of a point :class:`~assess.metrics.binary.BinaryState` (module docstring);
    NaN with the reason without scores, when the scores are not probabilities or when no row has weight. A value
    below `NOISE_MULTIPLE` times its `noise_floor` carries a note saying so."""
    if not s.has_scores or s.counts is None:
        note_undefined(s.batch, "Expected calibration error needs scores and none were given")
        return float("nan")
    if s.proba_reason:
        note_undefined(s.batch, s.proba_reason)
        return float("nan")
    c = s.counts
    n = float(c.n_pos + c.n_neg)
    if c.thresholds.size == 0 or n <= 0:
        note_undefined(s.batch, "no rows with nonzero weight")
        return float("nan")
    value = float(_gaps(c.thresholds, c.tps, c.fps)) / n
    floor = noise_floor(c.thresholds, c.tps, c.fps)
    if value < NOISE_MULTIPLE * floor:
        note(s.batch, f"below {NOISE_MULTIPLE:g} × {floor:.3g}, the ECE a perfectly calibrated model shows on "
                      "average on these bins from noise alone: the binned ECE runs high there (compare models by "
                      "their difference)")
    return value


def resampled_ece(r):
    r"""ECE of a chunk of resamples (:class:`~assess.metrics.resampling.ResampledRanks`), for the paired bootstrap
    of two models' difference (``compare --test paired_bootstrap --metric ece``; the metric's own interval is never
    bootstrapped, module docstring): the formula on the resampled cumulative counts per distinct score, over the
    resampled total weight; NaN when the scores are not probabilities or a resample has no weight. The distinct
    scores are the point state's: a resample only reweights its groups (`ResampledRanks` keeps that state as
    ``_state``, read here until the shared resampling module gives its batch state the point's distinct scores)."""
    point = r._state
    if point.proba_reason:
        return np.full(r.b, np.nan)
    batch = r.batch_state()
    tps, fps = batch.tps, batch.fps
    n = tps[:, -1] + fps[:, -1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, _gaps(point.counts.thresholds, tps, fps) / np.where(n > 0, n, 1.0), np.nan)
