"""A `Report` as a self-contained HTML file, a PDF, or a ZIP of JSON and CSV tables — written atomically.

Why one HTML template printed by Chromium
-----------------------------------------
The report is written once, as HTML with Jinja2 (``templates/report.html.j2``: autoescaped, so nothing from a file
becomes markup), and the PDF is that HTML printed by the headless Chromium the app already depends on for chart
export. One template gives one layout for both formats; Chromium honours CSS paged media (``@page`` size A4 or
Letter, margin boxes for "Page n of N"), embeds the fonts it used (Liberation Sans, from ``fonts-liberation``), keeps
text as text and charts as vectors, and turns the table of contents' ``#anchor`` links into PDF links and, with
``--generate-pdf-document-outline``, bookmarks. A low-level PDF library would mean placing every line by hand, twice.

How the browser runs
--------------------
Charts are embedded as plotly figures with plotly.js itself inlined from the installed plotly package (one copy,
~4.8 MB), drawn when the page opens: the HTML makes no request at all — it opens offline, keeps its hover — and
building it costs no browser round trip per chart (rendering each chart to SVG through kaleido took ~0.3–1.5 s a
chart, past the 3 s budget for 18 charts). WebGL scatter traces become SVG scatter traces, so every chart prints as
vectors. Figure JSON sits in ``<script type="application/json">`` blocks with ``<``, ``>`` and ``&`` escaped, so no
text from a file can close the script or become markup.

The PDF comes from ``chromium --headless --print-to-pdf`` in a fresh, private profile directory, with networking,
extensions, GPU and first-run tasks off, after the page's scripts ran (``--virtual-time-budget``), one print at a
time (`_PRINT_LOCK`: two Chromium processes printing at once on a 2-core server only double each other's time),
killed after `PRINT_TIMEOUT_S`. A separate short-lived process rather than kaleido's tab: it needs no CDP code of
ours, and a crash cannot take the chart-export browser with it.

Files are never half-written: `write_report` writes to a temporary file in the target's directory and renames it.
"""

from __future__ import annotations

import contextlib
import functools
import html
import io
import json
import os
import re
import secrets
import subprocess
import tempfile
import threading
import zipfile
from collections.abc import Callable
from pathlib import Path

import jinja2
import plotly.io
import plotly.offline
import numpy as np
import pandas as pd

from assess.core.errors import AssessError
from assess.present.charts.style import AXIS_ROOM, HEIGHT, LEGEND_ROW, TEMPLATE, plain_lines
from assess.present.export import ExportError, browser_path, to_csv_bytes, to_json_bytes
from assess.inputs.columns import quote
from assess.core.formatting import (UNDEFINED, bounds, code_as_quotes, name_in_sentence, number, p_value,
                                    percent_level, significant)
from assess.metrics import baseline_columns, get, table_for
from assess.metrics.document import assessment_document
from assess.present.report.formula import formula_html
from assess.present.report.model import Report, metrics_settings
from assess.analyses.slices import MAX_SLICES
from assess.stats import TESTS
from assess.present.summary import baseline_text, coverage_name, long_frame

FORMATS = ("pdf", "html", "zip")
PAPERS = {"a4": "A4", "letter": "letter"}
PRINT_TIMEOUT_S = 120.0
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-extensions", "--disable-sync", "--disable-default-apps", "--no-first-run",
                  "--disable-component-update", "--disable-domain-reliability", "--mute-audio",
                  "--no-pdf-header-footer", "--generate-pdf-document-outline",
                  "--run-all-compositor-stages-before-draw",
                  "--virtual-time-budget=1000")

_PRINT_LOCK = threading.Lock()
_ENV = jinja2.Environment(loader=jinja2.PackageLoader("assess.present.report", "templates"),
                          autoescape=jinja2.select_autoescape(["html", "j2"]), trim_blocks=True, lstrip_blocks=True,
                          undefined=jinja2.StrictUndefined)


def _label(name: str) -> str:
    """A column or baseline name for reading: ``baseline_majority`` → "Majority"."""
    return str(name).replace("baseline_", "").replace("_", " ").capitalize()


