"""Heatmaps as vector cells (`assess.present.charts.cells`): every matrix chart exports without a raster image, with each
cell's colour, text and hover as a heatmap would give them.

The oracle for colours is plotly's own `sample_colorscale` at the cell's share computed here from the matrix; the
oracle for "no raster" is the exported file itself: no ``<image>`` element in the SVG, no image XObject in the PDF
(read with pypdf, Form XObjects opened recursively).
"""

import io
import re
import shutil

import numpy as np
import pandas as pd
import pytest
import streamlit  # noqa: F401  - as in the app: plotly's default template is Streamlit's
from plotly.colors import sample_colorscale
from pypdf import PdfReader

from assess.present import charts, export
from assess.present.charts import cells, clustering, multilabel, regression, slices
from assess.present.charts.style import HEATMAP_SCALE
from assess.present.export import figure_to_pdf, figure_to_svg

needs_browser = pytest.mark.skipif(export.browser_path() is None and shutil.which("chromium") is None,
                                   reason="no Chromium for kaleido")
MATRIX = np.array([[50, 10, 0], [5, 35, 2], [1, 1, 40]])


def _rgb(color: str) -> np.ndarray:
    return np.array([float(v) for v in re.findall(r"[\d.]+", color)[:3]])


def _fills(fig):
    return [t for t in fig.data if t.fill == "toself"]


def _cell_colour(fig, i, j, *, xref="x"):
    """The fill colour of the polygon that covers cell (i, j)'s centre (its corners at j ± 0.5, i ± 0.5)."""
    for t in _fills(fig):
        if (t.xaxis or "x") != xref:
            continue
        x = np.array(t.x, dtype=float).reshape(-1, 6)
        y = np.array(t.y, dtype=float).reshape(-1, 6)
        hit = (x[:, 0] == j - 0.5) & (x[:, 1] == j + 0.5) & (y[:, 0] == i - 0.5) & (y[:, 2] == i + 0.5)
        if hit.any():
            return t.fillcolor
    return None


def every_heatmap():
    """One figure of every chart that draws a matrix (the Clusters, Confusion, Slices and Errors pages' heatmaps)."""
    rng = np.random.default_rng(7)
    y = rng.normal(size=25_000)
    rows = pd.DataFrame({"sex": ["f", "f", "m", "m"], "site": ["a", "b", "a", "b"], "value": [0.1, 0.2, 0.3, 0.4],
                         "n": [40, 50, 10, 60]})
    return {
        "confusion": charts.confusion_matrix_chart(matrix=MATRIX, classes=["a", "b", "c"], normalize="true"),
        "multilabel grid": charts.multilabel_confusion_chart(
            matrices=np.array([[[90, 10], [5, 45]], [[70, 0], [20, 60]]]), labels=["spam", "urgent"]),
        "co-occurrence": multilabel.cooccurrence_chart(true=np.array([[5, 2], [2, 7]]),
                                                       predicted=np.array([[4, 1], [1, 6]]), labels=["a", "b"]),
        "contingency": clustering.contingency_chart(table=np.array([[40, 2], [3, 30]]), classes=["x", "y"],
                                                    clusters=["0", "1"]),
        "agreement": clustering.agreement_chart(models=["k", "w"], matrix=np.array([[1, 0.7], [0.7, 1]])),
        "slices": slices.slice_heatmap(rows=rows, row_column="sex", col_column="site", metric="MAE", model="m",
                                       min_size=30),
        "density": regression.predicted_actual_chart(models={"m": (y, y + rng.normal(size=y.size))}),
    }


def test_no_chart_function_draws_a_plotly_heatmap():
    for name, fig in every_heatmap().items():
        assert not [t for t in fig.data if t.type in ("heatmap", "image", "heatmapgl")], name
        assert _fills(fig), name


def test_confusion_cells_take_the_scale_colour_of_their_share():
    fig = charts.confusion_matrix_chart(matrix=MATRIX, classes=["a", "b", "c"], normalize="true")
    share = MATRIX / MATRIX.sum(axis=1, keepdims=True)              # row shares, computed here independently
    for (i, j), s in np.ndenumerate(share):
        expected = _rgb(sample_colorscale(HEATMAP_SCALE, [s])[0])
        # 256 levels: at most half a level (1/510 of the scale) away, under one unit of an 8-bit channel
        np.testing.assert_allclose(_rgb(_cell_colour(fig, i, j)), expected, atol=1.0)


def test_confusion_texts_hover_and_colour_bar():
    fig = charts.confusion_matrix_chart(matrix=MATRIX, classes=["a", "b", "c"], normalize="true")
    hover = fig.data[0]
    assert hover.text[3] == "5<br>11.9%" and len(hover.text) == 9      # row-major: (1, 0) is the fourth cell
    assert list(hover.customdata[3][:3]) == ["b", "a", 5]              # true, predicted, count
    assert "True: %{customdata[0]}" in hover.hovertemplate and fig.layout.hoverdistance == -1
    # white text on the darker half of the scale only: the diagonal (83 %, 83 %, 95 %) here
    assert [c == "#FFFFFF" for c in hover.textfont.color] == [True, False, False, False, True, False, False, False,
                                                              True]
    [bar] = [t for t in fig.data if t.marker.showscale]
    assert (bar.marker.cmin, bar.marker.cmax) == (0, 1) and bar.marker.colorbar.tickformat == ".0%"
    assert list(fig.layout.yaxis.range) == [2.5, -0.5]                 # first class on top
    assert list(fig.layout.xaxis.ticktext) == ["a", "b", "c"] and list(fig.layout.xaxis.tickvals) == [0, 1, 2]


