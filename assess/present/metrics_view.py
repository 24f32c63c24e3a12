"""What the Metrics page shows, Streamlit-free: which metrics and intervals a file can ask for, the settings' help, and
the tables, sentences and downloads of the computed reports (:func:`metrics_view`).

The page (views/metrics.py) draws the widgets, computes through ``ui.state.cached`` (the reports:
`assess.metrics.document.compute_metrics`; the spread over folds: `assess.analyses.folds.fold_metrics`; forecasts'
horizons and series: `assess.metrics.document.forecast_breakdowns`) and renders the frozen `MetricsView`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pandas as pd

from assess.core.data import Task
from assess.core.decision import LABELS, SCORES
from assess.inputs.assessment import Assessment
from assess.inputs.columns import quote
from assess.intervals.interval import METHOD_NAMES
from assess.metrics import applicable_to, get, shown_by_default
from assess.metrics.registry import headline_of
from assess.metrics.document import MetricsSettings, assessment_document
from assess.metrics.evaluate import VALUE_TASKS, interval_method
from assess.present.export import to_csv_bytes, to_json_bytes
from assess.present.summary import (FOLD_SPREAD_SUFFIX, best_sentence, comparison_frame, headline_sentences,
                                    long_frame, per_class_frame, with_fold_spread, with_nominal)

#: The Output choice of a multi-output regression that shows the uniform average over the outputs.
ALL_OUTPUTS = "All outputs (average)"
#: Above this many rows per model the bootstrap defaults to 200 resamples (about 20 s for 1,000 at 1e6 rows).
LARGE_ROWS = 100_000
#: Most rows per model in the per-class table shown (the most frequent classes); the CSV download has them all.
PER_CLASS_ROWS = 100
SOURCE_WORDS = {LABELS: "the predicted-label column", SCORES: "the scores"}
BASELINE_CAPTION = {
    "classification": "Baselines (ISO 5.3.13): what always predicting the majority class, predicting classes at "
                      "random with their prevalence (stratified), or uniformly at random would score on the same rows.",
    "forecast": "Baselines: the naive (last value), seasonal naive (value one season earlier) and drift forecasts "
                "made from the file's actual values, scored on the rows where each can be formed; the skill scores "
                "compare the model's MSE with theirs (0 = no better, 1 = perfect).",
    "values": "Baselines (ISO 5.3.13 in spirit): what always predicting the mean, or the median, of the true values "
              "would score on the same rows. R² is the skill against the mean: 0 means no better than it.",
}


@dataclass(frozen=True)
class Intervals:
    """The Confidence-interval choices of a task: label → (``ci`` of `evaluate`, bootstrap method), and their help."""

    choices: dict
    help: str


def interval_choices(task: Task) -> Intervals:
    """The interval methods a task's metrics take, each named by :data:`METHOD_NAMES` (the words every table and
    report uses for the method): classification every method; regression only the bootstrap (every metric is
    resampled); forecasts only the block bootstrap (no BCa variant)."""
    none = {"none": (None, "percentile")}
    boot = {METHOD_NAMES["bootstrap-percentile"]: ("bootstrap", "percentile"),
            METHOD_NAMES["bootstrap-bca"]: ("bootstrap", "bca")}
    if task is Task.FORECAST:
        return Intervals({"auto (block bootstrap)": ("auto", "percentile")} | none,
                         "A seeded block bootstrap within each series, in time order, so autocorrelated errors do "
                         "not shrink the interval.")
    if task in VALUE_TASKS:
        return Intervals({"auto (bootstrap)": ("auto", "percentile")} | none | boot,
                         "A seeded bootstrap of the rows (i.i.d.).")
    return Intervals({"auto (best per metric)": ("auto", "percentile")} | none
                     | {METHOD_NAMES[m]: (m, "percentile") for m in ("wilson", "clopper-pearson", "normal")}
                     | {f"{METHOD_NAMES['delong']} (ROC AUC)": ("delong", "percentile")} | boot,
                     "auto: Wilson for proportions, DeLong for ROC AUCs (multi-class ones too), a seeded bootstrap "
                     "for the rest.")


def resamples_help(large: bool) -> str:
    text = "Percentile intervals; the seed makes them reproducible."
    if large:
        return (f"200 by default above {LARGE_ROWS:,} rows, so the first intervals come in seconds; raise it for the "
                "final report. " + text)
    return text


@dataclass(frozen=True)
class Questions:
    """What a file can ask of the Metrics page: its metrics, the ones chosen first, and the columns it has."""

    specs: tuple
    defaults: frozenset
    has_scores: bool
    has_labels: bool
    has_intervals: bool
    values_task: bool
    large: bool


def questions(assessment: Assessment) -> Questions:
    first = assessment.predictions()
    return Questions(applicable_to(first), frozenset(shown_by_default(assessment.task)), first.scores is not None,
                     first.y_pred is not None, first.lower is not None and first.upper is not None,
                     assessment.task in VALUE_TASKS, first.n > LARGE_ROWS)


def closed_form_keys(assessment: Assessment, settings: MetricsSettings) -> tuple[str, ...]:
    """The chosen metrics whose interval under ``settings.ci`` comes from a formula (Wilson, DeLong, t, delta,
    order statistics), not from resampling: at 1e6 rows they take about as long as the values, while one bootstrapped
    metric (average precision) takes tens of seconds — so a large file's page can show these first. Empty when every
    interval is resampled (forecasts' block bootstrap, ``ci="bootstrap"``) or none is."""
    weighted = bool(assessment.roles.weight)
    keys = settings.keys if settings.keys is not None else tuple(s.key for s in applicable_to(assessment))
    methods = {k: interval_method(get(assessment.task, k), settings.ci, weighted, rows=True) for k in keys}
    if "bootstrap" not in methods.values():
        return ()
    return tuple(k for k, method in methods.items() if method not in (None, "bootstrap"))


def with_intervals(values: dict, intervals: dict) -> dict:
    """{model: MetricReport}: the reports of ``values`` (`compute_metrics` without intervals) with the results of
    ``intervals`` (a computation of some of the keys with intervals) in place of theirs — the rest keep their value
    and no interval yet."""
    out = {}
    for model, report in pooled(values).items():
        done = pooled(intervals).get(model)
        out[model] = report if done is None else replace(
            report, ci=done.ci, results=tuple(done[r.key] if r.key in done else r for r in report.results))
    return out


@dataclass(frozen=True)
class MetricsView:
    """Everything the Metrics page renders of computed reports, for the chosen ``output`` of a multi-output file."""

    reports: dict                        # {model: MetricReport} shown
    output_caption: str | None
    sentences: tuple[str, ...]
    table: pd.DataFrame                  # the models side by side (`comparison_frame`)
    weighted: pd.DataFrame | None        # multi-output, all outputs: the variance-weighted averages
    baseline_caption: str
    per_class: pd.DataFrame | None       # every class (the download)
    per_class_shown: pd.DataFrame | None
    per_class_caption: str | None
    csv: bytes
    json: bytes                          # the metrics.json of `assess metrics` for the same settings
    per_class_csv: bytes | None


def metrics_view(assessment: Assessment, settings: MetricsSettings, computed: dict, *, output: str | None = None,
                 breakdowns=None) -> MetricsView:
    """The page's view of ``computed`` (`compute_metrics`), ``output`` one of a multi-output file's outputs or
    :data:`ALL_OUTPUTS`; ``breakdowns`` (forecasts) complete the JSON download."""
    task, outputs = assessment.task, assessment.outputs
    reports, caption, weighted = computed, None, None
    if outputs:
        reports = {m: r.average if output == ALL_OUTPUTS else r.by_output[output] for m, r in computed.items()}
        caption = (f"Output {quote(output)}: its own `y_true`/`y_pred` pair." if output != ALL_OUTPUTS else
                   f"The uniform average over the {len(outputs)} outputs ({', '.join(map(quote, outputs))}), metric "
                   "by metric; intervals resample the rows of all outputs together.")
        if output == ALL_OUTPUTS and any(r.variance_weighted for r in computed.values()):
            weighted = comparison_frame({m: r.variance_weighted_report for m, r in computed.items()})
    # the level the prediction intervals are meant to have: the column names', else the page's choice
    nominal = assessment.predictions().interval_level or settings.interval_level
    reports = with_nominal(reports, nominal) if task is Task.FORECAST else reports
    per_class = per_class_frame(reports)
    shown, per_class_caption = per_class, None
    if per_class is not None and len(assessment.classes) > PER_CLASS_ROWS:   # the download keeps every class
        shown = per_class.groupby("model", sort=False, group_keys=False).apply(
            lambda rows: rows.nlargest(PER_CLASS_ROWS, "support", keep="first"))
        per_class_caption = (f"The {PER_CLASS_ROWS} classes with the most true rows (support) of "
                             f"{len(assessment.classes):,}, per model; the Per-class CSV below has every class.")
    kind = "forecast" if task is Task.FORECAST else "values" if task in VALUE_TASKS else "classification"
    document = assessment_document(assessment, settings, computed, breakdowns=breakdowns)
    sentences = [best_on_page(assessment, reports)] + headline_sentences(reports, positive=assessment.positive,
                                                                         nominal=nominal)
    return MetricsView(reports, caption, tuple(s for s in sentences if s),
                       comparison_frame(reports), weighted, BASELINE_CAPTION[kind], per_class, shown,
                       per_class_caption, to_csv_bytes(long_frame(reports)), to_json_bytes(document),
                       None if per_class is None else to_csv_bytes(per_class))


def best_on_page(assessment: Assessment, reports: dict) -> str | None:
    """The best model on the metric the report ranks by (the task's headline metric, `headline_of`) — the report's
    own sentence (`assess.present.summary.best_sentence`) — or, when it is not shown, on the first shown metric with
    a direction; None for one model."""
    task = assessment.task
    shown = next(iter(reports.values())).keys if reports else ()
    for key in (headline_of(assessment), *shown):
        spec = get(task, key)
        if key in shown and spec.direction in ("higher", "lower") and spec.kind != "count":
            return best_sentence(reports, key)
    return None


def pooled(computed: dict) -> dict:
    """{model: MetricReport} of `compute_metrics`: a multi-output file's uniform averages."""
    return {m: getattr(r, "average", r) for m, r in computed.items()}


def fold_spread(table: pd.DataFrame, folds, reports: dict) -> pd.DataFrame:
    """The "Across folds" table: each metric's mean ± SD over the folds, the models side by side (counts, which have
    no spread, left out), columns named by model."""
    spread = with_fold_spread(table, folds, reports)
    spread = spread[["metric", "key", *[c for c in spread.columns if c.endswith(FOLD_SPREAD_SUFFIX)]]]
    spread = spread[(spread.drop(columns=["metric", "key"]) != "").any(axis=1)]
    return spread.rename(columns=lambda c: c.removesuffix(FOLD_SPREAD_SUFFIX))
