"""Nothing from a file becomes markup: figures (plotly's HTML subset, templates, formulas), pages (Markdown, LaTeX,
HTML, autolinks) and exports (formula injection in CSV, numbers in JSON, live links in SVG/PDF).

Oracles are independent of the code under test: the figure's own JSON and the SVG parsed with xml.etree; every string
a page hands to Markdown checked for hostile text left unescaped outside code spans and for what GFM's autolink pass
would still link once escapes are resolved; CSV read back with the csv module, JSON with json, the PDF with pypdf.
The browser's view of the same walk is tests/browser/test_journey_injection.py.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest
from pypdf import PdfReader

from assess.present import charts, export
from assess import curves
from assess.present.charts.style import plain
from assess.curves import calibration_curve
from assess.intervals import ConfidenceInterval
from assess.metrics.threshold import metric_vs_threshold
from assess.stats import Effect
from ui.state import md
from tests.conftest import open_app

LINK = '<a href="https://x.example">click</a>'
BOLD = "<b>bold</b>"
TEMPLATED = "%{x} $\\frac{1}{0}$ & <i>it</i>"
MODELS = (LINK, TEMPLATED)
CLASSES = (BOLD, "plain")
#: Substrings that only a hostile name can bring into a figure: plotly's tags, a live link, a template, a formula.
NEVER_IN_A_FIGURE = ("<a", "<b>bold", "<i>", "%{x} ", "$\\frac")

needs_browser = pytest.mark.skipif(export.browser_path() is None and shutil.which("chromium") is None,
                                   reason="no Chromium for kaleido")


def _strings(node):
    """Every string in a figure's JSON (names, titles, templates, categories, text arrays)."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield str(key)
            yield from _strings(value)
    elif isinstance(node, (list, tuple)):
        for value in node:
            yield from _strings(value)


def _figure_strings(fig) -> list[str]:
    spec = json.loads(fig.to_json())
    spec["layout"].pop("template", None)  # ours, with no file text
    return list(_strings(spec))


def _scored(seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(400) < 0.3).astype(np.int8)
    s = np.clip(rng.random(400) * 0.7 + 0.3 * y, 0, 1)
    return y, s, curves.threshold_counts(y, s)


def _figures():
    """Every chart function, fed hostile model, class and label names and titles (as the pages pass them)."""
    data = {m: _scored(i) for i, m in enumerate(MODELS)}
    counts = {m: c for m, (_, _, c) in data.items()}
    colors = charts.model_colors(MODELS)
    of = lambda kind: {m: getattr(curves, f"{kind}_curve")(c) for m, c in counts.items()}  # noqa: E731
    bands = {m: charts.CurveBand(np.linspace(0, 1, 5), np.zeros(5), np.ones(5), label=BOLD) for m in MODELS}
    interval = ConfidenceInterval(-0.1, 0.2, 0.95, "bootstrap")
    effect = Effect("difference in accuracy", 0.05, interval)
    folds = pd.DataFrame({"model": [LINK] * 3 + [TEMPLATED] * 3, "fold": [BOLD, "2", "3"] * 2,
                          LINK: np.linspace(0.6, 0.9, 6)})
    y0, s0, c0 = data[LINK]
    ovr = {c: curves.roc_curve(counts[m]) for c, m in zip(CLASSES, MODELS)}
    return {
        "confusion": charts.confusion_matrix_chart(matrix=[[5, 1], [2, 7]], classes=CLASSES, title=LINK,
                                                   subtitle=TEMPLATED, expected_cost=0.2),
        "multilabel": charts.multilabel_confusion_chart(matrices=[[[5, 1], [2, 7]]] * 2, labels=CLASSES,
                                                        title=f"Confusion per label — {LINK}"),
        "roc": charts.roc_chart(curves=of("roc"), counts=counts, colors=colors, threshold=0.5, bands=bands,
                                hull=True, auc_ci={m: (0.1, 0.9) for m in MODELS}, title=LINK),
        "pr": charts.pr_chart(curves=of("pr"), counts=counts, colors=colors, threshold=0.5, title=LINK),
        "gain": charts.gain_chart(curves=of("gain"), counts=counts, colors=colors, threshold=0.5),
        "lift": charts.lift_chart(curves=of("lift"), counts=counts, colors=colors, threshold=0.5),
        "ks": charts.ks_chart(curves=of("ks"), colors=colors, title=LINK),
        "calibration": charts.calibration_chart(curves={m: calibration_curve(y, s) for m, (y, s, _) in data.items()},
                                                colors=colors, title=LINK),
        "distribution": charts.score_distribution_chart(
            scores_by_class={BOLD: s0[y0 == 1], TEMPLATED: s0[y0 == 0]},
            colors=dict(zip((BOLD, TEMPLATED), colors.values())),
            threshold=0.5, title=f"Score distribution by class — {LINK}"),
        "by_threshold": charts.metric_threshold_chart(metrics=metric_vs_threshold(c0, ("precision", "recall")),
                                                      threshold=0.5, title=f"Metrics by threshold — {LINK}"),
        "ovr": charts.ovr_chart(per_class=ovr, micro=curves.roc_curve(c0), macro_area=0.8,
                                colors=charts.model_colors(CLASSES), title=f"ROC — {LINK}"),
        "folds": charts.fold_curves_chart(folds=[curves.roc_curve(c) for c in counts.values()], name=LINK),
        "critical_difference": charts.critical_difference_chart(average_ranks={LINK: 1.2, TEMPLATED: 1.8, BOLD: 3.0},
                                                                critical_difference=0.9, title=LINK),
        "differences": charts.difference_chart(effects=[(f"{LINK} − {TEMPLATED}", effect)], title=LINK),
        "fold_box": charts.fold_box_chart(scores=folds, metric=LINK, colors=colors),
        **_numeric_figures(colors),
    }


