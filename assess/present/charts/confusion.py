"""Confusion-matrix charts: one matrix as an annotated heatmap, a multi-label grid of 2×2 matrices, and helpers.

Matrices come in computed (``assess.metrics``); these functions only normalise for display and draw. Convention
(scikit-learn's): rows are the true class, columns the predicted class, both in the order of ``classes``; a
multi-label 2×2 matrix is ``[[TN, FP], [FN, TP]]``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from assess.present.charts.cells import cell_axis, cell_layout, cell_traces
from assess.core.errors import shorten
from assess.core.formatting import count, percent, significant
from assess.present.charts.style import (FONT_SIZE, HEATMAP_SCALE, HEIGHT, LABELS, TEMPLATE, TICK_SIZE, plain, plain_lines,
                                 visible)

NORMALIZE = (None, "true", "pred", "all")
_NORM_TEXT = {None: "share of all", "true": "share of true class", "pred": "share of predicted class",
              "all": "share of all"}
_MAX_ANNOTATED = 20  # above this many classes, cells carry no text (hover only): text would overlap
#: Characters of a class name on a matrix axis (the whole name is in the hover): a longer one would take the width.
#: Up to `_MAX_ANNOTATED` classes a name takes two lines of 16 (rows are tall enough); beyond, one line of 28.
TICK_LABEL_CHARS = 28
TICK_LINE_CHARS = 16


def _check_matrix(matrix, classes: Sequence[str], name: str = "matrix") -> np.ndarray:
    m = np.asarray(matrix, dtype=np.float64)
    if m.ndim != 2 or m.shape[0] != m.shape[1]:
        raise ValueError(f"`{name}` must be a square 2-D array (got shape {m.shape})")
    if len(classes) != m.shape[0]:
        raise ValueError(f"`classes` has {len(classes)} names but `{name}` is {m.shape[0]}×{m.shape[1]}")
    if not np.isfinite(m).all() or (m < 0).any():
        raise ValueError(f"`{name}` must hold finite counts >= 0 (got min {np.nanmin(m)}, "
                         f"{int((~np.isfinite(m)).sum())} non-finite)")
    return m


def _check_normalize(normalize) -> None:
    if normalize not in NORMALIZE:
        raise ValueError(f"`normalize` must be one of {NORMALIZE} (got {normalize!r})")


def normalized_matrix(matrix, *, normalize: str | None) -> np.ndarray:
    """Shares shown in the cells: by true class (rows sum to 1), predicted class (columns), or all; NaN for 0/0.

    ``normalize=None`` gives the share of all samples (the percentage printed under each count).

    >>> normalized_matrix([[3, 1], [0, 0]], normalize="true").tolist()
    [[0.75, 0.25], [nan, nan]]
    """
    _check_normalize(normalize)
    m = np.asarray(matrix, dtype=np.float64)
    if normalize == "true":
        denom = m.sum(axis=1, keepdims=True)
    elif normalize == "pred":
        denom = m.sum(axis=0, keepdims=True)
    else:
        denom = np.full((1, 1), m.sum())
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denom > 0, m / np.where(denom > 0, denom, 1.0), np.nan)


def confusion_matrix_chart(
    *,
    matrix,
    classes: Sequence[str],
    normalize: str | None = None,
    title: str = "Confusion matrix",
    subtitle: str | None = None,
    expected_cost: float | None = None,
    colorbar: bool = True,
) -> go.Figure:
    """A k×k confusion matrix as annotated vector cells (`assess.present.charts.cells`): true class down, predicted class
    across, in ``classes`` order.

    Each cell shows the count and, below it, the percentage chosen by ``normalize`` (None → share of all samples,
    "true" → of the true class, i.e. per-class recall on the diagonal, "pred" → of the predicted class, i.e.
    precision, "all"); the colour follows that percentage (or the count when ``normalize`` is None). With an
    ``expected_cost`` (per sample, from :func:`assess.analyses.decision_costs.confusions`) the title adds it, after
    ``subtitle``. ``colorbar=False`` leaves out the colour bar (small matrices side by side, whose cells
    print their shares). Above 20 classes the cells carry no text; hover always gives true class, predicted
    class, count and share. ``classes``, ``title`` and ``subtitle`` are plain text (see `assess.present.charts.style.plain`).
    """
    m = _check_matrix(matrix, classes)
    names = [plain(c) for c in classes]
    # a long class name would take the plot's width on the axis: cut there, whole in the hover
    ticks = [plain_lines(visible(c), TICK_LINE_CHARS) if len(classes) <= _MAX_ANNOTATED
             else plain(shorten(visible(c), TICK_LABEL_CHARS)) for c in classes]
    # small matrices side by side (no colour bar) have columns about 65 px wide: under them, three lines of 10
    # characters — a wider label overlaps its neighbour and plotly leaves it out
    x_ticks = [plain_lines(visible(c), 10, lines=3) for c in classes] if not colorbar and len(classes) <= 3 else ticks
    _check_normalize(normalize)
    share = normalized_matrix(m, normalize=normalize)
    k = m.shape[0]
    z = m if normalize is None else share
    text = [[f"{count(m[i, j])}<br>{percent(share[i, j])}" for j in range(k)] for i in range(k)]
    notes = [] if subtitle is None else [plain(subtitle)]
    if expected_cost is not None:
        # 4 significant digits, as the page's expected-cost table writes it (0.01124, not 0.011 beside 0.01124)
        notes.append(f"Expected cost per sample: {significant(expected_cost, 4)}")
    hover = ("True: %{customdata[0]}<br>Predicted: %{customdata[1]}<br>Count: %{customdata[2]:,}<br>"
             f"{_NORM_TEXT[normalize].capitalize()}: %{{customdata[3]:.1%}}<extra></extra>")
    zmax = 1.0 if normalize is not None else float(m.max()) if m.max() > 0 else 1.0
    fig = go.Figure(cell_traces(
        z, colorscale=HEATMAP_SCALE, zmin=0.0, zmax=zmax, x_labels=names, y_labels=names,
        text=text if k <= _MAX_ANNOTATED else None, text_size=FONT_SIZE if k <= 6 else TICK_SIZE,
        values=(m, share), hovertemplate=hover, showscale=colorbar,
        colorbar=dict(title=dict(text="Count" if normalize is None else _NORM_TEXT[normalize].capitalize(),
                                 side="right"),
                      tickformat=None if normalize is None else ".0%", thickness=14)))
    side = max(HEIGHT, min(1400, 150 + 40 * k))
    fig.update_layout(
        template=TEMPLATE, title=dict(text=plain(title), subtitle=dict(text=" · ".join(notes) or None)),
        height=side,
        xaxis=cell_axis(x_ticks, title=LABELS["predicted_class"]),
        yaxis=cell_axis(ticks, title=LABELS["true_class"], reverse=True),
    )
    return cell_layout(fig)


def multilabel_confusion_chart(
    *,
    matrices,
    labels: Sequence[str],
    normalize: str | None = "true",
    title: str = "Confusion matrix per label",
    columns: int = 4,
) -> go.Figure:
    """Grid of per-label 2×2 matrices ``[[TN, FP], [FN, TP]]`` (shape (L, 2, 2)), one panel per label.

    Cells show the count and the share chosen by ``normalize`` (default "true": the row share, so the bottom-right
    cell is the label's recall); colours use one 0–100 % scale across panels so labels compare at a glance.
    ``labels`` and ``title`` are plain text.
    """
    mats = np.asarray(matrices, dtype=np.float64)
    names = [str(label) for label in labels]
    if mats.ndim != 3 or mats.shape[1:] != (2, 2):
        raise ValueError(f"`matrices` must have shape (L, 2, 2) (got {mats.shape})")
    if len(names) != mats.shape[0]:
        raise ValueError(f"`labels` has {len(names)} names but `matrices` holds {mats.shape[0]} matrices")
    if not isinstance(columns, int) or columns < 1:
        raise ValueError(f"'columns' must be an integer >= 1 (got {columns!r})")
    _check_normalize(normalize)
    for i, name in enumerate(names):
        _check_matrix(mats[i], ["no", "yes"], name=f"matrices[{i}] ({name})")
    n_cols = min(columns, len(names))
    n_rows = -(-len(names) // n_cols)
    # A panel is about 1/n_cols of 760 px wide: longer titles would run into their neighbours (the hover keeps the
    # full name).
    shown = [plain(shorten(name, max(8, 72 // n_cols))) for name in names]
    fig = make_subplots(rows=n_rows, cols=n_cols, subplot_titles=shown, horizontal_spacing=min(0.12, 0.3 / n_cols),
                        vertical_spacing=min(0.3, 0.5 / n_rows))
    ticks = ["no", "yes"]
    for i, name in enumerate(shown):
        m = mats[i]
        share = normalized_matrix(m, normalize=normalize)
        text = [[f"{count(m[r, c])}<br>{percent(share[r, c])}" for c in range(2)] for r in range(2)]
        row, col = i // n_cols + 1, i % n_cols + 1
        fig.add_traces(cell_traces(
            share, colorscale=HEATMAP_SCALE, zmin=0.0, zmax=1.0, x_labels=ticks, y_labels=ticks, text=text,
            text_size=TICK_SIZE, values=(m, share), showscale=i == 0, name=name,
            hovertemplate=(f"{plain(names[i])}<br>True: %{{customdata[0]}}<br>Predicted: %{{customdata[1]}}<br>"
                           "Count: %{customdata[2]:,}<br>"
                           f"{_NORM_TEXT[normalize].capitalize()}: %{{customdata[3]:.1%}}<extra></extra>"),
            colorbar=dict(title=dict(text=_NORM_TEXT[normalize].capitalize(), side="right"), tickformat=".0%",
                          thickness=14)), rows=row, cols=col)
        fig.update_xaxes(**cell_axis(ticks, title=dict(text="Predicted", font=dict(size=TICK_SIZE))
                                     if row == n_rows else None), row=row, col=col)
        fig.update_yaxes(**cell_axis(ticks, reverse=True, title=dict(text="True", font=dict(size=TICK_SIZE))
                                     if col == 1 else None), row=row, col=col)
    fig.update_layout(template=TEMPLATE, title=plain(title), height=max(HEIGHT, 110 + 230 * n_rows))
    return cell_layout(fig)


def most_confused_pairs(matrix, classes: Sequence[str], *, top: int = 5) -> pd.DataFrame:
    """The ``top`` largest off-diagonal cells: which true class is most often predicted as which other class.

    Columns: ``true_class``, ``predicted_class``, ``count``, ``share_of_true_class`` (count / row total). Sorted by
    count, descending; ties keep the class order. Zero cells are left out, so the table may be shorter than ``top``.

    >>> most_confused_pairs([[5, 2, 0], [1, 7, 3], [0, 0, 4]], ["a", "b", "c"], top=2)
      true_class predicted_class  count  share_of_true_class
    0          b               c    3.0             0.272727
    1          a               b    2.0             0.285714
    """
    names = [str(c) for c in classes]
    m = _check_matrix(matrix, names)
    if not isinstance(top, (int, np.integer)) or top < 1:
        raise ValueError(f"'top' must be an integer >= 1 (got {top!r})")
    rows, cols = np.nonzero(~np.eye(m.shape[0], dtype=bool) & (m > 0))
    counts = m[rows, cols]
    order = np.argsort(-counts, kind="stable")[:top]
    rows, cols, counts = rows[order], cols[order], counts[order]
    row_totals = m.sum(axis=1)[rows]
    return pd.DataFrame({
        "true_class": [names[i] for i in rows],
        "predicted_class": [names[j] for j in cols],
        "count": counts,
        "share_of_true_class": counts / row_totals,
    })
