"""Cost charts (ISO 4213 6.6): the accuracy–cost trade-off with its Pareto front, and latency distributions on a log
axis. Pure functions of results computed by `assess.analyses.cost`; nothing is recomputed here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from assess.present.charts.regression import colors_for, new_figure
from assess.present.charts.style import REFERENCE_COLOR, legend_below, log_ticks, plain

#: Bins of the latency histograms: log-spaced, so a tail ten times slower is as visible as the bulk.
LATENCY_BINS = 40


def trade_off_chart(*, points: Sequence, metric_name: str, cost_name: str, colors: Mapping[str, str] | None = None,
                    log_cost: bool = True, title: str = "Accuracy–cost trade-off") -> go.Figure:
    """One marker per model at (cost, metric) with both intervals as error bars; the Pareto front (models no other
    beats on both) joined by a dashed line and named in the legend. ``points`` are `assess.analyses.cost.TradeOffPoint`."""
    colors = colors_for([p.model for p in points], colors)
    fig = new_figure(title, cost_name + (" (log scale)" if log_cost else ""), metric_name)
    for p in points:
        def bars(value, low, high):
            ok = bool(np.isfinite(low) and np.isfinite(high))
            return dict(type="data", symmetric=False, array=[max(high - value, 0)] if ok else [0],
                        arrayminus=[max(value - low, 0)] if ok else [0], visible=ok, thickness=1.5)
        fig.add_trace(go.Scatter(
            x=[p.cost], y=[p.metric], mode="markers+text", text=[plain(p.model)], textposition="top center",
            name=plain(p.model) + (" (Pareto front)" if p.on_front else ""),
            marker=dict(color=colors[p.model], size=12, symbol="circle" if p.on_front else "circle-open",
                        line=dict(width=2, color=colors[p.model])),
            error_x=bars(p.cost, p.cost_low, p.cost_high), error_y=bars(p.metric, p.metric_low, p.metric_high),
            hovertemplate=f"{plain(p.model)}<br>cost %{{x:.4g}}<br>metric %{{y:.4g}}<extra></extra>"))
    front = sorted((p for p in points if p.on_front), key=lambda p: p.cost)
    if len(front) > 1:
        fig.add_trace(go.Scatter(x=[p.cost for p in front], y=[p.metric for p in front], mode="lines",
                                 name="Pareto front: no model is better and cheaper",
                                 line=dict(color=REFERENCE_COLOR, dash="dash", width=1.5), hoverinfo="skip"))
    costs = [v for p in points for v in (p.cost, p.cost_low, p.cost_high) if np.isfinite(v) and v > 0]
    if log_cost and costs:   # labels at 1, 2 and 5 of each decade, in full (`log_ticks`)
        fig.update_xaxes(**log_ticks(min(costs), max(costs)))
    elif log_cost:
        fig.update_xaxes(type="log")
    return legend_below(fig)   # beside the plot it took half the width at 1024 px and cut the model labels


def latency_distribution_chart(*, latencies: Mapping[str, tuple[np.ndarray, np.ndarray]],
                               p95: Mapping[str, float] | None = None, colors: Mapping[str, str] | None = None,
                               title: str = "Latency per sample") -> go.Figure:
    """Each model's per-sample latencies as the share of samples per log-spaced bin (a line per model, the same bins
    for all), with a dotted line at each model's 95th percentile. ``latencies`` maps a model to (per-sample latency
    of each row, samples each row stands for) — `assess.analyses.cost.ModelCost.latencies` and ``weights``."""
    colors = colors_for(list(latencies), colors)
    positive = [v[v > 0] for v, _ in latencies.values() if np.any(v > 0)]
    fig = new_figure(title, "Latency per sample (ms, log scale)", "Share of samples (%)")
    if not positive:
        return fig
    lo, hi = min(float(v.min()) for v in positive), max(float(v.max()) for v in positive)
    hi = hi * 1.001 if hi > lo else lo * 10
    edges = np.geomspace(lo, hi, LATENCY_BINS + 1)
    centres = np.sqrt(edges[:-1] * edges[1:])
    shares = {}
    for name, (values, weights) in latencies.items():
        counts, _ = np.histogram(values, bins=edges, weights=weights)
        total = float(weights.sum())
        shares[name] = counts / total if total else counts
        fig.add_trace(go.Scatter(x=centres, y=shares[name], mode="lines",
                                 line=dict(color=colors[name], width=2, shape="hvh"),
                                 name=f"{plain(name)} (n = {int(round(total)):,})",
                                 hovertemplate="%{x:.3g} ms<br>%{y:.1%} of samples<extra></extra>"))
    top = max(float(s.max()) for s in shares.values()) if shares else 1.0
    for name in latencies:
        if p95 and name in p95 and np.isfinite(p95[name]):   # a trace, not a shape: shapes on a log axis take log10 x
            fig.add_trace(go.Scatter(x=[p95[name], p95[name]], y=[0, top], mode="lines", showlegend=False,
                                     line=dict(color=colors[name], dash="dot", width=1.5),
                                     hovertemplate=f"{plain(name)}: 95th percentile %{{x:.3g}} ms<extra></extra>"))
    fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", line=dict(color=REFERENCE_COLOR, dash="dot"),
                             name="dotted: each model's 95th percentile"))
    fig.update_xaxes(**log_ticks(lo, hi))
    fig.update_yaxes(tickformat=".0%")
    return legend_below(fig)
