"""The Curves page's sections drawn by widgets (views/curves.py): the multi-class one-vs-rest charts and the threshold
explorer's suggested operating points; what they show comes from assess/present/curves_view.py."""

from __future__ import annotations

import streamlit as st

from assess.analyses.operating_points import suggested_thresholds
from assess.inputs.assessment import Assessment
from assess.present import charts
from assess.present import curves_view as cv
from assess.present.settings import BETA
from ui.state import cached
from ui.widgets import all_charts_button, chart, chart_row, presenting, set_threshold


def one_vs_rest_section(assessment: Assessment, models: list[str]) -> None:
    """A multi-class model's ROC and PR curves, each class against the rest, and the page's PDF button."""
    model = st.selectbox("Model", models)
    if assessment.predictions(model).scores is None:
        st.info("One-vs-rest curves need one probability column per class (`proba_<class>`).")
        return
    ovr = cached(cv.one_vs_rest_curves, assessment, model)
    class_colors = charts.model_colors(assessment.classes)
    row, figures = chart_row(), []
    for kind, curves_, micro, area in (("ROC", ovr.roc, ovr.micro_roc, ovr.macro_roc_auc),
                                       ("Precision–recall", ovr.pr, ovr.micro_pr, ovr.macro_average_precision)):
        fig = charts.ovr_chart(per_class=curves_, micro=micro, macro_area=area, colors=class_colors,
                               title=f"{kind}, one class against the rest — {model}")
        figures.append(fig)
        with row:
            chart(fig, f"{kind} one-vs-rest", key=f"ovr_{kind}", in_row=True)
    all_charts_button(figures, "curves.pdf", key="curves")


def suggested_points(curves: cv.Curves, label: str) -> float:
    """The "Suggested operating points" expander: each rule's threshold as a button that moves the explorer there;
    returns β (the metrics-by-threshold chart's F-beta uses it too)."""
    low, high = curves.low, curves.high
    with st.expander("Suggested operating points", expanded=not presenting(), icon=":material/target:"):
        # Inputs and buttons as wide as their labels, wrapping onto new rows on a narrow screen: in five columns at
        # 1024 px the buttons read "Youden's…" and their thresholds could not be seen.
        with st.container(horizontal=True):
            beta = st.number_input("β for max Fβ", BETA.low, BETA.high, 1.0, step=0.5, key="curves_beta", width=150)
            cost_fp = st.number_input("Cost of a false positive", 0.0, 1e9, 1.0, key="cost_fp", width=190)
            cost_fn = st.number_input("Cost of a false negative", 0.0, 1e9, 1.0, key="cost_fn", width=190)
            target_p = st.number_input("Target precision", 0.0, 1.0, 0.9, step=0.05, key="target_p", width=150)
            target_r = st.number_input("Target recall", 0.0, 1.0, 0.9, step=0.05, key="target_r", width=150)
        model = st.selectbox("Suggest for model", list(curves.scored), key="suggest_model")
        suggestions = suggested_thresholds(curves.scored[model].counts, beta=beta, cost_fp=cost_fp, cost_fn=cost_fn,
                                           target_precision=target_p, target_recall=target_r)
        with st.container(horizontal=True, gap="small"):
            for s in suggestions:
                st.button(f"{s.label}: {s.threshold:.3f}", key=f"suggest_{s.key}", help=s.why, width="content",
                          on_click=set_threshold, args=(label, s.threshold), kwargs={"low": low, "high": high})
        if not any(s.key == "target_precision" for s in suggestions):
            st.caption(f"No threshold reaches a precision of {target_p:.0%} for this model.")
    return beta
