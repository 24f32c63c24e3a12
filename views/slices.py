"""Slices page: where the model fails (a metric per slice with intervals, tests across slices, the worst slices,
fairness gaps), how stable the estimate is across cross-validation folds, and whether more data still helps."""

import streamlit as st

from assess.analyses.folds import fold_metrics, learning_curve, train_size_column
from assess.analyses.slices import MAX_SLICES, MIN_SLICE_SIZE, analyse_slices, default_slice_columns, slice_candidates
from assess.analyses.slices_view import fold_table, metric_choices, slice_report, sliceable
from assess.core.data import Task
from assess.core.errors import AssessError
from assess.core.formatting import percent_level
from assess.metrics.registry import get, slice_test_metric
from assess.present import charts
from assess.present.charts.slices import fold_metric_chart, learning_curve_chart, slice_forest_chart, slice_heatmap
from ui.discovery import find_weak_slices
from ui.rows_widgets import declared_slice_rows
from ui.slices_widgets import fairness_section
from ui.state import cached, current_decision, md, require_assessment
from ui.widgets import all_charts_button, chart, data_table, decision_note

st.title("Slices")
assessment = require_assessment()
task = assessment.task
if not sliceable(task):
    st.info("Slices are available for classification, regression and forecasts; this file's task is "
            f"{task.label}{' — the Clusters page shows its indices' if task is Task.CLUSTERING else ''}.")
    st.stop()

candidates = cached(slice_candidates, assessment)   # a pass over every column: once per file and roles
names = cached(metric_choices, assessment, light=True)
default_metric = slice_test_metric(task)
colors = charts.model_colors(assessment.models)
decision = current_decision()
figures: list = []

# --- settings ------------------------------------------------------------------------------------------------------
left, mid, right = st.columns(3)
with left:
    defaults, _ = default_slice_columns(assessment, candidates)
    columns = st.multiselect("Slice by", candidates, default=defaults, key="slice_columns",
                             help="Each value of a column is a slice; two or more columns are crossed "
                                  "(every combination of their values). The Data page's *Subgroup slices* are chosen "
                                  f"first. Columns with more than {MAX_SLICES} values are not offered.")
with mid:
    metric = st.selectbox("Metric", list(names), index=list(names).index(default_metric) if default_metric in names
                          else 0, format_func=names.get, key="slice_metric",
                          help="Shown per slice and tested across slices.")
    model = st.selectbox("Model", list(assessment.models), format_func=str, key="slice_model")
with right:
    min_size = int(st.number_input("Minimum slice size to test", 2, 100_000, MIN_SLICE_SIZE, step=5,
                                   key="slice_min_size",
                                   help="Smaller slices are shown (hollow, grey) but not tested: their intervals are "
                                        "too wide for a test to mean anything."))
    level = float(st.select_slider("Confidence level", [0.80, 0.90, 0.95, 0.99], value=0.95,
                                   format_func=percent_level, key="slice_level"))

if task.is_classification:
    decision_note(assessment)
spec = get(task, metric)

if not candidates:
    st.info("This file has no column to slice by (a column with 2 to 100 distinct values besides the predictions).")
elif not columns:
    st.info("Choose at least one column to slice by.")
else:
    try:
        analysis = cached(analyse_slices, assessment, tuple(columns), keys=(metric,), test_keys=(metric,),
                          decision=decision, ci="auto", confidence_level=level, min_size=min_size)
    except (AssessError, ValueError) as exc:
        st.error(md(str(exc)))
        st.stop()
    report = slice_report(analysis, task, model, metric, min_size, level)

    st.subheader("Where the model fails")
    if report.worst:
        st.markdown(md(report.worst))
    if report.every_worst is not None:
        data_table(report.every_worst, repeat=("Model",))
    fig = slice_forest_chart(rows=report.shown, overall=report.overall, metric=spec.name, model=model,
                             min_size=min_size, confidence_level=level, higher_is_better=spec.direction != "lower")
    figures.append(fig)
    chart(fig, f"{spec.name} per slice", key="slice_forest")
    for note in report.notes:
        st.caption(md(note))

    if len(analysis.columns) == 2:
        fig = slice_heatmap(rows=report.rows, row_column=analysis.columns[0], col_column=analysis.columns[1],
                            metric=spec.name, model=model, min_size=min_size)
        figures.append(fig)
        chart(fig, f"{spec.name} by crossed slices", key="slice_heatmap")

    st.subheader("Tests across slices")
    if report.omnibus:
        st.markdown(md(report.omnibus))
    # nine columns: two tables at 1024 px, each naming its slices; "p-value" as on the Compare page, not "P"
    data_table(report.table, repeat=("Slice",), headers={"p": "p-value"})
    st.caption("Each slice is tested against the rest of the rows: χ² (Fisher's exact test when an expected count "
               "is below 5) for proportions, Kruskal–Wallis on per-sample losses for mean losses, DeLong for the ROC "
               "AUC, a two-sample bootstrap for other metrics. Adjusted p: Benjamini–Hochberg false discovery rate "
               "across the slices (ISO/IEC TS 4213 7.10.3).")

    fairness_section(assessment, analysis, model, decision, level, figures)
    declared_slice_rows(assessment, analysis, model, metric, decision)

find_weak_slices(assessment, model, metric, decision, level, figures)

if assessment.roles.fold:
    st.subheader("Across cross-validation folds")
    try:
        folds = cached(fold_metrics, assessment, keys=(metric,), decision=decision, confidence_level=level)
    except (AssessError, ValueError) as exc:
        st.error(md(str(exc)))
    else:
        fig = fold_metric_chart(per_fold=folds.per_fold, summary=folds.summary, metric=spec.name, colors=colors)
        figures.append(fig)
        chart(fig, f"{spec.name} per fold", key="folds")
        data_table(fold_table(folds.summary), repeat=("Model",))
        st.caption("The t interval over one k-fold run treats the folds as independent (they share training data, "
                   "so it is somewhat narrow); with a repeat column it is the Nadeau–Bengio corrected resampled t "
                   "interval, (1/J + 1/(k−1)) s² (Nadeau & Bengio 2003; Bouckaert & Frank 2004).")

if train_size_column(assessment) is not None:
    st.subheader("Learning curve")
    try:
        curve = cached(learning_curve, assessment, metric, decision=decision, confidence_level=level)
    except (AssessError, ValueError) as exc:
        st.error(md(str(exc)))
    else:
        fig = learning_curve_chart(points=curve.points, metric=spec.name, column=curve.column, colors=colors)
        figures.append(fig)
        chart(fig, "Learning curve", key="learning_curve")
        for r in curve.trend.itertuples(index=False):
            st.markdown(md(f"{r.model}: {r.verdict}"))

all_charts_button(figures, "slices.pdf", key="slices")
