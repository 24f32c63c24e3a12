"""What the Curves page computes and names, Streamlit-free: the models' curves for one label — binary, one label of a
multi-label file, or one class against the rest (or the micro-average) of a multi-class file — their ROC AUC interval,
bootstrap bands and calibration intervals, the multi-class macro-average overlay, the per-fold curves, the explorer's
and decile table's headers, and the decile table itself.

Every function of an assessment takes only hashable settings, so the page can share it through ``ui.state.cached``
(the key is the function and its arguments).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from assess.analyses.label_curves import per_label_curves, per_label_thresholds
from assess.analyses.operating_points import (MICRO_AVERAGE, binary_matrix, binary_view, fold_curves, gain_table,
                                              one_vs_rest, score_bands, scored_model)
from assess.core.data import Task
from assess.core.formatting import count, percent, percent_level, proportion
from assess.curves import calibration_band
from assess.inputs.assessment import Assessment
from assess.metrics import evaluate, metrics_for
from assess.metrics.threshold import metric_vs_threshold, metrics_at, threshold_metric_keys
from assess.present import charts

#: The curves of a scored model the explorer draws.
CURVE_KINDS = ("roc", "pr", "gain", "lift")
#: A multi-class file's averages, offered beside its classes: the micro-average is one binary view of the n·k
#: (row, class) pairs; the macro-average the mean of the classes' curves (ROC and PR only).
MACRO_AVERAGE = "macro-average"
AVERAGES = (MICRO_AVERAGE, MACRO_AVERAGE)
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
    """``model``'s predictions as a binary problem: the file's own, ``label`` against the rest (multi-label, or a class
    of a multi-class file), or the multi-class micro-average (`MICRO_AVERAGE`)."""
    return binary_view(assessment.predictions(model), label or None)


def one_vs_rest_curves(assessment: Assessment, model: str):
    """A multi-class model's one-vs-rest ROC and PR curves (`one_vs_rest`)."""
    return one_vs_rest(assessment.predictions(model))


def scored(assessment: Assessment, model: str, label: str = ""):
    """Every curve of one model and label from one sort of its scores (`scored_model`)."""
    return scored_model(label_view(assessment, model, label))


def has_bands(label: str) -> bool:
    """Whether a view's rows are independent samples, so a bootstrap of them is one of the data: not the micro-average,
    whose k rows per sample move together."""
    return label != MICRO_AVERAGE


def bands(assessment: Assessment, model: str, label: str = ""):
    """The ROC, PR, gain and lift curves' 95 % bootstrap bands (200 resamples of the score × class cells, seed 0)."""
    return score_bands(label_view(assessment, model, label))


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
    return Curves(scored_models, {m: _auc(v) for m, v in views.items()} if has_bands(label) else {}, drawn,
                  float(min(np.nanmin(v.scores) for v in views.values())),
                  float(max(np.nanmax(v.scores) for v in views.values())), first.positive, first.negative)


def subject(assessment: Assessment, label: str) -> str:
    """What a multi-class view's charts show, for their titles ("" otherwise: the file's own binary problem or one
    label, which the page names)."""
    if assessment.task is not Task.MULTICLASS:
        return ""
    return "micro-average of the classes" if label == MICRO_AVERAGE else f"class {label} against the rest"


def _titled(title: str, about: str) -> str:
    return f"{title} — {about}" if about else title


def curve_charts(c: Curves, colors: dict, threshold: float | None, *, bands=None, hull: bool = False,
                 about: str = "") -> dict:
    """The ROC (with its AUC intervals, optional convex ``hull``), precision–recall, gain and lift charts, each with
    the models' bootstrap ``bands`` ({model: CurveBands}, optional) and operating point at ``threshold`` (None: a
    multi-class view, which has no threshold); ``about`` (`subject`) ends each title."""
    counts = {m: sm.counts for m, sm in c.scored.items()}
    of = {kind: {m: getattr(sm, kind) for m, sm in c.scored.items()} for kind in CURVE_KINDS}
    shaded = {kind: None if not bands else {
        m: charts.CurveBand(getattr(b, kind).x, getattr(b, kind).low, getattr(b, kind).high,
                            label=f"{percent_level(b.confidence_level)} bootstrap band") for m, b in bands.items()}
        for kind in CURVE_KINDS}
    common = dict(counts=counts, colors=colors, threshold=threshold)
    return {"ROC": charts.roc_chart(curves=of["roc"], auc_ci=c.auc_ci, drawn=c.drawn["roc"], bands=shaded["roc"],
                                    hull=hull, title=_titled("ROC curve", about), **common),
            "Precision–recall": charts.pr_chart(curves=of["pr"], drawn=c.drawn["pr"], bands=shaded["pr"],
                                                title=_titled("Precision–recall curve", about), **common),
            "Cumulative gain": charts.gain_chart(curves=of["gain"], drawn=c.drawn["gain"], bands=shaded["gain"],
                                                 title=_titled("Cumulative gain", about), **common),
            "Lift": charts.lift_chart(curves=of["lift"], drawn=c.drawn["lift"], bands=shaded["lift"],
                                      title=_titled("Lift", about), **common)}


#: The macro-average overlay's charts: kind → title.
MACRO_KINDS = {"roc": "ROC curve, macro-average of the classes",
               "pr": "Precision–recall, macro-average of the classes"}


def macro_chart(assessment: Assessment, models: tuple[str, ...], kind: str):
    """The multi-class models' macro-average ROC (``kind`` "roc") or PR ("pr") curves overlaid — the mean of each
    model's one-vs-rest curves on a common grid — each legend with the model's macro area."""
    ovr = {m: one_vs_rest(assessment.predictions(m)) for m in models}
    areas = {m: o.macro_roc_auc if kind == "roc" else o.macro_average_precision for m, o in ovr.items()}
    return charts.macro_overlay_chart(per_model={m: getattr(o, kind) for m, o in ovr.items()}, areas=areas,
                                      colors=charts.model_colors(assessment.models), title=MACRO_KINDS[kind])


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
    """The reliability curves of the models that have one (None when none has), each bin with its 95 % Wilson
    interval where the rows are independent (`has_bands`)."""
    calibrated = {m: sm for m in models if (sm := scored(assessment, m, label)).calibration is not None}
    if not calibrated:
        return None
    wilson = None
    if has_bands(label):
        wilson = {}
        for m, sm in calibrated.items():
            view = label_view(assessment, m, label)
            b = calibration_band(view.y_true, view.scores, sm.calibration.bin_edges, view.weight)
            wilson[m] = charts.CurveBand(b.x, b.low, b.high, label="95% Wilson interval")
    return charts.calibration_chart(curves={m: sm.calibration for m, sm in calibrated.items()}, bands=wilson,
                                    colors=charts.model_colors(assessment.models),
                                    title=_titled("Calibration (reliability)", subject(assessment, label)))


def ks_chart(assessment: Assessment, models: tuple[str, ...], label: str):
    """The Kolmogorov–Smirnov curves of the models."""
    return charts.ks_chart(curves={m: scored(assessment, m, label).ks for m in models},
                           colors=charts.model_colors(assessment.models),
                           title=_titled("Kolmogorov–Smirnov", about) if (about := subject(assessment, label))
                           else "Kolmogorov–Smirnov: how far apart the classes score")


def _auc(view):
    """The ROC AUC with its DeLong interval, for the ROC chart's legend (weighted data: the bootstrap)."""
    return evaluate(view, ["roc_auc"], ci="delong", baselines=False)["roc_auc"]
