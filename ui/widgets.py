"""Streamlit-only helpers shared by the pages: charts with downloads, the threshold control, the decision note."""

from __future__ import annotations

import hashlib
import math
import re
import time

import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitDuplicateElementKey

from assess.present.charts.style import PRESENTATION_SCALE, presentation
from assess.present.export import figure_to_pdf, figure_to_png, figure_to_svg, figures_to_pdf
from assess.core.defaults import DEFAULT_RESAMPLES
from assess.core.data import Task
from assess.core.formatting import UNDEFINED, header
from assess.metrics import GROUPS
from assess.inputs.assessment import Assessment
from assess.present.settings import PAGE_RESAMPLES, SEED
from assess.present.summary import model_frame
from ui.state import Key, current_decision, md, set_decision

def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "chart"


#: Width (px) of a chart in a row of charts: rows wrap, so two stand side by side from a 1440-px screen (with the
#: sidebar open) and one per row below that, each wide enough for its axis titles and legend.
CHART_WIDTH = 470
#: Width of a small chart (a 2×2 confusion matrix): two per row at 1024 px, three from 1440 px.
SMALL_CHART_WIDTH = 270
#: Presentation mode's page text: the root font size (which every rem-sized Streamlit text follows) this much larger,
#: in step with the charts' `assess.present.charts.style.PRESENTATION_SCALE`. A constant style sheet: no text from a file.
PRESENTATION_TEXT_SCALE = 1.25
_PRESENTATION_CSS = f"<style>html {{ font-size: {100 * PRESENTATION_TEXT_SCALE:.0f}%; }}</style>"


def presenting() -> bool:
    """Presentation mode (sidebar toggle): one chart per row, full width, larger text, the sidebar and option
    panels collapsed; for a projector."""
    return bool(st.session_state.get(Key.PRESENTATION, False))


def sidebar_state() -> str:
    """``initial_sidebar_state`` for `st.set_page_config`: collapsed while presenting. Streamlit applies a change of
    it on the next run, unless the person has opened or closed the sidebar by hand in this browser before (their
    choice, kept in the browser's local storage, wins)."""
    return "collapsed" if presenting() else "auto"


def presentation_style() -> None:
    """Larger page text while presenting (a style-only `st.html` is applied to the whole page and takes no room)."""
    if presenting():
        st.html(_PRESENTATION_CSS)


def chart_row(*, small: bool = False):
    """A container whose charts (placed with `chart(..., in_row=True)` or `chart_cell`) wrap onto new rows as the
    screen narrows instead of shrinking into columns; one chart per row in presentation mode (small charts, such as
    2×2 matrices, stay side by side)."""
    return st.container() if presenting() and not small else st.container(horizontal=True, gap="small")


def chart_cell(*, small: bool = False, key: str | None = None):
    """One place in a `chart_row`: a fixed width (a column would squeeze a chart to a sliver at 1024 px); in
    presentation mode full width, and a small chart as much wider as its text is larger."""
    if small:
        width = round(SMALL_CHART_WIDTH * PRESENTATION_SCALE) if presenting() else SMALL_CHART_WIDTH
    else:
        width = "stretch" if presenting() else CHART_WIDTH
    return st.container(width=width, key=key)


def draw(fig, *, key: str) -> None:
    """The figure on screen: our template, not Streamlit's (``theme=None``), so the PDF looks the same; in
    presentation mode its larger copy (`assess.present.charts.style.presentation`)."""
    st.plotly_chart(presentation(fig) if presenting() else fig, theme=None, key=key, config={"displaylogo": False})


def chart(fig, name: str, *, key: str, in_row: bool = False) -> None:
    """The figure as on screen (`draw`) and its PDF, PNG and SVG downloads (at the normal size, also in
    presentation mode), rendered only when clicked. ``in_row``: the chart takes one `chart_cell` of the
    enclosing `chart_row`."""
    if in_row:
        with chart_cell(key=f"cell_{key}"):
            chart(fig, name, key=key)
        return
    draw(fig, key=f"chart_{key}")
    slug = _slug(name)
    # Buttons as wide as their text, wrapping when the row is narrow: columns would cut "PDF" down to an icon.
    with st.container(horizontal=True, gap="small"):
        for fmt, render, mime in (("PDF", figure_to_pdf, "application/pdf"), ("PNG", figure_to_png, "image/png"),
                                  ("SVG", figure_to_svg, "image/svg+xml")):
            st.download_button(fmt, lambda render=render: render(fig), f"{slug}.{fmt.lower()}", mime,
                               key=f"{fmt.lower()}_{key}", help=md(f"Download the {name} chart as {fmt}"),
                               icon=":material/download:", on_click="ignore", width="content")


