"""What the Curves page computes and names, Streamlit-free: one model's curves for one label (binary, or one label of
a multi-label file), their ROC AUC interval and bootstrap band, the per-fold curves, the explorer's and decile table's
headers, and the decile table itself.

Every function of an assessment takes only hashable settings, so the page can share it through ``ui.state.cached``
(the key is the function and its arguments).
"""

from __future__ import annotations

import pandas as pd

from assess.analyses.label_curves import per_label_curves, per_label_thresholds
from assess.analyses.operating_points import binary_view, fold_curves, gain_table, one_vs_rest, roc_band, scored_model
from assess.core.data import Task
from assess.core.formatting import count
from assess.inputs.assessment import Assessment
from assess.metrics import evaluate, metrics_for
from assess.metrics.threshold import threshold_metric_keys

#: The per-fold chart's curve kinds, by their key.
FOLD_KINDS = {"roc": "ROC", "pr": "Precision–recall", "gain": "Gain", "lift": "Lift"}
# Counts whole (positives in a bin cut through tied scores are an expectation: shown rounded), shares as percentages.
DECILE_HEADERS = {"model": "Model", "bin": "Bin", "top_share": "Top share of rows", "rows": "Rows",
                  "positives": "Positives", "response_rate": "Response rate", "lift": "Lift",
                  "cumulative_positives": "Cumulative positives", "cumulative_gain": "Cumulative gain",
                  "cumulative_lift": "Cumulative lift"}
DECILE_FORMATS = {"top_share": "{:.0%}", "rows": count, "positives": "{:,.0f}", "response_rate": "{:.1%}",
                  "lift": "{:.2f}", "cumulative_positives": "{:,.0f}", "cumulative_gain": "{:.1%}",
                  "cumulative_lift": "{:.2f}"}


def label_view(assessment: Assessment, model: str, label: str = ""):
    """``model``'s predictions as a binary problem: the file's own, or ``label`` against the rest (multi-label)."""
    return binary_view(assessment.predictions(model), label or None)


def one_vs_rest_curves(assessment: Assessment, model: str):
    """A multi-class model's one-vs-rest ROC and PR curves (`one_vs_rest`)."""
    return one_vs_rest(assessment.predictions(model))


def scored(assessment: Assessment, model: str, label: str = ""):
    """Every curve of one model and label from one sort of its scores (`scored_model`)."""
    return scored_model(label_view(assessment, model, label))


def auc_interval(assessment: Assessment, model: str, label: str = ""):
    """The ROC AUC with its DeLong interval, for the ROC chart's legend (weighted data: the bootstrap)."""
    return evaluate(label_view(assessment, model, label), ["roc_auc"], ci="delong", baselines=False)["roc_auc"]


def band(assessment: Assessment, model: str, label: str = ""):
    """The ROC curve's 95 % bootstrap band (200 resamples, seed 0)."""
    return roc_band(label_view(assessment, model, label))


def folds(assessment: Assessment, model: str, label: str, kind: str):
    """One curve per cross-validation fold (`fold_curves`)."""
    return fold_curves(label_view(assessment, model, label), kind)


def label_curves(assessment: Assessment, model: str):
    """A multi-label model's ROC and PR curves of every label, their micro-averages and macro areas."""
    return per_label_curves(assessment.predictions(model))


def label_thresholds(assessment: Assessment, model: str, rule: str) -> dict:
    """Each label's threshold by ``rule`` from ``model``'s scores (`per_label_thresholds`)."""
    return per_label_thresholds(assessment.predictions(model), rule)


def explorer_headers() -> dict:
    """The threshold explorer's column headers: the binary registry's names, the cells and the flagged share."""
    return {spec.key: spec.name for spec in metrics_for(Task.BINARY)} | {
        "tp": "TP", "fp": "FP", "tn": "TN", "fn": "FN", "predicted_positive_fraction": "Flagged share",
        "model": "Model"}


def threshold_rates() -> dict:
    """The binary rates that can be drawn against the threshold: key → name (counts left out)."""
    return {m.key: m.name for m in metrics_for(Task.BINARY) if m.key in threshold_metric_keys() and m.kind != "count"}


def decile_table(scored_models: dict, bins: int) -> pd.DataFrame:
    """Gain and lift by bin of every model, one table (`gain_table`)."""
    tables = []
    for m, sm in scored_models.items():
        t = gain_table(sm.counts, bins=bins)
        t.insert(0, "model", m)
        tables.append(t)
    return pd.concat(tables, ignore_index=True)
