"""House style of every chart: the "assess" Plotly template, the colour-blind-safe palette, model colours, labels.

Every figure in `assess.present.charts` is built with ``template=TEMPLATE`` ("assess"), never Plotly's default template:
``import streamlit`` switches ``plotly.io.templates.default`` to a "streamlit" template whose colours are placeholders
(``#000001``...) that only Streamlit's browser code resolves, so a figure relying on the default exports near-black.

The palette is Okabe & Ito (2008), "Color Universal Design", distinguishable under the common colour-vision
deficiencies. The font is Liberation Sans (metric-compatible with Arial, shipped by Debian's fonts-liberation), so
exported PDFs carry real, embedded, extractable text.

Text from a file (model, class, label and column names) is never markup in a figure: plotly.js reads a subset of
HTML in every text it draws (titles, legends, hover, annotations, tick labels: ``<a href>``, ``<b>``, ``<br>``...),
hover and text templates substitute ``%{...}``, and with MathJax on the page ``$...$`` is typeset. Every chart
function therefore takes plain text and passes each such string through `plain`; only the chart functions' own
strings carry markup.
"""

from __future__ import annotations

import textwrap

from collections.abc import Iterable, Mapping

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

TEMPLATE = "assess"

#: Okabe–Ito colours, ordered for lines on white: the first colours have the most contrast; yellow comes last.
OKABE_ITO: tuple[str, ...] = (
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#000000",  # black
    "#F0E442",  # yellow
)
#: Reference lines (chance, perfect model, baselines, thresholds) are grey and dashed, never a palette colour.
REFERENCE_COLOR = "#7F7F7F"
#: Averages drawn next to per-class curves; black, told apart by dash.
AVERAGE_STYLES: Mapping[str, tuple[str, str]] = {
    "micro-average": ("#000000", "dot"),
    "macro-average": ("#000000", "dash"),
}
#: Sequential scale of confusion-matrix cells (white → Okabe–Ito blue), readable in greyscale print.
HEATMAP_SCALE = [[0.0, "#FFFFFF"], [1.0, "#0072B2"]]

FONT_FAMILY = "Liberation Sans, Arial, Helvetica, sans-serif"
FONT_SIZE = 13  # px; ticks and legends 12 px, titles 16 px: all readable on a projector and in print
TICK_SIZE = 12
TITLE_SIZE = 16
HEIGHT = 480  # px; width follows the page (Streamlit) or EXPORT_WIDTH (files)
#: Presentation mode (a projector): every font, the figure's height and its margins this many times larger, so a
#: 16 px title reads as 22 px and a chart fills a 768 px-high screen; the "assess" template scaled by it.
PRESENTATION_SCALE = 1.4
PRESENTATION_TEMPLATE = "assess-presentation"
EXPORT_WIDTH = 760

#: Axis titles name the quantity and its unit ("%" of what, "× random", "score").
LABELS: Mapping[str, str] = {
    "fpr": "False positive rate (% of negatives flagged)",
    "tpr": "True positive rate (% of positives found)",
    "recall": "Recall (% of positives found)",
    "precision": "Precision (% of flagged that are positive)",
    "population": "Population targeted, highest scores first (%)",
    "gain": "Positives captured (% of all positives)",
    "lift": "Lift (× random targeting)",
    "predicted_probability": "Mean predicted probability (%)",
    "observed_frequency": "Observed frequency of positives (%)",
    "threshold": "Score threshold",
    "score": "Score",
    "cumulative": "Cumulative share of class (%)",
    "metric": "Metric value",
    "count": "Number of samples",
    "true_class": "True class",
    "predicted_class": "Predicted class",
}