def headers_config(columns, names=None) -> dict:
    """``column_config`` that shows each column under its display name (`assess.core.formatting.header`: the registry's
    name, else the key in words) while the table keeps its keys for exports and tests."""
    return {c: st.column_config.Column(header(c, names)) for c in columns if isinstance(c, str)}


#: Advance widths (px) of the characters of a table cell, in the grid's font: Source Sans, regular, 14 px (Streamlit's
#: data grid theme: ``fontSizes.sm``, ``fontWeights.normal`` for cells and headers alike). Measured in Chromium with
#: canvas ``measureText`` — the call the grid itself sizes columns with. Digits are tabular (all 6.96 px): an average
#: per character (6.2 px before) cut long numbers and gave short words too much.
_GLYPH_PX = dict(zip(
    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~",
    (2.8, 4.05, 5.96, 6.96, 6.96, 11.54, 8.53, 3.49, 4.24, 4.24, 5.85, 6.96, 3.49, 4.35, 3.49, 4.9, *[6.96] * 10,
     3.49, 3.49, 6.96, 6.96, 6.96, 5.95, 11.86, 7.6, 8.23, 7.99, 8.61, 7.38, 6.92, 8.64, 9.13, 3.68, 6.71, 8.11, 6.8,
     10.18, 9.06, 9.3, 7.92, 9.3, 7.97, 7.48, 7.5, 9.03, 7.21, 11.0, 7.18, 6.66, 7.55, 4.24, 4.9, 4.24, 6.96, 7.0,
     7.59, 7.06, 7.74, 6.38, 7.77, 6.94, 4.09, 7.06, 7.62, 3.44, 3.46, 6.93, 3.57, 11.61, 7.66, 7.59, 7.77, 7.77,
     4.86, 5.87, 4.73, 7.62, 6.54, 10.07, 6.24, 6.54, 5.95, 4.24, 3.37, 4.24, 6.96))) | {
    "–": 6.72, "—": 11.2, "…": 13.27, "−": 6.96, "±": 6.96, "×": 6.96, "≥": 6.96, "≤": 6.96, "·": 3.49, "→": 8.67,
    "₂": 5.14, "²": 5.14, "°": 4.63, "µ": 7.87, "α": 7.84, "β": 7.91, "σ": 7.64, "€": 6.96, "‰": 16.72}
#: A character not in the table counts as wide as "m", the widest lower-case letter: a cell is never cut by a guess.
_GLYPH_PX_UNKNOWN = 11.61
#: The grid's padding on each side of a cell's and a header's text (``cellHorizontalPadding``: ``spacing.sm``, 8 px),
#: and one pixel for the grid's rounding up of the measured width. A header needs no more: the grid sizes a column to
#: ``max(text) + 2 × padding`` and its column-menu button appears over the header's end only while pointed at.
TABLE_CELL_PADDING = 2 * 8 + 1


def text_px(text) -> float:
    """Width (px) of ``text`` in a table cell (:data:`_GLYPH_PX`; kerning only narrows it)."""
    return sum(_GLYPH_PX.get(ch, _GLYPH_PX_UNKNOWN) for ch in str(text))


def text_column_width(texts, *, header: str = "", most: int = 360) -> int:
    """Width (px) of a table column that shows ``texts`` and its ``header`` whole, up to ``most`` (st.dataframe
    otherwise gives a text column a default width and cuts the rest with "…"): what the grid's own automatic width
    would be (its longest text plus the padding), give or take a pixel."""
    longest = max((text_px(t) for t in [*texts, header]), default=0.0)
    return int(min(math.ceil(TABLE_CELL_PADDING + longest), most))


def _missing_as_dash(column, fmt=str):
    """A table column as text for the grid: each value through ``fmt``, a missing one (None, NaN) as `UNDEFINED` — the
    grid shows a missing cell as "None", and a Styler's ``na_rep`` does not reach it."""
    return column.map(lambda value: UNDEFINED if value is None or (not isinstance(value, str) and pd.isna(value))
                      else fmt(value))


