"""``python -m assess plan``: how many labelled rows a question needs, and what a file's rows can detect.

Three forms (`assess.stats.planning`), each printing ``{"n": int, "method": …, "inputs": {…}}`` (``n`` null with a
``"reason"`` when no number of rows answers):

- precision of one metric: ``plan --metric accuracy --expected 0.9 --half-width 0.02 [--method
  wilson|wald|clopper-pearson]``; ``--metric roc_auc`` takes ``--prevalence`` (Hanley & McNeil 1982);
- a difference between two models: ``plan --test mcnemar --p10 A --p01 B [--power 0.8 --alpha 0.05]`` (paired,
  Connor 1987), ``--test two-proportions --p1 --p2`` (independent samples; ``"n_per_group"`` beside ``n``),
  ``--test delong --auc1 --auc2 --correlation R --prevalence P`` (two correlated ROC AUCs, Obuchowski);
- from a file: ``plan FILE [--models A B] [--metric accuracy|roc_auc|mae]`` with the role options of ``metrics``:
  adds ``"detectable_difference"``, ``"observed_difference"``, ``"n_file"``, ``"more"`` (rows beyond the file's)
  and the ``"sentence"`` for the meeting; ``n`` is the rows the observed difference would need.
"""

from __future__ import annotations

from assess.cli import SUMMARIES
from assess.cli.common import (EXIT_STATUS, add_decision_options, add_input_options, decision_from_args, followed,
                               load_assessment, print_json)
from assess.cli.option_values import level
from assess.core.data import Task
from assess.core.errors import AssessError
from assess.present.settings import CONFIDENCE_LEVEL, ranged

TESTS = ("mcnemar", "two-proportions", "delong")
#: The options each form needs (the first group) and takes.
_NEEDS = {"mcnemar": ("p10", "p01"), "two-proportions": ("p1", "p2"),
          "delong": ("auc1", "auc2", "correlation", "prevalence")}


def add_parser(sub) -> None:
    parser = sub.add_parser("plan", help=SUMMARIES["plan"],
                            description="Plan a test set: the rows for a confidence interval of a given half-width "
                                        "(--metric --expected --half-width), the rows to detect a difference between "
                                        "two models (--test mcnemar|two-proportions|delong), or, given FILE, the "
                                        "smallest difference its rows detect and the rows the observed difference "
                                        "would need.",
                            epilog=EXIT_STATUS)
    add_input_options(parser, file_optional=True)
    parser.add_argument("--metric", metavar="KEY",
                        help="without FILE: a proportion metric (accuracy, recall, …) or roc_auc whose interval "
                             "should be --half-width wide; with FILE: accuracy (default), roc_auc (binary) or mae")
    parser.add_argument("--expected", type=level, metavar="P", help="the metric's expected value, e.g. 0.9")
    parser.add_argument("--half-width", type=level, metavar="H", help="the interval's half-width, e.g. 0.02")
    parser.add_argument("--method", choices=["wilson", "wald", "clopper-pearson"], default="wilson",
                        help="interval of a proportion (default wilson)")
    parser.add_argument("--confidence-level", type=ranged(CONFIDENCE_LEVEL), default=0.95,
                        help=f"level of the interval, {CONFIDENCE_LEVEL} (default 0.95)")
    parser.add_argument("--test", choices=TESTS,
                        help="detect a difference: mcnemar (paired accuracies, --p10 --p01), two-proportions "
                             "(independent samples, --p1 --p2), delong (two ROC AUCs on the same cases, --auc1 "
                             "--auc2 --correlation --prevalence)")
    for flag, text in (("--p10", "expected share of rows model A gets right and B wrong"),
                       ("--p01", "expected share of rows model A gets wrong and B right"),
                       ("--p1", "expected accuracy of model A"), ("--p2", "expected accuracy of model B"),
                       ("--auc1", "expected ROC AUC of model A"), ("--auc2", "expected ROC AUC of model B"),
                       ("--prevalence", "share of positive rows (roc_auc, delong)")):
        parser.add_argument(flag, type=_share, metavar="P", help=text)
    parser.add_argument("--correlation", type=float, metavar="R",
                        help="delong: correlation of the two AUC estimates (0.3–0.6 is usual on the same cases)")
    parser.add_argument("--power", type=level, default=0.8, help="power to reach (default 0.8)")
    parser.add_argument("--alpha", type=level, default=0.05, help="significance level, two-sided (default 0.05)")
    parser.add_argument("--models", nargs=2, metavar="M", help="with FILE: the two models (default: the file's two)")
    parser.add_argument("--format", choices=["json", "text"], default="json",
                        help="json (default) or text: the answer in one sentence")
    add_decision_options(parser)
    parser.set_defaults(run=run)


