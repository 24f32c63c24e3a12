"""Charts of forecasts: actual against forecast over time, errors over time and by horizon, a per-series metric,
and the loss differences between two models that the Diebold–Mariano test weighs.

Time axes take anything Plotly reads as dates or numbers (numpy datetime64, pandas timestamps, "2001-03" strings).
Errors are ``forecast − actual`` as in :mod:`assess.present.charts.regression`. Metric values (per horizon, per series)
come computed from :mod:`assess.metrics`; these functions only draw them. Model and series names, metric names
and titles are plain text, drawn as written (`assess.present.charts.style.plain`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from assess.core.formatting import percent_level
from assess.present.charts.regression import ERROR_LABEL, colors_for, new_figure
from assess.present.charts.style import REFERENCE_COLOR, legend_below, plain, rgba

ACTUAL_COLOR = "#222222"


def _time_figure(title: str, y_title: str) -> go.Figure:
    """A figure over time: hovering a date shows every model's value at it."""
    fig = new_figure(title, "Time", y_title)
    fig.update_layout(hovermode="x unified")
    return fig


def forecast_chart(*, time, actual, forecasts: Mapping[str, Mapping[str, object]],
                   colors: Mapping[str, str] | None = None, level: float | None = None,
                   title: str = "Actual and forecast") -> go.Figure:
    """The actual series (black) and each model's forecasts over time; a model's ``lower``/``upper`` arrays, when
    given, are drawn as its prediction-interval band (``level`` names it, e.g. 0.9).

    ``forecasts``: ``{model: {"time": ..., "forecast": ..., "lower": ..., "upper": ...}}`` (lower/upper optional).
    """
    if not forecasts:
        raise TypeError("`forecasts` must be a non-empty mapping of model -> {'time', 'forecast'[, 'lower', 'upper']}")
    colors = colors_for(list(forecasts), colors)
    fig = _time_figure(title, "Value")
    fig.add_trace(go.Scatter(x=np.asarray(time), y=np.asarray(actual, dtype=np.float64), mode="lines",
                             name="actual", line=dict(color=ACTUAL_COLOR, width=2.5), hovertemplate="%{y:.4g}"))
    band = f"{percent_level(level)} interval" if level else "interval"
    banded = False
    for name, f in forecasts.items():
        t, y = np.asarray(f["time"]), np.asarray(f["forecast"], dtype=np.float64)
        if t.shape != y.shape:
            raise ValueError(f"model {name!r}: {t.size} times but {y.size} forecasts")
        if f.get("lower") is not None and f.get("upper") is not None:
            lo, hi = np.asarray(f["lower"], dtype=np.float64), np.asarray(f["upper"], dtype=np.float64)
            # The band shares its model's legend entry: one click hides both.
            fig.add_trace(go.Scatter(x=np.concatenate([t, t[::-1]]), y=np.concatenate([hi, lo[::-1]]),
                                     fill="toself", fillcolor=rgba(colors[name], 0.15), line=dict(width=0),
                                     name=f"{plain(name)}: {band}", legendgroup=plain(name), showlegend=False,
                                     hoverinfo="skip"))
            banded = True
        fig.add_trace(go.Scatter(x=t, y=y, mode="lines+markers", name=plain(name),
                                 line=dict(color=colors[name], width=2), marker=dict(size=4),
                                 legendgroup=plain(name), hovertemplate="%{y:.4g}"))
    if banded:
        fig.update_layout(title=dict(text=plain(title), subtitle=dict(text=f"Shaded: each model's {band}")))
    return legend_below(fig)


def error_over_time_chart(*, errors: Mapping[str, tuple], colors: Mapping[str, str] | None = None,
                          title: str = "Errors over time") -> go.Figure:
    """Each model's error (forecast − actual) at each time: ``errors = {model: (time, error)}``; drifts and
    seasonal patterns in the errors show what a model misses."""
    if not errors:
        raise TypeError("`errors` must be a non-empty mapping of model -> (time, error)")
    colors = colors_for(list(errors), colors)
    fig = _time_figure(title, ERROR_LABEL)
    for name, (t, e) in errors.items():
        fig.add_trace(go.Scatter(x=np.asarray(t), y=np.asarray(e, dtype=np.float64), mode="lines",
                                 name=plain(name),
                                 line=dict(color=colors[name], width=1.8), hovertemplate="%{y:.4g}"))
    fig.add_hline(y=0, line=dict(color=REFERENCE_COLOR, dash="dash", width=1.5))
    return legend_below(fig)


