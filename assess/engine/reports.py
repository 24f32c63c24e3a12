"""Metric reports of a file assessed out of core: the same `MetricReport` objects as `assess.metrics.reports`.

`engine_reports` reads the first rows to recognise roles, task and positive class (the same `describe` as the
in-memory path, with the same overrides), checks the whole file while summing the cells and losses in one scan,
counts the curve table in a second (`assess.engine.binary`) and evaluates the registry's metric functions on the grouped states — one formula per
metric, whichever engine counted. Supported so far: binary files (long, wide or single-model; labels from the
predicted-label column or from the scores at a threshold; sample weights; `assess.engine.binary`), multi-class files
(labels: `assess.engine.multiclass`; scores: `assess.engine.multiclass_scores`), multi-label indicator files
(`assess.engine.multilabel`), single-output regression (`assess.engine.regression`) and forecasts
(`assess.engine.forecast`: pooled, per horizon and per series). Intervals: the proportion
methods (Wilson, Clopper–Pearson, normal; from the cells), DeLong for the binary ROC AUC (unweighted; from the
grouped placements) and the bootstrap of the grouped table (`assess.engine.bootstrap`; where it cannot resample
exactly, each result's note says why).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType

import numpy as np

from assess import intervals
from assess.core.data import Task
from assess.core.decision import LABELS, SCORES, Decision
from assess.engine import binary as grouped
from assess.engine.bootstrap import bootstrap_intervals
from assess.engine.backends import open_backend
from assess.engine.source import Source
from assess.core.errors import AssessError
from assess.inputs.read import LoadedTable
from assess.metrics import calibration_error
from assess.metrics.evaluate import (BINNED_NOT_BOOTSTRAPPED, MetricReport, MetricResult, interval_method,
                                     no_interval_note, run_metric)
from assess.metrics.registry import applicable, get, metrics_for
from assess.inputs.assessment import Assessment, describe
from assess.core.defaults import DEFAULT_RESAMPLES

#: Rows read to recognise roles and task (the whole file is then checked by the profiling scan).
HEAD_ROWS = 50_000


@dataclass
class EngineRun:
    """What one out-of-core run computed: the assessment of the first rows (roles, task, classes), the reports,
    and how the engine counted (``exact``; for a grid run ``bins`` and per-model error ``bounds``)."""

    assessment: Assessment
    reports: dict[str, MetricReport]
    engine: str
    exact: bool
    n_rows: int
    distinct_scores: int | None     # None: not counted (the grid forced, or chosen from the first rows)
    bins: int | None = None
    bounds: dict[str, dict[str, float]] = field(default_factory=dict)
    omitted: tuple[str, ...] = ()      # metric keys the data support but this engine path does not compute yet
    breakdown: object = None           # forecasts: the per-horizon and per-series frame (`assess.engine.forecast`)

    def summary(self) -> dict:
        doc = {"name": self.engine, "rows": self.n_rows, "exact": self.exact,
               "approx_distinct_scores": self.distinct_scores}
        if self.omitted:
            doc["not_computed"] = list(self.omitted)
            doc["not_computed_reason"] = ("score metrics of multi-class files are not aggregated out of core yet; "
                                          "use --engine memory")
        if not self.exact:
            if self.distinct_scores is None:
                doc["grid_reason"] = ("the scores were not counted: --exact-limit 0, or the first rows' scores are "
                                      "nearly all distinct in a file longer than the exact limit")
            doc["grid_bins"] = self.bins
            doc["error_bounds"] = self.bounds
        return doc


def head_assessment(backend, source: Source, overrides, sha256="") -> Assessment:
    """The assessment of the first `HEAD_ROWS` rows; ``sha256`` the whole input's digest when the caller computes
    it (`assess.engine.digest`; the report does, the metrics JSON has no place for it) — a string, or a future whose
    result is awaited after the head read, so the two reads overlap."""
    frame = backend.head(HEAD_ROWS)
    if hasattr(sha256, "result"):
        sha256 = sha256.result()
    table = LoadedTable(frame=frame, name=source.name, sha256=sha256, n_bytes=source.n_bytes, format=source.format)
    assessment = describe(table, overrides)
    if assessment.errors:
        raise AssessError(f"{source.name}: {assessment.errors[0].message}")
    return assessment


def engine_reports(source: Source, engine: str, overrides, *, models=None, keys=None, decision=Decision(), beta=1.0,
                   ci=None, confidence_level=0.95, spark_master=None, k=2, exact_limit=grouped.EXACT_LIMIT,
                   bins=grouped.GRID_BINS, n_resamples=DEFAULT_RESAMPLES, seed=0, bootstrap_method="percentile",
                   progress=None, season=None, interval_level=None, baselines=False) -> EngineRun:
    """Assess ``source`` with ``engine`` ("duckdb" or "spark"); options as `assess.metrics.reports.compute_reports`.

    ``exact_limit``: above this approximate number of distinct scores the scores are grouped on a grid of ``bins``
    bins and the ranking metrics come with error bounds (`EngineRun.bounds`); 0 forces the grid. ``season`` and
    ``interval_level``: forecasts, as `assess.metrics.reports.compute_reports`; ``baselines``: forecasts, also score
    the naive, seasonal naive and drift forecasts (the report shows them; one more scan).
    ``progress(fraction, what)``, when given, is told each stage (the scans are the long part).
    """
    say = progress or (lambda fraction, what: None)
    say(0.0, "reading the first rows (roles and task)")
    with open_backend(engine, source, spark_master=spark_master) as backend:
        assessment = head_assessment(backend, source, overrides)
        say(0.1, "scanning the whole file")
        if assessment.task not in (Task.BINARY, Task.MULTICLASS, Task.MULTILABEL, Task.REGRESSION,
                                   Task.FORECAST) or assessment.outputs:
            raise AssessError(f"{source.name}: the out-of-core engines assess binary, multi-class, multi-label, "
                              f"(single-output) regression and forecast files so far; this file is "
                              f"{assessment.task.value}{' with several outputs' if assessment.outputs else ''} (use "
                              "--engine memory)")
        if keys:
            for key in keys:
                get(assessment.task, key)
        # each task's module imported in its branch: a binary run (the large files' usual case) loads none of them
        if assessment.task is Task.MULTILABEL:
            from assess.engine import multilabel

            states = multilabel.multilabel_states(backend, assessment, decision, beta=float(beta),
                                                  weighted=assessment.roles.weight is not None)
            return _multilabel_run(states, assessment, engine, decision, models=models, keys=keys, beta=beta, ci=ci,
                                   confidence_level=confidence_level)
        sources = grouped.model_columns(backend, assessment)
        if assessment.task is Task.FORECAST:
            from assess.engine import forecast

            run = forecast.forecast_reports(backend, assessment, sources, models=models, keys=keys, ci=ci,
                                            season=season, level=interval_level, baselines=baselines)
            return EngineRun(assessment, run.reports, engine, True, sum(r.n for r in run.reports.values()), 0,
                             breakdown=run.breakdown)
        if assessment.task is Task.REGRESSION:
            from assess.engine import regression

            table = regression.regression_table(backend, assessment, sources)
            return _regression_run(table, assessment, engine, models=models, keys=keys, ci=ci,
                                   confidence_level=confidence_level, backend=backend,
                                   rows=regression.rows_sql(assessment, sources))
        if assessment.task is Task.MULTICLASS:
            from assess.engine import multiclass

            has_labels = sources[0].y_pred is not None
            argmax = multiclass.argmax_sql(backend, assessment)
            by_scores = decision.source_for(Task.MULTICLASS, has_labels=has_labels,
                                            has_scores=argmax is not None) == SCORES
            if by_scores and argmax is None:
                raise AssessError(f"{source.name}: labels from the scores need a score column per class "
                                  "(proba_<class>) in a long or single-model file out of core (use --engine memory)")
            table = multiclass.confusion_table(backend, sources, argmax if by_scores else None)
            decision = Decision.from_scores() if by_scores else Decision.from_labels()
            return _multiclass_run(table, assessment, engine, overrides, decision, models=models, keys=keys, beta=beta,
                                   k=k, ci=ci, confidence_level=confidence_level,
                                   boot=(n_resamples, seed, bootstrap_method), backend=backend, source=sources[0])
        has_scores = sources[0].score is not None
        has_labels = sources[0].y_pred is not None
        source_of_labels = decision.source_for(Task.BINARY, has_labels=has_labels, has_scores=has_scores)
        if source_of_labels == SCORES and not has_scores:
            raise AssessError(f"{source.name}: labels from the scores need a score column; the file has none")
        if source_of_labels == LABELS and not has_labels:
            raise AssessError(f"{source.name}: the file has no predicted-label column; use --labels-from scores")
        labels_from_scores = source_of_labels == SCORES
        weighted = assessment.roles.weight is not None
        guess = grouped.head_positives(assessment)
        clip = grouped.head_clips(assessment)
        # exact_limit 0 forces the grid; first rows of nearly all distinct scores in a long file choose it too
        count_distinct = exact_limit > 0 and not (has_scores and grouped.head_says_grid(backend, assessment,
                                                                                       exact_limit))
        head_models = grouped.head_models(assessment)
        scan = dict(labels_from_scores=labels_from_scores, threshold=decision.threshold,
                    count_distinct=count_distinct, weighted=weighted, clip=clip, models=head_models,
                    truths=grouped.head_truths(assessment))
        prof = grouped.summarise(backend, sources, guess, **scan)
        positive, lo, hi, distinct = grouped.check_profile(prof, assessment, source.name)
        if {repr(v) for v in positive} != {repr(v) for v in guess}:   # the first rows misled: count the losses again
            prof = grouped.summarise(backend, sources, positive, **scan)
        exact = count_distinct and distinct <= exact_limit
        distinct = distinct if count_distinct else None
        plan = grouped.Plan(exact=exact, lo=lo, hi=hi, bins=bins)
        models_found = grouped.file_order(assessment, prof["model"])
        say(0.4, "grouping the scores (second scan)")
        curve = grouped.curve_table(backend, sources, models_found, positive, plan, weighted=weighted) \
            if has_scores else None
    say(0.8, "computing the metrics")
    labels_from = decision.labels_from(Task.BINARY, has_labels=has_labels, has_scores=has_scores)
    tables = grouped.binary_states(prof, curve, models_found, assessment, plan, labels_from=labels_from,
                                   beta=float(beta), weighted=weighted, labels_from_scores=labels_from_scores)
    chosen = list(models or tables)
    unknown = [m for m in chosen if m not in tables]
    if unknown:
        raise AssessError(f"{source.name}: no model {unknown[0]!r} (models: {', '.join(tables)})")
    if keys is None:
        specs = list(applicable(Task.BINARY, has_scores=has_scores))
    else:
        specs = [get(Task.BINARY, key) for key in keys]
    reports, bounds = {}, {}
    for model in chosen:
        t = tables[model]
        if not exact and has_scores:
            bounds[model] = grouped.grid_bounds(t)
        reports[model] = _report(t, model, assessment, specs, decision, beta, ci, confidence_level, weighted,
                                 bounds.get(model), exact=exact, boot=(n_resamples, seed, bootstrap_method))
    return EngineRun(assessment, reports, engine, exact, int(prof["n_rows"].sum()), distinct,
                     None if exact else bins, bounds)


def _multiclass_run(table, assessment, engine, overrides, decision, *, models, keys, beta, k, ci, confidence_level,
                    boot, backend, source):
    from assess.engine import multiclass, multiclass_scores

    weighted = assessment.roles.weight is not None
    by_scores = decision.source == SCORES
    labels_from = decision.labels_from(Task.MULTICLASS, has_labels=not by_scores, has_scores=by_scores)
    classes, states = multiclass.multiclass_states(
        table, assessment, labels_from=labels_from, beta=float(beta), k=int(k), weighted=weighted,
        class_order=overrides.class_order,
        score_classes=[str(assessment.names.file_class(c)) for c in assessment.classes] if by_scores else ())
    chosen = list(models or states)
    unknown = [m for m in chosen if m not in states]
    if unknown:
        raise AssessError(f"{assessment.table.name}: no model {unknown[0]!r} (models: {', '.join(states)})")
    columns = multiclass_scores.score_columns(assessment, classes)
    specs = list(applicable(Task.MULTICLASS, has_scores=bool(columns))) if keys is None else \
        [get(Task.MULTICLASS, key) for key in keys]
    needs_scores = [m.key for m in specs if m.needs != "labels"]
    if needs_scores and columns is None:
        raise AssessError(f"{assessment.table.name}: {needs_scores[0]} needs a score column per class (proba_<class>) "
                          "in a long or single-model file out of core (use --engine memory)")
    scored = multiclass_scores.score_tables(backend, source, assessment, classes, table, columns, int(k)) \
        if needs_scores else None
    reports = {}
    for model in chosen:
        state, n_rows = states[model]
        if scored is not None:
            state = multiclass_scores.with_scores(state, model, *scored, weighted=weighted)
            if state is None:
                raise AssessError(f"{assessment.table.name}: model {model!r} has empty score cells; every row needs "
                                  "its per-class scores")
        squares = None
        if scored is not None and state.proba_reason is None:
            squares = {"log_loss": state.extra["log_loss_sq"], "brier_score": state.extra["brier_sq"],
                       "weight": state.weight_sum, "weight_sq": state.extra["weight_sq"]}
        t = grouped.ModelTable(state, n_rows, None, None, None, None, squares)
        reports[model] = _report(t, model, assessment, specs, decision, beta, ci, confidence_level, weighted, None,
                                 task=Task.MULTICLASS, classes=classes, k=k, boot=boot)
    rows = sum(n for _, n in states.values())
    omitted = tuple(m.key for m in metrics_for(Task.MULTICLASS) if m not in applicable(Task.MULTICLASS,
                                                                                        has_scores=False)) \
        if assessment.roles.class_scores and columns is None and keys is None else ()
    return EngineRun(assessment, reports, engine, True, rows, 0, omitted=omitted)


def _multilabel_run(states, assessment, engine, decision, *, models, keys, beta, ci, confidence_level):
    chosen = list(models or states)
    unknown = [m for m in chosen if m not in states]
    if unknown:
        raise AssessError(f"{assessment.table.name}: no model {unknown[0]!r} (models: {', '.join(states)})")
    has_scores = next(iter(states.values()))[0].has_scores
    specs = list(applicable(Task.MULTILABEL, has_scores=has_scores)) if keys is None else \
        [get(Task.MULTILABEL, key) for key in keys]
    weighted = assessment.roles.weight is not None
    reports = {}
    for model in chosen:
        state, n_rows = states[model]
        t = grouped.ModelTable(state, n_rows, None, None, None, None)
        reports[model] = _report(t, model, assessment, specs, decision, beta, ci, confidence_level, weighted, None,
                                 task=Task.MULTILABEL, classes=assessment.classes)
    return EngineRun(assessment, reports, engine, True, sum(n for _, n in states.values()), 0)


def _regression_run(table, assessment, engine, *, models, keys, ci, confidence_level, backend, rows):
    """The regression reports from the sums of one scan; the analytic intervals ``ci="auto"`` gives in memory (t,
    delta method, order statistics: `assess.engine.regression.analytic_bounds`) from one more; no bootstrap."""
    from assess.engine import regression

    states = regression.regression_states(table, assessment)
    chosen = list(models or states)
    unknown = [m for m in chosen if m not in states]
    if unknown:
        raise AssessError(f"{assessment.table.name}: no model {unknown[0]!r} (models: {', '.join(states)})")
    specs = list(applicable(Task.REGRESSION, has_scores=False)) if keys is None else [get(Task.REGRESSION, key) for key in keys]
    weighted = assessment.roles.weight is not None
    methods = {m.key: interval_method(m, ci, weighted) for m in specs}
    analytic = [m for m in specs if methods[m.key] not in (None, "bootstrap")]
    bounds, notes = regression.analytic_bounds(backend, rows, table, analytic, methods, confidence_level,
                                               weighted=weighted) if analytic else ({}, {})
    reports = {}
    for model in chosen:
        state, n_rows = states[model]
        results = []
        for m in specs:
            value, reason, note = regression.sums_metric(m, state)
            lo = hi = float("nan")
            method = None
            if np.isfinite(value) and m.key in bounds.get(model, {}):
                lo, hi, method = bounds[model][m.key]
            elif np.isfinite(value) and methods[m.key] is not None:
                why = notes.get(model, {}).get(m.key) or "no bootstrap interval on the out-of-core path yet (use " \
                    "--engine memory)"
                note = "; ".join(x for x in (note, why) if x)
            elif ci is not None and methods[m.key] is None and m.kind != "count":
                note = no_interval_note(note, ci, m)
            results.append(MetricResult(m.key, m.name, value, lo, hi, method, reason, note))
        reports[model] = MetricReport(task=Task.REGRESSION, model=model, n=n_rows, classes=(), results=tuple(results),
                                      table=None, params=MappingProxyType({}), ci=ci,
                                      confidence_level=float(confidence_level), n_resamples=0, seed=None)
    rows_total = sum(n for _, n in states.values())
    return EngineRun(assessment, reports, engine, True, rows_total, 0)


def _report(t, model, assessment, specs, decision, beta, ci, confidence_level, weighted, bounds, *,
            task=Task.BINARY, classes=None, k=2, exact=True, boot=None) -> MetricReport:
    """One model's `MetricReport` from its grouped table ``t``; ``boot`` = (resamples, seed, method) of the
    bootstrap intervals (`assess.engine.bootstrap`)."""
    state = t.state
    computed = {m.key: run_metric(m.compute, state) for m in specs}
    # the exact grouped table holds what the in-memory rows give the precision areas' delta method: the counts of
    # each class per distinct score (`assess.metrics.evaluate.evaluate`, with its fallback to the bootstrap on ties)
    exact_scores = task == Task.BINARY and exact and getattr(state, "counts", None) is not None
    how = {m.key: interval_method(m, ci, weighted, rows=exact_scores) for m in specs}
    if any(v == "delta" for v in how.values()):
        groups = np.diff(state.counts.tps, prepend=0.0), np.diff(state.counts.fps, prepend=0.0)
        if not intervals.precision_area.applies(*groups):
            how.update({k: "bootstrap" for k, v in how.items() if v == "delta"})
    boot = boot or (DEFAULT_RESAMPLES, 0, "percentile")
    boot_specs = [m for m in specs if how[m.key] == "bootstrap" and np.isfinite(computed[m.key][0])]
    boot_bounds, boot_notes = {}, {}
    if boot_specs:
        n_resamples, seed, boot_method = boot
        boot_bounds, boot_notes = bootstrap_intervals(task, t, boot_specs, {m.key: computed[m.key][0]
                                                                            for m in boot_specs},
                                                      n_resamples=n_resamples, confidence_level=confidence_level,
                                                      seed=seed, method=boot_method, weighted=weighted, exact=exact,
                                                      sequential=ci == "auto")
    results = []
    for m in specs:
        value, reason, note = computed[m.key]
        lo = hi = float("nan")
        method = None
        if bounds and m.key in bounds and np.isfinite(value):
            note = "; ".join(x for x in (note, f"score grid: within ±{bounds[m.key]:.2g} of the exact value") if x)
        if how[m.key] is not None and np.isfinite(value):
            if how[m.key] in intervals.PROPORTION_METHODS:
                x, nn, ne = m.proportion.counts(state)
                c = intervals.proportion_ci(x, nn, confidence_level=confidence_level, method=how[m.key],
                                            n_eff=ne if weighted else None)
                lo, hi, method = c.low, c.high, replace(c.how, effective_n=weighted)
            elif how[m.key] == "delong":
                lo, hi = grouped.delong_from_table(t, confidence_level)
                method = intervals.IntervalMethod("delong")
                if bounds:   # the grid's AUC is off by at most the bound: widen the interval by it
                    lo, hi = max(0.0, lo - bounds["roc_auc"]), min(1.0, hi + bounds["roc_auc"])
                    method = intervals.IntervalMethod("delong", detail="score grid, widened by the grid's error bound")
            elif how[m.key] == "delta":
                c = intervals.precision_area_ci(*groups, area=m.key, confidence_level=confidence_level)
                lo, hi, method = c.low, c.high, c.how
            elif how[m.key] == "t" and t.loss_squares and m.key in t.loss_squares:
                # the mean of per-row losses, as `assess.intervals.mean_ci` on the rows: spread Σw·x²/W − mean²
                sq = t.loss_squares
                W = sq["weight"]
                c = intervals.t_interval(value, sq[m.key] / W - value * value, W * W / sq["weight_sq"],
                                         confidence_level=confidence_level, bounds=m.range, weighted=weighted)
                lo, hi, method = c.low, c.high, replace(c.how, of="mean of per-row losses")
            elif how[m.key] == "simultaneous-bins" and not weighted:
                c = calibration_error.ece_interval(state.counts, confidence_level=confidence_level)
                lo, hi, method = c.low, c.high, c.how
                if ci == "bootstrap":
                    note = "; ".join(x for x in (note, BINNED_NOT_BOOTSTRAPPED) if x)
            elif how[m.key] == "simultaneous-bins":
                note = "; ".join(x for x in (note, "no interval out of core for weighted rows: the grouped table has "
                                             "no sums of squared weights per bin (use --engine memory)") if x)
            elif m.key in boot_bounds:
                lo, hi, method = boot_bounds[m.key]
            else:
                note = "; ".join(x for x in (note, boot_notes.get(m.key, "no bootstrap interval out of core "
                                                                         "(use --engine memory)")) if x)
        results.append(MetricResult(m.key, m.named(beta=beta, k=k), value, lo, hi, method, reason, note))
    if classes is None:
        classes = (assessment.negative, assessment.positive)
    return MetricReport(task=task, model=model, n=t.n_rows, classes=tuple(classes),
                        results=tuple(results), table=None,
                        params=MappingProxyType({"decision": decision, "beta": beta, "k": k}), ci=ci,
                        confidence_level=float(confidence_level), n_resamples=boot[0] if boot_specs else 0,
                        seed=boot[1] if boot_specs else None)
