"""Curves page: the threshold explorer (confusion matrices and metrics follow the threshold), then ROC, PR, gain,
lift, calibration, score distribution, metric-vs-threshold and KS charts, per-fold curves and the decile table."""

import warnings

import numpy as np
import pandas as pd
import streamlit as st

from assess.analyses.operating_points import binary_matrix, suggested_thresholds
from assess.core.data import Task
from assess.core.errors import AssessError
from assess.core.formatting import count, proportion
from assess.metrics.threshold import DEFAULT_KEYS, metric_vs_threshold, metrics_at
from assess.present import charts
from assess.present import curves_view as cv
from assess.present.export import to_csv_bytes
from ui.state import Key, cached, md, memo, require_assessment
from ui.multilabel_views import label_thresholds_section, per_label_curves_section
from ui.widgets import (all_charts_button, chart, chart_cell, chart_row, decision_note, data_table, draw,
                           presenting, set_threshold, threshold_control)

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
figures: list = []

# --- multi-class: one-vs-rest ----------------------------------------------------------------------------------------
if task is Task.MULTICLASS:
    model = st.selectbox("Model", models)
    pred = assessment.predictions(model)
    if pred.scores is None:
        st.info("One-vs-rest curves need one probability column per class (`proba_<class>`).")
        st.stop()
    ovr = cached(cv.one_vs_rest_curves, assessment, model)
    class_colors = charts.model_colors(assessment.classes)
    row = chart_row()
    for kind, curves_, micro, area in (("ROC", ovr.roc, ovr.micro_roc, ovr.macro_roc_auc),
                                       ("Precision–recall", ovr.pr, ovr.micro_pr, ovr.macro_average_precision)):
        fig = charts.ovr_chart(per_class=curves_, micro=micro, macro_area=area, colors=class_colors,
                               title=f"{kind}, one class against the rest — {model}")
        figures.append(fig)
        with row:
            chart(fig, f"{kind} one-vs-rest", key=f"ovr_{kind}", in_row=True)
    all_charts_button(figures, "curves.pdf", key="curves")
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
try:
    scored = {m: cached(cv.scored, assessment, m, label) for m in views}
except AssessError as exc:
    st.error(md(str(exc)))
    st.stop()
# ROC AUC intervals for the legend, by DeLong (from the same single sort; weighted data fall back to the bootstrap).
auc_ci = {m: cached(cv.auc_interval, assessment, m, label) for m in views}
low = float(min(np.nanmin(v.scores) for v in views.values()))
high = float(max(np.nanmax(v.scores) for v in views.values()))
positive = next(iter(scored.values())).positive
negative = next(iter(scored.values())).negative


def thinned_indices(scored_models: dict) -> dict:
    """Which points of each curve are drawn, computed once: thinning a 1e6-point curve is the costly step."""
    budget = charts.points_per_curve(len(scored_models))
    return {kind: {m: charts.drawn_indices(getattr(sm, kind).x, getattr(sm, kind).y, max_points=budget)
                   for m, sm in scored_models.items()} for kind in ("roc", "pr", "gain", "lift")}


