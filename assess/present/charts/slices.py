"""Charts of slices, folds and learning curves: where the model fails, how stable the estimate is, whether more data
helps.

Pure functions of results computed in :mod:`assess.analyses.slices` and :mod:`assess.analyses.folds`; every figure is built
with the "assess" template and every text from a file (model, slice and column names) passes through
:func:`assess.present.charts.style.plain`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from assess.core.formatting import percent_level
from assess.present.charts.cells import cell_axis, cell_layout, cell_traces
from assess.present.charts.style import OKABE_ITO, REFERENCE_COLOR, TEMPLATE, log_ticks, model_colors, plain

__all__ = ["slice_forest_chart", "slice_heatmap", "fairness_chart", "fold_metric_chart", "learning_curve_chart"]

_SMALL_COLOR = "#9A9A9A"   # slices below the minimum size: grey, hollow — visibly uncertain


def slice_forest_chart(*, rows: pd.DataFrame, overall: float, metric: str, model: str, min_size: int,
                       confidence_level: float, higher_is_better: bool = True, what: str = "per slice") -> go.Figure:
    """Forest plot of one model's metric per slice: value and interval per slice, sorted worst first, the overall
    value as a dashed line, slices below ``min_size`` rows hollow and grey (reported, not tested). ``rows`` has
    ``slice``, ``n``, ``value``, ``low``, ``high`` (and ``p_adjusted`` when tested); ``what`` follows the metric in
    the title ("Accuracy per slice", "Accuracy of the weak slices found")."""
    if rows.empty:
        raise ValueError("`rows` is empty: there is no slice to draw")
    data = rows.copy()
    data["_order"] = data["value"].astype(float).fillna(np.inf if higher_is_better else -np.inf)
    data = data.sort_values("_order", ascending=higher_is_better, kind="stable")
    labels = [f"{plain(s)}  (n = {int(n):,})" for s, n in zip(data["slice"], data["n"])]
    value = data["value"].to_numpy(dtype=float)
    low, high = data["low"].to_numpy(dtype=float), data["high"].to_numpy(dtype=float)
    has_ci = np.isfinite(low) & np.isfinite(high)
    small = data["n"].to_numpy() < min_size
    fig = go.Figure()
    if np.isfinite(overall):
        fig.add_vline(x=overall, line=dict(color=REFERENCE_COLOR, dash="dash", width=1.5),
                      annotation=dict(text=f"overall {overall:.3g}", font=dict(color=REFERENCE_COLOR)),
                      annotation_position="top")
    p_adj = data["p_adjusted"].to_numpy(dtype=float) if "p_adjusted" in data else np.full(len(data), np.nan)
    for is_small, name, color, symbol in ((False, f"≥ {min_size:,} rows (tested)", OKABE_ITO[0], "circle"),
                                          (True, f"< {min_size:,} rows (not tested)", _SMALL_COLOR, "circle-open")):
        pick = small == is_small
        if not pick.any():
            continue
        fig.add_trace(go.Scatter(
            x=value[pick], y=np.array(labels, dtype=object)[pick], mode="markers", name=name,
            marker=dict(color=color, size=11, symbol=symbol, line=dict(width=2, color=color)),
            error_x=dict(type="data", symmetric=False, array=np.where(has_ci, high - value, 0)[pick],
                         arrayminus=np.where(has_ci, value - low, 0)[pick], color=color, thickness=2, width=6),
            customdata=np.column_stack([low[pick], high[pick], p_adj[pick]]),
            hovertemplate=(f"%{{y}}<br>{plain(metric)}: %{{x:.4g}}<br>{percent_level(confidence_level)} CI "
                           "%{customdata[0]:.4g} to %{customdata[1]:.4g}<br>adjusted p %{customdata[2]:.3g}"
                           "<extra></extra>")))
    fig.update_layout(template=TEMPLATE, height=max(320, 170 + 42 * len(labels)),
                      title=dict(text=f"{plain(metric)} {what} — {plain(model)}",
                                 subtitle=dict(text=f"worst first; {percent_level(confidence_level)} intervals; "
                                                    "dashed: all rows")),
                      legend=dict(orientation="h", yanchor="top", y=-0.18, xanchor="left", x=0))
    fig.update_xaxes(title=plain(metric))
    fig.update_yaxes(title=None, autorange="reversed", type="category")
    return fig


def slice_heatmap(*, rows: pd.DataFrame, row_column: str, col_column: str, metric: str, model: str,
                  min_size: int) -> go.Figure:
    """The metric for two crossed slice columns as a heatmap; each cell says its value and size, and a cell below
    ``min_size`` rows is marked "(small)". ``rows`` has the two columns, ``value`` and ``n``."""
    table = rows.pivot_table(index=row_column, columns=col_column, values="value", aggfunc="first")
    sizes = rows.pivot_table(index=row_column, columns=col_column, values="n", aggfunc="first").reindex_like(table)
    z = table.to_numpy(dtype=float)
    n = sizes.to_numpy(dtype=float)
    text = [[("" if not np.isfinite(v) else f"{v:.3g}") + ("" if not np.isfinite(c) else
             f"<br>n = {int(c):,}" + (" (small)" if c < min_size else "")) for v, c in zip(zr, nr)]
            for zr, nr in zip(z, n)]
    finite = z[np.isfinite(z)]
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    columns, row_names = [plain(c) for c in table.columns], [plain(r) for r in table.index]
    fig = go.Figure(cell_traces(
        z, colorscale=[[0, "#FFFFFF"], [1, OKABE_ITO[0]]], zmin=lo, zmax=hi, x_labels=columns, y_labels=row_names,
        text=text, values=(text,),
        hovertemplate="%{customdata[0]} × %{customdata[1]}<br>%{customdata[2]}<extra></extra>",
        showscale=True, colorbar=dict(title=dict(text=plain(metric), side="right"))))
    fig.update_layout(template=TEMPLATE, title=dict(text=f"{plain(metric)} by {plain(row_column)} × "
                                                          f"{plain(col_column)} — {plain(model)}"),
                      height=max(320, 160 + 60 * len(table.index)))
    fig.update_xaxes(**cell_axis(columns, title=plain(col_column)))
    fig.update_yaxes(**cell_axis(row_names, title=plain(row_column), reverse=True))
    return cell_layout(fig)


def fairness_chart(*, by_group: pd.DataFrame, column: str, model: str) -> go.Figure:
    """Selection rate, true positive rate and false positive rate per group of a protected attribute, grouped bars:
    the three quantities behind demographic parity, equal opportunity and equalised odds."""
    fig = go.Figure()
    groups = [plain(g) for g in by_group["group"]]
    for (key, name), color in zip((("selection_rate", "Selection rate"), ("tpr", "True positive rate"),
                                   ("fpr", "False positive rate")), OKABE_ITO):
        fig.add_trace(go.Bar(x=groups, y=by_group[key].to_numpy(dtype=float), name=name, marker_color=color,
                             hovertemplate=f"%{{x}}<br>{name}: %{{y:.3f}}<extra></extra>"))
    fig.update_layout(template=TEMPLATE, barmode="group",
                      title=dict(text=f"Rates per {plain(column)} — {plain(model)}"),
                      legend=dict(orientation="h", yanchor="top", y=-0.18, xanchor="left", x=0))
    fig.update_yaxes(title="Rate", range=[0, 1])
    fig.update_xaxes(title=plain(column), type="category")
    return fig


def fold_metric_chart(*, per_fold: pd.DataFrame, summary: pd.DataFrame, metric: str,
                      colors: Mapping[str, str] | None = None) -> go.Figure:
    """Each model's metric per fold as points, with the mean over folds and its interval beside them, and the
    pooled value (all rows at once) as a diamond. ``per_fold``: ``model``, ``fold`` (and ``repeat``), ``value``;
    ``summary``: ``model``, ``mean``, ``low``, ``high``, ``pooled``."""
    models = list(dict.fromkeys(summary["model"]))
    colors = colors or model_colors(models)
    fig = go.Figure()
    for i, model in enumerate(models):
        pts = per_fold[per_fold["model"] == model]
        fold_names = [f if r is None else f"{r}/{f}" for r, f in zip(pts.get("repeat", [None] * len(pts)),
                                                                      pts["fold"])]
        color = colors.get(model, "#555555")
        fig.add_trace(go.Scatter(x=np.full(len(pts), i) + np.linspace(-0.15, 0.15, max(len(pts), 1))[:len(pts)],
                                 y=pts["value"].to_numpy(dtype=float), mode="markers", name=plain(model),
                                 marker=dict(color=color, size=8, opacity=0.7),
                                 customdata=[plain(f) for f in fold_names],
                                 hovertemplate=f"{plain(model)}, fold %{{customdata}}: %{{y:.4g}}<extra></extra>"))
        s = summary[summary["model"] == model].iloc[0]
        fig.add_trace(go.Scatter(x=[i + 0.3], y=[s["mean"]], mode="markers", showlegend=False,
                                 marker=dict(color=color, size=12, symbol="line-ew-open", line=dict(width=3)),
                                 error_y=dict(type="data", symmetric=False, array=[s["high"] - s["mean"]],
                                              arrayminus=[s["mean"] - s["low"]], color=color, thickness=2),
                                 hovertemplate=(f"{plain(model)}: mean over folds %{{y:.4g}} "
                                                f"({s['low']:.4g} to {s['high']:.4g})<extra></extra>")))
        fig.add_trace(go.Scatter(x=[i + 0.3], y=[s["pooled"]], mode="markers", showlegend=False,
                                 marker=dict(color="#000000", size=9, symbol="diamond"),
                                 hovertemplate=f"{plain(model)}: pooled %{{y:.4g}}<extra></extra>"))
    fig.update_layout(template=TEMPLATE, title=dict(text=f"{plain(metric)} per fold",
                                                    subtitle=dict(text="points: folds; bar: mean with interval; "
                                                                       "diamond: all rows pooled")),
                      showlegend=False)
    fig.update_xaxes(tickvals=list(range(len(models))), ticktext=[plain(m) for m in models], title="Model")
    fig.update_yaxes(title=plain(metric))
    return fig


def learning_curve_chart(*, points: pd.DataFrame, metric: str, column: str,
                         colors: Mapping[str, str] | None = None) -> go.Figure:
    """The metric against the training size (log axis) per model: the mean over folds as a line, the fold interval
    as a band. ``points``: ``model``, ``train_size``, ``mean``, ``low``, ``high``."""
    models = list(dict.fromkeys(points["model"]))
    colors = colors or model_colors(models)
    fig = go.Figure()
    for model in models:
        p = points[points["model"] == model].sort_values("train_size")
        color = colors.get(model, "#555555")
        x = p["train_size"].to_numpy(dtype=float)
        low, high = p["low"].to_numpy(dtype=float), p["high"].to_numpy(dtype=float)
        band = np.isfinite(low) & np.isfinite(high)
        if band.any():
            fig.add_trace(go.Scatter(x=np.r_[x[band], x[band][::-1]], y=np.r_[high[band], low[band][::-1]],
                                     fill="toself", fillcolor=color, opacity=0.18, line=dict(width=0),
                                     hoverinfo="skip", showlegend=False))
        fig.add_trace(go.Scatter(x=x, y=p["mean"].to_numpy(dtype=float), mode="lines+markers", name=plain(model),
                                 line=dict(color=color, width=2.5), marker=dict(size=7),
                                 hovertemplate=f"{plain(model)}<br>%{{x:,}} training samples: %{{y:.4g}}"
                                               "<extra></extra>"))
    fig.update_layout(template=TEMPLATE, title=dict(text=f"Learning curve: {plain(metric)}",
                                                    subtitle=dict(text="mean over folds with its interval")),
                      legend=dict(orientation="h", yanchor="top", y=-0.2, xanchor="left", x=0))
    sizes = points["train_size"].to_numpy(dtype=float)
    fig.update_xaxes(title=f"Training samples ({plain(column)}, log scale)",
                     **log_ticks(np.nanmin(sizes), np.nanmax(sizes)) if len(sizes) else {"type": "log"})
    fig.update_yaxes(title=plain(metric))
    return fig
