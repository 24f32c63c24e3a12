"""``python -m assess compare FILE --test NAME``: significance tests between models, as JSON (SPEC "Command line").

FILE is a predictions file or a tidy table of per-fold scores (``model``, ``fold``, metric columns). Models with the
same sample ids are compared as paired samples; models with disjoint ids (different test sets) as independent
samples — the JSON says which design was assumed and why (``design``, ``design_reason``). Two models give one result;
more give the omnibus test (where there is one) and every pair with adjusted p-values under ``"pairs"``.
``--test all`` runs every test that suits the data and their design, with one ``"verdict"`` by the rule of
:mod:`assess.stats.verdict` (the report's verdict). A multi-output regression is compared on the average over its
outputs, ``--output NAME`` on one (`assess.stats.inputs.comparison_predictions`). ``--test`` and every test option
flag come from the test registry (:data:`assess.stats.TESTS`).
"""

from __future__ import annotations

from assess.cli import SUMMARIES

from assess.cli.common import (EXIT_STATUS, add_decision_options, add_input_options, config_out_of_core,
                               decision_from_args, followed, load_assessment, overrides_from_args, print_json,
                               read_input)
from assess.cli.engine import add_engine_options, chosen_engine
from assess.cli.progress import doing
from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.stats import CORRECTIONS, TEST_NAMES, TESTS, cli_options, compare, compare_all
from assess.present.settings import CONFIDENCE_LEVEL, ranged
from assess.stats.inputs import comparison_predictions, is_fold_table, read_fold_table


def _test_list() -> str:
    return "; ".join(f"{key}: {spec.doc} ({spec.design})" for key, spec in TESTS.items())


def add_parser(sub) -> None:
    parser = sub.add_parser("compare", help=SUMMARIES["compare"],
                            description="Run a significance test between the models of FILE and print the result as "
                                        "JSON: statistic, p-value, effect with CI, assumptions, a sentence, and the "
                                        "design assumed (paired: the same sample ids for every model; independent: "
                                        "disjoint ids, i.e. different test sets). Tests: " + _test_list() + ".",
                            epilog=EXIT_STATUS)
    add_input_options(parser)
    parser.add_argument("--test", required=True, choices=[*TEST_NAMES, "all"], help="the test to run")
    parser.add_argument("--models", nargs="+", metavar="M", help="models to compare (default: all)")
    parser.add_argument("--metric", help="metric key (predictions) or metric column (fold table) the test compares")
    parser.add_argument("--output", metavar="NAME",
                        help="multi-output regression: compare the models on this output alone (default: on the "
                             "average over the outputs, the value `metrics` and the report give)")
    parser.add_argument("--correction", choices=["auto", *CORRECTIONS], default="auto",
                        help="multiple-comparison correction of the pairs (default: holm; nemenyi for friedman)")
    add_option_flags(parser)
    parser.add_argument("--alternative", choices=["two-sided", "less", "greater"], default="two-sided")
    parser.add_argument("--confidence-level", type=ranged(CONFIDENCE_LEVEL), default=0.95,
                        help=f"level of the effect's interval, {CONFIDENCE_LEVEL} (default 0.95)")
    add_decision_options(parser)
    add_engine_options(parser)
    parser.set_defaults(run=followed(run))


def add_option_flags(parser) -> None:
    """One flag per test option name (:func:`assess.stats.cli_options`): choices are the union over the tests that
    have the option, on/off for booleans; the help says, per variant of the option, which tests take it, what it
    does and its default."""
    for name, (first, by_test) in cli_options().items():
        variants: dict[int, tuple] = {}
        for test, opt in by_test.items():
            variants.setdefault(id(opt), (opt, []))[1].append(test)
        text = "; ".join(f"{', '.join(tests)}: {opt.help}"
                         + (f" ({' | '.join(opt.choices)})" if opt.kind is str else "") + f", {_default(opt)}"
                         for opt, tests in variants.values())
        kwargs = dict(dest=name, default=None, help=text)
        if first.kind is str:
            kwargs["choices"] = list(dict.fromkeys(c for opt in by_test.values() for c in opt.choices))
        elif first.kind is bool:
            kwargs["choices"] = ["on", "off"]
        else:
            kwargs["type"] = first.kind
            kwargs["metavar"] = "N" if first.kind is int else "X"
        parser.add_argument(first.cli_flag, **kwargs)


