"""``python -m assess metrics FILE``: every metric per model, as SPEC's JSON contract (or CSV / a text table).

JSON: ``{"task", "n", "models": {model: {key: value-or-null}}}``; with ``--ci`` each value is
``{"value", "low", "high"}``. Beside those contract keys: ``"settings"`` (for classification where labels come from,
the threshold, beta, k; always the interval method, confidence_level, resamples — "up to N" under ``--ci auto`` —,
seed), ``"undefined"`` (model → key →
the reason it is null) and, for classification only, ``"positive"`` and ``"classes"``. Regression and forecast files
give the 13 SPEC regression keys; forecasts add ``mase``, ``mase_seasonal`` and, with a prediction interval,
``coverage``, ``interval_width``, ``winkler_score`` (pooled over every row under ``"models"``), and the same keys per
horizon and per series: ``"by_horizon": {model: {horizon: {key: value}}}`` and ``"by_series": {model: {series: {key:
value}}}`` (with ``--ci``, ``{value, low, high}`` as above; horizons as strings, "1", "2", …); a file without a
horizon (or series) column has ``"by_horizon": null`` (``"by_series": null``) and the reason under
``"undefined_breakdowns"``. A binary or multi-class file with unlabelled rows (an empty truth) adds ``"n_unlabelled"``
and ``"estimated": {model: {key: {value, low, high}, "calibration", "assumption", …}}``, the CBPE estimate of
accuracy, precision, recall, F1 and ROC AUC on those rows (`assess.analyses.estimation`; null with the reason under
``"undefined_estimated"`` for a model without probability scores). A multi-output
regression file (column pairs ``y_true_<name>``/``y_pred_<name>``) gives under ``"models"`` the uniform average over
its outputs, with ``"outputs"`` (their names), ``"by_output"`` (model → output → key → value),
``"variance_weighted"`` (model → ``r2``/``explained_variance``) and, when some per-output value is null,
``"undefined_by_output"``; the CSV and the table list each output and both averages. A multi-class (multi-label)
file adds its per-class (per-label) table, the one the Metrics page and the report show: under ``"per_class"``
(``"per_label"``) in the JSON, and in the CSV as rows after the metrics' with a ``class`` (``label``) column. The numbers come from
`assess.metrics.document` (`compute_metrics`, `forecast_breakdowns`, `metrics_document`), as the Metrics page's
download is. ``--slice``/``--by-fold`` add their keys (`assess.cli.slices`), ``--by-time`` adds ``"by_time"``
(`assess.cli.over_time`).
"""

from __future__ import annotations

import sys

import pandas as pd

from assess.cli import SUMMARIES, cost_section
from assess.cli import over_time as over_time_cli
from assess.cli import slices as slices_cli
from assess.cli.common import (EXIT_STATUS, add_decision_options, add_input_options, config_out_of_core,
                               decision_from_args, followed, is_large, json_ready, load_assessment,
                               overrides_from_args, print_json)
from assess.cli.option_values import level, whole
from assess.cli.engine import add_engine_options, chosen_engine, engine_metrics_doc, run_engine_metrics
from assess.cli import progress as progress_module
from assess.cli.progress import StderrProgress, doing
from assess.core.errors import AssessError
from assess.metrics import CI_METHODS, get
from assess.core.data import Task
from assess.metrics.document import assessment_document, compute_metrics, forecast_breakdowns
from assess.present.settings import BETA, CONFIDENCE_LEVEL, K, RESAMPLES, SEED, ranged
from assess.core.defaults import DEFAULT_RESAMPLES


#: The ``output`` column of the CSV (and the heading of the table) for the averages of a multi-output file.
AVERAGE, VARIANCE_WEIGHTED = "(uniform average)", "(variance-weighted average)"


