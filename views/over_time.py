"""Over time page: is the model getting worse? A metric per day, week, month, quarter or equal-size window of the
file's time stamps with its interval, the rows per period, and a change test of each period against a reference
(Benjamini–Hochberg across periods) — assess/analyses/over_time.py computes, assess/present/over_time_view.py words."""

import streamlit as st

from assess.analyses.over_time import DEFAULT_WINDOWS, default_keys, default_period, has_time, over_time
from assess.analyses.slices_view import metric_choices
from assess.core.errors import AssessError
from assess.core.formatting import percent_level
from assess.inputs.columns import quote
from assess.present import over_time_view as ov
from ui.estimation_widgets import estimated_periods, period_backtest
from ui.rows_widgets import period_rows
from ui.state import cached, current_decision, md, require_assessment
from ui.widgets import all_charts_button, chart, data_table, decision_note

st.title("Over time")
assessment = require_assessment()
if not has_time(assessment):
    st.info("Over time needs a time-stamp column (named `timestamp`, `date`, `time`, … or chosen on the Data page) "
            f"in a classification or regression file; this file's task is {assessment.task.label}"
            f"{'' if assessment.roles.timestamp else ' and it has none'}.")
    st.stop()

names = cached(metric_choices, assessment, light=True)   # as the Slices page: no counts, no interval scores
defaults = [k for k in cached(default_keys, assessment, light=True) if k in names]

# --- settings ------------------------------------------------------------------------------------------------------
left, mid, right = st.columns(3)
with left:
    metric = st.selectbox("Metric", list(names), index=list(names).index(defaults[-1]) if defaults else 0,
                          format_func=names.get, key="time_metric")
    model = st.selectbox("Model", list(assessment.models), format_func=str, key="time_model")
with mid:
    first = cached(default_period, assessment, light=True)     # the coarsest period giving ≥ 4 of them
    period_label = st.selectbox("Period", list(ov.PERIOD_CHOICES), key="time_period",
                                index=list(ov.PERIOD_CHOICES.values()).index(first if isinstance(first, str)
                                                                             else "windows"),
                                help="Calendar periods of the time stamps, or windows of equal row counts in time "
                                     "order (for step-number stamps, or when rows are unevenly spread).")
    period = ov.PERIOD_CHOICES[period_label]
    if period == "windows":
        period = int(st.number_input("Windows", 2, 400, DEFAULT_WINDOWS, key="time_windows"))
    level = float(st.select_slider("Confidence level", [0.80, 0.90, 0.95, 0.99], value=0.95,
                                   format_func=percent_level, key="time_level"))
with right:
    choice = st.selectbox("Reference", ov.REFERENCE_CHOICES, key="time_reference",
                          help="What each period is compared with; its own rows are left out of the reference.")
    k, start, end = 2, None, None
    if choice == ov.FIRST_K:
        k = int(st.number_input("k", 1, 400, 3, key="time_k"))
    elif choice == ov.RANGE:
        span = ov.date_span(assessment)
        picked = st.date_input("From – to (both days included)", value=span, key="time_range")
        if not isinstance(picked, (tuple, list)) or len(picked) != 2:
            st.info("Choose the first and the last day of the reference.")
            st.stop()
        start, end = picked

if assessment.task.is_classification:
    decision_note(assessment)
try:
    result = cached(over_time, assessment, period, reference=ov.reference_of(choice, k, start, end),
                    keys=(metric,), decision=current_decision(), ci="auto", confidence_level=level)
except (AssessError, ValueError) as exc:
    st.error(md(str(exc)))
    st.stop()

st.caption(md(f"Time stamps from {quote(result.column)}; compared with {result.reference_words}."))
estimated = estimated_periods(assessment, result, model, metric, level)
fig = ov.chart(result, model, metric, estimated)
chart(fig, f"{names[metric]} over time", key="over_time")

st.subheader("Changes against the reference")
for sentence in result.sentences(model, metric):
    st.markdown(md(sentence))
if not result.sentences(model, metric):
    st.info("No period outside the reference could be tested for this metric; the table says why.")
data_table(ov.change_table(result, model, metric, estimated), repeat=("Period",), shrink=("Test",))
st.caption(ov.CHANGE_CAPTION)

period_backtest(assessment, result, model, metric, level)
all_charts_button([fig], "over_time.pdf", key="over_time")
period_rows(assessment, result, model, current_decision())
