"""Exports: chart files through the export browser (PDF/PNG/SVG) and formula-safe CSV/JSON tables.

Rendered pages are checked as pixels only for the two failures a person would see: a blank page and a near-black one
(``import streamlit`` makes its own template the default; its placeholder colours paint an exported chart black).
"""

import io
import json
import os
import shutil
import signal
import struct
import subprocess
import threading

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import pytest
import streamlit  # noqa: F401  - on purpose: sets plotly's default template to "streamlit" as in the app
from pypdf import PdfReader

from assess.present import export
from assess.present.charts.style import TEMPLATE
from assess.present.export import (ExportError, figure_to_pdf, figure_to_png, figure_to_svg, figures_to_pdf,
                           neutralise_cell, to_csv_bytes, to_json_bytes)

needs_browser = pytest.mark.skipif(export.browser_path() is None and shutil.which("chromium") is None,
                                   reason="no Chromium for kaleido")
needs_pdftoppm = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")


def _line_figure(title, *, template=TEMPLATE):
    return go.Figure(go.Scatter(x=[0, 1, 2, 3], y=[0, 2, 1, 3], mode="lines+markers", name="series"),
                     layout=dict(title=title, template=template, xaxis_title="Threshold", yaxis_title="Recall (%)"))


def _pdf_text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def _render_rgb(pdf: bytes, tmp_path, *, dpi=40) -> np.ndarray:
    """First page of ``pdf`` as an (h, w, 3) 0-255 image, rendered by poppler (independent of Chromium)."""
    src = tmp_path / "page.pdf"
    src.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(dpi), "-f", "1", "-l", "1", "-singlefile", str(src),
                    str(tmp_path / "page")], check=True, timeout=30)
    raw = (tmp_path / "page.ppm").read_bytes()
    magic, width, height, _maxval, pixels = raw.split(maxsplit=4)
    assert magic == b"P6"
    width, height = int(width), int(height)
    return np.frombuffer(pixels[-width * height * 3:], dtype=np.uint8).reshape(height, width, 3)


def _grey_mean(page: np.ndarray) -> float:
    return float(page.mean())


def _dark_share(page: np.ndarray) -> float:
    return float((page.max(axis=2) < 100).mean())


def _colour_share(page: np.ndarray) -> float:
    """Share of clearly coloured pixels (channels differ by > 80): palette colours, not black/grey/white."""
    channels = page.astype(np.int16)
    return float(((channels.max(axis=2) - channels.min(axis=2)) > 80).mean())


# ------------------------------------------------------------------------------------------------ CSV / JSON --

@pytest.mark.parametrize("cell", ["=1+1", "+1+A1", "-1+1", "-cmd", "@SUM(A1:A2)", "\tcmd", "\rcmd", "\t-1", "-",
                                  "-1,000", "-inf", '=HYPERLINK("http://x","y")'])
def test_formula_strings_get_a_leading_quote(cell):
    assert neutralise_cell(cell) == "'" + cell


@pytest.mark.parametrize("value", ["model A", "", "1=1", " =1", "-1", "+0.5", "-2e-3", "-.5", -1, -2.5, 0, None,
                                   float("nan"), True])
def test_other_values_pass_unchanged(value):
    out = neutralise_cell(value)
    assert out is value or (out != out and value != value)


def test_csv_neutralises_cells_headers_and_keeps_numbers_numeric():
    df = pd.DataFrame({
        "model": ["=cmd|' /C calc'!A0", "B", "-baseline"],
        "=evil header": ["x", "@user", "+y"],
        "delta": [-0.5, 0.25, -3.0],
        "count": np.array([-1, 2, 3], dtype=np.int64),
        "cat": pd.Categorical(["-a", "b", "-a"]),
        "mixed": pd.Series(["=x", -7, 1.5], dtype=object),
    })
    raw = to_csv_bytes(df)
    text = raw.decode("utf-8")
    assert text.splitlines()[0] == "model,'=evil header,delta,count,cat,mixed"
    back = pd.read_csv(io.BytesIO(raw))
    assert back["model"].tolist() == ["'=cmd|' /C calc'!A0", "B", "'-baseline"]
    assert back["'=evil header"].tolist() == ["x", "'@user", "'+y"]
    assert back["delta"].tolist() == [-0.5, 0.25, -3.0]
    assert back["count"].tolist() == [-1, 2, 3]
    assert back["cat"].tolist() == ["'-a", "b", "'-a"]
    assert text.splitlines()[1].endswith(",'=x")
    assert text.splitlines()[2].endswith(",-7")  # a number in an object column stays a number
    assert df["model"].iloc[0] == "=cmd|' /C calc'!A0"  # the caller's frame is untouched