def _cell(value, *, count: bool = False) -> str:
    if isinstance(value, (float, np.floating, int, np.integer)) and not isinstance(value, bool):
        return number(float(value), count=count or (float(value).is_integer() and abs(value) >= 10))
    return "" if value is None or (isinstance(value, float) and np.isnan(value)) else str(value)


def _result_text(result, *, count: bool) -> str:
    if not result.defined:
        return UNDEFINED
    ci = bounds(result.low, result.high)
    return number(result.value, count=count) + (f" ({ci})" if ci else "")


#: Width of a chart in the report, px: the A4/Letter text width (182 mm at 96 px per inch, less a little).
CHART_WIDTH = 680
#: Height a chart of the Charts section may take, px, by paper: two charts and their captions (up to four lines)
#: fill one page — A4's text height is 263 mm = 994 px, Letter's 245 mm = 927 px, less ~95 px of caption and
#: spacing per chart. A chart whose plot would be flatter than `MIN_PLOT` to fit keeps its height and a page alone.
HALF_PAGE = {"a4": 385, "letter": 350}
MIN_PLOT = 190
#: A key chart on the summary page: drawn at half the text width (two side by side in the 85 mm columns) at its own
#: size, not zoomed, so its text prints at the fonts' sizes (12 px ticks = 9 pt); 0.52× zoom made them 4.7 pt.
KEY_WIDTH = 320
#: A wide key chart (`ReportFigure.wide`) spans both columns and the 4 mm gap between them: 174 mm = 655 px.
KEY_WIDE_WIDTH = 655
KEY_HEIGHT = 330
#: Margin above the plot once the chart's title is left out (the figure caption under it names the chart).
_TOP = 24
_SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def _text_px(text: str) -> float:
    """Width of ``text`` in the 12 px legend font, px, on the safe side: Liberation Sans averages 5.6 px a character
    in mixed text (measured), capitals and W/M up to 11 px."""
    text = html.unescape(re.sub(r"<[^>]+>", "", str(text)))
    return sum(9.0 if ch.isupper() or ch in "mwMW%@" else 6.0 for ch in text)


def _in_legend(trace: dict) -> bool:
    """Whether a trace's legend entry shows (as `assess.present.charts.style.legend_entries` counts them)."""
    shown = trace.get("showlegend")
    return shown is True or (shown is None and bool(trace.get("name"))
                             and trace.get("type", "scatter") in ("scatter", "scattergl", "bar", "histogram"))


