"""``python -m assess slices FILE [--slice COL …] [--discover …]`` and ``assess metrics FILE --slice COL [--slice COL2]
--by-fold``.

``slices`` prints ``{"task", "metric", "slices": …, "discovered": [...], "search": {...}}``: ``"slices"`` the declared
slices' analysis below (with ``--slice``, or the file's subgroup columns), and with ``--discover`` the weak slices
found by :func:`assess.analyses.discovery.discover` — ``"discovered": [{"model", "metric", "conditions": {"column":
"value or [low, high)"}, "n", "value", "low", "high", "rest", "difference", "difference_low", "difference_high",
"test", "pvalue", "p_adjusted"}]``, worst (highest SliceLine score) first, every model's — and ``"search"`` what was
searched (columns, conditions, minimum size, candidates in the Benjamini–Hochberg correction per model).

``metrics --slice`` and ``--by-fold``: metrics per slice, fairness gaps, per-fold spread and
the learning curve, added to the ``metrics`` JSON under their own keys.

- ``"slices"`` (with ``--slice``; several ``--slice`` flags cross their columns): ``{"columns", "min_size",
  "test_metrics", "by_model": {model: {slice: {"n", "tested", "values": {column: value}, "metrics": {key: {"value",
  "low", "high", "method", "overall", "gap"}}}}}, "tests": [{"model", "key", "slice", "n", "test", "statistic", "pvalue",
  "p_adjusted", "value", "rest", "difference", "low", "high", "worse"}], "omnibus": [{"model", "key", "test",
  "statistic", "df", "pvalue", "slices"}], "notes": [...]}`` (:class:`assess.analyses.slices.SliceAnalysis`); ``"fairness"``
  (binary files, one ``--slice`` column): ``{model: {"column", "by_group": {group: {"n", "selection_rate", "tpr",
  "fpr"}}, "gaps": {fairlearn name: {"value", "low", "high", "method", "note"}}}}`` (intervals with any ``--ci``:
  :func:`assess.analyses.slices.gap_intervals`).
- ``"by_fold"`` (with ``--by-fold``): ``{model: {key: {"pooled", "mean", "sd", "low", "high", "n_folds", "method",
  "folds": {fold: value}}}}`` (:class:`assess.analyses.folds.FoldSummary`; repeated CV gives the Nadeau–Bengio
  corrected interval and folds named ``"repeat/fold"``).
- ``"learning_curve"`` (with ``--by-fold`` on a file with a ``train_size`` column): ``{"column", "metric",
  "points": [{"model", "train_size", "mean", "sd", "low", "high", "n_folds"}], "trend": {model: {"slope", "low",
  "high", "sizes", "verdict"}}}``.
"""

from __future__ import annotations

from assess.cli import SUMMARIES
from assess.cli.common import (EXIT_STATUS, add_decision_options, add_input_options, decision_from_args, followed,
                               load_assessment, print_json)
from assess.cli.option_values import whole
from assess.core.data import Task
from assess.core.errors import AssessError
from assess.present.settings import CONFIDENCE_LEVEL, ranged

#: ``--min-slice-size``'s default as its help states it: `assess.analyses.slices.MIN_SLICE_SIZE` (the help cannot import that
#: module, whose tests pull in all of assess.stats — ~0.15 s of every ``metrics`` run's start; a test keeps the two
#: equal).
MIN_SLICE_SIZE_HELP = 30


def add_options(parser) -> None:
    group = parser.add_argument_group("slices and folds")
    group.add_argument("--slice", action="append", metavar="COL", dest="slices",
                       help="metrics per value of column COL (repeat the flag to cross several columns), the gap to "
                            "the overall value and tests across slices; binary files also get fairness gaps")
    group.add_argument("--slice-test", nargs="+", metavar="KEY",
                       help="metrics tested across slices (default: accuracy for classification, mae for numbers)")
    group.add_argument("--min-slice-size", type=int, default=None,
                       help=f"slices with fewer rows are reported but not tested (default {MIN_SLICE_SIZE_HELP})")
    group.add_argument("--by-fold", action="store_true",
                       help="every metric per cross-validation fold with mean, SD and a t interval over the folds "
                            "(corrected for repeated CV); a learning curve when the file has a train_size column")