def _build_template(scale: float = 1.0) -> go.layout.Template:
    white = pio.templates["plotly_white"]
    axis = dict(
        showline=True, linecolor="#444444", linewidth=1, ticks="outside", tickcolor="#444444",
        gridcolor="#E6E6E6", zerolinecolor="#E6E6E6", automargin=True,
        title=dict(font=dict(size=FONT_SIZE * scale), standoff=8), tickfont=dict(size=TICK_SIZE * scale),
    )
    # Only plotly_white's layout is kept: its per-trace defaults (colour scales for 30 trace types) would add ~6 KB to
    # every figure sent to the browser, and our traces set their own colours.
    layout = go.Layout(white.layout)
    layout.update(
        font=dict(family=FONT_FAMILY, size=FONT_SIZE * scale, color="#222222"),
        title=dict(font=dict(size=TITLE_SIZE * scale), x=0.0, xanchor="left", xref="paper", automargin=True,
                   subtitle=dict(font=dict(size=FONT_SIZE * scale, color="#555555"))),
        colorway=list(OKABE_ITO),
        paper_bgcolor="#FFFFFF", plot_bgcolor="#FFFFFF",
        xaxis=axis, yaxis=axis,
        legend=dict(font=dict(size=TICK_SIZE * scale), bgcolor="rgba(255,255,255,0.85)", bordercolor="#CCCCCC",
                    borderwidth=1, tracegroupgap=2),
        hoverlabel=dict(font=dict(family=FONT_FAMILY, size=TICK_SIZE * scale), bgcolor="#FFFFFF"),
        margin=dict(l=70 * scale, r=30 * scale, t=70 * scale, b=60 * scale),
        height=HEIGHT * scale,
    )
    return go.layout.Template(layout=layout)


pio.templates[TEMPLATE] = _build_template()
pio.templates[PRESENTATION_TEMPLATE] = _build_template(PRESENTATION_SCALE)


#: Past eight series (a 10-class problem's one-vs-rest curves): twelve hues far apart — Okabe–Ito without its yellow,
#: then five darks of Plotly's Dark24 that no Okabe–Ito colour is near — and after every twelve the next dash, so no two
#: of 48 series share a look; dark enough to read on a projector.
EXTENDED: tuple[str, ...] = OKABE_ITO[:7] + ("#862A16", "#6C7C32", "#750D86", "#FB00D1", "#778AAE")
DASHES: tuple[str, ...] = ("solid", "dash", "dot", "dashdot")


def model_colors(models: Iterable[str]) -> dict[str, str]:
    """One colour per model, by position in ``models``: pass the full model list so subsets keep their colours.

    A page computes ``model_colors(all_models)`` once and passes it as ``colors=`` to every chart, so "Model B" is
    vermillion on the ROC, the PR and the calibration chart alike. Up to eight names: Okabe–Ito; past eight, the
    twelve hues of `EXTENDED`, which `series_style` dashes after each twelve (48 distinct looks).

    >>> model_colors(["A", "B"])
    {'A': '#0072B2', 'B': '#D55E00'}
    """
    names = list(dict.fromkeys(models))
    palette = OKABE_ITO if len(names) <= len(OKABE_ITO) else EXTENDED
    return {name: palette[i % len(palette)] for i, name in enumerate(names)}


def rgba(hex_color: str, alpha: float) -> str:
    """A ``#RRGGBB`` colour with opacity ``alpha``, for the fill of a band in its curve's colour.

    >>> rgba("#0072B2", 0.2)
    'rgba(0,114,178,0.2)'
    """
    h = hex_color.lstrip("#")
    return f"rgba({int(h[0:2], 16)},{int(h[2:4], 16)},{int(h[4:6], 16)},{alpha})"