def _default(opt) -> str:
    if opt.default is None:
        return "default from the data"
    if opt.kind is bool:
        return "default on" if opt.default else "default off"
    return f"default {opt.default}"


def _options(args) -> dict:
    """The test options given on the command line, as the tests take them (on/off become booleans)."""
    out = {}
    for name, (first, _) in cli_options().items():
        value = getattr(args, name)
        if value is not None:
            out[name] = value == "on" if first.kind is bool else value
    return out


def comparison_data(args):
    """``(data, metric, decision)``: {model: Predictions} of a predictions file, or the (canonical) per-fold scores
    table of a fold table (whose scores are already computed: the default decision)."""
    table = read_input(args)   # measured first, as every command's file: the limit is memory
    if is_fold_table(table.frame) and not args.y_true:
        frame, metrics = read_fold_table(table)
        if args.metric and args.metric not in metrics:
            raise AssessError(f"{table.name}: no metric column {args.metric!r} (metric columns: {', '.join(metrics)})")
        if args.output:
            raise AssessError(f"{table.name}: --output names an output of a multi-output predictions file; a fold "
                              "table has metric columns (choose one with --metric)")
        return frame, args.metric or metrics[0], Decision()
    assessment = load_assessment(args, table)
    if assessment.errors:
        raise AssessError(f"{assessment.table.name}: {assessment.errors[0].message}")
    models = args.models or list(assessment.models)
    if len(assessment.models) < 2:
        raise AssessError(f"{assessment.table.name}: comparing models needs at least 2 models; it has 1 "
                          f"({assessment.models[0]!r}): name the model-name column with --model-col (one row per "
                          "sample and model), or give one `y_pred_<model>`/`score_<model>` column per model")
    unknown = [m for m in models if m not in assessment.models]
    if unknown:
        raise AssessError(f"{assessment.table.name}: no model {unknown[0]!r} (models: {', '.join(assessment.models)})")
    preds = comparison_predictions(assessment, models, output=args.output)
    return preds, args.metric, decision_from_args(args, assessment.task, assessment.classes)


def run(args) -> int:
    engine = chosen_engine(args)
    if engine != "memory":
        config_out_of_core(args, engine)
        doing(f"running the tests out of core ({engine})")
        print_json(run_engine_compare(args, engine))
        return 0
    data, metric, decision = comparison_data(args)
    doing(f"running the test{'s' if args.test == 'all' else ''}")
    options = _options(args)
    common = dict(models=args.models, metric=metric, confidence_level=args.confidence_level, decision=decision)
    if args.test == "all":
        result = compare_all(data, correction=args.correction, **common, **options)
    else:
        result = compare(data, test=args.test, correction=args.correction, alternative=args.alternative, **common,
                         **options)
    print_json(result.to_dict())
    return 0


def run_engine_compare(args, engine: str) -> dict:
    """The ``compare`` JSON of FILE from tables the engine groups (`assess.engine.compare`: McNemar, Cochran's Q,
    DeLong); any other test is refused with its name and ``--engine memory``; ``--test all`` runs those of the
    suggested tests and lists the others as skipped."""
    from assess.core.data import Task
    from assess.engine.compare import engine_compare, engine_compare_all, refuse_unsupported
    from assess.engine.source import resolve_source

    if args.metric:
        raise AssessError(f"--engine {engine}: the tests out of core compare per-sample correctness or ROC AUCs; "
                          "--metric does not apply")
    if args.test == "all":
        return engine_compare_all(resolve_source(args.file), engine, overrides_from_args(args), models=args.models,
                                  correction=args.correction, confidence_level=args.confidence_level,
                                  decision=decision_from_args(args, Task.BINARY), options=_options(args),
                                  spark_master=args.spark_master).to_dict()
    refuse_unsupported(args.test, engine)
    result = engine_compare(resolve_source(args.file), engine, overrides_from_args(args), test=args.test,
                            models=args.models, correction=args.correction, alternative=args.alternative,
                            confidence_level=args.confidence_level,
                            decision=decision_from_args(args, Task.BINARY), options=_options(args),
                            spark_master=args.spark_master)
    return result.to_dict()
