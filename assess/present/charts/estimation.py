"""The backtest chart of CBPE (issue 35 §3): on labelled history, each chunk's estimate (as if its labels were missing)
with its interval, beside the value its labels give. Built from `assess.present.estimation_view.backtest_table`."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from assess.core.formatting import percent_level
from assess.present.charts.style import OKABE_ITO, TEMPLATE, plain

__all__ = ["backtest_chart"]


def backtest_chart(table: pd.DataFrame, *, metric: str, model: str, confidence_level: float, unit: str = "chunk",
                   axis: str = "labelled rows, in file order") -> go.Figure:
    """Estimated (with its interval) and realised ``metric`` per group of one model (a ``unit``: a chunk of rows, a
    period); ``table`` as `backtest_table` gives it (``group``, ``metric``, ``estimated``, ``low``, ``high``,
    ``realised``)."""
    rows = table[table["metric"] == metric]
    if rows.empty:
        raise ValueError(f"no backtest rows for {metric!r}")
    x = [plain(g) for g in rows["group"]]
    est, low, high = (rows[c].to_numpy(dtype=float) for c in ("estimated", "low", "high"))
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=x, y=est, mode="markers+lines", name="estimated (labels hidden)",
        marker=dict(color=OKABE_ITO[0], size=10), line=dict(color=OKABE_ITO[0], width=1.5),
        error_y=dict(type="data", symmetric=False, array=np.nan_to_num(high - est), arrayminus=np.nan_to_num(est - low),
                     color=OKABE_ITO[0], thickness=2, width=6),
        hovertemplate="%{x}<br>estimated %{y:.3f}<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=x, y=rows["realised"].to_numpy(dtype=float), mode="markers", name="realised (labels)",
        marker=dict(color=OKABE_ITO[1], size=11, symbol="diamond"),
        hovertemplate="%{x}<br>realised %{y:.3f}<extra></extra>"))
    fig.update_layout(template=TEMPLATE, height=380,
                      title=dict(text=f"{plain(metric)}: estimated vs realised — {plain(model)}",
                                 subtitle=dict(text=f"each {unit} estimated from the others' labels; "
                                                    f"{percent_level(confidence_level)} intervals")),
                      legend=dict(orientation="h", yanchor="top", y=-0.2, xanchor="left", x=0))
    fig.update_xaxes(title=axis, type="category")
    fig.update_yaxes(title=plain(metric))
    return fig
