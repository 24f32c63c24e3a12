"""``python -m assess report FILE --out report.pdf|report.html|report.zip``: the assessment report (SPEC "Report").

The numbers are those of ``metrics --ci auto`` and ``compare --test all`` with the same settings (both come from
`assess.present.report.build_report`); ``--config`` applies a settings file saved from the app (`assess.present.settings`), and the
flags given on the command line win over it. Progress goes to stderr; the file is written atomically (a temporary
file renamed into place), so a failure never leaves a half-written report.
"""

from __future__ import annotations

import sys
import time

import argparse
import shlex
from dataclasses import replace
from pathlib import Path

from assess.cli.common import (EXIT_STATUS, add_decision_options, add_input_options, decision_from_args,
                               followed, load_assessment, overrides_from_args)
from assess.cli.engine import add_engine_options, chosen_engine
from assess.cli.progress import doing, say
from assess.core.errors import AssessError
from assess.metrics import CI_METHODS
from assess.present.report import FORMATS, ReportOptions, build_report, format_of, write_report
from assess.present.report.render import PAPERS
from assess.inputs.assessment import Assessment
from assess.present.settings import (CONFIDENCE_LEVEL, RESAMPLES, SEED, Settings, fit_args, ranged, report_options,
                                     settings_from_args)
from assess.stats import CORRECTIONS, TEST_NAMES
from assess.core.defaults import DEFAULT_RESAMPLES


def add_parser(sub) -> None:
    parser = sub.add_parser("report", help="the assessment report as PDF, self-contained HTML or a ZIP of tables",
                            description="Write the ISO/IEC TS 4213 clause 8 assessment report of FILE: a summary "
                                        "page, metrics with intervals and baselines, every chart with a caption, the "
                                        "significance tests, the ISO 5.3 control checklist and a reproducibility "
                                        "appendix. The format follows --out's extension: " + ", ".join(FORMATS) + ".",
                            epilog=EXIT_STATUS)
    add_input_options(parser)
    parser.add_argument("--out", required=True, metavar="PATH", help="report.pdf, report.html or report.zip")
    parser.add_argument("--models", nargs="+", metavar="M", help="only these models (default: all)")
    parser.add_argument("--metrics", nargs="+", metavar="KEY", help="only these metric keys (default: all that apply)")
    parser.add_argument("--paper", choices=list(PAPERS), default=None, help="PDF paper size (default a4)")
    parser.add_argument("--ci", choices=[m for m in CI_METHODS if m], default=None,
                        help="confidence-interval method (default auto)")
    parser.add_argument("--confidence-level", type=ranged(CONFIDENCE_LEVEL), default=None,
                        help=f"level of every interval, {CONFIDENCE_LEVEL} (default 0.95)")
    parser.add_argument("--resamples", dest="n_resamples", type=ranged(RESAMPLES), default=None,
                        help=f"bootstrap resamples, {RESAMPLES} (default {DEFAULT_RESAMPLES:,})")
    parser.add_argument("--seed", type=ranged(SEED), default=None, help=f"bootstrap seed, {SEED} (default 0)")
    parser.add_argument("--tests", nargs="+", choices=TEST_NAMES, metavar="TEST",
                        help="significance tests to run (default: every test suited to the data, as compare --test "
                             "all)")
    parser.add_argument("--test-metric", metavar="KEY", help="metric the metric-based tests compare (e.g. roc_auc)")
    parser.add_argument("--correction", choices=["auto", *CORRECTIONS], default=None,
                        help="multiple-comparison correction (default: holm; nemenyi for friedman)")
    parser.add_argument("--title", help="the report's title")
    add_decision_options(parser)
    add_engine_options(parser)
    parser.add_argument("--mlflow-run", metavar="ID",
                        help="also log the report's metrics (with their bounds as KEY_low, KEY_high), its settings and "
                             "the report file to the MLflow run ID, on the tracking server of MLFLOW_TRACKING_URI "
                             "(needs assess[mlflow])")
    parser.set_defaults(run=followed(run))


class StderrProgress:
    """One line on stderr per stage of the work, and every 10 % within a stage."""

    def __init__(self) -> None:
        self.stage, self.step, self.start = None, -1, time.perf_counter()

    def __call__(self, fraction: float, what: str) -> None:
        step = int(fraction * 10)
        if what != self.stage or step != self.step:
            self.stage, self.step = what, step
            say(f"[{fraction:4.0%}] {what} ({time.perf_counter() - self.start:.1f} s)")


def options_from_args(args: argparse.Namespace, settings: Settings, assessment: Assessment) -> ReportOptions:
    """The report's options: the command line's flags (completed from ``--config`` by `settings_from_args`), then
    the settings; the command that reproduces the report names the settings saved in its appendix."""
    decision = decision_from_args(args, assessment.task, assessment.classes)
    command = shlex.join(["python", "-m", "assess", "report", Path(args.file).name, "--config", "settings.json",
                          "--out", Path(args.out).name])
    flags = overrides_from_args(args)  # the role flags given here go into the appendix's settings too
    chosen = replace(settings, roles=dict(settings.roles) | dict(flags.roles),
                     positive=assessment.names.file_class(assessment.positive) if assessment.positive else None,
                     class_order=flags.class_order or settings.class_order, display_names=assessment.names,
                     models=tuple(args.models) if args.models else settings.models,
                     metrics=tuple(args.metrics) if args.metrics else settings.metrics,
                     ci=args.ci or settings.ci, confidence_level=args.confidence_level or settings.confidence_level,
                     n_resamples=args.n_resamples or settings.n_resamples,
                     seed=settings.seed if args.seed is None else args.seed,
                     tests=tuple(args.tests) if args.tests else settings.tests,
                     test_metric=args.test_metric or settings.test_metric,
                     correction=args.correction or settings.correction, title=args.title or settings.title,
                     paper=args.paper or settings.paper, labels_from=decision.source,
                     threshold=decision.threshold if decision.source == "scores" else None,
                     label_thresholds=dict(decision.per_label))
    return report_options(chosen, assessment, decision=decision, command=command)


def run(args) -> int:
    fmt = format_of(args.out)  # a wrong extension fails before any work
    engine, source = chosen_engine(args), None
    if engine != "memory":   # out of core: the engines' reports and paired tests (assess.engine.report)
        from assess.engine.report import open_report_source
        from assess.engine.source import resolve_source

        settings = settings_from_args(args)
        assessment, source = open_report_source(resolve_source(args.file), engine, overrides_from_args(args),
                                                settings=settings, spark_master=args.spark_master)
        for note in fit_args(args, assessment, all_rows=False):   # load_assessment says them in memory
            print(f"warning: {note}", file=sys.stderr)
    else:
        assessment = load_assessment(args)  # applies --config (roles, positive class, display names; task checked)
    if assessment.errors:
        raise AssessError(f"{assessment.table.name}: {assessment.errors[0].message}")
    settings = settings_from_args(args)
    options = replace(options_from_args(args, settings, assessment), charts=fmt != "zip")
    doing("building the report")
    progress = (lambda fraction, what: None) if args.quiet else StderrProgress()
    report = build_report(assessment, options, progress=progress, source=source)
    write_report(report, args.out, paper=args.paper or settings.paper,
                 progress=lambda f, what: progress(0.98, what))
    print(f"wrote {args.out} ({fmt.upper()})", file=sys.stderr)
    if args.mlflow_run:
        from assess.integrations.mlflow import log
        from assess.present.report.render import report_document

        log(report_document(report)["metrics"], args.mlflow_run, artifacts=[args.out])
        print(f"logged to MLflow run {args.mlflow_run}", file=sys.stderr)
    return 0