def _share(text: str) -> float:
    """A share of rows: 0 to 1 (checked again, with the other figures, by `assess.stats.planning`)."""
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be from 0 to 1 (got {text!r})")
    return value


def run(args) -> int:
    from assess.stats import planning

    if args.file:
        plan = followed(_from_file)(args)
    elif args.test:
        missing = [f"--{name}" for name in _NEEDS[args.test] if getattr(args, name) is None]
        if missing:
            raise AssessError(f"--test {args.test} needs {' and '.join(missing)}")
        if args.test == "mcnemar":
            plan = planning.mcnemar_rows(args.p10, args.p01, power=args.power, alpha=args.alpha)
        elif args.test == "two-proportions":
            plan = planning.two_proportions_rows(args.p1, args.p2, power=args.power, alpha=args.alpha)
        else:
            plan = planning.correlated_aucs_rows(args.auc1, args.auc2, correlation=args.correlation,
                                                 prevalence=args.prevalence, power=args.power, alpha=args.alpha)
    elif args.metric or args.expected or args.half_width:
        plan = _precision(args)
    else:
        raise AssessError("plan needs a question: --metric K --expected P --half-width H (precision), --test "
                          "mcnemar|two-proportions|delong with its figures (a difference), or a FILE")
    if args.format == "text":
        print(planning.plan_sentence(plan))
    else:
        print_json(plan.to_dict())
    return 0


def _precision(args):
    from assess.metrics import get
    from assess.stats import planning

    missing = [flag for flag, value in (("--metric", args.metric), ("--expected", args.expected),
                                        ("--half-width", args.half_width)) if value is None]
    if missing:
        raise AssessError(f"the rows for an interval's half-width need {' and '.join(missing)}")
    if args.metric == "roc_auc":
        if args.prevalence is None:
            raise AssessError("--metric roc_auc needs --prevalence (the share of positive rows)")
        return planning.rows_for_auc_half_width(args.expected, args.half_width, prevalence=args.prevalence,
                                                confidence_level=args.confidence_level)
    spec = get(Task.BINARY, args.metric)   # an unknown key: AssessError listing the valid ones
    if spec.kind != "proportion":
        raise AssessError(f"--metric {args.metric}: {spec.name} is not a proportion; plan an interval's half-width "
                          "for a proportion (accuracy, recall, precision, …) or roc_auc")
    return planning.rows_for_half_width(args.expected, args.half_width, method=args.method,
                                        confidence_level=args.confidence_level, metric=args.metric)


def _from_file(args):
    from assess.stats import planning

    assessment = load_assessment(args)
    if assessment.errors:
        raise AssessError(f"{assessment.table.name}: {assessment.errors[0].message}")
    unknown = [m for m in args.models or () if m not in assessment.models]
    if unknown:
        raise AssessError(f"{assessment.table.name}: no model {unknown[0]!r} (models: {', '.join(assessment.models)})")
    decision = decision_from_args(args, assessment.task, assessment.classes)
    return planning.plan_from_file(assessment, args.models, metric=args.metric, decision=decision, power=args.power,
                                   alpha=args.alpha)
