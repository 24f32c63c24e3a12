"""The charts of a report, by task: each figure with a title, a caption that says what it shows and how to read it,
and whether it is one of the two or three *key* charts of the summary page.

Every figure comes from `assess.present.charts` over results computed by `assess.analyses.operating_points`, `assess.curves` and
`assess.analyses.forecast_rows` — the same functions the Curves, Confusion and Errors pages call — so a report chart is the chart
the app shows for the same settings. Nothing here draws by hand.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from assess.present import charts
from assess.core.data import Task
from assess.core.decision import AUTO, SCORES, Decision, predicted_labels
from assess.core.errors import AssessError
from assess.analyses.operating_points import (binary_matrix, binary_view, fold_curves, multilabel_matrices,
                            one_vs_rest, roc_band, scored_model, top_classes_matrix)
from assess.core.formatting import class_phrase, percent_level
from assess.analyses.forecast_rows import error_by, prediction_frame
from assess.metrics.clustering import cluster_view
from assess.metrics.multiclass import confusion_matrix
from assess.metrics.threshold import DEFAULT_KEYS, metric_vs_threshold
from assess.inputs.assessment import Assessment

#: Above this many classes a confusion matrix pools the rest (as on the Confusion page).
MAX_DRAWN_CLASSES = 30
#: Resamples of the ROC band on the summary page's ROC chart (the Curves page's default).
ROC_BAND_RESAMPLES = 200
#: Above this many rows per model the ROC chart shows the AUC intervals in its legend instead of a bootstrap band
#: (the band costs one O(n) pass per resample: ~65 s for two models of 500,000 rows on a busy 2-core server).
MAX_BAND_ROWS = 100_000
#: Key charts on the summary page: two fit beside each other under the numbers on one A4 or Letter page.
KEY_CHARTS = 2
#: Most classes a confusion matrix shows on the summary page, half the text width: the largest ones, the rest pooled
#: into "other" — at 320 px, four columns of ~55 px hold "1,234" over "72.5%" in the 12 px cell font (five were cramped).
KEY_CLASSES = 3
#: Most labels the summary page's per-label confusion grid shows, in one row across the full text width (655 px):
#: ~100 px a panel holds "multiple_of_3" (78 px at 6 px a character) and "1,234" over "72.5%" in its 2 columns.
#: Beyond it the most frequent labels are shown, every label in the Charts section.
KEY_LABELS = 5


@dataclass(frozen=True)
class ReportFigure:
    """One chart of the report: ``key`` a file-safe id, ``title`` and ``caption`` plain text, ``summary`` True for
    the summary page's key charts, drawn there from ``key_figure`` when given."""

    key: str
    title: str
    caption: str
    figure: object
    summary: bool = False
    key_figure: object | None = None   # on the summary page, when it differs (a large matrix pooled to its top classes)
    key_caption: str = ""              # what the summary page's version leaves out
    wide: bool = False                 # on the summary page across both columns (a grid of several panels)


def report_figures(assessment: Assessment, models: Sequence[str], *, decision: Decision = Decision(),
                   confidence_level: float = 0.95, seed: int = 0, auc_ci: Mapping[str, object] | None = None,
                   progress: Callable[[float], None] | None = None) -> list[ReportFigure]:
    """Every chart of the assessment of ``models``, key charts first within their task's order. ``auc_ci``: each
    model's ROC AUC result (with ``low``/``high``) for the ROC legend."""
    task = assessment.task
    colors = charts.model_colors(assessment.models)  # by position in the file: a model keeps its colour everywhere
    build = {Task.BINARY: _binary, Task.MULTICLASS: _multiclass, Task.MULTILABEL: _multilabel,
             Task.REGRESSION: _numeric, Task.FORECAST: _numeric, Task.CLUSTERING: _clustering}.get(task)
    if build is None:  # clustering and any later task: the report says there are no charts yet
        return []
    return build(assessment, list(models), colors=colors, decision=decision, confidence_level=confidence_level,
                 seed=seed, auc_ci=auc_ci, progress=progress or (lambda f: None))


