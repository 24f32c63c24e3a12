"""Threshold-curve charts: ROC, precision–recall, gain, lift, KS, calibration, score distribution, metric vs
threshold, one-vs-rest with averages, and per-fold curves with a mean and a band.

Inputs are the exact results of `assess.curves` (`CurveResult`, `CalibrationResult`, `ThresholdCounts`) and
`assess.metrics.threshold` (`ThresholdMetrics`); nothing here recomputes a metric. Areas in legends (AUC, AP) are
the ``area`` of the full curve. Curves are drawn from at most `points_per_curve` points picked by
`assess.present.charts.thinning.thin_curve` (≤ 2,000 per curve, ≤ ~6,000 per chart), which keeps the drawn line within
one grid cell of the exact curve whatever the row count.

Several models overlay as one trace each, coloured by ``colors`` (default `model_colors` of the names in the order
given; pages pass ``model_colors(all_models)`` so a model keeps its colour on every chart). Hover gives the
threshold and, when the ``counts`` the curve was made from are passed, TP/FP against the class totals. A marker at
``threshold`` shows the operating point, read off the full curve (the point of the lowest threshold >= the value,
as `assess.curves.operating_point`).

Series names (models, classes, labels), band labels and titles are plain text, drawn as written: each passes through
`assess.present.charts.style.plain` where it enters the figure, while lookups (colours, counts, bands) use the name as given.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from assess.core.formatting import percent_level, proportion
from assess.present.charts.style import (LABELS, OKABE_ITO, REFERENCE_COLOR, TEMPLATE, TICK_SIZE, legend_below,
                                         model_colors, plain, rgba, series_style)
from assess.present.charts.thinning import thin_curve
from assess.curves import CalibrationResult, CurveResult, ThresholdCounts
from assess.core.data import Task
from assess.metrics.registry import get
from assess.metrics.threshold import ThresholdMetrics

MAX_POINTS_PER_CURVE = 2000
CHART_POINT_BUDGET = 6000
BANDS = ("sd", "minmax")

_AXES = {  # kind -> (x title, y title, x as %, y as %)
    "roc": (LABELS["fpr"], LABELS["tpr"], True, True),
    "pr": (LABELS["recall"], LABELS["precision"], True, True),
    "gain": (LABELS["population"], LABELS["gain"], True, True),
    "lift": (LABELS["population"], LABELS["lift"], True, False),
}
_SHORT = {  # kind -> hover names of x and y
    "roc": ("FPR", "TPR"), "pr": ("Recall", "Precision"), "gain": ("Targeted", "Captured"),
    "lift": ("Targeted", "Lift"),
}
_Y_FORMAT = {True: ".1%", False: ".2f"}


@dataclass(frozen=True, eq=False)
class CurveBand:
    """An uncertainty band around a curve: ``low[i]``..``high[i]`` at ``x[i]`` (e.g. a bootstrap 95 % band of the
    TPR on an FPR grid). Computed elsewhere; drawn as a shaded area in the curve's colour."""

    x: np.ndarray
    low: np.ndarray
    high: np.ndarray
    label: str = "95% CI"

    def __post_init__(self):
        shapes = {np.shape(self.x), np.shape(self.low), np.shape(self.high)}
        if len(shapes) != 1 or len(np.shape(self.x)) != 1:
            raise ValueError(f"band `x`, `low` and `high` must be 1-D of one length (got shapes "
                             f"{np.shape(self.x)}, {np.shape(self.low)}, {np.shape(self.high)})")