#: Least seconds between two updates of a progress bar. Each update is a message after which the browser renders the
#: page again: the bootstrap's per-chunk updates came 20-30 a second, and a 1,000,000-row session's browser then spent
#: about half a CPU second per second of computing (bench/bench_sessions.py, a CPU profile of the page: React and
#: styling) — on a shared server the sessions' browsers are not the server's cost, but their updates are.
PROGRESS_EVERY_S = 0.5


def throttled(update, every: float = PROGRESS_EVERY_S, clock=time.monotonic):
    """``update(fraction, ...)`` passed on at most once per ``every`` seconds: the first call, then the next one
    ``every`` seconds later; a call at 1.0 (done) always.

    >>> now = [0.0]
    >>> shown = []
    >>> bar = throttled(lambda f: shown.append(f), every=0.5, clock=lambda: now[0])
    >>> for t, f in [(0.0, 0.1), (0.2, 0.2), (0.6, 0.3), (0.7, 0.4), (0.8, 1.0)]:
    ...     now[0] = t
    ...     bar(f)
    >>> shown
    [0.1, 0.3, 1.0]
    """
    last = [-math.inf]

    def call(fraction, *args, **kwargs):
        now = clock()
        if fraction >= 1.0 or now - last[0] >= every:
            last[0] = now
            update(fraction, *args, **kwargs)
    return call


#: Width (px) a table has on a 1024 px screen beside the open sidebar (measured: the grid's frame is 562 px): the
#: widths of a table's columns are fitted into it so nothing needs sideways scrolling there (issue 15). Wider screens
#: stretch the columns.
TABLE_FIT_PX = 556
#: The same in presentation mode (the sidebar collapsed; measured: the frame is 824 px at 1024), against which the
#: widths at the presented text size (:data:`PRESENTATION_TEXT_SCALE`) are fitted.
TABLE_FIT_PRESENTING_PX = 818
#: The widths (px) the grid gives ``st.column_config`` width "small", "medium" and "large" (Streamlit's docs).
GRID_NAMED_WIDTHS = {"small": 75, "medium": 200, "large": 400}
#: No fitted column gets narrower than this (a short number and the start of its header).
TABLE_MIN_COLUMN_PX = 44


def fitted_widths(widths: dict, budget: float, *, fixed: float = 0.0, keep=()) -> dict:
    """Column widths (px) that fit ``budget``: the columns in ``keep`` and ``fixed`` px stay, the others are capped
    at one common width c, the largest with :math:`\\sum_i \\min(w_i, c) \\le` the rest (water-filling: the widest
    columns — long remarks, reasons — give up width first, narrow ones keep theirs), never below
    :data:`TABLE_MIN_COLUMN_PX`.

    >>> fitted_widths({"a": 100, "b": 400, "c": 300}, 600)
    {'a': 100, 'b': 250, 'c': 250}
    """
    room = budget - fixed - sum(w for c, w in widths.items() if c in keep)
    free = sorted(w for c, w in widths.items() if c not in keep)
    cap, left = float("inf"), room
    for i, w in enumerate(free):           # the narrowest first: each keeps its width while the rest share what is left
        share = left / (len(free) - i)
        if w > share:
            cap = share
            break
        left -= w
    cap = max(TABLE_MIN_COLUMN_PX, cap)
    return {c: w if c in keep else int(min(w, cap)) for c, w in widths.items()}


#: Wrapped text in a table cell: the grid draws the first line ``TABLE_FIRST_LINE_PX`` tall and each further line
#: ``TABLE_LINE_PX`` below the last (its ``lineHeight`` 1.4 × the font's 13 px; measured: lines 18.2 px apart), with
#: 3 px padding above and below; it wraps only when a row is taller than 64 px (Streamlit: ``row_height`` > 4 rem).
TABLE_FIRST_LINE_PX = 13
TABLE_LINE_PX = 18.2
TABLE_WRAP_MIN_ROW_PX = 65


def wrapped_lines(text, width: float) -> int:
    """Lines ``text`` takes in a cell ``width`` px wide, broken between words as the grid breaks them (a word
    wider than the line has a line of its own)."""
    room, lines, used = width - TABLE_CELL_PADDING, 1, 0.0
    for word in str(text).split():
        need = text_px(word) if used == 0 else text_px(" " + word)
        if used and used + need > room:
            lines, used = lines + 1, text_px(word)
        else:
            used += need
    return lines