def series_style(name: str, colors: Mapping[str, str]) -> tuple[str, str]:
    """(colour, dash) of one series: averages are black and dashed; every other series in its colour, solid, or —
    among more than eight series — dashed by its place (each twelve the next of `DASHES`)."""
    if name in AVERAGE_STYLES:
        return AVERAGE_STYLES[name]
    if name not in colors:
        raise ValueError(f"no colour for series {name!r}; `colors` has {sorted(colors)}")
    if len(colors) <= len(OKABE_ITO):
        return colors[name], "solid"
    place = list(colors).index(name)
    return colors[name], DASHES[(place // len(EXTENDED)) % len(DASHES)]


def log_ticks(low: float, high: float) -> dict:
    """A log axis from ``low`` to ``high`` (> 0) labelled in full at 1, 2 and 5 of each decade: "10, 20, 50, 100"
    rather than plotly's D1/D2 ticks, which write every tick between two decades as a bare digit ("2" for 20 training
    samples); over more than four decades, the decades alone. Numbers from 1 up with thousands separators
    ("1,000"), below 1 as written ("0.05").

    >>> log_ticks(10, 120)["ticktext"]
    ['10', '20', '50', '100', '200']
    """
    low, high = float(min(low, high)), float(max(low, high))
    if not (np.isfinite(low) and np.isfinite(high) and low > 0):
        return dict(type="log")
    first, last = int(np.floor(np.log10(low))), int(np.ceil(np.log10(high)))
    steps = (1,) if last - first > 4 else (1, 2, 5)
    values = [m * 10.0 ** e for e in range(first, last + 1) for m in steps]
    # the ticks around the data: one step beyond each end, so the axis's own padding still shows a label there
    inside = [i for i, v in enumerate(values) if low <= v <= high]
    if inside:
        values = values[max(0, inside[0] - 1): inside[-1] + 2]
    text = [f"{v:,.0f}" if v >= 1 else f"{v:.10g}" for v in values]
    return dict(type="log", tickmode="array", tickvals=values, ticktext=text)


#: plotly.js decodes these entities after it has split a text at its tags (``convertEntities`` in
#: ``svg_text_utils.js``), so an escaped ``<a>`` is drawn as the characters "<a>", on screen and in an SVG export.
_PLAIN = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "%": "&#37;", "$": "&#36;"})


def plain(text) -> str:
    """``text`` as a plotly string that is drawn exactly as written: no tag, template variable or formula.

    ``&``, ``<`` and ``>`` become entities (no tag such as ``<a href>`` or ``<b>``), ``%`` becomes ``&#37;`` (no
    ``%{variable}`` in a hover template) and ``$`` becomes ``&#36;`` (no MathJax formula); plotly.js decodes the
    entities when it draws the text.

    >>> plain('<a href="https://x.example">50% & $1</a>')
    '&lt;a href="https://x.example"&gt;50&#37; &amp; &#36;1&lt;/a&gt;'
    """
    return str(text).translate(_PLAIN)


def visible(text) -> str:
    """A name that holds no letter or digit (a class called ``.``, ``-`` or ``+``) in quotes, so that on an axis it
    reads as a name and not as a speck: ``‘.’``. Other names as they are.

    >>> visible("."), visible("+1"), visible("no")
    ('‘.’', '+1', 'no')
    """
    text = str(text)
    return text if any(ch.isalnum() for ch in text) else f"‘{text}’"


def plain_lines(text, width: int, lines: int = 2) -> str:
    """``text`` as `plain` plotly text broken at spaces into at most ``lines`` lines of at most ``width`` characters,
    the rest cut with "…": a long class name on a matrix's axis then takes two short lines, not the plot's width.

    >>> plain_lines("Customer churned within 90 days", 16)
    'Customer churned<br>within 90 days'
    >>> plain_lines("<b>bold</b> and a very long name indeed", 12)
    '&lt;b&gt;bold&lt;/b&gt;<br>and a very…'
    """
    words = textwrap.wrap(str(text), width, max_lines=lines, placeholder="…", break_on_hyphens=False)
    return "<br>".join(plain(w) for w in words) if words else plain(text)


#: One legend entry per row (px, at the legend's 12 px font), and the room the x axis and its title take under the plot.
LEGEND_ROW = 20
AXIS_ROOM = 64
#: Traces that appear in a legend unless told otherwise (heatmaps, contours and annotations do not).
_LEGEND_TYPES = {"scatter", "scattergl", "bar", "histogram", "box", "violin"}


