"""``python -m assess controls FILE [--train-ids F] [--shift-by COL]``: the ISO 4213 5.3 controls the app can check
itself (`assess.analyses.controls`), as JSON.

``{"file", "checklist": [{"key", "clause", "title", "checked", "status"}], "overlap", "ground_truth", "shift",
"same_test_data"}`` — each part only when the data allows it: ``overlap`` with ``--train-ids`` (a file of training
ids, optionally with the feature columns, or a plain list of ids) or a ``split`` column; ``ground_truth`` with two or
more categorical ``y_true_<annotator>`` columns; ``shift`` between the groups of ``--shift-by`` (default: the split
column, the folds, the first slice column, …); ``same_test_data`` with two or more models. Statuses: ``ok``,
``attention``, ``problem``, ``not checked``.
"""

from __future__ import annotations

from assess.analyses import controls
from assess.cli.common import (EXIT_STATUS, add_decision_options, add_input_options, decision_from_args,
                               followed, load_assessment, print_json)
from assess.cli.progress import doing
from assess.core.errors import AssessError


def add_parser(sub) -> None:
    parser = sub.add_parser("controls", help="the ISO 5.3 controls the app can check: train/test overlap, leakage, "
                                             "annotator agreement, distribution shift",
                            description="Check what ISO/IEC TS 4213 5.3 asks of an assessment, as far as the files "
                                        "show it, and print the results and the checklist as JSON.",
                            epilog=EXIT_STATUS)
    add_input_options(parser)
    parser.add_argument("--train-ids", metavar="F",
                        help="file of the training data's sample ids (an id column, optionally feature columns; or "
                             "one id per line)")
    parser.add_argument("--shift-by", metavar="COL",
                        help="column whose groups (splits, folds, periods) are compared for distribution shift")
    add_decision_options(parser)
    parser.set_defaults(run=followed(run))


def run(args) -> int:
    assessment = load_assessment(args)
    doing("computing the controls")
    if assessment.errors:
        raise AssessError(f"{assessment.table.name}: {assessment.errors[0].message}")
    decision = decision_from_args(args, assessment.task, assessment.classes)
    train = controls.read_training(args.train_ids) if args.train_ids else None
    result = controls.run_controls(assessment, train=train, shift_by=args.shift_by, decision=decision)
    print_json({"file": assessment.table.name} | result.to_dict())
    return 0