def wrapped_row_height(lines: int) -> int:
    """Row height (px) that shows ``lines`` wrapped lines whole (and lets the grid wrap at all)."""
    return max(TABLE_WRAP_MIN_ROW_PX, math.ceil(TABLE_FIRST_LINE_PX + TABLE_LINE_PX * (lines - 1) + 2 * 3 + 2))


def narrowest_wrapped_width(cells, header: str) -> int:
    """The least width (px) a wrapped column can take: its header and its longest word whole (a word is never
    broken)."""
    return text_column_width([w for t in cells for w in str(t).split()], header=header, most=10_000)


def wrapped_widths(texts: dict, headers: dict, room: float, *, step: int = 4) -> dict:
    """Widths (px) of the wrapped columns ``texts`` ``{column: cells}`` sharing ``room`` px: each starts as wide as
    its header and its longest word, then ``step`` px at a time go to the column whose cells need the most lines —
    every row is as tall as its tallest cell, so the widths that make the fewest lines in the worst cell win."""
    full = {c: text_column_width(cells, header=headers[c], most=10_000) for c, cells in texts.items()}
    widths = {c: min(full[c], narrowest_wrapped_width(cells, headers[c])) for c, cells in texts.items()}

    def lines(c):
        return max((wrapped_lines(t, widths[c]) for t in texts[c]), default=1)

    while (left := room - sum(widths.values())) >= 1:
        growing = [c for c in widths if widths[c] < full[c]]
        if not growing:
            break
        c = max(growing, key=lambda c: (lines(c), full[c] - widths[c]))
        widths[c] = int(min(full[c], widths[c] + min(step, left)))
    return widths


def split_columns(widths: dict, budget: float, *, repeat=()) -> list[list]:
    """The columns of a table too wide for ``budget`` px as several tables' columns, in their order: each starts with
    the ``repeat`` columns and takes the next columns while they fit (at least one group each).

    >>> split_columns({"group": 100, "a": 200, "b": 200, "c": 100}, 400, repeat=("group",))
    [['group', 'a'], ['group', 'b', 'c']]
    >>> split_columns({"metric": 100, "a": 100, "a · folds": 100, "b": 100, "b · folds": 100}, 400, repeat=("metric",))
    [['metric', 'a', 'a · folds'], ['metric', 'b', 'b · folds']]
    """
    if sum(widths.values()) <= budget:
        return [list(widths)]
    head = [c for c in widths if c in repeat]
    # A column named "<column> · …" (a model's fold spread after its pooled value) stays with that column.
    groups: list[list] = []
    for c in (c for c in widths if c not in repeat):
        if groups and isinstance(c, str) and c.startswith(f"{groups[-1][0]} · "):
            groups[-1].append(c)
        else:
            groups.append([c])
    parts, part, used = [], [], sum(widths[c] for c in head)
    for group in groups:
        need = sum(widths[c] for c in group)
        if part and used + need > budget:
            parts.append(head + part)
            part, used = [], sum(widths[c] for c in head)
        part += group
        used += need
    return parts + [head + part] if part else parts


#: Widest layout of a table (px, at the page's text size) shown where the page has the room: no common screen has
#: more.
TABLE_WIDE_MOST_PX = 1600
#: How much wider a table's frame is on a 1440-px screen than on a 1024-px one (the sidebar keeps its width).
SCREEN_1440_EXTRA_PX = 416
#: The grid's frame is this much wider than the columns fitted into it (a 562-px frame for 556 px of columns).
GRID_FRAME_EXTRA_PX = 6


def _responsive_places(frame: pd.DataFrame, repeat, least: list[int]) -> list | None:
    """One container per layout of a table (its parts at 1024 px, fewer parts, the whole), of which the page shows
    one: layout n where the table's container is at least ``least[n]`` px wide and narrower than ``least[n + 1]``
    (a CSS container query). The style sheet holds only a digest of the table and numbers, no text from a file.
    None when the same table is already on the page (its containers' keys would repeat)."""
    content = pd.util.hash_pandas_object(frame.astype(str), index=False).to_numpy().tobytes()
    digest = hashlib.sha1(content + repr((list(map(str, frame.columns)), list(repeat))).encode()).hexdigest()[:16]
    key = f"assess_table_{digest}"
    try:
        outer = st.container(key=key)
    except StreamlitDuplicateElementKey:
        return None
    # (no gap in the outer container: the hidden layouts' wrappers stay in its flex column, 0 px tall)
    rules = [f".st-key-{key} {{ container-type: inline-size; gap: 0; }}"]
    for n, low in enumerate(least):
        if low > 0:
            rules.append(f"@container (max-width: {low - 0.02:.2f}px) {{ .st-key-{key}_{n} {{ display: none; }} }}")
        if n + 1 < len(least):
            rules.append(f"@container (min-width: {least[n + 1]}px) {{ .st-key-{key}_{n} {{ display: none; }} }}")
    with outer:
        st.html("<style>" + " ".join(rules) + "</style>")
        return [st.container(key=f"{key}_{n}") for n in range(len(least))]


