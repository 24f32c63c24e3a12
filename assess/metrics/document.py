"""The ``metrics.json`` document: one builder for ``python -m assess metrics`` (in memory and out of core) and the
Metrics page's download, so the two can never write different schemas.

SPEC "Command line" is the contract: ``{"task", "n", "models": {model: {key: value-or-null}}}``, each value
``{"value", "low", "high"}`` when an interval was asked for. Beside it: ``"settings"`` (classification: where labels
come from, the threshold, label thresholds, β, k; always the interval method, level and, for a bootstrap, resamples
(the most drawn, with ``"resampling"``: :func:`resampling_rule`), seed and method; forecasts: season and interval level), ``"undefined"`` (model → key → why it is null),
``"notes"`` (model → key → what a value left out or assumed, as the Metrics page says under its table; only when
there is one),
``"positive"`` and ``"classes"`` (classification), ``"per_class"`` (multi-class) or ``"per_label"``
(multi-label): model → class → column → value, the table the Metrics page and the report show,
``"by_horizon"``/``"by_series"`` (forecasts), ``"outputs"``,
``"by_output"``, ``"variance_weighted"``, ``"undefined_by_output"`` (multi-output regression) and ``"n_per_model"``
when the models have different row counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assess.core.data import Task
from assess.core.decision import SCORES, Decision
from assess.inputs.assessment import Assessment
from assess.metrics.reports import compute_breakdowns, compute_output_reports, compute_reports
from assess.core.defaults import DEFAULT_RESAMPLES


@dataclass(frozen=True)
class MetricsSettings:
    """What a metrics computation is asked for; hashable, so a page can key a cache with it. ``models``/``keys``
    None: all of them (all that apply to the file)."""

    models: tuple[str, ...] | None = None
    keys: tuple[str, ...] | None = None
    decision: Decision = Decision()
    beta: float = 1.0
    k: int = 2
    ci: str | None = None
    confidence_level: float = 0.95
    n_resamples: int = DEFAULT_RESAMPLES
    seed: int = 0
    bootstrap_method: str = "percentile"
    season: int | None = None
    interval_level: float | None = None

    @property
    def bootstrap(self) -> bool:
        return self.ci in ("bootstrap", "auto")


def compute_metrics(assessment: Assessment, settings: MetricsSettings, *, progress=None) -> dict:
    """{model: MetricReport}; a multi-output regression file gives {model: OutputsReport} (every output and both
    averages at once), whose ``average`` is what ``"models"`` holds."""
    s = settings
    models, keys = None if s.models is None else list(s.models), None if s.keys is None else list(s.keys)
    common = dict(models=models, keys=keys, ci=s.ci, confidence_level=s.confidence_level, n_resamples=s.n_resamples,
                  seed=s.seed, bootstrap_method=s.bootstrap_method, progress=progress)
    if assessment.outputs:   # decision, β, k, season: not regression settings
        return compute_output_reports(assessment, **common)
    return compute_reports(assessment, decision=s.decision, beta=s.beta, k=s.k, season=s.season,
                           interval_level=s.interval_level, **common)


def forecast_breakdowns(assessment: Assessment, settings: MetricsSettings, models: tuple[str, ...]):
    """The per-horizon and per-series frame of the document's ``"by_horizon"``/``"by_series"`` (forecasts)."""
    s = settings
    return compute_breakdowns(assessment, models=list(models), keys=None if s.keys is None else list(s.keys),
                              ci=s.ci, confidence_level=s.confidence_level, n_resamples=s.n_resamples, seed=s.seed,
                              season=s.season, interval_level=s.interval_level)


def resampling_rule(ci: str | None) -> str | None:
    """How many of ``--resamples`` a bootstrap draws: all of them under ``ci="bootstrap"``; under ``"auto"`` the
    sequential rule of `assess.intervals.bootstrap_ci` stops once the bounds are as precise as shown, so
    ``"resamples"`` is the most drawn — each interval's method says how many it drew."""
    if ci == "auto":
        return "sequential: stops once each bound's Monte-Carlo error is below half its last shown digit"
    return "all" if ci == "bootstrap" else None


