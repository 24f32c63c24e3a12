"""The over-time chart: a metric per period as a line with its interval as a band, the reference's value as a dashed
line, periods whose change is significant after Benjamini–Hochberg marked, and the rows per period as bars below.

A pure function of :class:`assess.analyses.over_time.OverTime`'s tables; built with the "assess" template, every text
from a file (model names) through :func:`assess.present.charts.style.plain`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from assess.core.formatting import percent_level
from assess.present.charts.style import OKABE_ITO, REFERENCE_COLOR, TEMPLATE, plain, rgba

__all__ = ["over_time_chart"]

_CHANGED = "#D55E00"     # vermillion: a significant change, the colour every chart gives a warning


def over_time_chart(*, metrics: pd.DataFrame, periods: pd.DataFrame, changes: pd.DataFrame, metric: str, model: str,
                    period_name: str, confidence_level: float, estimated: pd.DataFrame | None = None) -> go.Figure:
    """One model's metric per period. ``metrics``: ``period``, ``value``, ``low``, ``high`` (one row per period);
    ``periods``: ``period``, ``n``, ``n_labelled``, ``reference``; ``changes``: ``period``, ``reference_value``,
    ``p_adjusted`` (tested periods only); ``estimated``: ``period``, ``value``, ``low``, ``high`` of the periods
    whose rows are (partly) unlabelled, estimated by CBPE — open markers with their interval as error bars."""
    if metrics.empty:
        raise ValueError("`metrics` is empty: there is no period to draw")
    x = pd.to_datetime(metrics["period"]) if np.issubdtype(np.asarray(metrics["period"]).dtype, np.datetime64) or \
        isinstance(metrics["period"].iloc[0], pd.Timestamp) else metrics["period"].astype(float)
    value = metrics["value"].to_numpy(dtype=float)
    low, high = metrics["low"].to_numpy(dtype=float), metrics["high"].to_numpy(dtype=float)
    level = percent_level(confidence_level)
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.72, 0.28], vertical_spacing=0.06)
    color = OKABE_ITO[0]
    band = np.isfinite(low) & np.isfinite(high)
    if band.any():
        fig.add_trace(go.Scatter(x=x[band], y=high[band], mode="lines", line=dict(width=0), showlegend=False,
                                 hoverinfo="skip"), row=1, col=1)
        fig.add_trace(go.Scatter(x=x[band], y=low[band], mode="lines", line=dict(width=0), fill="tonexty",
                                 fillcolor=rgba(color, 0.2), name=f"{level} interval", hoverinfo="skip"),
                      row=1, col=1)
    fig.add_trace(go.Scatter(x=x, y=value, mode="lines+markers", name=plain(metric), line=dict(color=color, width=2),
                             marker=dict(size=7, color=color), customdata=np.column_stack([low, high]),
                             hovertemplate=f"%{{x}}<br>{plain(metric)} %{{y:.4g}}<br>{level} interval "
                                           "%{customdata[0]:.4g} to %{customdata[1]:.4g}<extra></extra>"),
                  row=1, col=1)
    if estimated is not None and len(estimated):
        guess = estimated["value"].to_numpy(dtype=float)
        fig.add_trace(go.Scatter(
            x=pd.to_datetime(estimated["period"]) if isinstance(x, pd.Series) and x.dtype.kind == "M"
            else estimated["period"].astype(float), y=guess, mode="markers", name="estimated, labels not in yet (CBPE)",
            marker=dict(size=10, color=color, symbol="circle-open", line=dict(width=2, color=color)),
            error_y=dict(type="data", symmetric=False, color=rgba(color, 0.7),
                         array=estimated["high"].to_numpy(dtype=float) - guess,
                         arrayminus=guess - estimated["low"].to_numpy(dtype=float)),
            hovertemplate=f"%{{x}}<br>{plain(metric)} estimated %{{y:.4g}}<extra></extra>"), row=1, col=1)
    reference = changes["reference_value"].to_numpy(dtype=float)
    reference = reference[np.isfinite(reference)]
    if reference.size and np.allclose(reference, reference[0]):
        fig.add_hline(y=float(reference[0]), line=dict(color=REFERENCE_COLOR, dash="dash", width=1.5), row=1, col=1,
                      annotation=dict(text=f"reference {reference[0]:.3g}", font=dict(color=REFERENCE_COLOR)),
                      annotation_position="top left")
    alpha = round(1.0 - confidence_level, 12)
    changed = changes[changes["p_adjusted"].to_numpy(dtype=float) < alpha]
    if len(changed):
        at = metrics.set_index("period")["value"].reindex(changed["period"]).to_numpy(dtype=float)
        fig.add_trace(go.Scatter(
            x=pd.to_datetime(changed["period"]) if isinstance(x, pd.Series) and x.dtype.kind == "M"
            else changed["period"], y=at, mode="markers", name=f"changed (BH-adjusted p < {alpha:g})",
            marker=dict(size=13, color=_CHANGED, symbol="diamond-open", line=dict(width=2.5, color=_CHANGED)),
            hoverinfo="skip"), row=1, col=1)
    n = periods["n"].to_numpy(dtype=float)
    in_reference = periods["reference"].to_numpy(dtype=bool)
    fig.add_trace(go.Bar(x=x, y=n, name="rows per period", marker_color=np.where(in_reference, REFERENCE_COLOR,
                                                                                    rgba(color, 0.55)).tolist(),
                         hovertemplate="%{x}<br>%{y:,} rows<extra></extra>", showlegend=False), row=2, col=1)
    fig.update_layout(template=TEMPLATE, height=540, bargap=0.15,
                      title=dict(text=f"{plain(metric)} per {plain(period_name)} — {plain(model)}",
                                 subtitle=dict(text=f"band: {level} interval; dashed: the reference; grey bars: "
                                                    "reference periods")),
                      legend=dict(orientation="h", yanchor="top", y=-0.12, xanchor="left", x=0))
    fig.update_yaxes(title=plain(metric), row=1, col=1)
    fig.update_yaxes(title="Rows", row=2, col=1, rangemode="tozero")
    if period_name == "quarter" and x.dtype.kind == "M":
        # a tick per quarter, named as the sentences name it: the automatic ticks read "Mar 2024, May 2024" under
        # points at January, April, July, October, so Q2's point sat between two months it is not
        fig.update_xaxes(tickvals=list(x), ticktext=[f"{t.year} Q{t.quarter}" for t in x])
    return fig
