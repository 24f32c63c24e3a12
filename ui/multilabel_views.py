"""The multi-label sections of the Curves and Confusion pages: per-label ROC and precision–recall with micro and
macro averages (Curves), labels per sample and label co-occurrence, true against predicted (Confusion).

The numbers come from :mod:`assess.analyses.label_curves`, the figures from :mod:`assess.present.charts.multilabel`; the
predicted labels follow the shared decision (one threshold per label)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from assess.analyses.label_curves import LABEL_RULES, label_cardinality, label_cooccurrence, label_support
from assess.core.decision import Decision
from assess.core.formatting import percent_level
from assess.inputs.assessment import Assessment
from assess.present import charts, curves_view
from assess.stats.multilabel import CORRECTION_NAMES, PerLabelMcNemarDetails
from ui.state import cached, current_decision, md, set_decision
from ui.widgets import chart, chart_row, data_table

#: Curves drawn at once: past eight the Okabe–Ito palette repeats and the curves cannot be told apart; the micro and
#: macro averages always use every label.
MAX_DRAWN_LABELS = 8


def per_label_curves_section(assessment: Assessment, models: list[str]) -> list:
    """Per-label ROC and PR charts of one model (micro and macro averages over all labels); returns the figures."""
    scored = [m for m in models if assessment.predictions(m).scores is not None]
    st.subheader("Every label at once")
    if not scored:
        st.info("Per-label curves need scores (`score_<label>` columns).")
        return []
    model = st.selectbox("Model for the per-label curves", scored, key="ml_curves_model")
    pred = assessment.predictions(model)
    labels = [str(label) for label in assessment.classes]
    if len(labels) > MAX_DRAWN_LABELS:
        support = label_support(pred)
        default = [labels[i] for i in np.argsort(-support, kind="stable")[:MAX_DRAWN_LABELS]]
        shown = st.multiselect("Labels drawn", labels, default=default, key="ml_curves_labels",
                               help=f"Up to {MAX_DRAWN_LABELS} curves stay legible (default: the labels with the most "
                                    "samples); the micro and macro averages always use every label.")
    else:
        shown = labels
    ovr = cached(curves_view.label_curves, assessment, model)
    colors = charts.model_colors(labels)  # by label position, so a label keeps its colour on both charts
    # Each chart in a cell of its own, as on the binary page (`chart_row`): side by side where the page has the room,
    # one per row below it — two half-page columns at 1024 px cut the titles and the x-axis titles.
    drawn_by_kind, missing = {}, {}
    for kind, per_label, micro, area in (("ROC", ovr.roc, ovr.micro_roc, ovr.macro_roc_auc),
                                         ("Precision–recall", ovr.pr, ovr.micro_pr, ovr.macro_average_precision)):
        drawn = {label: per_label[label] for label in shown if np.isfinite(per_label[label].area)}
        missing |= dict.fromkeys(label for label in shown if label not in drawn)
        if drawn:
            drawn_by_kind[kind] = charts.per_label_curves_chart(
                per_label=drawn, micro=micro, macro_area=area if np.isfinite(area) else None, colors=colors,
                title=f"{kind} per label — {model}")
    if missing:
        st.caption(md("No curve for " + ", ".join(f"`{m}`" for m in missing)
                      + ": the label never occurs in the truth."))
    with chart_row():
        for kind, fig in drawn_by_kind.items():
            chart(fig, f"{kind} per label", key=f"ml_{kind}", in_row=True)
    return list(drawn_by_kind.values())


def label_sets_section(assessment: Assessment, models: list[str], decision: Decision) -> list:
    """Labels per sample (every model against the truth) and label co-occurrence (one model against the truth)."""
    st.subheader("Label sets")
    distributions = {"true": cached(label_cardinality, assessment, models[0], decision)["true"]}
    for m in models:
        distributions[m] = cached(label_cardinality, assessment, m, decision)["predicted"]
    figures = []
    fig = charts.cardinality_chart(distributions=distributions, colors=charts.model_colors(assessment.models))
    figures.append(fig)
    chart(fig, "Labels per sample", key="ml_cardinality")
    model = st.selectbox("Co-occurrence of model", models, key="ml_cooccurrence_model",
                         help="Which labels the model predicts together, beside which labels occur together.")
    matrices = cached(label_cooccurrence, assessment, model, decision)
    fig = charts.cooccurrence_chart(true=matrices["true"], predicted=matrices["predicted"],
                                    labels=list(assessment.classes),
                                    title=f"Label co-occurrence, true and predicted — {model}")
    figures.append(fig)
    chart(fig, "Label co-occurrence", key="ml_cooccurrence")
    return figures


def per_label_test_tables(result) -> list:
    """The per-label rows of a per-label McNemar comparison (each pair's labels, raw and adjusted p-values) and a
    forest plot of the per-label accuracy differences; returns the figures."""
    figures = []
    results = ([result.result] if result.result is not None else []) + [p.result for p in result.pairs]
    for r in results:
        details = r.details
        if not isinstance(details, PerLabelMcNemarDetails):
            continue
        model_a, model_b = r.models
        st.markdown(md(f"**McNemar per label — {model_a} vs {model_b}** (p-values adjusted by "
                       f"{CORRECTION_NAMES[details.correction]} across the {len(details.labels):,} labels)"))
        number = st.column_config.NumberColumn
        data_table(details.table(), config={
            "label": st.column_config.TextColumn("label"),
            "accuracy_a": number(f"accuracy, {model_a}", format="%.3f"),
            "accuracy_b": number(f"accuracy, {model_b}", format="%.3f"),
            "n10": number(f"right only by {model_a}", format="%d"),
            "n01": number(f"right only by {model_b}", format="%d"),
            "difference": number("difference", format="%.3f"),
            "low": number("low", format="%.3f"),
            "high": number("high", format="%.3f"),
            "pvalue": number("p-value", format="%.4g"),
            "pvalue_adjusted": number("adjusted p", format="%.4g")})
        fig = charts.difference_chart(
            effects=details.effects(),
            title=f"Accuracy difference per label, {model_a} − {model_b} "
                  f"({percent_level(details.confidence_level)} intervals, each label on its own)")
        figures.append(fig)
        chart(fig, f"Per-label differences {model_a} {model_b}", key=f"ml_diff_{model_a}_{model_b}")
    return figures


def label_thresholds_section(assessment: Assessment, models: list[str]) -> None:
    """Every label's threshold in one table, and one click to set them all by a rule (or back to the common one).

    The thresholds are the shared decision's (:class:`assess.core.decision.Decision` holds one per label), so the
    Metrics, Confusion and Compare pages count the labels they give."""
    scored = [m for m in models if assessment.predictions(m).scores is not None]
    if not scored:
        return
    decision = current_decision()
    labels = [str(label) for label in assessment.classes]
    with st.expander("Every label's threshold", icon=":material/tune:"):
        data_table({"Label": labels, "Threshold": [decision.threshold_for(label) for label in labels]},
                     config={"Threshold": st.column_config.NumberColumn(format="%.3f")})
        c1, c2, c3 = st.columns([2, 2, 2])
        rule = c1.selectbox("Rule", list(LABEL_RULES), format_func=LABEL_RULES.get, key="ml_rule")
        model = c2.selectbox("From the scores of", scored, key="ml_rule_model")

        def set_all() -> None:
            chosen = cached(curves_view.label_thresholds, assessment, model, rule)
            set_decision(Decision.from_scores(current_decision().threshold, chosen))

        def reset() -> None:
            set_decision(Decision.from_scores(current_decision().threshold))

        c3.button("Set every label's threshold", on_click=set_all, key="ml_set_all", type="primary",
                  help="Each label gets the threshold the rule picks from its own scores and truth.")
        c3.button("Back to one threshold for all", on_click=reset, key="ml_reset")
