"""Clustering charts: the contingency heatmap, cluster sizes, the silhouette plot, the 2-D projection of the features
and the agreement between clusterings.

Everything drawn comes computed from :mod:`assess.metrics.clustering` (:class:`~assess.metrics.clustering.
ClusterView`, :func:`~assess.metrics.clustering.pairwise_agreement`): the table already ordered so the matched
class–cluster pairs sit on the diagonal, the silhouettes and projected points already sampled to at most
:data:`~assess.metrics.clustering.DRAWN_ROWS` rows. Class, cluster and model names are plain text
(`assess.present.charts.style.plain`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from assess.core.formatting import proportion
from assess.present.charts.cells import cell_axis, cell_layout, cell_traces
from assess.present.charts.style import (FONT_SIZE, HEATMAP_SCALE, HEIGHT, OKABE_ITO, REFERENCE_COLOR, TEMPLATE, TICK_SIZE,
                                 plain)

_MAX_ANNOTATED = 20     # above this many rows or columns, cells carry no text (hover only)
#: Most clusters drawn in the heatmap and the size chart (the largest); the rest are summed into one column.
MAX_DRAWN_CLUSTERS = 60
#: A diverging scale for agreement (−0.5 … 1): white at 0.
AGREEMENT_SCALE = [[0.0, "#D55E00"], [1 / 3, "#FFFFFF"], [1.0, "#0072B2"]]


def _layout(fig: go.Figure, title: str, subtitle: str | None = None, **kw) -> go.Figure:
    fig.update_layout(template=TEMPLATE, title=dict(text=plain(title),
                                                    subtitle=dict(text=plain(subtitle) if subtitle else None)), **kw)
    return fig


def _palette(names: Sequence[str]) -> dict[str, str]:
    return {name: OKABE_ITO[i % len(OKABE_ITO)] for i, name in enumerate(dict.fromkeys(names))}


def contingency_chart(*, table, classes: Sequence[str], clusters: Sequence[str], title: str = "Classes × clusters",
                      subtitle: str | None = None) -> go.Figure:
    """Heatmap of the contingency table: reference classes down, clusters across, in the given order (matched pairs
    on the diagonal, see :func:`assess.metrics.clustering.matching`); each cell the count and its share of the
    cluster (the colour), so a pure cluster is one dark cell in its column. Past :data:`MAX_DRAWN_CLUSTERS`
    clusters the smallest are summed into one column "other clusters"."""
    t = np.asarray(table, dtype=np.float64)
    if t.ndim != 2 or t.shape != (len(classes), len(clusters)):
        raise ValueError(f"`table` must be {len(classes)} × {len(clusters)} (got shape {t.shape})")
    names = [plain(c) for c in clusters]
    if t.shape[1] > MAX_DRAWN_CLUSTERS:
        keep = np.sort(np.argsort(-t.sum(axis=0), kind="stable")[:MAX_DRAWN_CLUSTERS - 1])
        rest = np.setdiff1d(np.arange(t.shape[1]), keep)
        names = [names[j] for j in keep] + [f"{rest.size:,} other clusters"]
        t = np.column_stack([t[:, keep], t[:, rest].sum(axis=1)])
        subtitle = " · ".join(x for x in (subtitle, f"the {MAX_DRAWN_CLUSTERS - 1} largest clusters of "
                                                    f"{len(clusters):,}") if x)
    rows = [plain(c) for c in classes]
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.nan_to_num(t / t.sum(axis=0, keepdims=True))
    big = max(t.shape) > _MAX_ANNOTATED
    text = [[f"{t[i, j]:,.0f}<br>{share[i, j]:.0%}" for j in range(t.shape[1])] for i in range(t.shape[0])]
    fig = go.Figure(cell_traces(
        share, colorscale=HEATMAP_SCALE, zmin=0.0, zmax=1.0, x_labels=names, y_labels=rows,
        text=None if big else text, text_size=FONT_SIZE if max(t.shape) <= 6 else TICK_SIZE, values=(t, share),
        hovertemplate="Class: %{customdata[0]}<br>Cluster: %{customdata[1]}<br>Rows: %{customdata[2]:,}<br>"
                      "Share of the cluster: %{customdata[3]:.1%}<extra></extra>", showscale=True,
        colorbar=dict(title=dict(text="Share of the cluster", side="right"), tickformat=".0%", thickness=14)))
    _layout(fig, title, subtitle, height=max(HEIGHT, min(1400, 150 + 40 * t.shape[0])),
            xaxis=cell_axis(names, title="Cluster"), yaxis=cell_axis(rows, title="Reference class", reverse=True))
    return cell_layout(fig)


def cluster_sizes_chart(*, sizes: Mapping[str, Mapping[str, float]], colors: Mapping[str, str] | None = None,
                        title: str = "Cluster sizes") -> go.Figure:
    """Rows per cluster, one bar group per clustering (``sizes``: {model: {cluster: rows}}), largest first within
    each model; past :data:`MAX_DRAWN_CLUSTERS` clusters the smallest are summed into one bar."""
    colors = dict(colors or _palette(list(sizes)))
    fig = go.Figure()
    for model, by_cluster in sizes.items():
        items = sorted(by_cluster.items(), key=lambda kv: -kv[1])
        if len(items) > MAX_DRAWN_CLUSTERS:
            rest = items[MAX_DRAWN_CLUSTERS - 1:]
            items = items[:MAX_DRAWN_CLUSTERS - 1] + [(f"{len(rest):,} others", sum(v for _, v in rest))]
        fig.add_trace(go.Bar(x=[f"{i + 1}" for i in range(len(items))], y=[v for _, v in items],
                             name=plain(model), marker_color=colors.get(model, OKABE_ITO[0]),
                             customdata=[plain(c) for c, _ in items],
                             hovertemplate=f"{plain(model)}<br>Cluster %{{customdata}}: %{{y:,}} rows<extra></extra>"))
    _layout(fig, title, "clusters ranked by size within each clustering", barmode="group",
            legend=dict(orientation="h", yanchor="top", y=-0.2, xanchor="left", x=0.0), margin=dict(b=110))
    fig.update_xaxes(title="Cluster rank (1 = largest)", type="category")
    fig.update_yaxes(title="Rows", rangemode="tozero")
    return fig


def silhouette_chart(*, silhouettes, labels: Sequence[str], mean: float, title: str = "Silhouette plot",
                     subtitle: str | None = None) -> go.Figure:
    """Rousseeuw's silhouette plot: each row's silhouette as a horizontal bar, sorted within its cluster (clusters
    stacked one above the other, largest first, each in its colour), and a dashed line at the mean silhouette."""
    s = np.asarray(silhouettes, dtype=np.float64)
    labels = np.asarray(labels, dtype=object)
    if s.shape != labels.shape:
        raise ValueError(f"`silhouettes` ({s.size}) and `labels` ({labels.size}) must have one entry per row")
    names, counts = np.unique(labels.astype(str), return_counts=True)
    order = [names[i] for i in np.argsort(-counts, kind="stable")]
    colors = _palette(order)
    fig = go.Figure()
    y0 = 0
    gap = max(2, s.size // 50)
    for name in order:
        values = np.sort(s[labels.astype(str) == name])[::-1]
        y = np.arange(y0, y0 + values.size)
        fig.add_trace(go.Bar(x=values, y=y, orientation="h", name=f"cluster {plain(name)} (mean {values.mean():.2f})",
                             marker=dict(color=colors[name], line=dict(width=0)), width=1.0,
                             hovertemplate=f"Cluster {plain(name)}<br>Silhouette: %{{x:.3f}}<extra></extra>"))
        y0 += values.size + gap
    fig.add_vline(x=mean, line=dict(color=REFERENCE_COLOR, dash="dash"),
                  annotation_text=f"mean {mean:.3f}", annotation_position="top")
    _layout(fig, title, subtitle, bargap=0, showlegend=True,
            legend=dict(orientation="h", yanchor="top", y=-0.2, xanchor="left", x=0.0), margin=dict(b=110))
    fig.update_xaxes(title="Silhouette (−1 wrong cluster … 1 compact and separated)", range=[min(-0.1, s.min()), 1])
    fig.update_yaxes(title="Rows, sorted within each cluster", showticklabels=False, autorange="reversed")
    return fig


def projection_chart(*, points, groups: Sequence[str], explained=None, title: str = "Features in two dimensions",
                     legend_title: str = "Cluster", subtitle: str | None = None) -> go.Figure:
    """The rows projected on the first two principal components of the features, one colour per group (cluster or
    reference class); ``explained`` the share of variance of each component, shown in the axis titles."""
    p = np.asarray(points, dtype=np.float64)
    groups = np.asarray(groups, dtype=object).astype(str)
    if p.ndim != 2 or p.shape[1] != 2 or p.shape[0] != groups.size:
        raise ValueError(f"`points` must be (n, 2) with one group per row (got {p.shape}, {groups.size} groups)")
    names = sorted(set(groups))
    colors = _palette(names)
    fig = go.Figure()
    for name in names:
        rows = groups == name
        fig.add_trace(go.Scatter(x=p[rows, 0], y=p[rows, 1], mode="markers", name=plain(name),
                                   marker=dict(color=colors[name], size=6, opacity=0.7, line=dict(width=0)),
                                   hovertemplate=f"{plain(legend_title)} {plain(name)}<extra></extra>"))
    _layout(fig, title, subtitle, legend=dict(title=dict(text=plain(legend_title)), orientation="h", yanchor="top",
                                              y=-0.2, xanchor="left", x=0.0), margin=dict(b=110))
    ex = explained or (np.nan, np.nan)
    fig.update_xaxes(title="First principal component" + (f" ({ex[0]:.0%} of the variance)" if np.isfinite(ex[0])
                                                          else ""))
    fig.update_yaxes(title="Second principal component" + (f" ({ex[1]:.0%} of the variance)" if np.isfinite(ex[1])
                                                           else ""))
    return fig


def agreement_chart(*, models: Sequence[str], matrix, title: str = "Agreement between clusterings (ARI)"
                    ) -> go.Figure:
    """Pairwise adjusted Rand index between clusterings as annotated vector cells (1 on the diagonal; 0 is chance)."""
    m = np.asarray(matrix, dtype=np.float64)
    names = [plain(x) for x in models]
    if m.shape != (len(names), len(names)):
        raise ValueError(f"`matrix` must be {len(names)} × {len(names)} (got {m.shape})")
    text = [[proportion(v, 2) for v in row] for row in m]
    fig = go.Figure(cell_traces(
        m, colorscale=AGREEMENT_SCALE, zmin=-0.5, zmax=1.0, x_labels=names, y_labels=names, text=text, values=(m,),
        hovertemplate="%{customdata[0]} and %{customdata[1]}: ARI %{customdata[2]:.3f}<extra></extra>",
        showscale=True, colorbar=dict(title=dict(text="ARI", side="right"), thickness=14)))
    _layout(fig, title, "1: identical; 0: as random partitions of the same sizes",   # fits 470 px
            height=max(HEIGHT, min(1000, 150 + 60 * len(names))),
            xaxis=cell_axis(names), yaxis=cell_axis(names, reverse=True))
    return cell_layout(fig)
