"""Curves page: the threshold explorer (confusion matrices and metrics follow the threshold), then ROC, PR, gain,
lift, calibration, score distribution, metric-vs-threshold and KS charts, per-fold curves and the decile table.
Multi-class: the chosen models overlaid on one class against the rest (or the micro- or macro-average), with the same
charts but no threshold, then every class of one model."""

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

models = st.multiselect("Models", list(assessment.models), default=list(assessment.models),
                        help="The models drawn on every chart of this page.")
if not models:
    st.info("Pick at least one model.")
    st.stop()
colors = charts.model_colors(assessment.models)  # by position in the file, so a model keeps its colour everywhere

# --- which binary view: the file's own, one label (multi-label), or one class or the micro-average (multi-class) -----
label = ""
ml_figures: list = []
if task is Task.MULTICLASS:
    st.subheader("The models on one class against the rest")
    label = cw.class_choice(assessment)
    if label == cv.MACRO_AVERAGE:
        cw.without_scores(assessment, models)
        figures = cw.macro_section(assessment, models) + cw.all_classes_section(assessment, models)
        all_charts_button(figures, "curves.pdf", key="curves")
        st.stop()
elif task is Task.MULTILABEL:
    ml_figures = per_label_curves_section(assessment, models)
    label_thresholds_section(assessment, models)
    st.subheader("One label at a time")
    label = st.selectbox("Label", list(assessment.classes), help="Multi-label models are explored one label at a time.")
cw.without_scores(assessment, models)
views = [m for m in models if assessment.predictions(m).scores is not None]
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

    with st.container(horizontal=True):
        bands = cw.bands_toggle(assessment, scored, label)
        with_hull = st.toggle("ROC: convex hull", key="roc_hull",
                              help="The best operating points reachable by mixing two thresholds at random.")
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


if task is Task.MULTICLASS:   # no threshold: each row is predicted as its highest-scoring class
    st.session_state.setdefault(Key.FIGURES, {})["curves"] = cw.class_overlay_section(assessment, curves, label, colors)
else:
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

if assessment.predictions(views[0]).fold is not None:
    st.subheader("Per cross-validation fold")
    fold_model = st.selectbox("Model", views, key="fold_model")
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

if task is Task.MULTICLASS:
    static += cw.all_classes_section(assessment, models)
all_charts_button(ml_figures + st.session_state.setdefault(Key.FIGURES, {}).get("curves", []) + static, "curves.pdf",
                  key="curves")
