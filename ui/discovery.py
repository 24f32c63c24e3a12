"""The Slices page's "Find weak slices": its settings and the search's sentence, chart and table; the values come
from `assess.analyses.discovery` and `assess.analyses.discovery_view`."""

from __future__ import annotations

import streamlit as st

from assess.analyses.discovery import MAX_CONDITIONS, default_min_size, discover, discoverable, discovery_columns
from assess.analyses.discovery_view import found_sentence, found_table
from assess.core.errors import AssessError
from assess.metrics.registry import get, slice_test_metric
from assess.present.charts.slices import slice_forest_chart
from ui.rows_widgets import found_slice_rows
from ui.state import cached, md
from ui.widgets import chart, data_table


def find_weak_slices(assessment, model: str, metric: str, decision, level: float, figures: list) -> None:
    """The section: a toggle, then which columns, how many conditions and the minimum size; the found slices with
    their intervals, tests and the correction across every slice looked at. ``metric`` is the page's when it is a
    mean over rows, else the task's slice metric."""
    st.subheader("Find weak slices")
    if not st.toggle("Search", key="discover_on",
                     help="Search the other columns for slices much worse than the rest, without choosing them."):
        st.caption("Searches every other column (numbers cut into quintiles) for the slices where the model is "
                   "much worse than on the rest of the rows, with a test and false-discovery control.")
        return
    choices = discoverable(assessment.task)
    key = metric if metric in choices else slice_test_metric(assessment.task)
    columns = cached(discovery_columns, assessment)
    if not columns:
        st.info("This file has no column to search besides the predictions (ids, folds, times and the like are "
                "left out).")
        return
    n = len(assessment.model_rows[model])
    # the columns on a row of their own: in a third of 1024 px the chips read "tenure_…" and the next one was cut
    chosen = st.multiselect("Search columns", columns, default=columns, key="discover_columns")
    mid, right = st.columns(2)
    with mid:
        depth = st.radio("Conditions per slice", (1, 2, 3), index=MAX_CONDITIONS - 1, horizontal=True,
                         key="discover_depth", help="Three conditions look at many more slices; the correction "
                                                    "then asks more of each.")
    with right:
        min_size = int(st.number_input("Smallest slice (rows)", 2, max(2, n), min(default_min_size(n), max(2, n)),
                                       key="discover_min_size", help="Default: 1% of the rows, at least 30."))
    if key != metric:
        st.caption(md(f"{get(assessment.task, metric).name} is not a mean over rows; the search uses "
                      f"{get(assessment.task, key).name}."))
    if not chosen:
        st.info("Choose at least one column to search.")
        return
    try:
        found = cached(discover, assessment, model, key=key, columns=tuple(chosen), max_conditions=int(depth),
                       min_size=min_size, decision=decision, confidence_level=level)
    except AssessError as exc:
        st.error(md(str(exc)))
        return
    st.markdown(md(found_sentence(found)))
    if len(found.discovered):
        spec = get(assessment.task, key)
        fig = slice_forest_chart(rows=found.discovered.rename(columns={"label": "slice"}), overall=found.overall,
                                 metric=spec.name, model=model, min_size=found.min_size, confidence_level=level,
                                 higher_is_better=spec.direction != "lower", what="of the weak slices found")
        figures.append(fig)
        chart(fig, f"Weak slices by {spec.name}", key="discover_forest")
        data_table(found_table(found), repeat=("Slice",), headers={"p": "p-value (one-sided)"})
    # under the table it explains (it came after the found slice's rows, a page of rows away)
    st.caption("Ranked by SliceLine's score (how much worse, weighed by size; Sagadeeva & Boehm 2021). Each slice "
               "is tested against the rest, one-sided: Fisher's exact test for proportions, Welch's t-test for mean "
               "losses; the adjusted p corrects across every slice the search looked at.")
    if len(found.discovered):
        found_slice_rows(assessment, found, decision)