@st.fragment
def explorer() -> None:
    """Moving the threshold reruns only this fragment: a binary search in each model's counts, no new sort."""
    st.subheader("Threshold explorer")
    threshold = threshold_control(label, low=low, high=high)
    decision_note(assessment, page="curves")
    with st.expander("Suggested operating points", expanded=not presenting(), icon=":material/target:"):
        # Inputs and buttons as wide as their labels, wrapping onto new rows on a narrow screen: in five columns at
        # 1024 px the buttons read "Youden's…" and their thresholds could not be seen.
        with st.container(horizontal=True):
            beta_ = st.number_input("β for max Fβ", 0.1, 10.0, 1.0, step=0.5, key="curves_beta", width=150)
            cost_fp = st.number_input("Cost of a false positive", 0.0, 1e9, 1.0, key="cost_fp", width=190)
            cost_fn = st.number_input("Cost of a false negative", 0.0, 1e9, 1.0, key="cost_fn", width=190)
            target_p = st.number_input("Target precision", 0.0, 1.0, 0.9, step=0.05, key="target_p", width=150)
            target_r = st.number_input("Target recall", 0.0, 1.0, 0.9, step=0.05, key="target_r", width=150)
        suggest_model = st.selectbox("Suggest for model", list(scored), key="suggest_model")
        suggestions = suggested_thresholds(scored[suggest_model].counts, beta=beta_, cost_fp=cost_fp,
                                           cost_fn=cost_fn, target_precision=target_p, target_recall=target_r)
        with st.container(horizontal=True, gap="small"):
            for s in suggestions:
                st.button(f"{s.label}: {s.threshold:.3f}", key=f"suggest_{s.key}", help=s.why, width="content",
                          on_click=set_threshold, args=(label, s.threshold), kwargs={"low": low, "high": high})
        if not any(s.key == "target_precision" for s in suggestions):
            st.caption(f"No threshold reaches a precision of {target_p:.0%} for this model.")

    at = {m: metrics_at(sm.counts, threshold) for m, sm in scored.items()}

    def matrix_chart(m: str):
        fig = charts.confusion_matrix_chart(matrix=binary_matrix(scored[m].counts, threshold),
                                            classes=[negative, positive], normalize="true", title=m,
                                            subtitle=f"at threshold {threshold:.3f}", colorbar=False)
        return fig.update_layout(height=380, margin=dict(l=60, r=10))
    # Every figure of the explorer is built once per file, roles and settings for the whole server (`memo`; each
    # session gets its own copy): eight sessions at the same threshold — the default one, say — build them once.
    # One small matrix per model, each titled with its model, wrapping two or three to a row (no colour bar: the
    # cells print their shares).
    with chart_row(small=True):
        for m in scored:
            with chart_cell(small=True, key=f"cell_cm_{m}"):
                draw(memo(assessment, "matrix_chart", (m, label, threshold), lambda m=m: matrix_chart(m), light=True),
                     key=f"cm_{m}")
    table = pd.DataFrame(at).T
    counts_ = [c for c in ("tp", "fp", "tn", "fn") if c in table.columns]
    names = cv.explorer_headers()
    # e.g. the MCC of a constant score is undefined: "—", never None. Sixteen columns: several tables at 1024 px, each
    # naming its models.
    data_table(table.rename_axis("model").reset_index(),
               formats={c: count if c in counts_ else proportion for c in table.columns}, headers=names,
               repeat=("model",))

    t1 = t2 = st.container(horizontal=True)
    with_band = t1.toggle("ROC: 95% bootstrap band (200 resamples, seed 0)", key="roc_band")
    with_hull = t2.toggle("ROC: convex hull", key="roc_hull",
                          help="The best operating points reachable by mixing two thresholds at random.")
    bands = None
    if with_band:
        with st.spinner("Bootstrapping the ROC curves…"):
            raw = {m: cached(cv.band, assessment, m, label) for m in scored}
        bands = {m: charts.CurveBand(b.fpr, b.low, b.high, label="95% bootstrap band") for m, b in raw.items()}
    counts = {m: sm.counts for m, sm in scored.items()}
    drawn = memo(assessment, "drawn", (tuple(scored), label), lambda: thinned_indices(scored))
    curves_of = {kind: {m: getattr(sm, kind) for m, sm in scored.items()} for kind in ("roc", "pr", "gain", "lift")}
    curve_charts = {
        "ROC": lambda: charts.roc_chart(curves=curves_of["roc"], counts=counts, colors=colors, threshold=threshold,
                                        auc_ci=auc_ci, drawn=drawn["roc"], bands=bands, hull=with_hull),
        "Precision–recall": lambda: charts.pr_chart(curves=curves_of["pr"], counts=counts, colors=colors,
                                                    threshold=threshold, drawn=drawn["pr"]),
        "Cumulative gain": lambda: charts.gain_chart(curves=curves_of["gain"], counts=counts, colors=colors,
                                                     threshold=threshold, drawn=drawn["gain"]),
        "Lift": lambda: charts.lift_chart(curves=curves_of["lift"], counts=counts, colors=colors, threshold=threshold,
                                          drawn=drawn["lift"])}
    # Only the ROC chart draws the band and the hull: the others' keys leave the toggles out.
    shown = [(name, memo(assessment, "curve_chart", (name, tuple(scored), label, threshold)
                         + ((with_band, with_hull) if name == "ROC" else ()), build, light=True))
             for name, build in curve_charts.items()]
    detail = st.selectbox("Model for the single-model charts", list(scored), key="detail_model")
    sm = scored[detail]
    rates = cv.threshold_rates()
    plotted = st.multiselect("Metrics by threshold", list(rates), default=list(DEFAULT_KEYS), format_func=rates.get,
                             key="threshold_chart_metrics", help="Any binary metric of the registry, at every threshold")

    def metric_chart():
        with warnings.catch_warnings():  # NaN where a metric is undefined at a threshold: a gap in its line
            warnings.simplefilter("ignore")
            metrics = metric_vs_threshold(sm.counts, plotted, beta=beta_)
        return charts.metric_threshold_chart(metrics=metrics, title=f"Metrics by threshold — {detail}")

    def distribution_chart():
        return charts.score_distribution_chart(scores_by_class=sm.scores_by_class,
                                               title=f"Score distribution by class — {detail}",
                                               colors={positive: colors[detail], negative: "#999999"})
    # Built once per model and choice; a new threshold only adds its line to it (the charts without the line are
    # results of their own, read only when a threshold is new). Shared by every session holding the file
    # (ui/store.py stores a figure as its dict and gives each session its own object).
    if plotted:
        metric_key = (detail, label, tuple(plotted), beta_)
        shown.append(("Metrics by threshold", memo(assessment, "metric_chart_at", (*metric_key, threshold),
                                                   lambda: charts.with_threshold_line(
                                                       memo(assessment, "metric_chart", metric_key, metric_chart),
                                                       threshold), light=True)))
    shown.append(("Score distribution", memo(assessment, "distribution_chart_at", (detail, label, threshold),
                                             lambda: charts.with_threshold_line(
                                                 memo(assessment, "distribution_chart", (detail, label),
                                                      distribution_chart), threshold), light=True)))
    with chart_row():
        for name, fig in shown:
            chart(fig, name, key=f"{name}_{label}", in_row=True)
    st.session_state.setdefault(Key.FIGURES, {})["curves"] = [fig for _, fig in shown]


explorer()

st.subheader("Calibration and separation")
row = chart_row()
calibrated = {m: sm.calibration for m, sm in scored.items() if sm.calibration is not None}
static = []
with row:
    if calibrated:   # shared like the explorer's figures
        fig = memo(assessment, "calibration_chart", (tuple(scored), label),
                   lambda: charts.calibration_chart(curves=calibrated, colors=colors), light=True)
        static.append(fig)
        chart(fig, "Calibration", key=f"calibration_{label}", in_row=True)
    for m, sm in scored.items():
        if sm.calibration is None:
            st.caption(md(f"`{m}`: {sm.calibration_reason}."))
with row:
    fig = memo(assessment, "ks_chart", (tuple(scored), label),
               lambda: charts.ks_chart(curves={m: sm.ks for m, sm in scored.items()}, colors=colors), light=True)
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