def _binary(assessment, models, *, colors, decision, confidence_level, seed, auc_ci,
            progress) -> list[ReportFigure]:
    figures: list[ReportFigure] = []
    preds = {m: assessment.predictions(m) for m in models}
    positive = class_phrase(assessment.positive, role="positive")   # in captions: "positive (1) cases"
    threshold = decision.threshold
    scored = {m: scored_model(p) for m, p in preds.items() if p.scores is not None}
    if scored:
        progress(0.1)
        banded = all(len(preds[m].y_true) <= MAX_BAND_ROWS for m in scored)
        bands = {}
        for m in scored if banded else ():  # ISO 4213 6.3.6 ROC curve with a pointwise bootstrap band (stratified)
            b = roc_band(preds[m], n_resamples=ROC_BAND_RESAMPLES, confidence_level=confidence_level, seed=seed)
            bands[m] = charts.CurveBand(b.fpr, b.low, b.high, label=f"{percent_level(confidence_level)} bootstrap band")
        progress(0.5)
        counts = {m: s.counts for m, s in scored.items()}
        marked = threshold if all(from_scores(decision, preds[m]) for m in scored) else None
        band_text = (f"the shaded band is each curve's pointwise {percent_level(confidence_level)} bootstrap band "
                     f"({ROC_BAND_RESAMPLES} resamples, seed {seed}); " if banded else
                     f"(no bootstrap band above {MAX_BAND_ROWS:,} rows per model); ")
        figures.append(ReportFigure(
            "roc", "ROC curve", f"True-positive rate (share of {positive} cases found) against false-positive rate "
            f"(share of other cases flagged) at every threshold; {band_text}the legend gives the area under the "
            "curve (AUC) with its interval. The diagonal is guessing; higher and further left is better"
            + (f"; the dot marks the threshold {threshold:g}." if marked is not None else "."),
            charts.roc_chart(curves={m: s.roc for m, s in scored.items()}, counts=counts, colors=colors,
                             threshold=marked, bands=bands or None, confidence_level=confidence_level,
                             auc_ci={m: r for m, r in (auc_ci or {}).items() if m in scored
                                     and np.isfinite(r.low)} or None), summary=True,
            # half a page wide on the summary page: no bands, AUCs without intervals (the headline table has them)
            key_figure=charts.roc_chart(curves={m: s.roc for m, s in scored.items()}, counts=counts, colors=colors,
                                        threshold=marked),
            key_caption="The bands and the AUCs' intervals are in the Charts section." if bands or auc_ci else ""))
    for m, p in preds.items():
        if m in scored and from_scores(decision, p):
            matrix, rule = binary_matrix(scored[m].counts, threshold), f"at threshold {threshold:g}"
        else:
            try:
                codes = predicted_labels(Task.BINARY, p.y_pred, p.scores, decision, model=m)
            except AssessError:
                continue
            matrix, rule = confusion_matrix(p.y_true, codes, 2, p.weight), "the file's predicted labels"
        figures.append(ReportFigure(
            f"confusion_{len(figures)}", f"Confusion matrix — {m}",
            f"Rows are the true class, columns the predicted class ({rule}); each cell gives the count and the "
            "share of its true class, so the diagonal holds each class's recall.",
            charts.confusion_matrix_chart(matrix=matrix, classes=list(p.classes), normalize="true", title=m,
                                          subtitle=rule)))
    progress(0.6)
    if not scored:
        return figures
    counts = {m: s.counts for m, s in scored.items()}
    figures.append(ReportFigure(
        "gain", "Cumulative gain", f"Share of all {positive} cases found (y) when flagging the given share of rows "
        "with the highest scores (x). The diagonal is random targeting, the dotted line a perfect model.",
        charts.gain_chart(curves={m: s.gain for m, s in scored.items()}, counts=counts, colors=colors)))
    figures.append(ReportFigure(
        "pr", "Precision–recall curve", "Precision (share of flagged cases that are truly "
        f"{positive}) against recall (share of {positive} cases found) at every threshold; the flat line is the "
        "prevalence (a model without skill), the dotted curves have equal F1.",
        charts.pr_chart(curves={m: s.pr for m, s in scored.items()}, counts=counts, colors=colors)))
    figures.append(ReportFigure(
        "lift", "Lift", "How many times more " f"{positive} cases the top-scored share of rows holds than a random "
        "share of the same size (1 = random).",
        charts.lift_chart(curves={m: s.lift for m, s in scored.items()}, counts=counts, colors=colors)))
    calibrated = {m: s.calibration for m, s in scored.items() if s.calibration is not None}
    if calibrated:
        figures.append(ReportFigure(
            "calibration", "Calibration", "Observed share of " f"{positive} cases against the mean predicted "
            "probability, in bins of the score; on the diagonal the probabilities can be taken at face value.",
            charts.calibration_chart(curves=calibrated, colors=colors)))
    figures.append(ReportFigure(
        "ks", "Kolmogorov–Smirnov", "Share of each class scoring at or above every threshold; the largest vertical "
        "gap between a model's two lines is its KS statistic (how far apart the classes score).",
        charts.ks_chart(curves={m: s.ks for m, s in scored.items()}, colors=colors)))
    progress(0.75)
    for m, s in scored.items():
        figures.append(ReportFigure(
            f"distribution_{m}", f"Score distribution — {m}", "How the scores of each true class are spread; the "
            "less the two overlap, the better the model separates them.",
            charts.score_distribution_chart(scores_by_class=s.scores_by_class, title=f"Score distribution — {m}",
                                            colors={s.positive: colors[m], s.negative: "#999999"})))
        with warnings.catch_warnings():  # NaN where a metric is undefined at a threshold: a gap in its line
            warnings.simplefilter("ignore")
            by_threshold = metric_vs_threshold(s.counts, list(DEFAULT_KEYS))
        figures.append(ReportFigure(
            f"threshold_{m}", f"Metrics by threshold — {m}", "Each metric as the threshold moves: where the lines "
            "cross, one metric is traded for another.",
            charts.metric_threshold_chart(metrics=by_threshold, title=f"Metrics by threshold — {m}")))
        if preds[m].fold is not None:
            folds = fold_curves(binary_view(preds[m]), "roc")
            if len(folds) >= 2:
                figures.append(ReportFigure(
                    f"folds_{m}", f"ROC per cross-validation fold — {m}", "One ROC curve per fold: their spread "
                    "shows how much the model's ranking varies from one test fold to another.",
                    charts.fold_curves_chart(folds=folds, name=m, color=colors[m])))
    progress(1.0)
    return _key_first(_mark_key(figures, ("roc", "confusion_", "gain")))