def extend(doc: dict, assessment, args, decision, models) -> None:
    """Add the ``slices``/``fairness``, ``by_fold`` and ``learning_curve`` keys that the flags ask for."""
    interval = args.ci
    if args.slices:
        # (imported here: a run without the flags never loads the slice analysis and its tests)
        from assess.analyses.slices import MIN_SLICE_SIZE, analyse_slices, fairness_gaps, slice_values

        analysis = analyse_slices(assessment, args.slices, models=models, keys=args.metrics,
                                  test_keys=args.slice_test, decision=decision, ci=interval,
                                  confidence_level=args.confidence_level, n_resamples=args.n_resamples, seed=args.seed,
                                  test_resamples=args.n_resamples,
                                  min_size=MIN_SLICE_SIZE if args.min_slice_size is None else args.min_slice_size)
        doc["slices"] = analysis.to_dict()
        if assessment.task is Task.BINARY and len(set(args.slices)) == 1:
            labels = slice_values(assessment.frame, args.slices, name=assessment.table.name)["slice"]
            doc["fairness"] = {}
            for m in models:
                groups = labels.iloc[assessment.model_rows[m]].to_numpy()
                if len(set(groups)) < 2:      # e.g. a column that is constant within each model
                    continue
                doc["fairness"][m] = fairness_gaps(
                    assessment.predictions(m), groups, column=args.slices[0],
                    decision=decision, ci=interval, confidence_level=args.confidence_level).to_dict()
    if args.by_fold:
        from assess.analyses.folds import fold_metrics, learning_curve, train_size_column
        from assess.metrics.registry import slice_test_metric

        doc["by_fold"] = fold_metrics(assessment, models=models, keys=args.metrics, decision=decision,
                                      confidence_level=args.confidence_level).to_dict()
        if train_size_column(assessment) is not None:
            key = (args.slice_test or args.metrics or [slice_test_metric(assessment.task)])[0]
            curve = learning_curve(assessment, key, models=models, decision=decision,
                                   confidence_level=args.confidence_level)
            doc["learning_curve"] = {"column": curve.column, "metric": curve.key,
                                     "points": curve.points.to_dict("records"),
                                     "trend": {r.pop("model"): r for r in curve.trend.to_dict("records")}}


def add_parser(sub) -> None:
    parser = sub.add_parser("slices", help=SUMMARIES["slices"],
                            description="The metric per declared slice with tests (--slice, or the file's subgroup "
                                        "columns) and, with --discover, the slices much worse than the rest found "
                                        "by a SliceLine search over the other columns, tested with Benjamini–"
                                        "Hochberg control across every slice looked at.",
                            epilog=EXIT_STATUS)
    add_input_options(parser)
    parser.add_argument("--slice", action="append", metavar="COL", dest="slices",
                        help="a declared slice column (repeat to cross several)")
    parser.add_argument("--discover", action="store_true", help="search for weak slices")
    parser.add_argument("--features", nargs="+", metavar="COL",
                        help="columns the search may condition on (default: every column besides the predictions)")
    parser.add_argument("--max-conditions", type=int, choices=(1, 2, 3), default=2,
                        help="conditions per slice (default 2)")
    parser.add_argument("--min-size", type=whole(2), metavar="N",
                        help="fewest rows of a slice (default: 1%% of the rows, at least 30)")
    parser.add_argument("--metric", metavar="KEY",
                        help="the metric (default: accuracy for classification, mae for numbers); the search takes "
                             "a mean over rows (accuracy, recall, log loss, mae …)")
    parser.add_argument("--models", nargs="+", metavar="M", help="only these models (default: all)")
    parser.add_argument("--confidence-level", dest="confidence_level", type=ranged(CONFIDENCE_LEVEL), default=0.95,
                        help=f"confidence level; 1 − it is the false discovery rate, {CONFIDENCE_LEVEL} "
                             "(default 0.95)")
    add_decision_options(parser)
    parser.set_defaults(run=followed(run_slices))


def run_slices(args) -> int:
    from assess.analyses.discovery import discover
    from assess.analyses.slices import MIN_SLICE_SIZE, analyse_slices
    from assess.metrics.registry import slice_test_metric

    assessment = load_assessment(args)
    if assessment.errors:
        raise AssessError(f"{assessment.table.name}: {assessment.errors[0].message}")
    declared = args.slices or list(assessment.roles.groups)
    if not declared and not args.discover:
        raise AssessError(f"{assessment.table.name}: name a slice column (--slice COL) or search for weak slices "
                          "(--discover)")
    decision = decision_from_args(args, assessment.task, assessment.classes)
    key = args.metric or slice_test_metric(assessment.task)
    models = args.models or list(assessment.models)
    doc: dict = {"task": assessment.task.value, "metric": key}
    if declared:
        doc["slices"] = analyse_slices(assessment, declared, models=models, keys=[key], test_keys=[key],
                                       decision=decision, ci="auto", confidence_level=args.confidence_level,
                                       min_size=args.min_size or MIN_SLICE_SIZE).to_dict()
    if args.discover:
        found, search = [], {}
        for m in models:
            d = discover(assessment, m, key=key, columns=args.features, max_conditions=args.max_conditions,
                         min_size=args.min_size, decision=decision, confidence_level=args.confidence_level)
            found += d.to_list()
            search[m] = {"columns": list(d.columns), "max_conditions": d.max_conditions, "min_size": d.min_size,
                         "looked_at": d.looked_at, "correction": "Benjamini–Hochberg over every slice looked at",
                         "false_discovery_rate": round(1 - d.confidence_level, 10)}
        doc["discovered"] = found
        doc["search"] = search
    print_json(doc)
    return 0
