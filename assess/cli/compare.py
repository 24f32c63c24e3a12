"""``python -m assess compare FILE --test NAME``: significance tests between models, as JSON (SPEC "Command line").

FILE is a predictions file (models aligned by ``id``) or a tidy table of per-fold scores (``model``, ``fold``,
metric columns). Two models give one result; more give the omnibus test (where there is one) and every pair with
adjusted p-values under ``"pairs"``. ``--test all`` runs every test that suits the data.
"""

from __future__ import annotations

from dataclasses import replace

from assess.cli.common import add_input_options, json_ready, load_assessment, print_json
from assess.errors import AssessError
from assess.io import Limits, read_table
from assess.stats import CORRECTIONS, TEST_NAMES, compare, compare_all
from assess.stats.inputs import is_fold_table, read_fold_table


def add_parser(sub) -> None:
    parser = sub.add_parser("compare", help="significance tests between models (McNemar, DeLong, Friedman, …)",
                            description="Run a significance test between the models of FILE and print the result as "
                                        "JSON: statistic, p-value, effect with CI, assumptions, a sentence.")
    add_input_options(parser)
    parser.add_argument("--test", required=True, choices=[*TEST_NAMES, "all"], help="the test to run")
    parser.add_argument("--models", nargs="+", metavar="M", help="models to compare (default: all)")
    parser.add_argument("--metric", help="metric key (predictions) or metric column (fold table) the test compares")
    parser.add_argument("--correction", choices=["auto", *CORRECTIONS], default="auto",
                        help="multiple-comparison correction of the pairs (default: holm; nemenyi for friedman)")
    parser.add_argument("--method", help="mcnemar: exact | asymptotic | midp; friedman: chi2 | iman_davenport")
    parser.add_argument("--continuity", choices=["on", "off"], help="continuity correction (mcnemar, chi2)")
    parser.add_argument("--threshold", type=float, help="labels from scores at this threshold")
    parser.add_argument("--resamples", type=int, help="paired_bootstrap: number of resamples (default 2000)")
    parser.add_argument("--seed", type=int, help="paired_bootstrap: seed (default 0)")
    parser.add_argument("--loss", choices=["squared", "absolute"], help="diebold_mariano: loss (default squared)")
    parser.add_argument("--horizon", type=int, help="diebold_mariano: forecast horizon h (default 1)")
    parser.add_argument("--test-train-ratio", type=float,
                        help="corrected_resampled_t: n_test / n_train (default 1/(k-1) for k folds)")
    parser.add_argument("--alternative", choices=["two-sided", "less", "greater"], default="two-sided")
    parser.add_argument("--confidence-level", type=float, default=0.95)
    parser.set_defaults(run=run)


def _options(args) -> dict:
    named = {"method": args.method, "threshold": args.threshold, "n_resamples": args.resamples, "seed": args.seed,
             "loss": args.loss, "h": args.horizon, "test_train_ratio": args.test_train_ratio,
             "continuity": None if args.continuity is None else args.continuity == "on"}
    return {k: v for k, v in named.items() if v is not None}


def comparison_data(args):
    """{model: Predictions} of a predictions file, or the (canonical) per-fold scores table of a fold table."""
    limits = Limits.from_env()
    table = read_table(args.file, decimal=args.decimal, limits=limits,
                       sheet=int(args.sheet) if args.sheet and args.sheet.isdigit() else args.sheet)
    if is_fold_table(table.frame) and not args.y_true:
        frame, metrics = read_fold_table(table)
        if args.metric and args.metric not in metrics:
            raise AssessError(f"{table.name}: no metric column {args.metric!r} (metric columns: {', '.join(metrics)})")
        return frame, args.metric or metrics[0]
    assessment = load_assessment(args)
    if assessment.errors:
        raise AssessError(f"{assessment.table.name}: {assessment.errors[0].message}")
    models = args.models or list(assessment.models)
    unknown = [m for m in models if m not in assessment.models]
    if unknown:
        raise AssessError(f"{assessment.table.name}: no model {unknown[0]!r} (models: {', '.join(assessment.models)})")
    preds = {m: assessment.predictions(m) for m in models}
    if args.threshold is not None:  # labels from the scores at this threshold, as in `metrics`
        preds = {m: replace(p, y_pred=None) if p.scores is not None else p for m, p in preds.items()}
    return preds, args.metric


def run(args) -> int:
    data, metric = comparison_data(args)
    options = _options(args)
    common = dict(models=args.models, metric=metric, confidence_level=args.confidence_level)
    if args.test == "all":
        result = compare_all(data, correction=args.correction, **common, **options)
    else:
        result = compare(data, test=args.test, correction=args.correction, alternative=args.alternative, **common,
                         **options)
    print_json(json_ready(result.to_dict()))
    return 0