def from_scores(decision: Decision, pred) -> bool:
    """Whether ``decision`` takes ``pred``'s labels from its scores (``auto``: when the file has no labels)."""
    return decision.source == SCORES or (decision.source == AUTO and pred.y_pred is None)


def _mark_key(figures: list[ReportFigure], order: tuple[str, ...], limit: int = KEY_CHARTS) -> list[ReportFigure]:
    """Mark as key charts the first ``limit`` figures whose key starts with one of ``order``, in that order of
    preference (binary: the ROC curve, the confusion matrices at the decision, then the gain chart)."""
    chosen = [f.key for prefix in order for f in figures if f.key.startswith(prefix)][:limit]
    return [replace(f, summary=f.key in chosen) for f in figures]


def _multiclass(assessment, models, *, colors, decision, confidence_level, seed, auc_ci,
                progress) -> list[ReportFigure]:
    figures: list[ReportFigure] = []
    for i, m in enumerate(models):
        p = assessment.predictions(m)
        try:
            codes = predicted_labels(Task.MULTICLASS, p.y_pred, p.scores, decision, model=m)
        except AssessError:
            continue
        matrix = confusion_matrix(p.y_true, codes, len(p.classes), p.weight)
        drawn, names, pooled = top_classes_matrix(matrix, list(p.classes), MAX_DRAWN_CLASSES)
        small, small_names, small_pooled = top_classes_matrix(matrix, list(p.classes), KEY_CLASSES)
        # "other (7)": under a 55 px column "7 other classes" was left out by plotly.js as too wide
        key_figure = charts.confusion_matrix_chart(matrix=small, classes=small_names[:-1] + [f"other ({small_pooled})"],
                                                   normalize="true", title=m, colorbar=False) if small_pooled else None
        figures.append(ReportFigure(
            f"confusion_{i}", f"Confusion matrix — {m}",
            "Rows are the true class, columns the predicted class; each cell gives the count and the share of its "
            "true class, so the diagonal holds each class's recall"
            + (f"; the {pooled:,} smallest classes are pooled into the last row and column." if pooled else "."),
            charts.confusion_matrix_chart(matrix=drawn, classes=names, normalize="true", title=m),
            summary=i < 2, key_figure=key_figure,
            key_caption=f"The {KEY_CLASSES} largest classes; the other {small_pooled:,} pooled (every class in the "
                        "Charts section)." if small_pooled else ""))
        if p.scores is not None:
            ovr = one_vs_rest(p)
            class_colors = charts.model_colors(p.classes)
            for kind, curves_, micro, area in (("ROC", ovr.roc, ovr.micro_roc, ovr.macro_roc_auc),
                                               ("Precision–recall", ovr.pr, ovr.micro_pr,
                                                ovr.macro_average_precision)):
                figures.append(ReportFigure(
                    f"ovr_{kind[:3].lower()}_{i}", f"{kind}, one class against the rest — {m}",
                    f"One {'ROC' if kind == 'ROC' else kind.lower()} curve per class, that class against all others, with the micro-average (every "
                    "decision pooled) and the macro-average area (the mean over classes).",
                    charts.ovr_chart(per_class=curves_, micro=micro, macro_area=area, colors=class_colors,
                                     title=f"{kind}, one class against the rest — {m}"),
                    summary=kind == "ROC" and i == 0 and len(models) == 1))
        progress((i + 1) / len(models))
    return _key_first(figures)


