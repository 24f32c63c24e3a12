"""The rows behind a number on a page: `rows_table` shows a selection of `assess.analyses.rows` one page at a time —
sorted, filtered and paged on the server, so the browser never receives more than the page it shows — with a CSV of
every matching row (formula injection neutralised); the sections the Confusion, Metrics and Errors pages call pick
the selection (a confusion cell, the most confidently wrong, the largest errors).

Any other set of rows — a period of time, a fold — is a mask over a model's rows::

    rows_table(cached(rows_at, assessment, model, mask, decision=decision), key="period_rows")
"""

from __future__ import annotations

import math

import streamlit as st

from assess.analyses import rows as selections
from assess.core.data import Task
from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.core.formatting import count, significant
from assess.inputs.assessment import Assessment
from assess.present.export import to_csv_bytes
from ui.state import cached, md
from ui.widgets import data_table

PAGE_SIZES = (25, 50, 100)
#: Most confusion cells offered (a file of 1,500 classes can have a million non-empty cells): the largest errors first.
MOST_CELLS = 500
#: Number columns shown with at most 4 significant digits, trailing zeros trimmed (a score of 0.0082 read "0.008200"
#: beside "0.1234"); the file's own columns are shown as they are.
_FOUR_DIGITS = ("score", "error", "abs_error", "confidence_wrong")
#: ... and, where the rows have errors (regression, forecasts), the values the error is the difference of — left to the
#: grid they read "302.000000" and "139.555000" beside an error of -162.4. Class labels (even 0/1) are never formatted.
_FOUR_DIGITS_WITH_ERRORS = ("truth", "prediction")


def rows_table(rows: selections.Rows, *, key: str, filename: str = "rows.csv") -> None:
    """One page of ``rows`` with a filter, a sort, the page size and number, and a CSV of every matching row.
    ``key`` keeps this table's widgets apart from another's on the same page."""
    if rows.note:
        st.caption(md(rows.note))
    names = {c: selections.HEADERS.get(c, c) for c in rows.columns}
    # the direction is part of the sort choice: a toggle beside it was cut to "Descen…" at 1024 px
    left, mid, size_at = st.columns([3, 4, 2], vertical_alignment="bottom")
    contains = left.text_input("Filter", key=f"{key}_filter", placeholder="Text in any column",
                               help="Keeps the rows where some column contains this text (upper or lower case alike).")
    sort, descending = mid.selectbox(
        "Sort by", [(None, False), *((c, down) for c in rows.columns for down in (False, True))], key=f"{key}_sort",
        format_func=lambda o: rows.order[:1].upper() + rows.order[1:] if o[0] is None
        else f"{names[o[0]]}, {'descending' if o[1] else 'ascending'}")
    size = size_at.selectbox("Rows per page", PAGE_SIZES, key=f"{key}_size", format_func=count)
    number = st.session_state.get(f"{key}_page", 1)
    try:
        frame, total = selections.page(rows, number, size, sort=sort, descending=descending, contains=contains)
        pages = max(1, math.ceil(total / size))
        if number > pages:   # fewer rows match than before: show the last page there is
            number = st.session_state[f"{key}_page"] = pages
            frame, total = selections.page(rows, number, size, sort=sort, descending=descending, contains=contains)
    except AssessError as exc:
        st.warning(md(str(exc)))
        return
    if not total:
        st.info("No row matches the filter." if contains.strip() else "No rows here.")
        return
    first = (number - 1) * size + 1
    of = f"{count(total)} matching the filter (of {count(rows.total)})" if contains.strip() else count(total)
    order = rows.order if sort is None else f"sorted by {names[sort]}, {'descending' if descending else 'ascending'}"
    st.caption(md(f"Rows {count(first)}–{count(first + len(frame) - 1)} of {of}, {order}."))
    four = _FOUR_DIGITS + (_FOUR_DIGITS_WITH_ERRORS if "error" in rows.columns else ())
    data_table(frame, headers=names, config={"model": None},
               formats={"row": count, **{c: (lambda v: significant(v, 4, cell=True, trim=True)) for c in four}})
    below_left, below_right = st.columns([1, 3], vertical_alignment="bottom")
    below_left.number_input("Page", min_value=1, max_value=pages, step=1, key=f"{key}_page",
                            help=f"{count(pages)} page{'s' if pages != 1 else ''} of {count(size)} rows")
    below_right.download_button(
        "Rows CSV", lambda: to_csv_bytes(selections.all_matching(rows, sort=sort, descending=descending,
                                                                 contains=contains)),
        filename, "text/csv", key=f"{key}_csv", on_click="ignore", icon=":material/download:",
        help="Every matching row, in this order, with the file's other columns.")


