"""``python -m assess rows FILE (--cell TRUE,PRED | --worst N | --worst-slice COL…) [--model M]``: the rows behind a
number (`assess.analyses.rows`), as JSON or CSV.

- ``--cell TRUE,PRED`` (binary, multi-class): every row the confusion matrix counts in that cell, at the decision the
  flags describe (as ``metrics``: ``--labels-from``, ``--threshold``), in file order;
- ``--worst N``: the N most confidently wrong rows (binary, multi-class; the model needs scores) or the N largest
  errors (regression, forecasts; ``--output`` names a multi-output file's output);
- ``--worst-slice COL [COL …]``: the rows of the slice (a value of COL, or of the columns crossed) with the worst
  ``--metric`` (default: the slice-test metric of the task, accuracy or MAE), as the Slices page and the report name
  it (`assess.analyses.slices.SliceAnalysis.worst`), in file order.

JSON: ``{"file", "task", "selection", "models": {model: {"title", "total", "note", "rows": [{"row", "id", "model",
"truth", "prediction", "score", "error", "abs_error", "confidence_wrong", <the file's other columns>}]}}}`` (the keys
that apply; ``total`` counts every row of the selection, ``rows`` holds those printed). CSV: the rows of every model
in one table, text cells neutralised against formula injection.
"""

from __future__ import annotations

import json
import sys

from assess.cli import SUMMARIES
from assess.cli.common import (EXIT_STATUS, add_decision_options, add_input_options, decision_from_args, followed,
                               load_assessment, print_json)
from assess.cli.option_values import whole
from assess.cli.progress import doing
from assess.core.errors import AssessError
from assess.inputs.columns import quote


def add_parser(sub) -> None:
    parser = sub.add_parser("rows", help=SUMMARIES["rows"],
                            description="Print the rows behind a number: those of one confusion cell, the most "
                                        "confidently wrong, or the largest errors.", epilog=EXIT_STATUS)
    add_input_options(parser)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--cell", metavar="TRUE,PRED",
                       help="the rows of one confusion cell: true class, a comma, predicted class")
    which.add_argument("--worst", type=whole(1), metavar="N",
                       help="the N most confidently wrong rows (classification) or largest errors (numbers)")
    which.add_argument("--worst-slice", nargs="+", metavar="COL",
                       help="the rows of the slice of COL (several columns: crossed) with the worst --metric")
    parser.add_argument("--metric", metavar="KEY",
                        help="--worst-slice: the metric that ranks the slices (default: accuracy, or MAE for numbers)")
    parser.add_argument("--model", nargs="+", metavar="M", dest="models", help="only these models (default: all)")
    parser.add_argument("--output", metavar="NAME", help="multi-output regression: the output (default: the first)")
    parser.add_argument("--format", choices=["json", "csv"], default="json")
    add_decision_options(parser)
    parser.set_defaults(run=followed(run))


def split_cell(text: str, classes) -> tuple[str, str]:
    """(true, predicted) from ``TRUE,PRED``: the comma that leaves a class on each side (class names may hold
    commas)."""
    names = [str(c) for c in classes]
    for at in (i for i, ch in enumerate(text) if ch == ","):
        true, pred = text[:at].strip(), text[at + 1:].strip()
        if true in names and pred in names:
            return true, pred
    raise AssessError(f"--cell takes TRUE,PRED, two classes separated by a comma (classes: "
                      f"{', '.join(map(quote, names))}); got {quote(text)}")


def run(args) -> int:
    from assess.analyses import rows as selections
    from assess.present.export import to_csv_bytes, to_json_bytes

    assessment = load_assessment(args)
    if assessment.errors:
        raise AssessError(f"{assessment.table.name}: {assessment.errors[0].message}")
    decision = decision_from_args(args, assessment.task, assessment.classes)
    models = args.models or list(assessment.models)
    if args.cell is not None and assessment.task.value not in ("binary", "multiclass"):
        raise AssessError(f"--cell applies to binary and multi-class files; this file is {assessment.task.label} "
                          "(--worst N gives its largest errors)")
    doing("selecting the rows")
    ranked = key = None
    if args.worst_slice:
        from assess.analyses.slices import analyse_slices
        from assess.metrics.registry import slice_test_metric

        key = args.metric or slice_test_metric(assessment.task)
        # the metric on each slice, no interval and no test: only which slice is worst is asked
        ranked = analyse_slices(assessment, args.worst_slice, models=models, keys=[key], test_keys=[],
                                decision=decision, ci=None)
    found = {}
    for model in models:
        if ranked is not None:
            selected = selections.worst_slice_rows(assessment, ranked, model, key, decision=decision,
                                                    output=args.output)
            frame, _ = selections.page(selected, 1, max(selected.total, 1))
        elif args.cell is not None:
            true, pred = split_cell(args.cell, assessment.classes)
            selected = selections.cell_rows(assessment, model, true, pred, decision=decision)
            frame, _ = selections.page(selected, 1, max(selected.total, 1))
        elif assessment.task.is_classification:
            selected = selections.confidently_wrong(assessment, model, decision=decision)
            frame, _ = selections.page(selected, 1, args.worst)
        else:
            selected = selections.largest_errors(assessment, model, output=args.output)
            frame, _ = selections.page(selected, 1, args.worst)
        found[model] = selected, frame
    if args.format == "csv":
        import pandas as pd

        sys.stdout.write(to_csv_bytes(pd.concat([f for _, f in found.values()], ignore_index=True)).decode("utf-8"))
        return 0
    doc = {"file": assessment.table.name, "task": assessment.task.value,
           "selection": {"cell": args.cell} if args.cell is not None else {"worst": args.worst} if args.worst
           else {"worst_slice": args.worst_slice, "metric": key},
           "models": {m: {"title": s.title, "total": s.total, "note": s.note, "rows": f}
                      for m, (s, f) in found.items()}}
    # to_json_bytes reads the file's own cells (dates, numpy values) as JSON; printed indented as every command's JSON
    print_json(json.loads(to_json_bytes(doc)))
    return 0