def _multilabel(assessment, models, *, colors, decision, confidence_level, seed, auc_ci,
                progress) -> list[ReportFigure]:
    figures: list[ReportFigure] = []
    for i, m in enumerate(models):
        p = assessment.predictions(m)
        try:
            matrices = multilabel_matrices(p, decision)
        except AssessError:
            continue
        labels = list(p.classes)
        # a grid of 2×2 panels: more than two at half the text width left ~50 px a panel, where the labels' titles
        # ran into each other and the counts out of their cells — so the summary page draws the grid full width, in
        # one row of the `KEY_LABELS` most frequent labels (true presences, FN + TP), and holds that one chart
        wide = len(labels) > 2
        shown = sorted(np.argsort(-np.asarray(matrices)[:, 1, :].sum(axis=1), kind="stable")[:KEY_LABELS])
        figures.append(ReportFigure(
            f"labels_{i}", f"Confusion per label — {m}", "One 2×2 matrix per label: rows the truth (label absent, "
            "present), columns the prediction; the share is of the true row, so the diagonal holds the recall of "
            "absence and presence.",
            charts.multilabel_confusion_chart(matrices=matrices, labels=labels, normalize="true",
                                              title=f"Confusion per label — {m}"),
            summary=i == 0 if wide else i < 2, wide=wide,
            key_figure=charts.multilabel_confusion_chart(
                matrices=np.asarray(matrices)[shown], labels=[labels[j] for j in shown], normalize="true",
                title=f"Confusion per label — {m}", columns=len(shown)) if wide else None,
            key_caption=f"The {KEY_LABELS} most frequent labels (every label in the Charts section)."
                        if len(labels) > KEY_LABELS else ""))
        progress((i + 1) / len(models))
    return figures


