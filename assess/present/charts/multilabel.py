"""Multi-label charts (ISO/IEC TS 4213:2022 6.5): per-label ROC and precision–recall curves with micro and macro
averages, the label-cardinality distribution true against predicted, and label co-occurrence true against predicted.

The numbers come computed from :mod:`assess.analyses.label_curves`; these functions only draw. The per-label 2×2
confusion grid is :func:`assess.present.charts.confusion.multilabel_confusion_chart`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from assess.curves import CurveResult
from assess.present.charts.cells import cell_axis, cell_layout, cell_traces
from assess.present.charts.curve_charts import ovr_chart
from assess.present.charts.style import HEATMAP_SCALE, HEIGHT, REFERENCE_COLOR, TEMPLATE, TICK_SIZE, model_colors, plain

_ANNOTATED = 12  # co-occurrence cells carry their count up to this many labels; above, hover only (text would overlap)
_TICK_CHARS = 18  # longest tick label of the co-occurrence axes


def per_label_curves_chart(
    *,
    per_label: Mapping[str, CurveResult],
    micro: CurveResult | None,
    macro_area: float | None,
    colors: Mapping[str, str] | None = None,
    title: str | None = None,
) -> go.Figure:
    """One ROC (or PR) curve per label, the micro-average (every sample–label pair pooled) and the macro-average
    (the mean of the per-label curves; its legend quotes ``macro_area``, the mean of the per-label areas)."""
    kinds = {c.kind for c in per_label.values()}
    kind = next(iter(kinds)) if len(kinds) == 1 else None
    default = {"roc": "ROC curve per label", "pr": "Precision–recall per label"}.get(kind, "Curves per label")
    return ovr_chart(per_class=per_label, micro=micro, macro_area=macro_area, colors=colors, title=title or default)


def cardinality_chart(
    *,
    distributions: Mapping[str, np.ndarray],
    colors: Mapping[str, str] | None = None,
    title: str = "Labels per sample, true and predicted",
) -> go.Figure:
    """Grouped bars: for 0, 1, …, L labels, the share of samples with that many labels — ``"true"`` first (grey),
    then each model's predicted label sets. ``distributions`` maps a series name to its counts per cardinality
    (:func:`assess.analyses.label_curves.cardinality_distribution`)."""
    if not isinstance(distributions, Mapping) or not distributions:
        raise TypeError("`distributions` must be a non-empty mapping of series name -> counts per cardinality")
    arrays = {str(k): np.asarray(v, dtype=np.float64).ravel() for k, v in distributions.items()}
    width = max(a.size for a in arrays.values())
    for name, a in arrays.items():
        if not np.isfinite(a).all() or (a < 0).any():
            raise ValueError(f"counts of {name!r} must be finite and >= 0")
    colors = colors or model_colors([k for k in arrays if k != "true"])
    fig = go.Figure()
    x = np.arange(width)
    for name, counts in arrays.items():
        counts = np.pad(counts, (0, width - counts.size))
        total = counts.sum()
        share = counts / total if total > 0 else np.zeros_like(counts)
        shown = "true labels" if name == "true" else f"predicted — {name}"
        color = REFERENCE_COLOR if name == "true" else colors.get(name, REFERENCE_COLOR)
        fig.add_trace(go.Bar(
            x=x, y=share, name=plain(shown), marker=dict(color=color, line=dict(width=0)),
            customdata=np.round(counts).astype(np.int64),
            hovertemplate=(f"{plain(shown)}<br>%{{x}} labels: %{{customdata:,}} samples (%{{y:.1%}})"
                           "<extra></extra>")))
    mean = {name: float(np.arange(a.size) @ a / a.sum()) if a.sum() > 0 else float("nan")
            for name, a in arrays.items()}
    subtitle = " · ".join(f"{'true' if k == 'true' else plain(k)}: {v:.2f}" for k, v in mean.items())
    fig.update_layout(template=TEMPLATE, barmode="group", bargap=0.25,
                      title=dict(text=plain(title), subtitle=dict(
                          text=f"Mean labels per sample (label cardinality) — {subtitle}")),
                      xaxis=dict(title="Labels per sample", tickmode="linear", dtick=1, range=[-0.6, width - 0.4]),
                      yaxis=dict(title="Share of samples (%)", tickformat=".0%", rangemode="tozero"),
                      height=HEIGHT)
    return fig


def cooccurrence_chart(
    *,
    true: np.ndarray,
    predicted: np.ndarray,
    labels: Sequence[str],
    title: str = "Label co-occurrence, true and predicted",
) -> go.Figure:
    """Two matrices of vector cells on one colour scale: cell (j, k) is the number of samples with both label j and
    label k (the diagonal: samples with label j), from the true labels (left) and the predicted ones (right). Cells
    carry their count up to 12 labels; every cell's hover gives the count and its share of the samples with label j."""
    names = [str(label) for label in labels]
    mats = {}
    for name, m in (("true", true), ("predicted", predicted)):
        m = np.asarray(m, dtype=np.float64)
        if m.shape != (len(names), len(names)):
            raise ValueError(f"`{name}` must be {len(names)}×{len(names)} for {len(names)} labels (got {m.shape})")
        if not np.isfinite(m).all() or (m < 0).any():
            raise ValueError(f"`{name}` must hold finite counts >= 0")
        mats[name] = m
    top = max(float(mats["true"].max()), float(mats["predicted"].max()), 1.0)
    # Long names keep their start and their end on the axes (names often differ only in a suffix: topic_name_1,
    # topic_name_2); the hover names them in full. Every label is named up to `MAX_TICKS` (rows have room: the height
    # grows with the labels), every n-th past it; the narrow columns take upright, smaller text past 12 labels.
    ticks = [plain(n if len(n) <= _TICK_CHARS else f"{n[:8]}…{n[-(_TICK_CHARS - 9):]}") for n in names]
    many = len(names) > 12
    x_ticks = dict(tickangle=-90, tickfont=dict(size=10)) if many else dict(tickangle=-45)
    fig = make_subplots(rows=1, cols=2, subplot_titles=("True labels", "Predicted labels"), horizontal_spacing=0.14)
    for col, (name, m) in enumerate(mats.items(), start=1):
        diag = np.diag(m)
        with np.errstate(invalid="ignore", divide="ignore"):
            share = np.where(diag[:, None] > 0, m / np.where(diag[:, None] > 0, diag[:, None], 1.0), np.nan)
        text = [[f"{int(round(v)):,}" for v in row] for row in m] if len(names) <= _ANNOTATED else None
        full = [plain(n) for n in names]
        fig.add_traces(cell_traces(
            m, colorscale=HEATMAP_SCALE, zmin=0.0, zmax=top, x_labels=full, y_labels=full, text=text,
            text_size=TICK_SIZE, values=(np.round(m).astype(np.int64), np.nan_to_num(share)),
            hovertemplate=("%{customdata[0]} and %{customdata[1]}: %{customdata[2]:,} samples "
                           f"({name}; %{{customdata[3]:.0%}} of those with %{{customdata[0]}})<extra></extra>"),
            showscale=col == 2, name=name,
            colorbar=dict(title=dict(text="Samples", side="right"), thickness=14, tickformat=",d")),
            rows=1, cols=col)
        fig.update_xaxes(**cell_axis(ticks), row=1, col=col, **x_ticks)
        fig.update_yaxes(**cell_axis(ticks, reverse=True), row=1, col=col, showticklabels=col == 1)
    fig.update_layout(template=TEMPLATE, title=plain(title),
                      height=max(HEIGHT, 200 + 22 * len(names)))
    return cell_layout(fig)
