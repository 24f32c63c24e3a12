"""Charts of numeric predictions (regression, and forecasts seen as regression): where and how a model errs.

Every chart takes ``models``: ``{model: (y_true, y_pred)}`` arrays, and ``colors`` from
:func:`assess.present.charts.style.model_colors`. Errors follow the registry's convention, ``error = predicted − actual``
(positive: the model over-predicts; ``mean_error`` is their mean). Above ``DENSITY_ABOVE`` rows a model's points
are drawn as a density (counts on a fixed grid), so a 1e6-row file sends a few kilobytes, not a million points.
Model names and titles are plain text, drawn as written (`assess.present.charts.style.plain`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from assess.core.formatting import percent_level
from assess.curves import decile_errors, error_trend
from assess.present.charts.cells import cell_traces
from assess.present.charts.style import REFERENCE_COLOR, TEMPLATE, legend_below, model_colors, plain, rgba

#: More rows than this (per model) are drawn as a density instead of points.
DENSITY_ABOVE = 20_000
#: Cells per axis of a density grid.
GRID = 70
#: Colour steps of a density grid (log counts): neighbouring cells of one step are drawn as one rectangle.
DENSITY_LEVELS = 32
#: Quantile bins of the smoothed error trend.
TREND_BINS = 20

ERROR_LABEL = "Error (predicted − actual)"


def _arrays(models: Mapping[str, tuple]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    if not isinstance(models, Mapping) or not models:
        raise TypeError("`models` must be a non-empty mapping of model name -> (y_true, y_pred)")
    out = {}
    for name, pair in models.items():
        y, p = (np.asarray(a, dtype=np.float64).ravel() for a in pair)
        if y.shape != p.shape:
            raise ValueError(f"model {name!r}: y_true has {y.size} values, y_pred {p.size}")
        keep = np.isfinite(y) & np.isfinite(p)
        if not keep.any():
            raise ValueError(f"model {name!r} has no finite (y_true, y_pred) pair to draw")
        out[str(name)] = (y[keep], p[keep])
    return out


def colors_for(names, colors: Mapping[str, str] | None) -> dict[str, str]:
    """``colors`` (default: :func:`model_colors` of ``names``), checked to have every name."""
    colors = dict(model_colors(names) if colors is None else colors)
    missing = [n for n in names if n not in colors]
    if missing:
        raise ValueError(f"no colour for model {missing[0]!r}; `colors` has {sorted(colors)}")
    return colors


def new_figure(title: str, x_title: str, y_title: str) -> go.Figure:
    """An empty figure in the house template with its axis titles; each chart puts its legend under the x axis with
    `legend_below` once its traces are drawn."""
    fig = go.Figure()
    fig.update_layout(template=TEMPLATE, title=plain(title), hovermode="closest")
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title)
    return fig


def _span(*arrays: np.ndarray) -> tuple[float, float]:
    lo = min(float(a.min()) for a in arrays)
    hi = max(float(a.max()) for a in arrays)
    if hi <= lo:
        lo, hi = lo - 0.5, hi + 0.5
    return lo, hi


def _points_or_density(fig: go.Figure, name: str, x: np.ndarray, y: np.ndarray, color: str, x_range, y_range,
                       *, single: bool, hover: str) -> None:
    """Points below DENSITY_ABOVE rows; above, the counts on a GRID × GRID grid: filled vector cells for one model,
    contour lines in the model's colour when several share the axes."""
    if x.size <= DENSITY_ABOVE:
        fig.add_trace(go.Scattergl(x=x, y=y, mode="markers", name=f"{plain(name)} (n = {x.size:,})",
                                   marker=dict(color=color, size=5, opacity=0.45, line=dict(width=0)),
                                   hovertemplate=hover))
        return
    counts, xe, ye = np.histogram2d(x, y, bins=GRID, range=[x_range, y_range])
    xc, yc = (xe[:-1] + xe[1:]) / 2, (ye[:-1] + ye[1:]) / 2
    z = np.where(counts.T > 0, np.log10(np.maximum(counts.T, 1)) + 1, np.nan)   # log scale: tails stay visible
    label = f"{plain(name)} (n = {x.size:,}, density)"
    if single:
        top = float(np.nanmax(z)) if np.isfinite(z).any() else 1.0
        fig.add_traces(cell_traces(z, colorscale=[[0.0, "#FFFFFF"], [1.0, color]], zmin=0.0, zmax=top,
                                   x_edges=xe, y_edges=ye, gap=False, legend_name=label, levels=DENSITY_LEVELS))
    else:
        fig.add_trace(go.Contour(x=xc, y=yc, z=np.round(np.nan_to_num(z), 3), name=label, showscale=False,
                                 showlegend=True, contours=dict(coloring="none"), ncontours=6,
                                 line=dict(color=color, width=1.5), hoverinfo="skip"))