def points_per_curve(n_curves: int) -> int:
    """Drawing budget of each of ``n_curves`` curves on one chart: 2,000, less when many share a chart.

    >>> points_per_curve(1), points_per_curve(3), points_per_curve(10), points_per_curve(40)
    (2000, 2000, 600, 400)
    """
    return int(min(MAX_POINTS_PER_CURVE, max(400, CHART_POINT_BUDGET // max(1, n_curves))))


def drawn_indices(x, y, *, max_points: int = MAX_POINTS_PER_CURVE) -> np.ndarray:
    """Indices of the points a chart draws: `thin_curve` over the finite points (NaN points are not drawn)."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    finite = np.isfinite(x) & np.isfinite(y)
    if finite.all():
        return thin_curve(x, y, max_points=max_points)
    keep = np.flatnonzero(finite)
    if keep.shape[0] == 0:
        return keep
    return keep[thin_curve(x[keep], y[keep], max_points=max_points)]


# ----------------------------------------------------------------------------------------------------- helpers --

def _check_curves(curves, kinds: tuple[str, ...], name: str = "curves") -> dict[str, CurveResult]:
    if not isinstance(curves, Mapping) or not curves:
        raise TypeError(f"`{name}` must be a non-empty mapping of series name -> CurveResult "
                        f"(got {type(curves).__name__})")
    out = {}
    for key, curve in curves.items():
        if not isinstance(curve, CurveResult):
            raise TypeError(f"`{name}[{key!r}]` must be a CurveResult (got {type(curve).__name__})")
        if curve.kind not in kinds:
            raise ValueError(f"`{name}[{key!r}]` is a {curve.kind!r} curve; this chart draws {' or '.join(kinds)}")
        out[str(key)] = curve
    return out


def _colors_for(names: Sequence[str], colors: Mapping[str, str] | None) -> Mapping[str, str]:
    return model_colors([n for n in names]) if colors is None else colors


def _budget(max_points: int | None, n_curves: int) -> int:
    if max_points is None:
        return points_per_curve(n_curves)
    if isinstance(max_points, bool) or not isinstance(max_points, (int, np.integer)) or max_points < 4:
        raise ValueError(f"`max_points` must be an integer >= 4 (got {max_points!r})")
    return int(max_points)


def _aligned_counts(name: str, curve: CurveResult, counts: Mapping[str, ThresholdCounts] | None):
    """(tps, fps, offset, n_pos, n_neg) for the curve's points: point k has counts index k - offset (offset 1 when
    the curve starts with the nothing-predicted point at +inf, whose counts are 0), or None without counts.
    Nothing is copied: `_customdata` gathers only the drawn points."""
    if counts is None or name not in counts:
        return None
    c = counts[name]
    if not isinstance(c, ThresholdCounts):
        raise TypeError(f"`counts[{name!r}]` must be ThresholdCounts (got {type(c).__name__})")
    offset = 1 if curve.thresholds.shape[0] and np.isposinf(curve.thresholds[0]) else 0
    if len(curve) != len(c) + offset:
        raise ValueError(f"`counts[{name!r}]` has {len(c)} thresholds but its curve has {len(curve)} points: "
                         "pass the counts the curve was made from")
    return c.tps, c.fps, offset, c.n_pos, c.n_neg


def _hover(kind: str, with_counts: tuple | None, x_pct: bool, y_pct: bool) -> str:
    xs, ys = _SHORT[kind]
    text = (f"Threshold %{{customdata[0]:.4g}}<br>{xs} %{{x:{_Y_FORMAT[x_pct]}}} · "
            f"{ys} %{{y:{_Y_FORMAT[y_pct]}}}")
    if with_counts is not None:
        n_pos, n_neg = with_counts[3], with_counts[4]
        text += (f"<br>TP %{{customdata[1]:,.0f}} of {n_pos:,.0f} positives"
                 f"<br>FP %{{customdata[2]:,.0f}} of {n_neg:,.0f} negatives")
    return text


def _customdata(idx: np.ndarray, thresholds: np.ndarray, aligned) -> np.ndarray:
    # float32 keeps hover data at half the bytes (~4 KB per 1,000 points); hover shows 4 significant digits
    columns = [thresholds[idx]]
    if aligned is not None:
        tps, fps, offset = aligned[0], aligned[1], aligned[2]
        j = idx - offset
        inside = j >= 0
        safe = np.maximum(j, 0)
        columns += [np.where(inside, tps[safe], 0.0), np.where(inside, fps[safe], 0.0)]
    return np.column_stack(columns).astype(np.float32)


def _legend_name(name: str, curve: CurveResult, ci, confidence_level: float) -> str:
    if curve.area is None:
        return plain(name)
    text = f"{plain(name)} ({curve.area_label} {proportion(curve.area)}"
    if ci is not None:
        low, high = (ci.low, ci.high) if hasattr(ci, "low") else ci
        text += f", {percent_level(confidence_level)} CI {proportion(low)}–{proportion(high)}"
    return text + ")"


def _operating_index(curve: CurveResult, threshold: float) -> int | None:
    """Index of the point at ``threshold``: the lowest curve threshold >= it (the +inf point if none)."""
    at_or_above = int(np.count_nonzero(curve.thresholds >= threshold))
    return at_or_above - 1 if at_or_above else None


def _threshold_for(threshold, name: str) -> float | None:
    if threshold is None:
        return None
    if isinstance(threshold, Mapping):
        return None if threshold.get(name) is None else float(threshold[name])
    return float(threshold)


def _band_trace(band: CurveBand, color: str, group: str, max_points: int) -> go.Scatter:
    x, low, high = (np.asarray(a, dtype=np.float64) for a in (band.x, band.low, band.high))
    idx = np.union1d(drawn_indices(x, low, max_points=max_points // 2),
                     drawn_indices(x, high, max_points=max_points // 2))
    return go.Scatter(x=np.concatenate([x[idx], x[idx][::-1]]), y=np.concatenate([high[idx], low[idx][::-1]]),
                      fill="toself", fillcolor=rgba(color, 0.18), line=dict(width=0), mode="lines",
                      name=f"{plain(group)}: {plain(band.label)}", legendgroup=plain(group), hoverinfo="skip")


def _upper_hull(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Upper convex hull (monotone chain) of points sorted by x, with (0, 0) and (1, 1) added: the ROC convex hull."""
    pts = sorted(set(zip(np.concatenate(([0.0], x, [1.0])).tolist(), np.concatenate(([0.0], y, [1.0])).tolist())))
    hull: list[tuple[float, float]] = []
    for p in pts:
        while len(hull) >= 2 and ((hull[-1][0] - hull[-2][0]) * (p[1] - hull[-2][1])
                                  - (hull[-1][1] - hull[-2][1]) * (p[0] - hull[-2][0])) >= 0:
            hull.pop()
        hull.append(p)
    hx, hy = zip(*hull)
    return np.array(hx), np.array(hy)


def _reference(fig: go.Figure, x, y, name: str, *, dash: str = "dash", showlegend: bool = True, **kwargs) -> None:
    fig.add_trace(go.Scatter(x=x, y=y, mode="lines", name=name, line=dict(color=REFERENCE_COLOR, dash=dash, width=1.5),
                             hoverinfo="skip", showlegend=showlegend, **kwargs))


def _axes(fig: go.Figure, kind: str, *, row=None, col=None) -> None:
    x_title, y_title, x_pct, y_pct = _AXES[kind]
    fig.update_xaxes(title=x_title, tickformat=".0%" if x_pct else None, range=[-0.01, 1.01] if x_pct else None,
                     row=row, col=col)
    fig.update_yaxes(title=y_title, tickformat=".0%" if y_pct else None,
                     range=[-0.01, 1.01] if y_pct else None, rangemode="tozero", row=row, col=col)


def _curve_traces(fig, *, kind, curves, counts, colors, threshold, max_points, cis=None, confidence_level=0.95,
                  bands=None, hull=False, drawn=None) -> None:
    budget = _budget(max_points, len(curves))
    x_pct, y_pct = _AXES[kind][2], _AXES[kind][3]
    marker_legend = False
    for name, curve in curves.items():
        color, dash = series_style(name, colors)
        if bands and name in bands:
            fig.add_trace(_band_trace(bands[name], color, name, budget))
        idx = drawn[name] if drawn and name in drawn else drawn_indices(curve.x, curve.y, max_points=budget)
        aligned = _aligned_counts(name, curve, counts)
        fig.add_trace(go.Scatter(
            x=curve.x[idx], y=curve.y[idx], mode="lines", name=_legend_name(name, curve, (cis or {}).get(name),
                                                                              confidence_level),
            legendgroup=plain(name), line=dict(color=color, dash=dash, width=2.5 if dash == "solid" else 2),
            customdata=_customdata(idx, curve.thresholds, aligned), hovertemplate=_hover(kind, aligned, x_pct, y_pct),
        ))
        if hull and idx.shape[0]:
            hx, hy = _upper_hull(curve.x[idx], curve.y[idx])
            fig.add_trace(go.Scatter(x=hx, y=hy, mode="lines", name=f"{plain(name)}: convex hull",
                                     legendgroup=plain(name),
                                     line=dict(color=color, dash="dot", width=1.5), hoverinfo="skip"))
        t = _threshold_for(threshold, name)
        k = None if t is None else _operating_index(curve, t)
        if k is not None and np.isfinite(curve.x[k]) and np.isfinite(curve.y[k]):
            marker_legend = True
            kx = np.array([k])
            fig.add_trace(go.Scatter(
                x=[curve.x[k]], y=[curve.y[k]], mode="markers", name=f"{plain(name)} at threshold {t:g}",
                legendgroup=plain(name), showlegend=False,
                marker=dict(color=color, size=12, symbol="circle", line=dict(color="#FFFFFF", width=2)),
                customdata=_customdata(kx, curve.thresholds, aligned).astype(np.float64),
                hovertemplate=(f"<b>{plain(name)} at threshold {t:g}</b><br>" + _hover(kind, aligned, x_pct, y_pct)
                               + "<extra></extra>"),
            ))
    if marker_legend:
        label = (f"Operating point (threshold {float(threshold):g})" if not isinstance(threshold, Mapping)
                 else "Operating points")
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=label,
                                 marker=dict(color="#444444", size=11, line=dict(color="#FFFFFF", width=2))))