def _model(models, key: str) -> str:
    return models[0] if len(models) == 1 else st.selectbox("Model", list(models), key=f"{key}_model")


def confusion_cell_rows(assessment: Assessment, models, decision: Decision) -> None:
    """The Confusion page's drill-down: choose a model and a cell ("True X, predicted Y (count)"), see its rows."""
    if not models:
        return
    left, right = st.columns(2)
    with left:
        model = _model(models, "cell_rows")
    cells = cached(selections.cell_choices, assessment, model, decision=decision, most=MOST_CELLS)
    with right:
        true, predicted, _ = st.selectbox("Cell", cells, key=f"cell_rows_cell_{model}",
                                          format_func=lambda c: f"True {c[0]}, predicted {c[1]} ({count(c[2])})",
                                          help=f"The errors first, the largest first (up to {MOST_CELLS} cells); "
                                               "counts are rows, unweighted.")
    rows = cached(selections.cell_rows, assessment, model, true, predicted, decision=decision)
    rows_table(rows, key="cell_rows", filename="confusion_cell_rows.csv")


def confidently_wrong_rows(assessment: Assessment, models, decision: Decision) -> None:
    """The Metrics page's drill-down (binary and multi-class): the rows a model gets most confidently wrong."""
    if assessment.task not in (Task.BINARY, Task.MULTICLASS) or not models:
        return
    st.subheader("Most confidently wrong rows")
    model = _model(models, "wrong_rows")
    try:
        rows = cached(selections.confidently_wrong, assessment, model, decision=decision)
    except AssessError as exc:
        st.caption(md(f"No ranking: {exc}."))
        return
    rows_table(rows, key="wrong_rows", filename="most_confidently_wrong.csv")


def largest_error_rows(assessment: Assessment, models, output: str | None) -> None:
    """The Errors page's drill-down (regression and forecasts): the rows with the largest errors."""
    st.subheader("Largest errors")
    model = _model(models, "error_rows")
    rows_table(cached(selections.largest_errors, assessment, model, output=output), key="error_rows",
               filename="largest_errors.csv")


def period_rows(assessment: Assessment, result, model: str, decision: Decision) -> None:
    """The Over time page's drill-down: choose a period (with its row count), see its rows."""
    from assess.analyses.over_time import period_positions

    periods = result.periods[result.periods["model"] == model].reset_index(drop=True)
    if not len(periods):
        return
    st.subheader("Rows of a period")
    at = st.selectbox("Rows of the period", range(len(periods)), key=f"period_rows_period_{model}",
                      format_func=lambda i: f"{_capital(periods['words'][i])} ({_period_count(periods.iloc[i])})")
    positions = cached(period_positions, assessment, model, result.period, periods["period"][at])
    rows = cached(selections.rows_at, assessment, model, positions, decision=decision,
                  title=f"{model}: {_capital(periods['words'][at])}")
    rows_table(rows, key="period_rows", filename=f"rows_{periods['key'][at]}.csv")


def declared_slice_rows(assessment: Assessment, analysis, model: str, metric: str, decision: Decision) -> None:
    """The Slices page's drill-down: choose a slice (the worst by ``metric`` first, with its row count), see its
    rows."""
    slices = analysis.worst(model, metric, len(analysis.metrics)).reset_index(drop=True)
    if not len(slices):
        return
    at = st.selectbox("Rows of a slice", range(len(slices)), key="slice_rows_slice",
                      format_func=lambda i: f"{slices['slice'][i]} ({count(int(slices['n'][i]))} rows)",
                      help="The slices from the worst by the metric.")
    rows = cached(selections.slice_rows, assessment, analysis, model, slices["slice"][at], decision=decision)
    rows_table(rows, key="slice_rows", filename="slice_rows.csv")


def found_slice_rows(assessment: Assessment, found, decision: Decision) -> None:
    """The Slices page's drill-down under "Find weak slices": choose a found slice, see its rows."""
    slices = found.discovered.reset_index(drop=True)
    if not len(slices):
        return
    at = st.selectbox("Rows of a found slice", range(len(slices)), key="found_rows_slice",
                      format_func=lambda i: f"{slices['label'][i]} ({count(slices['n'][i])} rows)")
    rows = cached(selections.rows_at, assessment, found.model, slices["positions"][at], decision=decision,
                  title=f"{found.model}: {slices['label'][at]}")
    rows_table(rows, key="found_rows", filename="weak_slice_rows.csv")


def _period_count(period) -> str:
    """The rows the table lists: a period's labelled rows (its unlabelled ones are estimated, not listed) — "722
    rows" above a table of 493 read as rows gone missing."""
    n, labelled = int(period["n"]), int(period["n_labelled"])
    return f"{count(n)} rows" if labelled == n else f"{count(labelled)} labelled rows of {count(n)}"


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]