def predicted_actual_chart(*, models: Mapping[str, tuple], colors: Mapping[str, str] | None = None,
                           title: str = "Predicted against actual") -> go.Figure:
    """Predicted (y) against actual (x) with the identity line: points on the line are exact; above it the model
    over-predicts. Square axes over the common range of both, so the identity line is the diagonal."""
    data = _arrays(models)
    colors = colors_for(list(data), colors)
    lo, hi = _span(*(a for pair in data.values() for a in pair))
    pad = (hi - lo) * 0.02
    lo, hi = lo - pad, hi + pad
    fig = new_figure(title, "Actual (y_true)", "Predicted (y_pred)")
    for name, (y, p) in data.items():
        _points_or_density(fig, name, y, p, colors[name], (lo, hi), (lo, hi), single=len(data) == 1,
                           hover="actual %{x:.4g}<br>predicted %{y:.4g}")
    fig.add_trace(go.Scatter(x=[lo, hi], y=[lo, hi], mode="lines", name="predicted = actual",
                             line=dict(color=REFERENCE_COLOR, dash="dash", width=1.5), hoverinfo="skip"))
    # Equal units on both axes: the plot area shrinks to a square (constrain="domain") rather than the ranges grow.
    fig.update_xaxes(range=[lo, hi], constrain="domain")
    fig.update_yaxes(range=[lo, hi], scaleanchor="x", scaleratio=1, constrain="domain")
    return legend_below(fig)


def residual_chart(*, models: Mapping[str, tuple], colors: Mapping[str, str] | None = None,
                   confidence_level: float = 0.95, title: str = "Errors against the prediction") -> go.Figure:
    """Each row's error (predicted − actual) against its prediction, with each model's smoothed trend (median error
    in 20 bins of equal count) and its band, the order-statistic interval of each bin's median
    (`assess.curves.error_trend`): a trend away from zero is a bias that depends on the level predicted."""
    data = _arrays(models)
    colors = colors_for(list(data), colors)
    errors = {name: p - y for name, (y, p) in data.items()}
    x_range = _span(*(p for _, p in data.values()))
    y_range = _span(*errors.values())
    fig = new_figure(title, "Predicted (y_pred)", ERROR_LABEL)
    for name, (_, p) in data.items():
        _points_or_density(fig, name, p, errors[name], colors[name], x_range, y_range, single=len(data) == 1,
                           hover="predicted %{x:.4g}<br>error %{y:.4g}")
    for name, (_, p) in data.items():
        tx, ty, band = error_trend(p, errors[name], TREND_BINS, confidence_level=confidence_level)
        shown = np.isfinite(band.low) & np.isfinite(band.high)
        if shown.any():
            fig.add_trace(go.Scatter(
                x=np.concatenate([tx[shown], tx[shown][::-1]]),
                y=np.concatenate([band.high[shown], band.low[shown][::-1]]), fill="toself",
                fillcolor=rgba(colors[name], 0.2), line=dict(width=0), mode="lines", hoverinfo="skip",
                legendgroup=plain(name),
                name=f"{plain(name)}: {percent_level(confidence_level)} interval of the median"))
        fig.add_trace(go.Scatter(x=tx, y=ty, mode="lines", name=f"{plain(name)}: median error (trend)",
                                 line=dict(color=colors[name], width=3), legendgroup=plain(name),
                                 customdata=np.column_stack([band.low, band.high]),
                                 hovertemplate=("predicted ≈ %{x:.4g}<br>median error %{y:.4g} "
                                                "(%{customdata[0]:.4g} to %{customdata[1]:.4g})<extra></extra>")))
    fig.add_hline(y=0, line=dict(color=REFERENCE_COLOR, dash="dash", width=1.5))
    return legend_below(fig)


