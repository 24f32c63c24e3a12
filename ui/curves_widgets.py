"""The Curves page's sections drawn by widgets (views/curves.py): the multi-class class chooser, models overlaid on
one class (or an average), every class of one model, the bands toggle, and the threshold explorer's suggested
operating points; what they show comes from assess/present/curves_view.py."""

from __future__ import annotations

import streamlit as st

from assess.analyses.operating_points import suggested_thresholds
from assess.core.errors import AssessError
from assess.inputs.assessment import Assessment
from assess.present import charts
from assess.present import curves_view as cv
from assess.present.settings import BETA
from ui.state import cached, md
from ui.widgets import chart, chart_row, presenting, set_threshold

#: The bands' toggle, named once: the explorer (binary) and the multi-class view show the same bands.
BANDS_LABEL = "95% bootstrap bands (200 resamples, seed 0)"


def class_choice(assessment: Assessment) -> str:
    """The multi-class view to draw: a class against the rest, the micro- or the macro-average."""
    return st.selectbox("Class", list(assessment.classes) + list(cv.AVERAGES), key="curves_class",
                        help="One class against the rest; the micro-average pools every (row, class) pair; the "
                             "macro-average is the mean of the classes' ROC and PR curves.")


def bands_toggle(assessment: Assessment, models, label: str) -> dict | None:
    """The models' bootstrap bands of ROC, PR, gain and lift when the toggle is on (None otherwise)."""
    if not cv.has_bands(label):
        st.caption("No bands on the micro-average: its k rows per sample are not independent draws.")
        return None
    if not st.toggle(BANDS_LABEL, key="roc_band", help="Pointwise: each point's interval holds on its own. Resamples "
                     "the score × class cells within each class."):
        return None
    out = {}
    with st.spinner("Bootstrapping the curves…"):
        for m in models:
            try:
                out[m] = cached(cv.bands, assessment, m, label)
            except AssessError as exc:   # e.g. a class with no row in the truth: nothing to resample
                st.caption(md(f"No band for `{m}`: {exc}."))
    return out


def class_overlay_section(assessment: Assessment, curves: cv.Curves, label: str, colors: dict) -> list:
    """ROC, PR, gain and lift of one class (or the micro-average) with the chosen models overlaid; their figures."""
    bands = bands_toggle(assessment, curves.scored, label)
    shown = cv.curve_charts(curves, colors, None, bands=bands, about=cv.subject(assessment, label))
    with chart_row():
        for name, fig in shown.items():
            chart(fig, name, key=f"ovr_{name}_{label}", in_row=True)
    return list(shown.values())


def macro_section(assessment: Assessment, models: list[str]) -> list:
    """The chosen models' macro-average ROC and PR curves on one chart each; their figures."""
    scored = tuple(m for m in models if assessment.predictions(m).scores is not None)
    if not scored:
        st.info("Macro-average curves need one probability column per class (`proba_<class>`).")
        return []
    figures = []
    with chart_row():
        for kind, title in cv.MACRO_KINDS.items():
            figures.append(cached(cv.macro_chart, assessment, scored, kind))
            chart(figures[-1], title, key=f"macro_{kind}", in_row=True)
    st.caption("Gain, lift and calibration are drawn per class or for the micro-average.")
    return figures


def all_classes_section(assessment: Assessment, models: list[str]) -> list:
    """One model's ROC and PR curves of every class against the rest, with the micro- and macro-averages; their
    figures."""
    st.subheader("Every class of one model")
    scored = [m for m in models if assessment.predictions(m).scores is not None]
    if not scored:
        return []
    model = st.selectbox("Model", scored, key="ovr_model")
    ovr = cached(cv.one_vs_rest_curves, assessment, model)
    class_colors = charts.model_colors(assessment.classes)
    figures = []
    with chart_row():
        for kind, curves_, micro, area in (("ROC", ovr.roc, ovr.micro_roc, ovr.macro_roc_auc),
                                           ("Precision–recall", ovr.pr, ovr.micro_pr, ovr.macro_average_precision)):
            fig = charts.ovr_chart(per_class=curves_, micro=micro, macro_area=area, colors=class_colors,
                                   title=f"{kind}, one class against the rest — {model}")
            figures.append(fig)
            chart(fig, f"{kind} one-vs-rest", key=f"ovr_{kind}", in_row=True)
    return figures


def without_scores(assessment: Assessment, models: list[str]) -> None:
    """Say which chosen models have no scores, so no curves."""
    missing = [m for m in models if assessment.predictions(m).scores is None]
    if missing:
        st.info(md("No scores for " + ", ".join(f"`{m}`" for m in missing) + ": they have no curves."))


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