def metrics_document(task: Task, settings: MetricsSettings, reports: dict, *, positive=None, classes=(),
                     breakdowns=None, outputs=()) -> dict:
    """The document of ``reports`` ({model: MetricReport}, or {model: OutputsReport} with ``outputs``) computed with
    ``settings``; ``positive``/``classes`` for classification, ``breakdowns`` (:func:`forecast_breakdowns`) for
    forecasts. JSON-ready but for NaN (``assess.cli.common.json_ready`` / ``present.export.to_json_bytes``)."""
    s = settings
    by_model = reports if outputs else None
    if by_model is not None:
        reports = {m: r.average for m, r in by_model.items()}
    with_ci = s.ci is not None
    sizes = {m: r.n for m, r in reports.items()}
    doc = {"task": task.value, "n": max(sizes.values()),
           "models": {m: r.to_dict(with_ci=with_ci) for m, r in reports.items()}}
    intervals = {"ci": s.ci, "confidence_level": s.confidence_level if with_ci else None,
                 "resamples": s.n_resamples if s.bootstrap else None,
                 "resampling": resampling_rule(s.ci) if s.bootstrap else None, "seed": s.seed if s.bootstrap else None,
                 "bootstrap_method": s.bootstrap_method if s.bootstrap else None}
    if task.is_classification:
        # a threshold is a setting only where labels come from the scores
        doc |= {"positive": positive, "classes": list(classes),
                "settings": {"labels_from": s.decision.source,
                             "threshold": s.decision.threshold if s.decision.source == SCORES else None,
                             "label_thresholds": dict(s.decision.per_label) or None, "beta": s.beta, "k": s.k}
                            | intervals}
    else:   # regression, forecast: the decision, β and k do not apply
        doc["settings"] = intervals
    if task is Task.FORECAST:
        doc["settings"] |= {"season": s.season, "interval_level": s.interval_level}
        if breakdowns is not None:
            doc |= breakdown_section(breakdowns, with_ci=with_ci)
    doc["undefined"] = {m: r.reasons for m, r in reports.items() if r.reasons}
    doc |= table_section(reports)
    notes = {m: r.notes for m, r in reports.items() if r.notes}
    if notes:   # what a defined value left out or assumed (a macro average without its undefined labels, …)
        doc["notes"] = notes
    if by_model is not None:
        doc["outputs"] = list(outputs)
        doc["by_output"] = {m: {name: report.to_dict(with_ci=with_ci) for name, report in r.by_output.items()}
                            for m, r in by_model.items()}
        doc["variance_weighted"] = {m: r.variance_weighted_dict(with_ci=with_ci) for m, r in by_model.items()}
        undefined = {m: {name: report.reasons for name, report in r.by_output.items() if report.reasons}
                     for m, r in by_model.items()}
        if any(undefined.values()):
            doc["undefined_by_output"] = {m: u for m, u in undefined.items() if u}
    if len(set(sizes.values())) > 1:
        doc["n_per_model"] = sizes
    return doc


def assessment_document(assessment: Assessment, settings: MetricsSettings, reports: dict, *,
                        breakdowns=None) -> dict:
    """:func:`metrics_document` of an in-memory assessment: its task, positive class, classes and outputs."""
    classification = assessment.task.is_classification
    return metrics_document(assessment.task, settings, reports, breakdowns=breakdowns, outputs=assessment.outputs,
                            positive=assessment.positive if classification else None,
                            classes=assessment.classes if classification else ())


def table_section(reports: dict) -> dict:
    """``{"per_class": …}`` (multi-class) or ``{"per_label": …}`` (multi-label): model → class (label) → column →
    value, None when undefined — each report's `MetricReport.table`, the table the Metrics page and the report show
    (columns: `assess.metrics.registry.TABLES`); ``{}`` when no report has one (binary, values, out of core)."""
    tables = {m: r.table for m, r in reports.items() if r.table is not None and len(r.table)}
    if not tables:
        return {}
    name = next(iter(tables.values())).index.name      # "class" or "label"
    return {f"per_{name}": {m: {str(c): {col: None if not np.isfinite(v) else float(v) for col, v in row.items()}
                                for c, row in t.to_dict(orient="index").items()}
                            for m, t in tables.items()}}


def breakdown_section(frame, *, with_ci: bool) -> dict:
    """``by_horizon`` and ``by_series`` of a forecast's breakdown frame (`assess.metrics.reports.compute_breakdowns`
    or `assess.engine.forecast`); a grouping the file has no column for is null with its reason under
    ``undefined_breakdowns``, never an empty object that reads as "no metrics"."""
    doc, absent = {}, {}
    for by, column in (("horizon", "horizon"), ("series", "series")):
        rows = frame[frame["by"] == by]
        if rows.empty:
            doc[f"by_{by}"] = None
            absent[f"by_{by}"] = (f"the file has no {column} column (set one with --{column}-col); the pooled "
                                  "metrics under \"models\" cover every row")
        else:
            doc[f"by_{by}"] = _nested(rows, by, with_ci=with_ci)
    if absent:
        doc["undefined_breakdowns"] = absent
    return doc


def _nested(frame, level: str, *, with_ci: bool) -> dict:
    """{model: {group: {key: value}}} (``{value, low, high}`` with ``with_ci``; None for undefined) from a
    breakdown frame; a horizon is written as its whole number ("1")."""
    def number(v):
        return None if v is None or not np.isfinite(v) else float(v)

    out: dict = {}
    for row in frame.itertuples(index=False):
        group = f"{row.horizon:g}" if level == "horizon" else str(row.series)
        value = ({"value": number(row.value), "low": number(row.low), "high": number(row.high)} if with_ci
                 else number(row.value))
        out.setdefault(row.model, {}).setdefault(group, {})[row.key] = value
    return out