def _numeric(assessment, models, *, colors, decision, confidence_level, seed, auc_ci,
             progress) -> list[ReportFigure]:
    figures: list[ReportFigure] = []
    frames = {m: prediction_frame(assessment, m) for m in models}
    pairs = {m: (f["y_true"].to_numpy(), f["y_pred"].to_numpy()) for m, f in frames.items() if len(f)}
    if not pairs:
        return figures
    progress(0.3)
    if assessment.task is Task.FORECAST:
        by_horizon = {m: error_by(f, "horizon", "MAE") for m, f in frames.items() if len(f)}
        figures.append(ReportFigure(
            "mae_by_horizon", "Mean absolute error by horizon", "The mean absolute error of each model's forecasts "
            "made the given number of steps ahead, over every series and origin; errors usually grow with the "
            "horizon.",
            charts.metric_by_horizon_chart(values={m: (v.index.to_numpy(), v.to_numpy())
                                                   for m, v in by_horizon.items()},
                                           metric="MAE", colors=colors, title="MAE by horizon, all series"),
            summary=True))
    for key, title, caption, build in (
            ("predicted_actual", "Predicted against actual", "Each point is one prediction; on the diagonal the "
             "prediction equals the actual value. Above 20,000 points a model is drawn as a density.",
             charts.predicted_actual_chart),
            ("residuals", "Errors against the prediction", "Error (predicted − actual) against the prediction, "
             "with a median trend: a trend away from zero shows where a model is biased.", charts.residual_chart),
            ("error_distribution", "Distribution of the errors", "Histogram of the errors (predicted − actual) "
             "with a normal reference: above zero the model over-predicts.", charts.error_distribution_chart),
            ("error_by_decile", "Error by decile of the actual value", "The mean error in each tenth of the actual "
             "values: a slope shows a model that shrinks towards the mean.", charts.error_by_decile_chart)):
        figures.append(ReportFigure(key, title, caption, build(models=pairs, colors=colors),
                                    summary=key in ("predicted_actual", "error_distribution")
                                    and sum(f.summary for f in figures) < 3))
    progress(1.0)
    return _key_first(figures)


def _clustering(assessment, models, *, colors, decision, confidence_level, seed, auc_ci,
                progress) -> list[ReportFigure]:
    """The Clusters page's charts of each clustering (contingency heatmap, silhouette plot) and their sizes."""
    figures: list[ReportFigure] = []
    views = {}
    for i, m in enumerate(models):
        view = views[m] = cluster_view(assessment.predictions(m))
        if view.table is not None:
            figures.append(ReportFigure(
                f"contingency_{i}", f"Reference classes × clusters — {m}", "Each cell: rows of that class in that "
                "cluster, coloured by their share of the cluster; classes face the cluster matched with them, so a "
                "pure cluster is one dark cell in its column.",
                charts.contingency_chart(table=view.table, classes=view.classes, clusters=view.clusters,
                                         title=f"Reference classes × clusters, {m}"), summary=i < 2))
        if view.silhouettes is not None:
            figures.append(ReportFigure(
                f"silhouette_{i}", f"Silhouette plot — {m}", "Each bar is one row: how much closer it is to its own "
                "cluster than to the nearest other (1 compact and separated, 0 on a border, below 0 closer to "
                "another cluster); the dashed line is the mean.",
                charts.silhouette_chart(silhouettes=view.silhouettes, labels=view.silhouette_labels,
                                        mean=view.silhouette_mean, title=f"Silhouette plot, {m}",
                                        subtitle=view.silhouette_note), summary=view.table is None and i < 2))
        progress((i + 1) / len(models))
    sizes = {m: dict(zip(v.all_clusters, v.sizes)) for m, v in views.items()}
    figures.append(ReportFigure("cluster_sizes", "Cluster sizes", "Rows in each cluster of each clustering.",
                                charts.cluster_sizes_chart(sizes=sizes, colors=colors)))
    return figures


def _key_first(figures: list[ReportFigure]) -> list[ReportFigure]:
    """At most `KEY_CHARTS` key charts, first (stable), so the summary page and the Charts section open with them."""
    keys = [f.key for f in figures if f.summary][:KEY_CHARTS]
    figures = [replace(f, summary=f.key in keys) for f in figures]
    return [f for f in figures if f.summary] + [f for f in figures if not f.summary]


def with_key_model(figures: list[ReportFigure], model: str) -> list[ReportFigure]:
    """The recommended ``model``'s confusion matrix as the key one (instead of the first model's)."""
    mine = next((f for f in figures if f.key.startswith("confusion_") and f.title.endswith(f"— {model}")), None)
    if mine is None or mine.summary:
        return figures
    swapped = [replace(f, summary=(f is mine) or (f.summary and not f.key.startswith("confusion_"))) for f in figures]
    return _key_first(swapped)
