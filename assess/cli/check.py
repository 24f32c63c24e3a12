"""``python -m assess check FILE --require "roc_auc>=0.85" …``: gates for pipelines (`assess.analyses.gates`).

Exit status: 0 when every requirement holds for every chosen model, 1 when one fails, 2 on bad input (an unreadable
requirement, an unknown metric key or model, and every bad input of the other commands), 70 on an internal error.
The table (``--format text``, the default) has one row per requirement and model: value, interval, verdict;
``--format json`` the same rows for machines; ``--junit PATH`` writes JUnit XML (one test case per requirement and
model, a ``<failure>`` with the reason) that CI systems display. ``--config`` supplies the settings file's
``"requirements"`` when no ``--require`` is given.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from assess.cli import SUMMARIES
from assess.cli.common import EXIT_STATUS as COMMON_EXIT_STATUS
from assess.cli.common import (add_decision_options, add_input_options,
                               decision_from_args, followed, load_assessment, print_json)
from assess.core.defaults import DEFAULT_RESAMPLES
from assess.core.errors import AssessError
from assess.present.settings import BETA, CONFIDENCE_LEVEL, K, RESAMPLES, SEED, ranged, settings_from_args

#: A requirement that fails.
EXIT_FAILED = 1
#: The shared convention, and the gate's own status: 0 means every requirement holds for every chosen model.
EXIT_STATUS = (f"{COMMON_EXIT_STATUS} Here 0 means every requirement holds for every chosen model, {EXIT_FAILED} "
               "that one fails; an unreadable requirement or an unknown metric key is bad input.")


def add_parser(sub) -> None:
    from assess.analyses.gates import GRAMMAR

    parser = sub.add_parser("check", help=SUMMARIES["check"],
                            description="Check requirements on the metrics of every model in FILE and exit 1 when "
                                        f"one fails: a gate for a pipeline. A requirement is {GRAMMAR}. low()/high() "
                                        "read the bounds of the interval 'metrics --ci auto' gives; better() runs the "
                                        "test the test registry recommends for the metric (p < 0.05, and the model "
                                        "ahead); 'baseline' is the majority-class predictor (classification) or the "
                                        "mean predictor (regression). An undefined value fails with its reason.",
                            epilog=EXIT_STATUS)
    add_input_options(parser)
    parser.add_argument("--require", dest="requirements", action="append", metavar="REQ",
                        help="a requirement, e.g. 'roc_auc>=0.85', 'low(recall)>=0.7', 'better(roc_auc, baseline)'; "
                             "repeat for several (default: the settings file's \"requirements\")")
    parser.add_argument("--models", "--model", dest="models", nargs="+", metavar="M",
                        help="the models every requirement must hold for (default: all)")
    parser.add_argument("--confidence-level", type=ranged(CONFIDENCE_LEVEL), default=0.95,
                        help=f"level of the intervals low() and high() read, {CONFIDENCE_LEVEL} (default 0.95)")
    parser.add_argument("--resamples", dest="n_resamples", type=ranged(RESAMPLES), default=DEFAULT_RESAMPLES,
                        help=f"most bootstrap resamples of an interval, {RESAMPLES} (default {DEFAULT_RESAMPLES:,})")
    parser.add_argument("--seed", type=ranged(SEED), default=0, help=f"bootstrap seed, {SEED} (default 0)")
    parser.add_argument("--beta", type=ranged(BETA), default=1.0, help=f"beta of fbeta, {BETA} (default 1)")
    parser.add_argument("--k", type=ranged(K), default=2, help=f"k of top_k_accuracy, {K} (default 2)")
    parser.add_argument("--junit", metavar="PATH", help="also write the verdicts as JUnit XML to PATH")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    add_decision_options(parser)
    parser.set_defaults(run=followed(run))


def run(args) -> int:
    from assess.analyses.gates import check_requirements, parse_requirements

    settings_from_args(args)                # --config: its "requirements" when no --require was given
    parse_requirements(args.requirements)   # an unreadable (or no) requirement is refused before the file is read
    assessment = load_assessment(args)
    if assessment.errors:
        raise AssessError(f"{assessment.table.name}: {assessment.errors[0].message}")
    decision = decision_from_args(args, assessment.task, assessment.classes)
    report = check_requirements(assessment, args.requirements, models=args.models, level=args.confidence_level,
                                decision=decision, beta=args.beta, k=args.k, n_resamples=args.n_resamples,
                                seed=args.seed)
    if args.junit:
        write_junit(report, args.junit, name=f"assess check {Path(args.file).name}")
    if args.format == "json":
        print_json({"file": Path(args.file).name, "task": assessment.task.value} | report.to_dict())
    else:
        print_table(report)
    return 0 if report.passed else EXIT_FAILED


def print_table(report) -> None:
    """Requirement × model: value, interval, verdict; then one line with the count that failed."""
    from assess.core.formatting import UNDEFINED, bounds, number, percent_level

    header = ("Requirement", "Model", "Value", "Interval", "Verdict")
    lines = [(r.requirement, r.model, number(r.value), bounds(r.low, r.high) or UNDEFINED, r.message) for r in report.rows]
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(header[:-1])]
    for line in (header, *lines):
        print("  ".join(cell.ljust(w) for cell, w in zip(line, widths)) + "  " + line[-1])
    failed = len(report.failed)
    print(f"\n{'PASSED' if report.passed else 'FAILED'}: {len(report.rows) - failed:,} of {len(report.rows):,} "
          f"checks hold ({percent_level(report.confidence_level)} intervals; better() at p < {report.alpha:g})")


def write_junit(report, path: str, *, name: str) -> None:
    """JUnit XML: one ``<testsuite>`` with one ``<testcase>`` per requirement and model (``classname`` the model,
    ``name`` the requirement), a ``<failure>`` with the verdict on each that fails."""
    suite = ET.Element("testsuite", name=name, tests=str(len(report.rows)), failures=str(len(report.failed)),
                       errors="0", skipped="0")
    for row in report.rows:
        case = ET.SubElement(suite, "testcase", classname=row.model, name=row.requirement)
        if not row.passed:
            failure = ET.SubElement(case, "failure", message=row.message, type="RequirementFailed")
            failure.text = row.message
        else:
            ET.SubElement(case, "system-out").text = row.message
    root = ET.Element("testsuites", tests=suite.get("tests"), failures=suite.get("failures"))
    root.append(suite)
    ET.indent(root)
    try:
        ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
    except OSError as exc:
        raise AssessError(f"--junit: cannot write {path} ({exc.strerror or exc})") from None