def _numeric_figures(colors):
    """The regression and forecast charts, fed the same hostile model and series names and titles."""
    rng = np.random.default_rng(3)
    t = np.arange(12)
    actual = rng.normal(size=12).cumsum()
    forecasts = {m: {"time": t, "forecast": actual + rng.normal(size=12), "lower": actual - 2, "upper": actual + 2}
                 for m in MODELS}
    pairs = {m: (actual, f["forecast"]) for m, f in forecasts.items()}
    big = rng.normal(size=20_001)  # above DENSITY_ABOVE: drawn as a density, named by its own label
    return {
        "forecast": charts.forecast_chart(time=t, actual=actual, forecasts=forecasts, colors=colors, level=0.9,
                                          title=LINK),
        "error_over_time": charts.error_over_time_chart(errors={m: (t, y - actual) for m, (_, y) in pairs.items()},
                                                        colors=colors, title=LINK),
        "by_horizon": charts.metric_by_horizon_chart(values={m: (t + 1, np.abs(y - actual)) for m, (_, y)
                                                             in pairs.items()}, metric=LINK, colors=colors,
                                                     intervals={LINK: (np.zeros(12), np.ones(12))}),
        "by_series": charts.metric_by_series_chart(values={m: {BOLD: 1.2, TEMPLATED: 0.8} for m in MODELS},
                                                        metric=LINK, reference=1.0, colors=colors),
        "loss_difference": charts.loss_difference_chart(time=t, difference=rng.normal(size=12), names=MODELS,
                                                        loss=BOLD),
        "predicted_actual": charts.predicted_actual_chart(models=pairs, colors=colors, title=LINK),
        "density": charts.predicted_actual_chart(models={LINK: (big, big + rng.normal(size=big.size))},
                                                 colors=colors),
        "residuals": charts.residual_chart(models=pairs, colors=colors, title=LINK),
        "error_distribution": charts.error_distribution_chart(models=pairs, colors=colors, title=LINK),
        "error_by_decile": charts.error_by_decile_chart(models=pairs, colors=colors, title=LINK),
    }


FIGURES = _figures()


@pytest.mark.parametrize("name", list(FIGURES))
def test_no_file_text_becomes_plotly_markup(name):
    strings = _figure_strings(FIGURES[name])
    leaked = [(bad, s) for s in strings for bad in NEVER_IN_A_FIGURE if bad in s]
    assert not leaked, leaked
    # the names are shown, escaped (plotly.js decodes the entities when it draws them)
    escaped = {plain(LINK), plain(BOLD)}
    assert any(e in s for s in strings for e in escaped), strings