def data_table(frame, *, formats: dict | None = None, headers: dict | None = None, config: dict | None = None,
               shrink=(), wrap=(), repeat=(), most: int = 360, hide_index: bool = True, _budget: float | None = None,
               **options) -> None:
    """The one table widget of every page, through ``st.dataframe``:

    - ``formats`` ``{column: "{:.3f}" or a function}``: a column's number format. A column with a missing cell (None,
      NaN) becomes text with "—" there, through the same format; complete number columns stay numbers (sorting,
      exports, tests) shown through a Styler. Missing cells of other columns read "—" too.
    - every column under its display name (:func:`headers_config`: ``headers``, else the key in words);
    - every column as wide as its longest cell and header (text up to ``most`` px): values are never cut. The
      columns in ``shrink`` (long remarks, reasons — read in full elsewhere on the page or in the exports) give up
      width so the table fits :data:`TABLE_FIT_PX` (:func:`fitted_widths`; presenting: :data:`TABLE_FIT_PRESENTING_PX`
      at the larger text): no sideways scrolling at 1024 px; a cut
      cell ends in "…";
    - the columns in ``wrap`` (sentences to read in full on the page) take what is left of :data:`TABLE_FIT_PX` too,
      shared to need the fewest lines (:func:`wrapped_widths`), and wrap: rows are as tall as the most lines;
    - ``repeat`` (the columns that name a row, such as its group): a table whose columns need more than
      :data:`TABLE_FIT_PX` even so is shown as several, each with these columns and the next ones that fit
      (:func:`split_columns`) — every value in view at 1024 px, none cut — and, where the page is wider, in fewer
      parts or whole (:func:`_responsive_places`; ``_budget`` is such a part's width);
    - ``config``: per-column ``st.column_config`` laid over the above (its non-None settings win; None hides a
      column);
    - ``options`` go to ``st.dataframe`` (``height``, ``width`` — "stretch" unless given).
    """
    frame = frame if isinstance(frame, pd.DataFrame) else pd.DataFrame(frame)
    given = dict(formats=formats, headers=headers, config=config, shrink=shrink, wrap=wrap, most=most,
                 hide_index=hide_index)
    whole = frame
    formats = {c: f for c, f in (formats or {}).items() if c in frame.columns}
    as_function = {c: f.format if isinstance(f, str) else f for c, f in formats.items()}
    missing = [c for c in frame.columns if frame[c].isna().any()]
    if missing:
        frame = frame.apply(lambda col: _missing_as_dash(col, as_function.get(col.name, str)) if col.name in missing
                            else col)
    config = config or {}
    columns = headers_config(frame.columns, headers)
    widths = {}
    for c in frame.columns:
        if not isinstance(c, str) or config.get(c, True) is None:
            continue
        title = header(c, headers)
        numeric = pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])
        texts = frame[c].map(as_function[c]) if numeric and c in as_function else frame[c].astype(str)
        widths[c] = text_column_width(texts, header=title, most=10_000 if c in shrink or c in wrap else most)
        if not numeric and not pd.api.types.is_bool_dtype(frame[c]):
            columns[c] = st.column_config.TextColumn(title)
    index = 0 if hide_index else text_column_width(frame.index.astype(str), most=10_000)
    # Presentation mode: the grid's text and padding are rem-sized, 1.25 times larger; widths are fitted at the
    # normal size into the presented frame shrunk by as much, then scaled.
    scale = PRESENTATION_TEXT_SCALE if presenting() else 1.0
    budget = (TABLE_FIT_PRESENTING_PX if presenting() else TABLE_FIT_PX) / scale
    # split only what cannot fit even wrapped
    narrowest = {c: min(w, narrowest_wrapped_width(frame[c], header(c, headers))) if c in wrap else w
                 for c, w in widths.items()}
    if _budget is not None:
        budget = _budget
    parts = split_columns(narrowest, budget - index, repeat=repeat) if repeat and _budget is None else \
        [list(frame.columns)]
    if len(parts) > 1:
        key = options.pop("key", None)
        hidden = [c for c in frame.columns if c not in widths]   # hidden by ``config`` (a registry key): in each part
        # Wider screens have room for fewer parts, or the whole table: each layout is shown where the table's own
        # width allows it (a container query; the server does not know the screen), its columns at their widths
        # (sentences at most `most` px).
        natural = {c: min(w, most) if c in wrap else w for c, w in widths.items()}
        layouts = [(0, parts)]
        for room in ((budget + SCREEN_1440_EXTRA_PX / scale), float("inf")):
            wider = split_columns(natural, room - index, repeat=repeat)
            least = GRID_FRAME_EXTRA_PX + math.ceil(scale * max(index + sum(natural[c] for c in p) for p in wider))
            if len(wider) < len(layouts[-1][1]) and layouts[-1][0] < least <= TABLE_WIDE_MOST_PX:
                layouts.append((least, wider))
        places = _responsive_places(whole, repeat, [least for least, _ in layouts]) if len(layouts) > 1 else None
        for n, (least, layout) in enumerate(layouts if places else layouts[:1]):
            with places[n] if places else st.container():
                for i, part in enumerate(layout):
                    part_key = {} if key is None else {"key": f"{key}_{i}" if n == 0 else f"{key}_{n}_{i}"}
                    room = {} if n == 0 else {"_budget": index + sum(natural[c] for c in part)}
                    data_table(whole[part + hidden], **given, **options, **part_key, **room)
        return
    set_by_config = {c for c, o in config.items() if isinstance(o, dict) and o.get("width") is not None}
    fixed = sum(GRID_NAMED_WIDTHS.get(config[c]["width"], config[c]["width"]) for c in set_by_config)
    fitted = fitted_widths({c: w for c, w in widths.items() if c not in set_by_config}, budget,
                           fixed=index + fixed, keep=set(widths) - set(shrink) - set(wrap))
    wrapping = [c for c in wrap if c in fitted]
    if wrapping:
        fitted |= wrapped_widths({c: frame[c].astype(str) for c in wrapping}, {c: header(c, headers) for c in wrapping},
                                 sum(fitted[c] for c in wrapping))
        # (a table without rows — no confused pairs — has no lines to count)
        most_lines = max((wrapped_lines(t, fitted[c]) for c in wrapping for t in frame[c].astype(str)), default=1)
        if most_lines > 1:   # every row in view: the grid's default height shows about nine one-line rows
            options.setdefault("row_height", math.ceil(scale * wrapped_row_height(most_lines)))
            options.setdefault("height", "content")
    for c, w in fitted.items():
        columns[c] = {**columns[c], "width": math.ceil(scale * w)}
    for c, override in config.items():
        columns[c] = None if override is None else {**columns.get(c, {}),
                                                    **{k: v for k, v in override.items() if v is not None}}
        if c in set_by_config and scale != 1:
            columns[c]["width"] = math.ceil(scale * GRID_NAMED_WIDTHS.get(columns[c]["width"], columns[c]["width"]))
    numbers = {c: f for c, f in formats.items() if c not in missing and pd.api.types.is_numeric_dtype(frame[c])}
    options.setdefault("width", "stretch")
    st.dataframe(frame.style.format(numbers) if numbers else frame, hide_index=hide_index, column_config=columns,
                 **options)


