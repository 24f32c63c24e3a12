"""Charts of model comparisons: the critical difference diagram, paired differences with intervals, fold box plots.

Pure functions of results computed in `assess.stats` (average ranks and the critical difference of Friedman/Nemenyi,
effects with their confidence intervals, per-fold scores); nothing here tests or ranks anything itself. Names, labels,
metric and fold values and titles are plain text, drawn as written (`assess.present.charts.style.plain`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from assess.core.formatting import percent_level
from assess.present.charts.style import TEMPLATE, model_colors, plain
from assess.stats import Effect

_INK = "#222222"
_MUTED = "#777777"


def critical_difference_chart(*, average_ranks: Mapping[str, float], critical_difference: float,
                              title: str = "Critical difference diagram") -> go.Figure:
    """Demšar's (2006) critical difference diagram: models at their average rank (1 = best) on one axis, and a bar
    joining every group of models whose ranks differ by less than ``critical_difference`` (not significantly
    different by the Nemenyi test). The CD itself is drawn as a scale bar above the axis.
    """
    if not isinstance(average_ranks, Mapping) or len(average_ranks) < 2:
        raise ValueError("`average_ranks` must map at least two model names to their average rank")
    if not np.isfinite(critical_difference) or critical_difference <= 0:
        raise ValueError(f"`critical_difference` must be a positive number (got {critical_difference!r})")
    names = sorted(average_ranks, key=average_ranks.get)
    ranks = np.array([float(average_ranks[n]) for n in names])
    k = len(names)
    low_axis, high_axis = 1.0, float(max(k, np.ceil(ranks.max())))
    colors = model_colors(names)
    fig = go.Figure()
    # axis line and ticks
    fig.add_trace(go.Scatter(x=[low_axis, high_axis], y=[0, 0], mode="lines", line=dict(color=_INK, width=1.5),
                             hoverinfo="skip", showlegend=False))
    ticks = np.arange(1, int(high_axis) + 1)
    fig.add_trace(go.Scatter(x=ticks, y=np.zeros_like(ticks, dtype=float), mode="markers+text",
                             marker=dict(symbol="line-ns", size=10, line=dict(color=_INK, width=1.5)),
                             text=[str(t) for t in ticks], textposition="top center", hoverinfo="skip",
                             showlegend=False))
    # CD scale bar
    fig.add_trace(go.Scatter(x=[low_axis, low_axis + critical_difference], y=[0.9, 0.9], mode="lines+text",
                             line=dict(color=_INK, width=3), text=["", f"CD = {critical_difference:.2f}"],
                             textposition="middle right", hoverinfo="skip", showlegend=False, cliponaxis=False))
    # models: a leader line from the axis down to the label, left half left, right half right
    for i, (name, r) in enumerate(zip(names, ranks)):
        left = i < (k + 1) // 2
        depth = -0.5 - 0.35 * (i if left else k - 1 - i)
        end_x = low_axis - 0.05 if left else high_axis + 0.05
        fig.add_trace(go.Scatter(x=[r, r, end_x], y=[0, depth, depth], mode="lines",
                                 line=dict(color=colors[name], width=2), hoverinfo="skip", showlegend=False))
        fig.add_trace(go.Scatter(x=[end_x], y=[depth], mode="text", text=[f"{plain(name)} ({r:.2f})"],
                                 textposition="middle left" if left else "middle right",
                                 textfont=dict(color=colors[name], size=13), showlegend=False, cliponaxis=False,
                                 hovertemplate=f"{plain(name)}: average rank {r:.3f}<extra></extra>"))
    # cliques: maximal runs of models within CD of each other (by rank order)
    cliques = []
    for i in range(k):
        j = i
        while j + 1 < k and ranks[j + 1] - ranks[i] < critical_difference:
            j += 1
        if j > i and not any(a <= i and j <= b for a, b in cliques):
            cliques.append((i, j))
    for level, (a, b) in enumerate(cliques):
        y = -0.2 - 0.12 * level
        fig.add_trace(go.Scatter(x=[ranks[a] - 0.03, ranks[b] + 0.03], y=[y, y], mode="lines",
                                 line=dict(color=_INK, width=5), showlegend=False,
                                 hovertemplate=("not significantly different: "
                                                f"{', '.join(plain(n) for n in names[a:b + 1])}"
                                                "<extra></extra>")))
    depth_min = -0.5 - 0.35 * ((k + 1) // 2)
    fig.update_layout(template=TEMPLATE, title=dict(text=plain(title), subtitle=dict(
                          text="Average rank over folds, 1 = best; a bar joins models that are not significantly "
                               "different (Nemenyi)")),
                      height=max(320, 220 + 45 * ((k + 1) // 2)), margin=dict(l=160, r=160))
    fig.update_xaxes(range=[low_axis - 0.1, high_axis + 0.1], visible=False)
    fig.update_yaxes(range=[depth_min - 0.2, 1.2], visible=False)
    return fig


def difference_chart(*, effects: Sequence[tuple[str, Effect]], title: str = "Differences") -> go.Figure:
    """Forest plot: one row per pair ("A − B" for a difference) with its effect and the effect's confidence
    interval, and the line where there is no effect (`Effect.no_effect`: 0 for a difference or an association size,
    1 for an odds ratio, ½ for P(A > B)), named in the subtitle. ``effects`` holds ``(label, effect)``, all of the
    same effect name; an effect without an interval (NaN bounds) is drawn as a point, a one-sided interval up to the
    axis's end."""
    if not effects:
        raise ValueError("`effects` is empty: there is no pair to draw")
    labels = [plain(label) for label, _ in effects]
    name = plain(effects[0][1].name)
    confidence_level = effects[0][1].interval.confidence_level
    values = np.array([eff.value for _, eff in effects], dtype=float)
    low = np.array([eff.interval.low for _, eff in effects], dtype=float)
    high = np.array([eff.interval.high for _, eff in effects], dtype=float)
    finite = np.isfinite(values)
    null = effects[0][1].no_effect
    centre = null[0] if null else 0.0
    span = np.nanmax(np.abs(np.r_[values[finite], low[np.isfinite(low)], high[np.isfinite(high)], centre] - centre))
    low_drawn = np.where(np.isneginf(low), centre - 2 * span, low)
    high_drawn = np.where(np.isposinf(high), centre + 2 * span, high)
    has_ci = np.isfinite(low_drawn) & np.isfinite(high_drawn)
    fig = go.Figure()
    if null:
        fig.add_vline(x=centre, line=dict(color=_MUTED, dash="dash", width=1.5))
    fig.add_trace(go.Scatter(
        x=values, y=labels, mode="markers", marker=dict(color="#0072B2", size=11),
        error_x=dict(type="data", symmetric=False, array=np.where(has_ci, high_drawn - values, 0),
                     arrayminus=np.where(has_ci, values - low_drawn, 0), color="#0072B2", thickness=2, width=6),
        customdata=np.column_stack([low, high]), name=name,
        hovertemplate=(f"%{{y}}<br>{name}: %{{x:.4g}}<br>{percent_level(confidence_level)} CI "
                       "%{customdata[0]:.4g} to %{customdata[1]:.4g}<extra></extra>")))
    fig.update_layout(template=TEMPLATE, title=dict(text=plain(title), subtitle=dict(
                          text=f"with {percent_level(confidence_level)} confidence intervals"
                               + (f"; {null[0]:g} = {null[1]}" if null else ""))),
                      height=max(300, 160 + 50 * len(labels)), showlegend=False)
    fig.update_xaxes(title=name, zeroline=False)
    fig.update_yaxes(title=None, autorange="reversed", type="category")
    return fig