def test_csv_neutralises_the_index_when_written():
    df = pd.DataFrame({"auc": [0.9, 0.8]}, index=pd.Index(["=A", "B"], name="-model"))
    assert to_csv_bytes(df, index=True).decode().splitlines() == ["'-model,auc", "'=A,0.9", "B,0.8"]
    assert to_csv_bytes(df).decode().splitlines() == ["auc", "0.9", "0.8"]


def test_csv_rejects_non_frames():
    with pytest.raises(TypeError, match="DataFrame, got dict"):
        to_csv_bytes({"a": [1]})


def test_json_keeps_strings_and_keys_as_given_and_numbers_as_numbers():
    obj = {
        "=key": "@value",
        "metrics": pd.DataFrame({"model": ["+A", "B"], "delta": [-0.1, np.nan]}),
        "scores": np.array([-1.5, 2.0]),
        "n": np.int64(-3),
        "ok": np.bool_(True),
        "nested": [{"label": "-x"}, ("\tt", float("inf"))],
    }
    out = json.loads(to_json_bytes(obj))
    assert out == {
        "=key": "@value",
        "metrics": [{"model": "+A", "delta": -0.1}, {"model": "B", "delta": None}],
        "scores": [-1.5, 2.0],
        "n": -3,
        "ok": True,
        "nested": [{"label": "-x"}, ["\tt", None]],
    }


def test_json_keeps_a_named_index_as_a_column():
    df = pd.DataFrame({"auc": [0.9]}, index=pd.Index(["=A"], name="model"))
    assert json.loads(to_json_bytes(df)) == [{"model": "=A", "auc": 0.9}]


def test_json_names_the_type_it_cannot_encode():
    with pytest.raises(TypeError, match="cannot encode a object"):
        to_json_bytes({"x": object()})


# ------------------------------------------------------------------------------------------------- chart files --

@needs_browser
def test_pdf_is_a_vector_pdf_with_extractable_embedded_text():
    pdf = figure_to_pdf(_line_figure("Recall by threshold, model A"))
    assert pdf.startswith(b"%PDF-")
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert "Recall by threshold, model A" in text
    assert "Threshold" in text and "Recall (%)" in text
    fonts = reader.pages[0]["/Resources"]["/Font"]
    base_fonts = [fonts[name].get_object()["/BaseFont"] for name in fonts]
    assert any("LiberationSans" in str(f) for f in base_fonts), base_fonts
    # the page is the figure's size (760 x 480 px at 96 dpi = 570 x 360 pt), no image of the chart
    width, height = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
    assert abs(width - 570) < 2 and abs(height - 360) < 2
    assert not reader.pages[0].images


@needs_browser
def test_multi_page_pdf_has_one_page_per_figure_in_order():
    titles = [f"Chart number {i}" for i in range(4)]
    pdf = figures_to_pdf([_line_figure(t) for t in titles])
    assert pdf.startswith(b"%PDF-")
    texts = _pdf_text(pdf)
    assert len(texts) == 4
    for title, text in zip(titles, texts):
        assert title in text
        assert all(other not in text for other in titles if other != title)


def test_multi_page_pdf_needs_a_figure():
    with pytest.raises(ValueError, match="at least one figure"):
        figures_to_pdf([])