def value_with_interval(frame: pd.DataFrame) -> pd.DataFrame:
    """`assess.present.summary.model_frame` for the screen: the value and its interval in one column, "0.981 (0.966–0.989)"
    (the interval as `assess.core.formatting.bounds` wrote it; a value without one stands alone), the interval's method and
    the remark left to captions (:func:`interval_methods`) — one column fewer each, so metric, value and three
    baselines fit a 1024-px screen. The exports keep value, bounds and method in columns of their own."""
    shown = frame.drop(columns=[c for c in ("interval", "method", "remark") if c in frame.columns])
    shown["value"] = [f"{value} ({interval})" if interval else value
                      for value, interval in zip(frame["value"], frame["interval"])]
    return shown


#: The per-metric part of a bootstrap's method words (`assess.intervals.IntervalMethod`): its bounds' Monte-Carlo error.
_MC_ERROR = re.compile(r" \((?:stopped: )?(Monte-Carlo error of the bounds [^)]*)\)")


def interval_methods(frame: pd.DataFrame) -> str:
    """How the intervals of a `model_frame` were computed, in one sentence: each method with its metrics, the most
    common one "for the others" ("" when no metric has an interval)."""
    metrics_by_method: dict[str, list[str]] = {}
    for metric, method in zip(frame["metric"], frame["method"]):
        if method:
            # each bootstrap column stops on its own precision, so its Monte-Carlo error is the metric's own: group
            # by the method without it and give it beside the metric, not one "Bootstrap percentile, …" per metric
            found = _MC_ERROR.search(method)
            if found:
                method, metric = method[:found.start()] + method[found.end():], f"{metric} ({found.group(1)})"
            metrics_by_method.setdefault(method, []).append(metric)
    if not metrics_by_method:
        return ""
    if len(metrics_by_method) == 1:
        return f"Intervals: {next(iter(metrics_by_method))}."
    most = max(metrics_by_method, key=lambda method: len(metrics_by_method[method]))
    parts = [f"{method} for {', '.join(metrics)}" for method, metrics in metrics_by_method.items() if method != most]
    return f"Intervals: {'; '.join(parts)}; {most} for the others."