def with_threshold_line(fig: go.Figure, threshold: float) -> go.Figure:
    """A copy of ``fig`` with the decision threshold as a dashed vertical line: lets a caller build a chart whose
    data do not depend on the threshold once and mark each new threshold cheaply."""
    out = go.Figure(fig)
    out.add_vline(x=float(threshold), line=dict(color="#222222", dash="dash", width=1.5),
                  annotation=dict(text=f"Threshold {float(threshold):g}", yanchor="bottom"))
    return out


def _new_figure(kind: str, title: str) -> go.Figure:
    fig = go.Figure()
    fig.update_layout(template=TEMPLATE, title=plain(title), hovermode="closest")
    _axes(fig, kind)
    return fig


# ------------------------------------------------------------------------------------------------ public charts --

def roc_chart(
    *,
    curves: Mapping[str, CurveResult],
    counts: Mapping[str, ThresholdCounts] | None = None,
    colors: Mapping[str, str] | None = None,
    threshold: float | Mapping[str, float] | None = None,
    auc_ci: Mapping[str, object] | None = None,
    confidence_level: float = 0.95,
    bands: Mapping[str, CurveBand] | None = None,
    hull: bool = False,
    max_points: int | None = None,
    drawn: Mapping[str, np.ndarray] | None = None,
    title: str = "ROC curve",
) -> go.Figure:
    """ROC curves (``roc_curve`` results by series name) with the chance diagonal.

    Legends give each curve's full-data AUC and, from ``auc_ci`` (objects with ``low``/``high`` or pairs), its
    interval. ``threshold`` (one value, or one per series) marks the operating point; ``bands`` shades a band per
    series; ``hull=True`` adds each curve's ROC convex hull (of the drawn points, dotted). The "micro-average" and
    "macro-average" series are drawn black, dotted and dashed.
    ``drawn`` (optional, by series name) gives the indices to draw, from `drawn_indices`, for a caller that redraws
    the same curves often (the threshold explorer): thinning is then not repeated. Indices point into the full
    curve, so hover counts stay exact.
    """
    named = _check_curves(curves, ("roc",))
    fig = _new_figure("roc", title)
    _reference(fig, [0, 1], [0, 1], "Chance (AUC 0.5)")
    _curve_traces(fig, kind="roc", curves=named, counts=counts, colors=_colors_for(list(named), colors),
                  threshold=threshold, max_points=max_points, cis=auc_ci, confidence_level=confidence_level,
                  bands=bands, hull=hull,
                  drawn=drawn)
    return legend_below(fig)


def _iso_f1(fig: go.Figure, levels: Sequence[float]) -> None:
    for i, f in enumerate(levels):
        r = np.linspace(f / (2 - f), 1, 60)
        p = f * r / (2 * r - f)
        _reference(fig, r, p, "Iso-F1 curves", dash="dot", showlegend=i == 0, legendgroup="iso-f1")
        fig.add_annotation(x=1.0, y=float(p[-1]), text=f"F1={f:g}", showarrow=False, xanchor="left",
                           font=dict(size=TICK_SIZE - 1, color=REFERENCE_COLOR))


