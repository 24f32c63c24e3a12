"""The "Planning" expander of the Compare and Metrics pages (issue 36 §2): what this test set can detect between two
models, the rows for an interval of a given half-width, and the rows to detect a difference — the numbers and
sentences of `assess.stats.planning`, as ``python -m assess plan`` prints them."""

from __future__ import annotations

import streamlit as st

from assess.core.errors import AssessError
from assess.inputs.columns import quote
from assess.stats import planning
from ui.state import cached, current_decision, md

SAME_ROWS, SEPARATE_ROWS, TWO_AUCS = ("Accuracy, same rows (McNemar)", "Accuracy, separate rows (two proportions)",
                                      "ROC AUC, same rows (DeLong)")
METHODS = {"wilson": "Wilson", "clopper-pearson": "Clopper–Pearson", "wald": "Wald"}
FILE_METHODS = {"connor": "the share of rows on which they disagree (McNemar's test, Connor 1987)",
                "delong variance": "the variance of their ROC AUCs' difference (DeLong's test)",
                "paired normal": "the spread of their paired differences in absolute error"}


def planning_panel(assessment, models, metric: str | None = None) -> None:
    """The expander. ``assessment``: the loaded file (None for uploaded per-fold scores: no file-based answer);
    ``models``: the page's chosen models (the first two are planned from); ``metric``: the page's metric key, used
    from the file when planning can compare it (accuracy, ROC AUC, mean absolute error)."""
    with st.expander("Planning: is the test set large enough?", icon=":material/calculate:"):
        left, right = st.columns(2)
        power = left.select_slider("Power", [0.7, 0.8, 0.9, 0.95], value=0.8, format_func=lambda p: f"{p:.0%}",
                                   key="plan_power", help="The chance of detecting the difference when it is real.")
        alpha = right.select_slider("Significance level", [0.01, 0.05, 0.1], value=0.05,
                                    format_func=lambda a: f"{a:.0%}", key="plan_alpha", help="Two-sided.")
        observed = _from_file(assessment, models, metric, power, alpha)
        if assessment is not None and not assessment.task.is_classification:
            # the forms plan accuracy and ROC AUC: on a regression file they answered a question it cannot ask
            st.caption(md(f"The forms for planning an accuracy or a ROC AUC are for classification files; this file "
                          f"is {assessment.task.label}."))
            return
        _precision()
        _difference(observed, power, alpha)


def _from_file(assessment, models, metric, power, alpha) -> dict:
    """The meeting sentence for the first two chosen models; the figures observed, for the difference form's
    defaults."""
    if assessment is None or len(models) < 2 or assessment.task not in planning.FILE_METRICS:
        st.caption("Choose two models of a loaded predictions file to see what this test set can detect.")
        return {}
    choices = planning.FILE_METRICS[assessment.task]
    try:
        plan = cached(planning.plan_from_file, assessment, tuple(models[:2]),
                      metric=metric if metric in choices else None, decision=current_decision(), power=power,
                      alpha=alpha)
    except AssessError as exc:
        st.caption(md(f"What this test set can detect: {exc}"))
        return {}
    st.markdown("**This test set**")
    st.markdown(md(planning.plan_sentence(plan)))
    st.caption(md(f"Between {quote(models[0])} and {quote(models[1])}, holding {FILE_METHODS[plan.method]}."))
    return plan.inputs


def _precision() -> None:
    st.markdown("**Rows for the precision of one metric**")
    auc = st.radio("Metric", ["Accuracy", "ROC AUC"], key="plan_metric", horizontal=True) == "ROC AUC"
    mid, right, last = st.columns(3)
    expected = mid.number_input("Expected value", 0.51 if auc else 0.01, 0.99, 0.85 if auc else 0.9, 0.01,
                                key=f"plan_expected_{auc}")
    width = right.number_input("Half-width", 0.005, 0.2, 0.05 if auc else 0.02, 0.005, format="%.3f",
                               key=f"plan_width_{auc}")
    if auc:
        prevalence = last.number_input("Positive share", 0.01, 0.99, 0.3, 0.01, key="plan_precision_prevalence")
        plan = planning.rows_for_auc_half_width(expected, width, prevalence=prevalence)
    else:
        method = last.selectbox("Interval", list(METHODS), format_func=METHODS.get, key="plan_method")
        plan = planning.rows_for_half_width(expected, width, method=method)
    st.markdown(md(planning.plan_sentence(plan)))


def _difference(observed: dict, power: float, alpha: float) -> None:
    st.markdown("**Rows to detect a difference between two models**")
    # planned from the file on ROC AUC (Compare on its default metric): start from the two AUCs it observed
    design = st.radio("Compare", [SAME_ROWS, SEPARATE_ROWS, TWO_AUCS], index=2 if "auc_a" in observed else 0,
                      key="plan_design", horizontal=True)
    # inputs level when a label wraps ("Correlation of the AUCs" takes two lines in a quarter of 1024 px)
    cells = iter(st.columns(4 if design == TWO_AUCS else 2, vertical_alignment="bottom"))

    def figure(label, key, fallback, low=0.01, high=0.99, step=0.01):
        """A number input in the next column, starting from the figure observed in the file (kept in range)."""
        value = observed.get(key)
        start = fallback if value is None or value != value else min(high, max(low, round(float(value), 2)))
        return next(cells).number_input(label, low, high, start, step, key=f"plan_{key}")

    try:
        if design == SAME_ROWS:
            plan = planning.mcnemar_rows(figure("Only A right (share of rows)", "p10", 0.10, 0.0, 1.0),
                                         figure("Only B right (share of rows)", "p01", 0.05, 0.0, 1.0),
                                         power=power, alpha=alpha)
        elif design == SEPARATE_ROWS:
            plan = planning.two_proportions_rows(figure("Accuracy of A", "p1", 0.90),
                                                 figure("Accuracy of B", "p2", 0.85), power=power, alpha=alpha)
        else:
            plan = planning.correlated_aucs_rows(
                figure("ROC AUC of A", "auc_a", 0.85, 0.51), figure("ROC AUC of B", "auc_b", 0.80, 0.51),
                correlation=figure("Correlation of the AUCs", "correlation", 0.5, -0.9, 0.95, 0.05),
                prevalence=figure("Positive share", "prevalence", 0.3), power=power, alpha=alpha)
    except AssessError as exc:   # e.g. the two shares add up to more than the rows
        st.warning(md(str(exc)))
        return
    st.markdown(md(planning.plan_sentence(plan)))