def per_model_tabs(reports: dict, baseline_caption: str) -> None:
    """One tab per model: its metrics (value and interval in one column) beside their baselines, how the intervals
    were computed, what the baseline is, and each remark in full: why a metric is undefined (the reasons
    `MetricReport.reasons` keeps) and the notes (seeded samples, scores that do not sum to 1 …)."""
    tabs = st.tabs([md(model) for model in reports])
    for tab, report in zip(tabs, reports.values()):
        with tab:
            frame = model_frame(report)
            # Every metric in view: a binary model's 16 rows were cut at the tenth, in a box of their own to scroll.
            # A long metric name or value wraps rather than pushing the baselines out of a 1024-px screen.
            data_table(value_with_interval(frame), headers={"value": "Value (interval)"}, wrap=("metric", "value"),
                       height="content")
            methods = interval_methods(frame)
            if methods:
                st.caption(md(f"{methods} The CSV and JSON exports add the seed and the resampling scheme."))
            st.caption(baseline_caption)
            for result in report.results:
                if result.note:
                    st.caption(md(f"{result.name}: {result.note}."))
            for metric, reason in report.reasons.items():
                st.caption(md(f"{report[metric].name} is undefined: {reason}"))


def comparison_config(table=None) -> dict:
    """``column_config`` of `assess.present.summary.comparison_frame`: its metric and direction columns titled, the registry
    key hidden (the display name says it; exports and tests keep it), the model columns under their own names. With
    the ``table``, its metric column is as wide as its longest name ("ROC AUC (one-vs-rest, macro)" was cut)."""
    width = None if table is None else text_column_width(table["metric"], header="Metric")
    # a model's name is the file's text, shown as written ("gbm", not the "Gbm" of a key put in words)
    models = {} if table is None else {c: st.column_config.Column(str(c)) for c in table.columns
                                       if c not in ("metric", "better", "key")}
    return models | {"metric": st.column_config.TextColumn("Metric", width=width),
                     "better": st.column_config.TextColumn("Better"), "key": None}


def all_charts_button(figures: list, filename: str, *, key: str) -> None:
    """One multi-page PDF of every chart on the page, rendered when clicked."""
    if figures:
        label = f"All {len(figures)} charts on this page (PDF)" if len(figures) > 1 else "This page's chart (PDF)"
        st.download_button(label, lambda: figures_to_pdf(list(figures)),
                           filename, "application/pdf", key=f"all_{key}", icon=":material/library_books:",
                           type="primary", on_click="ignore")


def set_threshold(label: str, value: float, *, low: float = 0.0, high: float = 1.0) -> None:
    """Labels from the scores at ``value`` (for one multi-label ``label``; "" is the binary threshold), on every
    page; the two threshold widgets follow."""
    set_decision(current_decision().with_threshold(float(value), label or None))
    st.session_state[f"thr_slider_{label}"] = float(min(max(value, low), high))
    st.session_state[f"thr_input_{label}"] = float(value)


