"""The Slices page's fairness gaps of one protected attribute (binary files, one slice column): the rates per group
and fairlearn's summaries with their intervals; the values come from `assess.analyses.slices_view`."""

from __future__ import annotations

import streamlit as st

from assess.analyses.slices import SliceAnalysis
from assess.analyses.slices_view import fairness_table, fairness_view
from assess.core.data import Task
from assess.core.formatting import listing
from assess.inputs.columns import quote
from assess.present.charts.slices import fairness_chart
from ui.state import cached, md
from ui.widgets import chart, data_table


def fairness_section(assessment, analysis: SliceAnalysis, model: str, decision, level: float, figures: list) -> None:
    """The section, or a caption saying why there is none (not binary; several slice columns)."""
    task = assessment.task
    if task is not Task.BINARY:
        st.caption("Fairness gaps (demographic parity, equalised odds) compare the rates of a binary decision; this "
                   f"file's task is {task.label}.")
    elif len(analysis.columns) > 1:
        st.caption("Fairness gaps need one slice column, the protected attribute; choose a single column to see them.")
    if task is Task.BINARY and len(analysis.columns) == 1:
        st.subheader("Fairness gaps")
        st.caption(md(f"If the column {quote(analysis.columns[0])} is a protected attribute: the selection rate, "
                      "true positive rate and false positive rate per group and fairlearn's summaries — "
                      "difference = largest − smallest group value, ratio = smallest / largest (demographic parity: "
                      "selection rate; equal opportunity: TPR; equalised odds: the worse of TPR and FPR). Intervals: "
                      "bootstrap within each group."))
        fairness = cached(fairness_view, assessment, model, analysis.columns[0], decision, level)
        if fairness is not None:
            fig = fairness_chart(by_group=fairness.by_group, column=analysis.columns[0], model=model)
            figures.append(fig)
            chart(fig, "Fairness rates", key="fairness")
            # every column in 1024 px (the walk: "Interval method" was cut at the edge, "Near no gap" out of view):
            # the methods wrap; the remarks — two paragraphs, one for the differences, one for the ratios, repeated
            # on every row — are said once each below
            table = fairness_table(fairness)
            data_table(table.drop(columns="Near no gap"), wrap=("Interval method",))
            remarks = table[table["Near no gap"] != ""].groupby("Near no gap", sort=False)["Gap"].agg(list)
            for remark, gaps in remarks.items():
                st.caption(md(f"Near no gap, {listing(gaps, len(gaps))}: {remark}."))
    