def pr_chart(
    *,
    curves: Mapping[str, CurveResult],
    counts: Mapping[str, ThresholdCounts] | None = None,
    colors: Mapping[str, str] | None = None,
    threshold: float | Mapping[str, float] | None = None,
    ap_ci: Mapping[str, object] | None = None,
    confidence_level: float = 0.95,
    bands: Mapping[str, CurveBand] | None = None,
    iso_f1: Sequence[float] = (0.2, 0.4, 0.6, 0.8),
    max_points: int | None = None,
    drawn: Mapping[str, np.ndarray] | None = None,
    title: str = "Precision–recall curve",
) -> go.Figure:
    """Precision–recall curves (``pr_curve`` results) with the prevalence baseline and iso-F1 curves.

    Legends give each curve's full-data average precision (AP). The baseline is each curve's ``baseline`` (the
    prevalence: a chance model's precision), drawn once per distinct value (more than two share one legend entry).
    """
    named = _check_curves(curves, ("pr",))
    fig = _new_figure("pr", title)
    if iso_f1:
        _iso_f1(fig, iso_f1)
    # One legend entry for the no-skill lines however many classes (one-vs-rest) have their own prevalence.
    bases = sorted({c.baseline for c in named.values() if c.baseline is not None and np.isfinite(c.baseline)})
    for i, base in enumerate(bases):
        label = f"No skill (prevalence {base:.1%})" if len(bases) == 1 else "No skill (each curve's prevalence)"
        _reference(fig, [0, 1], [base, base], label, showlegend=i == 0, legendgroup="no-skill")
    _curve_traces(fig, kind="pr", curves=named, counts=counts, colors=_colors_for(list(named), colors),
                  threshold=threshold, max_points=max_points, cis=ap_ci, confidence_level=confidence_level, bands=bands,
                  drawn=drawn)
    fig.update_layout(margin=dict(r=70))
    return legend_below(fig)


def gain_chart(
    *,
    curves: Mapping[str, CurveResult],
    counts: Mapping[str, ThresholdCounts] | None = None,
    colors: Mapping[str, str] | None = None,
    threshold: float | Mapping[str, float] | None = None,
    prevalence: float | None = None,
    bands: Mapping[str, CurveBand] | None = None,
    max_points: int | None = None,
    drawn: Mapping[str, np.ndarray] | None = None,
    title: str = "Cumulative gain",
) -> go.Figure:
    """Cumulative response / gain curves (ISO 4213 6.3.8) with the random diagonal and the perfect model.

    The perfect model reaches 100 % at x = ``prevalence`` (default: from the first series' ``counts``; without
    either, no perfect line). ``bands`` shades a band per series.
    """
    named = _check_curves(curves, ("gain",))
    fig = _new_figure("gain", title)
    if prevalence is None and counts:
        prevalence = next(iter(counts.values())).prevalence
    _reference(fig, [0, 1], [0, 1], "Random targeting")
    if prevalence is not None and np.isfinite(prevalence):
        _reference(fig, [0, prevalence, 1], [0, 1, 1], f"Perfect model (prevalence {prevalence:.1%})", dash="dot")
    _curve_traces(fig, kind="gain", curves=named, counts=counts, colors=_colors_for(list(named), colors),
                  threshold=threshold, max_points=max_points, bands=bands, drawn=drawn)
    return legend_below(fig)


def lift_chart(
    *,
    curves: Mapping[str, CurveResult],
    counts: Mapping[str, ThresholdCounts] | None = None,
    colors: Mapping[str, str] | None = None,
    threshold: float | Mapping[str, float] | None = None,
    bands: Mapping[str, CurveBand] | None = None,
    max_points: int | None = None,
    drawn: Mapping[str, np.ndarray] | None = None,
    title: str = "Lift",
) -> go.Figure:
    """Lift curves (ISO 4213 6.3.9) with the random baseline at 1; ``bands`` shades a band per series."""
    named = _check_curves(curves, ("lift",))
    fig = _new_figure("lift", title)
    _reference(fig, [0, 1], [1, 1], "Random targeting (lift 1)")
    _curve_traces(fig, kind="lift", curves=named, counts=counts, colors=_colors_for(list(named), colors),
                  threshold=threshold, max_points=max_points, bands=bands, drawn=drawn)
    return legend_below(fig)


