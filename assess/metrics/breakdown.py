"""Forecast metrics per horizon and per series: the registry's formulas on each group of rows, as a tidy frame.

:func:`evaluate` stays pooled over every row; :func:`breakdown` runs it on each group (the rows of one horizon, or of
one series), a :class:`~assess.data.Predictions` holding the group's rows, so every number comes from the same
registry entry as the pooled one, intervals included (the block bootstrap within each series). MASE keeps the scale
of the whole file per series and the skill scores its baseline forecasts
(:func:`assess.metrics.forecast_state.forecast_context`): a group's MASE is its errors as a multiple of the same naive
error as the pooled value's. A loop over groups, none over rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from assess.data import Predictions, Task
from assess.metrics.evaluate import evaluate
from assess.metrics.forecast_state import coded_series, forecast_context, subset

__all__ = ["BY", "breakdown"]

#: The groupings :func:`breakdown` knows, by the Predictions field that holds them.
BY = ("horizon", "series")
COLUMNS = ["model", "by", "series", "horizon", "key", "value", "low", "high", "n", "reason"]
def breakdown(pred: Predictions, keys=None, *, by=BY, ci: str | None = None, confidence_level: float = 0.95,
              resamples: int = 1000, seed=0, season: int | None = None,
              interval_level: float | None = None) -> pd.DataFrame:
    """Metrics of one model's forecasts per value of each grouping in ``by`` (``"horizon"``, ``"series"``).

    Returns a tidy frame with columns ``model``, ``by`` (the grouping), ``series`` (None in a per-horizon row),
    ``horizon`` (NaN in a per-series row), ``key``, ``value``, ``low``, ``high`` (NaN without ``ci``), ``n`` (rows
    in the group) and ``reason`` (why a value is undefined). A file without the grouping's column gives no rows for
    it. ``keys`` and the other options are those of :func:`evaluate` (baselines are not computed per group).
    """
    if pred.task is not Task.FORECAST:
        raise ValueError(f"breakdown() is for forecasts; the task is {pred.task.value}")
    unknown = [b for b in by if b not in BY]
    if unknown:
        raise ValueError(f"`by` must be from {list(BY)} (got {unknown})")
    pred, labels = coded_series(pred)
    context = forecast_context(pred, season, labels)
    rows = []
    for grouping in by:
        values = getattr(pred, grouping)
        if values is None:
            continue
        codes, labels = pd.factorize(pd.Series(np.asarray(values)), sort=True)
        order = np.argsort(codes, kind="stable")
        starts = np.flatnonzero(np.diff(codes[order], prepend=-1))
        for g, idx in zip(labels, np.split(order, starts[1:])):
            report = evaluate(subset(pred, idx), keys, ci=ci, confidence_level=confidence_level,
                              resamples=resamples, seed=seed, baselines=False, season=season,
                              interval_level=interval_level, context=context.subset(idx))
            series = context.series_name(g) if grouping == "series" else None
            horizon = float(g) if grouping == "horizon" else np.nan
            for r in report.results:
                rows.append((pred.model, grouping, series, horizon, r.key, r.value, r.low, r.high, idx.size,
                             r.reason))
    return pd.DataFrame(rows, columns=COLUMNS)
