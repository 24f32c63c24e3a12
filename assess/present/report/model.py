"""The assessment report's content (ISO/IEC TS 4213:2022 clause 8; SPEC "Report"), gathered once and rendered by
`assess.present.report.render` to HTML, PDF and a ZIP of tables.

`build_report` computes nothing of its own: the metrics come from `assess.metrics.document` (``compute_metrics``
and, for forecasts, ``forecast_breakdowns``: what ``python -m assess metrics`` prints), the tests from `assess.stats.compare_all` / `assess.stats.compare` (what
``python -m assess compare`` prints), the charts from `assess.present.report.figures`, so the report's numbers are the
command line's numbers for the same settings. What it adds is the reading: the headline metrics of the task, the
verdict of the recommended test and a recommendation that states its uncertainty and says so when the data cannot
separate the models.
"""

from __future__ import annotations

import datetime as _dt
import importlib.metadata
import platform
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from assess.analyses.controls import run_controls
from assess.core.data import Task
from assess.core.decision import LABELS, SCORES, Decision
from assess.core.errors import AssessError
from assess.core.formatting import bounds, class_phrase, name_in_sentence, number, p_value
from assess.metrics import MetricReport, get
from assess.metrics.registry import TASKS, headline_of, slice_test_metric
from assess.metrics.document import MetricsSettings, compute_metrics, forecast_breakdowns
from assess.present.report.checklist import ChecklistRow, checklist
from assess.present.report.costs import MisclassificationCosts, RunningCosts, misclassification_costs, running_costs
from assess.present.report.figures import ReportFigure, report_figures, with_key_model
from assess.inputs.assessment import Assessment
from assess.analyses.over_time import default_keys, default_period, has_time, over_time
from assess.analyses.discovery import discover, discovery_columns
from assess.analyses.slices import analyse_slices, default_slice_columns, slice_candidates
from assess.stats import compare, compare_all
from assess.stats.registry import PREDICTIONS, TESTS
from assess.stats.inputs import comparison_predictions
from assess.stats.verdict import one_verdict
from assess.present.summary import best_models, leader_text, leaders, value_with_ci
from assess.core.defaults import DEFAULT_RESAMPLES

#: The metrics of the summary page, by task, in order; those a file lacks (no scores) are skipped.
HEADLINE = {
    Task.BINARY: ("roc_auc", "recall", "precision", "f1", "accuracy"),
    Task.MULTICLASS: ("accuracy", "balanced_accuracy", "f1_macro", "roc_auc_ovr"),
    Task.MULTILABEL: ("exact_match_ratio", "hamming_loss", "f1_micro", "f1_macro"),
    Task.REGRESSION: ("mae", "rmse", "r2", "mean_error"),
    Task.FORECAST: ("mae", "rmse", "mase", "coverage"),
    Task.CLUSTERING: ("adjusted_rand_index", "normalized_mutual_info", "purity", "silhouette"),
}
#: Library versions named on the summary page.
LIBRARIES = ("numpy", "pandas", "scipy", "scikit-learn", "plotly", "kaleido", "jinja2")


@dataclass(frozen=True)
class ReportOptions:
    """What the report assesses and how (the settings file's choices, `assess.present.settings`)."""

    models: tuple[str, ...] | None = None
    metrics: tuple[str, ...] | None = None
    decision: Decision = Decision()
    ci: str = "auto"
    confidence_level: float = 0.95
    n_resamples: int = DEFAULT_RESAMPLES
    seed: int = 0
    beta: float = 1.0
    k: int = 2
    tests: tuple[str, ...] | None = None       # None: every test suited to the data (compare --test all)
    test_metric: str | None = None
    correction: str = "auto"
    checklist: Mapping[str, str] = field(default_factory=dict)
    costs: tuple[tuple[float, ...], ...] | None = None   # misclassification costs, true × predicted class
    title: str = "Model assessment report"
    command: str = ""                          # the command that reproduces the report
    settings: Mapping = field(default_factory=dict)  # the settings document, for the appendix
    charts: bool = True                        # False: no figures (the ZIP of tables needs none)


@dataclass(frozen=True)
class Recommendation:
    text: str
    separated: bool        # the data separate the best model from the runner-up (or there is one model)
    best: str | None


