"""The metrics of every chosen model of an assessment: one call shared by the Metrics page and ``assess metrics``.

Both surfaces call `compute_reports`, so the page and the command line give the same numbers for the same settings;
the user interface never depends on the command line.
"""

from __future__ import annotations

import pandas as pd

from assess.core.data import Task
from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.inputs.assessment import Assessment
from assess.metrics.breakdown import BY, breakdown
from assess.metrics.evaluate import MetricReport, evaluate
from assess.metrics.multioutput import OutputsReport, evaluate_outputs
from assess.metrics.registry import TASKS
from assess.core.defaults import DEFAULT_RESAMPLES


def compute_reports(assessment: Assessment, *, models=None, keys=None, decision=Decision(), beta=1.0, k=2, ci=None,
                    confidence_level=0.95, n_resamples=DEFAULT_RESAMPLES, seed=0, bootstrap_method="percentile",
                    progress=None, season=None, interval_level=None) -> dict[str, MetricReport]:
    """{model: MetricReport} of ``models`` (default: all of them); the options are those of `evaluate`.

    Regression and forecast files give the registry's value metrics (a forecast pooled over its rows; per horizon
    and series: :func:`compute_breakdowns`); ``decision``, ``beta`` and ``k`` do not apply to them, ``season`` and
    ``interval_level`` only to forecasts. A multi-output regression file gives the uniform average over its outputs
    (:func:`compute_output_reports` has each output and the variance-weighted averages).

    ``decision`` says where the labels come from (:mod:`assess.core.decision`; default: the predicted-label column, else
    score ≥ 0.5 or the arg-max). ``progress(fraction)`` reports the fraction of all models' bootstrap work done.
    """
    if assessment.outputs:  # multi-output regression: the uniform average over the outputs
        return {m: r.average for m, r in compute_output_reports(
            assessment, models=models, keys=keys, ci=ci, confidence_level=confidence_level, n_resamples=n_resamples,
            seed=seed, bootstrap_method=bootstrap_method, progress=progress).items()}
    if assessment.task not in TASKS:
        raise AssessError(f"{assessment.table.name}: metrics for the {assessment.task.value} task are not available "
                          f"yet; {', '.join(t.value for t in TASKS)} tasks are")
    chosen = _chosen_models(assessment, models)
    reports = {}
    for i, model in enumerate(chosen):
        step = (lambda f, i=i: progress((i + f) / len(chosen))) if progress else None
        reports[model] = evaluate(assessment.predictions(model), keys, decision=decision, beta=beta, k=k,
                                  ci=ci, confidence_level=confidence_level, n_resamples=n_resamples, seed=seed,
                                  progress=step, bootstrap_method=bootstrap_method, season=season,
                                  interval_level=interval_level)
    return reports


def compute_output_reports(assessment: Assessment, *, models=None, keys=None, ci=None, confidence_level=0.95,
                           n_resamples=DEFAULT_RESAMPLES, seed=0, bootstrap_method="percentile",
                           progress=None) -> dict[str, OutputsReport]:
    """{model: OutputsReport} of a multi-output regression file: each output's report, the uniform and the
    variance-weighted averages (:mod:`assess.metrics.multioutput`); the options are those of `compute_reports`."""
    if not assessment.outputs:
        raise AssessError(f"{assessment.table.name} has a single target: it has no outputs to average")
    chosen = _chosen_models(assessment, models)
    reports = {}
    for i, model in enumerate(chosen):
        step = (lambda f, i=i: progress((i + f) / len(chosen))) if progress else None
        reports[model] = evaluate_outputs(assessment, model, keys, ci=ci, confidence_level=confidence_level,
                                          n_resamples=n_resamples, seed=seed, progress=step,
                                          bootstrap_method=bootstrap_method)
    return reports


def _chosen_models(assessment: Assessment, models) -> list[str]:
    chosen = list(models or assessment.models)
    unknown = [m for m in chosen if m not in assessment.models]
    if unknown:
        raise AssessError(f"{assessment.table.name}: no model {unknown[0]!r} (models: {', '.join(assessment.models)})")
    return chosen


def compute_breakdowns(assessment: Assessment, *, models=None, keys=None, by=BY, ci=None, confidence_level=0.95,
                       n_resamples=DEFAULT_RESAMPLES, seed=0, season=None, interval_level=None) -> pd.DataFrame:
    """Forecast metrics per horizon and per series of ``models`` (default all), one tidy frame
    (:func:`assess.metrics.breakdown.breakdown`'s columns); shared by the Metrics page and ``assess metrics``."""
    if assessment.task is not Task.FORECAST:
        raise AssessError(f"{assessment.table.name}: metrics per horizon and series are for forecasts; the task is "
                          f"{assessment.task.value}")
    frames = [breakdown(assessment.predictions(model), keys, by=by, ci=ci, confidence_level=confidence_level,
                        n_resamples=n_resamples, seed=seed, season=season, interval_level=interval_level)
              for model in _chosen_models(assessment, models)]
    return pd.concat(frames, ignore_index=True)
