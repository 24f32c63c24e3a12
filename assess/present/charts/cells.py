"""Heatmaps drawn as vector cells: filled polygons, one trace per colour level, plus one trace for text and hover.

plotly.js paints a ``go.Heatmap`` onto a canvas and puts it in the figure as one raster ``<image>`` (about 98 ppi in an
exported PDF: blurred cells and no way to select them). Every heatmap of `assess.present.charts` (confusion matrices, the
multi-label grid and co-occurrence, the clustering contingency and agreement tables, crossed slices, the regression
density) is drawn with `cell_traces` instead:

- the cells are ``go.Scatter`` polygons with ``fill="toself"``; the cells of one colour level are one trace, their
  rectangles separated by gaps (NaN), so kaleido writes each level as one vector path — an SVG ``<path>``, a PDF path;
  a 100 × 100 matrix is at most `LEVELS` paths, not 10,000 shapes;
- colours are quantised to `LEVELS` = 256 steps of the colour scale, finer than the 8-bit colour channels between
  the scale's two ends (white → Okabe–Ito blue changes the red channel by 255 in 255 steps): nothing visible is lost;
  above `MANY_CELLS` cells, 64 steps (the cells are small; a quarter of the traces);
- one more trace at the cell centres, drawn above the fills (``zorder``), carries the cell texts and the hover
  (``hoverdistance=-1`` in `cell_layout` makes the nearest cell answer anywhere in the plot);
- the colour bar is a marker colour scale on a trace without visible points: plotly draws it as a vector gradient.

Axes are linear, cell i centred on i, with the labels as tick texts (`cell_axis`): a polygon corner at i ± 0.5 has no
place on a category axis.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.colors import sample_colorscale

from assess.present.charts.style import TICK_SIZE

__all__ = ["LEVELS", "cell_traces", "cell_axis", "cell_layout", "MAX_TICKS"]

#: Colour levels of the cells (see the module docstring).
LEVELS = 256
#: Above this many cells (a 20 × 20 matrix) colours take `MANY_CELLS_LEVELS` steps: a step of 4 in an 8-bit channel,
#: invisible on cells that small, and a quarter of the traces to build and draw.
MANY_CELLS = 400
MANY_CELLS_LEVELS = 64
#: Most tick labels on a cell axis; past it every n-th label is shown (hover names every cell).
MAX_TICKS = 40
_DARK_TEXT, _LIGHT_TEXT = "#222222", "#FFFFFF"


def _edges(edges, n: int) -> np.ndarray:
    if edges is None:
        return np.arange(n + 1, dtype=np.float64) - 0.5
    e = np.asarray(edges, dtype=np.float64)
    if e.shape != (n + 1,):
        raise ValueError(f"cell edges must have {n + 1} values for {n} cells (got shape {e.shape})")
    return e


def cell_traces(
    z,
    *,
    colorscale,
    zmin: float,
    zmax: float,
    x_labels: Sequence[str] | None = None,
    y_labels: Sequence[str] | None = None,
    x_edges=None,
    y_edges=None,
    text=None,
    text_size: int = TICK_SIZE,
    values: Sequence = (),
    hovertemplate: str | None = None,
    showscale: bool = False,
    colorbar: dict | None = None,
    gap: bool = True,
    legend_name: str | None = None,
    name: str | None = None,
    levels: int = LEVELS,
) -> list[dict]:
    """The traces that draw the matrix ``z`` (rows down, columns across) as vector cells coloured on ``colorscale``.

    ``z`` may hold NaN: such a cell is left unfilled (as a heatmap leaves it). Cell ``(i, j)`` spans
    ``x_edges[j]..x_edges[j + 1]`` and ``y_edges[i]..y_edges[i + 1]`` (default: ``j ± 0.5``, ``i ± 0.5``). Its colour
    is the scale at ``(z - zmin) / (zmax - zmin)``, clipped to [0, 1] and quantised to `LEVELS` steps. ``text``
    (rows × columns strings, may hold ``<br>``) is written at the cell centre, white on the darker half of the scale
    and dark on the lighter half, so it reads on every cell. Hover: ``hovertemplate`` sees ``%{customdata[0]}`` (the
    row's label), ``%{customdata[1]}`` (the column's) and ``%{customdata[2]}``, … (the arrays in ``values``, each
    rows × columns); without a ``hovertemplate`` the cells have no hover. ``showscale`` draws the colour bar
    (``colorbar``: its title, ticks…). ``gap``: a 1-px white line between cells (matrices; off for density grids).
    ``legend_name``: one legend entry, on the darkest level. ``levels``: colour steps (`LEVELS`; fewer for a density
    grid, whose cells are then merged into longer runs). Labels are plain text already (see `style.plain`).

    The traces are plain dicts (``type="scatter"``): a figure validates them once when they are added (a
    ``go.Scatter`` each would be validated twice, the most of the time a 30-class matrix took). The first trace
    returned is the text/hover trace when there is one (drawn above the fills by its ``zorder``),
    then the colour bar's trace with ``showscale``; the fills follow, one per colour level present, lightest first.
    """
    z = np.asarray(z, dtype=np.float64)
    if z.ndim != 2:
        raise ValueError(f"`z` must be a 2-D array (got shape {z.shape})")
    n_rows, n_cols = z.shape
    xe, ye = _edges(x_edges, n_cols), _edges(y_edges, n_rows)
    span = zmax - zmin
    fraction = np.clip((z - zmin) / span if span > 0 else np.zeros_like(z), 0.0, 1.0)
    if z.size > MANY_CELLS:   # small cells: fewer levels, fewer traces (each plotly trace costs milliseconds to build)
        levels = min(levels, MANY_CELLS_LEVELS)
    level = np.where(np.isfinite(z), np.rint(fraction * (levels - 1)), -1).astype(np.int64)

    traces: list[dict] = []
    if text is not None or hovertemplate is not None:
        traces.append(_text_and_hover(z, level, xe, ye, x_labels=x_labels, y_labels=y_labels, text=text,
                                      text_size=text_size, values=values, hovertemplate=hovertemplate, name=name,
                                      dark=level > (levels - 1) / 2))
    if showscale:
        # The colour bar of a marker colour scale, on a trace with no visible point: plotly draws it as a vector
        # gradient. (Markers on the hover trace would carry it too, but write one SVG path per cell, 1.7 MB for 60².)
        traces.append(dict(type="scatter", x=[None, None], y=[None, None], mode="markers", hoverinfo="skip",
                           showlegend=False, marker=dict(color=[zmin, zmax], colorscale=colorscale, cmin=zmin,
                                                         cmax=zmax, showscale=True, colorbar=colorbar or {},
                                                         opacity=0)))
    present = np.unique(level[level >= 0])
    colors = sample_colorscale(colorscale, (present / (levels - 1)).tolist()) if present.size else []
    for lvl, color in zip(present, colors):
        i, j0, j1 = _runs(level, lvl, merge=not gap)
        # Each rectangle: four corners, back to the first, then a gap (NaN) that ends its polygon.
        x = np.column_stack([xe[j0], xe[j1], xe[j1], xe[j0], xe[j0], np.full(i.size, np.nan)]).ravel()
        y = np.column_stack([ye[i], ye[i], ye[i + 1], ye[i + 1], ye[i], np.full(i.size, np.nan)]).ravel()
        darkest = bool(legend_name is not None and lvl == present[-1])
        traces.append(dict(
            type="scatter", x=x, y=y, mode="lines", fill="toself", fillcolor=color,
            line=dict(color="#FFFFFF", width=1) if gap else dict(color=color, width=0.5),
            hoverinfo="skip", showlegend=darkest, name=legend_name if darkest else None,
            legendgroup=legend_name))
    return traces


def _text_and_hover(z, level, xe, ye, *, x_labels, y_labels, text, text_size, values, hovertemplate,
                    name, dark) -> dict:
    n_rows, n_cols = z.shape
    xc, yc = (xe[:-1] + xe[1:]) / 2, (ye[:-1] + ye[1:]) / 2
    x_names = list(x_labels) if x_labels is not None else [f"{v:g}" for v in xc]
    y_names = list(y_labels) if y_labels is not None else [f"{v:g}" for v in yc]
    if len(x_names) != n_cols or len(y_names) != n_rows:
        raise ValueError(f"{n_rows} × {n_cols} cells need {n_rows} row and {n_cols} column labels "
                         f"(got {len(y_names)} and {len(x_names)})")
    custom = [np.repeat(np.asarray(y_names, dtype=object), n_cols), np.tile(np.asarray(x_names, dtype=object), n_rows)]
    custom += [np.asarray(v, dtype=object).reshape(n_rows * n_cols) for v in values]
    return dict(
        type="scatter", x=np.tile(xc, n_rows), y=np.repeat(yc, n_cols),
        # Without text, an invisible line through the cell centres answers the hover at its vertices: one SVG path,
        # where markers would write one per cell.
        mode="text" if text is not None else "lines", line=dict(width=1, color="rgba(0,0,0,0)"),
        text=None if text is None else [t for row in text for t in row],
        textposition="middle center",
        textfont=dict(size=text_size, color=np.where(dark.ravel(), _LIGHT_TEXT, _DARK_TEXT).tolist()),
        customdata=np.column_stack(custom),
        hovertemplate=hovertemplate, hoverinfo=None if hovertemplate is not None else "skip",
        showlegend=False, zorder=1, name=name,
    )


def _runs(level: np.ndarray, lvl: int, *, merge: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rectangles of the cells at ``lvl``: (row, first column, column after the last). ``merge``: neighbouring cells
    of one row at the same level become one rectangle (a density grid: a third of the points); else one per cell."""
    hit = level == lvl
    if not merge:
        i, j = np.nonzero(hit)
        return i, j, j + 1
    padded = np.pad(hit, ((0, 0), (1, 1))).astype(np.int8)
    step = np.diff(padded, axis=1)                 # +1 where a run starts, -1 just after it ends
    i, j0 = np.nonzero(step == 1)
    _, j1 = np.nonzero(step == -1)                 # same row-major order as the starts
    return i, j0, j1


def cell_axis(labels: Sequence[str], *, reverse: bool = False, title=None, edges=None) -> dict:
    """Axis settings of a cell axis: cell i centred on i (or between ``edges``), its label as tick text (every n-th
    past `MAX_TICKS` labels), no grid; ``reverse`` puts the first row on top (a matrix's reading order)."""
    n = len(labels)
    e = _edges(edges, n)
    step = max(1, -(-n // MAX_TICKS))
    centres = (e[:-1] + e[1:]) / 2
    lo, hi = float(e[0]), float(e[-1])
    axis = dict(type="linear", tickmode="array", tickvals=centres[::step].tolist(), ticktext=list(labels)[::step],
                range=[hi, lo] if reverse else [lo, hi], autorange=False, showgrid=False, zeroline=False,
                ticks="", showline=False)
    if title is not None:
        axis["title"] = title
    return axis


def cell_layout(fig: go.Figure) -> go.Figure:
    """Figure settings for cells: the nearest cell answers the hover wherever the pointer is in its plot."""
    fig.update_layout(hoverdistance=-1)
    return fig
