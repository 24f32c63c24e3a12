"""What the Curves page computes and names, Streamlit-free: one model's curves for one label (binary, or one label of
a multi-label file), their ROC AUC interval and bootstrap band, the per-fold curves, the explorer's and decile table's
headers, and the decile table itself.

Every function of an assessment takes only hashable settings, so the page can share it through ``ui.state.cached``
(the key is the function and its arguments).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from assess.analyses.label_curves import per_label_curves, per_label_thresholds
from assess.analyses.operating_points import (binary_matrix, binary_view, fold_curves, gain_table, one_vs_rest,
                                              roc_band, scored_model)
from assess.core.data import Task
from assess.core.formatting import count, percent, proportion
from assess.inputs.assessment import Assessment
from assess.metrics import evaluate, metrics_for
from assess.metrics.threshold import metric_vs_threshold, metrics_at, threshold_metric_keys
from assess.present import charts

#: The curves of a scored model the explorer draws.
CURVE_KINDS = ("roc", "pr", "gain", "lift")
#: The per-fold chart's curve kinds, by their key.
FOLD_KINDS = {"roc": "ROC", "pr": "Precision–recall", "gain": "Gain", "lift": "Lift"}
# Counts whole (positives in a bin cut through tied scores are an expectation: shown rounded), shares as percentages.
DECILE_HEADERS = {"model": "Model", "bin": "Bin", "top_share": "Top share of rows", "rows": "Rows",
                  "positives": "Positives", "response_rate": "Response rate", "lift": "Lift",
                  "cumulative_positives": "Cumulative positives", "cumulative_gain": "Cumulative gain",
                  "cumulative_lift": "Cumulative lift"}


def _expected_count(value) -> str:
    """Positives in a bin cut through tied scores are an expectation: shown rounded, as a count."""
    return count(round(value))


DECILE_FORMATS = {"top_share": lambda share: percent(share, 0), "rows": count, "positives": _expected_count,
                  "response_rate": percent, "lift": "{:.2f}", "cumulative_positives": _expected_count,
                  "cumulative_gain": percent, "cumulative_lift": "{:.2f}"}


def label_view(assessment: Assessment, model: str, label: str = ""):
    """``model``'s predictions as a binary problem: the file's own, or ``label`` against the rest (multi-label)."""
    return binary_view(assessment.predictions(model), label or None)


def one_vs_rest_curves(assessment: Assessment, model: str):
    """A multi-class model's one-vs-rest ROC and PR curves (`one_vs_rest`)."""
    return one_vs_rest(assessment.predictions(model))


def scored(assessment: Assessment, model: str, label: str = ""):
    """Every curve of one model and label from one sort of its scores (`scored_model`)."""
    return scored_model(label_view(assessment, model, label))


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


def explorer_table(c: Curves, threshold: float) -> tuple[pd.DataFrame, dict]:
    """Every model's cells and metrics at ``threshold`` (one row per model) and their formats: counts whole, rates
    with three decimals."""
    table = pd.DataFrame({m: metrics_at(sm.counts, threshold) for m, sm in c.scored.items()}).T
    formats = {col: count if col in ("tp", "fp", "tn", "fn") else proportion for col in table.columns}
    return table.rename_axis("model").reset_index(), formats


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


@dataclass(frozen=True)
class Curves:
    """Every scored model's curves for one label, from one sort each: the page's explorer reads its counts at any
    threshold (a binary search, no new sort) and draws its curves thinned once (``drawn``: indices per curve kind)."""

    scored: dict            # {model: ScoredModel}
    auc_ci: dict            # {model: MetricResult}: ROC AUC with its DeLong interval, for the ROC legend
    drawn: dict             # {kind: {model: indices}}
    low: float              # the lowest and highest score: the threshold control's range
    high: float
    positive: str
    negative: str


