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

Interval: the bootstrap of the binary score metrics (:func:`assess.metrics.resampling.binary_score_statistic`):
a resample reweights the same distinct-score groups (the grouped cells without weights, the rows with weights), so
:func:`resampled_ece` is the formula above on the resampled counts, with no new sort and no pass over the rows.
"""

from __future__ import annotations

import numpy as np

from assess.curves.calibration import N_BINS, score_bins, uniform_edges
from assess.metrics._common import note, note_undefined

__all__ = ["NOISE_MULTIPLE", "ece", "noise_floor", "resampled_ece"]


def _per_bin(scores: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values`` (one per distinct score, last axis; scores decreasing) summed per non-empty bin: the scores are
    sorted, so each bin is one run of them — one ``reduceat``."""
    bins = score_bins(scores, uniform_edges(N_BINS))
    return np.add.reduceat(values, np.flatnonzero(np.diff(bins, prepend=-1)), axis=-1)


def _counts(tps: np.ndarray, fps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(positives, rows) at each distinct score from the cumulative counts."""
    pos = np.diff(tps, axis=-1, prepend=0.0)
    return pos, pos + np.diff(fps, axis=-1, prepend=0.0)


def _gaps(scores: np.ndarray, tps: np.ndarray, fps: np.ndarray) -> np.ndarray:
    r""":math:`n \cdot \mathrm{ECE} = \sum_b \lvert \sum_t P_t - t (P_t + N_t) \rvert`, shape ``tps.shape[:-1]``,
    from the cumulative counts per distinct score (last axis)."""
    pos, total = _counts(tps, fps)
    return np.abs(_per_bin(scores, pos - scores * total)).sum(axis=-1)


def noise_floor(scores: np.ndarray, tps: np.ndarray, fps: np.ndarray) -> float:
    r"""The ECE a perfectly calibrated model would show on average with these scores, from sampling noise alone:
    with :math:`y_i \sim \mathrm{Bernoulli}(p_i)` a bin's :math:`\sum_{i \in b} (y_i - p_i)` has mean 0 and
    variance :math:`V_b = \sum_{i \in b} p_i (1 - p_i)`, so (normal approximation)
    :math:`\mathrm{E}\,\mathrm{ECE} \approx \frac1n \sum_b \sqrt{2 V_b / \pi}` (weights read as frequencies)."""
    _, total = _counts(tps, fps)
    variance = _per_bin(scores, total * scores * (1.0 - scores))
    return float(np.sqrt(2.0 * variance / np.pi).sum() / total.sum())


#: Below this multiple of `noise_floor` the value gets a note: the plug-in ECE is biased upward (the absolute value of
#: noise), and there its percentile bootstrap interval undercovers — in a simulation of 100 samples of 500 uniform
#: scores, 400 resamples each, it held the true ECE 0.049 in 45 % of samples, and the true ECE 0 in none (80 % at a
#: true ECE of 0.14, where the value is far above the floor).
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
                      "average on these bins from noise alone: the binned ECE runs high there and its interval may "
                      "miss the true value (compare models by their difference)")
    return value


def resampled_ece(r):
    r"""ECE of a chunk of resamples (:class:`~assess.metrics.resampling.ResampledRanks`): the formula on the
    resampled cumulative counts per distinct score, over the resampled total weight; NaN when the scores are not
    probabilities or a resample has no weight. The distinct scores are the point state's: a resample only reweights
    its groups (`ResampledRanks` keeps that state as ``_state``, read here rather than adding a field to the shared
    resampling module)."""
    point = r._state
    if point.proba_reason:
        return np.full(r.b, np.nan)
    batch = r.batch_state()
    tps, fps = batch.tps, batch.fps
    n = tps[:, -1] + fps[:, -1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, _gaps(point.counts.thresholds, tps, fps) / np.where(n > 0, n, 1.0), np.nan)
