"""Calibration (reliability) curve of probability scores, with the expected and maximum calibration errors."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from assess.core.warnings import UndefinedMetricWarning
from assess.curves.counts import check_binary, read_only, safe_divide

__all__ = ["CalibrationResult", "N_BINS", "calibration_curve", "score_bins", "uniform_edges"]

#: Bins of the calibration chart and of the ``ece`` metric key: 10 of equal width on [0, 1] (Naeini et al. 2015; Guo et
#: al. 2017).
N_BINS = 10


def uniform_edges(n_bins: int = N_BINS) -> np.ndarray:
    """Edges of ``n_bins`` equal-width bins on [0, 1], as ``sklearn.calibration.calibration_curve(strategy="uniform")``."""
    return np.linspace(0.0, 1.0, n_bins + 1)


def score_bins(score, edges: np.ndarray) -> np.ndarray:
    """The bin of each score: bins are closed on the right, (e_b, e_{b+1}], the first one also holding its lower
    edge — scikit-learn's ``np.searchsorted(edges[1:-1], score)``. The one binning of the chart and the metric."""
    return np.searchsorted(edges[1:-1], score)

@dataclass(frozen=True, eq=False)
class CalibrationResult:
    r"""Reliability diagram data: per-bin mean predicted probability against observed frequency.

    For bin b (edges ``bin_edges[b]``, ``bin_edges[b + 1]``): ``counts[b]`` is the (weighted) number of samples in
    it, ``mean_predicted[b]`` their mean score, ``observed_frequency[b]`` their fraction of positives; both are NaN
    for an empty bin (``counts[b] == 0``). ``ece`` and ``mce`` are the expected and maximum calibration errors over
    the non-empty bins:

    .. math::

        \mathrm{ECE} = \sum_b \frac{n_b}{n}\,\lvert o_b - p_b \rvert, \qquad
        \mathrm{MCE} = \max_{b:\,n_b > 0} \lvert o_b - p_b \rvert
    """

    bin_edges: np.ndarray
    mean_predicted: np.ndarray
    observed_frequency: np.ndarray
    counts: np.ndarray
    strategy: str
    ece: float
    mce: float

    @property
    def nonempty(self) -> np.ndarray:
        """Bool mask of the bins holding samples (the points of the reliability diagram)."""
        return self.counts > 0

    def to_frame(self):
        """One row per bin: ``bin_low``, ``bin_high``, ``count``, ``mean_predicted``, ``observed_frequency``."""
        import pandas as pd

        return pd.DataFrame({"bin_low": self.bin_edges[:-1], "bin_high": self.bin_edges[1:], "count": self.counts,
                             "mean_predicted": self.mean_predicted,
                             "observed_frequency": self.observed_frequency})


def calibration_curve(y_true, score, *, n_bins: int = N_BINS, strategy: str = "uniform",
                      sample_weight=None) -> CalibrationResult:
    r"""Calibration (reliability) curve with ECE and MCE for probability scores in [0, 1].

    Bins follow ``sklearn.calibration.calibration_curve`` exactly: ``"uniform"`` edges are
    ``np.linspace(0, 1, n_bins + 1)``, ``"quantile"`` edges ``np.percentile(score, np.linspace(0, 100, n_bins + 1))``
    (unweighted, linear interpolation; repeated edges leave empty bins); a score goes to bin
    ``np.searchsorted(edges[1:-1], score)``, i.e. bins are closed on the right, (e_b, e_{b+1}], the first one
    also holding its lower edge. Differences from scikit-learn: empty bins are kept (NaN means, count 0) so the
    arrays always have ``n_bins`` entries (``result.nonempty`` selects scikit-learn's points), and
    ``sample_weight`` weights the per-bin means and counts (not the quantile edges). See
    :class:`CalibrationResult` for each array and the ECE/MCE formulas. Total weight 0: ECE and MCE NaN with
    :class:`UndefinedMetricWarning`.

    >>> c = calibration_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], n_bins=2)
    >>> c.counts.tolist(), c.observed_frequency.tolist(), round(c.ece, 4)
    ([3.0, 1.0], [0.3333333333333333, 1.0], 0.0875)
    """
    y, s, w = check_binary(y_true, score, sample_weight)
    from assess.inputs.probabilities import outside_unit_interval   # the one check and its words (rows from 1)

    found = outside_unit_interval(s, "`score`")
    if found is not None:
        raise ValueError(f"a calibration curve needs probabilities in [0, 1]: {found.message}")
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise ValueError(f"`n_bins` must be an integer >= 1 (got {n_bins!r})")
    if strategy == "uniform":
        edges = uniform_edges(n_bins)
    elif strategy == "quantile":
        edges = np.percentile(s, np.linspace(0, 1, n_bins + 1) * 100)
    else:
        raise ValueError(f"`strategy` must be 'uniform' or 'quantile' (got {strategy!r})")
    bins = score_bins(s, edges)
    weight = np.ones_like(s) if w is None else w
    counts = np.bincount(bins, weights=weight, minlength=n_bins)
    score_sum = np.bincount(bins, weights=s * weight, minlength=n_bins)
    pos_sum = np.bincount(bins, weights=np.where(y, weight, 0.0), minlength=n_bins)
    mean_predicted = safe_divide(score_sum, counts)
    observed = safe_divide(pos_sum, counts)
    total = counts.sum()
    filled = counts > 0
    if total > 0:
        gaps = np.abs(observed[filled] - mean_predicted[filled])
        ece, mce = float(np.dot(counts[filled] / total, gaps)), float(gaps.max())
    else:
        warnings.warn("ECE and MCE are undefined: the total sample weight is 0", UndefinedMetricWarning,
                      stacklevel=2)
        ece = mce = float("nan")
    return CalibrationResult(read_only(edges), read_only(mean_predicted), read_only(observed), read_only(counts),
                             strategy, ece, mce)


