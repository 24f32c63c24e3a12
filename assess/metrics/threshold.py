r"""Binary label metrics against the decision threshold, from the registry's own formulas evaluated on batched counts.

The counts of one sort (:class:`~assess.curves.ThresholdCounts`) give the four cells at every distinct threshold
:math:`t_k` (predict positive when score >= :math:`t_k`):

.. math::

    T_P = \mathrm{tps}_k,\quad F_P = \mathrm{fps}_k,\quad T_N = n_{neg} - \mathrm{fps}_k,\quad
    F_N = n_{pos} - \mathrm{tps}_k

Every registry binary label metric is a function of those cells that accepts arrays (the bootstrap relies on the same
property), so one call of its ``compute`` on a *batch* :class:`~assess.metrics.binary.BinaryState` whose cells are
arrays over thresholds gives its whole curve. There is no second formula table: a metric added to the registry is
charted against the threshold without any change here.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from assess.core.data import Task
from assess.core.warnings import UndefinedMetricWarning
from assess.curves import ThresholdCounts, confusion_at_threshold, operating_point
from assess.curves.counts import check_counts
from assess.metrics.binary import BinaryState
from assess.metrics.registry import MetricSpec, get, metrics_for

__all__ = ["DEFAULT_KEYS", "ThresholdMetrics", "threshold_metric_keys", "metric_vs_threshold", "metrics_at"]

#: What the metric-versus-threshold chart shows before the user picks.
DEFAULT_KEYS = ("precision", "recall", "specificity", "f1", "accuracy", "mcc")


def _depends_on_threshold(spec: MetricSpec) -> bool:
    return spec.needs == "labels" and "threshold" in spec.params


def threshold_metric_keys() -> tuple[str, ...]:
    """Keys of every binary registry metric that moves with the threshold (the label metrics; counts included)."""
    return tuple(m.key for m in metrics_for(Task.BINARY) if _depends_on_threshold(m))


def _specs(keys) -> tuple[MetricSpec, ...]:
    names = (keys,) if isinstance(keys, str) else tuple(keys)
    known = threshold_metric_keys()
    unknown = [k for k in names if k not in known]
    if unknown:
        raise ValueError(f"`metrics` has unknown names {unknown} (known: {', '.join(known)})")
    return tuple(get(Task.BINARY, k) for k in names)


def _check_beta(beta) -> float:
    if isinstance(beta, bool) or not (isinstance(beta, (int, float)) and np.isfinite(beta) and beta > 0):
        raise ValueError(f"`beta` must be > 0 (got {beta!r})")
    return float(beta)


def _evaluate(spec: MetricSpec, state: BinaryState) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.broadcast_to(np.asarray(spec.compute(state), dtype=np.float64), np.shape(state.tp))


@dataclass(frozen=True, eq=False)
class ThresholdMetrics:
    """Metrics at every distinct threshold: ``values[i, k]`` is metric ``names[i]`` at ``thresholds[k]``.

    ``labels[i]`` is the registry's display name of ``names[i]`` and ``ranges[i]`` its range (the chart needs both).
    ``result["f1"]`` gives one row; :meth:`to_frame` a table with a ``threshold`` column and one column per name.
    """

    thresholds: np.ndarray
    names: tuple[str, ...]
    values: np.ndarray
    beta: float = 1.0
    labels: tuple[str, ...] = ()
    ranges: tuple[tuple[float, float], ...] = ()

    def __getitem__(self, name: str) -> np.ndarray:
        try:
            return self.values[self.names.index(name)]
        except ValueError:
            raise KeyError(f"metric {name!r} was not computed (computed: {', '.join(self.names)})") from None

    def to_frame(self):
        """A pandas DataFrame: ``threshold`` then one column per metric name, one row per threshold."""
        import pandas as pd

        frame = pd.DataFrame(self.values.T, columns=list(self.names))
        frame.insert(0, "threshold", self.thresholds)
        return frame


def metric_vs_threshold(counts: ThresholdCounts, metrics=DEFAULT_KEYS, *, beta: float = 1.0) -> ThresholdMetrics:
    r"""Registry binary label metrics (ISO 4213 3.2, 6.2) at every distinct threshold, from the counts (no sort).

    ``metrics`` are registry keys from :func:`threshold_metric_keys` (the cells tp fp tn fn, the rates, F-scores,
    agreement, likelihood ratios, the diagnostic odds ratio, KL divergence, …); each is the registry function
    evaluated on the cells at every threshold (see the module docstring). A value whose denominator is 0 at a
    threshold is NaN there and one :class:`UndefinedMetricWarning` per metric says at how many thresholds.

    >>> from assess.curves import threshold_counts
    >>> m = metric_vs_threshold(threshold_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), ("precision", "f1"))
    >>> m["f1"].round(4).tolist()
    [0.6667, 0.5, 0.8, 0.6667]
    """
    counts = check_counts(counts)
    specs = _specs(metrics)
    beta = _check_beta(beta)
    state = BinaryState(tp=counts.tps, fp=counts.fps, tn=counts.tns, fn=counts.fns, beta=beta,
                        labels_from="at this threshold", batch=True)
    values = np.empty((len(specs), len(counts)))
    for i, spec in enumerate(specs):
        values[i] = _evaluate(spec, state)
        nan = int(np.isnan(values[i]).sum())
        if nan:
            warnings.warn(f"{spec.key} is undefined at {nan} of {len(counts)} thresholds (a denominator is 0); "
                          f"those values are NaN", UndefinedMetricWarning, stacklevel=2)
    values.setflags(write=False)
    return ThresholdMetrics(counts.thresholds, tuple(s.key for s in specs), values, beta,
                            tuple(s.name for s in specs), tuple(s.range for s in specs))


def metrics_at(counts: ThresholdCounts, threshold: float, metrics=("tp", "fp", "tn", "fn") + DEFAULT_KEYS, *,
               beta: float = 1.0) -> dict[str, float]:
    """Registry metrics at one threshold (a binary search in the counts, no pass over rows; NaN when undefined,
    silently: the Metrics page gives the reason), plus ``predicted_positive_fraction`` — the share of the (weighted)
    rows called positive, the operating point's x on the gain curve."""
    counts = check_counts(counts)
    specs = _specs(metrics)
    cells = confusion_at_threshold(counts, threshold)
    state = BinaryState(tp=cells.tp, fp=cells.fp, tn=cells.tn, fn=cells.fn, beta=_check_beta(beta),
                        labels_from=f"at threshold {float(threshold):g}", batch=True)
    out = {spec.key: float(_evaluate(spec, state)) for spec in specs}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        out["predicted_positive_fraction"] = operating_point(counts, threshold).predicted_positive_fraction
    return out