def fitted_layout(fig, *, width: int, budget: int, compact: bool = False) -> tuple[dict, list]:
    """``fig``'s layout and data for a page of the report: ``width`` px wide, its title left out (the caption names
    it), its plot made lower so that the whole chart takes at most ``budget`` px — unless the plot would then be
    flatter than `MIN_PLOT`, or a chart without legend (a matrix, whose rows hold text) than 60 % of its height: it
    then keeps its height.

    A legend under the plot (`assess.present.charts.style.legend_below`) goes in two columns of half the plot's
    width when every entry fits one, so it takes half the rows. ``compact`` (a key chart, half the text width): one
    column, names broken into lines that fit it, shaded bands left out of the legend (the
    caption says where they are named), and a plot down to 60 % of `MIN_PLOT`."""
    spec = fig.to_plotly_json()
    layout, data = dict(spec.get("layout", {})), [dict(t) for t in spec["data"]]
    meta = layout.get("meta") if isinstance(layout.get("meta"), dict) else {}
    margin = dict(layout.get("margin") or {})
    top = margin.get("t") if margin.get("t") is not None else 70
    height = layout.get("height") or meta.get("height_without_legend") or HEIGHT
    legend = None
    if "height_without_legend" in meta and any(map(_in_legend, data)):
        axis_room = max(meta["bottom_without_legend"], AXIS_ROOM)
        plot = meta["height_without_legend"] - top - axis_room
        legend = dict(layout.get("legend") or {})
        if compact:
            for t in data:
                if t.get("fill") not in (None, "none") and _in_legend(t):
                    t["showlegend"] = False
            # the legend starts at the plot's left edge (~70 px in) and must end inside the chart; 6 px a character
            chars = max(12, int((width - 140) / 6.0))
            for t in data:
                if _in_legend(t):
                    t["name"] = plain_lines(html.unescape(t["name"]), chars, lines=3)
            lines = sum(str(t["name"]).count("<br>") + 1 for t in data if _in_legend(t))
        else:
            names = [t["name"] for t in data if _in_legend(t)]
            # half the plot's width (the left margin is up to 90 px with tick labels and axis title): plotly.js
            # puts the second entry on a row of its own when the two do not fit; an entry's width is its text's
            # plus ~45 px of symbol and padding
            text = ((width - 90 - (margin.get("r") if margin.get("r") is not None else 30)) // 2) - 45
            cols = 2 if max(map(_text_px, names)) <= text else 1
            lines = -(-len(names) // cols)
            if cols == 2:
                legend.update(orientation="h", entrywidth=text, entrywidthmode="pixels")
        below = axis_room + lines * LEGEND_ROW + 8
    else:
        below = margin.get("b") if margin.get("b") is not None else 60
        plot = height - top - below
    room = budget - _TOP - below
    floor = MIN_PLOT * (0.6 if compact else 1) if legend is not None else max(MIN_PLOT, 0.6 * plot)
    if room < plot and room >= floor:
        plot = room
    if legend is not None:    # under the x axis title, in units of the plot's height (as legend_below places it)
        legend["y"] = -axis_room / plot
        layout["legend"] = legend
    if compact:   # an axis title longer than a half-width plot is broken into lines rather than cut at its edge
        for name, axis in list(layout.items()):
            text = (axis.get("title") or {}).get("text") if isinstance(axis, dict) and name[1:5] == "axis" else None
            if text and "<br>" not in text:
                span = plot if name.startswith("y") else width - 100
                lines = html.unescape(text)
                layout[name] = axis | {"title": axis["title"] | {"text": plain_lines(lines, max(10, int(span / 7)))}}
    title = dict(layout.get("title") or {})
    title.update(text=None, subtitle=dict(text=None))
    layout.update(title=title, margin=margin | {"t": _TOP, "b": below}, height=_TOP + plot + below, width=width,
                  autosize=False)
    return layout, data


def _bands_note(fig, number: int) -> str:
    """What a key chart's caption says of the shaded bands its compact legend leaves out."""
    if not any(t.get("fill") not in (None, "none") and _in_legend(t) for t in fig.to_plotly_json()["data"]):
        return ""
    return f"Shaded bands are named in the legend of Figure {number} in the Charts section."


def subtitle_of(fig) -> str:
    """The chart's subtitle as plain text (said in the caption once the chart's title is left out)."""
    text = fig.layout.title.subtitle.text if fig.layout.title and fig.layout.title.subtitle else None
    return html.unescape(re.sub(r"<[^>]+>", " ", text)).strip() if text else ""


def figure_json(fig, *, width: int = CHART_WIDTH, budget: int = HALF_PAGE["a4"], compact: bool = False) -> str:
    """The figure as JSON safe inside a ``<script>`` element, laid out for the page (`fitted_layout`): the "assess"
    template pinned (``import streamlit`` changes plotly's default), WebGL traces as SVG traces (they print as
    vectors).

    Works on the figure's plain dict: copying a `go.Figure` re-validates the template, ~0.2 s a chart."""
    layout, data = fitted_layout(fig, width=width, budget=budget, compact=compact)
    layout["template"] = _template_json()
    data = [trace | {"type": "scatter"} if trace.get("type") == "scattergl" else trace for trace in data]
    text = plotly.io.json.to_json_plotly({"data": data, "layout": layout}, engine="json")
    return re.sub("[<>&\u2028\u2029]", lambda m: _SCRIPT_ESCAPES[m.group(0)], text)


@functools.cache
def _template_json() -> dict:
    return plotly.io.templates[TEMPLATE].to_plotly_json()


def context(report: Report, *, paper: str = "a4", progress: Callable[[float, str], None] | None = None) -> dict:
    """Everything the template shows, as plain strings and lists (the template only lays out)."""
    a, task = report.assessment, report.task
    say = progress or (lambda f, what: None)
    figures = []
    for i, f in enumerate(report.figures):
        subtitle = subtitle_of(f.figure)
        figures.append({"id": f"chart-{i + 1}", "number": i + 1, "title": f.title,
                        "caption": f.caption + (f" {subtitle[0].upper()}{subtitle[1:]}." if subtitle else ""),
                        "json": figure_json(f.figure, budget=HALF_PAGE[paper]), "summary": f.summary,
                        "key_json": figure_json(f.key_figure or f.figure, budget=KEY_HEIGHT, compact=True,
                                                width=KEY_WIDE_WIDTH if f.wide else KEY_WIDTH)
                        if f.summary else "", "wide": f.wide,
                        "key_caption": " ".join(filter(None, (f.key_caption,
                                                              _bands_note(f.key_figure or f.figure, i + 1))))})
        say((i + 1) / max(1, len(report.figures)), "laying out the charts")
    level = percent_level(report.options.confidence_level)
    nominal = a.predictions(report.models[0]).interval_level if report.models else None
    headline_rows = []
    for key in report.headline:
        spec = get(task, key)
        name = coverage_name(spec.name, nominal) if key == "coverage" else spec.name
        cells = [_result_text(r[key], count=spec.kind == "count") for r in report.reports.values()]
        first = next(iter(report.reports.values()))[key]
        base = {b: v for b, v in first.baselines.items() if np.isfinite(v)}
        headline_rows.append({"name": name, "cells": cells, "direction": {"higher": "higher is better",
                              "lower": "lower is better"}.get(spec.direction, ""),
                              "baseline": "; ".join(f"{_label(b)} {number(v)}" for b, v in base.items())})
    metric_tables = []
    for model, r in report.reports.items():
        rows = []
        for res in r.results:
            spec = get(task, res.key)
            count = spec.kind == "count"
            rows.append({"name": coverage_name(spec.name, nominal) if res.key == "coverage" else spec.name,
                         "value": _result_text(res, count=count),
                         "baselines": [baseline_text(res, b, count=count) for b in baseline_columns(task)],
                         "why": res.reason or res.note or ""})
        table = None
        if r.table is not None and len(r.table):
            frame = r.table.reset_index() if not isinstance(r.table.index, pd.RangeIndex) else r.table
            names = {c.key: c.name for c in table_for(task)}   # the Metrics page's headers, not the raw keys
            table = {"columns": [names.get(str(c), _label(c)) for c in frame.columns],
                     "rows": [[_cell(v, count=str(c) in ("support", "tp", "fp", "fn", "tn", "n")) for c, v in
                               zip(frame.columns, row)] for row in frame.itertuples(index=False, name=None)]}
        metric_tables.append({"model": model, "n": f"{r.n:,}", "rows": rows, "per_class": table,
                              "method": next((res.method for res in r.results if res.method), "")})
    definitions = []
    if report.reports:
        keys = list(dict.fromkeys(k for r in report.reports.values() for k in r.keys))
        for key in keys:
            spec = get(task, key)
            definitions.append({"name": spec.name, "formula": formula_html(spec.latex), "meaning": spec.meaning,
                                "source": spec.source,
                                "direction": {"higher": "higher is better", "lower": "lower is better"}.get(
                                    spec.direction, "")})
    tests, alpha = [], _alpha(report)
    for c in report.comparisons:
        checked = c.checked
        spec = TESTS.get(c.test)
        pairs = [{"a": p.model_a, "b": p.model_b, "method": p.result.method,
                  "p": p_value(p.result.pvalue, alpha), "adjusted": p_value(p.pvalue_adjusted, alpha),
                  "effect": (f"{p.result.effect.name} {number(p.result.effect.value)}"
                             + (f" ({bounds(p.result.effect.interval.low, p.result.effect.interval.high)})"
                                if bounds(p.result.effect.interval.low, p.result.effect.interval.high) else ""))
                  if p.result.effect is not None else ""} for p in c.pairs]
        tests.append({"name": spec.title if spec is not None else c.test,
                      "method": c.result.method if c.result is not None else (checked.method if checked else ""),
                      "p": p_value(c.result.pvalue, alpha) if c.result is not None else "",
                      "design": f"{c.design.kind} — {c.design.reason}" if c.design is not None else "",
                      "correction": c.correction or "none",
                      "assumptions": [{"name": s.name, "met": {True: "met", False: "not met", None: "cannot tell"}[
                          s.met], "detail": s.detail} for s in (checked.assumptions if checked else ())],
                      "sentence": c.sentence, "pairs": pairs})
    settings = json.dumps(report.options.settings, indent=2, ensure_ascii=False) if report.options.settings else ""
    return {
        "costs": _costs_context(report), "slices": _slices_context(report), "over_time": _over_time_context(report),
        "found": _found_context(report),
        "title": report.options.title, "paper": PAPERS[paper], "created": report.created,
        "file": a.table.name, "sha256": a.table.sha256, "rows": f"{report.n_rows:,}",
        "unlabelled": f"{a.n_unlabelled:,}" if a.n_unlabelled else None, "task": a.task.value,
        # in quotes: a class named "." read "positive class: ." in the header
        "positive": code_as_quotes(quote(a.positive)) if a.positive is not None else None, "classes": ", ".join(a.classes) if len(a.classes) <= 12 else
        f"{len(a.classes):,} classes", "models": list(report.models), "decision": report.decision_text(),
        "level": level, "ci": report.options.ci or "none", "resamples": f"{report.options.n_resamples:,}",
        "seed": report.options.seed, "versions": report.versions, "model_names": list(report.reports),
        "headline": headline_rows, "verdict": report.verdict, "recommendation": report.recommendation.text,
        "separated": report.recommendation.separated, "figures": figures,
        "key_figures": [f for f in figures if f["summary"]], "metric_tables": metric_tables,
        "baseline_names": [_label(b) for b in baseline_columns(task)] if report.reports else [],
        "definitions": definitions, "tests": tests, "skipped": dict(report.skipped),
        # "paired — every model …": a colon after "Design:" read "Design: paired: every model …"
        "design": f"{report.design.kind} — {report.design.reason}" if report.design is not None else "",
        "checklist": [{"clause": row.item.clause, "title": row.item.title, "question": row.item.question,
                       # the controls' findings name columns as Markdown code; the report prints text as it is
                       "found": code_as_quotes(row.found), "answer": row.answer} for row in report.checklist],
        "settings": settings, "command": report.options.command, "notes": list(report.notes),
        "plotly_js": plotly.offline.get_plotlyjs() if figures else "", "key_width": KEY_WIDTH,
        "key_wide_width": KEY_WIDE_WIDTH,
    }


def _alpha(report: Report) -> float:
    """The report's significance level, free of binary noise (0.05, not 0.050000000000000044): p-values are written
    with the digits that keep them on their side of it."""
    return round(1 - report.options.confidence_level, 12)


def _slices_context(report: Report) -> dict | None:
    """The subgroup section: each model's worst slice, its value against all rows and its adjusted p."""
    sl = report.slices
    if sl is None:
        return None
    return {"columns": ", ".join(sl.columns), "metric": sl.name, "metric_in_sentence": name_in_sentence(sl.name),
            "min_size": f"{sl.min_size:,}", "declared": sl.declared,
            "max_slices": MAX_SLICES,
            "rows": [{"model": r["model"], "slice": r["slice"], "n": f"{r['n']:,}", "value": number(r["value"]),
                      "overall": number(r["overall"]),
                      "p": p_value(r["p_adjusted"], _alpha(report)) if np.isfinite(r["p_adjusted"]) else
                      f"not tested (under {sl.min_size:,} rows)"} for r in sl.rows]}


def _over_time_context(report: Report) -> dict | None:
    """The over-time section: every model's metric per period with its interval, its change against the reference
    and the adjusted p, and the sentences of the significant changes."""
    ot = report.over_time
    if ot is None:
        return None
    alpha = _alpha(report)
    return {"column": ot.column, "period": ot.period, "metric": ot.name, "reference": ot.reference,
            "sentences": list(ot.sentences),
            "rows": [{"model": r["model"], "period": r["period"], "n": f"{r['n']:,}",
                      "labelled": f"{r['n_labelled']:,}",
                      "value": number(r["value"]) if np.isfinite(r["value"]) else UNDEFINED,
                      "interval": bounds(r["low"], r["high"]) or UNDEFINED,
                      "change": "reference" if r["reference"] else
                      (number(r["difference"]) if np.isfinite(r["difference"]) else "not tested"),
                      "p": p_value(r["p_adjusted"], alpha, cell=True) if np.isfinite(r["p_adjusted"]) else UNDEFINED}
                     for r in ot.rows]}


def _found_context(report: Report) -> dict | None:
    """The weak slices found by the search, each with its interval, the rest's value, the difference with its
    interval and its adjusted p; with how many slices were looked at."""
    fs = report.found
    if fs is None:
        return None
    alpha = _alpha(report)
    looked = sum(fs.looked_at.values())
    return {"metric": fs.name, "metric_in_sentence": name_in_sentence(fs.name), "min_size": f"{fs.min_size:,}",
            "max_conditions": fs.max_conditions,
            "looked_at": f"{looked:,}", "level": f"{alpha:g}",
            "rows": [{"model": r["model"], "slice": r["slice"], "n": f"{r['n']:,}", "value": number(r["value"]),
                      "interval": bounds(r["low"], r["high"]), "rest": number(r["rest"]),
                      "difference": number(r["difference"]),
                      "difference_interval": bounds(r["difference_low"], r["difference_high"]),
                      "p": p_value(r["p_adjusted"], alpha)} for r in fs.rows]}


def _costs_context(report: Report) -> dict | None:
    """The costs section: the stated cost matrix with each model's expected cost, and the measured running costs;
    None when there is neither."""
    mc, rc = report.misclassification, report.running
    if mc is None and rc is None:
        return None
    out = {"misclassification": None, "running": None}
    if mc is not None:
        out["misclassification"] = {
            "classes": list(mc.classes),
            "matrix": [{"name": c, "costs": [f"{v:g}" for v in row]} for c, row in zip(mc.classes, mc.matrix)],
            "optimum": any(r.optimal_rule for r in mc.models),
            "rows": [{"model": r.model, "rule": r.rule, "samples": number(r.samples, count=True),
                      "errors": number(r.errors, count=True), "expected": significant(r.expected, 4, cell=True),
                      "optimal_rule": r.optimal_rule or "— (no scores)",
                      "optimal_expected": significant(r.optimal_expected, 4, cell=True)} for r in mc.models],
            "sentence": mc.sentence}
    if rc is not None:
        out["running"] = {"columns": [str(c) for c in rc.table.columns],
                          "rows": [[str(v) for v in row] for row in rc.table.itertuples(index=False, name=None)],
                          "sentence": rc.sentence}
    return out


def render_html(report: Report, *, paper: str = "a4", progress=None) -> str:
    """The report as one self-contained HTML document (charts inline, no script, no external resource)."""
    paper = _paper(paper)
    return _ENV.get_template("report.html.j2").render(**context(report, paper=paper, progress=progress))


def html_to_pdf(html: str) -> bytes:
    """Print ``html`` to PDF with headless Chromium (page size and numbers from the document's CSS ``@page``)."""
    chromium = browser_path() or "chromium"
    with _PRINT_LOCK, tempfile.TemporaryDirectory(prefix="assess-report-") as tmp:
        page, out = Path(tmp) / "report.html", Path(tmp) / "report.pdf"
        page.write_text(html, encoding="utf-8")
        command = [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={Path(tmp) / 'profile'}",
                   f"--print-to-pdf={out}", page.as_uri()]
        try:
            done = subprocess.run(command, capture_output=True, timeout=PRINT_TIMEOUT_S, check=False,
                                  start_new_session=True)
        except FileNotFoundError as exc:
            raise ExportError(f"could not start Chromium ({chromium}) to print the report: install Debian's "
                              "`chromium` package or set BROWSER_PATH") from exc
        except subprocess.TimeoutExpired as exc:
            raise ExportError(f"Chromium did not finish printing the report within {PRINT_TIMEOUT_S:.0f} s") from exc
        if not out.is_file() or out.stat().st_size == 0:
            tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
            raise ExportError(f"Chromium could not print the report (exit {done.returncode}): {tail[0]}")
        return out.read_bytes()


def render_pdf(report: Report, *, paper: str = "a4", progress=None) -> bytes:
    return html_to_pdf(render_html(report, paper=paper, progress=progress))


def report_document(report: Report) -> dict:
    """The report's numbers as one JSON-ready dict: the ``metrics`` CLI's document under ``"metrics"`` (with
    intervals, and the per-horizon, per-series, per-output and variance-weighted values where the file has them),
    each test's ``compare`` JSON under ``"tests"``, the checklist, the settings."""
    a = report.assessment
    return {
        "file": a.table.name, "sha256": a.table.sha256, "rows": report.n_rows, "task": a.task.value,
        # in quotes: a class named "." read "positive class: ." in the header
        "positive": code_as_quotes(quote(a.positive)) if a.positive is not None else None, "classes": list(a.classes), "models": list(report.models),
        "created": report.created, "versions": dict(report.versions), "decision": report.decision_text(),
        "metrics": _metrics_document(report),
        "tests": [c.to_dict() for c in report.comparisons], "skipped_tests": dict(report.skipped),
        "verdict": report.verdict, "recommendation": report.recommendation.text,
        "charts": [{"title": f.title, "caption": f.caption} for f in report.figures],
        "checklist": [{"clause": r.item.clause, "key": r.item.key, "title": r.item.title, "checked": r.found,
                       "answer": r.answer} for r in report.checklist],
        "settings": dict(report.options.settings), "command": report.options.command,
        "costs": _costs_document(report),
        "slices": None if report.slices is None else {
            "columns": list(report.slices.columns), "declared": report.slices.declared, "metric": report.slices.key,
            "min_size": report.slices.min_size,
            "worst": [{k: (None if isinstance(v, float) and not np.isfinite(v) else v) for k, v in r.items()}
                      for r in report.slices.rows]},
        "over_time": None if report.over_time is None else {
            "column": report.over_time.column, "period": report.over_time.period, "metric": report.over_time.key,
            "reference": report.over_time.reference, "sentences": list(report.over_time.sentences),
            "periods": [{k: (None if isinstance(v, float) and not np.isfinite(v) else v) for k, v in r.items()}
                        for r in report.over_time.rows]},
        "found_slices": None if report.found is None else {
            "metric": report.found.key, "min_size": report.found.min_size,
            "max_conditions": report.found.max_conditions, "looked_at": dict(report.found.looked_at),
            "found": [{k: (None if isinstance(v, float) and not np.isfinite(v) else v) for k, v in r.items()}
                      for r in report.found.rows]},
    }


def _metrics_document(report: Report) -> dict:
    """``python -m assess metrics``'s JSON for the report's settings, written by the one writer of that document
    (`assess.metrics.document.assessment_document`) from the reports `build_report` computed."""
    a = report.assessment
    if not report.reports:   # a task without metrics
        return {"task": a.task.value, "models": {}, "undefined": {}}
    doc = assessment_document(a, metrics_settings(report.options), report.outputs or dict(report.reports),
                              breakdowns=report.breakdowns)
    return doc | report.running.document if report.running is not None else doc


def _costs_document(report: Report) -> dict | None:
    """The costs section as JSON: the matrix, each model's expected costs, the running costs (``metrics`` CLI's
    ``cost`` shape) and the sentences."""
    mc, rc = report.misclassification, report.running
    if mc is None and rc is None:
        return None
    out = {}
    if mc is not None:
        out["misclassification"] = {"classes": list(mc.classes), "matrix": [list(r) for r in mc.matrix],
                                    "models": {r.model: {"decision": r.rule, "samples": r.samples,
                                                         "errors": r.errors, "expected_cost": r.expected,
                                                         "optimal_threshold": r.optimal_threshold,
                                                         "optimal_rule": r.optimal_rule,
                                                         "optimal_expected_cost": r.optimal_expected}
                                               for r in mc.models},
                                    "sentence": mc.sentence}
    if rc is not None:
        out["running"] = {"models": {m: c.to_dict() for m, c in rc.costs.items()}, "sentence": rc.sentence}
    return out


def render_zip(report: Report) -> bytes:
    """report.json, settings.json and a CSV per table (formula injection neutralised by `assess.present.export`)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("report.json", to_json_bytes(report_document(report)))
        z.writestr("settings.json", to_json_bytes(dict(report.options.settings)))
        if report.reports:
            z.writestr("metrics.csv", to_csv_bytes(long_frame(report.reports)))
            for model, r in report.reports.items():
                if r.table is not None and len(r.table):
                    frame = r.table.reset_index() if not isinstance(r.table.index, pd.RangeIndex) else r.table
                    z.writestr(f"per_class_{_slug(model)}.csv", to_csv_bytes(frame))
        if report.comparisons:
            frames = [c.to_frame().assign(test=c.test) for c in report.comparisons]
            z.writestr("tests.csv", to_csv_bytes(pd.concat(frames, ignore_index=True)))
        if report.misclassification is not None:
            z.writestr("costs.csv", to_csv_bytes(pd.DataFrame([r.__dict__ for r in report.misclassification.models])))
        if report.running is not None:
            z.writestr("running_costs.csv", to_csv_bytes(report.running.table))
        if report.slices is not None:
            z.writestr("worst_slices.csv", to_csv_bytes(pd.DataFrame(list(report.slices.rows))))
        if report.found is not None and report.found.rows:
            z.writestr("found_slices.csv", to_csv_bytes(pd.DataFrame(list(report.found.rows))))
        z.writestr("checklist.csv", to_csv_bytes(pd.DataFrame(
            [{"clause": r.item.clause, "item": r.item.title, "checked_by_the_app": r.found, "answer": r.answer}
             for r in report.checklist])))
    return buffer.getvalue()


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", str(text)).strip("_")[:60] or "model"


def _paper(paper: str) -> str:
    key = str(paper).lower()
    if key not in PAPERS:
        raise AssessError(f"paper size must be one of {', '.join(PAPERS.values())} (got {paper!r})")
    return key


def format_of(path: str | os.PathLike) -> str:
    """``pdf``, ``html`` or ``zip`` from the output file's extension (a clear error otherwise)."""
    suffix = Path(path).suffix.lower().lstrip(".")
    suffix = "html" if suffix == "htm" else suffix
    if suffix not in FORMATS:
        raise AssessError(f"{path}: the report is written as .pdf, .html or .zip (got {Path(path).suffix or 'none'})")
    return suffix


def render_bytes(report: Report, fmt_: str, *, paper: str = "a4", progress=None) -> bytes:
    if fmt_ == "pdf":
        return render_pdf(report, paper=paper, progress=progress)
    if fmt_ == "html":
        return render_html(report, paper=paper, progress=progress).encode("utf-8")
    if fmt_ == "zip":
        return render_zip(report)
    raise AssessError(f"unknown report format {fmt_!r} (formats: {', '.join(FORMATS)})")


def write_atomically(path: str | os.PathLike, data: bytes) -> None:
    """``data`` to ``path`` through a temporary file in the same directory and a rename: a reader never sees a
    half-written file, and a failure leaves any earlier file as it was.

    The file gets the permissions of any file the user creates (0666 less the umask), as ``open(path, "wb")`` would
    give: `tempfile.mkstemp` makes 0600 whatever the umask, so a report saved for colleagues was theirs to read only
    after a ``chmod``. The temporary name is random and opened with ``O_EXCL``, as mkstemp's."""
    target = Path(path)
    tmp = target.parent / f".{target.name}.{secrets.token_hex(8)}.part"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_report(report: Report, path: str | os.PathLike, *, paper: str = "a4", progress=None) -> str:
    """Render ``report`` in the format of ``path``'s extension and write it atomically; returns the format."""
    fmt_ = format_of(path)
    write_atomically(path, render_bytes(report, fmt_, paper=paper, progress=progress))
    return fmt_