def ks_chart(
    *,
    curves: Mapping[str, CurveResult],
    colors: Mapping[str, str] | None = None,
    max_points: int | None = None,
    title: str = "Kolmogorov–Smirnov: how far apart the classes score",
) -> go.Figure:
    """KS chart (``ks_curve`` results): share of positives (solid) and of negatives (dashed) scoring at or above each
    threshold, and the largest gap (the KS statistic) marked as a vertical bar at its threshold."""
    named = _check_curves(curves, ("ks",))
    colors = _colors_for(list(named), colors)
    budget = _budget(max_points, 2 * len(named))
    fig = go.Figure()
    fig.update_layout(template=TEMPLATE, title=plain(title), hovermode="closest")
    fig.update_xaxes(title=LABELS["threshold"])
    fig.update_yaxes(title="Share of class scoring ≥ threshold (%)", tickformat=".0%", range=[-0.01, 1.01])
    for name, curve in named.items():
        color, _ = series_style(name, colors)
        x, tpr, fpr = curve.x, curve.y, curve.y2
        half = max(4, (budget - 1) // 2)
        idx = np.union1d(drawn_indices(x, tpr, max_points=half), drawn_indices(x, fpr, max_points=half))
        if curve.best_index is not None:
            idx = np.union1d(idx, [curve.best_index])
        hover = "Threshold %{x:.4g}<br>%{y:.1%} of the class scores at or above it"
        shown = plain(name)
        fig.add_trace(go.Scatter(x=x[idx], y=tpr[idx], mode="lines", name=f"{shown}: positives (TPR)",
                                 legendgroup=plain(name), line=dict(color=color, width=2.5), hovertemplate=hover))
        fig.add_trace(go.Scatter(x=x[idx], y=fpr[idx], mode="lines", name=f"{shown}: negatives (FPR)",
                                 legendgroup=plain(name), line=dict(color=color, width=2.5, dash="dash"),
                                 hovertemplate=hover))
        if curve.best_index is not None:
            b = curve.best_index
            fig.add_trace(go.Scatter(
                x=[x[b], x[b]], y=[fpr[b], tpr[b]], mode="lines+markers", legendgroup=plain(name),
                name=f"{shown}: KS {proportion(curve.statistic)} at threshold {proportion(x[b])}",
                line=dict(color=color, width=4), marker=dict(color=color, size=8, symbol="line-ew-open"),
                hovertemplate=f"KS = {proportion(curve.statistic)}<br>Threshold {x[b]:.4g}<extra></extra>"))
    return legend_below(fig)


def calibration_chart(
    *,
    curves: Mapping[str, CalibrationResult],
    colors: Mapping[str, str] | None = None,
    bands: Mapping[str, CurveBand] | None = None,
    histogram: bool = True,
    title: str = "Calibration (reliability)",
) -> go.Figure:
    """Reliability diagram: observed frequency against mean predicted probability per bin, one line per model, the
    diagonal of perfect calibration, each model's ECE in the subtitle and legend, and below it (``histogram``) the
    number of samples per bin. Empty bins are not drawn. ``bands`` (per model, one interval per bin, e.g.
    `assess.curves.calibration_band`) draws each bin's interval as an error bar, named in the hover."""
    if not isinstance(curves, Mapping) or not curves:
        raise TypeError(f"`curves` must be a non-empty mapping of model name -> CalibrationResult "
                        f"(got {type(curves).__name__})")
    for key, c in curves.items():
        if not isinstance(c, CalibrationResult):
            raise TypeError(f"`curves[{key!r}]` must be a CalibrationResult (got {type(c).__name__})")
    names = [str(k) for k in curves]
    colors = _colors_for(names, colors)
    if histogram:
        fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.72, 0.28], vertical_spacing=0.06)
        rows = dict(row=1, col=1)
    else:
        fig, rows = go.Figure(), {}
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="Perfectly calibrated", hoverinfo="skip",
                             line=dict(color=REFERENCE_COLOR, dash="dash", width=1.5)), **rows)
    n_models = len(names)
    for i, (name, c) in enumerate(zip(names, curves.values())):
        color, dash = series_style(name, colors)
        filled = c.nonempty
        lows, highs = c.bin_edges[:-1][filled], c.bin_edges[1:][filled]
        y = c.observed_frequency[filled]
        band = (bands or {}).get(name)
        error_y, extra = None, ""
        if band is not None:
            low, high = np.asarray(band.low)[filled], np.asarray(band.high)[filled]
            error_y = dict(type="data", array=high - y, arrayminus=y - low, color=color, thickness=1.5, width=4)
            extra = f"<br>{plain(band.label)} %{{customdata[3]:.1%}}–%{{customdata[4]:.1%}}"
            custom = np.column_stack([lows, highs, c.counts[filled], low, high])
        else:
            custom = np.column_stack([lows, highs, c.counts[filled]])
        fig.add_trace(go.Scatter(
            x=c.mean_predicted[filled], y=y, mode="lines+markers",
            name=f"{plain(name)} (ECE {proportion(c.ece)})", legendgroup=plain(name),
            line=dict(color=color, dash=dash, width=2.5), marker=dict(size=8, color=color), error_y=error_y,
            customdata=custom,
            hovertemplate=("Bin %{customdata[0]:.2f}–%{customdata[1]:.2f}<br>Predicted %{x:.1%} · "
                           "observed %{y:.1%}<br>%{customdata[2]:,.0f} samples" + extra),
        ), **rows)
        if histogram:
            widths = np.diff(c.bin_edges) / n_models
            fig.add_trace(go.Bar(
                x=c.bin_edges[:-1] + widths * (i + 0.5), y=c.counts, width=widths,
                name=f"{plain(name)}: samples per bin",
                legendgroup=plain(name), showlegend=False, marker=dict(color=color, line=dict(width=0)), opacity=0.8,
                hovertemplate="%{y:,.0f} samples<extra>" + plain(name) + "</extra>"), row=2, col=1)
    subtitle = ("ECE (expected calibration error): " + " · ".join(
        f"{plain(n)} {proportion(c.ece)}" for n, c in zip(names, curves.values()))
        if len(names) == 1 else "ECE: expected calibration error (in the legend)")
    if bands:   # said in the legend, which wraps, where a longer subtitle would be cut at the chart's edge
        what = plain(next(iter(bands.values())).label)
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=f"Bars: {what}",
                                 marker=dict(symbol="line-ns-open", size=14, color="#444444", line=dict(width=2))),
                      **rows)
    fig.update_layout(template=TEMPLATE, hovermode="closest",
                      title=dict(text=plain(title), subtitle=dict(text=subtitle)))
    fig.update_xaxes(range=[-0.01, 1.01], tickformat=".0%")
    fig.update_yaxes(title=LABELS["observed_frequency"], range=[-0.01, 1.01], tickformat=".0%", **rows)
    if histogram:
        fig.update_xaxes(title=LABELS["predicted_probability"], row=2, col=1)
        fig.update_yaxes(title="Samples per bin", rangemode="tozero", row=2, col=1)
        fig.update_layout(height=600, bargap=0)
    else:
        fig.update_xaxes(title=LABELS["predicted_probability"])
    return legend_below(fig)