def test_plain_escapes_tags_templates_formulas_and_nothing_else():
    assert plain(LINK) == '&lt;a href="https://x.example"&gt;click&lt;/a&gt;'
    assert plain(TEMPLATED) == "&#37;{x} &#36;\\frac{1}{0}&#36; &amp; &lt;i&gt;it&lt;/i&gt;"
    assert plain("Model A (v2.1)") == "Model A (v2.1)"
    assert plain(3) == "3"


def test_our_own_markup_still_works_around_file_text():
    fig = FIGURES["confusion"]
    assert fig.layout.title.text == plain(LINK)
    assert fig.layout.title.subtitle.text == f"{plain(TEMPLATED)} · Expected cost per sample: 0.2000"
    assert fig.data[0].text[0] == "5<br>33.3%"  # the chart's own line break stays a tag
    assert list(fig.layout.xaxis.ticktext) == [plain(c) for c in CLASSES]


def _svg_elements(svg: bytes):
    return list(ET.fromstring(svg).iter())


@needs_browser
@pytest.mark.parametrize("name", ["confusion", "roc", "fold_box"])
def test_svg_export_has_no_link_or_script_from_file_text(name):
    svg = export.figure_to_svg(FIGURES[name])
    elements = _svg_elements(svg)
    tags = {el.tag.rsplit("}", 1)[-1] for el in elements}
    assert "a" not in tags and "script" not in tags and "foreignObject" not in tags
    hrefs = [v for el in elements for k, v in el.attrib.items() if k.rsplit("}", 1)[-1] == "href"]
    assert not [h for h in hrefs if "x.example" in h], hrefs
    text = "".join("".join(el.itertext()) for el in elements if el.tag.endswith("}text"))
    assert LINK in text  # drawn literally, as the characters the file holds


@needs_browser
def test_pdf_export_draws_file_text_literally_and_has_no_link():
    pdf = export.figures_to_pdf([FIGURES["confusion"], FIGURES["roc"]])
    for page in PdfReader(io.BytesIO(pdf)).pages:
        annotations = [a.get_object() for a in page.get("/Annots") or []]
        assert not [a for a in annotations if "/A" in a or a.get("/Subtype") == "/Link"], annotations
        # a tag plotly.js had read would leave only "click" on the page; the file's characters are all there
        assert 'href="https://x.example"' in page.extract_text()


# ----------------------------------------------------------------------------------------------------- tables --

FORMULAS = ['=HYPERLINK("http://evil.example","x")', "+1+cmd", "-2+3", "@SUM(A1)", "\tcmd", "\r=1"]


def test_csv_neutralises_text_cells_only():
    frame = pd.DataFrame({"model": FORMULAS, "class": ["-1", "+2", "-0.5", "1e3", "-1e-3", "a"],
                          "value": [-1, -0.25, 3, 4.5, -6, 7]})
    frame[FORMULAS[0]] = 1
    rows = list(csv.reader(io.StringIO(export.to_csv_bytes(frame).decode("utf-8"), newline="")))
    assert rows[0] == ["model", "class", "value", "'" + FORMULAS[0]]
    assert [r[0] for r in rows[1:]] == ["'" + f for f in FORMULAS]
    assert [r[1] for r in rows[1:]] == ["-1", "+2", "-0.5", "1e3", "-1e-3", "a"]  # numbers as text stay numbers
    assert [float(r[2]) for r in rows[1:]] == [-1, -0.25, 3, 4.5, -6, 7]


def test_json_keeps_strings_and_numbers_as_they_are():
    doc = {"classes": ["-1", "+1", *FORMULAS], "counts": {"-1": -3, FORMULAS[0]: 2.5}, "value": -1,
           "frame": pd.DataFrame({"class": ["-1", "=x"], "n": [-1, 2]})}
    out = json.loads(export.to_json_bytes(doc))
    assert out == {"classes": ["-1", "+1", *FORMULAS], "counts": {"-1": -3, FORMULAS[0]: 2.5}, "value": -1,
                   "frame": [{"class": "-1", "n": -1}, {"class": "=x", "n": 2}]}
    assert isinstance(out["value"], int) and isinstance(out["frame"][0]["n"], int)