@dataclass(frozen=True)
class SliceFindings:
    """Where each model fails: its slice of the subgroup ``columns`` with the worst ``key`` (the Slices page's first
    table), the slice's rows, value and the value on all rows, and the slice tested against the rest of the rows,
    Benjamini–Hochberg adjusted across the slices (ISO/IEC TS 4213 7.10.3; NaN when under ``min_size`` rows)."""

    columns: tuple[str, ...]
    key: str
    name: str
    rows: tuple[Mapping, ...]     # model, slice, n, value, overall, p_adjusted
    min_size: int
    declared: bool = True         # False: no subgroups declared; the column the Slices page would choose


@dataclass(frozen=True)
class OverTimeFindings:
    """Performance over time (issue 35): each model's ``key`` per ``period`` of the time stamps in ``column`` with its
    interval, the change against the first period (Benjamini–Hochberg adjusted across the periods), and the
    sentences of the periods whose change is significant."""

    column: str
    period: str
    key: str
    name: str
    reference: str
    rows: tuple[Mapping, ...]     # model, period, n, n_labelled, value, low, high, difference, p_adjusted
    sentences: tuple[str, ...]


@dataclass(frozen=True)
class FoundSlices:
    """Slices found without being told (:func:`assess.analyses.discovery.discover`, the default search): per model
    the discovered slices, worst first — ``model``, ``slice`` (its conditions in words), ``n``, ``value``, ``low``,
    ``high``, ``rest``, ``difference`` with ``difference_low``/``difference_high``, ``p_adjusted`` (Benjamini–Hochberg
    over every slice looked at) — and how many slices each model's search looked at."""

    key: str
    name: str
    rows: tuple[Mapping, ...]
    looked_at: Mapping[str, int]
    min_size: int
    max_conditions: int


@dataclass(frozen=True, eq=False)
class Report:
    assessment: Assessment
    options: ReportOptions
    models: tuple[str, ...]
    created: str
    versions: Mapping[str, str]
    reports: Mapping[str, MetricReport]
    headline: tuple[str, ...]
    comparisons: tuple            # assess.stats Comparison objects, the recommended first
    skipped: Mapping[str, str]
    design: object | None
    verdict: str
    recommendation: Recommendation
    figures: tuple[ReportFigure, ...]
    checklist: tuple[ChecklistRow, ...]
    notes: tuple[str, ...] = ()
    rows: int | None = None       # the file's rows when the assessment saw only its first rows (out of core)
    misclassification: MisclassificationCosts | None = None   # only when the options state a cost matrix
    running: RunningCosts | None = None                       # only when the file measured latency or energy
    slices: SliceFindings | None = None                       # only when the file has subgroup columns
    over_time: OverTimeFindings | None = None                 # only when the file has time stamps
    found: FoundSlices | None = None                          # weak slices found by the search (rows in memory)
    # what ``metrics`` prints beside "models", from the same calls (`assess.metrics.document`): each output and the
    # variance-weighted averages of a multi-output file ({model: OutputsReport}), a forecast's per-horizon and
    # per-series frame
    outputs: Mapping | None = None
    breakdowns: object | None = None

    @property
    def n_rows(self) -> int:
        """The file's rows, its unlabelled ones included (the frame holds the labelled rows only)."""
        return len(self.assessment.frame) + self.assessment.n_unlabelled if self.rows is None else self.rows

    @property
    def task(self) -> Task:
        return self.assessment.task

    def decision_text(self) -> str:
        """The decision rule in words (what every label metric, matrix and test counted)."""
        task, d = self.task, self.options.decision
        if task is Task.CLUSTERING:
            return "not applicable (cluster assignments)"
        if not task.is_classification:
            return "not applicable (numeric predictions)"
        has_labels = any(self.assessment.predictions(m).y_pred is not None for m in self.models)
        source = d.source if d.source != "auto" else (LABELS if has_labels else SCORES)
        if source == LABELS:
            return "the predicted-label column of the file"
        if task is Task.MULTICLASS:
            return "the class with the highest score"
        rule = f"score ≥ {d.threshold:g}"
        if d.per_label:
            rule += " (" + ", ".join(f"{label}: ≥ {t:g}" for label, t in d.per_label) + ")"
        return rule


def library_versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return out


