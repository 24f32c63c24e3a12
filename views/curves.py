"""Curves page: the threshold explorer (confusion matrices and metrics follow the threshold), then ROC, PR, gain,
lift, calibration, score distribution, metric-vs-threshold and KS charts, per-fold curves and the decile table."""

import streamlit as st

from assess.core.data import Task
from assess.core.errors import AssessError
from assess.metrics.threshold import DEFAULT_KEYS
from assess.present import charts
from assess.present import curves_view as cv
from assess.present.export import to_csv_bytes
from ui.state import Key, cached, md, require_assessment
from ui import curves_widgets as cw
from ui.multilabel_views import label_thresholds_section, per_label_curves_section
from ui.widgets import (all_charts_button, chart, chart_cell, chart_row, data_table, decision_note, draw,
                        threshold_control)

st.title("Curves")
assessment = require_assessment()
task = assessment.task
if not task.is_classification:
    st.info(f"Threshold curves belong to classification tasks; this file's task is {task.label} — see the "
            f"{'Clusters' if task is Task.CLUSTERING else 'Errors'} page.")
    st.stop()

models = st.multiselect("Models", list(assessment.models), default=list(assessment.models))
if not models:
    st.info("Pick at least one model.")
    st.stop()
colors = charts.model_colors(assessment.models)  # by position in the file, so a model keeps its colour everywhere

if task is Task.MULTICLASS:   # one-vs-rest curves of one model
    cw.one_vs_rest_section(assessment, models)
    st.stop()

# --- binary, or one label of a multi-label task ---------------------------------------------------------------------
label = ""
ml_figures: list = []
if task is Task.MULTILABEL:
    ml_figures = per_label_curves_section(assessment, models)
    label_thresholds_section(assessment, models)
    st.subheader("One label at a time")
    label = st.selectbox("Label", list(assessment.classes), help="Multi-label models are explored one label at a time.")
views = {m: cv.label_view(assessment, m, label) for m in models}
without = [m for m, v in views.items() if v.scores is None]
if without:
    st.info(md("No scores for " + ", ".join(f"`{m}`" for m in without) + ": they have no curves."))
views = {m: v for m, v in views.items() if v.scores is not None}
if not views:
    st.stop()
try:   # every model's curves from one sort each, thinned once, with the ROC AUC's DeLong interval for the legend
    curves = cached(cv.curves, assessment, tuple(views), label)
except AssessError as exc:
    st.error(md(str(exc)))
    st.stop()
scored, low, high = curves.scored, curves.low, curves.high


@st.fragment
def explorer() -> None:
    """Moving the threshold reruns only this fragment: a binary search in each model's counts, no new sort."""
    st.subheader("Threshold explorer")
    threshold = threshold_control(label, low=low, high=high)
    decision_note(assessment, page="curves")
    beta_ = cw.suggested_points(curves, label)
    # One small matrix per model, each titled with its model, wrapping two or three to a row (no colour bar: the
    # cells print their shares); built from the one sort per model: a threshold reads its counts by a binary search.
    with chart_row(small=True):
        for m in scored:
            with chart_cell(small=True, key=f"cell_cm_{m}"):
                draw(cv.matrix_chart(curves, m, threshold), key=f"cm_{m}")
    # e.g. the MCC of a constant score is undefined: "—", never None. Sixteen columns: several tables at 1024 px, each
    # naming its models.
    table, formats = cv.explorer_table(curves, threshold)
    data_table(table, formats=formats, headers=cv.explorer_headers(), repeat=("model",))

    t1 = t2 = st.container(horizontal=True)
    with_band = t1.toggle("ROC: 95% bootstrap band (200 resamples, seed 0)", key="roc_band")
    with_hull = t2.toggle("ROC: convex hull", key="roc_hull",
                          help="The best operating points reachable by mixing two thresholds at random.")
    bands = None
    if with_band:
        with st.spinner("Bootstrapping the ROC curves…"):
            raw = {m: cached(cv.band, assessment, m, label) for m in scored}
        bands = {m: charts.CurveBand(b.fpr, b.low, b.high, label="95% bootstrap band") for m, b in raw.items()}
    # Only the ROC chart draws the band and the hull.
    shown = list(cv.curve_charts(curves, colors, threshold, bands=bands, hull=with_hull).items())
    detail = st.selectbox("Model for the single-model charts", list(scored), key="detail_model")
    rates = cv.threshold_rates()
    plotted = st.multiselect("Metrics by threshold", list(rates), default=list(DEFAULT_KEYS), format_func=rates.get,
                             key="threshold_chart_metrics", help="Any binary metric of the registry, at every threshold")
    # Built once per model and choice for the whole server (ui/store.py stores a figure as its dict and gives each
    # session its own object); a new threshold only adds its line to it.
    if plotted:
        shown.append(("Metrics by threshold", charts.with_threshold_line(
            cached(cv.metric_chart, assessment, detail, label, tuple(plotted), float(beta_)), threshold)))
    shown.append(("Score distribution", charts.with_threshold_line(
        cached(cv.distribution_chart, assessment, detail, label), threshold)))
    with chart_row():
        for name, fig in shown:
            chart(fig, name, key=f"{name}_{label}", in_row=True)
    st.session_state.setdefault(Key.FIGURES, {})["curves"] = [fig for _, fig in shown]


explorer()

st.subheader("Calibration and separation")
row = chart_row()
static = []
with row:   # built once per models and label for the whole server
    fig = cached(cv.calibration_chart, assessment, tuple(scored), label)
    if fig is not None:
        static.append(fig)
        chart(fig, "Calibration", key=f"calibration_{label}", in_row=True)
    for m, sm in scored.items():
        if sm.calibration is None:
            st.caption(md(f"`{m}`: {sm.calibration_reason}."))
with row:
    fig = cached(cv.ks_chart, assessment, tuple(scored), label)
    static.append(fig)
    chart(fig, "KS", key=f"ks_{label}", in_row=True)

first_view = next(iter(views.values()))
if first_view.fold is not None:
    st.subheader("Per cross-validation fold")
    fold_model = st.selectbox("Model", list(views), key="fold_model")
    kind = st.radio("Curve", list(cv.FOLD_KINDS), horizontal=True, key="fold_kind", format_func=cv.FOLD_KINDS.get)
    folds = cached(cv.folds, assessment, fold_model, label, kind)
    if len(folds) >= 2:
        fig = charts.fold_curves_chart(folds=folds, name=fold_model, color=colors[fold_model])
        static.append(fig)
        chart(fig, "Folds", key=f"folds_{label}")
    else:
        st.caption("Fewer than two folds have both classes, so there is no per-fold chart.")

st.subheader("Gain and lift by decile")
bins = st.select_slider("Bins", [5, 10, 20, 50, 100], value=10)
deciles = cv.decile_table(scored, bins)
data_table(deciles, formats=cv.DECILE_FORMATS, headers=cv.DECILE_HEADERS, repeat=("model", "bin"))
st.download_button("Gain/lift table CSV", to_csv_bytes(deciles), "gain_lift.csv", "text/csv",
                   icon=":material/download:")

all_charts_button(ml_figures + st.session_state.setdefault(Key.FIGURES, {}).get("curves", []) + static, "curves.pdf",
                  key="curves")