def legend_entries(fig: go.Figure) -> int:
    """How many entries ``fig``'s legend shows (a trace named and not hidden from it)."""
    return sum(1 for t in fig.data
               if t.showlegend is True or (t.showlegend is None and t.type in _LEGEND_TYPES and t.name))


def legend_below(fig: go.Figure) -> go.Figure:
    """Put ``fig``'s legend under the plot area, one entry per row, and make the figure taller by its rows.

    A legend inside the plot covers data (the ROC operating point, the KS curves, half of a multi-class
    precision–recall plot) and one to the side takes the plot's width on a 1024 px screen. Under the x axis, one
    entry per row, it never covers data, never needs a scrollbar and keeps the plot area the height of the template
    at any width; because the figure's height and bottom margin are fixed here, the exported PDF/PNG/SVG lays out the
    same legend as the screen. Call it after the last trace is added (again after adding more).
    """
    rows = legend_entries(fig)
    if rows == 0 or fig.layout.showlegend is False:
        return fig
    legend_px = rows * LEGEND_ROW + 8
    # The size before any legend room, kept in the layout's meta so a second call (a chart that adds a trace to
    # another chart's figure) recounts the rows instead of adding room twice.
    meta = fig.layout.meta if isinstance(fig.layout.meta, dict) else {}
    base_height = meta.get("height_without_legend", fig.layout.height or HEIGHT)
    bottom = meta.get("bottom_without_legend", fig.layout.margin.b if fig.layout.margin.b is not None else 60)
    axis_room = max(bottom, AXIS_ROOM)
    top = fig.layout.margin.t if fig.layout.margin.t is not None else 70
    plot_height = max(base_height - top - axis_room, 100)
    fig.update_layout(
        meta={**meta, "height_without_legend": base_height, "bottom_without_legend": bottom},
        height=base_height + legend_px,
        margin=dict(b=axis_room + legend_px),
        # In paper coordinates, left-aligned with the plot and just under the axis title: a legend referred to the
        # container (or sticking out sideways) would make plotly.js widen the left margin by the legend's width.
        legend=dict(orientation="v", x=0, xref="paper", xanchor="left", y=-axis_room / plot_height, yref="paper",
                    yanchor="top", bgcolor="rgba(0,0,0,0)", borderwidth=0, tracegroupgap=0),
        showlegend=True)
    return fig


def _scale_fonts(node, scale: float) -> None:
    """Multiply every explicit font size under ``node`` (a figure's JSON) by ``scale``, in place: the keys ending
    in "font" (font, tickfont, textfont, insidetextfont…) whose "size" is a number or a list of numbers."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith("font") and isinstance(value, dict) and "size" in value:
                size = value["size"]
                if isinstance(size, (int, float)):
                    value["size"] = size * scale
                elif isinstance(size, (list, tuple)):
                    value["size"] = [v * scale if isinstance(v, (int, float)) else v for v in size]
            _scale_fonts(value, scale)
    elif isinstance(node, (list, tuple)):
        for value in node:
            _scale_fonts(value, scale)


def presentation(fig: go.Figure, *, scale: float = PRESENTATION_SCALE) -> go.Figure:
    """A copy of ``fig`` for a projector: every text ``scale`` times larger, and the figure with it.

    The template becomes "assess-presentation" (the house template with fonts, margins and height scaled) and every
    size the chart set itself (a title's, a cell text's, a subplot title's) is scaled too; the height and the margins
    grow by the same factor, so a legend under the plot (`legend_below`, placed in units of the plot's height) keeps
    exactly the room its larger rows need. The original is left as it is (downloads print it at its normal size).
    """
    spec = fig.to_plotly_json()
    layout = spec.setdefault("layout", {})
    _scale_fonts(spec, scale)
    layout["template"] = pio.templates[PRESENTATION_TEMPLATE]
    if layout.get("height") is not None:
        layout["height"] = layout["height"] * scale
    margin = layout.get("margin") or {}
    layout["margin"] = {side: (value * scale if isinstance(value, (int, float)) and side in "lrtb" else value)
                        for side, value in margin.items()}
    return go.Figure(spec)