def curves(assessment: Assessment, models: tuple[str, ...], label: str = "") -> Curves:
    """:class:`Curves` of ``models`` (each with scores) for ``label`` ("" for a binary file)."""
    views = {m: label_view(assessment, m, label) for m in models}
    scored_models = {m: scored_model(v) for m, v in views.items()}
    budget = charts.points_per_curve(len(scored_models))
    drawn = {kind: {m: charts.drawn_indices(getattr(sm, kind).x, getattr(sm, kind).y, max_points=budget)
                    for m, sm in scored_models.items()} for kind in CURVE_KINDS}
    first = next(iter(scored_models.values()))
    return Curves(scored_models, {m: _auc(v) for m, v in views.items()}, drawn,
                  float(min(np.nanmin(v.scores) for v in views.values())),
                  float(max(np.nanmax(v.scores) for v in views.values())), first.positive, first.negative)


def curve_charts(c: Curves, colors: dict, threshold: float, *, bands=None, hull: bool = False) -> dict:
    """The ROC (with its AUC intervals, optional bootstrap ``bands`` and convex ``hull``), precision–recall, gain and
    lift charts with each model's operating point at ``threshold``."""
    counts = {m: sm.counts for m, sm in c.scored.items()}
    of = {kind: {m: getattr(sm, kind) for m, sm in c.scored.items()} for kind in CURVE_KINDS}
    common = dict(counts=counts, colors=colors, threshold=threshold)
    return {"ROC": charts.roc_chart(curves=of["roc"], auc_ci=c.auc_ci, drawn=c.drawn["roc"], bands=bands, hull=hull,
                                    **common),
            "Precision–recall": charts.pr_chart(curves=of["pr"], drawn=c.drawn["pr"], **common),
            "Cumulative gain": charts.gain_chart(curves=of["gain"], drawn=c.drawn["gain"], **common),
            "Lift": charts.lift_chart(curves=of["lift"], drawn=c.drawn["lift"], **common)}


def matrix_chart(c: Curves, model: str, threshold: float):
    """``model``'s confusion matrix at ``threshold``, normalised by true class, titled with the model."""
    fig = charts.confusion_matrix_chart(matrix=binary_matrix(c.scored[model].counts, threshold),
                                        classes=[c.negative, c.positive], normalize="true", title=model,
                                        subtitle=f"at threshold {threshold:.3f}", colorbar=False)
    return fig.update_layout(height=380, margin=dict(l=60, r=10))


def metric_chart(assessment: Assessment, model: str, label: str, keys: tuple[str, ...], beta: float):
    """``keys`` of ``model`` against the threshold (NaN where a metric is undefined at a threshold: a gap)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        metrics = metric_vs_threshold(scored(assessment, model, label).counts, list(keys), beta=beta)
    return charts.metric_threshold_chart(metrics=metrics, title=f"Metrics by threshold — {model}")


def distribution_chart(assessment: Assessment, model: str, label: str):
    """``model``'s score distribution by class, the positive class in the model's colour."""
    sm = scored(assessment, model, label)
    color = charts.model_colors(assessment.models)[model]
    return charts.score_distribution_chart(scores_by_class=sm.scores_by_class,
                                           title=f"Score distribution by class — {model}",
                                           colors={sm.positive: color, sm.negative: "#999999"})


def calibration_chart(assessment: Assessment, models: tuple[str, ...], label: str):
    """The reliability curves of the models that have one (None when none has)."""
    calibrated = {m: sm.calibration for m in models if (sm := scored(assessment, m, label)).calibration is not None}
    return charts.calibration_chart(curves=calibrated, colors=charts.model_colors(assessment.models)) \
        if calibrated else None


def ks_chart(assessment: Assessment, models: tuple[str, ...], label: str):
    """The Kolmogorov–Smirnov curves of the models."""
    return charts.ks_chart(curves={m: scored(assessment, m, label).ks for m in models},
                           colors=charts.model_colors(assessment.models))


def _auc(view):
    """The ROC AUC with its DeLong interval, for the ROC chart's legend (weighted data: the bootstrap)."""
    return evaluate(view, ["roc_auc"], ci="delong", baselines=False)["roc_auc"]