def fold_box_chart(*, scores: pd.DataFrame, metric: str, model_col: str = "model", fold_col: str = "fold",
                   colors: Mapping[str, str] | None = None, title: str | None = None,
                   metric_name: str | None = None) -> go.Figure:
    """Box plots of each model's per-fold ``metric`` (a column of ``scores``; ``metric_name`` its display name in
    the title and on the axis, default the column's name), every fold as a point, folds of one model joined by
    nothing (the paired structure shows in the fold hover)."""
    for col in (model_col, fold_col, metric):
        if col not in scores.columns:
            raise ValueError(f"`scores` has no column {col!r} (columns: {', '.join(map(str, scores.columns))})")
    models = list(dict.fromkeys(scores[model_col].astype(str)))
    colors = colors or model_colors(models)
    fig = go.Figure()
    for name in models:
        rows = scores[scores[model_col].astype(str) == name]
        fig.add_trace(go.Box(y=rows[metric].to_numpy(dtype=float), name=plain(name), boxpoints="all", jitter=0.3,
                             pointpos=0, marker=dict(color=colors.get(name, "#555555"), size=7),
                             line=dict(color=colors.get(name, "#555555")),
                             customdata=rows[fold_col].astype(str).map(plain),
                             hovertemplate=f"{plain(name)}<br>fold %{{customdata}}: %{{y:.4g}}<extra></extra>"))
    name = metric_name or metric
    fig.update_layout(template=TEMPLATE, title=plain(title or f"{name} per fold"), showlegend=False)
    fig.update_yaxes(title=plain(name))
    fig.update_xaxes(title="Model")
    return fig