def add_parser(sub) -> None:
    parser = sub.add_parser("metrics", help=SUMMARIES["metrics"],
                            description="Compute the metrics of every model in FILE. Keys follow the SPEC contract; "
                                        "undefined values are null with their reason under 'undefined'.",
                            epilog=EXIT_STATUS)
    add_input_options(parser)
    parser.add_argument("--metrics", nargs="+", metavar="KEY", help="only these metric keys (default: all that apply)")
    parser.add_argument("--models", nargs="+", metavar="M", help="only these models (default: all)")
    parser.add_argument("--beta", type=ranged(BETA), default=1.0, help=f"beta of fbeta, {BETA} (default 1)")
    parser.add_argument("--k", type=ranged(K), default=2, help=f"k of top_k_accuracy, {K} (default 2)")
    parser.add_argument("--ci", choices=[m for m in CI_METHODS if m], help="confidence-interval method")
    parser.add_argument("--confidence-level", "--ci-level", dest="confidence_level", type=ranged(CONFIDENCE_LEVEL),
                        default=0.95, help=f"confidence level of the intervals, {CONFIDENCE_LEVEL} (default 0.95); "
                                           "--ci-level is the same option")
    parser.add_argument("--resamples", dest="n_resamples", type=ranged(RESAMPLES), default=DEFAULT_RESAMPLES,
                        help=f"bootstrap resamples, {RESAMPLES} (default {DEFAULT_RESAMPLES:,}); under --ci auto the "
                             "most drawn: a bootstrap stops once its bounds are as precise as shown")
    parser.add_argument("--seed", type=ranged(SEED), default=0, help=f"bootstrap seed, {SEED} (default 0)")
    parser.add_argument("--bootstrap-method", choices=["percentile", "bca"], default="percentile",
                        help="bootstrap interval: percentile (default) or bias-corrected and accelerated (BCa)")
    parser.add_argument("--season", type=whole(1), metavar="M",
                        help="forecasts: season length of mase_seasonal (default: from the time stamps, e.g. 12 for "
                             "monthly)")
    parser.add_argument("--interval-level", type=level, metavar="L",
                        help="forecasts: nominal level of the lower/upper interval when the column names do not say "
                             "it (e.g. 0.9); the Winkler score needs it")
    parser.add_argument("--format", choices=["json", "csv", "table"], default="json")
    add_decision_options(parser)
    slices_cli.add_options(parser)
    over_time_cli.add_options(parser)
    cost_section.add_options(parser)
    add_engine_options(parser)
    parser.add_argument("--mlflow-run", metavar="ID",
                        help="also log every metric (with --ci, its bounds as KEY_low, KEY_high), the settings and this "
                             "JSON to the MLflow run ID, on the tracking server of MLFLOW_TRACKING_URI (needs "
                             "assess[mlflow])")
    parser.set_defaults(run=followed(run))


def run(args) -> int:
    if (args.slices or args.by_fold or args.by_time) and args.format != "json":
        raise AssessError("--slice, --by-fold and --by-time add keys to the JSON output; use --format json")
    engine = chosen_engine(args)
    if engine != "memory":   # out of core (assess.engine): binary files, JSON
        if args.slices or args.by_fold or args.by_time:
            raise AssessError(f"--slice, --by-fold and --by-time need the in-memory engine (--engine memory); the "
                              f"{engine} engine computes the pooled metrics only")
        config_out_of_core(args, engine)
        # the decision flags are checked against the task the engine recognises (binary/multi-class alike here)
        decision = decision_from_args(args, Task.BINARY)
        doing(f"computing the metrics out of core ({engine})")
        engine_run = run_engine_metrics(args, engine, decision, overrides_from_args(args))
        doc = engine_metrics_doc(engine_run, metrics_settings(args, decision))
        _to_mlflow(args, doc)
        if args.format != "json":
            return _write_table(engine_run.reports, args)
        print_json(doc)
        return 0
    assessment = load_assessment(args)
    if assessment.errors:
        raise AssessError(f"{assessment.table.name}: {assessment.errors[0].message}")
    if args.metrics:
        for key in args.metrics:
            get(assessment.task, key)  # AssessError listing the valid keys
    decision = decision_from_args(args, assessment.task, assessment.classes)
    # Bootstrap intervals take a while, and so does every metric of a large file: say how far they are, model by
    # model (analytic intervals are instant).
    name = assessment.table.name
    progress = None
    if args.ci and not args.quiet:
        up_to = "up to " if args.ci == "auto" else ""
        progress = StderrProgress(f"{name}: intervals ({up_to}{args.n_resamples:,} bootstrap resamples where no "
                                  "analytic interval exists)", after=progress_module.SHOW_AFTER_SECONDS)
    elif is_large(assessment.table) and not args.quiet:
        progress = StderrProgress(f"{name}: metrics of {len(assessment.models):,} model(s)")
    doing("computing the metrics" + (" and their intervals" if args.ci else ""))
    settings = metrics_settings(args, decision)
    computed = compute_metrics(assessment, settings, progress=progress)
    reports = {m: r.average for m, r in computed.items()} if assessment.outputs else computed
    if args.format != "json" and not args.mlflow_run:
        return _write_table(reports, args, computed if assessment.outputs else None)
    doc = document(assessment, args, settings, computed, decision)
    _to_mlflow(args, doc)
    if args.format != "json":
        return _write_table(reports, args, computed if assessment.outputs else None)
    print_json(json_ready(doc))
    return 0