@needs_browser
def test_png_and_svg_headers_and_png_size():
    fig = _line_figure("PNG and SVG")
    png = figure_to_png(fig, scale=2)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (2 * 760, 2 * 480)
    svg = figure_to_svg(fig)
    assert svg.lstrip().startswith(b"<svg") and b"PNG and SVG" in svg
    with pytest.raises(ValueError, match="'scale' must be > 0"):
        figure_to_png(fig, scale=0)


def test_export_rejects_what_is_not_a_figure():
    with pytest.raises(TypeError, match="got dict"):
        figure_to_pdf({"data": []})


@needs_browser
@needs_pdftoppm
def test_pdf_page_is_neither_blank_nor_near_black_under_streamlit(tmp_path):
    assert pio.templates.default == "streamlit"  # the trap is armed
    from assess.present.charts import confusion_matrix_chart

    fig = confusion_matrix_chart(matrix=np.array([[50, 10], [5, 35]]), classes=["no", "yes"],
                                 title="Confusion matrix under streamlit")
    page = _render_rgb(figure_to_pdf(fig), tmp_path)
    assert _grey_mean(page) > 200, f"near-black page (mean {_grey_mean(page):.0f})"
    assert _dark_share(page) > 0.002, "blank page: no dark pixels"
    assert _colour_share(page) > 0.02, "no palette colour in the cells"


@needs_browser
@needs_pdftoppm
def test_export_pins_our_template_on_figures_built_with_the_streamlit_default(tmp_path):
    heat = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]]), layout=dict(title="Heatmap without a template"))
    line = go.Figure(go.Scatter(x=[0, 1, 2], y=[0, 1, 0]), layout=dict(title="Line without a template"))
    assert heat.layout.template.layout.colorway[0] == "#000001"  # what streamlit's default template gives
    heat_page = _render_rgb(figure_to_pdf(heat), tmp_path)
    assert _grey_mean(heat_page) > 140 and _dark_share(heat_page) > 0.002
    line_page = _render_rgb(figure_to_pdf(line), tmp_path)
    assert _grey_mean(line_page) > 200 and _dark_share(line_page) > 0.002
    assert _colour_share(line_page) > 0.0005, "the line lost its palette colour"


@needs_browser
@needs_pdftoppm
def test_the_pixel_checks_catch_the_streamlit_template(tmp_path):
    """Rendered with streamlit's template, heatmaps do come out near-black and lines colourless: the two tests
    above can fail."""
    def unpinned(fig):
        with export._LOCK:
            return export._render_locked(fig, {"format": "pdf", "width": 760, "height": 480, "scale": 1})

    heat = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]]), layout=dict(title="Unpinned", template="streamlit"))
    assert _grey_mean(_render_rgb(unpinned(heat), tmp_path)) < 140
    line = go.Figure(go.Scatter(x=[0, 1, 2], y=[0, 1, 0]), layout=dict(title="Unpinned", template="streamlit"))
    assert _colour_share(_render_rgb(unpinned(line), tmp_path)) < 0.0001


@needs_browser
def test_concurrent_exports_each_get_their_own_figure():
    titles = [f"Thread {i} title" for i in range(6)]
    results: dict[str, bytes] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(titles))

    def work(title):
        try:
            barrier.wait(timeout=30)
            results[title] = figure_to_pdf(_line_figure(title))
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in titles]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    for title in titles:
        (text,) = _pdf_text(results[title])
        assert title in text
        assert all(other not in text for other in titles if other != title)


@needs_browser
def test_export_survives_a_crashed_browser():
    figure_to_pdf(_line_figure("before"))
    process = export._server[3].subprocess  # the browser this module started
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
    assert "after the crash" in _pdf_text(figure_to_pdf(_line_figure("after the crash")))[0]


@needs_browser
def test_a_missing_browser_is_one_clear_error(monkeypatch):
    monkeypatch.setenv("BROWSER_PATH", "/nonexistent/chromium")
    export.stop_export_browser()
    try:
        with pytest.raises(ExportError, match="could not start the export browser.*/nonexistent/chromium"):
            figure_to_pdf(_line_figure("never"))
    finally:
        monkeypatch.undo()
        export.stop_export_browser()