# ------------------------------------------------------------------------------------------------------ pages --

#: A file whose model names, class labels and a column name carry HTML, Markdown, LaTeX, Streamlit shortcodes, bare
#: URLs and a spreadsheet formula.
HOSTILE_MODELS = ('<a href="https://evil.example">click</a> **bold**',
                  '$\\frac{1}{0}$ =HYPERLINK("http://evil.example","x")')
HOSTILE_POSITIVE = "[x](https://evil.example) http://evil.example www.evil.example"
HOSTILE_NEGATIVE = "<b>bold</b> ![i](https://evil.example/i.png) :material/home: me@evil.example"
HOSTILE_COLUMN = "**col** http://evil.example"
#: What must never reach Markdown outside a code span: each would render as a tag, bold text, a link, an image, a
#: formula, an icon or an autolinked URL / address.
RAW = ("<a ", "<b>", "**bold**", "**col**", "](https://", "![i]", "http://evil", "https://evil", "www.evil",
       "me@evil", "$\\frac", "=HYPERLINK", ":material/home:")
_CODE = re.compile(r"(?<!`)`[^`\n]+`(?!`)")  # a one-backtick code span: Markdown shows its content as it is
_MARKDOWN_BODIES = ("markdown", "caption", "error", "warning", "info", "success", "title", "header", "subheader")
_WIDGETS = ("button", "download_button", "selectbox", "multiselect", "radio", "number_input", "slider",
            "select_slider", "toggle", "checkbox", "text_input", "file_uploader", "expander", "tabs", "page_link")


def hostile_csv() -> bytes:
    rng = np.random.default_rng(0)
    n = 120
    truth = rng.random(n) < 0.4
    frames = []
    for model in HOSTILE_MODELS:
        score = np.clip(truth * 0.35 + rng.random(n) * 0.65, 0, 1).round(4)
        frames.append(pd.DataFrame({
            "model": model, "y_true": np.where(truth, HOSTILE_POSITIVE, HOSTILE_NEGATIVE),
            "y_pred": np.where(score >= 0.5, HOSTILE_POSITIVE, HOSTILE_NEGATIVE), "score": score,
            "fold": np.arange(n) % 5, HOSTILE_COLUMN: rng.random(n)}))
    return pd.concat(frames).to_csv(index=False).encode()


HOSTILE_THIRD = "$x^2$ :smile: a@evil.example"


def hostile_multiclass_csv() -> bytes:
    """Three hostile classes, with one probability column per class named after it (``proba_<class>``)."""
    labels = np.array([HOSTILE_POSITIVE, HOSTILE_NEGATIVE, HOSTILE_THIRD], dtype=object)
    rng = np.random.default_rng(1)
    n = 150
    truth = rng.integers(0, 3, n)
    frames = []
    for model in HOSTILE_MODELS:
        proba = rng.dirichlet([1, 1, 1], n) * 0.5
        proba[np.arange(n), truth] += 0.5
        frame = pd.DataFrame({"model": model, "y_true": labels[truth], "y_pred": labels[proba.argmax(axis=1)]})
        for k, label in enumerate(labels):
            frame[f"proba_{label}"] = proba[:, k].round(4)
        frames.append(frame)
    return pd.concat(frames).to_csv(index=False).encode()


def hostile_regression_csv() -> bytes:
    rng = np.random.default_rng(2)
    n = 120
    truth = rng.normal(size=n) * 10
    return pd.concat([pd.DataFrame({"model": model, "y_true": truth.round(3),
                                    "y_pred": (truth + rng.normal(size=n)).round(3), "fold": np.arange(n) % 5,
                                    HOSTILE_COLUMN: rng.random(n)}) for model in HOSTILE_MODELS]
                     ).to_csv(index=False).encode()