def document(assessment, args, settings, computed: dict, decision) -> dict:
    """The metrics document of an in-memory assessment (``--format json``) from its ``computed`` reports: the
    metrics, the forecast breakdowns, and the slices, folds, periods and costs the options ask for. The one home of
    these steps for the command and `assess.Assessment.document`."""
    reports = {m: r.average for m, r in computed.items()} if assessment.outputs else computed
    breakdowns = forecast_breakdowns(assessment, settings, tuple(reports)) \
        if assessment.task is Task.FORECAST else None
    doc = assessment_document(assessment, settings, computed, breakdowns=breakdowns)
    slices_cli.extend(doc, assessment, args, decision, list(reports))
    over_time_cli.extend(doc, assessment, args, decision, list(reports))
    if assessment.n_unlabelled:   # rows without labels: their CBPE estimate (issue 35)
        from assess.analyses.estimation import estimated_section   # only then: it needs scikit-learn and SciPy
        doc |= estimated_section(assessment, list(reports), decision=decision, level=args.confidence_level,
                                 n_resamples=args.n_resamples, seed=args.seed)
    if cost_section.wanted(assessment, args):  # ISO 4213 6.6: latency, throughput, energy, efficiency
        doc |= cost_section.section(assessment, args, reports, decision)
    return doc


def _to_mlflow(args, doc: dict) -> None:
    """``--mlflow-run``: the document logged to that run (`assess.integrations.mlflow`)."""
    if args.mlflow_run:
        from assess.integrations.mlflow import log

        doing(f"logging to MLflow run {args.mlflow_run}")
        log(json_ready(doc), args.mlflow_run)


def metrics_settings(args, decision):
    """The `assess.metrics.document.MetricsSettings` of ``assess metrics``'s options, as the Metrics page makes
    them from its widgets."""
    from assess.metrics.document import MetricsSettings

    return MetricsSettings(models=tuple(args.models) if args.models else None,
                           keys=tuple(args.metrics) if args.metrics else None, decision=decision, beta=args.beta,
                           k=args.k, ci=args.ci, confidence_level=args.confidence_level, n_resamples=args.n_resamples,
                           seed=args.seed, bootstrap_method=args.bootstrap_method, season=getattr(args, "season", None),
                           interval_level=getattr(args, "interval_level", None))


def _write_table(reports: dict, args, by_model=None) -> int:
    """``--format csv`` (one row per model and metric) or ``table`` (a block per model, and per output of a
    multi-output regression) on standard output."""
    if args.format == "csv":
        from assess.present.export import to_csv_bytes   # plotly and the charts: imported only for CSV (fast start)
        from assess.present.summary import long_frame

        frame = long_frame(reports) if by_model is None else _outputs_long_frame(by_model)
        if by_model is None:
            frame = _with_per_class(frame, reports)
        sys.stdout.write(to_csv_bytes(frame).decode("utf-8"))
        return 0
    if args.format == "table":
        from assess.core.formatting import number

        blocks = {m: {"": r} for m, r in reports.items()} if by_model is None else {
            m: {AVERAGE: r.average, VARIANCE_WEIGHTED: r.variance_weighted_report} | dict(r.by_output)
            for m, r in by_model.items()}
        for model, report, output in ((m, r, o) for m, views in blocks.items() for o, r in views.items()):
            print(f"{model}{f'  output {output}' if output else ''}  (n = {report.n:,})")
            for r in report.results:
                ci = f"  [{number(r.low)}, {number(r.high)}]" if args.ci and r.method else ""
                # an undefined value's reason; a defined one's note (a macro average without its undefined labels)
                why = f"  ({r.reason})" if r.reason else f"  (note: {r.note})" if r.note else ""
                print(f"  {r.key:<34}{number(r.value, count=get(report.task, r.key).kind == 'count'):>12}{ci}{why}")
        return 0


def _with_per_class(frame: pd.DataFrame, reports: dict) -> pd.DataFrame:
    """The metrics' rows, then (multi-class, multi-label) one row per model, class (label) and column of the
    per-class table the Metrics page and the report show (`per_class_frame`), under a ``class`` (``label``) column
    that is empty in the metrics' rows."""
    from assess.metrics.registry import table_for
    from assess.present.summary import per_class_frame

    per_class = per_class_frame(reports)
    if per_class is None:
        return frame
    level = per_class.columns[1]                         # "class" or "label": the tables' index name
    names = {c.key: c.name for c in table_for(next(iter(reports.values())).task)}
    rows = per_class.set_index(["model", level]).stack().rename_axis(["model", level, "key"]).rename("value")
    rows = rows.reset_index()                             # model by model, class by class, the table's columns
    rows.insert(3, "name", rows["key"].map(names))
    frame = frame.copy()
    frame.insert(1, level, None)
    return pd.concat([frame, rows], ignore_index=True)


def _outputs_long_frame(by_model) -> pd.DataFrame:
    """`long_frame` of a multi-output file: one row per model, output and metric, the averages first."""
    from assess.present.summary import long_frame

    views = {AVERAGE: lambda r: r.average, VARIANCE_WEIGHTED: lambda r: r.variance_weighted_report}
    first = next(iter(by_model.values()))
    views |= {name: (lambda r, name=name: r.by_output[name]) for name in first.outputs}
    frames = []
    for output, pick in views.items():
        frame = long_frame({m: pick(r) for m, r in by_model.items()})
        frame.insert(1, "output", output)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)