def score_distribution_chart(
    *,
    scores_by_class: Mapping[str, np.ndarray],
    colors: Mapping[str, str] | None = None,
    bins: int = 40,
    share: bool = True,
    threshold: float | None = None,
    title: str = "Score distribution by class",
) -> go.Figure:
    """Overlaid histograms of the scores of each true class, on one set of ``bins`` equal-width bins.

    With ``share`` (default) each class's bars are the share of that class (%), so a rare class stays visible;
    otherwise counts. Only the bin counts reach the browser (``bins`` bars per class), whatever the row count.
    ``threshold`` draws the decision threshold.
    """
    if not isinstance(scores_by_class, Mapping) or not scores_by_class:
        raise TypeError("`scores_by_class` must be a non-empty mapping of class name -> score array")
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins < 1:
        raise ValueError(f"`bins` must be an integer >= 1 (got {bins!r})")
    arrays = {str(k): np.asarray(v, dtype=np.float64).ravel() for k, v in scores_by_class.items()}
    for k, v in arrays.items():
        if not np.isfinite(v).all():
            raise ValueError(f"scores of class {k!r} have {int((~np.isfinite(v)).sum())} non-finite values")
    non_empty = [v for v in arrays.values() if v.size]
    if not non_empty:
        raise ValueError("`scores_by_class` holds no scores (every class is empty)")
    lo, hi = min(v.min() for v in non_empty), max(v.max() for v in non_empty)
    if lo >= 0 and hi <= 1:
        lo, hi = 0.0, 1.0  # probabilities: the whole [0, 1] range, comparable across charts
    elif hi <= lo:
        lo, hi = lo - 0.5, hi + 0.5
    edges = np.linspace(lo, hi, bins + 1)
    colors = _colors_for(list(arrays), colors)
    fig = go.Figure()
    for name, values in arrays.items():
        color, _ = series_style(name, colors)
        counts, _ = np.histogram(values, bins=edges)
        y = counts / max(values.size, 1) if share else counts
        fig.add_trace(go.Bar(
            x=(edges[:-1] + edges[1:]) / 2, y=y, width=np.diff(edges), name=f"{plain(name)} (n = {values.size:,})",
            marker=dict(color=color, line=dict(width=0)), opacity=0.55,
            customdata=np.column_stack([edges[:-1], edges[1:], counts]),
            hovertemplate=(f"{plain(name)}<br>Score %{{customdata[0]:.3g}}–%{{customdata[1]:.3g}}<br>"
                           "%{customdata[2]:,} samples" + (" (%{y:.1%} of class)" if share else "")
                           + "<extra></extra>")))
    fig.update_layout(template=TEMPLATE, title=plain(title), barmode="overlay", bargap=0)
    fig.update_xaxes(title=LABELS["score"])
    fig.update_yaxes(title="Share of class (%)" if share else LABELS["count"], tickformat=".0%" if share else None,
                     rangemode="tozero")
    legend_below(fig)
    return fig if threshold is None else with_threshold_line(fig, threshold)


def metric_threshold_chart(
    *,
    metrics: ThresholdMetrics,
    names: Sequence[str] | None = None,
    threshold: float | None = None,
    max_points: int | None = None,
    title: str = "Metrics by threshold",
) -> go.Figure:
    """Several metrics (a ``metric_vs_threshold`` result) against the threshold, the current ``threshold`` as a
    vertical line, named as the registry names them. Counts (registry kind "count": tp, fp, tn, fn) are left out:
    they do not share the rates' axis. The y axis spans 0–1 (or −1–1) unless a drawn metric is unbounded."""
    if not isinstance(metrics, ThresholdMetrics):
        raise TypeError(f"`metrics` must be ThresholdMetrics from metric_vs_threshold() (got "
                        f"{type(metrics).__name__})")
    is_count = {n: get(Task.BINARY, n).kind == "count" for n in metrics.names}
    chosen = [n for n in metrics.names if not is_count[n]] if names is None else list(names)
    missing = [n for n in chosen if n not in metrics.names]
    if missing:
        raise ValueError(f"metrics {missing} were not computed (computed: {', '.join(metrics.names)})")
    counts_asked = [n for n in chosen if is_count[n]]
    if counts_asked:
        raise ValueError(f"counts {counts_asked} do not share a 0–1 axis with the rates; chart them separately")
    if not chosen:
        raise ValueError("no metric to draw: `metrics` holds only counts")
    budget = _budget(max_points, len(chosen))
    x = metrics.thresholds
    fig = go.Figure()
    for i, name in enumerate(chosen):
        y = metrics[name]
        idx = drawn_indices(x, y, max_points=budget)
        label = metrics.labels[metrics.names.index(name)]
        if name == "fbeta":
            label = f"{label} (β = {metrics.beta:g})"
        label = plain(label)
        fig.add_trace(go.Scatter(x=x[idx], y=y[idx], mode="lines", name=label,
                                 line=dict(color=OKABE_ITO[i % len(OKABE_ITO)], width=2.5),
                                 hovertemplate=f"{label} %{{y:.3f}}<br>Threshold %{{x:.4g}}<extra></extra>"))
    fig.update_layout(template=TEMPLATE, title=plain(title), hovermode="x unified")
    fig.update_xaxes(title=LABELS["threshold"])
    ranges = [metrics.ranges[metrics.names.index(n)] for n in chosen]
    if all(np.isfinite(high) for _, high in ranges):
        lowest = min((float(np.nanmin(metrics[n])) for n in chosen if np.isfinite(metrics[n]).any()), default=0.0)
        fig.update_yaxes(title="Metric value", range=[-0.02 if lowest >= 0 else -1.02, 1.02])
    else:  # a ratio without an upper bound (LR+, the diagnostic odds ratio): let the axis follow the data
        fig.update_yaxes(title="Metric value", rangemode="tozero")
    legend_below(fig)
    return fig if threshold is None else with_threshold_line(fig, threshold)


# ----------------------------------------------------------------------------------- averages across curves --