def metric_by_horizon_chart(*, values: Mapping[str, tuple], metric: str, colors: Mapping[str, str] | None = None,
                            intervals: Mapping[str, tuple] | None = None, title: str | None = None) -> go.Figure:
    """A metric against the forecast horizon, a line per model: ``values = {model: (horizons, values)}``, optional
    ``intervals = {model: (low, high)}`` arrays drawn as error bars. Errors usually grow with the horizon; a model
    whose line crosses another's is better at some horizons only."""
    if not values:
        raise TypeError("`values` must be a non-empty mapping of model -> (horizons, values)")
    colors = colors_for(list(values), colors)
    fig = new_figure(title or f"{metric} by forecast horizon", "Horizon (steps ahead)", plain(metric))
    for name, (h, v) in values.items():
        v = np.asarray(v, dtype=np.float64)
        error_y = None
        if intervals and name in intervals:
            low, high = (np.asarray(a, dtype=np.float64) for a in intervals[name])
            error_y = dict(type="data", symmetric=False, array=high - v, arrayminus=v - low, thickness=1.2)
        fig.add_trace(go.Scatter(x=np.asarray(h), y=v, mode="lines+markers", name=plain(name),
                                 error_y=error_y,
                                 line=dict(color=colors[name], width=2), hovertemplate="h = %{x}: %{y:.4g}"))
    fig.update_xaxes(dtick=1)
    return legend_below(fig)


def metric_by_series_chart(*, values: Mapping[str, Mapping[str, float]], metric: str, reference: float | None = None,
                           colors: Mapping[str, str] | None = None, title: str | None = None) -> go.Figure:
    """A bar per model and series on one axis, ``values = {model: {series: value}}``; series sorted by their mean
    over the models (worst at the top for a lower-is-better metric such as MASE; undefined at the bottom), with an
    optional ``reference`` line (MASE 1 = as good as the naive forecast)."""
    if not values or not any(values.values()):
        raise TypeError("`values` must be a non-empty mapping of model -> {series: value}")
    colors = colors_for(list(values), colors)
    series = list(dict.fromkeys(k for per_model in values.values() for k in per_model))
    def mean_over_models(k):
        finite = [v for v in (values[m].get(k, np.nan) for m in values) if np.isfinite(v)]
        return float(np.mean(finite)) if finite else np.nan
    mean = {k: mean_over_models(k) for k in series}
    order = sorted(series, key=lambda k: np.nan_to_num(mean[k], nan=-np.inf))
    fig = new_figure(title or f"{metric} by series", plain(metric), "Series")
    # Plotly stacks horizontal groups bottom-up: reversed models read top-down in legend order.
    for name in reversed(list(values)):
        fig.add_trace(go.Bar(x=[values[name].get(k, np.nan) for k in order], y=[plain(k) for k in order],
                             orientation="h", name=plain(name), marker=dict(color=colors[name]),
                             hovertemplate="%{y}: %{x:.4g}"))
    if reference is not None:
        fig.add_vline(x=reference, line=dict(color=REFERENCE_COLOR, dash="dash", width=1.5))
    fig.update_layout(barmode="group", hovermode="closest", legend=dict(traceorder="reversed"),
                      height=max(320, 140 + 18 * len(order) * len(values)))
    return legend_below(fig)


def loss_difference_chart(*, time, difference, names: tuple[str, str], loss: str = "squared error",
                          title: str | None = None) -> go.Figure:
    """The per-time loss difference d_t = L(model A) − L(model B) that the Diebold–Mariano test weighs, with its mean
    (the test asks whether that mean is zero): below zero, A's forecasts were better at that time."""
    t = np.asarray(time)
    d = np.asarray(difference, dtype=np.float64)
    if t.shape != d.shape:
        raise ValueError(f"{t.size} times but {d.size} loss differences")
    a, b = (plain(name) for name in names)
    # new_figure escapes the title; the axis title is escaped here
    fig = new_figure(title or f"Loss differences: {names[0]} − {names[1]}", "Time",
                     f"Difference in {plain(loss)} ({a} − {b})")
    fig.add_trace(go.Bar(x=t, y=d, name=f"{a} − {b}", marker=dict(color=np.where(d <= 0, "#0072B2", "#D55E00")),
                         hovertemplate="%{y:.4g}"))
    mean = float(np.mean(d)) if d.size else float("nan")
    fig.add_hline(y=mean, line=dict(color="#222222", width=2),
                  annotation_text=f"mean {mean:.4g}", annotation_position="top right")
    fig.add_hline(y=0, line=dict(color=REFERENCE_COLOR, dash="dash", width=1.5))
    fig.update_layout(showlegend=False)
    return legend_below(fig)