def threshold_control(label: str = "", *, low: float = 0.0, high: float = 1.0) -> float:
    """A slider over the scores' range and a numeric input, kept in step; both set the shared decision."""
    if not high > low:
        high = low + 1.0
    value = current_decision().threshold_for(label or None)
    slider_key, input_key = f"thr_slider_{label}", f"thr_input_{label}"
    # The widgets show the shared value even when another page moved it since they were last drawn.
    st.session_state[slider_key] = float(min(max(value, low), high))
    st.session_state[input_key] = value

    def from_widget(source: str) -> None:
        set_threshold(label, st.session_state[source], low=low, high=high)

    left, right = st.columns([4, 1])
    step = (high - low) / 1000
    left.slider("Threshold (score ≥ threshold is positive)", float(low), float(high), step=step, format="%.3f",
                key=slider_key, on_change=from_widget, args=(slider_key,))
    right.number_input("Exact threshold", step=0.01, format="%.4f", key=input_key, on_change=from_widget,
                       args=(input_key,))
    return current_decision().threshold_for(label or None)


#: Where the decision can be changed, said from each page that shows it.
CHANGE_IT = {"curves": "Move the threshold above, or choose where labels come from on the Metrics page.",
             "metrics": "Change it here (Labels from) or with the threshold on the Curves page.",
             None: "Change it with the threshold on the Curves page or with Labels from on the Metrics page."}
#: A multi-class decision has no threshold (each row takes its highest-scoring class): only the label source changes.
CHANGE_IT_NO_THRESHOLD = {"metrics": "Change it here (Labels from).",
                          None: "Change it with Labels from on the Metrics page."}


def decision_note(assessment: Assessment, *, page: str | None = None) -> None:
    """Say which labels this page counts, and where to change that."""
    first = assessment.predictions()
    sentence = current_decision().describe(assessment.task, has_labels=first.y_pred is not None,
                                           has_scores=first.scores is not None, labels=assessment.classes)
    where = CHANGE_IT_NO_THRESHOLD if assessment.task is Task.MULTICLASS else CHANGE_IT
    st.caption(md(f"{sentence} {where[page]}"), help="One decision rule is shared by the Metrics, Confusion, Curves and "
                                                     "Compare pages, so their numbers always agree.")


def choose_metrics(specs, defaults, *, key: str) -> list[str]:
    """The "Choose metrics" expander: one multiselect of display names per registry group, ``defaults`` chosen
    first; returns the chosen metric keys. ``key`` (the task's value) keeps each task's choices apart."""
    chosen: list[str] = []
    with st.expander("Choose metrics", icon=":material/checklist:"):
        for group in GROUPS:
            in_group = [s for s in specs if s.group == group]
            if in_group:
                names = {s.key: s.name for s in in_group}
                chosen += st.multiselect(group, list(names), default=[s.key for s in in_group if s.key in defaults],
                                         format_func=names.get, key=f"group_{key}_{group}",
                                         help=" · ".join(f"{s.name}: {s.meaning}" for s in in_group))
    return chosen


def metric_definitions(specs, chosen) -> None:
    """The "Definitions of the chosen metrics" expander: name, meaning, source and formula from the registry."""
    with st.expander("Definitions of the chosen metrics", icon=":material/function:"):
        for spec in specs:
            if spec.key in chosen:
                st.markdown(f"**{spec.name}** — {spec.meaning}  \n*Source: {spec.source}*")
                st.latex(spec.latex)


def resampling_inputs(resamples_at, seed_at, *, disabled: bool, default: int | None = None, help: str | None = None,
                      seed_disabled: bool | None = None,
                      seed_help: str = "Bootstrap resampling is seeded: the same seed gives the same interval.",
                      ) -> tuple[int, int]:
    """The bootstrap's resamples and seed, in the containers given (a column each): the pages' ranges
    (`assess.present.settings.PAGE_RESAMPLES`, `SEED`) and, unless ``default`` says otherwise, the one default of
    every surface. The seed is disabled with the resamples unless ``seed_disabled`` says otherwise (it may seed
    more than the bootstrap)."""
    n_resamples = resamples_at.number_input("Bootstrap resamples", PAGE_RESAMPLES.low, PAGE_RESAMPLES.high,
                                            default or DEFAULT_RESAMPLES, step=100, disabled=disabled, help=help)
    seed = seed_at.number_input("Seed", SEED.low, SEED.high, 0, help=seed_help,
                                disabled=disabled if seed_disabled is None else seed_disabled)
    return int(n_resamples), int(seed)