def _on_grid(curve: CurveResult, grid: np.ndarray) -> np.ndarray:
    """The curve's y at each grid x (x non-decreasing along the curve).

    PR: interpolated precision, the best precision at recall >= r (as in PASCAL VOC), a non-increasing step
    function. Other kinds: at a vertical run of points with one x the last point counts (the ROC's top), joined
    linearly to the next point.
    """
    x, y = np.asarray(curve.x, dtype=np.float64), np.asarray(curve.y, dtype=np.float64)
    finite = np.isfinite(x) & np.isfinite(y)
    x, y = x[finite], y[finite]
    if x.shape[0] == 0:
        return np.full(grid.shape, np.nan)
    if curve.kind == "pr":
        best_after = np.maximum.accumulate(y[::-1])[::-1]
        j = np.searchsorted(x, grid, side="left")
        return np.where(j < x.shape[0], best_after[np.minimum(j, x.shape[0] - 1)], 0.0)
    j = np.clip(np.searchsorted(x, grid, side="right") - 1, 0, x.shape[0] - 1)
    nxt = np.minimum(j + 1, x.shape[0] - 1)
    dx = x[nxt] - x[j]
    frac = np.divide(grid - x[j], dx, out=np.zeros_like(grid), where=dx > 0)
    return y[j] + np.clip(frac, 0, 1) * (y[nxt] - y[j])


def _from_origin(kind: str, grid: np.ndarray, *ys: np.ndarray) -> list[np.ndarray]:
    """ROC means start at (0, 0) like the curves: the grid's first value is the top of the rise at FPR 0."""
    if kind != "roc":
        return [grid, *ys]
    return [np.concatenate(([0.0], a)) for a in (grid, *ys)]


def _grid_for(kind: str, grid_points: int) -> np.ndarray:
    if isinstance(grid_points, bool) or not isinstance(grid_points, (int, np.integer)) or grid_points < 2:
        raise ValueError(f"`grid_points` must be an integer >= 2 (got {grid_points!r})")
    return np.linspace(0.0, 1.0, int(grid_points))


def _macro_average(per_class: Mapping[str, CurveResult], kind: str, grid_points: int):
    """(x, y) of the mean of ``per_class`` curves on ``grid_points`` equally spaced x values (PR: of their interpolated
    precision), a ROC from (0, 0); a class without a curve (NaN) is left out of the mean."""
    grid = _grid_for(kind, grid_points)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)       # a grid value where every class is NaN stays NaN
        mean_y = np.nanmean(np.vstack([_on_grid(c, grid) for c in per_class.values()]), axis=0)
    return _from_origin(kind, grid, mean_y)


def macro_overlay_chart(
    *,
    per_model: Mapping[str, Mapping[str, CurveResult]],
    areas: Mapping[str, float] | None = None,
    colors: Mapping[str, str] | None = None,
    grid_points: int = 201,
    title: str | None = None,
) -> go.Figure:
    """Several multi-class models' macro-average ROC (or PR) curves on one chart, each in its model's colour: the
    mean of the model's one-vs-rest curves on a common grid (as in `ovr_chart`), its legend quoting ``areas[model]``
    (the mean of the per-class areas, from `assess.metrics`) when given. PR: the no-skill line at the mean of the
    classes' prevalences (the macro-average's chance level)."""
    if not isinstance(per_model, Mapping) or not per_model:
        raise TypeError("`per_model` must be a non-empty mapping of model name -> {class: CurveResult}")
    named = {str(m): _check_curves(per, ("roc", "pr"), name=f"per_model[{m!r}]") for m, per in per_model.items()}
    kinds = {c.kind for per in named.values() for c in per.values()}
    if len(kinds) != 1:
        raise ValueError(f"`per_model` mixes curve kinds {sorted(kinds)}")
    kind = kinds.pop()
    area_label = "AUC" if kind == "roc" else "AP"
    fig = _new_figure(kind, title or f"{'ROC curve' if kind == 'roc' else 'Precision–recall'}, macro-average")
    if kind == "roc":
        _reference(fig, [0, 1], [0, 1], "Chance (AUC 0.5)")
    else:
        first = next(iter(named.values()))
        bases = [c.baseline for c in first.values() if c.baseline is not None and np.isfinite(c.baseline)]
        if bases:
            _reference(fig, [0, 1], [np.mean(bases)] * 2, f"No skill (mean prevalence {np.mean(bases):.1%})")
    colors = _colors_for(list(named), colors)
    for model, per in named.items():
        x, y = _macro_average(per, kind, grid_points)
        color, dash = series_style(model, colors)
        area = None if areas is None else areas.get(model)
        label = plain(model) + (f" (macro {area_label} {proportion(area)})" if area is not None else "")
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines", name=label, legendgroup=plain(model),
                                 line=dict(color=color, dash=dash, width=2.5),
                                 hovertemplate=(f"{plain(model)}<br>{_SHORT[kind][0]} %{{x:.1%}} · mean "
                                                f"{_SHORT[kind][1]} %{{y:.1%}}<extra></extra>")))
    return legend_below(fig)