def test_an_empty_row_is_left_unfilled_and_reads_a_dash():
    m = np.array([[3, 1], [0, 0]])
    fig = charts.confusion_matrix_chart(matrix=m, classes=["a", "b"], normalize="true")
    assert _cell_colour(fig, 1, 0) is None and _cell_colour(fig, 0, 0) is not None
    assert fig.data[0].text[2] == "0<br>—"      # formatting.UNDEFINED, as in every table (was an en dash)


def test_a_large_matrix_is_one_path_per_colour_level_and_every_cell_once():
    k = 120
    rng = np.random.default_rng(0)
    m = rng.integers(0, 1000, (k, k))
    fig = charts.confusion_matrix_chart(matrix=m, classes=[f"c{i}" for i in range(k)])
    fills = _fills(fig)
    assert len(fills) <= cells.MANY_CELLS_LEVELS
    assert sum(len(t.x) for t in fills) == 6 * k * k                    # every cell drawn exactly once
    assert len(fig.layout.xaxis.tickvals) <= cells.MAX_TICKS             # every n-th name on the axis
    assert len(fig.data[0].x) == k * k and fig.data[0].mode == "lines"   # hover without a path per cell
    for i, j in ((0, 0), (5, 7), (k - 1, k - 1)):                      # colours on the count scale, 0 … max
        expected = sample_colorscale(HEATMAP_SCALE, [m[i, j] / m.max()])[0]
        # 64 levels: at most half a level (1/126 of the scale) away, two units of an 8-bit channel
        np.testing.assert_allclose(_rgb(_cell_colour(fig, i, j)), _rgb(expected), atol=2.1)


def test_density_cells_merge_runs_and_keep_the_scale():
    """A density grid: neighbouring cells of one colour level are one rectangle; each rectangle's colour is the
    model colour scale at its log count (the chart's z = log10(count) + 1, max → the model colour)."""
    rng = np.random.default_rng(3)
    y = rng.normal(size=30_000)
    p = y + rng.normal(size=y.size)
    fig = regression.predicted_actual_chart(models={"m": (y, p)})
    fills = _fills(fig)
    assert len(fills) <= regression.DENSITY_LEVELS
    darkest = max(fills, key=lambda t: -_rgb(t.fillcolor).sum())
    np.testing.assert_allclose(_rgb(darkest.fillcolor), _rgb("rgb(0, 114, 178)"), atol=1.0)   # the model colour
    drawn = sum(len(t.x) // 6 for t in fills)
    occupied = int((np.histogram2d(y, p, bins=regression.GRID)[0] > 0).sum())
    assert drawn < occupied                                              # runs merged


def test_multilabel_grid_keeps_one_panel_and_one_scale():
    fig = charts.multilabel_confusion_chart(matrices=np.array([[[90, 10], [5, 45]], [[70, 0], [20, 60]]]),
                                            labels=["spam", "urgent"])
    assert [t.marker.showscale for t in fig.data if t.marker.showscale] == [True]
    np.testing.assert_allclose(_rgb(_cell_colour(fig, 1, 1, xref="x2")),
                               _rgb(sample_colorscale(HEATMAP_SCALE, [60 / 80])[0]), atol=1.0)


def _image_xobjects(pdf: bytes) -> list[str]:
    found = []

    def walk(resources):
        xobjects = (resources or {}).get("/XObject") or {}
        for name, ref in xobjects.items():
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image":
                found.append(name)
            elif obj.get("/Subtype") == "/Form":
                walk(obj.get("/Resources"))

    for page in PdfReader(io.BytesIO(pdf)).pages:
        walk(page.get("/Resources"))
    return found


@needs_browser
def test_every_heatmap_exports_as_vectors_in_svg_and_pdf():
    figures = every_heatmap()
    for name, fig in figures.items():
        svg = figure_to_svg(fig).decode()
        assert "<image" not in svg, name
        assert svg.count('class="js-fill"') >= len(_fills(fig)), name   # each colour level a vector path
        if name != "density":
            assert "colorbar" in svg, name
        assert _image_xobjects(figure_to_pdf(fig)) == [], name


@needs_browser
def test_the_image_check_finds_a_plotly_heatmap():
    """The oracle can fail: a go.Heatmap does export as an image (what this module replaces)."""
    import plotly.graph_objects as go
    fig = go.Figure(go.Heatmap(z=MATRIX), layout=dict(template="assess"))
    assert "<image" in figure_to_svg(fig).decode() and _image_xobjects(figure_to_pdf(fig))