def metrics_settings(options: ReportOptions) -> MetricsSettings:
    """The `MetricsSettings` of the report's options: what ``python -m assess metrics`` is given for the same
    numbers."""
    return MetricsSettings(models=options.models, keys=tuple(options.metrics) if options.metrics else None,
                           decision=options.decision, beta=options.beta, k=options.k, ci=options.ci or None,
                           confidence_level=options.confidence_level, n_resamples=options.n_resamples,
                           seed=options.seed)


def build_report(assessment: Assessment, options: ReportOptions = ReportOptions(), *,
                 progress: Callable[[float, str], None] | None = None,
                 now: _dt.datetime | None = None, source=None) -> Report:
    """Gather everything the report shows. ``progress(fraction, what)`` is called as the work goes on.

    ``source`` (out of core, `assess.engine.report.EngineReportSource`): ``assessment`` is then that of the file's
    first rows, and the source gives the metric reports (``source.reports(models, options, progress)``), the tests
    (``source.tests(models, options)`` → comparisons, skipped, design), the file's ``rows``, ``notes`` and
    ``breakdown`` (forecasts: the per-horizon and per-series frame of its metrics run); charts
    and controls, which need the rows, are left out (the notes say so)."""
    say = progress or (lambda f, what: None)
    if assessment.errors:
        raise AssessError(f"{assessment.table.name}: {assessment.errors[0].message}")
    models = tuple(options.models or assessment.models)
    unknown = [m for m in models if m not in assessment.models]
    if unknown:
        raise AssessError(f"{assessment.table.name}: no model {unknown[0]!r} (models: {', '.join(assessment.models)})")
    notes = []
    say(0.02, "metrics and their intervals")
    reports: dict[str, MetricReport] = {}
    outputs = breakdowns = None
    if source is not None:
        reports = source.reports(list(models), options, lambda f: say(0.02 + 0.5 * f, "metrics and their intervals"))
        breakdowns = source.breakdown     # forecasts: per horizon and series, as `metrics --engine` prints them
        notes.extend(source.notes)
    elif assessment.task in TASKS:
        settings = replace(metrics_settings(options), models=models)
        computed = compute_metrics(assessment, settings,
                                   progress=lambda f: say(0.02 + 0.5 * f, "metrics and their intervals"))
        if assessment.outputs:
            outputs, reports = computed, {m: r.average for m, r in computed.items()}
        else:
            reports = computed
        if assessment.task is Task.FORECAST:
            say(0.5, "metrics per horizon and series")
            breakdowns = forecast_breakdowns(assessment, settings, models)
    else:
        notes.append(f"The {assessment.task.value} task has no metrics: this report describes the file only.")
    headline = tuple(k for k in HEADLINE.get(assessment.task, ())
                     if reports and all(k in r and r[k].defined for r in reports.values()))
    say(0.55, "significance tests")
    comparisons, skipped, design = (source.tests(list(models), options) if source is not None and len(models) > 1
                                    else _tests(assessment, models, options, reports))
    say(0.6, "charts")
    auc = {m: r["roc_auc"] for m, r in reports.items() if "roc_auc" in r}
    figures = report_figures(assessment, models, decision=options.decision, auc_ci=auc,
                             confidence_level=options.confidence_level, seed=options.seed,
                             progress=lambda f: say(0.6 + 0.35 * f, "charts")
                             ) if reports and options.charts and source is None else []
    # the recommendation ranks models by the task's headline metric, when every model has it
    primary = headline_of(assessment) if assessment.task in TASKS else None
    primary = primary if reports and all(primary in r and r[primary].defined for r in reports.values()) else None
    # one verdict by the rule of `assess.stats.verdict`, as `compare --test all` and the Compare page give it
    found = one_verdict(comparisons, metric=options.test_metric or primary, weighted=bool(assessment.roles.weight),
                        confidence_level=options.confidence_level)
    recommended = next(c for c in comparisons if c.test == found.test) if found is not None else None
    verdict = found.text if found is not None else (
        "No significance test: there is one model." if len(models) == 1 else
        "No significance test could be run on these data" + (f" ({next(iter(skipped.values()))})" if skipped
                                                              else "") + ".")
    recommendation = _recommend(assessment, reports, primary, recommended, options)
    if recommendation.best is not None:
        figures = with_key_model(figures, recommendation.best)
    rows = checklist(assessment, models, options.checklist, baselines_computed=bool(reports),
                     controls=_controls(assessment, options) if source is None else ())
    if source is not None:    # out of core: which findings come from the first rows only
        rows = source.head_findings(rows)
    say(0.96, "costs")
    created = (now or _dt.datetime.now(_dt.timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    ordered = tuple([recommended] + [c for c in comparisons if c is not recommended]) if recommended else comparisons
    report = Report(assessment, options, models, created, library_versions(), reports, headline, ordered,
                    dict(skipped), design, verdict, recommendation, tuple(figures), tuple(rows), tuple(notes),
                    None if source is None else source.rows)
    misclassification = running = None
    if options.costs is not None and source is not None:   # out of core the report has only the grouped tables
        notes.append("No costs section: costs need the file's rows (run the report with --engine memory).")
    elif options.costs is not None:
        try:
            misclassification = misclassification_costs(assessment, models, options.costs,
                                                        decision=options.decision, rule=report.decision_text())
        except AssessError as exc:   # the rest of the report stands; the reader learns why costs are missing
            notes.append(str(exc)[0].upper() + str(exc)[1:] + ".")
    if source is None:
        try:
            # as `metrics`: the costs always have intervals, analytic where they apply, unless ci is "bootstrap"
            running = running_costs(assessment, models, decision=options.decision,
                                    confidence_level=options.confidence_level, n_resamples=options.n_resamples,
                                    seed=options.seed, ci="bootstrap" if options.ci == "bootstrap" else "auto")
        except AssessError as exc:
            notes.append(f"No computational costs: {exc}.")
    slices = found = None
    if source is None and reports:
        try:
            slices = _slices(assessment, models, options)
        except AssessError as exc:
            notes.append(f"No subgroup section: {exc}.")
        try:
            found = _found(assessment, models, options)
        except AssessError as exc:
            notes.append(f"No weak-slice search: {exc}.")
    elif assessment.roles.groups and source is not None:
        notes.append("No subgroup section: slices need the file's rows (run the report with --engine memory).")
    timed = None
    if source is None and reports and has_time(assessment):
        say(0.96, "performance over time")
        try:
            timed = _over_time(assessment, models, options)
        except AssessError as exc:
            notes.append(f"No over-time section: {exc}.")
    elif source is not None and assessment.roles.timestamp:
        notes.append("No over-time section: it needs the file's rows (run the report with --engine memory).")
    if source is not None and assessment.task in TASKS and discovery_columns(assessment):
        notes.append("No weak-slice search: it needs the file's rows (run the report with --engine memory).")
    say(0.98, "layout")
    return replace(report, notes=tuple(notes), misclassification=misclassification, running=running, slices=slices,
                   found=found, outputs=outputs, breakdowns=breakdowns, over_time=timed)


#: Most change sentences per model in the report (the table has every period).
OVER_TIME_SENTENCES = 4


def _over_time(assessment: Assessment, models, options) -> OverTimeFindings:
    """The over-time section: the Over time page's first view (`default_period`, the first period as reference)
    for the metric of the slices section (accuracy, MAE), intervals as the report's metrics (``ci`` "auto" unless
    none was asked for), the tests drawing the report's resamples with its seed."""
    key = default_keys(assessment)[0]
    period = default_period(assessment)
    result = over_time(assessment, period, models=list(models), keys=[key], decision=options.decision,
                       ci=options.ci or "auto", confidence_level=options.confidence_level,
                       n_resamples=options.n_resamples, seed=options.seed, test_resamples=options.n_resamples)
    changes = result.changes.set_index(["model", "period"])
    rows, sentences = [], []
    values = result.metrics.set_index(["model", "period"])
    for p in result.periods.itertuples(index=False):
        v = values.loc[(p.model, p.period)]
        c = changes.loc[(p.model, p.period)] if (p.model, p.period) in changes.index else None
        rows.append({"model": p.model, "period": p.key, "n": int(p.n), "n_labelled": int(p.n_labelled),
                     "value": float(v["value"]), "low": float(v["low"]), "high": float(v["high"]),
                     "reference": bool(p.reference),
                     "difference": float("nan") if c is None else float(c["difference"]),
                     "p_adjusted": float("nan") if c is None else float(c["p_adjusted"])})
    alpha = round(1 - options.confidence_level, 12)
    for model in models:
        found = result.changes[(result.changes["model"] == model) & (result.changes["p_adjusted"] < alpha)]
        # the report has every model: each sentence says whose it is
        sentences += [f"Model {model}: {s}" for s in found["sentence"] if isinstance(s, str)][:OVER_TIME_SENTENCES]
    return OverTimeFindings(result.column, period if isinstance(period, str) else f"{period} windows", key,
                            get(assessment.task, key).name, result.reference_words, tuple(rows), tuple(sentences))


def _slices(assessment: Assessment, models, options) -> SliceFindings | None:
    """Each model's worst slice of the file's subgroup columns by the task's slice metric (accuracy, MAE, …), as the
    Slices page finds it: values without intervals (the slice tests carry the uncertainty), the tests drawing the
    report's resamples with its seed. Without declared subgroups, the column the Slices page opens with
    (`assess.analyses.slices.default_slice_columns`); None when the file has no column to slice by."""
    key = slice_test_metric(assessment.task)
    if key is None:
        return None
    columns, declared = default_slice_columns(assessment, slice_candidates(assessment))
    if not columns:
        return None
    analysis = analyse_slices(assessment, columns, models=list(models), keys=[key], test_keys=[key],
                              decision=options.decision, ci=None, confidence_level=options.confidence_level,
                              seed=options.seed, test_resamples=options.n_resamples)
    rows = []
    for model in models:
        worst = analysis.worst(model, key, count=1)
        if len(worst):
            r = worst.iloc[0]
            p = r["p_adjusted"]    # NaN (left merge) for a slice too small to test
            rows.append({"model": model, "slice": str(r["slice"]), "n": int(r["n"]), "value": float(r["value"]),
                         "overall": float(r["overall"]), "p_adjusted": float("nan") if p is None else float(p)})
    if not rows:
        return None
    return SliceFindings(tuple(columns), key, get(assessment.task, key).name, tuple(rows), analysis.min_size,
                         declared)


#: Discovered slices the report lists per model, worst first (the Slices page lists them all).
FOUND_PER_MODEL = 5


def _found(assessment: Assessment, models, options) -> FoundSlices | None:
    """Each model's weak slices found by the default search of the Slices page's "Find weak slices" (every other
    column, up to two conditions, the task's slice metric); None when the task is not sliced or no column is left."""
    key = slice_test_metric(assessment.task)
    if key is None or assessment.task not in TASKS or not discovery_columns(assessment):
        return None
    rows, looked, found = [], {}, None
    for model in models:
        found = discover(assessment, model, key=key, decision=options.decision,
                         confidence_level=options.confidence_level)
        looked[model] = found.looked_at
        for r in found.discovered.head(FOUND_PER_MODEL).to_dict("records"):
            rows.append({"model": model, "slice": r["label"], **{k: r[k] for k in (
                "n", "value", "low", "high", "rest", "difference", "difference_low", "difference_high",
                "p_adjusted")}})
    return FoundSlices(key, get(assessment.task, key).name, tuple(rows), looked, found.min_size,
                       found.max_conditions)


def _controls(assessment, options) -> tuple:
    """The ISO 5.3 controls the file allows (:mod:`assess.analyses.controls`), or none when they cannot run on it — the
    report's other sections do not depend on them."""
    try:
        return run_controls(assessment, decision=options.decision).outcomes
    except AssessError:
        return ()


def _tests(assessment, models, options, reports):
    """The tests the options name (each with `compare`), or every suitable one (`compare_all`); none for one model.
    The bootstraps draw the report's resamples with its seed (``compare --n-resamples R --seed S``)."""
    if len(models) < 2 or not reports:
        return (), {}, None
    preds = comparison_predictions(assessment, models)   # a multi-output file: the average, as the headline
    resampling = {"n_resamples": options.n_resamples, "seed": options.seed}
    if options.tests is None:
        result = compare_all(preds, models=list(models), metric=options.test_metric, correction=options.correction,
                             confidence_level=options.confidence_level, decision=options.decision, **resampling)
        return tuple(result.comparisons), dict(result.skipped), result.design
    done, skipped = [], {}
    for test in options.tests:
        allowed = {o.name for o in TESTS[test].options_for(PREDICTIONS, assessment.task)} if test in TESTS else set()
        try:
            done.append(compare(preds, test=test, models=list(models), metric=options.test_metric,
                                correction=options.correction, confidence_level=options.confidence_level,
                                decision=options.decision, **{k: v for k, v in resampling.items() if k in allowed}))
        except AssessError as exc:
            skipped[test] = str(exc)
    return tuple(done), skipped, done[0].design if done else None




def _pair_pvalue(comparison, a: str, b: str) -> float | None:
    """The (adjusted, when corrected) p-value of ``a`` against ``b`` in ``comparison``."""
    if comparison is None:
        return None
    if not comparison.pairs and comparison.result is not None and set(comparison.models) == {a, b}:
        return comparison.result.pvalue
    for pair in comparison.pairs:
        if {pair.model_a, pair.model_b} == {a, b}:
            return pair.pvalue_adjusted if np.isfinite(pair.pvalue_adjusted) else pair.result.pvalue
    return None


def _operating_sentence(assessment: Assessment, report: MetricReport, options: ReportOptions) -> str:
    """Binary: what the model does at the decision — the share of positives it finds and of rows it flags."""
    if report.task is not Task.BINARY or not {"recall", "tp", "fp", "n"} <= set(report.keys):
        return ""
    recall = report["recall"]
    if not recall.defined:
        return ""
    flagged = (report["tp"].value + report["fp"].value) / report["n"].value if report["n"].value else np.nan
    d = options.decision
    where = f"at threshold {d.threshold:g}" if d.source == SCORES or (
        d.source == "auto" and assessment.predictions(report.model).y_pred is None) else "with its predicted labels"
    ci = bounds(recall.low, recall.high)
    found = f"{recall.value:.0%}" + (f" ({recall.low:.0%}–{recall.high:.0%})" if ci else "")
    return (f"{where} it finds {found} of {class_phrase(assessment.positive, role='positive')} cases while "
            f"flagging {flagged:.0%} of all rows")


def _recommend(assessment, reports, primary, comparison, options) -> Recommendation:
    if not reports or primary is None:
        return Recommendation("No recommendation: no metric could be computed for every model.", False, None)
    spec = get(assessment.task, primary)
    if len(reports) == 1:
        model, report = next(iter(reports.items()))
        r = report[primary]
        base = {k: v for k, v in r.baselines.items() if np.isfinite(v)}
        base_text = (" against " + ", ".join(f"{number(v)} for the {k.replace('_', ' ')} baseline"
                                             for k, v in base.items())) if base else ""
        operating = _operating_sentence(assessment, report, options)
        return Recommendation(f"Model {model}'s {name_in_sentence(spec.name)} is {value_with_ci(r)}{base_text}"
                              + (f"; {operating}" if operating else "") + ". With one model there is nothing to "
                              "compare it with; judge it against the baselines and the needs of its use.",
                              True, model)
    best = best_models(reports, primary)
    top, runner = leaders(reports, primary)
    r_top = reports[top][primary]
    p = _pair_pvalue(comparison, top, runner)
    test = comparison.result.method if comparison is not None and comparison.result is not None and \
        not comparison.pairs else (comparison.pairs[0].result.method if comparison is not None and comparison.pairs
                                   else None)
    operating = _operating_sentence(assessment, reports[top], options)
    alpha = 1 - options.confidence_level
    head = leader_text(reports, primary)   # the Metrics page's best-model sentence says the same
    if len(best) > 1:
        return Recommendation(f"The data cannot separate models {' and '.join(sorted(best))}: they tie on "
                              f"{name_in_sentence(spec.name)} ({number(r_top.value)}). Choose on other grounds "
                              "(cost, simplicity, calibration) or collect more data.", False, None)
    if p is not None and np.isfinite(p) and p < alpha:
        # no "Recommended:" lead: the report's heading says "Recommendation." and `separated` marks it in the JSON
        return Recommendation(head + (f"; {operating}" if operating else "")
                              + f". It beats model {runner}" + (f" ({test}, {p_value(p, alpha)})" if test else "")
                              + ".", True, top)
    why = (f"{test}, {p_value(p, alpha)}" if p is not None and np.isfinite(p) and test else
           "no test compared them")
    return Recommendation(f"The data cannot separate model {top} from model {runner} ({why}): "
                          f"{head[:1].lower() + head[1:]}. The difference may be "
                          "chance; do not crown a winner on these data — collect more, or choose on other grounds "
                          "(cost, simplicity, calibration).", False, None)