def error_distribution_chart(*, models: Mapping[str, tuple], colors: Mapping[str, str] | None = None,
                             bins: int = 40, title: str = "Distribution of the errors") -> go.Figure:
    """Histograms of the errors (share of each model's rows per bin, shared bins) with each model's normal reference
    curve — the normal density with the errors' mean and standard deviation: heavy tails or skew show as bars
    outside it."""
    data = _arrays(models)
    colors = colors_for(list(data), colors)
    errors = {name: p - y for name, (y, p) in data.items()}
    lo, hi = _span(*errors.values())
    edges = np.linspace(lo, hi, bins + 1)
    width = edges[1] - edges[0]
    grid = np.linspace(lo, hi, 200)
    fig = new_figure(title, ERROR_LABEL, "Share of rows (%)")
    for name, e in errors.items():
        counts, _ = np.histogram(e, bins=edges)
        fig.add_trace(go.Bar(x=(edges[:-1] + edges[1:]) / 2, y=counts / e.size, width=width,
                             name=f"{plain(name)} (n = {e.size:,})",
                             marker=dict(color=colors[name], line=dict(width=0)),
                             opacity=0.55, hovertemplate="error %{x:.4g}<br>%{y:.1%} of rows<extra></extra>"))
    for name, e in errors.items():
        sd = float(e.std(ddof=1)) if e.size > 1 else 0.0
        if sd > 0:
            density = np.exp(-0.5 * ((grid - e.mean()) / sd) ** 2) / (sd * np.sqrt(2 * np.pi))
            fig.add_trace(go.Scatter(x=grid, y=density * width, mode="lines",
                                     name=f"{plain(name)}: normal reference",
                                     line=dict(color=colors[name], dash="dash", width=2), hoverinfo="skip"))
    fig.update_layout(barmode="overlay")
    fig.update_yaxes(tickformat=".0%")
    return legend_below(fig)


def error_by_decile_chart(*, models: Mapping[str, tuple], colors: Mapping[str, str] | None = None,
                          confidence_level: float = 0.95,
                          title: str = "Mean absolute error by decile of the actual value") -> go.Figure:
    """Bars: each model's mean absolute error within each tenth of the rows ordered by their actual value (deciles
    of the first model's y_true, the same cut points for every model), so it shows where in the range a model errs;
    each bar's error bar is the Student t interval of that mean (`assess.curves.decile_errors`)."""
    data = _arrays(models)
    colors = colors_for(list(data), colors)
    first = next(iter(data.values()))[0]
    edges = np.quantile(first, np.linspace(0, 1, 11))
    labels = [f"D{i + 1}<br>{edges[i]:.3g}–{edges[i + 1]:.3g}" for i in range(10)]
    fig = new_figure(title, "Decile of the actual value (range)", "Mean absolute error")
    level = percent_level(confidence_level)
    for name, (y, p) in data.items():
        mae, counts, low, high = decile_errors(y, p, edges, confidence_level=confidence_level)
        fig.add_trace(go.Bar(x=labels, y=mae, name=plain(name), marker=dict(color=colors[name]),
                             error_y=dict(type="data", array=high - mae, arrayminus=mae - low, color="#444444",
                                          thickness=1.5, width=3),
                             customdata=np.column_stack([counts, low, high]),
                             hovertemplate=("%{x}<br>MAE %{y:.4g} over %{customdata[0]:,.0f} rows<br>"
                                            f"{level} CI " "%{customdata[1]:.4g}–%{customdata[2]:.4g}")))
    fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=f"Error bars: {level} t interval of each mean",
                             marker=dict(symbol="line-ns-open", size=14, color="#444444", line=dict(width=2))))
    # room under the axis for the two-line range labels, which turn 90° on a narrow chart (a PDF page, 1024 px)
    fig.update_layout(barmode="group", margin=dict(b=150))
    return legend_below(fig)
