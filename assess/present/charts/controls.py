"""Control charts (ISO 4213 5.3.2): the distribution of scores (or predictions) per group — splits, folds, time
periods — so a shift shows as curves that do not lie on each other. Drawn from `assess.analyses.controls.Shift.samples`."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from assess.present.charts.regression import colors_for, new_figure
from assess.present.charts.style import legend_below, plain

BINS = 30


def distribution_by_group_chart(*, samples: Mapping[str, np.ndarray], value_name: str = "Score",
                                reference: str | None = None, title: str = "Score distribution per group"
                                ) -> go.Figure:
    """The share of each group's samples per bin (the same bins for every group), a line per group; the reference
    group dashed."""
    data = {g: np.asarray(v, float)[np.isfinite(np.asarray(v, float))] for g, v in samples.items()}
    data = {g: v for g, v in data.items() if v.size}
    colors = colors_for(list(data), None)
    fig = new_figure(title, value_name, "Share of the group's samples (%)")
    if not data:
        return fig
    lo, hi = min(float(v.min()) for v in data.values()), max(float(v.max()) for v in data.values())
    edges = np.linspace(lo, hi if hi > lo else lo + 1, BINS + 1)
    centres = (edges[:-1] + edges[1:]) / 2
    for group, values in data.items():
        counts, _ = np.histogram(values, bins=edges)
        fig.add_trace(go.Scatter(x=centres, y=counts / values.size, mode="lines",
                                 line=dict(color=colors[group], width=2, shape="hvh",
                                           dash="dash" if group == reference else "solid"),
                                 name=f"{plain(group)} (n = {values.size:,})"
                                      + (" — reference" if group == reference else ""),
                                 hovertemplate="%{x:.3g}<br>%{y:.1%} of the group<extra></extra>"))
    fig.update_yaxes(tickformat=".0%")
    return legend_below(fig)