def _markdown_texts(at) -> list[str]:
    """Every string the page hands to Streamlit's Markdown renderer: element bodies, widget labels and tooltips,
    tab and expander labels, radio options."""
    texts = [e.value for kind in _MARKDOWN_BODIES for e in at.get(kind) if isinstance(getattr(e, "value", None), str)]
    for kind in _WIDGETS:
        for widget in at.get(kind):
            proto = widget.proto
            for field in ("label", "help", "body"):
                value = getattr(proto, field, None)
                if isinstance(value, str):
                    texts.append(value)
            if kind == "radio":
                texts.extend(proto.options)
    return texts


def _unescaped(raw: str, text: str) -> bool:
    """``raw`` occurs in ``text`` with no backslash escaping its first character (an even run of backslashes before
    it only escapes itself)."""
    for found in re.finditer(re.escape(raw), text):
        before = text[:found.start()]
        if (len(before) - len(before.rstrip("\\"))) % 2 == 0:
            return True
    return False


#: What GFM's autolink-literal pass links in the text left once escapes are resolved (GFM spec, "Autolinks
#: (extension)"): ``http://``, ``https://``, ``www.`` and e-mail addresses; a backslash does not stop it.
_AUTOLINKED = re.compile(r"(?i)(https?://|www\.)evil|[\w.+-]@evil\.")


def _raw_outside_code(texts: list[str]) -> list[tuple[str, str]]:
    found = []
    for text in texts:
        outside = _CODE.sub("", text)
        found += [(raw, text) for raw in RAW if _unescaped(raw, outside)]
        if _AUTOLINKED.search(re.sub(r"\\(.)", r"\1", outside)):
            found.append(("autolink", text))
    return found


CLASSIFICATION_PAGES = ("views/metrics.py", "views/confusion.py", "views/curves.py", "views/compare.py")


def _walk(at, pages=CLASSIFICATION_PAGES) -> dict[str, list[str]]:
    seen = {"views/data.py": _markdown_texts(at)}
    for page in pages:
        at.switch_page(page).run()
        assert not at.exception, (page, at.exception)
        if page == "views/compare.py":
            for label in ("Run test", "Run all suitable tests"):
                [button] = [b for b in at.button if b.label == label]
                button.click().run()
                assert not at.exception, (page, label, at.exception)
        seen[page] = _markdown_texts(at)
    return seen


@pytest.mark.parametrize(("make", "task", "pages"), [
    (hostile_csv, "binary", CLASSIFICATION_PAGES), (hostile_multiclass_csv, "multiclass", CLASSIFICATION_PAGES),
    (hostile_regression_csv, "regression", ("views/metrics.py", "views/errors.py", "views/compare.py"))])
def test_every_page_shows_hostile_file_text_literally(make, task, pages):
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("hostile.csv", make(), "text/csv").run()
    assert not at.exception
    assessment = at.session_state["assessment"]
    assert assessment.models == HOSTILE_MODELS and assessment.task.value == task  # the names reach the pages as is
    seen = _walk(at, pages)
    leaks = {page: _raw_outside_code(texts) for page, texts in seen.items()}
    assert not any(leaks.values()), {page: found for page, found in leaks.items() if found}
    # positive controls: the walk did see the file's text, escaped where it is not in a code span
    assert any("evil" in text for text in seen["views/data.py"])
    if task != "regression":  # the Metrics page's per-model tabs
        assert [md(m) for m in HOSTILE_MODELS] == [t.label for t in at.switch_page("views/metrics.py").run().tabs]


def test_markdown_helper_escapes_outside_code_spans_and_breaks_autolinks():
    texts = [md(f"Why: {HOSTILE_POSITIVE} and {HOSTILE_NEGATIVE} in {HOSTILE_COLUMN}"),
             *(md(m) for m in HOSTILE_MODELS)]
    assert not _raw_outside_code(texts)
    # a code span stays as written; a run of backticks cannot open one that would swallow the escapes
    assert md("Why: `**x**` is") == "Why\\: `**x**` is"
    assert "**" not in md("```**b**`") and "**" not in md("a``**b**``c")
    # what the reader sees once Markdown resolves the escapes and drops the invisible word joiners
    seen = re.sub(r"\\(.)", r"\1", texts[0]).replace("\u2060", "")
    assert seen == f"Why: {HOSTILE_POSITIVE} and {HOSTILE_NEGATIVE} in {HOSTILE_COLUMN}"
