"""Forecast metrics per horizon and per series: the registry's formulas on each group of rows, as a tidy frame.

:func:`evaluate` stays pooled over every row; :func:`breakdown` runs it on each group (the rows of one horizon, or of
one series), a :class:`~assess.core.data.Predictions` holding the group's rows, so every number comes from the same
registry entry as the pooled one, intervals included (the block bootstrap within each series). MASE keeps the scale
of the whole file per series and the skill scores its baseline forecasts
(:func:`assess.metrics.forecast_state.forecast_context`): a group's MASE is its errors as a multiple of the same naive
error as the pooled value's. A loop over groups, none over rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from assess.core.data import Predictions, Task
from assess.metrics.evaluate import evaluate
from assess.metrics.forecast_state import coded_series, forecast_context, subset
from assess.core.defaults import DEFAULT_RESAMPLES

__all__ = ["BY", "breakdown", "group_rows", "evaluate_groups"]

#: The groupings :func:`breakdown` knows, by the Predictions field that holds them.
BY = ("horizon", "series")
COLUMNS = ["model", "by", "series", "horizon", "key", "value", "low", "high", "n", "reason"]


def group_rows(values) -> list[tuple[object, np.ndarray]]:
    """``[(value, row positions)]`` for each distinct value of ``values``, sorted by value: one stable argsort and
    a split, no loop over rows."""
    codes, labels = pd.factorize(pd.Series(np.asarray(values)), sort=True)
    order = np.argsort(codes, kind="stable")
    order = order[codes[order] >= 0]                     # missing values belong to no group
    starts = np.flatnonzero(np.diff(codes[order], prepend=-1))
    return list(zip(labels, np.split(order, starts[1:]))) if order.size else []


def evaluate_groups(pred: Predictions, values, keys=None, *, context=None, **options):
    """``(value, rows, report)`` of :func:`evaluate` on the rows of each distinct value of ``values`` (one label per
    row of ``pred``: a horizon, a series, a slice, a fold), so a group's number comes from the same registry entry
    as the pooled one, intervals included. ``context`` (forecasts) is the whole file's
    :class:`~assess.metrics.forecast_state.ForecastContext`, subset to each group; ``options`` go to :func:`evaluate`
    (baselines are not computed per group)."""
    for g, idx in group_rows(values):
        yield g, idx, evaluate(subset(pred, idx), keys, baselines=False,
                               context=None if context is None else context.subset(idx), **options)


def breakdown(pred: Predictions, keys=None, *, by=BY, ci: str | None = None, confidence_level: float = 0.95,
              n_resamples: int = DEFAULT_RESAMPLES, seed=0, season: int | None = None,
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
        for g, idx, report in evaluate_groups(pred, values, keys, context=context, ci=ci,
                                              confidence_level=confidence_level, n_resamples=n_resamples, seed=seed,
                                              season=season, interval_level=interval_level):
            series = context.series_name(g) if grouping == "series" else None
            horizon = float(g) if grouping == "horizon" else np.nan
            for r in report.results:
                rows.append((pred.model, grouping, series, horizon, r.key, r.value, r.low, r.high, idx.size,
                             r.reason))
    return pd.DataFrame(rows, columns=COLUMNS)