def ovr_chart(
    *,
    per_class: Mapping[str, CurveResult],
    micro: CurveResult | None = None,
    macro_area: float | None = None,
    colors: Mapping[str, str] | None = None,
    grid_points: int = 201,
    max_points: int | None = None,
    title: str | None = None,
) -> go.Figure:
    """One-vs-rest curves of a multi-class model: one ROC (or PR) curve per class, the micro-average (``micro``,
    a curve of the pooled one-vs-rest counts) and the macro-average.

    The macro-average curve is the mean of the per-class curves on a common grid of ``grid_points`` x values (for
    PR, of their interpolated precision). Its legend quotes ``macro_area`` as passed in (the mean of the
    per-class areas, from `assess.metrics`); without it, no number is shown.
    """
    named = _check_curves(per_class, ("roc", "pr"), name="per_class")
    kinds = {c.kind for c in named.values()}
    if len(kinds) != 1:
        raise ValueError(f"`per_class` mixes curve kinds {sorted(kinds)}")
    kind = kinds.pop()
    series = dict(named)
    if micro is not None:
        series["micro-average"] = _check_curves({"micro-average": micro}, (kind,), name="micro")["micro-average"]
    grid, mean_y = _macro_average(named, kind, grid_points)
    colors = _colors_for(list(named), colors)
    draw = roc_chart if kind == "roc" else pr_chart
    fig = draw(curves=series, colors=colors, max_points=_budget(max_points, len(series) + 1),
               title=title or ("ROC curve, one class against the rest" if kind == "roc"
                               else "Precision–recall, one class against the rest"))
    color, dash = series_style("macro-average", colors)
    area_label = "AUC" if kind == "roc" else "AP"
    label = "macro-average" + (f" ({area_label} {proportion(macro_area)})" if macro_area is not None else "")
    fig.add_trace(go.Scatter(x=grid, y=mean_y, mode="lines", name=label, line=dict(color=color, dash=dash, width=2.5),
                             hovertemplate=f"{_SHORT[kind][0]} %{{x:.1%}} · mean {_SHORT[kind][1]} %{{y:.1%}}"))
    return legend_below(fig)


def fold_curves_chart(
    *,
    folds: Sequence[CurveResult],
    name: str = "Model",
    color: str | None = None,
    band: str = "sd",
    grid_points: int = 101,
    max_points: int | None = None,
    title: str | None = None,
) -> go.Figure:
    """Per-fold curves of one model (ROC, PR, gain or lift): each fold faint, their mean on a common grid bold, and
    a band.

    The mean is taken over the folds' values at ``grid_points`` equally spaced x values (see ``_on_grid``: for PR,
    interpolated precision). ``band="sd"`` shades mean ± 1 standard deviation across folds (ddof = 1, clipped to
    the axis range for rates); ``band="minmax"`` the lowest to highest fold. The legend gives the mean ± SD of the
    folds' full-data areas (AUC/AP) where the curves have one.
    """
    if isinstance(folds, Mapping) or not isinstance(folds, Sequence) or len(folds) == 0:
        raise TypeError("`folds` must be a non-empty sequence of CurveResult, one per fold")
    named = _check_curves({f"fold {i + 1}": c for i, c in enumerate(folds)}, ("roc", "pr", "gain", "lift"),
                          name="folds")
    kinds = {c.kind for c in named.values()}
    if len(kinds) != 1:
        raise ValueError(f"`folds` mixes curve kinds {sorted(kinds)}")
    if band not in BANDS:
        raise ValueError(f"`band` must be one of {BANDS} (got {band!r})")
    kind = kinds.pop()
    color = color or OKABE_ITO[0]
    grid = _grid_for(kind, grid_points)
    on_grid = np.vstack([_on_grid(c, grid) for c in named.values()])
    mean = np.nanmean(on_grid, axis=0)
    if band == "sd":
        sd = np.nanstd(on_grid, axis=0, ddof=1) if len(folds) > 1 else np.zeros_like(mean)
        low, high, band_label = mean - sd, mean + sd, "± 1 SD across folds"
    else:
        low, high, band_label = np.nanmin(on_grid, axis=0), np.nanmax(on_grid, axis=0), "min–max across folds"
    grid, mean, low, high = _from_origin(kind, grid, mean, low, high)
    if _AXES[kind][3]:
        low, high = np.clip(low, 0, 1), np.clip(high, 0, 1)
    else:
        low = np.maximum(low, 0)
    fig = _new_figure(kind, title or f"{name}: {len(folds)} folds")
    if kind == "roc":
        _reference(fig, [0, 1], [0, 1], "Chance (AUC 0.5)")
    elif kind == "gain":
        _reference(fig, [0, 1], [0, 1], "Random targeting")
    elif kind == "lift":
        _reference(fig, [0, 1], [1, 1], "Random targeting (lift 1)")
    else:
        bases = [c.baseline for c in named.values() if c.baseline is not None and np.isfinite(c.baseline)]
        if bases:
            _reference(fig, [0, 1], [np.mean(bases)] * 2, f"No skill (mean prevalence {np.mean(bases):.1%})")
    budget = _budget(max_points, len(folds) + 1)
    for i, (fold, curve) in enumerate(named.items()):
        idx = drawn_indices(curve.x, curve.y, max_points=budget)
        fig.add_trace(go.Scatter(
            x=curve.x[idx], y=curve.y[idx], mode="lines", name=f"Folds ({len(folds)})", legendgroup="folds",
            showlegend=i == 0, opacity=0.45, line=dict(color=color, width=1),
            hovertemplate=f"{fold}<br>{_SHORT[kind][0]} %{{x:.1%}} · {_SHORT[kind][1]} %{{y:.3f}}<extra></extra>"))
    fig.add_trace(go.Scatter(x=np.concatenate([grid, grid[::-1]]), y=np.concatenate([high, low[::-1]]),
                             fill="toself", fillcolor=rgba(color, 0.2), line=dict(width=0), mode="lines",
                             name=band_label, hoverinfo="skip"))
    areas = np.array([c.area for c in named.values() if c.area is not None], dtype=np.float64)
    label = f"Mean of {len(folds)} folds"
    first = next(iter(named.values()))
    if areas.size and np.isfinite(areas).all():
        spread = f" ± {proportion(areas.std(ddof=1))}" if areas.size > 1 else ""
        label += f" ({first.area_label} {proportion(areas.mean())}{spread})"
    fig.add_trace(go.Scatter(x=grid, y=mean, mode="lines", name=label, line=dict(color=color, width=3.5),
                             hovertemplate=f"{_SHORT[kind][0]} %{{x:.1%}} · mean {_SHORT[kind][1]} %{{y:.3f}}"
                                           "<extra></extra>"))
    return legend_below(fig)
